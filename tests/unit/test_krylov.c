/*
 * test_krylov.c — the block-sparse Krylov solvers of rs_krylov against a
 * direct sparse LU (KLU, called here, on a matrix this file expands itself
 * from the block layout), on random systems of train shape: blocks of 1-6
 * coordinates joined in a chain by couplers that touch 1-3 port coordinates
 * per side (plus a few longer-range links).  SPD systems go to PCG,
 * non-symmetric ones (creep-like damping) to BiCGStab; both must agree with
 * KLU to 1e-10 relative, and 1, 2, 3 and 4 threads, with blocks dealt to
 * threads at random, must give bit-identical solutions and iteration counts.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <suitesparse/klu.h>

#include "rs_krylov.h"
#include "rs_pool.h"
#include "rs_test.h"

/* ------------------------------------------------------------ random */

static unsigned long long rng_state = 88172645463325252ULL;
static void rng_seed(unsigned long long s) { rng_state = s ? s : 1; }
static double urand(void)   /* [0, 1) */
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) * (1.0 / 9007199254740992.0);
}
static double srand1(void) { return 2.0 * urand() - 1.0; }
static int irand(int n) { return (int)(urand() * n); }

/* ------------------------------------------------------------ systems */

#define MAXB 200
#define MAXP 3

typedef struct sys {
    int nb, np, n;
    int bsize[MAXB];
    rs_block_matrix_piece_spec spec[4 * MAXB];
    int idx[4 * MAXB][2][MAXP];   /* rows, cols of each piece */
    rs_block_matrix *A;
    double *dense;                /* n × n column-major, expanded by this file */
} sys;

/* Distinct random port indices (k of them) within a block of size m. */
static void ports(int m, int k, int *out)
{
    for (int i = 0; i < k; i++) {
        int v;
        for (;;) {
            v = irand(m);
            int dup = 0;
            for (int j = 0; j < i; j++)
                dup |= out[j] == v;
            if (!dup)
                break;
        }
        out[i] = v;
    }
}

static void add_link(sys *S, int a, int b, int *pa, int *pb, int na, int nb_)
{
    const int k = S->np;
    memcpy(S->idx[k][0], pa, (size_t)na * sizeof(int));
    memcpy(S->idx[k][1], pb, (size_t)nb_ * sizeof(int));
    S->spec[k] = (rs_block_matrix_piece_spec){a, b, na, nb_, S->idx[k][0], S->idx[k][1]};
    memcpy(S->idx[k + 1][0], pb, (size_t)nb_ * sizeof(int));
    memcpy(S->idx[k + 1][1], pa, (size_t)na * sizeof(int));
    S->spec[k + 1] = (rs_block_matrix_piece_spec){b, a, nb_, na, S->idx[k + 1][0], S->idx[k + 1][1]};
    S->np += 2;
}

/* A random train-shaped system.  symmetric: A = blockdiag(R Rᵀ + m I) +
 * Σ_links Eᵀ (B Bᵀ) E (SPD).  Else the same plus non-symmetric parts. */
