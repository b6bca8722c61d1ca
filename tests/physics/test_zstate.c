/*
 * test_zstate.c — the suspension elements with an internal state
 * (docs/elements.md "Elements with an internal state") through the runtime,
 * on vehicles/examples/zstate.vdl: mass 1 on a spring k0 beside a Maxwell
 * element (damper c in series with k), mass 2 on a three-parameter air
 * spring (k1 in parallel with k2 in series with c), each pushed by
 * F0 sin(ωt).  Checked against what is derived here by hand:
 *   (a) the Maxwell element's dynamic stiffness K(ω) = k iωc/(k + iωc),
 *       from the steady-state response x = F0/(k0 + K − mω²) (amplitude and
 *       phase fitted by least squares), within 0.5 %;
 *   (b) the air spring's K(ω) = k1 + k2 iωc/(k2 + iωc) likewise, its loss
 *       angle, and the frequency of the largest loss angle
 *       ω* = (k2/c) √(k1/(k1 + k2)) (derivation at check_airspring);
 *   (c) a node relaxing with its ends held: z(t) = z0 exp(−t k/c), exact
 *       for IMEX (the exponential update), fourth order for RK4;
 *   (d) the energy balance d(T+V) = −(dissipated work), V with the nodes'
 *       springs, its residual shrinking with the step;
 *   and the potential energy of a state set with rs_ws_set_u (½ k z²).
 */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <check.h>

#include "rs_load.h"
#include "rs_ws.h"
#include "rs_test.h"

#define DIR "generated/zstate"

/* the description's parameters */
static const double m_ = 10, k0 = 2.0e5, c_y = 2.0e3, k_y = 1.0e6, k_1 = 3.0e5, k_2 = 6.0e5, c_a = 3.0e3;

static rs_loaded *H;
static const rs_model *M;

