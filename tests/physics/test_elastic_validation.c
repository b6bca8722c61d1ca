/*
 * test_elastic_validation.c — physics validations of the elastic
 * multi-point wheel-rail contact (rs_elastic.h; docs/contact.md "Elastic
 * contact: validation"), each against a closed-form answer the contact does
 * not compute:
 *
 *  - flange climb (Nadal 1908): a wheelset (generated/climb, independently
 *    rotating S1002 wheels on 60E1 1:40) rolling at 5 m/s, held at an angle
 *    of attack ψ and pushed against the left rail by a slowly growing
 *    lateral force, starts to climb when the flanging wheel's Y/Q reaches
 *    (tan β − μ)/(1 + μ tan β) at the flange angle β;
 *  - curving with cant deficiency: the two-axle bogie (generated/bogie) runs
 *    vehicles/tracks/r300.trk (clothoid with a linear cant ramp into a R 300 m
 *    right curve with 100 mm cant) under cant deficiency: the leading outer
 *    wheel runs on its flange and the rails' lateral forces in the canted
 *    plane balance m (V²/R cos φ − g sin φ).
 */
#define _GNU_SOURCE
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_contact.h"
#include "rs_elastic.h"
#include "rs_load.h"
#include "rs_test.h"
#include "rs_ws.h"

