/*
 * test_train_contact_out.c — a train's per-contact results (issue 20 item
 * 1e/4; docs/trains.md "contact_outputs"): the columns a single run offers
 * per contact (N, Q, Y, Y_Q, the creepages, patches, and per patch u_w ...
 * b), named <vehicle>.<contact>.<quantity>.
 *
 *   - the same state: the FEVE 3000 (generated/feve3000, elastic contact,
 *     FASTSIM, mu 0.3) as a one-vehicle train, 20 Park steps at 23.7 m/s;
 *     at the train's state its every contact quantity
 *     (rs_train_wheel_contact_value) against a single run's workspace of
 *     the same model and options evaluated at that state (rs_elastic_eval,
 *     then rs_ws_value of the name rs_model_find gives): equal to 1e-12
 *     (measured: bit for bit);
 *   - the same run: that train, its body 3 mm to the left, against the
 *     single IMEX run of the FEVE from the train's start state, after 0.05
 *     s at h = 2e-4 ... 1.25e-5 s: per-wheel Q, Y and each patch's N, u_w
 *     agree to the tolerances in the test at 1e-4 s (the two integrators
 *     differ: Park's method against the IMEX step, whose first-order
 *     error is the difference), Y's and u_w's
 *     differences shrinking with the step from 2e-4 s, Q's and N's from
 *     5e-5 s (first order: the IMEX step's error), and the single run's
 *     Richardson limit of Q equal to the train's to 5e-6 of Q;
 *   - the compliant contact (generated/wheelset_cone), centred at rest:
 *     Y/Q = 1/40 of its cones, Q = N cos(atan 1/40), sum Q = m g; one
 *     point per wheel (patches 1, the patch quantities NaN);
 *   - train files: `contact_outputs` alone (N, fx, fy), a list, `p*.`,
 *     `all`, and an unknown word's message.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_elastic.h"
#include "rs_park.h"
#include "rs_runtime.h"
#include "rs_train.h"
#include "rs_train_contact.h"
#include "rs_train_file.h"
#include "rs_train_model.h"
#include "rs_test.h"
#include "rs_test_train.h"
#include "rt_fixtures.h"

static rs_loaded *g_feve;

static const rs_model *feve(void)
{
    if (!g_feve)
        g_feve = rt_load("generated/feve3000");
    return rs_loaded_model(g_feve);
}

static void feve_opts(rs_train_wheel_contact_opts *co)
{
    rs_train_wheel_contact_opts_default(co);
    co->mode = RS_TRAIN_CONTACT_ELASTIC;
    co->law = 1; /* FASTSIM */
    co->mu = 0.3;
}

/* A one-vehicle train of the FEVE at v0, Park step h, its body y0 to the
 * left. */
static rs_train *feve_train(const rs_train_wheel_contact_opts *co, double h, double v0, double y0)
{
    const rs_model *m = feve();
    static double qd0[128], q0[128];
    static unsigned char qds[128], qs[128];
    ck_assert(m->n_q <= 128);
    rt_feve_rotors(m, v0, qd0, qds);
    memset(q0, 0, sizeof q0);
    memset(qs, 0, sizeof qs);
    q0[rt_coord_index(m, "y")] = y0;
    qs[rt_coord_index(m, "y")] = 1;
    const rs_test_vehicle v = {.pitch = 1, .contact = co, .q0 = q0, .q_set = qs, .qd0 = qd0, .qd_set = qds, .h = h,
                               .tol = 1e-10};
    rs_train *tr = rs_test_one_vehicle(m, &v);
    const int st = rs_train_start(tr, 0.0, 0.0, v0);
    ck_assert_msg(st == RS_OK, "start: %s: %s", rs_status_name(st), rs_train_error(tr));
    ck_assert_int_eq(rs_park_n(rs_train_park(tr)), m->n_q);
    return tr;
}

static void train_step(rs_train *tr)
{
    const int st = rs_train_step(tr);
    ck_assert_msg(st == RS_OK, "step: %s: %s", rs_status_name(st), rs_park_error(rs_train_park(tr)));
}

/* Quantity k of contact i from the single run's results, by its name. */
static double single_value(const rs_ws *ws, const rs_model *m, int i, int k)
{
    char name[256], qn[32];
    snprintf(name, sizeof name, "%s.%s", m->contacts[i].name, rs_train_contact_quantity_name(k, qn, sizeof qn));
    rs_var v;
    ck_assert_msg(rs_model_find(m, name, &v) == RS_OK && v.kind == RS_VAR_CONTACT, "no result '%s'", name);
    return rs_ws_value(ws, v, NULL);
}