static void make_sys(sys *S, int nb, int symmetric, double coupling, unsigned long long seed)
{
    memset(S, 0, sizeof *S);
    rng_seed(seed);
    S->nb = nb;
    for (int b = 0; b < nb; b++)
        S->bsize[b] = 1 + irand(6);
    int pa[MAXP], pb[MAXP];
    for (int b = 0; b + 1 < nb; b++) {
        int na = 1 + irand(S->bsize[b] < MAXP ? S->bsize[b] : MAXP);
        int nbb = 1 + irand(S->bsize[b + 1] < MAXP ? S->bsize[b + 1] : MAXP);
        ports(S->bsize[b], na, pa);
        ports(S->bsize[b + 1], nbb, pb);
        add_link(S, b, b + 1, pa, pb, na, nbb);
        if (b + 2 < nb && irand(5) == 0) {   /* a longer-range link now and then */
            ports(S->bsize[b], 1, pa);
            ports(S->bsize[b + 2], 1, pb);
            add_link(S, b, b + 2, pa, pb, 1, 1);
        }
    }
    char err[256];
    ck_assert_msg(rs_block_matrix_create(&S->A, nb, S->bsize, S->np, S->spec, NULL, err, sizeof err) == RS_OK, "%s", err);
    S->n = rs_block_matrix_n(S->A);
    /* diagonal blocks */
    for (int b = 0; b < nb; b++) {
        const int m = S->bsize[b];
        double *D = rs_block_matrix_diag(S->A, b), R[36];
        for (int i = 0; i < m * m; i++)
            R[i] = srand1();
        for (int i = 0; i < m; i++)
            for (int j = 0; j < m; j++) {
                double s = 0;
                for (int k = 0; k < m; k++)
                    s += R[i + k * m] * R[j + k * m];
                D[i + j * m] = s + (i == j ? (double)m : 0.0);
                if (!symmetric)
                    D[i + j * m] += 0.3 * srand1();
            }
    }
    /* links: J = coupling · B Bᵀ over the ports of both sides */
    for (int k = 0; k < S->np; k += 2) {
        const rs_block_matrix_piece_spec *p = &S->spec[k];
        const int na = p->nr, nbb = p->nc, pp = na + nbb;
        double B[36], J[36];
        for (int i = 0; i < pp * pp; i++)
            B[i] = srand1();
        for (int i = 0; i < pp; i++)
            for (int j = 0; j < pp; j++) {
                double s = 0;
                for (int l = 0; l < pp; l++)
                    s += B[i + l * pp] * B[j + l * pp];
                J[i + j * pp] = coupling * s;
            }
        double *Da = rs_block_matrix_diag(S->A, p->rb), *Db = rs_block_matrix_diag(S->A, p->cb);
        const int ma = S->bsize[p->rb], mb = S->bsize[p->cb];
        for (int i = 0; i < na; i++)
            for (int j = 0; j < na; j++)
                Da[p->ri[i] + p->ri[j] * ma] += J[i + j * pp];
        for (int i = 0; i < nbb; i++)
            for (int j = 0; j < nbb; j++)
                Db[p->ci[i] + p->ci[j] * mb] += J[na + i + (na + j) * pp];
        double *Pab = rs_block_matrix_piece(S->A, k), *Pba = rs_block_matrix_piece(S->A, k + 1);
        for (int i = 0; i < na; i++)
            for (int j = 0; j < nbb; j++) {
                Pab[i + j * na] = J[i + (na + j) * pp];
                Pba[j + i * nbb] = J[na + j + i * pp];
                if (!symmetric) {
                    Pab[i + j * na] += 0.5 * coupling * srand1();
                    Pba[j + i * nbb] += 0.5 * coupling * srand1();
                }
            }
    }
    /* the dense expansion, from the documented layout */
    S->dense = calloc((size_t)S->n * (size_t)S->n, sizeof(double));
    for (int b = 0; b < nb; b++) {
        const int o = rs_block_matrix_offset(S->A, b), m = S->bsize[b];
        const double *D = rs_block_matrix_diag(S->A, b);
        for (int i = 0; i < m; i++)
            for (int j = 0; j < m; j++)
                S->dense[(o + i) + (size_t)(o + j) * S->n] += D[i + j * m];
    }
    for (int k = 0; k < S->np; k++) {
        const rs_block_matrix_piece_spec *p = &S->spec[k];
        const int orow = rs_block_matrix_offset(S->A, p->rb), ocol = rs_block_matrix_offset(S->A, p->cb);
        const double *P = rs_block_matrix_piece(S->A, k);
        for (int i = 0; i < p->nr; i++)
            for (int j = 0; j < p->nc; j++)
                S->dense[(orow + p->ri[i]) + (size_t)(ocol + p->ci[j]) * S->n] += P[i + j * p->nr];
    }
}

