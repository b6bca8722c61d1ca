/*
 * bench_artificial.c — seed 002's solver (a) against the direct solve of
 * the same chain (runtime/train/rs_chain.h, docs/massive.md): a chain of N
 * uniform bars swinging from 0.4 + 0.15 i rad (a rigid-looking start is
 * avoided: every bar moves), RK4 step 2 ms, tolerance 1e-10, warm start
 * extrapolated from the last two steps (the default).
 *
 *   BENCH artificial_chain<N>.direct_step_us_per_body <v> us   band Cholesky, 1 thread
 *   BENCH artificial_chain<N>.step_us_per_body_t1 <v> us       artificial dynamics, 1 thread
 *   BENCH artificial_chain<N>.step_us_per_body_t2 <v> us       the same on 2 threads
 *                                   (RAILSYM_BENCH_THREAD_LIST="1,2,4,8,16" times others)
 *   BENCH artificial_chain<N>.iters_per_step <v> iterations    4 solves a step (RK4)
 *   BENCH artificial_chain<N>.iters_per_solve_cold <v> iterations   from mu = 0, one solve
 *   BENCH artificial_chain<N>.iters_per_step_last_mu <v> iterations warm start from the last
 *                                   mu as it is (the seed's), not extrapolated (N <= 100)
 *   BENCH artificial_chain<N>.cg_step_us_per_body_t<T> <v> us  conjugate gradients (Krylov,
 *                                   rs_artdyn_cg), same warm start, T threads
 *   BENCH artificial_chain<N>.cg_iters_per_step <v> iterations
 *   BENCH artificial_chain<N>.cg_iters_per_solve_cold <v> iterations
 *   BENCH artificial_chain<N>.cg_rel_err_vs_direct <v>         max|mu - mu_direct| / max|mu_direct|
 *                                   of one warm CG solve at the state reached
 *
 * for N = 5, 10, 100, 1000, 2000.  Each figure is the mean over the steps
 * that fit in about a second (RAILSYM_BENCH_BUDGET_S; at least 2, after 2 warm-up steps, which let
 * the warm start settle).  Iteration counts do not depend on the threads
 * (the results are bit-identical).  When the iteration cap (RAILSYM_BENCH_
 * ARTIFICIAL_MAX_ITER, default 200000) is reached, the line says so and the
 * figure is absent.  A benchmark prints figures; it never fails on time.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_chain.h"
#include "rs_clock.h"
#include "rs_status.h"

static rs_chain *make(int n, rs_chain_solver solver, int threads, int max_iter, int extrapolate)
{
    rs_chain_config cfg;
    rs_chain_config_default(&cfg);
    cfg.n = n;
    cfg.solver = solver;
    cfg.threads = threads;
    cfg.max_iter = max_iter;
    cfg.extrapolate = extrapolate;
    rs_chain *c = NULL;
    char err[512];
    if (rs_chain_create(&c, &cfg, err, sizeof err) != RS_OK) {
        fprintf(stderr, "bench_artificial: %s\n", err);
        exit(1);
    }
    double *th = calloc((size_t)n, sizeof *th);
    for (int i = 0; i < n; i++)
        th[i] = 0.4 + 0.15 * (i % 10);
    rs_chain_set_angles(c, th, NULL);
    free(th);
    return c;
}

/* Mean µs per step over about `budget` s; 0 when a step failed (message
 * printed).  *iters: iterations per step over the timed steps. */
static double time_steps(rs_chain *c, double budget, double *iters)
{
    const double h = 2e-3;
    char err[512];
    for (int j = 0; j < 2; j++)
        if (rs_chain_step(c, h, err, sizeof err) != RS_OK) {
            printf("# %s\n", err);
            return 0.0;
        }
    const long it0 = rs_chain_get_stats(c).iters;
    const double t0 = rs_now_s();
    int k = 0;
    while (k < 2 || (rs_now_s() - t0 < budget && k < 100000)) {
        if (rs_chain_step(c, h, err, sizeof err) != RS_OK) {
            printf("# %s\n", err);
            return 0.0;
        }
        k++;
    }
    const double dt = rs_now_s() - t0;
    *iters = (double)(rs_chain_get_stats(c).iters - it0) / k;
    return 1e6 * dt / k;
}

