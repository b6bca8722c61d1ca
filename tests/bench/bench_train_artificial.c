/*
 * bench_train_artificial.c — `solver artificial` (seed 002's artificial
 * dynamics, rs_artificial.h) against PCG and a direct KLU solve on long
 * trains, N = 10, 50, 200, 1000, 2000 vehicles (a locomotive with a
 * traction ramp and N − 1 loaded wagons, couplers with free play and
 * buffers, 5 coordinates each, starting under draw: every coupler 5 mm
 * past its free play; h = 1 ms, tolerance 1e-8, the train defaults):
 *
 *   BENCH train_art<N>.step_us_per_vehicle_<S>_t<T> <v> us
 *       median µs per step and vehicle of the whole Park step, solver S
 *       (artificial, cg) on T = 1 and 2 threads (the powers of two up to
 *       RAILSYM_BENCH_THREADS when set; the team on every step: probe 0)
 *   BENCH train_art<N>.iters_per_step_<S> <v> iterations
 *   BENCH train_art<N>.solve_us_per_vehicle_<S> <v> us
 *       the linear solve alone, S = artificial, cg (factoring D, then
 *       iterating; artificial warm-started from the last step's solution,
 *       as in a run) and klu (refactoring and solving the whole system, its
 *       pattern analyzed once), one thread, on the same 20 systems taken
 *       from consecutive steps (rs_park_last_system); the median
 *   BENCH train_art<N>.relerr_<S> <v> ratio
 *       the largest ‖x − x_klu‖ / ‖x_klu‖ of those 20 solves
 *   BENCH train_art<N>.warm_starts_artificial <v> ratio
 *       the share of those solves that started from the last solution
 *   BENCH train_art<N>.iters_per_solve_artificial_warm <v> iterations
 *   BENCH train_art<N>.iters_per_solve_artificial_from0 <v> iterations
 *       the iterations of those solves, and of the same solves from 0
 *
 * The direct solver is not an option of the Park step, so it is timed on
 * the step's systems only; a direct step would cost the Park step minus
 * the iterative solve plus the KLU solve.  The median is over blocks of 20
 * steps after 200 warm-up steps (the couplers engage during the ramp).  A
 * benchmark prints figures; it never fails on time.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <suitesparse/klu.h>
#include <time.h>

#include "rs_artificial.h"
#include "rs_train.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void die(const char *what, const char *msg)
{
    fprintf(stderr, "bench_train_artificial: %s: %s\n", what, msg);
    exit(1);
}

static rs_train *make_train(int nv, rs_krylov_method method, int threads)
{
    rs_wagon *veh = calloc((size_t)nv, sizeof *veh);
    rs_coupler *cpl = calloc((size_t)nv, sizeof *cpl);
    static const double tt[2] = {0.0, 5.0}, ff[2] = {0.0, 3e5};
    rs_loco_default(&veh[0]);
    veh[0].traction_n = 2;
    veh[0].traction_t = tt;
    veh[0].traction_f = ff;
    for (int v = 1; v < nv; v++)
        rs_wagon_default(&veh[v]);
    for (int c = 0; c + 1 < nv; c++) {
        rs_coupler_default(&cpl[c]);
        cpl[c].slack = 0.02;
        cpl[c].k_buffer = 5e7;
    }
    rs_park_opts o;
    rs_park_opts_default(&o);
    o.h = 1e-3;
    o.threads = threads;
    o.probe = 0;
    o.krylov.method = method;
    rs_train *tr;
    char err[256];
    if (rs_train_create(&tr, nv, veh, NULL, cpl, NULL, &o, err, sizeof err) != RS_OK)
        die("create", err);
    if (rs_train_start(tr, 0.0, 0.0, 0.0) != RS_OK)
        die("start", rs_train_error(tr));
    /* Every coupler stretched 5 mm past its free play (1e5 N): the train
     * under draw.  From rest with the couplers in their free play the
     * system would be block diagonal (no coupling to solve) until the
     * ramp's wave had passed, minutes for 2000 vehicles. */
    rs_park *pk = rs_train_park(tr);
    for (int v = 0; v < nv; v++)
        rs_park_q(pk)[rs_park_offset(pk, v) + RS_WAGON_X] -= v * (0.5 * 0.02 + 0.005);
    if (rs_park_init(pk) != RS_OK)
        die("init", rs_park_error(pk));
    free(veh);
    free(cpl);
    return tr;
}

