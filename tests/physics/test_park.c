/*
 * test_park.c — the Park integrator (rs_park) against the analytic modal
 * solution of a linear, Rayleigh-damped, harmonically forced
 * mass-spring-damper chain.
 *
 * Six masses on a line, grounded at both ends; grouped into three blocks
 * of two masses (the spring inside a block belongs to the block, the
 * springs between blocks are links, so the solution crosses the
 * block-sparse Krylov solver).  C = α M + γ K, so the undamped modes
 * decouple the damped system.  This file computes the modes itself (cyclic
 * Jacobi on M^-1/2 K M^-1/2) and writes each modal coordinate in closed
 * form: free damped oscillation plus the steady response to F0 cos(Ωt) on
 * the first mass.  Checks: the error at T falls at second order as h halves
 * (the fitted order is printed), PCG and BiCGStab agree, 1, 2, 3 threads
 * give bit-identical trajectories, and errors are reported with the
 * vehicle's name.  With a skew (non-symmetric, creep-like) velocity
 * coupling added to the links, LU blocks + BiCGStab converge at second
 * order to an RK4 reference computed here with a dense solve.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_park.h"
#include "rs_test.h"

#define NM 6   /* masses */
#define NB 3   /* blocks of two */

static const double mass[NM] = {2.0, 1.0, 3.0, 1.5, 1.0, 2.5};
static const double kspr[NM + 1] = {40, 60, 30, 80, 50, 45, 70};   /* ground-m0, m0-m1, ..., m5-ground */
static const double alpha_r = 0.1, gamma_r = 0.004;                /* C = αM + γK */
static const double F0 = 3.0, Omega = 4.0;                         /* force on mass 0 */

typedef struct chain {
    int fail_block;   /* block whose function fails (-1: none) */
    double fail_after;
    double eta;       /* skew velocity coupling of the links [N s/m] (0: symmetric) */
} chain;

/* K of the whole chain (dense, NM × NM). */
static void chain_K(double K[NM][NM])
{
    memset(K, 0, sizeof(double) * NM * NM);
    for (int s = 0; s <= NM; s++) {   /* spring s joins mass s-1 and mass s */
        const int i = s - 1, j = s;
        if (i >= 0)
            K[i][i] += kspr[s];
        if (j < NM)
            K[j][j] += kspr[s];
        if (i >= 0 && j < NM) {
            K[i][j] -= kspr[s];
            K[j][i] -= kspr[s];
        }
    }
}

/* Block b holds masses 2b, 2b+1, the spring between them, and the ground
 * springs of the chain's ends. */
static int block_fn(void *ctx, int b, double t, const double *q, const double *qd, double *M, double *F, double *K,
                    double *C)
{
    chain *ch = ctx;
    if (b == ch->fail_block && t > ch->fail_after)
        return 7;
    const int m0 = 2 * b;
    double k[2][2] = {{kspr[m0 + 1], -kspr[m0 + 1]}, {-kspr[m0 + 1], kspr[m0 + 1]}};
    if (b == 0)
        k[0][0] += kspr[0];
    if (b == NB - 1)
        k[1][1] += kspr[NM];
    for (int i = 0; i < 2; i++) {
        M[i + 2 * i] = mass[m0 + i];
        for (int j = 0; j < 2; j++) {
            K[i + 2 * j] = k[i][j];
            C[i + 2 * j] = gamma_r * k[i][j] + (i == j ? alpha_r * mass[m0 + i] : 0.0);
            F[i] -= K[i + 2 * j] * q[j] + C[i + 2 * j] * qd[j];
        }
    }
    if (b == 0)
        F[0] += F0 * cos(Omega * t);
    return 0;
}

/* Link l joins mass 2l+1 (port 1 of block l) and mass 2l+2 (port 0 of block
 * l+1) through spring 2l+2 and its damper γk. */
static int link_fn(void *ctx, int l, double t, const double *q, const double *qd, double *F, double *K, double *C)
{
    const chain *ch = ctx;
    (void)t;
    const double k = kspr[2 * l + 2], c = gamma_r * k, eta = ch->eta;
    const double f = k * (q[0] - q[1]) + c * (qd[0] - qd[1]);
    F[0] = -f - eta * qd[1];
    F[1] = f + eta * qd[0];
    K[0] = K[3] = k;
    K[1] = K[2] = -k;
    C[0] = C[3] = c;
    C[1] = C[2] = -c;
    C[0 + 2 * 1] += eta;   /* −∂F0/∂q̇1 */
    C[1 + 2 * 0] -= eta;   /* −∂F1/∂q̇0 */
    return 0;
}