START_TEST(test_same_state)
{
    const rs_model *m = feve();
    rs_train_wheel_contact_opts co;
    feve_opts(&co);
    rs_train *tr = feve_train(&co, 1e-3, 23.7, 0.0);
    for (int s = 0; s < 20; s++)
        train_step(tr);
    rs_park *pk = rs_train_park(tr);
    const double t = rs_park_t(pk);
    /* the train's contacts evaluated at its state */
    rs_train_wheel_contact *tc = rs_train_contact(tr, 0);
    ck_assert(tc && rs_train_wheel_contact_elastic(tc));
    ck_assert(rs_train_wheel_contact_eval(tc, t, rs_park_q(pk), rs_park_qd(pk), NULL, NULL, NULL, NULL) == RS_OK);
    /* initialized: parameters, hoisted constants */
    rs_ws *ws = rt_single_run_ws(m, &co, 1e-3, rs_park_q(pk), rs_park_qd(pk));
    ck_assert_msg(rs_elastic_eval(ws, t, rs_park_q(pk), rs_park_qd(pk)) == RS_OK, "%s", rs_ws_error(ws));
    double worst = 0;
    int worst_i = 0, worst_k = 0, npatch = 0, flange = 0;
    for (int i = 0; i < m->n_contact; i++) {
        for (int k = 0; k < RS_CONTACT_VAR_STRIDE; k++) {
            const double a = rs_train_wheel_contact_value(tc, i, k), b = single_value(ws, m, i, k);
            ck_assert_msg(isfinite(a) && isfinite(b), "contact %d quantity %d: %g, %g", i, k, a, b);
            const double d = fabs(a - b) / fmax(fabs(b), 1e-3);
            if (d > worst)
                worst = d, worst_i = i, worst_k = k;
        }
        npatch += (int)rs_train_wheel_contact_value(tc, i, RS_CONTACT_VAR_PATCHES);
        flange += rs_train_wheel_contact_value(tc, i, RS_CONTACT_VAR_Y_Q) > 0.3;
        /* Y/Q is Y over Q, Q the wheel's load */
        const double Q = rs_train_wheel_contact_value(tc, i, RS_CONTACT_VAR_Q);
        ck_assert(Q > 1e4 && Q < 1e5);
        ck_assert_double_eq_tol(rs_train_wheel_contact_value(tc, i, RS_CONTACT_VAR_Y_Q),
                                rs_train_wheel_contact_value(tc, i, RS_CONTACT_VAR_Y) / Q, 1e-15);
    }
    char qn[32];
    printf("same state: FEVE 3000 train vs single run at t = %.3f s: %d contacts x %d quantities, %d patches; "
           "largest relative difference %.2e (%s.%s)\n",
           t, m->n_contact, RS_CONTACT_VAR_STRIDE, npatch, worst, m->contacts[worst_i].name,
           rs_train_contact_quantity_name(worst_k, qn, sizeof qn));
    ck_assert_msg(worst <= 1e-12, "difference %g", worst);
    ck_assert_int_ge(npatch, m->n_contact);
    (void)flange;
    rs_ws_free(&ws);
    rs_train_free(&tr);
}
END_TEST

/* Park train against the IMEX single run from the train's start (body 3 mm
 * to the left), T s at step h: max over the wheels of |ΔQ|/Q, |ΔY|/Q, per
 * patch |ΔN|/Q and |Δu_w| [m] into d[4]; *yq the largest |Y/Q|; each
 * wheel's Q of the train and of the single run into Qt, Qs (n_contact). */
