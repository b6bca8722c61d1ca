/*
 * test_hmm.c — seed 002's method (b): the pendulum chain with compliant
 * joints (runtime/train/rs_hmm.h) integrated by the heterogeneous multiscale
 * method, each claim against something independent of the code under test:
 *
 *   - the compliant model: the resolved integration against this file's
 *     own formulation (the forces as −∂V/∂q of the springs' energy and
 *     −Jᵀ c J q̇ of the dampers, J and ∂V/∂q by central differences of the
 *     joints' geometry written here, RK4 of the same step);
 *   - the compliant chain tends to the rigid one (rs_chain's direct solver,
 *     a different formulation: natural coordinates and multipliers) as 1/k:
 *     the angle error is at most 3 joint deflections (load / k) over the
 *     bar length, and ten times k gives a tenth of the error;
 *   - the HMM against the resolved integration of the same compliant chain
 *     (the small step everywhere): small, and of third order in the macro
 *     step; against the rigid chain within the deflection term plus that;
 *   - the automatic micro-interval: the kernel's leakage that it assumes,
 *     computed here; a third of the interval lets the joint oscillation leak
 *     into the averages and the error explodes;
 *   - 1, 2 and 4 threads give bit-identical states;
 *   - energy: its error over 2 s small and of the macro step's order, with
 *     and without joint damping.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_chain.h"
#include "rs_hmm.h"
#include "rs_status.h"
#include "rs_test.h"

enum { NMAX = 16 };
static const double pi = 3.14159265358979323846;

/* The swinging start of test_artificial: bar i at 0.4 + 0.15 i rad,
 * spinning 0.5 − 0.1 i rad/s. */
static void start_angles(int n, double *th, double *om)
{
    for (int i = 0; i < n; i++) {
        th[i] = 0.4 + 0.15 * i;
        om[i] = 0.5 - 0.1 * i;
    }
}

static rs_hmm *make(int n, double k, rs_hmm_mode mode, double H, int threads)
{
    rs_hmm_config cfg;
    rs_hmm_config_default(&cfg);
    cfg.n = n;
    cfg.stiffness = k;
    cfg.damping = rs_hmm_damping_for_ratio(&cfg, 0.2);
    cfg.mode = mode;
    cfg.macro_step = H;
    cfg.threads = threads;
    rs_hmm *h = NULL;
    char err[512] = "";
    ck_assert_msg(rs_hmm_create(&h, &cfg, err, sizeof err) == RS_OK, "%s", err);
    double th[NMAX], om[NMAX];
    start_angles(n, th, om);
    rs_hmm_set_angles(h, th, om);
    return h;
}

static void step(rs_hmm *h, double H)
{
    char err[512] = "";
    ck_assert_msg(rs_hmm_step(h, H, err, sizeof err) == RS_OK, "t %g: %s", rs_hmm_time(h), err);
}

static rs_chain *make_rigid(int n)
{
    rs_chain_config cfg;
    rs_chain_config_default(&cfg);
    cfg.n = n;
    cfg.solver = RS_CHAIN_DIRECT;
    rs_chain *c = NULL;
    char err[512] = "";
    ck_assert_msg(rs_chain_create(&c, &cfg, err, sizeof err) == RS_OK, "%s", err);
    double th[NMAX], om[NMAX];
    start_angles(n, th, om);
    rs_chain_set_angles(c, th, om);
    return c;
}

/* The automatic micro-interval rests on RS_HMM_LEAK (P/4)^-5, the largest
 * response of the sin⁴ kernel to a decaying oscillation of P periods:
 * computed here by the trapezoid rule on a fine grid, over the phase. */
