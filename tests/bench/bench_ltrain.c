/*
 * bench_ltrain.c — seed 002's two methods on the longitudinal train in
 * natural coordinates (rs_ltrain.h): a locomotive (300 kN) and N − 1
 * loaded wagons at 10 m/s on level track.
 *
 * (a) rigid couplers, RK4 steps of h = 10 ms, tolerance 1e-10:
 *   BENCH ltrain<N>.step_us_per_vehicle_<S>_t<T> <v> us
 *       median µs per step and vehicle, S = artificial (the artificial
 *       dynamics, warm-started), direct (tridiagonal Cholesky) or cg
 *       (Jacobi-preconditioned conjugate gradients, warm-started), T threads
 *   BENCH ltrain<N>.iters_per_solve_cg <v> iterations
 *       mean CG iterations per solve over the timed steps (no direct first step)
 *   BENCH ltrain<N>.cg_rel_err_vs_direct <v>
 *       max|μ − μ_direct| / max|μ_direct| of one warm CG solve at the state reached
 *   BENCH ltrain<N>.iters_per_solve_artificial <v> iterations
 *       mean artificial iterations per solve over the timed steps (the
 *       first step solved directly: direct_first)
 *   BENCH ltrain<N>.iters_first_solves_artificial <v> iterations
 *       the first 2 steps' iterations from μ = 0 (cold; N <= 100)
 * (b) stiff couplers, k = 1e12 N/m, damping ratio 0.2, sin⁴ kernel, δ and
 *     η automatic, the macro step H the least of 0.1, 0.25, 0.5, 1 s whose
 *     automatic η fits in it:
 *   BENCH ltrain<N>.step_us_per_vehicle_<S>_t<T> <v> us
 *       median µs per step of H and vehicle, S = hmm (one macro step) or
 *       resolved (RK4 at δ over the same H)
 *   BENCH ltrain<N>.hmm_macro_step_s <v> s, ltrain<N>.hmm_micro_interval_s,
 *   BENCH ltrain<N>.hmm_micro_steps_per_macro <v> steps
 *   Where no such H exists (the couplers' lowest mode falls as 1/N, so η
 *   grows as N), the HMM is left out with a '#' line and the resolved
 *   train is timed over 10 ms steps (resolved_10ms).
 *
 * N = 10, 100, 500, 2000; T from RAILSYM_BENCH_THREAD_LIST ("1,2" unless
 * set).  Medians over up to 15 steps after 3 warm-up steps, bounded by
 * about 2 s per figure.  RAILSYM_BENCH_LTRAIN_RIGID_ONLY=1 leaves (b) out.
 * A benchmark prints figures; it never fails on time.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_clock.h"
#include "rs_ltrain.h"
#include "rs_status.h"

enum { NMAX = 2000, STEPS = 15, WARM = 3 };
static const double BUDGET_S = 2.0;

static rs_wagon veh[NMAX];
static double mu_g[NMAX], mu_d[NMAX];
static rs_coupler cpl[NMAX];

static void build(int n, double k)
{
    for (int i = 0; i < n; i++) {
        if (i == 0) {
            rs_loco_default(&veh[i]);
            veh[i].traction = 3e5;
        } else {
            rs_wagon_default(&veh[i]);
        }
    }
    for (int i = 0; i + 1 < n; i++) {
        rs_coupler_default(&cpl[i]);
        cpl[i].k = k;
        const double ma = veh[i].m_body + 2 * veh[i].m_bogie, mb = veh[i + 1].m_body + 2 * veh[i + 1].m_bogie;
        cpl[i].c = 2.0 * 0.2 * sqrt(k * ma * mb / (ma + mb));
    }
}

static int cold_start;   /* 1: the next make() leaves direct_first off */

