/*
 * test_train_model.c — compiled railsym models as train vehicles
 * (rs_train_model.h, rs_wagon.model): the freight wagon of
 * vehicles/trains/freight_wagon.vdl (generated/freight_wagon, 11
 * coordinates, force Jacobians from the modeler) coupled into trains.
 *
 *   - a static equilibrium found by Newton with the exact K carries the
 *     weight: the wheelset contact struts hold m g in total (computed here
 *     from the parameters and the coordinates, not from δ);
 *   - pulled from rest by a constant force F on the front vehicle, every
 *     vehicle accelerates at F/M and coupler c carries F m_behind/M (M the
 *     total longitudinal mass, from the model's parameters), within 1 %,
 *     for a train of compiled wagons and for a built-in locomotive with
 *     compiled wagons (one of them coupled through x only, no pitch port);
 *   - 1, 2 and 4 threads give bit-identical trajectories; GMRES gives
 *     BiCGStab's trajectory to the solver tolerance.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_runtime.h"
#include "rs_train.h"
#include "rs_train_model.h"
#include "rs_test.h"
#include "rt_fixtures.h"

static rs_loaded *g_h;
static const rs_model *g_m;

static void load_once(void)
{
    if (g_m)
        return;
    g_h = rt_load("generated/freight_wagon");
    g_m = rs_loaded_model(g_h);
}

/* After each test (in its own process): the model unloaded, so that the
 * leak checker sees nothing left. */
static void unload(void)
{
    if (g_h)
        rs_unload(&g_h);
    g_m = NULL;
}

static double par(const char *name) { return rt_param_default(g_m, name); }
static int qi(const char *name) { return rt_coord_index(g_m, name); }

/* The wagon's total mass from its parameters. */
static double wagon_mass(void) { return par("m_c") + 2.0 * (par("m_b") + 2.0 * par("m_w")); }

static void compiled_wagon(rs_wagon *w, int pitch_port)
{
    rs_wagon_default(w);
    w->model = g_m;
    w->port_x = qi("x");
    w->port_pitch = pitch_port ? qi("pitch") : -1;
    w->r0 = 0.0;   /* no rolling resistance: a = F/M exactly */
}

START_TEST(test_static_equilibrium)
{
    load_once();
    rs_compiled_vehicle *v;
    char err[256];
    ck_assert_msg(rs_compiled_vehicle_create(&v, g_m, NULL, NULL, NULL, err, sizeof err) == RS_OK, "%s", err);
    const int n = g_m->n_q;
    double q[32] = {0};
    q[qi("x")] = 3.0;
    ck_assert_int_eq(rs_compiled_vehicle_static(v, 0.0, q, qi("x"), NULL), RS_OK);
    ck_assert_double_eq(q[qi("x")], 3.0);
    /* contact strut compressions: the wheelset centre is at r0 + w, the
     * strut from r0 − L_w, free length L_w: force k_w (−w) each */
    const char *ws[4] = {"front.w1", "front.w2", "rear.w1", "rear.w2"};
    double N = 0;
    for (int k = 0; k < 4; k++)
        N += -par("k_w") * q[qi(ws[k])];
    const double W = wagon_mass() * par("g");
    printf("train model: static equilibrium: contact forces %.3f N, weight %.3f N; car pitch %.2e rad\n", N, W,
           q[qi("pitch")]);
    ck_assert_msg(fabs(N - W) < 1e-6 * W, "contact %g weight %g", N, W);
    ck_assert(fabs(q[qi("pitch")]) < 1e-9);   /* symmetric wagon */
    /* and δ vanishes there (every coordinate but x is balanced) */
    double F[32] = {0}, qd[32] = {0};
    ck_assert_int_eq(rs_compiled_vehicle_eval(v, 0.0, q, qd, NULL, F, NULL, NULL), RS_OK);
    for (int i = 0; i < n; i++)
        ck_assert_msg(fabs(F[i]) < 1e-6 * W, "delta[%s] = %g", g_m->q_names[i], F[i]);
    /* model checks */
    ck_assert_int_eq(rs_compiled_vehicle_check_model(g_m, "x", "pitch", NULL, NULL, err, sizeof err), RS_OK);
    ck_assert_int_eq(rs_compiled_vehicle_check_model(g_m, "xx", NULL, NULL, NULL, err, sizeof err), RS_E_ARG);
    ck_assert_msg(strstr(err, "has no coordinate 'xx'; coordinates: x, z, pitch") != NULL, "%s", err);
    rs_compiled_vehicle_free(&v);
}
END_TEST

typedef struct run_out {
    double acc[8], force[8], mx[8], M;
    double *traj;
} run_out;

/* nv vehicles; loco: vehicle 0 is the built-in locomotive; nopitch: the
 * vehicle 2 couples through x only.  Constant pull F on vehicle 0. */