static void compare_run(double h, double T, double d[4], double *yq, double *Qt, double *Qs)
{
    const rs_model *m = feve();
    rs_train_wheel_contact_opts co;
    feve_opts(&co);
    rs_train *tr = feve_train(&co, h, 23.7, 3e-3);
    rs_park *pk = rs_train_park(tr);
    rs_ws *ws = rt_single_run_ws(m, &co, h, rs_park_q(pk), rs_park_qd(pk));
    for (int k = 0; k < (int)lround(T / h); k++) {
        train_step(tr);
        ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
    }
    rs_train_wheel_contact *tc = rs_train_contact(tr, 0);
    d[0] = d[1] = d[2] = d[3] = *yq = 0;
    for (int i = 0; i < m->n_contact; i++) {
        Qt[i] = rs_train_wheel_contact_value(tc, i, RS_CONTACT_VAR_Q);
        Qs[i] = single_value(ws, m, i, RS_CONTACT_VAR_Q);
        ck_assert(Qs[i] > 1e4);
        d[0] = fmax(d[0], fabs(Qt[i] - Qs[i]) / Qs[i]);
        d[1] = fmax(d[1], fabs(rs_train_wheel_contact_value(tc, i, RS_CONTACT_VAR_Y) -
                               single_value(ws, m, i, RS_CONTACT_VAR_Y)) / Qs[i]);
        *yq = fmax(*yq, fabs(single_value(ws, m, i, RS_CONTACT_VAR_Y_Q)));
        ck_assert_int_eq((int)rs_train_wheel_contact_value(tc, i, RS_CONTACT_VAR_PATCHES),
                         (int)single_value(ws, m, i, RS_CONTACT_VAR_PATCHES));
        const int np = (int)single_value(ws, m, i, RS_CONTACT_VAR_PATCHES);
        for (int j = 0; j < np; j++) {
            const int kN = RS_CONTACT_VAR_COUNT + RS_PATCH_VAR_COUNT * j + RS_PATCH_VAR_N;
            const int ku = RS_CONTACT_VAR_COUNT + RS_PATCH_VAR_COUNT * j + RS_PATCH_VAR_U_W;
            d[2] = fmax(d[2], fabs(rs_train_wheel_contact_value(tc, i, kN) - single_value(ws, m, i, kN)) / Qs[i]);
            d[3] = fmax(d[3], fabs(rs_train_wheel_contact_value(tc, i, ku) - single_value(ws, m, i, ku)));
        }
    }
    rs_ws_free(&ws);
    rs_train_free(&tr);
}

/* Both runs integrate the same equations: every difference is integration
 * error and vanishes with the step (issue 20: the Q difference of 6.4e-5
 * of Q at h = 2e-4 and 1e-4 s once read as a modelling difference).
 * Measured by splitting each integrator's error against its own run at
 * h = 6.25e-6 s, Q at 0.05 s, with the strip law (the default; session
 * 40): Park's method is second order (the train's error 3.6e-5, 8.8e-6,
 * 2.2e-6, 5.1e-7, 1.0e-7 of Q at h = 2e-4 ... 1.25e-5 s), the IMEX step
 * first order (1.4e-4, 9.4e-5, 5.7e-5, 2.8e-5, 1.0e-5 of Q), so the
 * difference is the IMEX step's error: 1.02e-4 of Q at 1e-4 s, the patches'
 * N 1.23e-4.  With the point law (normal point) the IMEX error was smaller
 * at the large steps (7.4e-5, 5.9e-5, 3.9e-5, 2.1e-5, 7.7e-6; the train's
 * 5.6e-5, 1.5e-5, 3.7e-6, 8.9e-7, 1.8e-7) and the difference 6.4e-5 at
 * 1e-4 s.  From h = 5e-5 s it halves with h: |ΔQ|/Q / h = 1.34, 1.57, 1.71
 * 1/s at 5e-5, 2.5e-5, 1.25e-5 s (point law 0.95, 1.16, 1.30).  In time,
 * ΔQ is a decaying oscillation of the start's transient.  Nothing is left
 * in the limit, under either law (nothing in the train's contact path
 * differs: the patches' points, nodes and Park's opening hook included):
 * the single run's Richardson value 2 Q(h) − Q(2h) at h = 1.25e-5 s against
 * the train's Q there, 3.26e-6 of Q with strips, 3.21e-6 with the point
 * law (0.13 N; with g 2e-5 off in the train, or its rolling resistance
 * r0 = 1e-4, 34 N on x, it was 7.6e-6, 6.8e-6: the check fails). */
