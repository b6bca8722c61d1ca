/*
 * test_ltrain.c — seed 002's two methods on a longitudinal train in
 * natural coordinates (runtime/train/rs_ltrain.h), each claim against
 * something the code under test did not compute:
 *
 * Rigid couplers, method (a):
 *   - A and b against J M⁻¹ Jᵀ and α f + J M⁻¹ p* built here from the
 *     wagon's numbers (m_x = m_body + 2 m_bogie) and this file's J;
 *   - the artificial dynamics converges to the direct solution to 1e-10
 *     relative, and its error contracts per iteration by max |1 − τ λ|
 *     over the eigenvalues λ of diag(A)⁻¹ A (LAPACK dstev on the symmetric
 *     tridiagonal diag(A)^-½ A diag(A)^-½);
 *   - a train pulled by its locomotive from rest on a grade: every
 *     vehicle's speed against this file's RK4 of M v̇ = F − R(v) − M g sin γ,
 *     its acceleration (F − R)/M and each coupler's tension F·(mass
 *     behind)/M, by hand, to 1e-8;
 *   - Baumgarte: a coupler violation decays per step by RK4's factor of
 *     ḟ = −α f, and from a consistent start it stays below the bound the
 *     solver's residual and α set;
 * Stiff couplers, method (b):
 *   - the resolved integration against this file's own RK4 of
 *     m_i s̈_i = F_i − T_i + T_{i−1};
 *   - compliant → rigid: the resolved train's offset from the rigid one is
 *     the couplers' quasi-static elongations T/k (hand calculation), and
 *     falls as 1/k;
 *   - the HMM against the rigid train: the offset is the elongation term
 *     (within 1 %) and falls as 1/k;
 *   - the HMM against the resolved train on a curved slow motion: the
 *     error falls with H as the square of the rule's micro-interval η(H),
 *     and to a quarter at half the η;
 *   - too short a micro-interval, a coupler with slack: refused;
 * Both: 1, 2 and 4 threads give bit-identical states.
 * Train files ('formulation natural'): artificial and direct runs agree,
 * their tensions are the hand ones, the HMM's within its macro error, and
 * the wrong combinations are refused with the line and the fix.
 */
#define _DEFAULT_SOURCE /* mkdtemp, realpath */

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rs_ltrain.h"
#include "rs_status.h"
#include "rs_test.h"
#include "rs_test_files.h"
#include "rs_train_file.h"

/* LAPACK: eigenvalues of a symmetric tridiagonal matrix (Fortran interface). */
void dstev_(const char *jobz, const int *n, double *d, double *e, double *z, const int *ldz, double *work, int *info,
            size_t ljobz);

enum { NMAX = 128 };   /* the 100-vehicle CG check */

static const double traction = 3e5, grade = 0.004;

/* A locomotive and n − 1 wagons, every third wagon lighter (empty). */
static void vehicles(int n, rs_wagon *veh, rs_coupler *cpl, double k, double zeta)
{
    for (int i = 0; i < n; i++) {
        if (i == 0) {
            rs_loco_default(&veh[i]);
            veh[i].traction = traction;
        } else {
            rs_wagon_default(&veh[i]);
            if (i % 3 == 0)
                veh[i].m_body = 21000.0;
        }
    }
    for (int i = 0; i + 1 < n; i++) {
        rs_coupler_default(&cpl[i]);
        cpl[i].k = k;
        cpl[i].length = 0.1 * (i % 2);
        /* damping ratio ζ of one coupler between the two masses */
        const double ma = veh[i].m_body + 2 * veh[i].m_bogie, mb = veh[i + 1].m_body + 2 * veh[i + 1].m_bogie;
        cpl[i].c = 2.0 * zeta * sqrt(k * ma * mb / (ma + mb));
    }
}

static double mass_of(const rs_wagon *w) { return w->m_body + 2.0 * w->m_bogie; }

static double tol_of_make = 1e-10;   /* the artificial solver's tolerance of the next make() */
static double r1_of_make = 0.0;      /* every vehicle's r1 in the next make() */
static int direct_first_of_make = 1; /* rs_ltrain_config.direct_first of the next make() */

static rs_ltrain *make(int n, rs_ltrain_method me, int threads, double k, double H, rs_wagon *veh, rs_coupler *cpl)
{
    vehicles(n, veh, cpl, k, 0.2);
    for (int i = 0; i < n; i++)
        veh[i].r1 = r1_of_make;
    rs_ltrain_config cfg;
    rs_ltrain_config_default(&cfg);
    cfg.n = n;
    cfg.veh = veh;
    cfg.cpl = cpl;
    cfg.grade = grade;
    cfg.method = me;
    cfg.threads = threads;
    cfg.macro_step = H;
    cfg.tol = tol_of_make;
    cfg.direct_first = direct_first_of_make;
    rs_ltrain *lt = NULL;
    char err[512] = "";
    ck_assert_msg(rs_ltrain_create(&lt, &cfg, err, sizeof err) == RS_OK, "%s", err);
    return lt;
}

/* A state away from the constraints and with spread speeds. */
static void disturb(rs_ltrain *lt, int n)
{
    double s[NMAX], v[NMAX];
    const double *s0 = rs_ltrain_coords(lt);
    for (int i = 0; i < n; i++) {
        s[i] = s0[i] + 1e-3 * sin(1.3 * i);
        v[i] = 5.0 + 0.2 * cos(0.7 * i);
    }
    rs_ltrain_set_state(lt, 0.0, s, v);
}