static void free_sys(sys *S)
{
    rs_block_matrix_free(&S->A);
    free(S->dense);
}

/* KLU on the dense expansion (compressed columns of its non-zeros). */
static void klu_direct(const sys *S, const double *b, double *x)
{
    const int n = S->n;
    int *Ap = calloc((size_t)n + 1, sizeof(int));
    int nnz = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            nnz += S->dense[i + (size_t)j * n] != 0.0;
    int *Ai = malloc((size_t)nnz * sizeof(int));
    double *Ax = malloc((size_t)nnz * sizeof(double));
    nnz = 0;
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < n; i++)
            if (S->dense[i + (size_t)j * n] != 0.0) {
                Ai[nnz] = i;
                Ax[nnz++] = S->dense[i + (size_t)j * n];
            }
        Ap[j + 1] = nnz;
    }
    klu_common c;
    klu_defaults(&c);
    klu_symbolic *sym = klu_analyze(n, Ap, Ai, &c);
    ck_assert_ptr_nonnull(sym);
    klu_numeric *num = klu_factor(Ap, Ai, Ax, sym, &c);
    ck_assert_ptr_nonnull(num);
    memcpy(x, b, (size_t)n * sizeof(double));
    ck_assert(klu_solve(sym, num, n, 1, x, &c));
    klu_free_numeric(&num, &c);
    klu_free_symbolic(&sym, &c);
    free(Ap);
    free(Ai);
    free(Ax);
}

/* ------------------------------------------------------------ teams */

typedef struct job {
    rs_krylov *kr;
    const rs_block_matrix *A;
    const double *b;
    double *x;
    int symmetric;
    rs_team team;
    int status[8];
    rs_krylov_result res[8];
} job;

static void thread_fn(void *ctx, int thread, int unused)
{
    (void)unused;
    job *j = ctx;
    for (int k = j->team.start[thread]; k < j->team.start[thread + 1]; k++)
        rs_krylov_factor_block(j->kr, j->A, j->team.list[k], j->symmetric, NULL);
    rs_barrier_wait(j->team.bar);
    j->status[thread] = rs_krylov_solve(j->kr, j->A, j->b, j->x, j->symmetric, &j->team, thread, &j->res[thread]);
}

/* Solves with `threads` threads, blocks dealt at random; returns the result
 * of thread 0 and checks all threads agree. */
static int g_restart = 30;   /* GMRES restart length of solve_team */

static rs_krylov_result solve_team(const sys *S, rs_krylov_method method, int symmetric, double tol, int threads,
                                   const double *b, double *x, unsigned long long deal_seed)
{
    char err[256];
    rs_krylov_opts o;
    rs_krylov_opts_default(&o);
    o.method = method;
    o.tol = tol;
    o.maxiter = 1000;
    o.restart = g_restart;
    rs_krylov *kr;
    ck_assert_msg(rs_krylov_create(&kr, S->A, &o, NULL, err, sizeof err) == RS_OK, "%s", err);
    int owner[MAXB], start[9] = {0}, list[MAXB];
    rng_seed(deal_seed);
    for (int bk = 0; bk < S->nb; bk++)
        owner[bk] = irand(threads);
    for (int t = 0; t < threads; t++) {
        start[t + 1] = start[t];
        for (int bk = 0; bk < S->nb; bk++)
            if (owner[bk] == t)
                list[start[t + 1]++] = bk;
    }
    rs_barrier *bar;
    ck_assert_int_eq(rs_barrier_create(&bar, threads, 1000), RS_OK);
    rs_pool *pool;
    ck_assert_int_eq(rs_pool_create(&pool, threads, 1, err, sizeof err), RS_OK);
    job j = {kr, S->A, b, x, symmetric, {threads, bar, start, list}, {0}, {{0}}};
    ck_assert_int_eq(rs_pool_parallel(pool, thread_fn, &j), RS_OK);
    for (int t = 1; t < threads; t++) {
        ck_assert_int_eq(j.status[t], j.status[0]);
        ck_assert_int_eq(j.res[t].iterations, j.res[0].iterations);
        ck_assert_int_eq(j.res[t].restarts, j.res[0].restarts);
        ck_assert(j.res[t].relres == j.res[0].relres);
    }
    rs_pool_free(&pool);
    rs_barrier_free(&bar);
    rs_krylov_free(&kr);
    return j.res[0];
}

