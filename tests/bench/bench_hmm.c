/*
 * bench_hmm.c — seed 002's method (b) (runtime/train/rs_hmm.h,
 * docs/massive.md): the chain of N bars with spring-damper joints
 * (k 1e10 N/m, damping ratio 0.2 at the joint frequency) by the HMM at the
 * macro steps H = 5 ms and 20 ms, against the fully resolved RK4 of the same chain (the
 * micro step everywhere) and against the rigid chain of rs_chain.h (method
 * (a), artificial dynamics, and the direct band solve, RK4 at 2 ms).  The
 * bars start at 0.4 + 0.15 (i mod 10) rad, at rest.
 *
 * Steps differ (the micro step is 0.56 µs, the macro step 5 ms, the rigid
 * step 2 ms), so every time is per body and per millisecond of simulated
 * time:
 *
 *   BENCH hmm_chain<N>.hmm_us_per_body_ms_t1 <v> us        HMM, 1 thread
 *   BENCH hmm_chain<N>.hmm_us_per_body_ms_t2 <v> us        HMM, 2 threads (and 4, 8, … up
 *                             to RAILSYM_BENCH_HMM_MAX_THREADS, default 2, for both)
 *   BENCH hmm_chain<N>.resolved_us_per_body_ms_t1 <v> us   resolved compliant chain
 *   BENCH hmm_chain<N>.resolved_us_per_body_ms_t2 <v> us
 *   BENCH hmm_chain<N>.artificial_us_per_body_ms_t1 <v> us rigid chain, method (a)
 *   BENCH hmm_chain<N>.direct_us_per_body_ms <v> us        rigid chain, band Cholesky
 *   BENCH hmm_chain<N>.micro_interval_ms <v> ms            the automatic η for H
 *   BENCH hmm_chain<N>.micro_steps_per_macro <v> steps     η / δ
 *   BENCH hmm_chain<N>.hmm_h20_us_per_body_ms_t1 <v> us    HMM at H = 20 ms, 1 thread
 *   BENCH hmm_chain<N>.micro_interval_h20_ms <v> ms        its automatic η
 *
 * for N = 5, 10, 20, 40.  When the automatic η exceeds H (the lowest joint
 * mode falls as 1/N, so η grows with N), the HMM cannot take that step: the
 * line says so and its figures are absent.  Each figure is the mean over
 * the fastest of three rounds of the steps that fit in about a sixth of a
 * second (at least 2 steps each, after 1 warm-up step).
 * A benchmark prints figures; it never fails on time.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "rs_chain.h"
#include "rs_clock.h"
#include "rs_hmm.h"
#include "rs_status.h"

static const double K = 1e10, BUDGET = 0.5;

static void angles(int n, double *th)
{
    for (int i = 0; i < n; i++)
        th[i] = 0.4 + 0.15 * (i % 10);
}

/* The HMM or the resolved chain; NULL (message printed) if it cannot be made. */
static rs_hmm *make_hmm(int n, rs_hmm_mode mode, double H, int threads)
{
    rs_hmm_config cfg;
    rs_hmm_config_default(&cfg);
    cfg.n = n;
    cfg.stiffness = K;
    cfg.damping = rs_hmm_damping_for_ratio(&cfg, 0.2);
    cfg.mode = mode;
    cfg.macro_step = H;
    cfg.threads = threads;
    rs_hmm *h = NULL;
    char err[512];
    if (rs_hmm_create(&h, &cfg, err, sizeof err) != RS_OK) {
        printf("# hmm_chain%d: %s\n", n, err);
        return NULL;
    }
    double *th = calloc((size_t)n, sizeof *th);
    angles(n, th);
    rs_hmm_set_angles(h, th, NULL);
    free(th);
    return h;
}

/* µs per simulated ms of steps of dt, the fastest of three rounds (the
 * machine is shared: the least disturbed round is the best estimate); 0
 * when a step failed. */
static double time_hmm(rs_hmm *h, double dt)
{
    char err[512];
    if (rs_hmm_step(h, dt, err, sizeof err) != RS_OK) {
        printf("# %s\n", err);
        return 0.0;
    }
    double best = 0.0;
    for (int round = 0; round < 3; round++) {
        const double t0 = rs_now_s();
        int k = 0;
        while (k < 2 || (rs_now_s() - t0 < BUDGET / 3 && k < 100000)) {
            if (rs_hmm_step(h, dt, err, sizeof err) != RS_OK) {
                printf("# %s\n", err);
                return 0.0;
            }
            k++;
        }
        const double us = 1e6 * (rs_now_s() - t0) / (k * dt * 1e3);
        best = round == 0 || us < best ? us : best;
    }
    return best;
}