START_TEST(test_system)
{
    const int n = 7, nc = n - 1;
    rs_wagon veh[NMAX];
    rs_coupler cpl[NMAX];
    rs_ltrain *lt = make(n, RS_LTRAIN_ARTIFICIAL, 1, 1e8, 0.01, veh, cpl);
    disturb(lt, n);
    double A[NMAX * NMAX], b[NMAX];
    rs_ltrain_system(lt, A, b);
    const double *s = rs_ltrain_coords(lt);
    for (int r = 0; r < nc; r++) {
        /* J: row r is +1 at r, −1 at r + 1; p* = M v (μ = 0) */
        const double d = veh[r].l_rear + cpl[r].length + veh[r + 1].l_front;
        const double v_r = 5.0 + 0.2 * cos(0.7 * r), v_n = 5.0 + 0.2 * cos(0.7 * (r + 1));
        const double b_ref = 10.0 * (s[r] - s[r + 1] - d) + v_r - v_n;
        ck_assert_msg(fabs(b[r] - b_ref) <= 1e-12 * fabs(b_ref) + 1e-15, "b[%d] %g, expected %g", r, b[r], b_ref);
        for (int c = 0; c < nc; c++) {
            double a = 0.0;
            for (int i = 0; i < n; i++) {
                const double jr = i == r ? 1.0 : i == r + 1 ? -1.0 : 0.0, jc = i == c ? 1.0 : i == c + 1 ? -1.0 : 0.0;
                a += jr * jc / mass_of(&veh[i]);
            }
            ck_assert_msg(fabs(A[r + c * nc] - a) <= 1e-15 * fabs(a) + 1e-20, "A(%d,%d)", r, c);
        }
    }
    rs_ltrain_free(&lt);
}
END_TEST

static double rel_err(const double *x, const double *y, int n)
{
    double e = 0.0, m = 0.0;
    for (int i = 0; i < n; i++) {
        e = fmax(e, fabs(x[i] - y[i]));
        m = fmax(m, fabs(y[i]));
    }
    return e / m;
}

/* The direct μ* and an artificial train at the same disturbed state. */
static void pair(int n, rs_ltrain **art, double *mu_star)
{
    rs_wagon veh[NMAX];
    rs_coupler cpl[NMAX];
    rs_ltrain *dir = make(n, RS_LTRAIN_DIRECT, 1, 1e8, 0.01, veh, cpl);
    /* μ's error is at most cond(D⁻¹A) (up to 830 at 40 vehicles) times the
     * residual's, so 1e-10 on μ needs a residual of 1e-13 */
    tol_of_make = 1e-13;
    *art = make(n, RS_LTRAIN_ARTIFICIAL, 1, 1e8, 0.01, veh, cpl);
    tol_of_make = 1e-10;
    disturb(dir, n);
    disturb(*art, n);
    char err[512] = "";
    memset(mu_star, 0, (size_t)(n - 1) * sizeof *mu_star);
    ck_assert_msg(rs_ltrain_solve(dir, mu_star, 1, NULL, err, sizeof err) == RS_OK, "%s", err);
    rs_ltrain_free(&dir);
}

START_TEST(test_converges_to_direct)
{
    const int ns[] = {2, 10, 40};
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        const int n = ns[k];
        rs_ltrain *a;
        double mu_star[NMAX], mu[NMAX] = {0};
        pair(n, &a, mu_star);
        char err[512] = "";
        int it = 0;
        ck_assert_msg(rs_ltrain_solve(a, mu, 2000000, &it, err, sizeof err) == RS_OK, "%s", err);
        const double e = rel_err(mu, mu_star, n - 1);
        fprintf(stderr, "converges: %d vehicles: %d iterations from mu = 0, relative error %.3g\n", n, it, e);
        ck_assert_msg(e <= 1e-10, "n %d: relative error %g", n, e);
        rs_ltrain_free(&a);
    }
}
END_TEST

/* CG (RS_LTRAIN_CG) from μ = 0 at pair()'s disturbed state: the direct μ*
 * to 1e-10 relative within nc + 5 iterations (CG's exact-arithmetic bound
 * nc, + 5 for rounding), far fewer than the artificial iteration's; trains
 * of 10 and 100 vehicles, 1 and 3 threads. */
START_TEST(test_cg_against_direct)
{
    const int ns[] = {10, 100};
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        const int n = ns[k], nc = n - 1;
        rs_ltrain *a;
        double mu_star[NMAX], mu[NMAX] = {0};
        pair(n, &a, mu_star);
        char err[512] = "";
        int it_art = 0;
        ck_assert_msg(rs_ltrain_solve(a, mu, 2000000, &it_art, err, sizeof err) == RS_OK, "%s", err);
        rs_ltrain_free(&a);
        for (int threads = 1; threads <= 3; threads += 2) {
            rs_wagon veh[NMAX];
            rs_coupler cpl[NMAX];
            tol_of_make = 1e-13;
            rs_ltrain *g = make(n, RS_LTRAIN_CG, threads, 1e8, 0.01, veh, cpl);
            tol_of_make = 1e-10;
            disturb(g, n);
            memset(mu, 0, sizeof mu);
            int it = 0;
            ck_assert_msg(rs_ltrain_solve(g, mu, nc + 5, &it, err, sizeof err) == RS_OK, "%s", err);
            const double e = rel_err(mu, mu_star, nc);
            fprintf(stderr, "cg: %d vehicles, %d threads: %d iterations from mu = 0 (artificial: %d), relative error %.3g\n",
                    n, threads, it, it_art, e);
            ck_assert_msg(e <= 1e-10, "n %d: relative error %g", n, e);
            ck_assert_msg(it <= nc + 5 && it < it_art / 10, "n %d: %d CG iterations, %d artificial", n, it, it_art);
            rs_ltrain_free(&g);
        }
    }
}
END_TEST

/* 3 s of a 40-vehicle train pulled from rest (a disturbed start, so the
 * couplers work) by CG and directly: positions within 1e-9 relative. */