static double leakage(int sin4, double P, double zeta)
{
    const int m = 20000;
    double worst = 0.0;
    for (int ph = 0; ph < 32; ph++) {
        double num = 0.0, den = 0.0;
        for (int j = 0; j <= m; j++) {
            const double s = (double)j / m, wt = j == 0 || j == m ? 0.5 : 1.0;
            const double K = sin4 ? pow(sin(pi * s), 4) : 1.0;
            const double x = exp(-zeta * 2 * pi * P * s) * cos(2 * pi * P * s + ph * pi / 32);
            num += wt * K * x;
            den += wt * K;
        }
        worst = fmax(worst, fabs(num / den));
    }
    return worst;
}

START_TEST(test_kernel_leakage)
{
    const double Ps[] = {4, 6, 8, 12}, zetas[] = {0.07, 0.2};
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 2; b++) {
            const double l = leakage(1, Ps[a], zetas[b]), fit = RS_HMM_LEAK * pow(Ps[a] / 4, -5);
            const double box = leakage(0, Ps[a], zetas[b]);
            fprintf(stderr, "leakage: P %g, zeta %g: sin^4 %.3g (fit %.3g), box %.3g\n", Ps[a], zetas[b], l, fit, box);
            ck_assert_msg(l <= 1.3 * fit && l >= 0.5 * fit, "P %g zeta %g: leakage %g, fit %g", Ps[a], zetas[b], l,
                          fit);
            ck_assert_msg(box >= 10 * l, "the plain mean should leak far more: %g against %g", box, l);
        }
}
END_TEST

/* ------------------------------------ this file's own compliant chain */

typedef struct {
    int n;
    double m, L, I, g, k, c;
} own_chain;

/* Joint j's opening A_j − B_{j−1} from q = (x, y, θ) per bar. */
static void own_gap(const own_chain *o, const double *q, int j, double gap[2])
{
    const double *b = q + 3 * j;
    gap[0] = b[0] - 0.5 * o->L * sin(b[2]);
    gap[1] = b[1] + 0.5 * o->L * cos(b[2]);
    if (j > 0) {
        const double *p = q - 3 + 3 * j;
        gap[0] -= p[0] + 0.5 * o->L * sin(p[2]);
        gap[1] -= p[1] - 0.5 * o->L * cos(p[2]);
    }
}

/* Accelerations: M q̈ = −∂V/∂q − Σ_j c J_jᵀ J_j q̇, by central differences. */
static void own_rates(const own_chain *o, const double *y, double *yd)
{
    const int nq = 3 * o->n;
    double q[3 * NMAX], Jg[2 * NMAX][3 * NMAX], gd[2 * NMAX];
    memcpy(q, y, (size_t)nq * sizeof *q);
    for (int a = 0; a < nq; a++) {
        const double e = 1e-6, keep = q[a];
        double gp[2 * NMAX], gm[2 * NMAX];
        q[a] = keep + e;
        for (int j = 0; j < o->n; j++)
            own_gap(o, q, j, gp + 2 * j);
        q[a] = keep - e;
        for (int j = 0; j < o->n; j++)
            own_gap(o, q, j, gm + 2 * j);
        q[a] = keep;
        for (int r = 0; r < 2 * o->n; r++)
            Jg[r][a] = (gp[r] - gm[r]) / (2 * e);
    }
    for (int r = 0; r < 2 * o->n; r++) {
        gd[r] = 0.0;
        for (int a = 0; a < nq; a++)
            gd[r] += Jg[r][a] * y[nq + a];
    }
    for (int a = 0; a < nq; a++) {
        /* ∂V/∂q: the springs' part is k Σ g Jg (exact given Jg), gravity on y */
        double f = a % 3 == 1 ? -o->m * o->g : 0.0;
        for (int r = 0; r < 2 * o->n; r++) {
            double gv[2];
            own_gap(o, q, r / 2, gv);
            f -= Jg[r][a] * (o->k * gv[r % 2] + o->c * gd[r]);
        }
        yd[a] = y[nq + a];
        yd[nq + a] = f / (a % 3 == 2 ? o->I : o->m);
    }
}