static void step(rs_train *tr)
{
    if (rs_train_step(tr) != RS_OK)
        die("step", rs_park_error(rs_train_park(tr)));
}

enum { WARM = 200, BLOCK = 20, NBLOCK = 15, NSYS = 20 };

/* Median µs per step; *iters: iterations per measured step. */
static double bench_steps(int nv, rs_krylov_method method, int threads, double *iters)
{
    rs_train *tr = make_train(nv, method, threads);
    for (int s = 0; s < WARM; s++)
        step(tr);
    const long it0 = rs_park_get_stats(rs_train_park(tr))->krylov_iters;
    double us[NBLOCK];
    for (int b = 0; b < NBLOCK; b++) {
        const double t0 = now_s();
        for (int s = 0; s < BLOCK; s++)
            step(tr);
        us[b] = 1e6 * (now_s() - t0) / BLOCK;
    }
    *iters = (double)(rs_park_get_stats(rs_train_park(tr))->krylov_iters - it0) / (NBLOCK * BLOCK);
    rs_train_free(&tr);
    qsort(us, NBLOCK, sizeof us[0], cmp_double);
    return us[NBLOCK / 2];
}

/* ------------------------------------------------------------ KLU */

/* The block matrix's structure in compressed columns (every entry of the
 * diagonal blocks and pieces, rows sorted), and where each value lives. */
typedef struct csc {
    int n, nnz, *Ap, *Ai;
    double *Ax;
    const double **src;
} csc;

static void csc_build(csc *S, rs_block_matrix *A)
{
    const int n = rs_block_matrix_n(A), nb = rs_block_matrix_nblocks(A), np = rs_block_matrix_npieces(A);
    S->n = n;
    S->Ap = calloc((size_t)n + 1, sizeof(int));
    for (int b = 0; b < nb; b++) {
        const int o = rs_block_matrix_offset(A, b), m = rs_block_matrix_bsize(A, b);
        for (int j = 0; j < m; j++)
            S->Ap[o + j + 1] += m;
    }
    for (int k = 0; k < np; k++) {
        const rs_block_matrix_piece_spec *p = rs_block_matrix_piece_spec_of(A, k);
        for (int j = 0; j < p->nc; j++)
            S->Ap[rs_block_matrix_offset(A, p->cb) + p->ci[j] + 1] += p->nr;
    }
    for (int j = 0; j < n; j++)
        S->Ap[j + 1] += S->Ap[j];
    S->nnz = S->Ap[n];
    S->Ai = malloc((size_t)S->nnz * sizeof(int));
    S->Ax = malloc((size_t)S->nnz * sizeof(double));
    S->src = malloc((size_t)S->nnz * sizeof(double *));
    int *fill = calloc((size_t)n, sizeof(int));
    for (int b = 0; b < nb; b++) {
        const int o = rs_block_matrix_offset(A, b), m = rs_block_matrix_bsize(A, b);
        const double *D = rs_block_matrix_diag(A, b);
        for (int j = 0; j < m; j++)
            for (int i = 0; i < m; i++) {
                const int w = S->Ap[o + j] + fill[o + j]++;
                S->Ai[w] = o + i;
                S->src[w] = D + i + (size_t)j * m;
            }
    }
    for (int k = 0; k < np; k++) {
        const rs_block_matrix_piece_spec *p = rs_block_matrix_piece_spec_of(A, k);
        const double *P = rs_block_matrix_piece(A, k);
        const int orow = rs_block_matrix_offset(A, p->rb), ocol = rs_block_matrix_offset(A, p->cb);
        for (int j = 0; j < p->nc; j++)
            for (int i = 0; i < p->nr; i++) {
                const int c = ocol + p->ci[j], w = S->Ap[c] + fill[c]++;
                S->Ai[w] = orow + p->ri[i];
                S->src[w] = P + i + (size_t)j * p->nr;
            }
    }
    for (int j = 0; j < n; j++)   /* rows in order: insertion sort per column */
        for (int a = S->Ap[j] + 1; a < S->Ap[j + 1]; a++)
            for (int c = a; c > S->Ap[j] && S->Ai[c - 1] > S->Ai[c]; c--) {
                const int ti = S->Ai[c];
                const double *ts = S->src[c];
                S->Ai[c] = S->Ai[c - 1];
                S->src[c] = S->src[c - 1];
                S->Ai[c - 1] = ti;
                S->src[c - 1] = ts;
            }
    free(fill);
}