static run_out run_train(int nv, int loco, int nopitch, double F, double T, int threads, rs_krylov_method method,
                         int keep)
{
    load_once();
    rs_wagon veh[8];
    rs_coupler cpl[8];
    for (int v = 0; v < nv; v++)
        compiled_wagon(&veh[v], !(nopitch && v == 2));
    if (loco) {
        rs_loco_default(&veh[0]);
        veh[0].r0 = 0.0;
    }
    veh[0].traction = F;
    for (int c = 0; c + 1 < nv; c++)
        rs_coupler_default(&cpl[c]);
    rs_park_opts o;
    rs_park_opts_default(&o);
    o.h = 1e-3;
    o.threads = threads;
    o.probe = 0;   /* the team on every step (no serial probe): its bits are what is compared */
    o.krylov.method = method;
    o.krylov.tol = 1e-10;
    o.rebalance = 10;
    rs_train *tr;
    char err[512];
    ck_assert_msg(rs_train_create(&tr, nv, veh, NULL, cpl, NULL, &o, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(rs_train_start(tr, 0.0, 0.0, 0.0), RS_OK);
    run_out r;
    memset(&r, 0, sizeof r);
    r.M = rs_train_mass(tr);
    for (int v = 0; v < nv; v++)
        r.mx[v] = rs_train_vehicle_mx(tr, v);
    const long steps = lround(T / 1e-3), n = rs_park_n(rs_train_park(tr));
    if (keep)
        r.traj = malloc((size_t)steps * (size_t)n * sizeof(double));
    const long w0 = steps / 2;   /* averaging window: the second half */
    double v0[8] = {0};
    for (long s = 0; s < steps; s++) {
        const int st = rs_train_step(tr);
        ck_assert_msg(st == RS_OK, "%s", rs_park_error(rs_train_park(tr)));
        if (keep)
            memcpy(r.traj + s * n, rs_park_q(rs_train_park(tr)), (size_t)n * sizeof(double));
        if (s + 1 == w0)
            for (int v = 0; v < nv; v++)
                v0[v] = rs_train_v(tr, v);
        if (s + 1 > w0)
            for (int c = 0; c + 1 < nv; c++)
                r.force[c] += rs_train_coupler(tr, c, NULL) / (double)(steps - w0);
    }
    for (int v = 0; v < nv; v++)
        r.acc[v] = (rs_train_v(tr, v) - v0[v]) / ((steps - w0) * 1e-3);
    rs_train_free(&tr);
    return r;
}

static void check_pull(int loco, int nopitch)
{
    const int nv = 6;
    const double F = 150e3;
    run_out r = run_train(nv, loco, nopitch, F, 30.0, 2, RS_KRYLOV_AUTO, 0);
    /* masses from the parameters (the built-in loco: its own) */
    double M = 0;
    for (int v = 0; v < nv; v++) {
        if (!(loco && v == 0))
            ck_assert_double_eq_tol(r.mx[v], wagon_mass(), 1e-9 * wagon_mass());
        M += r.mx[v];
    }
    ck_assert_double_eq_tol(r.M, M, 1e-9 * M);
    double worst_a = 0, worst_f = 0, behind = M;
    for (int v = 0; v < nv; v++)
        worst_a = fmax(worst_a, fabs(r.acc[v] - F / M) / (F / M));
    for (int c = 0; c + 1 < nv; c++) {
        behind -= r.mx[c];
        const double want = F * behind / M;
        worst_f = fmax(worst_f, fabs(r.force[c] - want) / want);
    }
    printf("train model: %s%d vehicles%s pulled by %.0f kN: a = F/M = %.5f m/s^2, worst |a - F/M|/(F/M) %.2e, "
           "coupler forces worst |F_c - F m_behind/M|/(F m_behind/M) %.2e\n",
           loco ? "built-in loco + compiled wagons, " : "compiled wagons, ", nv,
           nopitch ? " (one coupled on x only)" : "", F / 1e3, F / M, worst_a, worst_f);
    ck_assert_msg(worst_a < 0.01, "acceleration off by %g", worst_a);
    ck_assert_msg(worst_f < 0.01, "coupler force off by %g", worst_f);
}

START_TEST(test_pull_compiled)
{
    check_pull(0, 0);
}
END_TEST

START_TEST(test_pull_mixed)
{
    check_pull(1, 1);
}
END_TEST

START_TEST(test_threads_and_gmres)
{
    const double T = 0.4;
    run_out r1 = run_train(7, 1, 1, 2e5, T, 1, RS_KRYLOV_AUTO, 1);
    const long steps = lround(T / 1e-3);
    const size_t bytes = (size_t)steps * (size_t)(5 + 6 * 11) * sizeof(double);
    for (int th = 2; th <= 4; th += 2) {
        run_out r = run_train(7, 1, 1, 2e5, T, th, RS_KRYLOV_AUTO, 1);
        ck_assert_msg(memcmp(r.traj, r1.traj, bytes) == 0, "%d threads differ from one", th);
        free(r.traj);
    }
    run_out g = run_train(7, 1, 1, 2e5, T, 2, RS_KRYLOV_GMRES, 1);
    double d = 0, s = 0;
    for (size_t i = 0; i < bytes / sizeof(double); i++) {
        d = fmax(d, fabs(g.traj[i] - r1.traj[i]));
        s = fmax(s, fabs(r1.traj[i]));
    }
    printf("train model: GMRES vs BiCGStab over %ld steps: max |dq| %.2e (max |q| %.1f)\n", steps, d, s);
    ck_assert(d < 1e-8);
    free(g.traj);
    free(r1.traj);
}
END_TEST

START_TEST(test_errors)
{
    load_once();
    rs_wagon veh[2];
    rs_coupler cpl;
    compiled_wagon(&veh[0], 1);
    compiled_wagon(&veh[1], 1);
    veh[1].port_pitch = veh[1].port_x;
    rs_coupler_default(&cpl);
    rs_train *tr;
    char err[512];
    ck_assert_int_eq(rs_train_create(&tr, 2, veh, NULL, &cpl, NULL, NULL, err, sizeof err), RS_E_ARG);
    ck_assert_msg(strstr(err, "vehicle 'v1': port coordinates") != NULL, "%s", err);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("train_model");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_checked_fixture(tc, NULL, unload);
    tcase_add_test(tc, test_static_equilibrium);
    tcase_add_test(tc, test_pull_compiled);
    tcase_add_test(tc, test_pull_mixed);
    tcase_add_test(tc, test_threads_and_gmres);
    tcase_add_test(tc, test_errors);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