START_TEST(test_cg_trajectories)
{
    const int n = 40;
    rs_wagon veh[NMAX];
    rs_coupler cpl[NMAX];
    rs_ltrain *g = make(n, RS_LTRAIN_CG, 2, 1e8, 0.01, veh, cpl), *d = make(n, RS_LTRAIN_DIRECT, 1, 1e8, 0.01, veh, cpl);
    disturb(g, n);
    disturb(d, n);
    char err[512] = "";
    double ds = 0.0, smax = 0.0;
    for (int j = 0; j < 600; j++) {
        ck_assert_msg(rs_ltrain_step(g, 0.005, err, sizeof err) == RS_OK, "%s", err);
        ck_assert_msg(rs_ltrain_step(d, 0.005, err, sizeof err) == RS_OK, "%s", err);
        for (int i = 0; i < n; i++) {
            ds = fmax(ds, fabs(rs_ltrain_coords(g)[i] - rs_ltrain_coords(d)[i]));
            smax = fmax(smax, fabs(rs_ltrain_coords(d)[i]));
        }
    }
    const rs_ltrain_stats st = rs_ltrain_get_stats(g);
    fprintf(stderr, "cg trajectories: %d vehicles, 3 s at h 5 ms: max |s| difference %.3g relative; %.2f CG "
            "iterations per solve, at most %d\n", n, ds / smax, (double)st.iters / (double)st.solves, st.max_iters);
    ck_assert_msg(ds <= 1e-9 * smax, "cg vs direct %g relative", ds / smax);
    ck_assert_msg(st.max_iters <= n - 1 + 5, "%d iterations", st.max_iters);
    rs_ltrain_free(&g);
    rs_ltrain_free(&d);
}
END_TEST

START_TEST(test_rate_matches_eigenvalues)
{
    const int ns[] = {3, 10, 40};
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        const int n = ns[k], nc = n - 1;
        rs_ltrain *a;
        double mu_star[NMAX], mu[NMAX];
        pair(n, &a, mu_star);
        /* diag(A)^-½ A diag(A)^-½: symmetric tridiagonal, the eigenvalues of D⁻¹A */
        double A[NMAX * NMAX], dg[NMAX], d[NMAX], e[NMAX], work[2 * NMAX];
        rs_ltrain_system(a, A, NULL);
        for (int i = 0; i < nc; i++)
            dg[i] = A[i + i * nc];
        for (int i = 0; i < nc; i++) {
            d[i] = 1.0;
            e[i] = i + 1 < nc ? A[i + (i + 1) * nc] / sqrt(dg[i] * dg[i + 1]) : 0.0;
        }
        int info = 0, one = 1;
        dstev_("N", &nc, d, e, NULL, &one, work, &info, 1);
        ck_assert_int_eq(info, 0);
        ck_assert_msg(d[0] > 0.0, "A must be positive definite: smallest eigenvalue %g", d[0]);
        char err[512] = "";
        int it;
        memset(mu, 0, sizeof mu);
        rs_ltrain_solve(a, mu, 1, &it, err, sizeof err);
        const double tau = rs_ltrain_last_tau(a);
        const double rho = fmax(fabs(1 - tau * d[0]), fabs(1 - tau * d[nc - 1]));
        const int k1 = (int)ceil(log(1e-3) / log(rho)), k2 = (int)ceil(log(1e-8) / log(rho));
        double en[2];
        for (int j = 0; j < 2; j++) {
            memset(mu, 0, sizeof mu);
            const int st = rs_ltrain_solve(a, mu, j == 0 ? k1 : k2, &it, err, sizeof err);
            ck_assert_msg(st == RS_E_NOCONV || st == RS_OK, "%s", err);
            double s2 = 0.0;
            for (int i = 0; i < nc; i++)   /* the D-norm: the modes are orthogonal in it */
                s2 += dg[i] * (mu[i] - mu_star[i]) * (mu[i] - mu_star[i]);
            en[j] = sqrt(s2);
        }
        const double measured = pow(en[1] / en[0], 1.0 / (k2 - k1));
        fprintf(stderr,
                "rate: %d vehicles: lambda(D^-1 A) in [%.4g, %.4g], tau %.4g, predicted %.6f, measured %.6f per "
                "iteration (iterations %d..%d)\n",
                n, d[0], d[nc - 1], tau, rho, measured, k1, k2);
        ck_assert_msg(fabs(log(measured) / log(rho) - 1) < 0.02, "n %d: measured %g, predicted %g", n, measured, rho);
        rs_ltrain_free(&a);
    }
}
END_TEST

/* The rigid train's speed by hand: M v̇ = F − M g (r0 v/√(v² + v_s²) + r1 v
 * + sin γ), every vehicle with the same r0, r1, v_s (so R ∝ m). */
static double rigid_accel(const rs_wagon *w, double v, double M)
{
    return traction / M - w->g * (w->r0 * v / sqrt(v * v + w->v_s * w->v_s) + w->r1 * v + sin(grade));
}

static void rigid_speed(const rs_wagon *w, double M, double t_end, double v0, double *v, double *x)
{
    const int steps = 20000;
    const double h = t_end / steps;
    double vv = v0, xx = 0.0;
    for (int k = 0; k < steps; k++) {
        const double k1 = rigid_accel(w, vv, M), k2 = rigid_accel(w, vv + 0.5 * h * k1, M);
        const double k3 = rigid_accel(w, vv + 0.5 * h * k2, M), k4 = rigid_accel(w, vv + h * k3, M);
        xx += h * (vv + h / 6.0 * (k1 + k2 + k3));   /* x of RK4 on (x, v) */
        vv += h / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4);
    }
    *v = vv;
    *x = xx;
}

