/*
 * test_train_artificial.c — `solver artificial` for trains: seed 002's
 * artificial dynamics x ← x + D⁻¹ (b − A x) on the Park step's block system
 * (runtime/train/rs_artificial.h), each claim against something independent
 * of the code under test:
 *
 *   - the step's solution against LAPACK's dgesv on this file's own dense
 *     expansion of the system (rs_park_last_system), and the relative
 *     residual recomputed here from that expansion <= the tolerance;
 *   - whole trajectories against the same train solved by PCG (built-in
 *     wagons) and by GMRES (the compiled freight wagon of compiled.train);
 *   - the residual contracts per iteration by ρ = max |1 − λ| over the
 *     eigenvalues λ of D⁻¹A (LAPACK dsygv on A v = λ D v, D the block
 *     diagonal), on a stiff train where ρ is near 1; every λ in (0, 2) as
 *     the header's argument says;
 *   - the warm start: fewer iterations from a nearby solution, and 0 taken
 *     when the last solution is worse than 0;
 *   - 1, 2 and 4 threads give bit-identical trajectories and iteration
 *     counts;
 *   - a system whose iteration diverges (a circulatory, non-symmetric
 *     coupling) is refused after a bounded number of iterations with a
 *     message naming the remedy, which then solves it; the train file's
 *     `solver artificial` and a misspelled one (file, line, did you mean).
 */
#define _POSIX_C_SOURCE 200809L   /* getline, mkdtemp */

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rs_artificial.h"
#include "rs_park.h"
#include "rs_status.h"
#include "rs_test.h"
#include "rs_train.h"
#include "rs_train_file.h"

/* LAPACK, Fortran interface (trailing size_t: hidden CHARACTER lengths). */
void dgesv_(const int *n, const int *nrhs, double *a, const int *lda, int *ipiv, double *b, const int *ldb,
            int *info);
void dsygv_(const int *itype, const char *jobz, const char *uplo, const int *n, double *a, const int *lda, double *b,
            const int *ldb, double *w, double *work, const int *lwork, int *info, size_t ljobz, size_t luplo);

/* ------------------------------------------------------------ helpers */

/* The dense n × n column-major expansion of A from rs_krylov.h's documented
 * layout (diagonal blocks, then pieces scattered by their index lists);
 * with diag_only, D alone. */
static double *expand(const rs_block_matrix *A, int diag_only)
{
    const int n = rs_block_matrix_n(A);
    double *d = calloc((size_t)n * (size_t)n, sizeof(double));
    for (int b = 0; b < rs_block_matrix_nblocks(A); b++) {
        const int o = rs_block_matrix_offset(A, b), m = rs_block_matrix_bsize(A, b);
        const double *D = rs_block_matrix_diag_c(A, b);
        for (int j = 0; j < m; j++)
            for (int i = 0; i < m; i++)
                d[(o + i) + (size_t)(o + j) * n] = D[i + j * m];
    }
    if (diag_only)
        return d;
    for (int k = 0; k < rs_block_matrix_npieces(A); k++) {
        const rs_block_matrix_piece_spec *p = rs_block_matrix_piece_spec_of(A, k);
        const double *P = rs_block_matrix_piece((rs_block_matrix *)A, k);
        const int orow = rs_block_matrix_offset(A, p->rb), ocol = rs_block_matrix_offset(A, p->cb);
        for (int j = 0; j < p->nc; j++)
            for (int i = 0; i < p->nr; i++)
                d[(orow + p->ri[i]) + (size_t)(ocol + p->ci[j]) * n] += P[i + j * p->nr];
    }
    return d;
}

static double norm2(const double *v, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += v[i] * v[i];
    return sqrt(s);
}

/* ‖b − A x‖ / ‖b‖ with the dense A. */
static double dense_relres(const double *Ad, const double *b, const double *x, int n)
{
    double rr = 0.0;
    for (int i = 0; i < n; i++) {
        double r = b[i];
        for (int j = 0; j < n; j++)
            r -= Ad[i + (size_t)j * n] * x[j];
        rr += r * r;
    }
    return sqrt(rr) / norm2(b, n);
}