static void own_rk4(const own_chain *o, double *y, double h)
{
    const int ny = 6 * o->n;
    double k[4][6 * NMAX], t[6 * NMAX];
    const double a[4] = {0, 0.5, 0.5, 1};
    for (int s = 0; s < 4; s++) {
        for (int q = 0; q < ny; q++)
            t[q] = y[q] + a[s] * h * (s ? k[s - 1][q] : 0.0);
        own_rates(o, t, k[s]);
    }
    for (int q = 0; q < ny; q++)
        y[q] += h / 6 * (k[0][q] + 2 * k[1][q] + 2 * k[2][q] + k[3][q]);
}

START_TEST(test_model_against_own_formulation)
{
    const int n = 3;
    rs_hmm *h = make(n, 1e6, RS_HMM_RESOLVED, 0.01, 1);
    const double delta = rs_hmm_micro_step(h);
    rs_hmm_config cfg;
    rs_hmm_config_default(&cfg);
    cfg.stiffness = 1e6;
    own_chain o = {n, 1.0, 1.0, 1.0 / 12.0, 9.81, 1e6, rs_hmm_damping_for_ratio(&cfg, 0.2)};
    /* both from the rigid state: the joints then open and ring at once */
    double y[6 * NMAX];
    double th[NMAX], om[NMAX];
    start_angles(n, th, om);
    rs_hmm_set_angles(h, th, om);
    memcpy(y, rs_hmm_coords(h), 3 * n * sizeof *y);
    memcpy(y + 3 * n, rs_hmm_rates(h), 3 * n * sizeof *y);
    double worst = 0.0, scale = 0.0;
    for (int s = 0; s < 400; s++) {
        step(h, delta);
        own_rk4(&o, y, delta);
        for (int q = 0; q < 3 * n; q++) {
            worst = fmax(worst, fabs(rs_hmm_coords(h)[q] - y[q]));
            worst = fmax(worst, fabs(rs_hmm_rates(h)[q] - y[3 * n + q]) * delta);
            scale = fmax(scale, fabs(y[q]));
        }
    }
    fprintf(stderr, "model: 3 bars, k 1e6, %d steps of %.3g s: largest difference from the own formulation %.3g "
                    "(positions, velocities x step; coordinates up to %.3g)\n",
            400, delta, worst, scale);
    /* finite differences of step 1e-6 on O(1) geometry: about 1e-10 */
    ck_assert_msg(worst <= 1e-8, "resolved chain vs own formulation: %g", worst);
    rs_hmm_free(&h);
}
END_TEST

/* Largest |θ_i − θ_i^rigid| of the resolved compliant chain over t_end,
 * and its largest joint load k |g| (the rigid chain's reaction, about). */
static double compliant_error(int n, double k, double t_end, double *load)
{
    rs_hmm *h = make(n, k, RS_HMM_RESOLVED, 0.01, 1);
    rs_chain *r = make_rigid(n);
    const double dt = 1e-3;
    double e = 0.0;
    *load = 0.0;
    char err[512] = "";
    for (int s = 0; s < (int)lround(t_end / dt); s++) {
        step(h, dt);
        ck_assert_msg(rs_chain_step(r, dt, err, sizeof err) == RS_OK, "%s", err);
        for (int i = 0; i < n; i++)
            e = fmax(e, fabs(rs_hmm_angle(h, i) - rs_chain_angle(r, i)));
        *load = fmax(*load, k * rs_hmm_max_gap(h));
    }
    rs_hmm_free(&h);
    rs_chain_free(&r);
    return e;
}