START_TEST(test_pull_from_rest)
{
    const int n = 12;
    for (int me = RS_LTRAIN_ARTIFICIAL; me <= RS_LTRAIN_DIRECT; me++) {
        rs_wagon veh[NMAX];
        rs_coupler cpl[NMAX];
        rs_ltrain *lt = make(n, (rs_ltrain_method)me, 2, 1e8, 0.01, veh, cpl);
        double M = 0.0;
        for (int i = 0; i < n; i++)
            M += mass_of(&veh[i]);
        const double h = 0.005;
        char err[512] = "";
        const double times[] = {0.5, 3.0};
        int done = 0;
        double maxe = 0.0, bmax = 0.0;
        for (size_t k = 0; k < 2; k++) {
            for (; done * h < times[k] - 1e-12; done++) {
                ck_assert_msg(rs_ltrain_step(lt, h, err, sizeof err) == RS_OK, "%s", err);
                maxe = fmax(maxe, rs_ltrain_max_elongation(lt));
                double b[NMAX];
                rs_ltrain_system(lt, NULL, b);
                for (int c = 0; c < n - 1; c++)
                    bmax = fmax(bmax, fabs(b[c]));
            }
            double v_ref, x_ref, v[NMAX], T[NMAX], a[NMAX];
            rigid_speed(&veh[0], M, times[k], 0.0, &v_ref, &x_ref);
            const double a_ref = rigid_accel(&veh[0], v_ref, M);
            ck_assert_int_eq(rs_ltrain_eval(lt, v, T, a), RS_OK);
            double ev = 0.0, ea = 0.0, eT = 0.0;
            double behind = M;
            for (int i = 0; i < n; i++) {
                ev = fmax(ev, fabs(v[i] - v_ref) / v_ref);
                ea = fmax(ea, fabs(a[i] - a_ref) / a_ref);
                behind -= mass_of(&veh[i]);
                if (i < n - 1)   /* R and the grade ∝ m: T_i = F (mass behind) / M */
                    eT = fmax(eT, fabs(T[i] - traction * behind / M) / traction);
            }
            const double ex = fabs(rs_ltrain_coords(lt)[0] - x_ref) / x_ref;
            fprintf(stderr,
                    "pull (%s): t %.1f s, v %.6f m/s: speed %.2g, position %.2g, acceleration %.2g, tension %.2g "
                    "(relative)\n",
                    me == RS_LTRAIN_DIRECT ? "direct" : "artificial", times[k], v_ref, ev, ex, ea, eT);
            ck_assert_msg(ev <= 1e-8 && ex <= 1e-8 && ea <= 1e-8 && eT <= 1e-8, "errors %g %g %g %g", ev, ex, ea, eT);
        }
        /* consistent start: the violation obeys ḟ = −α f + r, |r| <= tol |b|,
         * so it stays below tol max|b| / α (direct: rounding only) */
        const double bound = me == RS_LTRAIN_DIRECT ? 1e-12 : 2.0 * 1e-10 * bmax / 10.0 + 1e-13;
        fprintf(stderr, "pull (%s): largest coupler violation %.3g m, bound %.3g m\n",
                me == RS_LTRAIN_DIRECT ? "direct" : "artificial", maxe, bound);
        ck_assert_msg(maxe <= bound, "violation %g > %g", maxe, bound);
        rs_ltrain_free(&lt);
    }
}
END_TEST

START_TEST(test_baumgarte_decay)
{
    const int n = 6;
    for (int me = RS_LTRAIN_ARTIFICIAL; me <= RS_LTRAIN_DIRECT; me++) {
        rs_wagon veh[NMAX];
        rs_coupler cpl[NMAX];
        rs_ltrain *lt = make(n, (rs_ltrain_method)me, 1, 1e8, 0.01, veh, cpl);
        rs_ltrain_start(lt, 0.0, 0.0, 10.0);
        double s[NMAX], v[NMAX];
        memcpy(s, rs_ltrain_coords(lt), (size_t)n * sizeof *s);
        for (int i = 0; i < n; i++)
            v[i] = 10.0;
        s[3] -= 2e-3;   /* coupler 2 stretched by 2 mm, coupler 3 compressed */
        rs_ltrain_set_state(lt, 0.0, s, v);
        const double h = 0.01, alpha = 10.0, z = -alpha * h;
        const double R = 1 + z + z * z / 2 + z * z * z / 6 + z * z * z * z / 24;
        char err[512] = "";
        double worst = 0.0;
        for (int k = 1; k <= 50; k++) {
            ck_assert_msg(rs_ltrain_step(lt, h, err, sizeof err) == RS_OK, "%s", err);
            const double *q = rs_ltrain_coords(lt);
            const double f2 = q[2] - q[3] - rs_ltrain_distance(lt, 2);
            worst = fmax(worst, fabs(f2 / (2e-3 * pow(R, k)) - 1.0));
        }
        fprintf(stderr, "baumgarte (%s): f after 0.5 s %.4g of f0 (RK4 factor^50 %.4g, e^-5 %.4g); worst relative "
                "deviation %.2g\n", me == RS_LTRAIN_DIRECT ? "direct" : "artificial",
                (rs_ltrain_coords(lt)[2] - rs_ltrain_coords(lt)[3] - rs_ltrain_distance(lt, 2)) / 2e-3, pow(R, 50),
                exp(-5.0), worst);
        ck_assert_msg(worst <= (me == RS_LTRAIN_DIRECT ? 1e-9 : 1e-6), "deviation %g", worst);
        rs_ltrain_free(&lt);
    }
}
END_TEST

/* -------------------------------------------------------- stiff couplers */

/* This file's RK4 of m_i s̈_i = F_i(t, v_i) − T_i + T_{i−1}, T = k e + c ė. */
static void own_rates(int n, const rs_wagon *veh, const rs_coupler *cpl, const double *y, double *yd)
{
    double T[NMAX];
    for (int c = 0; c + 1 < n; c++) {
        const double d = veh[c].l_rear + cpl[c].length + veh[c + 1].l_front;
        T[c] = cpl[c].k * (y[c] - y[c + 1] - d) + cpl[c].c * (y[n + c] - y[n + c + 1]);
    }
    for (int i = 0; i < n; i++) {
        const rs_wagon *w = &veh[i];
        const double m = mass_of(w), v = y[n + i];
        const double F = w->traction - m * w->g * (w->r0 * v / sqrt(v * v + w->v_s * w->v_s) + w->r1 * v + sin(grade));
        yd[i] = v;
        yd[n + i] = (F - (i + 1 < n ? T[i] : 0.0) + (i > 0 ? T[i - 1] : 0.0)) / m;
    }
}

