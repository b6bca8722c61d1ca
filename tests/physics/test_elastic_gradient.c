/*
 * test_elastic_gradient.c — the elastic contact's normal forces are the
 * gradient of its elastic energy (issue 20; docs/contact.md "Normal law:
 * strips").
 *
 * The climb rig (generated/climb: a wheelset of S1002 wheels on 60E1 1:40,
 * its carrier's yaw free) frictionless, without normal damping, at rest in
 * poses across the flangeway, pressed to a total normal load of about the
 * rig's weight: the generalized force of the contact, Σ_wheels Jᵀ W
 * (rs_elastic_wheel_get), against a central difference of the elastic
 * energy Σ kw dn²/2 (rs_elastic_energy) in each coordinate that moves a
 * wheel (y, z, roll, yaw).  A conservative law passes at every pose; the
 * point law (one Hertz force per minimum of the gap) fails where the gap is
 * flat (the conformal flange root: its force has a curl there).
 */
#define _GNU_SOURCE
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_elastic.h"
#include "rs_contact.h"
#include "rs_load.h"
#include "rs_scenario.h"
#include "rs_test.h"
#include "rs_ws.h"
#include "rt_fixtures.h"

enum { NC = 4 };
static const char *const COORD[NC] = {"y", "z", "roll", "yaw"};

static int q_index(rs_ws *ws, const char *name)
{
    rs_var v;
    ck_assert_msg(rs_model_find(rs_ws_model(ws), name, &v) == RS_OK, "%s", name);
    return v.index;
}

/* The contact's generalized force Σ Jᵀ W at the state's q (q̇ = 0). */
static void contact_force(rs_ws *ws, double *F)
{
    const int nq = rs_ws_model(ws)->n_q;
    ck_assert_msg(rs_elastic_eval(ws, 0, rs_ws_q(ws), rs_ws_qd(ws)) == RS_OK, "%s", rs_ws_error(ws));
    memset(F, 0, (size_t)nq * sizeof *F);
    for (int i = 0; i < rs_ws_model(ws)->n_contact; i++) {
        rs_elastic_wheel_state s;
        rs_elastic_wheel_get(ws, i, &s);
        for (int l = 0; l < s.m; l++)
            for (int k = 0; k < 6; k++)
                F[s.cols[l]] += s.J[6 * l + k] * s.W[k];
    }
}

/* z that presses the wheelset with a total vertical force Fz (bisection). */
static double press(rs_ws *ws, int iz, double Fz)
{
    double lo = -3e-3, hi = 3e-3, F[64];
    double *q = rs_ws_q(ws);
    for (int it = 0; it < 60; it++) {
        q[iz] = 0.5 * (lo + hi);
        contact_force(ws, F);
        if (F[iz] > Fz)
            lo = q[iz];
        else
            hi = q[iz];
    }
    return q[iz];
}

/* Largest |Σ Jᵀ W + ∂E/∂q| over the coordinates, relative to the largest
 * |Σ Jᵀ W| among the translations (N; the rotations' moments in N m are
 * compared over a lever of 1 m). */
static double gradient_error(rs_ws *ws, double *Fmax, int verbose, const char *what)
{
    double F[64], *q = rs_ws_q(ws), err = 0;
    contact_force(ws, F);
    *Fmax = 0;
    for (int c = 0; c < NC; c++)
        *Fmax = fmax(*Fmax, fabs(F[q_index(ws, COORD[c])]));
    for (int c = 0; c < NC; c++) {
        const int j = q_index(ws, COORD[c]);
        const double h = 1e-8, q0 = q[j];
        q[j] = q0 + h;
        const double Ep = rs_elastic_energy(ws);
        q[j] = q0 - h;
        const double Em = rs_elastic_energy(ws);
        q[j] = q0;
        const double fd = -(Ep - Em) / (2 * h);
        err = fmax(err, fabs(F[j] - fd));
        if (verbose)
            printf("  %s %-4s: J^T W %.6g, -dE/dq %.6g\n", what, COORD[c], F[j], fd);
    }
    return err / *Fmax;
}