/* x = A⁻¹ b by dgesv on a copy of the dense A. */
static void dense_solve(const double *Ad, const double *b, double *x, int n)
{
    double *a = malloc((size_t)n * (size_t)n * sizeof(double));
    int *ipiv = malloc((size_t)n * sizeof(int));
    memcpy(a, Ad, (size_t)n * (size_t)n * sizeof(double));
    memcpy(x, b, (size_t)n * sizeof(double));
    const int one = 1;
    int info = 0;
    dgesv_(&n, &one, a, &n, ipiv, x, &n, &info);
    ck_assert_int_eq(info, 0);
    free(a);
    free(ipiv);
}

/* A mixed freight train: a loco every 8 vehicles with a traction ramp and
 * a reversal, wagons of five masses, couplers with slack (three widths) and
 * buffers.  Stiffness scaled by kscale (1: realistic). */
static rs_train *mixed_train(int nv, rs_krylov_method method, double tol, int maxiter, int threads, int corrections,
                             double h, double kscale)
{
    rs_wagon *veh = calloc((size_t)nv, sizeof *veh);
    rs_coupler *cpl = calloc((size_t)nv, sizeof *cpl);
    static const double tt[3] = {0.0, 0.3, 1.0}, ff[3] = {0.0, 4e5, -1e5};
    for (int v = 0; v < nv; v++) {
        if (v % 8 == 0) {
            rs_loco_default(&veh[v]);
            veh[v].traction_n = 3;
            veh[v].traction_t = tt;
            veh[v].traction_f = ff;
        } else {
            rs_wagon_default(&veh[v]);
            veh[v].m_body = 25000.0 + 2000.0 * (v % 5);
        }
        veh[v].r1 = 1e-4;
    }
    for (int c = 0; c + 1 < nv; c++) {
        rs_coupler_default(&cpl[c]);
        cpl[c].k *= kscale;
        cpl[c].slack = 0.01 * (c % 3);
        cpl[c].k_buffer = 4e7 * kscale;
        cpl[c].buffer_gap = 0.005;
    }
    rs_park_opts o;
    rs_park_opts_default(&o);
    o.h = h;
    o.threads = threads;
    o.probe = 0;   /* the team on every step: its bits are what is compared */
    o.rebalance = 10;
    o.corrections = corrections;
    o.krylov.method = method;
    o.krylov.tol = tol;
    o.krylov.maxiter = maxiter;
    rs_train *tr = NULL;
    char err[512];
    ck_assert_msg(rs_train_create(&tr, nv, veh, NULL, cpl, NULL, &o, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(rs_train_start(tr, 0.0, 0.0, 1.0), RS_OK);
    free(veh);
    free(cpl);
    return tr;
}

static void step_ok(rs_train *tr)
{
    ck_assert_msg(rs_train_step(tr) == RS_OK, "%s", rs_park_error(rs_train_park(tr)));
}

/* ------------------------------------------------------------ accuracy */

/* Each 100th step's solution against dgesv, the residual recomputed here,
 * and 1 s of the trajectory against PCG on the same train. */
START_TEST(test_matches_direct_and_cg)
{
    enum { NV = 30, STEPS = 1000 };
    const double tol = 1e-12;
    rs_train *ta = mixed_train(NV, RS_KRYLOV_ARTIFICIAL, tol, 200, 1, 1, 1e-3, 1.0);
    rs_train *tc = mixed_train(NV, RS_KRYLOV_CG, tol, 200, 1, 1, 1e-3, 1.0);
    const int n = rs_park_n(rs_train_park(ta));
    double *xd = malloc((size_t)n * sizeof(double));
    double worst_err = 0.0, worst_res = 0.0, dx = 0.0, dv = 0.0, dfc = 0.0, fbig = 0.0;
    for (int s = 1; s <= STEPS; s++) {
        step_ok(ta);
        step_ok(tc);
        if (s % 100 == 0) {
            const rs_block_matrix *A;
            const double *b, *x;
            rs_park_last_system(rs_train_park(ta), &A, &b, &x);
            double *Ad = expand(A, 0);
            dense_solve(Ad, b, xd, n);
            double e = 0.0;
            for (int i = 0; i < n; i++)
                e += (x[i] - xd[i]) * (x[i] - xd[i]);
            e = sqrt(e) / norm2(xd, n);
            const double rr = dense_relres(Ad, b, x, n);
            worst_err = fmax(worst_err, e);
            worst_res = fmax(worst_res, rr);
            free(Ad);
        }
        for (int v = 0; v < NV; v++) {
            dx = fmax(dx, fabs(rs_train_x(ta, v) - rs_train_x(tc, v)));
            dv = fmax(dv, fabs(rs_train_v(ta, v) - rs_train_v(tc, v)));
        }
        for (int c = 0; c + 1 < NV; c++) {
            const double fa = rs_train_coupler(ta, c, NULL);
            dfc = fmax(dfc, fabs(fa - rs_train_coupler(tc, c, NULL)));
            fbig = fmax(fbig, fabs(fa));
        }
    }
    const rs_park_stats *sa = rs_park_get_stats(rs_train_park(ta)), *sc = rs_park_get_stats(rs_train_park(tc));
    printf("train artificial vs dgesv: |x - x_direct|/|x_direct| <= %.2e, relative residual <= %.2e (tol %g)\n",
           worst_err, worst_res, tol);
    printf("train artificial vs PCG, %d vehicles, 1 s: max |dx| %.2e m, |dv| %.2e m/s, |dF| %.2e N of %.3g N; "
           "iterations/step %.2f (PCG %.2f)\n",
           NV, dx, dv, dfc, fbig, (double)sa->krylov_iters / sa->steps, (double)sc->krylov_iters / sc->steps);
    /* the stopping test is the documented one, recomputed independently */
    ck_assert_double_le(worst_res, tol * (1.0 + 1e-6));
    ck_assert_double_le(worst_err, 1e-10);
    /* both solve each step to 1e-12: the trajectories agree to rounding
     * (at 1e-10 they differ by 3e-8 m: a coupler entering its slack a step
     * apart amplifies the solvers' different residuals) */
    ck_assert_double_le(dx, 1e-10);
    ck_assert_double_le(dv, 1e-9);
    ck_assert_double_le(dfc, 1e-9 * fbig);
    ck_assert_double_gt(fbig, 1e4);   /* the couplers do carry force */
    free(xd);
    rs_train_free(&ta);
    rs_train_free(&tc);
}
END_TEST

/* A train of compiled vehicles (generated/freight_wagon: LU blocks, the
 * non-symmetric path) from its train file, artificial against GMRES. */
static double **read_csv(const char *path, int *rows, int *cols)
{
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    char *line = NULL;
    size_t cap = 0;
    double **out = NULL;
    *rows = 0;
    *cols = 0;
    int header = 1;
    while (getline(&line, &cap, f) > 0) {
        if (header) {
            header = 0;
            for (char *c = line; *c; c++)
                *cols += *c == ',';
            (*cols)++;
            continue;
        }
        out = realloc(out, (size_t)(*rows + 1) * sizeof *out);
        out[*rows] = malloc((size_t)*cols * sizeof(double));
        char *p = line;
        for (int j = 0; j < *cols; j++) {
            out[*rows][j] = strtod(p, &p);
            if (*p == ',')
                p++;
        }
        (*rows)++;
    }
    free(line);
    fclose(f);
    return out;
}

START_TEST(test_compiled_train_matches_gmres)
{
    RS_REQUIRE_MODEL("freight_wagon");
    char dir[] = "/tmp/rs_train_art_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char out[2][320];
    const char *solver[2] = {"artificial", "gmres"};
    double kps[2];
    for (int k = 0; k < 2; k++) {
        char extra[256];
        snprintf(extra, sizeof extra, "set solver = %s\nset duration = 3\nset tolerance = 1e-10\nset output = 0.05\n",
                 solver[k]);
        snprintf(out[k], sizeof out[k], "%s/%s.csv", dir, solver[k]);
        rs_train_run_cfg cfg = {0};
        cfg.train_file = "vehicles/trains/compiled.train";
        cfg.out = out[k];
        cfg.threads = 1;
        cfg.extra = extra;
        rs_train_run_report rep;
        char err[1024];
        ck_assert_msg(rs_train_run(&cfg, &rep, err, sizeof err) == RS_OK, "%s: %s", solver[k], err);
        kps[k] = rep.krylov_per_step;
    }
    int ra, ca, rg, cg;
    double **a = read_csv(out[0], &ra, &ca), **g = read_csv(out[1], &rg, &cg);
    ck_assert_int_eq(ra, rg);
    ck_assert_int_eq(ca, cg);
    ck_assert_int_ge(ra, 60);
    /* columns: time, then x, v per vehicle (21), then force, elongation per coupler */
    const int nv = 21, f0 = 1 + 2 * nv;
    ck_assert_int_eq(ca, f0 + 2 * (nv - 1));
    double dx = 0.0, df = 0.0, fm = 0.0;
    for (int r = 0; r < ra; r++) {
        for (int j = 1; j < f0; j++)
            dx = fmax(dx, fabs(a[r][j] - g[r][j]));
        for (int j = f0; j < ca; j += 2) {
            df = fmax(df, fabs(a[r][j] - g[r][j]));
            fm = fmax(fm, fabs(g[r][j]));
        }
    }
    printf("compiled train (21 vehicles, LU blocks), 3 s: artificial vs GMRES max |dx|,|dv| %.2e, |dF| %.2e N of "
           "%.3g N; iterations/step %.2f (GMRES %.2f)\n",
           dx, df, fm, kps[0], kps[1]);
    ck_assert_double_le(dx, 1e-8);
    ck_assert_double_le(df, 1e-6 * fm);
    ck_assert_double_gt(fm, 1e4);
    for (int r = 0; r < ra; r++) {
        free(a[r]);
        free(g[r]);
    }
    free(a);
    free(g);
    unlink(out[0]);
    unlink(out[1]);
    rmdir(dir);
}
END_TEST

/* ------------------------------------------------------------ rate */

/* A standalone solver on the system (A, b) of a train's step: kr factors
 * D, ar iterates (one thread). */
typedef struct standalone {
    rs_krylov *kr;
    rs_artificial *ar;
    int start[2], *list;
    rs_team team;
} standalone;

static void standalone_make(standalone *S, const rs_block_matrix *A, int symmetric)
{
    char err[256];
    ck_assert_int_eq(rs_krylov_create(&S->kr, A, NULL, NULL, err, sizeof err), RS_OK);
    ck_assert_int_eq(rs_artificial_create(&S->ar, A, NULL, err, sizeof err), RS_OK);
    const int nb = rs_block_matrix_nblocks(A);
    S->list = malloc((size_t)nb * sizeof(int));
    for (int b = 0; b < nb; b++) {
        S->list[b] = b;
        ck_assert_int_eq(rs_krylov_factor_block(S->kr, A, b, symmetric, NULL), RS_OK);
    }
    S->start[0] = 0;
    S->start[1] = nb;
    S->team = (rs_team){1, NULL, S->start, S->list};
}

static rs_krylov_result standalone_solve(standalone *S, const rs_block_matrix *A, const double *b, double *x,
                                         double tol, int maxiter, int cold)
{
    if (cold)
        rs_artificial_forget(S->ar);
    rs_krylov_result res;
    rs_artificial_solve(S->ar, S->kr, A, b, x, tol, maxiter, &S->team, 0, &res);
    return res;
}

static void standalone_free(standalone *S)
{
    rs_krylov_free(&S->kr);
    rs_artificial_free(&S->ar);
    free(S->list);
}

/* Couplers 500 times stiffer, h = 20 ms (β²k ~ 20 m: ρ near 1), after
 * 0.6 s of the traction ramp (at the start every coupler sits at e = 0,
 * disengaged, and the system is block diagonal). */
static rs_train *stiff_train(void)
{
    rs_train *tr = mixed_train(10, RS_KRYLOV_ARTIFICIAL, 1e-12, 20000, 1, 1, 2e-2, 500.0);
    for (int s = 0; s < 30; s++)
        step_ok(tr);
    return tr;
}

/* The contraction per iteration against max |1 − λ(D⁻¹A)| from dsygv, on a
 * stiff train (stiff_train). */
START_TEST(test_rate_matches_eigenvalues)
{
    rs_train *tr = stiff_train();
    const rs_block_matrix *A;
    const double *b, *xpark;
    rs_park_last_system(rs_train_park(tr), &A, &b, &xpark);
    const int n = rs_block_matrix_n(A);
    double *Ad = expand(A, 0), *Dd = expand(A, 1);
    /* A v = λ D v: A symmetric (built-in wagons and couplers), D SPD */
    double asym = 0.0, anorm = 0.0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            asym = fmax(asym, fabs(Ad[i + (size_t)j * n] - Ad[j + (size_t)i * n]));
            anorm = fmax(anorm, fabs(Ad[i + (size_t)j * n]));
        }
    ck_assert_double_le(asym, 1e-14 * anorm);
    double *a = malloc((size_t)n * n * sizeof(double)), *d = malloc((size_t)n * n * sizeof(double));
    memcpy(a, Ad, (size_t)n * n * sizeof(double));
    memcpy(d, Dd, (size_t)n * n * sizeof(double));
    double *w = malloc((size_t)n * sizeof(double)), wq;
    const int itype = 1;
    int lwork = -1, info = 0;
    dsygv_(&itype, "N", "U", &n, a, &n, d, &n, w, &wq, &lwork, &info, 1, 1);
    lwork = (int)wq;
    double *work = malloc((size_t)lwork * sizeof(double));
    dsygv_(&itype, "N", "U", &n, a, &n, d, &n, w, work, &lwork, &info, 1, 1);
    ck_assert_int_eq(info, 0);
    const double lmin = w[0], lmax = w[n - 1];
    const double rho = fmax(fabs(1.0 - lmin), fabs(1.0 - lmax));
    /* every λ in (0, 2), and in pairs 1 ± μ (a path of vehicles) */
    ck_assert_double_gt(lmin, 0.0);
    ck_assert_double_lt(lmax, 2.0);
    ck_assert_double_le(fabs((1.0 - lmin) - (lmax - 1.0)), 1e-9);
    /* the measured contraction from the cold start, over iterations 40..160 */
    standalone S;
    standalone_make(&S, A, 1);
    double *x = malloc((size_t)n * sizeof(double)), *xd = malloc((size_t)n * sizeof(double));
    enum { K1 = 40, K2 = 160 };
    const rs_krylov_result r1 = standalone_solve(&S, A, b, x, 1e-30, K1, 1);
    const rs_krylov_result r2 = standalone_solve(&S, A, b, x, 1e-30, K2, 1);
    ck_assert_int_eq(r1.status, RS_E_NOCONV);
    ck_assert_int_eq(r2.iterations, K2);
    const double measured = pow(r2.relres / r1.relres, 1.0 / (K2 - K1));
    printf("train artificial: lambda(D^-1 A) in [%.6f, %.6f], predicted rho %.6f, measured %.6f per iteration "
           "(relres %.2e after %d, %.2e after %d)\n",
           lmin, lmax, rho, measured, r1.relres, K1, r2.relres, K2);
    ck_assert_double_gt(rho, 0.8);   /* a slow case: the rate is measurable */
    ck_assert_double_le(fabs(log(measured) / log(rho) - 1.0), 0.02);
    /* converged, it is the direct solution (and the one Park computed) */
    const rs_krylov_result r3 = standalone_solve(&S, A, b, x, 1e-13, 5000, 1);
    ck_assert_int_eq(r3.status, RS_OK);
    dense_solve(Ad, b, xd, n);
    double e = 0.0, ep = 0.0;
    for (int i = 0; i < n; i++) {
        e += (x[i] - xd[i]) * (x[i] - xd[i]);
        ep += (xpark[i] - xd[i]) * (xpark[i] - xd[i]);
    }
    e = sqrt(e) / norm2(xd, n);
    ep = sqrt(ep) / norm2(xd, n);
    /* iterations a cold start needs: ln(tol)/ln(ρ), within the slower modes' start */
    const double predicted_its = log(1e-13) / log(rho);
    printf("train artificial: cold solve to 1e-13 in %d iterations (ln(tol)/ln(rho) = %.0f); |x - x_direct|/|x| "
           "%.2e; Park's step solution (tol 1e-12) %.2e\n",
           r3.iterations, predicted_its, e, ep);
    ck_assert_double_le(e, 1e-11);
    ck_assert_double_le(ep, 1e-10);
    ck_assert_double_le(fabs(r3.iterations - predicted_its), 0.2 * predicted_its);
    /* PCG on the same system: A − D is the couplers' off-diagonal parts,
     * rank 2 per coupler (c g_a g_bᵀ and its transpose), so D⁻¹A has at
     * most 2 · 9 + 1 distinct eigenvalues and PCG ends within 19 iterations
     * in exact arithmetic, where the artificial dynamics needs thousands */
    rs_krylov_opts ko;
    rs_krylov_opts_default(&ko);
    ko.method = RS_KRYLOV_CG;
    ko.tol = 1e-13;
    ko.maxiter = 5000;
    rs_krylov_set_opts(S.kr, &ko);
    rs_krylov_result rc;
    ck_assert_int_eq(rs_krylov_solve(S.kr, A, b, xd, 1, &S.team, 0, &rc), RS_OK);
    printf("train artificial: PCG on the same system to 1e-13: %d iterations\n", rc.iterations);
    ck_assert_int_le(rc.iterations, 19);
    standalone_free(&S);
    free(a);
    free(d);
    free(w);
    free(work);
    free(x);
    free(xd);
    free(Ad);
    free(Dd);
    rs_train_free(&tr);
}
END_TEST

/* Warm start: a nearby right-hand side converges in fewer iterations from
 * the last solution; b negated makes the last solution worse than 0 and
 * the solve starts from 0. */
START_TEST(test_warm_start)
{
    rs_train *tr = stiff_train();
    const rs_block_matrix *A;
    const double *b;
    rs_park_last_system(rs_train_park(tr), &A, &b, NULL);
    const int n = rs_block_matrix_n(A);
    standalone S;
    standalone_make(&S, A, 1);
    double *x = malloc((size_t)n * sizeof(double)), *b2 = malloc((size_t)n * sizeof(double));
    const rs_krylov_result cold = standalone_solve(&S, A, b, x, 1e-12, 5000, 1);
    ck_assert_int_eq(cold.status, RS_OK);
    ck_assert_int_eq(rs_artificial_warm(S.ar), 0);
    for (int i = 0; i < n; i++)
        b2[i] = b[i] * (1.0 + 1e-4 * sin(0.7 * i));
    const rs_krylov_result warm = standalone_solve(&S, A, b2, x, 1e-12, 5000, 0);
    ck_assert_int_eq(warm.status, RS_OK);
    ck_assert_int_eq(rs_artificial_warm(S.ar), 1);
    const rs_krylov_result cold2 = standalone_solve(&S, A, b2, x, 1e-12, 5000, 1);
    for (int i = 0; i < n; i++)
        b2[i] = -b[i];
    standalone_solve(&S, A, b, x, 1e-12, 5000, 1);
    const rs_krylov_result neg = standalone_solve(&S, A, b2, x, 1e-12, 5000, 0);
    printf("train artificial warm start: %d iterations (cold %d, ratio %.3f); b negated: started from 0 (%d "
           "iterations, cold %d)\n",
           warm.iterations, cold2.iterations, (double)warm.iterations / cold2.iterations, neg.iterations,
           cold.iterations);
    ck_assert_int_eq(rs_artificial_warm(S.ar), 0);
    ck_assert_int_eq(neg.iterations, cold.iterations);   /* -b from 0 is -(b from 0), exactly */
    /* from the last solution the residual starts at about 1e-4 ‖b‖, so the
     * warm solve needs ln(1e-12 / 1e-4) / ln(1e-12) = 2/3 of the cold one's
     * iterations (both at the same rate ρ) */
    const double ratio = (double)warm.iterations / cold2.iterations;
    ck_assert_double_ge(ratio, 0.6);
    ck_assert_double_le(ratio, 0.75);
    /* a solution already within the tolerance: no iteration */
    const rs_krylov_result again = standalone_solve(&S, A, b2, x, 1e-12, 5000, 0);
    ck_assert_int_eq(again.iterations, 0);
    ck_assert_int_eq(again.status, RS_OK);
    standalone_free(&S);
    free(x);
    free(b2);
    rs_train_free(&tr);
}
END_TEST

/* ------------------------------------------------------------ threads */

enum { NV_D = 24, STEPS_D = 600 };

static double *det_run(int threads, long *iters)
{
    rs_train *tr = mixed_train(NV_D, RS_KRYLOV_ARTIFICIAL, 1e-10, 200, threads, 2, 1e-3, 1.0);
    const int n = rs_park_n(rs_train_park(tr));
    double *traj = malloc((size_t)STEPS_D * 2 * n * sizeof(double));
    for (int s = 0; s < STEPS_D; s++) {
        step_ok(tr);
        memcpy(traj + (size_t)s * 2 * n, rs_park_q(rs_train_park(tr)), n * sizeof(double));
        memcpy(traj + (size_t)s * 2 * n + n, rs_park_qd(rs_train_park(tr)), n * sizeof(double));
    }
    const rs_park_stats *st = rs_park_get_stats(rs_train_park(tr));
    *iters = st->krylov_iters;
    printf("train artificial determinism: %d thread(s): %ld plans, iterations/step %.2f\n", threads, st->plans,
           (double)st->krylov_iters / st->steps);
    if (threads > 1)
        ck_assert_int_ge(st->plans, 10);   /* re-planned: blocks changed threads */
    rs_train_free(&tr);
    return traj;
}

START_TEST(test_threads_bit_identical)
{
    long i1, in;
    double *t1 = det_run(1, &i1);
    for (int th = 2; th <= 4; th += 2) {
        double *tn = det_run(th, &in);
        ck_assert_msg(memcmp(t1, tn, (size_t)STEPS_D * 2 * NV_D * RS_WAGON_NQ * sizeof(double)) == 0,
                      "%d threads: trajectory differs from one thread", th);
        ck_assert_int_eq(in, i1);
        free(tn);
    }
    free(t1);
}
END_TEST

/* ------------------------------------------------------------ refusals */

/* Two unit masses on one coordinate each, joined by a circulatory link
 * F = (−κ q_b, κ q_a): K = −∂F/∂q = [[0, κ], [−κ, 0]], not symmetric.  D⁻¹A
 * = [[1, β²κ], [−β²κ, 1]] has λ = 1 ± i β²κ, so the iteration contracts by
 * β²κ per step: it diverges for β²κ > 1. */
static double g_kappa;

static int unit_block(void *ctx, int b, double t, const double *q, const double *qd, double *M, double *F, double *K,
                      double *C)
{
    (void)ctx, (void)b, (void)t, (void)q, (void)qd, (void)F, (void)K, (void)C;
    M[0] = 1.0;
    return 0;
}

static int circ_link(void *ctx, int l, double t, const double *q, const double *qd, double *F, double *K, double *C)
{
    (void)ctx, (void)l, (void)t, (void)qd, (void)C;
    F[0] = -g_kappa * q[1];
    F[1] = g_kappa * q[0];
    K[2] = g_kappa;    /* (0, 1) */
    K[1] = -g_kappa;   /* (1, 0) */
    return 0;
}

static int circ_step(double kappa, rs_krylov_method method, int maxiter, char *msg, size_t len, int *iters)
{
    g_kappa = kappa;
    static const int port = 0;
    const rs_park_block blocks[2] = {{"a", 1}, {"b", 1}};
    const rs_park_link link = {"spin", 0, 1, 1, 1, &port, &port};
    const rs_park_sys sys = {2, 1, blocks, &link, unit_block, circ_link, NULL, 0};
    rs_park_opts o;
    rs_park_opts_default(&o);
    o.h = 1e-3;   /* the first step is backward Euler: β = h */
    o.krylov.method = method;
    o.krylov.maxiter = maxiter;
    rs_park *pk;
    char err[256];
    ck_assert_msg(rs_park_create(&pk, &sys, &o, err, sizeof err) == RS_OK, "%s", err);
    rs_park_q(pk)[0] = 1e-3;
    ck_assert_int_eq(rs_park_init(pk), RS_OK);
    const int st = rs_park_step(pk);
    snprintf(msg, len, "%s", rs_park_error(pk));
    *iters = rs_park_get_stats(pk)->krylov_max;
    rs_park_free(&pk);
    return st;
}

START_TEST(test_divergence_refused)
{
    char msg[512];
    int its;
    /* β²κ = 10: diverges; stopped once the residual passes 1e6 ‖b‖ */
    ck_assert_int_eq(circ_step(1e7, RS_KRYLOV_ARTIFICIAL, 200, msg, sizeof msg, &its), RS_E_NOCONV);
    printf("diverging: %s (%d iterations)\n", msg, its);
    ck_assert_ptr_nonnull(strstr(msg, "step 1, t = 0 s: artificial dynamics diverges after"));
    ck_assert_ptr_nonnull(strstr(msg, "use 'solver gmres' or 'solver bicgstab'"));
    ck_assert_int_le(its, 8);   /* 10^k > 1e6 after 7 */
    /* β²κ = 0.999: converges too slowly for 50 iterations: bounded, and
     * the message says so */
    ck_assert_int_eq(circ_step(0.999e6, RS_KRYLOV_ARTIFICIAL, 50, msg, sizeof msg, &its), RS_E_NOCONV);
    printf("slow: %s\n", msg);
    ck_assert_ptr_nonnull(strstr(msg, "artificial dynamics did not converge after 50 iterations"));
    ck_assert_ptr_nonnull(strstr(msg, "raise 'iterations'"));
    ck_assert_int_eq(its, 50);
    /* the remedy named solves it */
    ck_assert_int_eq(circ_step(1e7, RS_KRYLOV_GMRES, 200, msg, sizeof msg, &its), RS_OK);
    ck_assert_int_eq(circ_step(1e7, RS_KRYLOV_BICGSTAB, 200, msg, sizeof msg, &its), RS_OK);
    /* β²κ = 0.5: converges, the error halving per iteration: 1e-8 in 27 */
    ck_assert_int_eq(circ_step(0.5e6, RS_KRYLOV_ARTIFICIAL, 200, msg, sizeof msg, &its), RS_OK);
    ck_assert_int_ge(its, 1);
    ck_assert_int_le(its, 28);
}
END_TEST

START_TEST(test_train_file_setting)
{
    rs_train_spec *s = NULL;
    char err[512] = "";
    ck_assert_msg(rs_train_spec_parse("solver artificial\norder\nwagon 3\nend\n", "t.train", &s, err, sizeof err) ==
                      RS_OK,
                  "%s", err);
    ck_assert_int_eq(s->solver, RS_KRYLOV_ARTIFICIAL);
    rs_park_opts o;
    rs_train_spec_opts(s, &o);
    ck_assert_int_eq(o.krylov.method, RS_KRYLOV_ARTIFICIAL);
    rs_train_spec_free(&s);
    ck_assert_int_eq(rs_train_spec_parse("step 1e-3\nsolver artifical\n", "t.train", &s, err, sizeof err), RS_E_ARG);
    ck_assert_ptr_null(s);
    printf("%s\n", err);
    ck_assert_ptr_nonnull(strstr(err, "t.train:2: unknown solver 'artifical' (did you mean 'artificial'?): write "
                                      "'solver auto', 'solver cg', 'solver bicgstab', 'solver gmres' or 'solver "
                                      "artificial'"));
    ck_assert_int_eq(rs_train_spec_parse("solver\n", "t.train", &s, err, sizeof err), RS_E_ARG);
    ck_assert_ptr_nonnull(strstr(err, "t.train:1: write 'solver auto'"));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("train_artificial");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_matches_direct_and_cg);
    tcase_add_test(tc, test_compiled_train_matches_gmres);
    tcase_add_test(tc, test_rate_matches_eigenvalues);
    tcase_add_test(tc, test_warm_start);
    tcase_add_test(tc, test_threads_bit_identical);
    tcase_add_test(tc, test_divergence_refused);
    tcase_add_test(tc, test_train_file_setting);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