START_TEST(test_resolved_against_own_rk4)
{
    const int n = 5;
    rs_wagon veh[NMAX];
    rs_coupler cpl[NMAX];
    rs_ltrain *lt = make(n, RS_LTRAIN_RESOLVED, 1, 1e9, 0.01, veh, cpl);
    rs_ltrain_start(lt, 0.0, 100.0, 3.0);
    double y[2 * NMAX];
    memcpy(y, rs_ltrain_coords(lt), (size_t)n * sizeof *y);
    for (int i = 0; i < n; i++)
        y[n + i] = 3.0;
    const double delta = rs_ltrain_micro_step(lt);
    char err[512] = "";
    for (int k = 0; k < 400; k++) {
        ck_assert_msg(rs_ltrain_step(lt, delta, err, sizeof err) == RS_OK, "%s", err);
        double k1[2 * NMAX], k2[2 * NMAX], k3[2 * NMAX], k4[2 * NMAX], t[2 * NMAX];
        own_rates(n, veh, cpl, y, k1);
        for (int j = 0; j < 2 * n; j++)
            t[j] = y[j] + 0.5 * delta * k1[j];
        own_rates(n, veh, cpl, t, k2);
        for (int j = 0; j < 2 * n; j++)
            t[j] = y[j] + 0.5 * delta * k2[j];
        own_rates(n, veh, cpl, t, k3);
        for (int j = 0; j < 2 * n; j++)
            t[j] = y[j] + delta * k3[j];
        own_rates(n, veh, cpl, t, k4);
        for (int j = 0; j < 2 * n; j++)
            y[j] += delta / 6.0 * (k1[j] + 2 * k2[j] + 2 * k3[j] + k4[j]);
    }
    double v[NMAX];
    rs_ltrain_eval(lt, v, NULL, NULL);
    double e = 0.0;
    for (int i = 0; i < n; i++)
        e = fmax(e, fmax(fabs(rs_ltrain_coords(lt)[i] - y[i]) / fabs(y[i]), fabs(v[i] - y[n + i]) / fabs(y[n + i])));
    fprintf(stderr, "resolved: 400 micro steps of %.3g s against this file's RK4: %.2g relative\n", delta, e);
    ck_assert_msg(e <= 1e-12, "%g", e);
    rs_ltrain_free(&lt);
}
END_TEST

/* Runs a train of n from x = 0 at v0 for t_end in steps of H; returns it. */
static rs_ltrain *run(int n, rs_ltrain_method me, int threads, double k, double H, double t_end, rs_wagon *veh,
                      rs_coupler *cpl)
{
    rs_ltrain *lt = make(n, me, threads, k, H, veh, cpl);
    rs_ltrain_start(lt, 0.0, 0.0, 5.0);
    char err[512] = "";
    const int steps = (int)lround(t_end / H);
    for (int s = 0; s < steps; s++)
        ck_assert_msg(rs_ltrain_step(lt, H, err, sizeof err) == RS_OK, "%s", err);
    return lt;
}

/* The quasi-static offset of a compliant train from the rigid one: vehicle
 * i is behind its rigid place by E_i = Σ_{c<i} T_c/k (the elongations
 * ahead of it; T the hand tensions F (mass behind)/M), less the common
 * shift C = Σ m_i E_i / M that keeps both centres of mass together (the
 * couplers' forces are internal, and R ∝ m).  *offset: the largest
 * |s_i − s_i^rigid| that predicts, *rest: the largest |s_i − s_i^rigid −
 * (C − E_i)| measured. */
static void offset_from_rigid(int n, const rs_wagon *veh, double k, const double *s, const double *s_rigid,
                              double *rest, double *offset)
{
    double M = 0.0, E[NMAX], C = 0.0;
    for (int i = 0; i < n; i++)
        M += mass_of(&veh[i]);
    double behind = M, sum = 0.0;
    for (int i = 0; i < n; i++) {
        E[i] = sum;
        C += mass_of(&veh[i]) * sum / M;
        behind -= mass_of(&veh[i]);
        sum += traction * behind / M / k;
    }
    *rest = *offset = 0.0;
    for (int i = 0; i < n; i++) {
        *rest = fmax(*rest, fabs(s[i] - s_rigid[i] - (C - E[i])));
        *offset = fmax(*offset, fabs(C - E[i]));
    }
}

START_TEST(test_compliant_to_rigid)
{
    const int n = 5;
    const double t_end = 2.0;
    rs_wagon veh[NMAX];
    rs_coupler cpl[NMAX];
    rs_ltrain *rigid = run(n, RS_LTRAIN_DIRECT, 1, 1e9, 0.005, t_end, veh, cpl);
    const double *sr = rs_ltrain_coords(rigid);
    double raw[3];
    const double ks[] = {1e8, 1e9, 1e10};
    for (int j = 0; j < 3; j++) {
        rs_ltrain *st = run(n, RS_LTRAIN_RESOLVED, 1, ks[j], 0.005, t_end, veh, cpl);
        double rest, elong;
        offset_from_rigid(n, veh, ks[j], rs_ltrain_coords(st), sr, &rest, &elong);
        raw[j] = 0.0;
        for (int i = 0; i < n; i++)
            raw[j] = fmax(raw[j], fabs(rs_ltrain_coords(st)[i] - sr[i]));
        fprintf(stderr, "compliant: k %.0e: |s - s_rigid| %.3g m, predicted from T/k %.3g m, left after taking it "
                "off %.3g m\n", ks[j], raw[j], elong, rest);
        /* the offset is the elongations' (within 2 %, the ringing's rest) */
        ck_assert_msg(fabs(raw[j] / elong - 1.0) <= 0.02 && rest <= 0.02 * elong, "k %g: %g vs %g (rest %g)", ks[j],
                      raw[j], elong, rest);
        rs_ltrain_free(&st);
    }
    ck_assert_msg(raw[0] / raw[1] > 9.0 && raw[0] / raw[1] < 11.0 && raw[1] / raw[2] > 9.0 && raw[1] / raw[2] < 11.0,
                  "1/k: %g %g", raw[0] / raw[1], raw[1] / raw[2]);
    rs_ltrain_free(&rigid);
}
END_TEST