START_TEST(test_same_run)
{
    enum { NH = 5, NC = 16 };
    const double T = 0.05, hs[NH] = {2e-4, 1e-4, 5e-5, 2.5e-5, 1.25e-5};
    double d[NH][4], yq = 0, Qt[NH][NC], Qs[NH][NC];
    const int nc = feve()->n_contact;
    ck_assert(nc <= NC);
    for (int r = 0; r < NH; r++) {
        compare_run(hs[r], T, d[r], &yq, Qt[r], Qs[r]);
        printf("same run: FEVE 3000 from 3 mm left, %.2f s at 23.7 m/s, h = %.3g s, Park train vs IMEX single "
               "run: max |dQ|/Q %.2e (/h %.2f 1/s), |dY|/Q %.2e, patch |dN|/Q %.2e, |du_w| %.2e m (largest |Y/Q| "
               "%.4f)\n",
               T, hs[r], d[r][0], d[r][0] / hs[r], d[r][1], d[r][2], d[r][3], yq);
    }
    /* at 1e-4 s (measured with strips 1.02e-4, 1.22e-5, 1.23e-4, 1.49e-6 m:
     * the IMEX step's own error 9.4e-5 of Q, above; point law 6.4e-5,
     * 1.0e-5, 6.9e-5, 1.46e-6 m) */
    ck_assert_msg(d[1][0] < 1.2e-4 && d[1][1] < 2e-5 && d[1][2] < 1.4e-4 && d[1][3] < 3e-6, "dQ %g dY %g dN %g du_w %g",
                  d[1][0], d[1][1], d[1][2], d[1][3]);
    ck_assert_msg(d[1][1] < 0.7 * d[0][1] && d[1][3] < 0.7 * d[0][3], "no convergence: dY %g -> %g, du_w %g -> %g",
                  d[0][1], d[1][1], d[0][3], d[1][3]);
    /* Q and the patches' N: first order from h = 5e-5 s (measured ratios
     * with strips 0.58, 0.54 for Q, 0.57, 0.54 for N; point law 0.61, 0.56
     * for both; 0.5 in the limit) */
    for (int r = 2; r + 1 < NH; r++)
        ck_assert_msg(d[r + 1][0] < 0.7 * d[r][0] && d[r + 1][2] < 0.7 * d[r][2],
                      "no convergence from h = %g to %g s: dQ %g -> %g, dN %g -> %g", hs[r], hs[r + 1], d[r][0],
                      d[r + 1][0], d[r][2], d[r + 1][2]);
    double lim = 0;
    for (int i = 0; i < nc; i++) {
        const double R = 2 * Qs[NH - 1][i] - Qs[NH - 2][i];
        lim = fmax(lim, fabs(Qt[NH - 1][i] - R) / R);
    }
    printf("same run: the single run's Richardson limit of Q (h = %.3g, %.3g s) against the train's Q at h = %.3g "
           "s: max |dQ|/Q %.2e\n",
           hs[NH - 2], hs[NH - 1], hs[NH - 1], lim);
    ck_assert_msg(lim < 5e-6, "Richardson limit %g", lim);
}
END_TEST

/* The compliant single-point contact: the cone wheelset (generated/
 * wheelset_cone, 1:40 cones on R 300 mm rail heads, 1250 kg) centred at
 * rest as a one-vehicle train.  No creep force, so each rail pushes along
 * the cone's normal: Y/Q = 1/40, Q = N cos(atan 1/40), and the two Q carry
 * m g; one point per wheel (patches 1, patch quantities NaN, as a single
 * run's constraint contact). */
START_TEST(test_compliant)
{
    static rs_loaded *hc;
    if (!hc)
        hc = rt_load("generated/wheelset_cone");
    const rs_model *m = rs_loaded_model(hc);
    rs_train_wheel_contact_opts co;
    rs_train_wheel_contact_opts_default(&co);
    co.mode = RS_TRAIN_CONTACT_COMPLIANT;
    const rs_test_vehicle v = {.contact = &co};
    rs_train *tr = rs_test_one_vehicle(m, &v);
    ck_assert_msg(rs_train_start(tr, 0.0, 0.0, 0.0) == RS_OK, "%s", rs_train_error(tr));
    rs_park *pk = rs_train_park(tr);
    rs_train_wheel_contact *tc = rs_train_contact(tr, 0);
    ck_assert(!rs_train_wheel_contact_elastic(tc));
    ck_assert(rs_train_wheel_contact_eval(tc, 0.0, rs_park_q(pk), rs_park_qd(pk), NULL, NULL, NULL, NULL) == RS_OK);
    double sumQ = 0, worst = 0;
    for (int i = 0; i < m->n_contact; i++) {
        const double N = rs_train_wheel_contact_point_get(tc, i)->N;
        const double Q = rs_train_wheel_contact_value(tc, i, RS_CONTACT_VAR_Q);
        const double YQ = rs_train_wheel_contact_value(tc, i, RS_CONTACT_VAR_Y_Q);
        ck_assert_double_eq(rs_train_wheel_contact_value(tc, i, RS_CONTACT_VAR_N), N);
        ck_assert_double_eq(rs_train_wheel_contact_value(tc, i, RS_CONTACT_VAR_PATCHES), 1);
        ck_assert(isnan(rs_train_wheel_contact_value(tc, i, RS_CONTACT_VAR_COUNT + RS_PATCH_VAR_U_W)));
        worst = fmax(worst, fmax(fabs(YQ - 1.0 / 40), fabs(Q / (N * 40 / sqrt(1601.0)) - 1)));
        sumQ += Q;
    }
    const double W = 1250 * 9.81;
    printf("compliant: centred cone wheelset at rest: Y/Q and Q/(N cos a) off by %.2e, sum Q %.3f N (m g %.3f N)\n",
           worst, sumQ, W);
    ck_assert_msg(worst < 1e-6, "%g", worst);
    ck_assert_msg(fabs(sumQ - W) < 1e-6 * W, "sum Q %g", sumQ);
    rs_train_free(&tr);
    rs_unload(&hc);
}
END_TEST