START_TEST(test_compliant_tends_to_rigid_as_1_over_k)
{
    const int n = 5;
    const double ks[] = {1e7, 1e8, 1e9};
    double e[3], load[3];
    for (int j = 0; j < 3; j++) {
        e[j] = compliant_error(n, ks[j], 0.3, &load[j]);
        /* the joints deflect by load/k; the angles by about that over L,
         * accumulated over the swing: C = error / (load / (k L)) */
        const double C = e[j] / (load[j] / ks[j] / 1.0);
        fprintf(stderr, "1/k: 5 bars, k %.0e, 0.3 s: max |theta - theta_rigid| %.3g rad, largest joint load %.4g N, "
                        "deflection load/k %.3g m, error / (deflection / L) = %.3g\n",
                ks[j], e[j], load[j], load[j] / ks[j], C);
    }
    for (int j = 0; j < 3; j++)
        ck_assert_msg(e[j] <= 3.0 * load[j] / ks[j] / 1.0, "k %g: the error %g rad is over 3 deflections over L (%g)",
                      ks[j], e[j], load[j] / ks[j]);
    for (int j = 0; j < 2; j++) {
        const double ratio = e[j] / e[j + 1];
        ck_assert_msg(ratio > 8.0 && ratio < 12.5, "k x10 divides the error by %.3g, not about 10", ratio);
    }
}
END_TEST

/* Largest angle difference of the HMM at macro step H from the resolved
 * chain and from the rigid one, over t_end. */
static void hmm_errors(int n, double k, double H, double t_end, double *to_resolved, double *to_rigid)
{
    rs_hmm *a = make(n, k, RS_HMM_AVERAGED, H, 1), *h = make(n, k, RS_HMM_RESOLVED, H, 1);
    rs_chain *r = make_rigid(n);
    char err[512] = "";
    *to_resolved = *to_rigid = 0.0;
    for (int s = 0; s < (int)lround(t_end / H); s++) {
        step(a, H);
        step(h, H);
        for (int q = 0; q < (int)lround(H / 1e-3); q++)
            ck_assert_msg(rs_chain_step(r, H / lround(H / 1e-3), err, sizeof err) == RS_OK, "%s", err);
        for (int i = 0; i < n; i++) {
            *to_resolved = fmax(*to_resolved, fabs(rs_hmm_angle(a, i) - rs_hmm_angle(h, i)));
            *to_rigid = fmax(*to_rigid, fabs(rs_hmm_angle(a, i) - rs_chain_angle(r, i)));
        }
    }
    const rs_hmm_stats st = rs_hmm_get_stats(a);
    fprintf(stderr, "hmm: %d bars, k %.0e, H %g s, eta %.3g s, delta %.3g s (%ld micro steps in %ld macro steps): "
                    "max |theta - resolved| %.3g rad, |theta - rigid| %.3g rad\n",
            n, k, H, rs_hmm_micro_interval(a), rs_hmm_micro_step(a), st.micro_steps, st.macro_steps, *to_resolved,
            *to_rigid);
    rs_hmm_free(&a);
    rs_hmm_free(&h);
    rs_chain_free(&r);
}

START_TEST(test_hmm_against_resolved_and_rigid)
{
    const int n = 5;
    const double k = 1e10, t_end = 0.2;
    double r10, g10, r5, g5;
    hmm_errors(n, k, 0.01, t_end, &r10, &g10);
    hmm_errors(n, k, 0.005, t_end, &r5, &g5);
    /* the macro step: joint forces extrapolated linearly, averages
     * corrected to second order: third order in H (measured 12 a halving) */
    ck_assert_msg(r10 / r5 >= 6.0, "halving H divides the error by %.3g only", r10 / r5);
    ck_assert_msg(r5 <= 2e-7, "HMM vs resolved at H 5 ms: %g rad", r5);
    /* against the rigid chain: the compliant model's own error (at most
     * the deflection over L, test above: load about 50 N) plus the macro
     * error just measured */
    const double model = 60.0 / k / 1.0;
    ck_assert_msg(g5 <= model + r5 * 1.01, "HMM vs rigid %g > deflection term %g + macro error %g", g5, model, r5);
}
END_TEST

