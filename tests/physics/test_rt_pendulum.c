/*
 * test_rt_pendulum.c — the integrators against the exact pendulum: period
 * from the complete elliptic integral (AGM), trajectory from Jacobi's sn,
 * IMEX Euler's order fitted as Δt halves, RK4 energy drift, and the
 * Cartesian (constrained) formulation against both.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "rt_fixtures.h"
#include "rs_test.h"

#define G 9.81
#define L 1.0

static void run_steps(rs_ws *ws, long n)
{
    for (long i = 0; i < n; i++) {
        int st = rs_step(ws);
        ck_assert_msg(st == RS_OK, "step %ld: %s", i, rs_ws_error(ws));
    }
}

/* Root of the cubic Hermite interpolant of θ on [0, h] (θ0 < 0 < θ1). */
static double hermite_root(double h, double y0, double d0, double y1, double d1)
{
    double a = 0, b = 1;
    for (int i = 0; i < 80; i++) {
        double s = 0.5 * (a + b), s2 = s * s, s3 = s2 * s;
        double y = (2 * s3 - 3 * s2 + 1) * y0 + (s3 - 2 * s2 + s) * h * d0 +
                   (-2 * s3 + 3 * s2) * y1 + (s3 - s2) * h * d1;
        if (y < 0)
            a = s;
        else
            b = s;
    }
    return 0.5 * (a + b) * h;
}

START_TEST(test_period_rk4)
{
    /* 172°: far from the small-angle period (2.006 s vs 5.9 s here). */
    const double th0 = 3.0, h = 1e-3;
    const double T = rt_pendulum_period(th0, G, L);
    rs_ws *ws = rt_ws_new(rt_pendulum_model(), RS_RK4, h, 1e-6);
    rs_ws_q(ws)[0] = th0;
    double up[8];
    int nup = 0;
    double prev = th0, prevd = 0;
    while (nup < 4 && rs_ws_time(ws) < 5 * T) {
        double t0 = rs_ws_time(ws);
        run_steps(ws, 1);
        double y = rs_ws_q(ws)[0], d = rs_ws_qd(ws)[0];
        if (prev < 0 && y >= 0) /* upward zero crossing */
            up[nup++] = t0 + hermite_root(h, prev, prevd, y, d);
        prev = y;
        prevd = d;
    }
    ck_assert_int_ge(nup, 4);
    const double Tm = (up[3] - up[0]) / 3;
    ck_assert_msg(fabs(Tm - T) / T < 1e-6, "period %.12g, exact %.12g, rel %.3g", Tm, T,
                  fabs(Tm - T) / T);
    /* each period on its own too */
    for (int i = 1; i < 4; i++)
        ck_assert_msg(fabs(up[i] - up[i - 1] - T) / T < 1e-6, "period %d: %.12g", i,
                      up[i] - up[i - 1]);
    rs_ws_free(&ws);
}
END_TEST

/* Max |θ − θ_exact| at every step up to t_end. */
static double max_error(const rs_model *m, rs_method meth, double h, double th0, double t_end,
                        int cartesian)
{
    rs_ws *ws = rt_ws_new(m, meth, h, 1e-10);
    if (cartesian) {
        rs_ws_q(ws)[0] = L * sin(th0);
        rs_ws_q(ws)[1] = -L * cos(th0);
    } else {
        rs_ws_q(ws)[0] = th0;
    }
    const long n = lround(t_end / h);
    double e = 0;
    for (long i = 0; i < n; i++) {
        run_steps(ws, 1);
        const double *q = rs_ws_q(ws);
        double th = cartesian ? atan2(q[0], -q[1]) : q[0];
        double ex = rt_pendulum_exact(rs_ws_time(ws), th0, G, L);
        e = fmax(e, fabs(th - ex));
        if (cartesian) {
            double pos, vel;
            ck_assert_int_eq(rs_ws_residuals(ws, &pos, &vel), RS_OK);
            ck_assert_msg(pos <= 1e-10 && vel <= 1e-10, "residuals %g %g at step %ld", pos,
                          vel, i);
        }
    }
    rs_ws_free(&ws);
    return e;
}

/* Least-squares slope of log e against log h. */
static double fit_order(const double *h, const double *e, int n)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < n; i++) {
        double x = log(h[i]), y = log(e[i]);
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
    }
    return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

static void check_order(const rs_model *m, int cartesian, double expect, double rk4_expect)
{
    double h[4] = {4e-3, 2e-3, 1e-3, 5e-4}, e[4];
    for (int i = 0; i < 4; i++)
        e[i] = max_error(m, RS_IMEX_EULER, h[i], 1.0, 2.0, cartesian);
    double p = fit_order(h, e, 4);
    fprintf(stderr, "%s: IMEX Euler fitted order %.3f\n", m->name, p);
    ck_assert_msg(fabs(p - expect) < 0.15, "IMEX Euler order %.3f (errors %g %g %g %g)", p, e[0],
                  e[1], e[2], e[3]);
    double hr[3] = {2e-2, 1e-2, 5e-3}, er[3];
    for (int i = 0; i < 3; i++)
        er[i] = max_error(m, RS_RK4, hr[i], 1.0, 2.0, cartesian);
    p = fit_order(hr, er, 3);
    fprintf(stderr, "%s: RK4 fitted order %.3f\n", m->name, p);
    ck_assert_msg(fabs(p - rk4_expect) < 0.3, "RK4 order %.3f (errors %g %g %g)", p, er[0], er[1],
                  er[2]);
}

START_TEST(test_imex_order_angle)
{
    check_order(rt_pendulum_model(), 0, 1.0, 4.0);
}
END_TEST