static rs_ws *rig(const rs_model *m, int normal)
{
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_elastic_contact();
    o.contact_creep = 0;
    o.contact_damp = 0;
    o.contact_normal = normal;
    rs_ws *ws;
    char err[600];
    ck_assert_msg(rs_ws_create(m, &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    return ws;
}

/* The worst relative gradient error over poses y (lateral shift) and yaw
 * across the flangeway, each pressed to 47 kN (about the rig's weight):
 * the tread (y 0, two minima on S1002/60E1), the flange root (3-6 mm, the
 * conformal stretch from 5 mm on), flange and root at once (6.2, 6.5 mm),
 * the flank alone at 20 mrad (6.2 mm).  Left out: 6.5 mm at 20 mrad, where
 * the flank's overlap reaches past the end of 60E1's table (the integral
 * stops at the table's edge, which moves with the wheel: 1.2e-2 there). */
static double worst(const rs_model *m, int normal, int verbose)
{
    static const double Y[] = {0, 0.003, 0.005, 0.006, 0.0062, 0.0065};
    static const double PSI[] = {0, 0.005, 0.02};
    rs_ws *ws = rig(m, normal);
    const int iy = q_index(ws, "y"), iz = q_index(ws, "z"), iyaw = q_index(ws, "yaw");
    double *q = rs_ws_q(ws), w = 0;
    for (size_t a = 0; a < sizeof PSI / sizeof *PSI; a++)
        for (size_t b = 0; b < sizeof Y / sizeof *Y; b++) {
            if (PSI[a] > 0.01 && Y[b] > 0.0063)
                continue;
            q[iyaw] = PSI[a];
            q[iy] = Y[b];
            press(ws, iz, 47e3);
            double Fmax;
            char what[64];
            snprintf(what, sizeof what, "%s y %.1f mm psi %.0f mrad", normal == RS_NORMAL_POINT ? "point" : "strips", 1e3 * Y[b],
                     1e3 * PSI[a]);
            const double e = gradient_error(ws, &Fmax, verbose, what);
            printf("%s: z %.1f um, largest |F| %.0f, gradient error %.2e of it\n", what, 1e6 * q[iz], Fmax, e);
            w = fmax(w, e);
        }
    rs_ws_free(&ws);
    return w;
}

START_TEST(test_strips_are_a_gradient)
{
    RS_REQUIRE_MODEL("climb");
    rs_loaded *h = rt_load("generated/climb");
    const double e = worst(rs_loaded_model(h), RS_NORMAL_STRIPS, getenv("RS_VERBOSE") != NULL);
    ck_assert_msg(e < 6e-3, "the strip law's force differs from the energy's gradient by %g of it", e);
    rs_unload(&h);
}
END_TEST

START_TEST(test_point_law_is_not)
{
    RS_REQUIRE_MODEL("climb");
    rs_loaded *h = rt_load("generated/climb");
    const double e = worst(rs_loaded_model(h), RS_NORMAL_POINT, getenv("RS_VERBOSE") != NULL);
    ck_assert_msg(e > 1.5e-2, "the point law's force is the energy's gradient to %g: the flat-gap defect gone?", e);
    rs_unload(&h);
}
END_TEST

/* `normal strips` in a scenario chooses the law; the constraint contact
 * refuses it (one point per wheel, no slices to integrate over). */
START_TEST(test_scenario_chooses_the_law)
{
    RS_REQUIRE_MODEL("climb");
    rs_loaded *h = rt_load("generated/climb");
    const rs_model *m = rs_loaded_model(h);
    char err[600];
    rs_scenario s;
    rs_scenario_init(&s);
    const char *text = "normal strips\n";
    ck_assert_msg(rs_scenario_parse(text, strlen(text), "t.scn", &s, err, sizeof err) == RS_OK, "%s", err);
    rs_binding *b;
    ck_assert_msg(rs_scenario_bind(&s, m, &b, err, sizeof err) == RS_OK, "%s", err);
    rs_options o;
    rs_options_default(&o);
    ck_assert_int_eq(o.contact_normal, RS_NORMAL_DEFAULT);
    rs_binding_options(b, &o);
    ck_assert_int_eq(o.contact_normal, RS_NORMAL_STRIPS);
    o.contact = rs_wheel_rail_contact();
    rs_ws *ws = NULL;
    ck_assert_int_eq(rs_ws_create(m, &o, &ws, err, sizeof err), RS_E_UNSUPPORTED);
    ck_assert_str_eq(err, "model 'climb': the constraint contact holds one point per wheel on its rail; the strip "
                          "normal law (scenario 'normal strips', rs_options.contact_normal) belongs to the elastic "
                          "contact (scenario 'contact elastic', rs_elastic_contact())");
    o.contact = rs_elastic_contact();
    ck_assert_msg(rs_ws_create(m, &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(rs_ws_set_q(ws, "z", -1e-4), RS_OK); /* pressed into both rails */
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    ck_assert_int_eq(rs_elastic_eval(ws, 0, rs_ws_q(ws), rs_ws_qd(ws)), RS_OK);
    for (int i = 0; i < m->n_contact; i++) {
        ck_assert_int_ge(rs_elastic_patches(ws, i), 1);
        for (int j = 0; j < rs_elastic_patches(ws, i); j++)
            ck_assert_int_eq(rs_elastic_patch_get(ws, i, j)->g.nn, RS_PATCH_NODES);
    }
    rs_ws_free(&ws);
    rs_binding_free(&b);
    rs_scenario_free(&s);
    rs_unload(&h);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("elastic_gradient");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_strips_are_a_gradient);
    tcase_add_test(tc, test_point_law_is_not);
    tcase_add_test(tc, test_scenario_chooses_the_law);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return rs_test_run(suite()); }