static double rel_diff(const double *x, const double *y, int n)
{
    double d = 0, m = 0;
    for (int i = 0; i < n; i++) {
        d = fmax(d, fabs(x[i] - y[i]));
        m = fmax(m, fabs(y[i]));
    }
    return d / m;
}

static const char *method_name(int m)
{
    return m == RS_KRYLOV_CG ? "PCG" : m == RS_KRYLOV_BICGSTAB ? "BiCGStab" : m == RS_KRYLOV_GMRES ? "GMRES" : "?";
}

/* Solves S (built with make_sys) by `method` with 1-4 threads: equal to KLU
 * to 1e-10, bit-identical across thread counts.  Returns the iterations. */
static int check_method(int nb, int symmetric, double coupling, unsigned long long seed, rs_krylov_method method)
{
    sys S;
    make_sys(&S, nb, symmetric, coupling, seed);
    const int n = S.n;
    double *b = malloc((size_t)n * sizeof(double)), *xd = malloc((size_t)n * sizeof(double));
    double *x[4];
    for (int i = 0; i < n; i++)
        b[i] = srand1();
    klu_direct(&S, b, xd);
    rs_krylov_result r1 = {0};
    for (int t = 0; t < 4; t++) {
        x[t] = malloc((size_t)n * sizeof(double));
        rs_krylov_result r = solve_team(&S, method, symmetric, 1e-13, t + 1, b, x[t], seed + 17u * (unsigned)t);
        ck_assert_msg(r.status == RS_OK, "%s nb=%d threads=%d: status %d after %d iterations (relres %g)",
                      method_name(method), nb, t + 1, r.status, r.iterations, r.relres);
        ck_assert_int_eq(r.method, method);
        if (t == 0)
            r1 = r;
        ck_assert_int_eq(r.iterations, r1.iterations);
        ck_assert_msg(memcmp(x[t], x[0], (size_t)n * sizeof(double)) == 0,
                      "%d threads: solution differs from the one-thread solution", t + 1);
    }
    /* the reported residual is the true one */
    double *ax = malloc((size_t)n * sizeof(double)), rn = 0, bn = 0;
    rs_block_matrix_mul(S.A, x[0], ax);
    for (int i = 0; i < n; i++) {
        rn += (b[i] - ax[i]) * (b[i] - ax[i]);
        bn += b[i] * b[i];
    }
    ck_assert_double_le(sqrt(rn / bn), 1e-13 * 1.01);
    const double e = rel_diff(x[0], xd, n);
    printf("krylov: %-8s blocks %3d order %4d coupling %-5g restart %2d iterations %3d restarts %2d relres %.2e "
           "|x - x_klu|/|x_klu| %.2e\n",
           method_name(method), nb, n, coupling, method == RS_KRYLOV_GMRES ? g_restart : 0, r1.iterations,
           r1.restarts, r1.relres, e);
    ck_assert_msg(e < 1e-10, "%s vs KLU: relative difference %g", method_name(method), e);
    for (int t = 0; t < 4; t++)
        free(x[t]);
    free(ax);
    free(b);
    free(xd);
    free_sys(&S);
    return r1.iterations;
}