static const int port1[1] = {1}, port0[1] = {0};
static const rs_park_block blocks[NB] = {{"car0", 2}, {"car1", 2}, {"car2", 2}};
static const rs_park_link links[NB - 1] = {{"c01", 0, 1, 1, 1, port1, port0}, {"c12", 1, 2, 1, 1, port1, port0}};

static const double q0[NM] = {0.10, -0.05, 0.02, 0.08, -0.04, 0.03};
static const double v0[NM] = {0.0, 0.3, -0.2, 0.1, 0.0, -0.15};

/* ------------------------------------------------------------ the analytic answer */

/* Cyclic Jacobi: A (symmetric, destroyed) = V diag(w) Vᵀ. */
static void jacobi_eig(double A[NM][NM], double V[NM][NM], double w[NM])
{
    for (int i = 0; i < NM; i++)
        for (int j = 0; j < NM; j++)
            V[i][j] = i == j;
    for (int sweep = 0; sweep < 100; sweep++) {
        double off = 0;
        for (int p = 0; p < NM; p++)
            for (int q = p + 1; q < NM; q++)
                off += A[p][q] * A[p][q];
        if (off < 1e-30)
            break;
        for (int p = 0; p < NM; p++)
            for (int q = p + 1; q < NM; q++) {
                if (fabs(A[p][q]) < 1e-300)
                    continue;
                const double theta = (A[q][q] - A[p][p]) / (2 * A[p][q]);
                const double t = (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
                const double c = 1 / sqrt(t * t + 1), s = t * c;
                for (int k = 0; k < NM; k++) {   /* A ← Jᵀ A J */
                    const double akp = A[k][p], akq = A[k][q];
                    A[k][p] = c * akp - s * akq;
                    A[k][q] = s * akp + c * akq;
                }
                for (int k = 0; k < NM; k++) {
                    const double apk = A[p][k], aqk = A[q][k];
                    A[p][k] = c * apk - s * aqk;
                    A[q][k] = s * apk + c * aqk;
                }
                for (int k = 0; k < NM; k++) {
                    const double vkp = V[k][p], vkq = V[k][q];
                    V[k][p] = c * vkp - s * vkq;
                    V[k][q] = s * vkp + c * vkq;
                }
            }
    }
    for (int i = 0; i < NM; i++)
        w[i] = A[i][i];
}

/* q(t) of the chain, mode by mode. */
static void exact(double t, double q[NM])
{
    double K[NM][NM], S[NM][NM], V[NM][NM], w[NM];
    chain_K(K);
    for (int i = 0; i < NM; i++)
        for (int j = 0; j < NM; j++)
            S[i][j] = K[i][j] / sqrt(mass[i] * mass[j]);
    jacobi_eig(S, V, w);
    double y[NM] = {0};
    for (int k = 0; k < NM; k++) {
        const double om = sqrt(w[k]);
        const double zeta = (alpha_r + gamma_r * w[k]) / (2 * om);
        const double wd = om * sqrt(1 - zeta * zeta);
        double e0 = 0, ed0 = 0;
        for (int i = 0; i < NM; i++) {
            e0 += V[i][k] * sqrt(mass[i]) * q0[i];
            ed0 += V[i][k] * sqrt(mass[i]) * v0[i];
        }
        /* forcing p(t) = P cos Ωt, P = V[0][k] F0 / sqrt(m0); steady response
         * A cos Ωt + B sin Ωt */
        const double P = V[0][k] * F0 / sqrt(mass[0]);
        const double re = w[k] - Omega * Omega, im = 2 * zeta * om * Omega, den = re * re + im * im;
        const double Ac = P * re / den, Bs = P * im / den;
        const double h0 = e0 - Ac, hd0 = ed0 - Bs * Omega;   /* homogeneous part's start */
        const double eta = exp(-zeta * om * t) * (h0 * cos(wd * t) + (hd0 + zeta * om * h0) / wd * sin(wd * t)) +
                           Ac * cos(Omega * t) + Bs * sin(Omega * t);
        for (int i = 0; i < NM; i++)
            y[i] += V[i][k] * eta;
    }
    for (int i = 0; i < NM; i++)
        q[i] = y[i] / sqrt(mass[i]);
}

/* ------------------------------------------------------------ runs */

typedef struct run_result {
    int status;
    double qT[NM];
    double *traj;   /* steps × NM, when asked */
    long iters;
    int iters_max;
} run_result;

static run_result run_eta(double h, double T, int threads, rs_krylov_method method, int symmetric, int keep,
                          double eta)
{
    chain ch = {-1, 0, eta};
    rs_park_sys sys = {NB, NB - 1, blocks, links, block_fn, link_fn, &ch, symmetric};
    rs_park_opts o;
    rs_park_opts_default(&o);
    o.h = h;
    o.threads = threads;
    o.probe = 0;   /* the team on every step (no serial probe): its bits are what is compared */
    o.krylov.method = method;
    o.krylov.tol = 1e-13;
    o.rebalance = 16;   /* re-plan often: results must not change */
    rs_park *pk;
    char err[256];
    ck_assert_msg(rs_park_create(&pk, &sys, &o, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(rs_park_n(pk), NM);
    memcpy(rs_park_q(pk), q0, sizeof q0);
    memcpy(rs_park_qd(pk), v0, sizeof v0);
    rs_park_set_t(pk, 0.0);
    run_result r = {0};
    r.status = rs_park_init(pk);
    ck_assert_msg(r.status == RS_OK, "%s", rs_park_error(pk));
    const long n = lround(T / h);
    if (keep)
        r.traj = malloc((size_t)n * NM * sizeof(double));
    for (long s = 0; s < n && r.status == RS_OK; s++) {
        r.status = rs_park_step(pk);
        if (keep)
            memcpy(r.traj + s * NM, rs_park_q(pk), NM * sizeof(double));
    }
    ck_assert_msg(r.status == RS_OK, "%s", rs_park_error(pk));
    ck_assert_double_eq_tol(rs_park_t(pk), T, 1e-12);
    memcpy(r.qT, rs_park_q(pk), sizeof r.qT);
    r.iters = rs_park_get_stats(pk)->krylov_iters;
    r.iters_max = rs_park_get_stats(pk)->krylov_max;
    rs_park_free(&pk);
    return r;
}

static run_result run(double h, double T, int threads, rs_krylov_method method, int symmetric, int keep)
{
    return run_eta(h, T, threads, method, symmetric, keep, 0.0);
}

/* The total force of the chain from the block and link functions, for an
 * independent integrator. */
static void total_force(chain *ch, double t, const double *q, const double *qd, double *F)
{
    memset(F, 0, NM * sizeof(double));
    for (int b = 0; b < NB; b++) {
        double M[4] = {0}, Fb[2] = {0}, K[4] = {0}, C[4] = {0};
        block_fn(ch, b, t, q + 2 * b, qd + 2 * b, M, Fb, K, C);
        F[2 * b] += Fb[0];
        F[2 * b + 1] += Fb[1];
    }
    for (int l = 0; l < NB - 1; l++) {
        const double ql[2] = {q[2 * l + 1], q[2 * l + 2]}, vl[2] = {qd[2 * l + 1], qd[2 * l + 2]};
        double Fl[2], K[4], C[4];
        link_fn(ch, l, t, ql, vl, Fl, K, C);
        F[2 * l + 1] += Fl[0];
        F[2 * l + 2] += Fl[1];
    }
}

/* Classical RK4 on (q, q̇) with M diagonal. */
static void rk4_reference(double eta, double T, double h, double *qT)
{
    chain ch = {-1, 0, eta};
    double q[NM], v[NM];
    memcpy(q, q0, sizeof q);
    memcpy(v, v0, sizeof v);
    const long n = lround(T / h);
    for (long s = 0; s < n; s++) {
        const double t = s * h;
        double kq[4][NM], kv[4][NM], qs[NM], vs[NM], F[NM];
        for (int st = 0; st < 4; st++) {
            const double c = st == 0 ? 0.0 : st == 3 ? 1.0 : 0.5;
            for (int i = 0; i < NM; i++) {
                qs[i] = q[i] + (st ? c * h * kq[st - 1][i] : 0.0);
                vs[i] = v[i] + (st ? c * h * kv[st - 1][i] : 0.0);
            }
            total_force(&ch, t + c * h, qs, vs, F);
            for (int i = 0; i < NM; i++) {
                kq[st][i] = vs[i];
                kv[st][i] = F[i] / mass[i];
            }
        }
        for (int i = 0; i < NM; i++) {
            q[i] += h / 6 * (kq[0][i] + 2 * kq[1][i] + 2 * kq[2][i] + kq[3][i]);
            v[i] += h / 6 * (kv[0][i] + 2 * kv[1][i] + 2 * kv[2][i] + kv[3][i]);
        }
    }
    memcpy(qT, q, NM * sizeof(double));
}

static double err_at(const double *q, double T)
{
    double qe[NM], e = 0;
    exact(T, qe);
    for (int i = 0; i < NM; i++)
        e = fmax(e, fabs(q[i] - qe[i]));
    return e;
}

START_TEST(test_exact_solution_self_check)
{
    /* the analytic answer satisfies its own initial conditions and the ODE
     * (central differences), so it can judge the integrator */
    double qa[NM], qb[NM], qc[NM], K[NM][NM];
    exact(0.0, qa);
    for (int i = 0; i < NM; i++)
        ck_assert_double_eq_tol(qa[i], q0[i], 1e-12);
    const double d = 1e-4, t = 0.7;
    exact(t - d, qa);
    exact(t, qb);
    exact(t + d, qc);
    chain_K(K);
    for (int i = 0; i < NM; i++) {
        const double acc = (qa[i] - 2 * qb[i] + qc[i]) / (d * d), vel = (qc[i] - qa[i]) / (2 * d);
        double f = i == 0 ? F0 * cos(Omega * t) : 0.0, vi[NM];
        for (int j = 0; j < NM; j++)
            vi[j] = (qc[j] - qa[j]) / (2 * d);
        for (int j = 0; j < NM; j++)
            f -= K[i][j] * qb[j] + gamma_r * K[i][j] * vi[j];
        f -= alpha_r * mass[i] * vel;
        ck_assert_msg(fabs(mass[i] * acc - f) < 1e-5, "ODE residual %g at mass %d", mass[i] * acc - f, i);
    }
}
END_TEST

START_TEST(test_order)
{
    const double T = 2.0;
    double e[4], h = 4e-3;
    for (int k = 0; k < 4; k++, h /= 2) {
        run_result r = run(h, T, 1, RS_KRYLOV_AUTO, 1, 0);
        e[k] = err_at(r.qT, T);
        printf("park: h = %-8g max |q(T) - q_exact(T)| = %.4e   PCG iterations/step %.2f (max %d)\n", h, e[k],
               (double)r.iters / lround(T / h), r.iters_max);
    }
    for (int k = 1; k < 4; k++) {
        const double p = log2(e[k - 1] / e[k]);
        printf("park: observed order (h = %g -> %g): %.3f\n", 4e-3 / (1 << (k - 1)), 4e-3 / (1 << k), p);
        ck_assert_msg(p > 1.9 && p < 2.1, "observed order %g", p);
    }
    ck_assert_msg(e[3] < 2e-4, "error %g at h = 5e-4", e[3]);
}
END_TEST

START_TEST(test_bicgstab_agrees)
{
    run_result a = run(1e-3, 1.0, 1, RS_KRYLOV_CG, 1, 0);
    run_result b = run(1e-3, 1.0, 1, RS_KRYLOV_AUTO, 0, 0);   /* LU blocks + BiCGStab */
    for (int i = 0; i < NM; i++)
        ck_assert_double_eq_tol(a.qT[i], b.qT[i], 1e-11);
}
END_TEST

START_TEST(test_nonsymmetric_order)
{
    /* a skew velocity coupling: C is not symmetric, so LU blocks and
     * BiCGStab; the reference is RK4 at h = 1e-5 (its error ~1e-14) */
    const double T = 1.0, eta = 3.0;
    double qr[NM], e[3], h = 4e-3;
    rk4_reference(eta, T, 1e-5, qr);
    double qr0[NM];
    rk4_reference(0.0, T, 1e-5, qr0);
    ck_assert(fabs(qr[0] - qr0[0]) > 1e-4);   /* the skew term matters */
    for (int k = 0; k < 3; k++, h /= 2) {
        run_result r = run_eta(h, T, 2, RS_KRYLOV_AUTO, 0, 0, eta);
        e[k] = 0;
        for (int i = 0; i < NM; i++)
            e[k] = fmax(e[k], fabs(r.qT[i] - qr[i]));
        printf("park (non-symmetric, BiCGStab): h = %-8g error %.4e, iterations/step %.2f\n", h, e[k],
               (double)r.iters / lround(T / h));
    }
    for (int k = 1; k < 3; k++) {
        const double p = log2(e[k - 1] / e[k]);
        printf("park (non-symmetric): observed order %.3f\n", p);
        ck_assert_msg(p > 1.9 && p < 2.1, "observed order %g", p);
    }
}
END_TEST

START_TEST(test_gmres_agrees)
{
    /* the skew (non-symmetric) chain: restarted GMRES with LU blocks gives
     * BiCGStab's trajectory to the solver tolerance, and the same bits for
     * 1, 2 and 3 threads */
    const double T = 1.0, h = 1e-3, eta = 3.0;
    run_result b = run_eta(h, T, 1, RS_KRYLOV_BICGSTAB, 0, 0, eta);
    run_result g1 = run_eta(h, T, 1, RS_KRYLOV_GMRES, 0, 1, eta);
    double d = 0;
    for (int i = 0; i < NM; i++)
        d = fmax(d, fabs(g1.qT[i] - b.qT[i]));
    printf("park (non-symmetric): GMRES vs BiCGStab max |dq(T)| %.2e, GMRES iterations/step %.2f (max %d)\n", d,
           (double)g1.iters / lround(T / h), g1.iters_max);
    ck_assert_msg(d < 1e-11, "GMRES vs BiCGStab: %g", d);
    for (int th = 2; th <= 3; th++) {
        run_result g = run_eta(h, T, th, RS_KRYLOV_GMRES, 0, 1, eta);
        ck_assert_msg(memcmp(g.traj, g1.traj, (size_t)lround(T / h) * NM * sizeof(double)) == 0,
                      "GMRES: %d threads differ from one", th);
        ck_assert_int_eq(g.iters, g1.iters);
        free(g.traj);
    }
    free(g1.traj);
}
END_TEST

START_TEST(test_threads_bit_identical)
{
    const double T = 1.0, h = 1e-3;
    run_result r1 = run(h, T, 1, RS_KRYLOV_AUTO, 1, 1);
    for (int th = 2; th <= 3; th++) {
        run_result r = run(h, T, th, RS_KRYLOV_AUTO, 1, 1);
        ck_assert_msg(memcmp(r.traj, r1.traj, (size_t)lround(T / h) * NM * sizeof(double)) == 0,
                      "%d threads differ from one", th);
        free(r.traj);
    }
    free(r1.traj);
}
END_TEST

START_TEST(test_errors)
{
    chain ch = {1, 0.0105, 0.0};
    rs_park_sys sys = {NB, NB - 1, blocks, links, block_fn, link_fn, &ch, 1};
    rs_park_opts o;
    rs_park_opts_default(&o);
    o.h = 1e-3;
    o.threads = 2;
    rs_park *pk;
    char err[256];
    ck_assert_int_eq(rs_park_create(&pk, &sys, &o, err, sizeof err), RS_OK);
    memcpy(rs_park_q(pk), q0, sizeof q0);
    ck_assert_int_eq(rs_park_init(pk), RS_OK);
    int st = RS_OK, s;
    for (s = 0; s < 20 && st == RS_OK; s++)
        st = rs_park_step(pk);
    ck_assert_int_eq(st, RS_E_MODELFN);
    ck_assert_int_eq(s, 11);
    ck_assert_msg(strstr(rs_park_error(pk), "step 11, t = 0.01 s") && strstr(rs_park_error(pk), "'car1'"), "%s",
                  rs_park_error(pk));
    ck_assert_double_eq_tol(rs_park_t(pk), 0.01, 1e-15);   /* state kept */
    rs_park_free(&pk);
    /* bad links */
    rs_park_link bad = {"self", 1, 1, 1, 1, port0, port0};
    sys.links = &bad;
    sys.nl = 1;
    ck_assert_int_eq(rs_park_create(&pk, &sys, &o, err, sizeof err), RS_E_ARG);
    ck_assert_msg(strstr(err, "'self'") != NULL, "%s", err);
    const int far[1] = {5};
    bad = (rs_park_link){"far", 0, 1, 1, 1, far, port0};
    ck_assert_int_eq(rs_park_create(&pk, &sys, &o, err, sizeof err), RS_E_ARG);
    ck_assert_msg(strstr(err, "outside block 0") != NULL, "%s", err);
    o.h = 0;
    sys.links = links;
    sys.nl = NB - 1;
    ck_assert_int_eq(rs_park_create(&pk, &sys, &o, err, sizeof err), RS_E_ARG);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("park");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_exact_solution_self_check);
    tcase_add_test(tc, test_order);
    tcase_add_test(tc, test_bicgstab_agrees);
    tcase_add_test(tc, test_nonsymmetric_order);
    tcase_add_test(tc, test_gmres_agrees);
    tcase_add_test(tc, test_threads_bit_identical);
    tcase_add_test(tc, test_errors);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