static void setup(void)
{
    char err[2000];
    H = rs_load(DIR, RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(H != NULL, "%s", err);
    M = rs_loaded_model(H);
}

static void teardown(void) { rs_unload(&H); }

static rs_ws *make(rs_method method, double dt)
{
    char err[2000];
    rs_options o;
    rs_options_default(&o);
    o.method = method;
    o.dt = dt;
    rs_ws *ws;
    ck_assert_msg(rs_ws_create(M, &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    return ws;
}

static int zslot(const char *name)
{
    for (int i = 0; i < M->n_z; i++)
        if (strcmp(M->z_names[i], name) == 0)
            return M->z_slot[i];
    ck_abort_msg("no state %s", name);
    return -1;
}

/* least squares x ≈ A sin ωt + B cos ωt + C over the samples */
static double complex fit(const double *t, const double *x, int n, double w)
{
    double S[3][4] = {{0}};
    for (int i = 0; i < n; i++) {
        const double f[3] = {sin(w * t[i]), cos(w * t[i]), 1};
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++)
                S[r][c] += f[r] * f[c];
            S[r][3] += f[r] * x[i];
        }
    }
    for (int k = 0; k < 3; k++) /* Gauss–Jordan, the matrix is well conditioned */
        for (int r = 0; r < 3; r++)
            if (r != k) {
                const double g = S[r][k] / S[k][k];
                for (int c = k; c < 4; c++)
                    S[r][c] -= g * S[k][c];
            }
    return S[0][3] / S[0][0] + I * (S[1][3] / S[1][1]);
}

#define NMAX 400000
static double ts[NMAX], x1s[NMAX], x2s[NMAX];

/* Steady-state responses of both masses to F0 sin ωt (RK4, Δt small beside
 * 1/ω): x = Re(H) F0 sin + Im(H) F0 cos, so H = (A + iB)/F0. */
static void response(double w, double complex *H1, double complex *H2)
{
    const double F0 = 100, dt = fmin(2e-5, 0.02 / w);
    rs_ws *ws = make(RS_RK4, dt);
    ck_assert_int_eq(rs_ws_set_param(ws, "F0", F0), RS_OK);
    ck_assert_int_eq(rs_ws_set_param(ws, "w", w), RS_OK);
    /* the transients decay at 63/s or faster (the poles of
     * m s² (k2 + c s) + k1 (k2 + c s) + k2 c s and its Maxwell kin): 0.4 s
     * leaves e^-25 of them; then 20 periods, at least 0.1 s */
    const double t_settle = 0.4, t_win = fmax(0.1, 20 * 6.283185307179586 / w);
    const long n_settle = lround(t_settle / dt), n_win = lround(t_win / dt);
    ck_assert(n_win < NMAX);
    for (long i = 0; i < n_settle; i++)
        ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
    for (long i = 0; i < n_win; i++) {
        ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
        ts[i] = rs_ws_time(ws);
        x1s[i] = rs_ws_q(ws)[0];
        x2s[i] = rs_ws_q(ws)[1];
    }
    *H1 = fit(ts, x1s, (int)n_win, w) / F0;
    *H2 = fit(ts, x2s, (int)n_win, w) / F0;
    rs_ws_free(&ws);
}

static double complex maxwell(double k, double c, double w) { return k * I * w * c / (k + I * w * c); }

/* (a) the Maxwell element's dynamic stiffness, from mass 1:
 * K = 1/H1 + m ω² − k0 */
START_TEST(test_maxwell_dynamic_stiffness)
{
    const double ws_[3] = {100, 500, 1000}; /* below, at and above the corner k/c = 500 rad/s */
    for (int i = 0; i < 3; i++) {
        double complex H1, H2;
        response(ws_[i], &H1, &H2);
        const double complex K = 1 / H1 + m_ * ws_[i] * ws_[i] - k0, Ka = maxwell(k_y, c_y, ws_[i]);
        fprintf(stderr, "maxwell w %6.1f: |K| %.6e (analytic %.6e), phase %.6f (%.6f) rad\n", ws_[i], cabs(K),
                cabs(Ka), carg(K), carg(Ka));
        ck_assert_msg(fabs(cabs(K) / cabs(Ka) - 1) < 5e-3, "amplitude at %g rad/s", ws_[i]);
        ck_assert_msg(fabs(carg(K) / carg(Ka) - 1) < 5e-3, "phase at %g rad/s", ws_[i]);
    }
}
END_TEST

/* (b) the air spring: K = 1/H2 + m ω².  With x = ωτ, τ = c/k2,
 *   K = k1 + k2 i x/(1 + i x),  Re K = k1 + k2 x²/(1 + x²),
 *   Im K = k2 x/(1 + x²),  tan θ = k2 x / (k1 + (k1 + k2) x²);
 * d(tan θ)/dx = 0 ⇔ k1 + (k1 + k2) x² − 2 (k1 + k2) x² = 0 ⇔
 * x² = k1/(k1 + k2): ω* = (k2/c) √(k1/(k1 + k2)), where
 * tan θ* = k2 / (2 √(k1 (k1 + k2))). */
START_TEST(test_airspring_dynamic_stiffness)
{
    const double wstar = k_2 / c_a * sqrt(k_1 / (k_1 + k_2));
    const double theta_star = atan(k_2 / (2 * sqrt(k_1 * (k_1 + k_2))));
    const double f[3] = {1 / 1.5, 1, 1.5};
    double theta[3];
    for (int i = 0; i < 3; i++) {
        const double w = f[i] * wstar;
        double complex H1, H2;
        response(w, &H1, &H2);
        const double complex K = 1 / H2 + m_ * w * w, Ka = k_1 + maxwell(k_2, c_a, w);
        theta[i] = carg(K);
        fprintf(stderr, "air spring w %6.2f: |K| %.6e (analytic %.6e), loss angle %.6f (%.6f) rad\n", w,
                cabs(K), cabs(Ka), carg(K), carg(Ka));
        ck_assert_msg(fabs(cabs(K) / cabs(Ka) - 1) < 5e-3, "amplitude at %g rad/s", w);
        ck_assert_msg(fabs(carg(K) / carg(Ka) - 1) < 5e-3, "loss angle at %g rad/s", w);
    }
    ck_assert_msg(fabs(theta[1] / theta_star - 1) < 5e-3, "largest loss angle %g, by hand %g", theta[1],
                  theta_star);
    ck_assert_msg(theta[1] > theta[0] && theta[1] > theta[2], "the loss angle peaks at w* = %g rad/s", wstar);
}
END_TEST

/* (c) relaxation with the ends held (the masses 1e12 kg: ḋ ≈ 0): the
 * nodes' springs unload as exp(−t k/c).  Returns the largest error,
 * relative to z0, over 5 time constants of the slower one. */
static double relax(rs_method method, double dt)
{
    rs_ws *ws = make(method, dt);
    ck_assert_int_eq(rs_ws_set_param(ws, "m", 1e12), RS_OK);
    const double z0 = 1e-3;
    ck_assert_int_eq(rs_ws_set_u(ws, "yaw1.z", z0), RS_OK);
    ck_assert_int_eq(rs_ws_set_u(ws, "air2.z", z0), RS_OK);
    const double tau1 = c_y / k_y, tau2 = c_a / k_2;
    const long n = lround(5 * fmax(tau1, tau2) / dt);
    double err = 0;
    for (long i = 0; i < n; i++) {
        ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
        const double t = rs_ws_time(ws);
        const double e1 = (rs_ws_u(ws)[zslot("yaw1.z")] - z0 * exp(-t / tau1)) / z0;
        const double e2 = (rs_ws_u(ws)[zslot("air2.z")] - z0 * exp(-t / tau2)) / z0;
        err = fmax(err, fmax(fabs(e1), fabs(e2)));
    }
    rs_ws_free(&ws);
    return err;
}

START_TEST(test_relaxation)
{
    /* IMEX: the exponential update is exact for a constant deflection (the
     * masses, pushed by ~1e3 N, move by ~1e-12 m: 1e-11 of z0) */
    const double e_imex = relax(RS_IMEX_EULER, 1e-3);
    /* RK4 on z' = −z/τ: error ∝ (h/τ)⁴, so halving h divides it by ~16 */
    const double e1 = relax(RS_RK4, 2e-4), e2 = relax(RS_RK4, 1e-4);
    fprintf(stderr, "relaxation: IMEX (dt 1 ms) %.2e; RK4 dt 0.2 ms %.2e, 0.1 ms %.2e (ratio %.1f)\n", e_imex, e1,
            e2, e1 / e2);
    ck_assert_msg(e_imex < 1e-9, "IMEX relaxation error %g", e_imex);
    ck_assert_msg(e1 < 1e-4 && e1 / e2 > 13 && e1 / e2 < 19, "RK4 order: %g, %g", e1, e2);
}
END_TEST

/* (d) free vibration from x1 = x2 = 10 mm: T + V changes by minus the
 * damping work (power.damping: the series dampers' c (ḋ − ż)²); the
 * residual shrinks with the step: like Δt for IMEX Euler (first order in
 * q̇), faster for RK4 (then the trapezoid rule's Δt² on the powers). */
static double balance(rs_method method, double dt, double *wdamp)
{
    rs_ws *ws = make(method, dt);
    rs_ws_q(ws)[0] = rs_ws_q(ws)[1] = 0.01;
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    double T0, V0, T, V, P[RS_POWER_COUNT], Pp[RS_POWER_COUNT], w[RS_POWER_COUNT] = {0};
    ck_assert_int_eq(rs_ws_energy(ws, &T0, &V0), RS_OK);
    ck_assert_int_eq(rs_ws_power(ws, Pp), RS_OK);
    const long n = lround(0.1 / dt);
    for (long i = 0; i < n; i++) {
        ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
        ck_assert_int_eq(rs_ws_power(ws, P), RS_OK);
        ck_assert(P[RS_POWER_DAMPING] >= 0);
        ck_assert(fabs(P[RS_POWER_OTHER]) <= 1e-9 * (1 + fabs(P[RS_POWER_DAMPING])));
        for (int k = 0; k < RS_POWER_COUNT; k++)
            w[k] += 0.5 * dt * (Pp[k] + P[k]);
        memcpy(Pp, P, sizeof P);
    }
    ck_assert_int_eq(rs_ws_energy(ws, &T, &V), RS_OK);
    rs_ws_free(&ws);
    *wdamp = w[RS_POWER_DAMPING];
    return (T + V) - (T0 + V0) + w[RS_POWER_DAMPING] - w[RS_POWER_INPUTS] - w[RS_POWER_OTHER];
}

START_TEST(test_energy_balance)
{
    const rs_method meth[2] = {RS_IMEX_EULER, RS_RK4};
    const char *name[2] = {"IMEX", "RK4"};
    for (int k = 0; k < 2; k++) {
        double wd, r[3];
        const double dt[3] = {4e-5, 2e-5, 1e-5};
        for (int i = 0; i < 3; i++)
            r[i] = balance(meth[k], dt[i], &wd);
        fprintf(stderr, "energy %s: dissipated %.6f J; residual %.3e, %.3e, %.3e J (dt 40, 20, 10 us)\n",
                name[k], wd, r[0], r[1], r[2]);
        ck_assert_msg(wd > 0.1 * (0.5 * k0 * 1e-4 + 0.5 * k_1 * 1e-4), "the dampers dissipate");
        ck_assert_msg(fabs(r[2]) < (k ? 1e-4 : 2e-3) * wd, "%s residual %g beside %g J", name[k], r[2], wd);
        ck_assert_msg(fabs(r[1]) < 0.6 * fabs(r[0]) && fabs(r[2]) < 0.6 * fabs(r[1]),
                      "%s residual does not shrink: %g %g %g", name[k], r[0], r[1], r[2]);
    }
}
END_TEST

/* V has the nodes' springs: at x = 0 with z set, V = ½ k_y z1² + ½ k2 z2²;
 * and the descriptor names, units and slots of the states. */
START_TEST(test_state_energy_and_descriptor)
{
    ck_assert_int_eq(M->n_z, 2);
    ck_assert_str_eq(M->z_names[0], "yaw1.z");
    ck_assert_str_eq(M->z_names[1], "air2.z");
    ck_assert_str_eq(M->z_units[0], "m");
    ck_assert_str_eq(M->u_units[M->z_slot[1]], "m");
    ck_assert_ptr_nonnull(M->fn[RS_FN_ZDOT].fn);
    rs_ws *ws = make(RS_IMEX_EULER, 1e-4);
    ck_assert_int_eq(rs_ws_set_u(ws, "yaw1.z", 2e-3), RS_OK);
    ck_assert_int_eq(rs_ws_set_u(ws, "air2.z", -3e-3), RS_OK);
    double T, V;
    ck_assert_int_eq(rs_ws_energy(ws, &T, &V), RS_OK);
    const double Va = 0.5 * k_y * 4e-6 + 0.5 * k_2 * 9e-6;
    ck_assert_msg(fabs(V - Va) < 1e-12 * Va, "V %.15g, by hand %.15g", V, Va);
    /* a negative damping from a parameter is refused before the first step */
    ck_assert_int_eq(rs_ws_set_param(ws, "c_a", -1), RS_OK);
    ck_assert_int_eq(rs_ws_init(ws), RS_E_VALUE);
    ck_assert_msg(strstr(rs_ws_error(ws), "air2.z") != NULL, "%s", rs_ws_error(ws));
    rs_ws_free(&ws);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("zstate");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_state_energy_and_descriptor);
    tcase_add_test(tc, test_relaxation);
    tcase_add_test(tc, test_energy_balance);
    tcase_add_test(tc, test_maxwell_dynamic_stiffness);
    tcase_add_test(tc, test_airspring_dynamic_stiffness);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