/* Largest |s_i − s'_i| of two trains. */
static double max_diff(const rs_ltrain *a, const rs_ltrain *b, int n)
{
    double e = 0.0;
    for (int i = 0; i < n; i++)
        e = fmax(e, fabs(rs_ltrain_coords(a)[i] - rs_ltrain_coords(b)[i]));
    return e;
}

START_TEST(test_hmm_against_rigid)
{
    /* Constant acceleration (R ∝ m, r1 = 0): the slow motion is a parabola
     * the macro step follows exactly, so what separates the HMM from the
     * rigid train is the couplers' elongation T/k alone. */
    const int n = 5;
    const double ks[] = {1e11, 1e12}, H = 0.1, t_end = 2.0;
    double raw[2];
    for (int j = 0; j < 2; j++) {
        rs_wagon veh[NMAX];
        rs_coupler cpl[NMAX];
        rs_ltrain *rigid = run(n, RS_LTRAIN_DIRECT, 1, ks[j], 0.005, t_end, veh, cpl);
        rs_ltrain *h = run(n, RS_LTRAIN_HMM, 1, ks[j], H, t_end, veh, cpl);
        double rest, offset;
        offset_from_rigid(n, veh, ks[j], rs_ltrain_coords(h), rs_ltrain_coords(rigid), &rest, &offset);
        raw[j] = max_diff(h, rigid, n);
        fprintf(stderr, "hmm: k %.0e, H %.3g s, eta %.3g s, delta %.3g s: |s - s_rigid| %.4g m, predicted from T/k "
                "%.4g m, left after taking it off %.3g m\n", ks[j], H, rs_ltrain_micro_interval(h),
                rs_ltrain_micro_step(h), raw[j], offset, rest);
        ck_assert_msg(fabs(raw[j] / offset - 1.0) <= 0.01 && rest <= 0.01 * offset, "k %g: %g vs %g (rest %g)",
                      ks[j], raw[j], offset, rest);
        rs_ltrain_free(&h);
        rs_ltrain_free(&rigid);
    }
    ck_assert_msg(fabs(raw[0] / raw[1] / 10.0 - 1.0) <= 0.02, "1/k: ratio %g", raw[0] / raw[1]);
}
END_TEST

START_TEST(test_hmm_convergence)
{
    /* A strong linear resistance (0.05 N/N per m/s: v relaxes over 2 s)
     * curves the slow motion.  The HMM's error is then that of the lag
     * corrections, of order σ² ∝ η² (as the chain's, docs/massive.md),
     * and the rule shortens η with H: the error falls as η(H)². */
    const int n = 5;
    const double k = 1e12, t_end = 2.0;
    r1_of_make = 0.05;
    rs_wagon veh[NMAX];
    rs_coupler cpl[NMAX];
    rs_ltrain *res = run(n, RS_LTRAIN_RESOLVED, 1, k, 0.1, t_end, veh, cpl);
    const double Hs[] = {0.1, 0.05, 0.025};
    double err[3], eta[3];
    for (int j = 0; j < 3; j++) {
        rs_ltrain *h = run(n, RS_LTRAIN_HMM, 1, k, Hs[j], t_end, veh, cpl);
        err[j] = max_diff(h, res, n);
        eta[j] = rs_ltrain_micro_interval(h);
        fprintf(stderr, "hmm: k %.0e, r1 0.05, H %.3g s, eta %.3g s: |s - s_resolved| %.3g m\n", k, Hs[j], eta[j],
                err[j]);
        rs_ltrain_free(&h);
    }
    for (int j = 0; j < 2; j++) {
        const double pred = eta[j] * eta[j] / (eta[j + 1] * eta[j + 1]), meas = err[j] / err[j + 1];
        fprintf(stderr, "hmm: H %.3g -> %.3g: error / %.3f, (eta ratio)^2 %.3f\n", Hs[j], Hs[j + 1], meas, pred);
        ck_assert_msg(meas > 1.3 && fabs(meas / pred - 1.0) <= 0.2, "measured %g, predicted %g", meas, pred);
    }
    /* the same H with half the rule's η: a quarter of the error */
    rs_ltrain_config cfg;
    rs_ltrain_config_default(&cfg);
    cfg.n = n;
    cfg.veh = veh;
    cfg.cpl = cpl;
    cfg.grade = grade;
    cfg.method = RS_LTRAIN_HMM;
    cfg.macro_step = 0.1;
    cfg.micro_interval = 0.5 * eta[0];
    rs_ltrain *h = NULL;
    char msg[512] = "";
    ck_assert_msg(rs_ltrain_create(&h, &cfg, msg, sizeof msg) == RS_OK, "%s", msg);
    rs_ltrain_start(h, 0.0, 0.0, 5.0);
    for (int s = 0; s < 20; s++)
        ck_assert_msg(rs_ltrain_step(h, 0.1, msg, sizeof msg) == RS_OK, "%s", msg);
    const double half = max_diff(h, res, n);
    fprintf(stderr, "hmm: H 0.1 s, eta %.3g s (half the rule's): %.3g m, / %.2f\n", 0.5 * eta[0], half,
            err[0] / half);
    ck_assert_msg(err[0] / half > 3.0 && err[0] / half < 5.0, "half eta: %g -> %g", err[0], half);
    r1_of_make = 0.0;
    rs_ltrain_free(&h);
    rs_ltrain_free(&res);
}
END_TEST