static void check_case(int nb, int symmetric, double coupling, unsigned long long seed)
{
    sys S;
    make_sys(&S, nb, symmetric, coupling, seed);
    const int n = S.n;
    double *b = malloc((size_t)n * sizeof(double)), *xd = malloc((size_t)n * sizeof(double));
    double *x[4];
    for (int i = 0; i < n; i++)
        b[i] = srand1();
    klu_direct(&S, b, xd);
    const rs_krylov_method method = symmetric ? RS_KRYLOV_CG : RS_KRYLOV_BICGSTAB;
    rs_krylov_result r1 = {0};
    for (int t = 0; t < 4; t++) {
        x[t] = malloc((size_t)n * sizeof(double));
        rs_krylov_result r = solve_team(&S, method, symmetric, 1e-13, t + 1, b, x[t], seed + 17u * (unsigned)t);
        ck_assert_msg(r.status == RS_OK, "%s nb=%d threads=%d: status %d after %d iterations (relres %g)",
                      symmetric ? "CG" : "BiCGStab", nb, t + 1, r.status, r.iterations, r.relres);
        if (t == 0)
            r1 = r;
        ck_assert_int_eq(r.iterations, r1.iterations);
        ck_assert_msg(memcmp(x[t], x[0], (size_t)n * sizeof(double)) == 0,
                      "%d threads: solution differs from the one-thread solution", t + 1);
    }
    const double e = rel_diff(x[0], xd, n);
    printf("krylov: %-8s blocks %3d order %4d coupling %-5g iterations %3d relres %.2e |x - x_klu|/|x_klu| %.2e\n",
           symmetric ? "PCG" : "BiCGStab", nb, n, coupling, r1.iterations, r1.relres, e);
    ck_assert_msg(e < 1e-10, "Krylov vs KLU: relative difference %g", e);
    /* AUTO picks the same method from the symmetry flag */
    double *xa = malloc((size_t)n * sizeof(double));
    rs_krylov_result ra = solve_team(&S, RS_KRYLOV_AUTO, symmetric, 1e-13, 1, b, xa, 0);
    ck_assert_int_eq(ra.method, method);
    ck_assert(memcmp(xa, x[0], (size_t)n * sizeof(double)) == 0);
    free(xa);
    for (int t = 0; t < 4; t++)
        free(x[t]);
    free(b);
    free(xd);
    free_sys(&S);
}

START_TEST(test_dense)
{
    /* Cholesky and LU on a known system: A x = b with x = (1, -2, 3, 0.5) */
    double A[16] = {4, 1, 0.5, 0, 1, 5, 1, 0.2, 0.5, 1, 6, 1, 0, 0.2, 1, 3};
    const double xs[4] = {1, -2, 3, 0.5};
    double b[4] = {0}, L[16], LU[16];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            b[i] += A[i + 4 * j] * xs[j];
    memcpy(L, A, sizeof A);
    ck_assert_int_eq(rs_dense_chol(L, 4, NULL), RS_OK);
    double y[4];
    memcpy(y, b, sizeof b);
    rs_dense_chol_solve(L, 4, y);
    for (int i = 0; i < 4; i++)
        ck_assert_double_eq_tol(y[i], xs[i], 1e-14);
    A[1] = -3; /* non-symmetric, needs pivoting in column 0 after this: */
    A[0] = 0.1;
    b[0] = b[1] = b[2] = b[3] = 0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            b[i] += A[i + 4 * j] * xs[j];
    memcpy(LU, A, sizeof A);
    int piv[4], bad = -1;
    ck_assert_int_eq(rs_dense_lu(LU, 4, piv, &bad), RS_OK);
    ck_assert_int_eq(piv[0], 1);
    memcpy(y, b, sizeof b);
    rs_dense_lu_solve(LU, 4, piv, y);
    for (int i = 0; i < 4; i++)
        ck_assert_double_eq_tol(y[i], xs[i], 1e-14);
    /* not positive definite / singular */
    double N[4] = {1, 2, 2, 1};
    ck_assert_int_eq(rs_dense_chol(N, 2, &bad), RS_E_SINGULAR);
    ck_assert_int_eq(bad, 1);
    double Z[4] = {1, 2, 2, 4};
    ck_assert_int_eq(rs_dense_lu(Z, 2, piv, &bad), RS_E_SINGULAR);
    ck_assert_int_eq(bad, 1);
}
END_TEST