static void csc_free(csc *S)
{
    free(S->Ap);
    free(S->Ai);
    free(S->Ax);
    free(S->src);
}

/* ------------------------------------------------------------ solves */

static double relerr(const double *x, const double *ref, int n)
{
    double e = 0.0, r = 0.0;
    for (int i = 0; i < n; i++) {
        e += (x[i] - ref[i]) * (x[i] - ref[i]);
        r += ref[i] * ref[i];
    }
    return r > 0.0 ? sqrt(e / r) : sqrt(e);
}

/* The three solvers on NSYS consecutive steps' systems of the artificial
 * run (one thread). */
static void bench_solves(int nv)
{
    rs_train *tr = make_train(nv, RS_KRYLOV_ARTIFICIAL, 1);
    for (int s = 0; s < WARM; s++)
        step(tr);
    rs_park *pk = rs_train_park(tr);
    const rs_block_matrix *Ac;
    const double *b;
    rs_park_last_system(pk, &Ac, &b, NULL);
    rs_block_matrix *A = (rs_block_matrix *)Ac;   /* its values, read only */
    const int n = rs_block_matrix_n(A), nb = rs_block_matrix_nblocks(A);
    csc S;
    csc_build(&S, A);
    klu_common kc;
    klu_defaults(&kc);
    klu_symbolic *sym = klu_analyze(n, S.Ap, S.Ai, &kc);
    klu_numeric *num = NULL;
    rs_krylov *kr;
    rs_artificial *ar, *ar0;
    rs_krylov_opts ko;
    rs_krylov_opts_default(&ko);
    ko.tol = 1e-8;
    ko.method = RS_KRYLOV_CG;
    char err[256];
    if (!sym || rs_krylov_create(&kr, A, &ko, NULL, err, sizeof err) != RS_OK ||
        rs_artificial_create(&ar, A, NULL, err, sizeof err) != RS_OK ||
        rs_artificial_create(&ar0, A, NULL, err, sizeof err) != RS_OK)
        die("solvers", sym ? err : "klu_analyze failed");
    int *list = malloc((size_t)nb * sizeof(int));
    for (int i = 0; i < nb; i++)
        list[i] = i;
    const int start[2] = {0, nb};
    const rs_team team = {1, NULL, start, list};
    double *xk = malloc((size_t)n * sizeof(double)), *xa = malloc((size_t)n * sizeof(double)),
           *xc = malloc((size_t)n * sizeof(double));
    double tk[NSYS], ta[NSYS], tc[NSYS], ea = 0.0, ec = 0.0;
    int warm = 0, iw = 0, i0 = 0;
    for (int s = 0; s < NSYS; s++) {
        step(tr);
        /* KLU: refactor (factor the first time) and solve */
        double t0 = now_s();
        for (int k = 0; k < S.nnz; k++)
            S.Ax[k] = *S.src[k];
        if (!num)
            num = klu_factor(S.Ap, S.Ai, S.Ax, sym, &kc);
        else if (!klu_refactor(S.Ap, S.Ai, S.Ax, sym, num, &kc))
            die("klu", "refactor failed");
        if (!num)
            die("klu", "factor failed");
        memcpy(xk, b, (size_t)n * sizeof(double));
        klu_solve(sym, num, n, 1, xk, &kc);
        tk[s] = now_s() - t0;
        /* artificial: D's blocks, then the iteration (warm from the last) */
        t0 = now_s();
        for (int i = 0; i < nb; i++)
            rs_krylov_factor_block(kr, A, i, 1, NULL);
        rs_krylov_result res;
        if (rs_artificial_solve(ar, kr, A, b, xa, 1e-8, 200, &team, 0, &res) != RS_OK)
            die("artificial", "no convergence");
        ta[s] = now_s() - t0;
        warm += rs_artificial_warm(ar);
        iw += res.iterations;
        rs_artificial_forget(ar0);   /* the same from 0, untimed */
        rs_artificial_solve(ar0, kr, A, b, xc, 1e-8, 200, &team, 0, &res);
        i0 += res.iterations;
        /* PCG */
        t0 = now_s();
        for (int i = 0; i < nb; i++)
            rs_krylov_factor_block(kr, A, i, 1, NULL);
        if (rs_krylov_solve(kr, A, b, xc, 1, &team, 0, &res) != RS_OK)
            die("cg", "no convergence");
        tc[s] = now_s() - t0;
        ea = fmax(ea, relerr(xa, xk, n));
        ec = fmax(ec, relerr(xc, xk, n));
    }
    qsort(tk, NSYS, sizeof tk[0], cmp_double);
    qsort(ta, NSYS, sizeof ta[0], cmp_double);
    qsort(tc, NSYS, sizeof tc[0], cmp_double);
    printf("BENCH train_art%d.solve_us_per_vehicle_artificial %.4f us\n", nv, 1e6 * ta[NSYS / 2] / nv);
    printf("BENCH train_art%d.solve_us_per_vehicle_cg %.4f us\n", nv, 1e6 * tc[NSYS / 2] / nv);
    printf("BENCH train_art%d.solve_us_per_vehicle_klu %.4f us\n", nv, 1e6 * tk[NSYS / 2] / nv);
    printf("BENCH train_art%d.relerr_artificial %.3g ratio\n", nv, ea);
    printf("BENCH train_art%d.warm_starts_artificial %.2f ratio\n", nv, (double)warm / NSYS);
    printf("BENCH train_art%d.iters_per_solve_artificial_warm %.2f iterations\n", nv, (double)iw / NSYS);
    printf("BENCH train_art%d.iters_per_solve_artificial_from0 %.2f iterations\n", nv, (double)i0 / NSYS);
    printf("BENCH train_art%d.relerr_cg %.3g ratio\n", nv, ec);
    klu_free_numeric(&num, &kc);
    klu_free_symbolic(&sym, &kc);
    rs_krylov_free(&kr);
    rs_artificial_free(&ar);
    rs_artificial_free(&ar0);
    csc_free(&S);
    free(list);
    free(xk);
    free(xa);
    free(xc);
    rs_train_free(&tr);
}

int main(void)
{
    /* threads 1, 2 (RAILSYM_BENCH_THREADS = P: the powers of two up to P,
     * at most 64) */
    const char *env = getenv("RAILSYM_BENCH_THREADS");
    const int tmax = env && atoi(env) >= 2 ? (atoi(env) < 64 ? atoi(env) : 64) : 2;
    static const int sizes[] = {10, 50, 200, 1000, 2000};
    static const rs_krylov_method meth[2] = {RS_KRYLOV_ARTIFICIAL, RS_KRYLOV_CG};
    static const char *const mname[2] = {"artificial", "cg"};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const int nv = sizes[i];
        for (int m = 0; m < 2; m++) {
            double it = 0.0;
            for (int T = 1; T <= tmax; T *= 2) {
                const double us = bench_steps(nv, meth[m], T, &it);
                printf("BENCH train_art%d.step_us_per_vehicle_%s_t%d %.4f us\n", nv, mname[m], T, us / nv);
            }
            printf("BENCH train_art%d.iters_per_step_%s %.2f iterations\n", nv, mname[m], it);
        }
        bench_solves(nv);
        fflush(stdout);
    }
    return 0;
}