START_TEST(test_refusals)
{
    rs_wagon veh[NMAX];
    rs_coupler cpl[NMAX];
    vehicles(5, veh, cpl, 1e12, 0.2);
    rs_ltrain_config cfg;
    rs_ltrain_config_default(&cfg);
    cfg.n = 5;
    cfg.veh = veh;
    cfg.cpl = cpl;
    cfg.method = RS_LTRAIN_HMM;
    cfg.macro_step = 0.01;   /* the rule's η is about 0.02 s */
    rs_ltrain *lt = NULL;
    char err[512] = "";
    ck_assert_int_eq(rs_ltrain_create(&lt, &cfg, err, sizeof err), RS_E_ARG);
    ck_assert_msg(strstr(err, "micro-interval") && strstr(err, "macro step"), "%s", err);
    cfg.macro_step = 0.05;
    cpl[2].slack = 0.02;
    ck_assert_int_eq(rs_ltrain_create(&lt, &cfg, err, sizeof err), RS_E_ARG);
    ck_assert_msg(strstr(err, "coupler 'c3'") && strstr(err, "slack"), "%s", err);
    cpl[2].slack = 0.0;
    cfg.omega = 2.0;   /* only the rigid methods read ω */
    ck_assert_int_eq(rs_ltrain_create(&lt, &cfg, err, sizeof err), RS_OK);
    ck_assert_int_eq(rs_ltrain_step(lt, 0.001, err, sizeof err), RS_E_ARG);
    ck_assert_msg(strstr(err, "shorter than the micro-interval"), "%s", err);
    rs_ltrain_free(&lt);
    cfg.method = RS_LTRAIN_ARTIFICIAL;
    ck_assert_int_eq(rs_ltrain_create(&lt, &cfg, err, sizeof err), RS_E_ARG);
    ck_assert_msg(strstr(err, "omega"), "%s", err);
    /* one vehicle: no coupler; stiff refused, rigid runs alone */
    cfg.omega = 1.8;
    cfg.n = 1;
    cfg.method = RS_LTRAIN_HMM;
    ck_assert_int_eq(rs_ltrain_create(&lt, &cfg, err, sizeof err), RS_E_ARG);
    ck_assert_msg(strstr(err, "at least 2 vehicles"), "%s", err);
    cfg.method = RS_LTRAIN_ARTIFICIAL;
    cfg.threads = 2;
    cfg.grade = grade;
    ck_assert_msg(rs_ltrain_create(&lt, &cfg, err, sizeof err) == RS_OK, "%s", err);
    for (int k = 0; k < 100; k++)
        ck_assert_msg(rs_ltrain_step(lt, 0.01, err, sizeof err) == RS_OK, "%s", err);
    double v, x;
    rigid_speed(&veh[0], mass_of(&veh[0]), 1.0, 0.0, &v, &x);
    double vl;
    rs_ltrain_eval(lt, &vl, NULL, NULL);
    fprintf(stderr, "one vehicle: %.9g m/s after 1 s, by hand %.9g\n", vl, v);
    ck_assert_msg(fabs(vl - v) <= 1e-7 * v, "one vehicle: %g, expected %g", vl, v);
    rs_ltrain_free(&lt);
}
END_TEST

START_TEST(test_threads_bit_identical)
{
    const int n = 13;
    const rs_ltrain_method me[] = {RS_LTRAIN_ARTIFICIAL, RS_LTRAIN_DIRECT, RS_LTRAIN_HMM, RS_LTRAIN_RESOLVED};
    for (int j = 0; j < 4; j++) {
        double s1[NMAX], v1[NMAX];
        rs_ltrain_stats st1 = {0};
        for (int T = 1; T <= 4; T *= 2) {
            rs_wagon veh[NMAX];
            rs_coupler cpl[NMAX];
            const int rigid = me[j] == RS_LTRAIN_ARTIFICIAL || me[j] == RS_LTRAIN_DIRECT;
            direct_first_of_make = 0;   /* the cold start: thousands of iterations across the threads */
            rs_ltrain *lt = run(n, me[j], T, 1e12, rigid ? 0.01 : 0.1, 0.5, veh, cpl);
            direct_first_of_make = 1;
            double s[NMAX], v[NMAX];
            memcpy(s, rs_ltrain_coords(lt), sizeof(double) * n);
            rs_ltrain_eval(lt, v, NULL, NULL);
            const rs_ltrain_stats st = rs_ltrain_get_stats(lt);
            if (T == 1) {
                memcpy(s1, s, sizeof s1);
                memcpy(v1, v, sizeof v1);
                st1 = st;
            } else {
                ck_assert_msg(memcmp(s, s1, sizeof(double) * n) == 0 && memcmp(v, v1, sizeof(double) * n) == 0,
                              "method %d: %d threads differ from 1", j, T);
                ck_assert_msg(st.iters == st1.iters && st.micro_steps == st1.micro_steps, "method %d: stats", j);
            }
            rs_ltrain_free(&lt);
        }
        fprintf(stderr, "threads: method %d: 1, 2, 4 threads bit-identical (%ld iterations, %ld micro steps)\n", j,
                st1.iters, st1.micro_steps);
    }
}
END_TEST

/* ------------------------------------------------------------ train files */

static const char *nat_train = "# a locomotive and 8 wagons in natural coordinates\n"
                               "formulation natural\n"
                               "duration 3\n"
                               "step 0.005\n"
                               "output 0.5\n"
                               "vehicle loco\n"
                               "  traction 300e3\n"
                               "end\n"
                               "coupler stiff\n"
                               "  k = 1e12\n"
                               "  c = 8e7\n"
                               "end\n"
                               "couplers stiff\n"
                               "order\n"
                               "  loco\n"
                               "  wagon 8\n"
                               "end\n";