START_TEST(test_spd_vs_klu)
{
    check_case(40, 1, 0.5, 11);
    check_case(120, 1, 2.0, 12);
    check_case(200, 1, 10.0, 13);
}
END_TEST

START_TEST(test_nonsym_vs_klu)
{
    check_case(40, 0, 0.5, 21);
    check_case(120, 0, 2.0, 22);
    check_case(200, 0, 5.0, 23);
}
END_TEST

START_TEST(test_gmres_vs_klu)
{
    /* non-symmetric (creep-like) systems, GMRES(30) */
    g_restart = 30;
    check_method(40, 0, 0.5, 21, RS_KRYLOV_GMRES);
    check_method(120, 0, 2.0, 22, RS_KRYLOV_GMRES);
    const int it30 = check_method(200, 0, 5.0, 23, RS_KRYLOV_GMRES);
    /* short restarts: many cycles, the same answer */
    g_restart = 4;
    const int it4 = check_method(200, 0, 5.0, 23, RS_KRYLOV_GMRES);
    ck_assert_int_ge(it4, it30);   /* restarting loses information, never gains iterations */
    g_restart = 1;   /* GMRES(1): minimal-residual steepest descent, still converges here */
    check_method(40, 0, 0.5, 21, RS_KRYLOV_GMRES);
    /* SPD systems are non-symmetric ones that happen to be symmetric */
    g_restart = RS_KRYLOV_MAX_RESTART;
    check_method(120, 1, 2.0, 12, RS_KRYLOV_GMRES);
    g_restart = 30;
}
END_TEST

START_TEST(test_gmres_limits)
{
    /* maxiter bounds the Arnoldi steps over all cycles; a zero right-hand
     * side is solved by x = 0 in no iteration; bad options are refused */
    sys S;
    make_sys(&S, 120, 0, 5.0, 41);
    const int n = S.n;
    double *b = calloc((size_t)n, sizeof(double)), *x = malloc((size_t)n * sizeof(double));
    char err[256];
    rs_krylov_opts o;
    rs_krylov_opts_default(&o);
    ck_assert_int_eq(o.restart, 30);
    o.method = RS_KRYLOV_GMRES;
    o.tol = 1e-14;
    o.maxiter = 7;
    o.restart = 3;
    rs_krylov *kr;
    ck_assert_msg(rs_krylov_create(&kr, S.A, &o, NULL, err, sizeof err) == RS_OK, "%s", err);
    rs_krylov_result r;
    ck_assert_int_eq(rs_krylov_solve_serial(kr, S.A, b, x, 0, &r), RS_OK);
    ck_assert_int_eq(r.iterations, 0);
    for (int i = 0; i < n; i++)
        ck_assert(x[i] == 0.0);
    for (int i = 0; i < n; i++)
        b[i] = srand1();
    ck_assert_int_eq(rs_krylov_solve_serial(kr, S.A, b, x, 0, &r), RS_E_NOCONV);
    ck_assert_int_eq(r.iterations, 7);
    ck_assert_int_eq(r.restarts, 2);   /* 3 + 3 + 1 steps */
    ck_assert(r.relres > 1e-14 && r.relres < 1.0);
    /* set_opts cannot grow the basis beyond what was allocated */
    o.restart = 50;
    o.maxiter = 1000;
    rs_krylov_set_opts(kr, &o);
    ck_assert_int_eq(rs_krylov_solve_serial(kr, S.A, b, x, 0, &r), RS_OK);
    ck_assert_int_ge(r.restarts, 1);
    rs_krylov_free(&kr);
    o.restart = 0;
    ck_assert_int_eq(rs_krylov_create(&kr, S.A, &o, NULL, err, sizeof err), RS_E_ARG);
    ck_assert_msg(strstr(err, "restart") != NULL, "%s", err);
    o.restart = RS_KRYLOV_MAX_RESTART + 1;
    ck_assert_int_eq(rs_krylov_create(&kr, S.A, &o, NULL, err, sizeof err), RS_E_ARG);
    free(b);
    free(x);
    free_sys(&S);
}
END_TEST