static rs_loaded *load(const char *dir)
{
    char err[2000];
    rs_loaded *h = rs_load(dir, RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    return h;
}

static void set_param(rs_ws *ws, const char *name, double x)
{
    ck_assert_msg(rs_ws_set_param(ws, name, x) == RS_OK, "parameter %s", name);
}

static double param(rs_ws *ws, const char *name)
{
    rs_var v;
    ck_assert_int_eq(rs_model_find(rs_ws_model(ws), name, &v), RS_OK);
    return rs_ws_p(ws)[v.index];
}

static rs_var var(rs_ws *ws, const char *name)
{
    rs_var v;
    ck_assert_msg(rs_model_find(rs_ws_model(ws), name, &v) == RS_OK, "%s", name);
    return v;
}

static double value(rs_ws *ws, const char *name) { return rs_ws_value(ws, var(ws, name), NULL); }

static int q_index(rs_ws *ws, const char *name)
{
    rs_var v = var(ws, name);
    return v.index;
}

/* ---- flange climb ---------------------------------------------------------- */

#define MU 0.3
static int verbose;

START_TEST(test_flange_climb_nadal)
{
    RS_REQUIRE_MODEL("climb");
    rs_loaded *h = load("generated/climb");
    const rs_model *m = rs_loaded_model(h);
    const double dt = getenv("CLIMB_DT") ? atof(getenv("CLIMB_DT")) : 1e-4;
    const double psi = getenv("CLIMB_PSI") ? atof(getenv("CLIMB_PSI")) : 0.02;
    const double rate = getenv("CLIMB_RATE") ? atof(getenv("CLIMB_RATE")) : 20e3;
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_elastic_contact();
    o.dt = dt;
    o.contact_mu = MU;
    o.contact_law = getenv("CLIMB_LAW") ? atoi(getenv("CLIMB_LAW")) : 1;
    rs_ws *ws;
    char err[600];
    ck_assert_msg(rs_ws_create(m, &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    set_param(ws, "psi", psi);
    const double V = 5, r0 = param(ws, "r0"), b0 = param(ws, "b0");
    ck_assert_int_eq(rs_ws_set_q(ws, "yaw", psi), RS_OK);
    ck_assert_int_eq(rs_ws_set_q(ws, "y", 0.006), RS_OK); /* near the flange: 6.2 mm */
    ck_assert_int_eq(rs_ws_set_q(ws, "z", 1e-4), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "x_dot", V), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "spin_l_dot", V / r0), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "spin_r_dot", V / r0), RS_OK);
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    const int iz = q_index(ws, "z"), iroll = q_index(ws, "roll"), iy = q_index(ws, "y");
    const rs_var vY = var(ws, "left.Y"), vQ = var(ws, "left.Q");
    double *q = rs_ws_q(ws);
    /* settle on the flange (F_y = 0: the yawed wheelset rolls into the left
     * rail by itself), then ramp F_y from F0 at RATE; the climb starts when
     * the left wheel has risen LIFT above its height at the ramp's start */
    const double t_ramp = 1.0, F0 = 20e3, LIFT = 1e-3;
    double lift_ref = NAN, yq = NAN, alpha = 0, t_climb = NAN, yq_flange = NAN, yq_peak = 0, lift = 0;
    const long n = lround((t_ramp + 60e3 / rate) / dt);
    for (long k = 0; k < n && isnan(t_climb); k++) {
        const double t = rs_ws_time(ws), F = t < t_ramp ? 0 : F0 + rate * (t - t_ramp);
        ck_assert_int_eq(rs_ws_set_u(ws, "F_y", F), RS_OK);
        ck_assert_msg(rs_step(ws) == RS_OK, "t %g: %s", t, rs_ws_error(ws));
        lift = q[iz] + b0 * sin(q[iroll]);
        const double Y = rs_ws_value(ws, vY, NULL), Q = rs_ws_value(ws, vQ, NULL);
        double al = 0; /* the flange patch: the largest contact angle */
        for (int j = 0; j < rs_elastic_patches(ws, 0); j++)
            al = fmax(al, rs_elastic_patch_get(ws, 0, j)->g.alpha);
        if (verbose && k % lround(0.05 / dt) == 0)
            printf("t %.3f F %.0f y %.5f lift %.5f  Y %.0f Q %.0f Y/Q %.4f alpha %.2f deg patches %d  right: Y %.0f Q %.0f\n",
                   t, F, q[iy], isnan(lift_ref) ? 0 : lift - lift_ref, Y, Q, Y / Q,
                   al * 180 / M_PI, rs_elastic_patches(ws, 0), value(ws, "right.Y"), value(ws, "right.Q"));
        if (t < t_ramp)
            continue;
        if (isnan(lift_ref))
            lift_ref = lift;
        yq_peak = fmax(yq_peak, Y / Q);
        if (lift - lift_ref > LIFT && rs_elastic_patches(ws, 0) > 0) {
            t_climb = t;
            yq = Y / Q;
            alpha = al;
        } else if (isnan(yq_flange) && rs_elastic_patches(ws, 0) == 1 && al > 1)
            yq_flange = Y / Q; /* the tread unloads: the wheel rides on its flange alone */
    }
    ck_assert_msg(!isnan(t_climb), "no climb up to F_y = %g N (lift %g m)", F0 + rate * (n * dt - t_ramp),
                  lift - lift_ref);
    const double tb = tan(alpha), nadal = (tb - MU) / (1 + MU * tb);
    printf("flange climb (psi %g rad, mu %g, %s, dt %g, F_y rate %g N/s): climb at t %.3f s (lift %g m), "
           "Y/Q %.4f, flange angle %.3f deg, Nadal %.4f (ratio %.4f); Y/Q when the tread unloads %.4f, "
           "peak %.4f\n",
           psi, MU, o.contact_law == 1 ? "FASTSIM" : o.contact_law == 2 ? "Polach" : "Kalker sat.", dt, rate,
           t_climb, LIFT, yq, alpha * 180 / M_PI, nadal, yq / nadal, yq_flange, yq_peak);
    ck_assert_msg(alpha > 65 * M_PI / 180 && alpha < 75 * M_PI / 180, "flange angle %g deg", alpha * 180 / M_PI);
    ck_assert_msg(fabs(yq / nadal - 1) < 0.10, "Y/Q %g at the climb vs Nadal %g", yq, nadal);
    ck_assert_msg(fabs(yq_flange / nadal - 1) < 0.10, "Y/Q %g when the tread unloads vs Nadal %g", yq_flange,
                  nadal);
    rs_ws_free(&ws);
    rs_unload(&h);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("elastic_validation");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_flange_climb_nadal);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    verbose = getenv("RS_VERBOSE") != NULL;
    return rs_test_run(suite());
}