/* Runs DIR/nat.train with `extra`; the CSV's last row into last (ncol
 * values, time first).  The status; err holds the message. */
static int run_file(const char *dir, const char *extra, double *last, int ncol, char *err, size_t errlen)
{
    char train[300], out[300];
    snprintf(train, sizeof train, "%s/nat.train", dir);
    snprintf(out, sizeof out, "%s/nat.csv", dir);
    rs_train_run_cfg cfg = {0};
    cfg.train_file = train;
    cfg.out = out;
    cfg.threads = 2;
    cfg.extra = extra;
    rs_train_run_report rep;
    const int st = rs_train_run(&cfg, &rep, err, errlen);
    if (st != RS_OK)
        return st;
    char *text = rs_test_slurp(out);
    ck_assert_ptr_nonnull(text);
    char *line = text + strlen(text) - 1;
    while (line > text && line[-1] != '\n')
        line--;
    char *p = line;
    for (int j = 0; j < ncol; j++) {
        last[j] = strtod(p, &p);
        ck_assert_msg(j == ncol - 1 || *p == ',', "column %d of the last row: '%.40s'", j, p);
        p++;
    }
    free(text);
    unlink(out);
    return RS_OK;
}

START_TEST(test_train_file)
{
    char dir[] = "/tmp/rs_ltrain_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    rs_test_write(dir, "nat.train", nat_train);
    /* columns: time, x and v of 9 vehicles, force and elongation of 8 couplers */
    enum { NV = 9, NCOL = 1 + 4 * NV - 2 };
    double row[4][NCOL];
    char err[1024];
    const char *extra[4] = {"set solver = artificial\n", "set solver = direct\n",
                            "set solver = hmm\nset step = 0.1\nset output = 1\nset speed = 5\n", "set solver = cg\n"};
    for (int k = 0; k < 4; k++)
        ck_assert_msg(run_file(dir, extra[k], row[k], NCOL, err, sizeof err) == RS_OK, "%s: %s", extra[k], err);
    rs_wagon loco, wagon;
    rs_loco_default(&loco);
    rs_wagon_default(&wagon);
    const double ml = mass_of(&loco), mw = mass_of(&wagon), M = ml + 8 * mw;
    double ex = 0.0, eF = 0.0, eH = 0.0, eg = 0.0;
    for (int j = 1; j < 1 + 2 * NV; j++) {
        ex = fmax(ex, fabs(row[0][j] - row[1][j]) / fmax(fabs(row[1][j]), 1.0));
        eg = fmax(eg, fabs(row[3][j] - row[1][j]) / fmax(fabs(row[1][j]), 1.0));
    }
    for (int c = 0; c < NV - 1; c++) {   /* T_c = F (mass behind) / M, the rigid train's by hand */
        const double T = 3e5 * (NV - 1 - c) * mw / M;
        eF = fmax(eF, fmax(fabs(row[0][1 + 2 * NV + 2 * c] - T), fabs(row[1][1 + 2 * NV + 2 * c] - T)) / 3e5);
        eH = fmax(eH, fabs(row[2][1 + 2 * NV + 2 * c] - T) / 3e5);
    }
    fprintf(stderr, "train file: cg vs direct %.2g (relative, x and v)\n", eg);
    ck_assert_msg(eg <= 1e-8, "cg vs direct %g", eg);
    fprintf(stderr, "train file: artificial vs direct %.2g (relative, x and v); tensions against F (mass behind)/M: "
            "%.2g (rigid), %.2g (hmm, k 1e12: the macro step's position error times k)\n", ex, eF, eH);
    ck_assert_msg(ex <= 1e-8 && eF <= 1e-8 && eH <= 1e-3, "%g %g %g", ex, eF, eH);
    /* refusals, each naming the line and the fix */
    static const struct {
        const char *extra, *want;
    } bad[] = {
        {"set formulation = park\nset solver = hmm\n", "is a method of the natural formulation"},
        {"set solver = gmres\n", "has no Krylov solver"},
        {"restart 4\n", "is a setting of the Park step"},
        {"set formulation = nat\n", "write 'formulation park'"},
        {"set solver = hmm\nset step = 0.01\n", "'step' is the macro step"},
        {"set solver = hmm\nset step = 0.1\nset stiff.slack = 0.01\n", "without free play"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        double dummy[NCOL];
        err[0] = '\0';
        ck_assert_msg(run_file(dir, bad[k].extra, dummy, NCOL, err, sizeof err) == RS_E_ARG, "%s: %s", bad[k].extra,
                      err);
        ck_assert_msg(strstr(err, bad[k].want) && strstr(err, "nat.train"), "%s: %s", bad[k].extra, err);
    }
    char path[300];
    snprintf(path, sizeof path, "%s/nat.train", dir);
    unlink(path);
    rmdir(dir);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("ltrain");
    TCase *tc = tcase_create("ltrain");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_system);
    tcase_add_test(tc, test_converges_to_direct);
    tcase_add_test(tc, test_cg_against_direct);
    tcase_add_test(tc, test_cg_trajectories);
    tcase_add_test(tc, test_rate_matches_eigenvalues);
    tcase_add_test(tc, test_pull_from_rest);
    tcase_add_test(tc, test_baumgarte_decay);
    tcase_add_test(tc, test_resolved_against_own_rk4);
    tcase_add_test(tc, test_compliant_to_rigid);
    tcase_add_test(tc, test_hmm_against_rigid);
    tcase_add_test(tc, test_hmm_convergence);
    tcase_add_test(tc, test_refusals);
    tcase_add_test(tc, test_threads_bit_identical);
    tcase_add_test(tc, test_train_file);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