START_TEST(test_train_like)
{
    /* Park-like scaling: mass-dominated diagonal, coupling β²k small
     * relative to it — the iterations must be few (seed 000: "rarely
     * exceeds one"). */
    sys S;
    make_sys(&S, 200, 1, 1e-3, 31);
    double *b = malloc((size_t)S.n * sizeof(double)), *x = malloc((size_t)S.n * sizeof(double)),
           *xd = malloc((size_t)S.n * sizeof(double));
    for (int i = 0; i < S.n; i++)
        b[i] = srand1();
    klu_direct(&S, b, xd);
    rs_krylov_result r = solve_team(&S, RS_KRYLOV_CG, 1, 1e-10, 2, b, x, 5);
    ck_assert_int_eq(r.status, RS_OK);
    printf("krylov: mass-dominated train, 200 blocks, order %d: PCG iterations %d (tol 1e-10)\n", S.n, r.iterations);
    ck_assert_int_le(r.iterations, 4);
    ck_assert(rel_diff(x, xd, S.n) < 1e-9);
    free(b);
    free(x);
    free(xd);
    free_sys(&S);
}
END_TEST

START_TEST(test_errors)
{
    char err[256];
    rs_block_matrix *A = NULL;
    int sz[2] = {2, 2}, ri[1] = {2}, ci[1] = {0};
    rs_block_matrix_piece_spec p = {0, 1, 1, 1, ri, ci};
    ck_assert_int_eq(rs_block_matrix_create(&A, 2, sz, 1, &p, NULL, err, sizeof err), RS_E_ARG);
    ck_assert_ptr_null(A);
    ck_assert_msg(strstr(err, "row 2 is outside block 0") != NULL, "%s", err);
    p.rb = 1;
    ri[0] = 0;
    ck_assert_int_eq(rs_block_matrix_create(&A, 2, sz, 1, &p, NULL, err, sizeof err), RS_E_ARG);
    ck_assert_msg(strstr(err, "must be distinct") != NULL, "%s", err);
    /* CG on an indefinite system reports a breakdown, not garbage */
    p.rb = 0;
    ck_assert_int_eq(rs_block_matrix_create(&A, 2, sz, 1, &p, NULL, err, sizeof err), RS_OK);
    double *D0 = rs_block_matrix_diag(A, 0), *D1 = rs_block_matrix_diag(A, 1);
    D0[0] = D0[3] = 1;
    D1[0] = D1[3] = 1;
    *rs_block_matrix_piece(A, 0) = 5;   /* unsymmetric, rows of block 0 only */
    rs_krylov *kr;
    ck_assert_int_eq(rs_krylov_create(&kr, A, NULL, NULL, err, sizeof err), RS_OK);
    double b[4] = {1, 1, 1, 1}, x[4];
    rs_krylov_result r;
    ck_assert_int_eq(rs_krylov_solve_serial(kr, A, b, x, 0, &r), RS_OK);
    ck_assert_double_eq_tol(x[0], -4, 1e-12);   /* x0 + 5 x2 = 1, x2 = 1 */
    D0[0] = -1;
    ck_assert_int_eq(rs_krylov_solve_serial(kr, A, b, x, 1, &r), RS_E_SINGULAR);
    rs_krylov_free(&kr);
    rs_block_matrix_free(&A);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("krylov");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_dense);
    tcase_add_test(tc, test_spd_vs_klu);
    tcase_add_test(tc, test_nonsym_vs_klu);
    tcase_add_test(tc, test_gmres_vs_klu);
    tcase_add_test(tc, test_gmres_limits);
    tcase_add_test(tc, test_train_like);
    tcase_add_test(tc, test_errors);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