START_TEST(test_micro_interval_rule)
{
    const int n = 5;
    const double k = 1e10, H = 0.005;
    rs_hmm *g = make(n, k, RS_HMM_AVERAGED, H, 1);
    double good = 0.0;
    for (int s = 0; s < 40; s++) {
        step(g, H);
        good = fmax(good, rs_hmm_max_gap(g));
    }
    rs_hmm_free(&g);
    /* the automatic interval: openings of the deflection's order (load
     * about 50 N over k) plus the macro step's error */
    ck_assert_msg(good <= 1e-7, "automatic interval: joint opening %g m", good);
    /* a third of the automatic interval: the sin⁴ kernel's leakage grows
     * by 3⁵, the loop gain from 0.1 to about 24 */
    rs_hmm_config cfg;
    rs_hmm_config_default(&cfg);
    cfg.n = n;
    cfg.stiffness = k;
    cfg.damping = rs_hmm_damping_for_ratio(&cfg, 0.2);
    cfg.macro_step = H;
    cfg.micro_interval = rs_hmm_auto_interval(&cfg) / 3.0;
    rs_hmm *a = NULL;
    char err[512] = "";
    ck_assert_msg(rs_hmm_create(&a, &cfg, err, sizeof err) == RS_OK, "%s", err);
    double th[NMAX], om[NMAX];
    start_angles(n, th, om);
    rs_hmm_set_angles(a, th, om);
    int st = RS_OK, s = 0;
    double gap = 0.0;
    for (; s < 40 && st == RS_OK; s++) {
        st = rs_hmm_step(a, H, err, sizeof err);
        gap = fmax(gap, rs_hmm_max_gap(a));
    }
    fprintf(stderr, "rule: eta/3: after %d macro steps status %d, largest joint opening %.3g m (automatic eta: "
                    "%.3g m)\n",
            s, st, gap, good);
    ck_assert_msg(st == RS_E_NONFINITE || gap > 1e-3, "a third of the interval should not be stable: gap %g", gap);
    /* run on until the state overflows: the step says so and what to change */
    for (; s < 2000 && st == RS_OK; s++)
        st = rs_hmm_step(a, H, err, sizeof err);
    ck_assert_int_eq(st, RS_E_NONFINITE);
    ck_assert_msg(strstr(err, "non-finite") && strstr(err, "lengthen micro_interval"), "%s", err);
    rs_hmm_free(&a);
}
END_TEST

START_TEST(test_threads_bit_identical)
{
    const int n = 13;
    for (int mode = 0; mode < 2; mode++) {
        double ref[6 * NMAX];
        const int threads[] = {1, 2, 4};
        for (int k = 0; k < 3; k++) {
            rs_hmm *h = make(n, 1e10, mode ? RS_HMM_RESOLVED : RS_HMM_AVERAGED, 0.005, threads[k]);
            for (int s = 0; s < (mode ? 1 : 4); s++)
                step(h, mode ? 2e-4 : 0.005);
            if (k == 0) {
                memcpy(ref, rs_hmm_coords(h), 3 * n * sizeof *ref);
                memcpy(ref + 3 * n, rs_hmm_rates(h), 3 * n * sizeof *ref);
                ck_assert_msg(fabs(ref[3 * n - 1] - (0.4 + 0.15 * (n - 1))) > 1e-4, "the chain must move");
            } else {
                ck_assert_msg(memcmp(ref, rs_hmm_coords(h), 3 * n * sizeof *ref) == 0,
                              "mode %d: coordinates differ on %d threads", mode, threads[k]);
                ck_assert_msg(memcmp(ref + 3 * n, rs_hmm_rates(h), 3 * n * sizeof *ref) == 0,
                              "mode %d: rates differ on %d threads", mode, threads[k]);
            }
            rs_hmm_free(&h);
        }
    }
}
END_TEST