/* ---- train files ------------------------------------------------------- */

static rs_train_spec *parse_ok(const char *text)
{
    rs_train_spec *s = NULL;
    char err[2048];
    ck_assert_msg(rs_train_spec_parse(text, "t.train", &s, err, sizeof err) == RS_OK, "%s", err);
    return s;
}

static const char *kHead = "vehicle w model generated/feve3000\n  contact elastic\n";
static const char *kTail = "end\norder\n  w\nend\n";

static rs_train_spec *parse_outputs(const char *line)
{
    char text[1024];
    snprintf(text, sizeof text, "%s  %s\n%s", kHead, line, kTail);
    return parse_ok(text);
}

START_TEST(test_train_file_outputs)
{
    char qn[32];
    rs_train_spec *s = parse_outputs("contact_outputs");
    ck_assert_int_eq(rs_train_spec_contact_nq(s, 0), 3);
    ck_assert(s->contact_q[RS_CONTACT_VAR_N] && s->contact_q[RS_TRAIN_CONTACT_FX] && s->contact_q[RS_TRAIN_CONTACT_FY]);
    rs_train_spec_free(&s);
    s = parse_outputs("contact_outputs Q Y Y_Q p*.N p2.u_w");
    ck_assert_int_eq(rs_train_spec_contact_nq(s, 0), 3 + 4 + 1);
    ck_assert(s->contact_q[rs_train_contact_quantity("p4.N")] && s->contact_q[rs_train_contact_quantity("p2.u_w")]);
    ck_assert(!s->contact_q[RS_CONTACT_VAR_N]);
    rs_train_spec_free(&s);
    s = parse_outputs("contact_outputs all");
    ck_assert_int_eq(rs_train_spec_contact_nq(s, 0), RS_TRAIN_CONTACT_QCOUNT);
    rs_train_spec_free(&s);
    /* names round-trip, and they are the single run's (rs_model_find) */
    const rs_model *m = feve();
    for (int k = 0; k < RS_TRAIN_CONTACT_QCOUNT; k++) {
        rs_train_contact_quantity_name(k, qn, sizeof qn);
        ck_assert_int_eq(rs_train_contact_quantity(qn), k);
        char name[256];
        snprintf(name, sizeof name, "%s.%s", m->contacts[0].name, qn);
        rs_var v;
        ck_assert_int_eq(rs_model_find(m, name, &v), RS_OK);
        if (k < RS_CONTACT_VAR_STRIDE)
            ck_assert(v.kind == RS_VAR_CONTACT && v.index == k);
        else
            ck_assert(v.kind == RS_VAR_U); /* fx, fy: the creep force inputs' names */
    }
    char text[1024], err[2048];
    snprintf(text, sizeof text, "%s  contact_outputs Q YQ\n%s", kHead, kTail);
    rs_train_spec *bad = NULL;
    ck_assert(rs_train_spec_parse(text, "t.train", &bad, err, sizeof err) != RS_OK);
    ck_assert_msg(strstr(err, "t.train:3: vehicle 'w': 'YQ' is not a contact quantity") != NULL, "%s", err);
    ck_assert_msg(strstr(err, "Y_Q") != NULL, "%s", err);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("train_contact_out");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_train_file_outputs);
    tcase_add_test(tc, test_same_state);
    tcase_add_test(tc, test_same_run);
    tcase_add_test(tc, test_compliant);
    suite_add_tcase(s, tc);
    const int nf = rs_test_run_nofork(s) != EXIT_SUCCESS;
    if (g_feve)
        rs_unload(&g_feve);
    return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