int main(void)
{
    const char *cap = getenv("RAILSYM_BENCH_ARTIFICIAL_MAX_ITER");
    const int max_iter = cap ? atoi(cap) : 200000;
    const char *bs = getenv("RAILSYM_BENCH_BUDGET_S");
    const double budget = bs && atof(bs) > 0.0 ? atof(bs) : 1.0;
    const int ns[] = {5, 10, 100, 1000, 2000};
    /* RAILSYM_BENCH_THREAD_LIST: the thread counts timed, "1,2" unless set
     * (the first must be 1: the iteration counts are printed with it) */
    int threads[16] = {1, 2}, n_threads = 2;
    const char *tl = getenv("RAILSYM_BENCH_THREAD_LIST");
    if (tl && atoi(tl) == 1) {
        n_threads = 0;
        for (const char *s = tl; s && *s && n_threads < 16; s = strchr(s, ',') ? strchr(s, ',') + 1 : NULL)
            if (atoi(s) >= 1)
                threads[n_threads++] = atoi(s);
    }
    for (size_t r = 0; r < sizeof ns / sizeof ns[0]; r++) {
        const int n = ns[r];
        double iters = 0.0;
        rs_chain *d = make(n, RS_CHAIN_DIRECT, 1, max_iter, 1);
        const double td = time_steps(d, budget, &iters);
        rs_chain_free(&d);
        if (td > 0)
            printf("BENCH artificial_chain%d.direct_step_us_per_body %.4g us\n", n, td / n);
        for (int ti = 0; ti < n_threads; ti++) {
            const int T = threads[ti];
            rs_chain *a = make(n, RS_CHAIN_ARTIFICIAL, T, max_iter, 1);
            const double ta = time_steps(a, budget, &iters);
            if (ta > 0) {
                printf("BENCH artificial_chain%d.step_us_per_body_t%d %.4g us\n", n, T, ta / n);
                if (T == 1)
                    printf("BENCH artificial_chain%d.iters_per_step %.6g iterations\n", n, iters);
            }
            if (T == 1) {   /* one cold solve at the state reached */
                double *mu = calloc(3 * (size_t)n, sizeof *mu);
                int it = 0;
                char err[512];
                const int st = rs_chain_solve(a, mu, max_iter, &it, err, sizeof err);
                if (st == RS_OK)
                    printf("BENCH artificial_chain%d.iters_per_solve_cold %d iterations\n", n, it);
                else
                    printf("# artificial_chain%d cold solve: %s\n", n, err);
                free(mu);
            }
            rs_chain_free(&a);
        }
        for (int ti = 0; ti < n_threads; ti++) {   /* the Krylov solver beside them */
            const int T = threads[ti];
            rs_chain *g = make(n, RS_CHAIN_CG, T, max_iter, 1);
            const double tg = time_steps(g, budget, &iters);
            if (tg > 0) {
                printf("BENCH artificial_chain%d.cg_step_us_per_body_t%d %.4g us\n", n, T, tg / n);
                if (T == 1)
                    printf("BENCH artificial_chain%d.cg_iters_per_step %.6g iterations\n", n, iters);
            }
            if (T == 1 && tg > 0) {
                /* one warm solve at the state reached against a direct
                 * solve there, then one cold solve */
                const size_t nc = 3 * (size_t)n;
                double *mu = malloc(nc * sizeof *mu), *mu_d = malloc(nc * sizeof *mu_d);
                memcpy(mu, rs_chain_mu(g), nc * sizeof *mu);
                rs_chain *d2 = make(n, RS_CHAIN_DIRECT, 1, max_iter, 1);
                rs_chain_set_state(d2, rs_chain_coords(g), rs_chain_momenta(g), mu);
                memcpy(mu_d, mu, nc * sizeof *mu_d);
                int it = 0;
                char err[512];
                if (rs_chain_solve(d2, mu_d, 1, &it, err, sizeof err) == RS_OK &&
                    rs_chain_solve(g, mu, max_iter, &it, err, sizeof err) == RS_OK) {
                    double e = 0.0, m = 0.0;
                    for (size_t q = 0; q < nc; q++) {
                        e = fmax(e, fabs(mu[q] - mu_d[q]));
                        m = fmax(m, fabs(mu_d[q]));
                    }
                    printf("BENCH artificial_chain%d.cg_rel_err_vs_direct %.3g\n", n, e / m);
                } else
                    printf("# artificial_chain%d cg against direct: %s\n", n, err);
                memset(mu, 0, nc * sizeof *mu);
                if (rs_chain_solve(g, mu, max_iter, &it, err, sizeof err) == RS_OK)
                    printf("BENCH artificial_chain%d.cg_iters_per_solve_cold %d iterations\n", n, it);
                else
                    printf("# artificial_chain%d cg cold solve: %s\n", n, err);
                rs_chain_free(&d2);
                free(mu);
                free(mu_d);
            }
            rs_chain_free(&g);
        }
        if (n <= 100) {   /* the seed's warm start, the last mu as it is */
            rs_chain *a = make(n, RS_CHAIN_ARTIFICIAL, 1, max_iter, 0);
            if (time_steps(a, budget, &iters) > 0)
                printf("BENCH artificial_chain%d.iters_per_step_last_mu %.6g iterations\n", n, iters);
            rs_chain_free(&a);
        }
        fflush(stdout);
    }
    return 0;
}