START_TEST(test_imex_order_cartesian)
{
    check_order(rt_cartpend_model(), 1, 1.0, 4.0);
}
END_TEST

START_TEST(test_energy_drift_rk4)
{
    /* 10 s at Δt = 1 ms from 2.5 rad; the bound is relative to m g L. */
    rs_ws *ws = rt_ws_new(rt_pendulum_model(), RS_RK4, 1e-3, 1e-6);
    rs_ws_q(ws)[0] = 2.5;
    double T0, V0, T, V;
    ck_assert_int_eq(rs_ws_energy(ws, &T0, &V0), RS_OK);
    double drift = 0;
    for (int i = 0; i < 10000; i++) {
        run_steps(ws, 1);
        ck_assert_int_eq(rs_ws_energy(ws, &T, &V), RS_OK);
        drift = fmax(drift, fabs(T + V - T0 - V0));
    }
    ck_assert_msg(drift / (G * L) < 1e-9, "energy drift %.3g J", drift);
    rs_ws_free(&ws);
}
END_TEST

START_TEST(test_cartesian_agrees_with_angle)
{
    const double th0 = 2.0, h = 1e-3;
    rs_ws *a = rt_ws_new(rt_pendulum_model(), RS_RK4, h, 1e-6);
    rs_ws *c = rt_ws_new(rt_cartpend_model(), RS_RK4, h, 1e-12);
    rs_ws_q(a)[0] = th0;
    rs_ws_q(c)[0] = L * sin(th0);
    rs_ws_q(c)[1] = -L * cos(th0);
    double out[1];
    for (int i = 0; i < 3000; i++) {
        run_steps(a, 1);
        run_steps(c, 1);
        ck_assert_int_eq(rs_ws_outputs(c, out), RS_OK);
        ck_assert_msg(fabs(out[0] - rs_ws_q(a)[0]) < 1e-8, "t=%g: cartesian %.12g angle %.12g",
                      rs_ws_time(a), out[0], rs_ws_q(a)[0]);
        ck_assert_msg(rs_ws_stats(c)->pos_residual <= 1e-12, "residual %g",
                      rs_ws_stats(c)->pos_residual);
    }
    rs_ws_free(&a);
    rs_ws_free(&c);
}
END_TEST

START_TEST(test_imex_residual_each_step)
{
    /* Default tolerance 1e-6: residual below it after every step, about
     * one Newton iteration per step. */
    rs_ws *c = rt_ws_new(rt_cartpend_model(), RS_IMEX_EULER, 1e-3, 1e-6);
    rs_ws_q(c)[0] = L * sin(2.0);
    rs_ws_q(c)[1] = -L * cos(2.0);
    for (int i = 0; i < 5000; i++) {
        run_steps(c, 1);
        double pos, vel;
        ck_assert_int_eq(rs_ws_residuals(c, &pos, &vel), RS_OK);
        ck_assert_msg(pos <= 1e-6 && vel <= 1e-6, "step %d residuals %g %g", i, pos, vel);
    }
    const rs_stats *s = rs_ws_stats(c);
    ck_assert_int_le(s->proj_iters_max, 2);
    ck_assert_int_le(s->proj_iters, s->steps + s->steps / 10);
    rs_ws_free(&c);
}
END_TEST

START_TEST(test_parameters_change_without_reload)
{
    /* L = 2 through the parameter: the period scales by √2 (constants are
     * recomputed from p; nothing is recompiled). */
    const double th0 = 1.0, h = 1e-3;
    rs_ws *ws = rt_ws_new(rt_pendulum_model(), RS_RK4, h, 1e-6);
    ck_assert_int_eq(rs_ws_set_param(ws, "L", 2.0), RS_OK);
    ck_assert_int_eq(rs_ws_set_param(ws, "no_such", 2.0), RS_E_NOTFOUND);
    ck_assert_int_eq(rs_ws_set_q(ws, "theta", th0), RS_OK);
    run_steps(ws, 1500);
    ck_assert_msg(fabs(rs_ws_q(ws)[0] - rt_pendulum_exact(1.5, th0, G, 2.0)) < 1e-9,
                  "theta %.12g exact %.12g", rs_ws_q(ws)[0], rt_pendulum_exact(1.5, th0, G, 2.0));
    rs_ws_free(&ws);
}
END_TEST

START_TEST(test_exact_reference_self_check)
{
    /* The references themselves: K(0) = π/2, K(sin 45°) = 1.8540746773013719;
     * small amplitude tends to 2π√(L/g); sn(u, 0) = sin u. */
    ck_assert(fabs(rt_ellip_k(0) - acos(-1) / 2) < 1e-15);
    ck_assert(fabs(rt_ellip_k(sqrt(0.5)) - 1.8540746773013719) < 1e-14);
    ck_assert(fabs(rt_pendulum_period(1e-6, G, L) - 2 * acos(-1) * sqrt(L / G)) < 1e-10);
    ck_assert(fabs(rt_jacobi_sn(0.7, 0) - sin(0.7)) < 1e-15);
    ck_assert(fabs(rt_jacobi_sn(0.7, 1 - 1e-12) - tanh(0.7)) < 1e-9);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("rt_pendulum");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_exact_reference_self_check);
    tcase_add_test(tc, test_period_rk4);
    tcase_add_test(tc, test_imex_order_angle);
    tcase_add_test(tc, test_imex_order_cartesian);
    tcase_add_test(tc, test_energy_drift_rk4);
    tcase_add_test(tc, test_cartesian_agrees_with_angle);
    tcase_add_test(tc, test_imex_residual_each_step);
    tcase_add_test(tc, test_parameters_change_without_reload);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