static rs_ltrain *make(int n, rs_ltrain_method me, int threads, double H)
{
    rs_ltrain_config cfg;
    rs_ltrain_config_default(&cfg);
    cfg.n = n;
    cfg.veh = veh;
    cfg.cpl = cpl;
    cfg.method = me;
    cfg.threads = threads;
    cfg.macro_step = H;
    cfg.max_iter = 10000000;
    cfg.direct_first = !cold_start;
    rs_ltrain *lt = NULL;
    char err[512];
    if (rs_ltrain_create(&lt, &cfg, err, sizeof err) != RS_OK) {
        printf("# ltrain%d: %s\n", n, err);
        return NULL;
    }
    rs_ltrain_start(lt, 0.0, 0.0, 10.0);
    return lt;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median µs per step of h and vehicle; 0 when a step failed. */
static double time_steps(rs_ltrain *lt, int n, double h)
{
    char err[512];
    double t[STEPS];
    int k = 0;
    for (int w = 0; w < WARM; w++)
        if (rs_ltrain_step(lt, h, err, sizeof err) != RS_OK) {
            printf("# %s\n", err);
            return 0.0;
        }
    const double start = rs_now_s();
    while (k < STEPS && (k < 3 || rs_now_s() - start < BUDGET_S)) {
        const double t0 = rs_now_s();
        if (rs_ltrain_step(lt, h, err, sizeof err) != RS_OK) {
            printf("# %s\n", err);
            return 0.0;
        }
        t[k++] = 1e6 * (rs_now_s() - t0) / n;
    }
    qsort(t, (size_t)k, sizeof t[0], cmp_double);
    return k % 2 ? t[k / 2] : 0.5 * (t[k / 2 - 1] + t[k / 2]);
}

int main(void)
{
    int threads[8] = {1, 2}, nt = 2;
    const char *tl = getenv("RAILSYM_BENCH_THREAD_LIST");
    if (tl && *tl) {
        nt = 0;
        for (const char *p = tl; *p && nt < 8;) {
            const int v = atoi(p);
            if (v >= 1)
                threads[nt++] = v;
            p = strchr(p, ',');
            if (!p)
                break;
            p++;
        }
    }
    const int ns[] = {10, 100, 500, 2000};
    for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++) {
        const int n = ns[j];
        /* (a) rigid */
        build(n, 1e12);
        static const rs_ltrain_method rigid[] = {RS_LTRAIN_ARTIFICIAL, RS_LTRAIN_DIRECT, RS_LTRAIN_CG};
        static const char *const rigid_name[] = {"artificial", "direct", "cg"};
        for (int r = 0; r < 3; r++)
            for (int k = 0; k < nt; k++) {
                rs_ltrain *lt = make(n, rigid[r], threads[k], 0.01);
                if (!lt)
                    continue;
                /* The first step is solved directly (direct_first): from
                 * μ = 0 the first artificial solves need about N²
                 * iterations (the tension must cross the train), then the
                 * warm start makes them cheap.  iters_first_solves_artificial
                 * is what the first 2 steps cost without it, N <= 100. */
                char err[512];
                const double us = time_steps(lt, n, 0.01);
                printf("BENCH ltrain%d.step_us_per_vehicle_%s_t%d %.4g us\n", n, rigid_name[r], threads[k], us);
                if (r == 0 && k == 0 && n <= 100) {
                    cold_start = 1;
                    rs_ltrain *cold = make(n, RS_LTRAIN_ARTIFICIAL, 1, 0.01);
                    cold_start = 0;
                    for (int w = 0; w < 2 && cold; w++)
                        rs_ltrain_step(cold, 0.01, err, sizeof err);
                    if (cold)
                        printf("BENCH ltrain%d.iters_first_solves_artificial %ld iterations\n", n,
                               rs_ltrain_get_stats(cold).iters);
                    rs_ltrain_free(&cold);
                }
                if (r == 0 && k == 0) {
                    const rs_ltrain_stats st = rs_ltrain_get_stats(lt);
                    printf("BENCH ltrain%d.iters_per_solve_artificial %.4g iterations\n", n,
                           st.solves ? (double)st.iters / st.solves : 0.0);
                }
                if (r == 2 && k == 0 && us > 0.0) {
                    const rs_ltrain_stats st = rs_ltrain_get_stats(lt);
                    printf("BENCH ltrain%d.iters_per_solve_cg %.4g iterations\n", n,
                           st.solves ? (double)st.iters / st.solves : 0.0);
                    /* one warm CG solve at the state reached against a direct one there */
                    rs_ltrain *d = make(n, RS_LTRAIN_DIRECT, 1, 0.01);
                    memcpy(mu_g, rs_ltrain_mu(lt), (size_t)(n - 1) * sizeof mu_g[0]);
                    memcpy(mu_d, mu_g, (size_t)(n - 1) * sizeof mu_d[0]);
                    if (d && rs_ltrain_copy_state(d, lt, err, sizeof err) == RS_OK &&
                        rs_ltrain_solve(d, mu_d, 1, NULL, err, sizeof err) == RS_OK &&
                        rs_ltrain_solve(lt, mu_g, 10000000, NULL, err, sizeof err) == RS_OK) {
                        double e = 0.0, m = 0.0;
                        for (int c = 0; c < n - 1; c++) {
                            e = fmax(e, fabs(mu_g[c] - mu_d[c]));
                            m = fmax(m, fabs(mu_d[c]));
                        }
                        printf("BENCH ltrain%d.cg_rel_err_vs_direct %.3g\n", n, e / m);
                    } else if (d)
                        printf("# ltrain%d cg against direct: %s\n", n, err);
                    rs_ltrain_free(&d);
                }
                rs_ltrain_free(&lt);
                fflush(stdout);
            }
        const char *ro = getenv("RAILSYM_BENCH_LTRAIN_RIGID_ONLY");
        if (ro && atoi(ro) == 1)
            continue;
        /* (b) stiff: the least macro step the automatic rule allows */
        static const double Hs[] = {0.1, 0.25, 0.5, 1.0};
        double H = 0.0, eta = 0.0, delta = 0.0;
        for (size_t h = 0; h < sizeof Hs / sizeof Hs[0] && H == 0.0; h++) {
            rs_ltrain_config cfg;
            rs_ltrain_config_default(&cfg);
            cfg.n = n;
            cfg.veh = veh;
            cfg.cpl = cpl;
            cfg.method = RS_LTRAIN_HMM;
            cfg.macro_step = Hs[h];
            rs_ltrain *lt = NULL;
            char err[512];
            if (rs_ltrain_create(&lt, &cfg, err, sizeof err) == RS_OK) {
                H = Hs[h];
                eta = rs_ltrain_micro_interval(lt);
                delta = rs_ltrain_micro_step(lt);
                rs_ltrain_free(&lt);
            }
        }
        if (H > 0.0) {
            printf("BENCH ltrain%d.hmm_macro_step_s %.4g s\n", n, H);
            printf("BENCH ltrain%d.hmm_micro_interval_s %.4g s\n", n, eta);
            printf("BENCH ltrain%d.hmm_micro_steps_per_macro %.0f steps\n", n, eta / delta);
        } else {
            printf("# ltrain%d: no macro step up to 1 s fits the automatic micro-interval (lowest coupler mode "
                   "%.3g rad/s): HMM left out\n",
                   n, rs_ltrain_lowest_frequency(&(rs_ltrain_config){.n = n, .veh = veh, .cpl = cpl}));
        }
        static const rs_ltrain_method stiff[] = {RS_LTRAIN_HMM, RS_LTRAIN_RESOLVED};
        for (int r = 0; r < 2; r++) {
            if (r == 0 && H == 0.0)
                continue;
            for (int k = 0; k < nt; k++) {
                const double step = H > 0.0 ? H : 0.01;
                rs_ltrain *lt = make(n, stiff[r], threads[k], step);
                if (!lt)
                    continue;
                const double us = time_steps(lt, n, step);
                printf("BENCH ltrain%d.step_us_per_vehicle_%s_t%d %.4g us\n", n,
                       r == 0 ? "hmm" : H > 0.0 ? "resolved" : "resolved_10ms", threads[k], us);
                rs_ltrain_free(&lt);
                fflush(stdout);
            }
        }
    }
    return 0;
}