static double time_chain(int n, rs_chain_solver solver)
{
    rs_chain_config cfg;
    rs_chain_config_default(&cfg);
    cfg.n = n;
    cfg.solver = solver;
    cfg.max_iter = 200000;
    rs_chain *c = NULL;
    char err[512];
    if (rs_chain_create(&c, &cfg, err, sizeof err) != RS_OK) {
        printf("# %s\n", err);
        return 0.0;
    }
    double *th = calloc((size_t)n, sizeof *th);
    angles(n, th);
    rs_chain_set_angles(c, th, NULL);
    free(th);
    const double dt = 2e-3;
    int ok = rs_chain_step(c, dt, err, sizeof err) == RS_OK;
    double us = 0.0;
    for (int round = 0; round < 3 && ok; round++) {   /* the fastest of three, as above */
        const double t0 = rs_now_s();
        int k = 0;
        while (ok && (k < 2 || (rs_now_s() - t0 < BUDGET / 3 && k < 100000))) {
            ok = rs_chain_step(c, dt, err, sizeof err) == RS_OK;
            k++;
        }
        const double r = 1e6 * (rs_now_s() - t0) / (k * dt * 1e3);
        us = round == 0 || r < us ? r : us;
    }
    rs_chain_free(&c);
    if (!ok)
        printf("# %s\n", err);
    return ok ? us : 0.0;
}

int main(void)
{
    const char *mt = getenv("RAILSYM_BENCH_HMM_MAX_THREADS");
    const int max_threads = mt && atoi(mt) >= 1 ? atoi(mt) : 2;
    const int ns[] = {5, 10, 20, 40};
    for (size_t r = 0; r < sizeof ns / sizeof ns[0]; r++) {
        const int n = ns[r];
        /* (H, threads): 20 ms on 1 thread, then 5 ms on 1, 2, 4 … max_threads */
        for (int run = 0, T = 1; T <= max_threads; run++, T = run == 1 ? 1 : 2 * T) {
            const double H = run == 0 ? 0.02 : 0.005;
            const char *tag = run == 0 ? "_h20" : "";
            rs_hmm_config cfg;   /* the automatic η, before rs_hmm_create refuses η > H */
            rs_hmm_config_default(&cfg);
            cfg.n = n;
            cfg.stiffness = K;
            cfg.macro_step = H;
            const double eta = rs_hmm_auto_interval(&cfg);
            if (T == 1) {
                printf("BENCH hmm_chain%d.micro_interval%s_ms %.4g ms\n", n, tag, 1e3 * eta);
                if (run == 1)   /* η / δ, δ = 2π/(2 ω_J)/20 */
                    printf("BENCH hmm_chain%d.micro_steps_per_macro %.0f steps\n", n,
                           ceil(eta / (6.283185307179586 / (2.0 * rs_hmm_joint_frequency(&cfg)) / 20.0)));
            }
            rs_hmm *a = NULL;
            if (eta > H)
                printf("# hmm_chain%d: the automatic micro-interval %.3g ms exceeds the macro step %g ms: no HMM "
                       "figure\n",
                       n, 1e3 * eta, 1e3 * H);
            else if ((a = make_hmm(n, RS_HMM_AVERAGED, H, T)) != NULL) {
                const double t = time_hmm(a, H);
                if (t > 0)
                    printf("BENCH hmm_chain%d.hmm%s_us_per_body_ms_t%d %.4g us\n", n, tag, T, t / n);
            }
            rs_hmm_free(&a);
            if (run > 0) {
                rs_hmm *res = make_hmm(n, RS_HMM_RESOLVED, H, T);
                if (res) {
                    const double t = time_hmm(res, 1e-4);
                    if (t > 0)
                        printf("BENCH hmm_chain%d.resolved_us_per_body_ms_t%d %.4g us\n", n, T, t / n);
                }
                rs_hmm_free(&res);
            }
            fflush(stdout);
        }
        const double ta = time_chain(n, RS_CHAIN_ARTIFICIAL);
        if (ta > 0)
            printf("BENCH hmm_chain%d.artificial_us_per_body_ms_t1 %.4g us\n", n, ta / n);
        const double td = time_chain(n, RS_CHAIN_DIRECT);
        if (td > 0)
            printf("BENCH hmm_chain%d.direct_us_per_body_ms %.4g us\n", n, td / n);
        fflush(stdout);
    }
    return 0;
}