/* Largest |E − E0| over 2 s of 5 bars at macro step H. */
static double energy_error(double H, double zeta, double *e0)
{
    rs_hmm_config cfg;
    rs_hmm_config_default(&cfg);
    cfg.n = 5;
    cfg.stiffness = 1e10;
    cfg.damping = rs_hmm_damping_for_ratio(&cfg, zeta);
    cfg.macro_step = H;
    rs_hmm *h = NULL;
    char err[512] = "";
    ck_assert_msg(rs_hmm_create(&h, &cfg, err, sizeof err) == RS_OK, "%s", err);
    double th[NMAX], om[NMAX];
    start_angles(5, th, om);
    rs_hmm_set_angles(h, th, om);
    *e0 = rs_hmm_energy(h);
    double worst = 0.0;
    for (int s = 0; s < (int)lround(2.0 / H); s++) {
        step(h, H);
        worst = fmax(worst, fabs(rs_hmm_energy(h) - *e0));
    }
    fprintf(stderr, "energy: 5 bars, k 1e10, damping %g N s/m, H %g s: |E - E0| <= %.3g J over 2 s (E0 = %.6g J)\n",
            cfg.damping, H, worst, *e0);
    rs_hmm_free(&h);
    return worst;
}

/* The slow motion is conservative (the dampers act only on the joints'
 * ringing): the energy error is the macro step's, small and of its order. */
START_TEST(test_energy_bounded)
{
    double e0;
    const double e5 = energy_error(0.005, 0.2, &e0), e25 = energy_error(0.0025, 0.2, &e0);
    const double undamped = energy_error(0.005, 0.0, &e0);
    ck_assert_msg(e5 <= 1e-6 * fabs(e0), "energy error %g J of %g J at H 5 ms", e5, e0);
    ck_assert_msg(e25 <= e5 / 4.0, "halving H divides the energy error by %.3g only", e5 / e25);
    ck_assert_msg(undamped <= 2.0 * e5, "without joint damping: %g J against %g J", undamped, e5);
}
END_TEST

START_TEST(test_errors)
{
    rs_hmm_config cfg;
    rs_hmm_config_default(&cfg);
    cfg.stiffness = 0.0;
    rs_hmm *h = NULL;
    char err[512] = "";
    ck_assert_int_eq(rs_hmm_create(&h, &cfg, err, sizeof err), RS_E_ARG);
    ck_assert_ptr_null(h);
    ck_assert_msg(strstr(err, "stiffness > 0 (0)") != NULL, "%s", err);
    rs_hmm_config_default(&cfg);
    cfg.micro_step = 1e-3;
    ck_assert_int_eq(rs_hmm_create(&h, &cfg, err, sizeof err), RS_E_ARG);
    ck_assert_msg(strstr(err, "too long for the joints") != NULL, "%s", err);
    rs_hmm_config_default(&cfg);
    cfg.macro_step = 1e-3;   /* 10 bars at k 1e10: the rule's η is 1.9 ms */
    ck_assert_int_eq(rs_hmm_create(&h, &cfg, err, sizeof err), RS_E_ARG);
    ck_assert_msg(strstr(err, "longer than the macro step") && strstr(err, "lengthen macro_step"), "%s", err);
    rs_hmm_config_default(&cfg);
    ck_assert_int_eq(rs_hmm_create(&h, &cfg, err, sizeof err), RS_OK);
    const double eta = rs_hmm_micro_interval(h);
    ck_assert_int_eq(rs_hmm_step(h, 0.5 * eta, err, sizeof err), RS_E_ARG);
    ck_assert_msg(strstr(err, "shorter than the micro-interval") != NULL, "%s", err);
    ck_assert_int_eq(rs_hmm_step(h, -1.0, err, sizeof err), RS_E_ARG);
    rs_hmm_free(&h);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("hmm");
    TCase *tc = tcase_create("chain");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_kernel_leakage);
    tcase_add_test(tc, test_model_against_own_formulation);
    tcase_add_test(tc, test_compliant_tends_to_rigid_as_1_over_k);
    tcase_add_test(tc, test_hmm_against_resolved_and_rigid);
    tcase_add_test(tc, test_micro_interval_rule);
    tcase_add_test(tc, test_threads_bit_identical);
    tcase_add_test(tc, test_energy_bounded);
    tcase_add_test(tc, test_errors);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
