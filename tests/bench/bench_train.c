/*
 * bench_train.c — Park steps of long trains (rs_train on rs_park):
 *
 *   BENCH train<N>.step_us_t1 <v> us              median µs per step, 1 thread
 *   BENCH train<N>.step_us_t<P> <v> us            the same on P threads (P: every usable core)
 *   BENCH train<N>.parallel_efficiency_t<P> <v> ratio   t1 / (P · tP)
 *   BENCH train<N>.krylov_iters_per_step <v> iterations
 *   BENCH train<N>.step_us_per_dof_t1 <v> us      t1 / coordinates
 *
 * for N = 1, 10, 50, 200 vehicles (a locomotive with a traction ramp and
 * N − 1 loaded wagons, couplers with free play and buffers; 5 coordinates
 * per vehicle), step 1 ms.  The median is over blocks of 50 steps after a
 * warm-up (which also lets the longest-first plan settle on measured
 * costs).  P is the cores this process may use (rs_cores_usable: affinity
 * and cgroup quota); RAILSYM_BENCH_THREADS overrides it.  A benchmark
 * prints figures; it never fails on time.
 *
 * On a busy machine (docs/performance.md "Threads on a busy machine"): the
 * same train of 200 with P busy-looping child processes beside it, one per
 * usable core, killed afterwards; each figure the median of three runs:
 *
 *   BENCH train200.step_us_t1_loaded <v> us
 *   BENCH train200.step_us_t<P>_loaded <v> us
 *
 * Compiled vehicles (docs/trains.md "Compiled vehicles"): the same
 * locomotive and N − 1 wagons of vehicles/trains/freight_wagon.vdl
 * (generated/freight_wagon, loaded with libtcc; 11 coordinates each, LU
 * blocks, non-symmetric solver), N = 21 and 101:
 *
 *   BENCH train_compiled<N>.step_us_t1 <v> us            GMRES(20)
 *   BENCH train_compiled<N>.step_us_t<P> <v> us          GMRES(20)
 *   BENCH train_compiled<N>.krylov_iters_per_step <v> iterations   GMRES
 *   BENCH train_compiled<N>.step_us_t1_bicgstab <v> us
 *   BENCH train_compiled<N>.bicgstab_iters_per_step <v> iterations
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rs_cores.h"
#include "rs_load.h"
#include "rs_train.h"

static const rs_model *g_model;   /* compiled wagons (NULL: built-in) */
static rs_krylov_method g_method = RS_KRYLOV_AUTO;

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

/* Median µs per step; *iters: Krylov iterations per measured step. */
static double bench(int nv, int threads, double *iters)
{
    rs_wagon *veh = calloc((size_t)nv, sizeof *veh);
    rs_coupler *cpl = calloc((size_t)nv, sizeof *cpl);
    static const double tt[2] = {0.0, 5.0}, ff[2] = {0.0, 3e5};
    rs_loco_default(&veh[0]);
    veh[0].traction_n = 2;
    veh[0].traction_t = tt;
    veh[0].traction_f = ff;
    for (int v = 1; v < nv; v++) {
        rs_wagon_default(&veh[v]);
        if (g_model) {
            veh[v].model = g_model;
            for (int i = 0; i < g_model->n_q; i++) {
                if (strcmp(g_model->q_names[i], "x") == 0)
                    veh[v].port_x = i;
                if (strcmp(g_model->q_names[i], "pitch") == 0)
                    veh[v].port_pitch = i;
            }
        }
    }
    for (int c = 0; c + 1 < nv; c++) {
        rs_coupler_default(&cpl[c]);
        cpl[c].slack = 0.02;
        cpl[c].k_buffer = 5e7;
    }
    rs_park_opts o;
    rs_park_opts_default(&o);
    o.h = 1e-3;
    o.threads = threads;
    o.krylov.method = g_method;
    o.krylov.restart = 20;
    rs_train *tr;
    char err[256];
    if (rs_train_create(&tr, nv, veh, NULL, cpl, NULL, &o, err, sizeof err) != RS_OK ||
        rs_train_start(tr, 0.0, 0.0, 0.0) != RS_OK) {
        fprintf(stderr, "bench_train: %s\n", err);
        exit(1);
    }
    enum { WARM = 300, BLOCK = 50, NBLOCK = 30 };
    for (int s = 0; s < WARM; s++)
        if (rs_train_step(tr) != RS_OK) {
            fprintf(stderr, "bench_train: %s\n", rs_park_error(rs_train_park(tr)));
            exit(1);
        }
    const long it0 = rs_park_get_stats(rs_train_park(tr))->krylov_iters;
    double us[NBLOCK];
    for (int b = 0; b < NBLOCK; b++) {
        const double t0 = now_s();
        for (int s = 0; s < BLOCK; s++)
            if (rs_train_step(tr) != RS_OK) {
                fprintf(stderr, "bench_train: %s\n", rs_park_error(rs_train_park(tr)));
                exit(1);
            }
        us[b] = 1e6 * (now_s() - t0) / BLOCK;
    }
    *iters = (double)(rs_park_get_stats(rs_train_park(tr))->krylov_iters - it0) / (NBLOCK * BLOCK);
    rs_train_free(&tr);
    free(veh);
    free(cpl);
    qsort(us, NBLOCK, sizeof us[0], cmp_double);
    return us[NBLOCK / 2];
}

/* The background load: n children that loop on the CPU until killed.
 * Each also dies with this process (PR_SET_PDEATHSIG) and after 10 minutes
 * at most (alarm), so a bench that crashes leaves no load behind. */
static void load_start(pid_t *kids, int n)
{
    for (int i = 0; i < n; i++) {
        kids[i] = fork();
        if (kids[i] == 0) {
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            alarm(600);
            volatile unsigned long spin = 0;
            for (;;)
                spin++;
        }
        if (kids[i] < 0) {
            perror("bench_train: fork");
            exit(1);
        }
    }
}

static void load_stop(pid_t *kids, int n)
{
    for (int i = 0; i < n; i++) {
        kill(kids[i], SIGKILL);
        waitpid(kids[i], NULL, 0);
    }
}

static double median3(double a, double b, double c)
{
    double v[3] = {a, b, c};
    qsort(v, 3, sizeof v[0], cmp_double);
    return v[1];
}

/* train200 with 1 and P threads beside P busy processes (one per usable
 * core): what a user sees who runs a train while the machine does other
 * work.  Runs alternate (1, P, 1, P, ...) so that a change in the rest of
 * the machine's load touches both. */
static void bench_loaded(long P)
{
    enum { NV = 200, REPS = 3 };
    const int nload = rs_cores_usable();
    pid_t kids[256];
    load_start(kids, nload < 256 ? nload : 256);
    double t1[REPS], tp[REPS] = {0}, it;
    for (int r = 0; r < REPS; r++) {
        t1[r] = bench(NV, 1, &it);
        if (P > 1)
            tp[r] = bench(NV, (int)P, &it);
    }
    load_stop(kids, nload < 256 ? nload : 256);
    printf("BENCH train%d.step_us_t1_loaded %.2f us\n", NV, median3(t1[0], t1[1], t1[2]));
    if (P > 1)
        printf("BENCH train%d.step_us_t%ld_loaded %.2f us\n", NV, P, median3(tp[0], tp[1], tp[2]));
    fflush(stdout);
}

int main(void)
{
    long P = rs_cores_usable();
    const char *env = getenv("RAILSYM_BENCH_THREADS");
    if (env && atoi(env) >= 1)
        P = atoi(env);
    if (P < 1)
        P = 1;
    if (P > 64)
        P = 64;
    const int sizes[4] = {1, 10, 50, 200};
    for (int k = 0; k < 4; k++) {
        const int nv = sizes[k];
        double it1, itp;
        const double t1 = bench(nv, 1, &it1);
        printf("BENCH train%d.step_us_t1 %.2f us\n", nv, t1);
        if (P > 1) {
            const double tp = bench(nv, (int)P, &itp);
            printf("BENCH train%d.step_us_t%ld %.2f us\n", nv, P, tp);
            printf("BENCH train%d.parallel_efficiency_t%ld %.3f ratio\n", nv, P, t1 / (P * tp));
        }
        printf("BENCH train%d.krylov_iters_per_step %.2f iterations\n", nv, it1);
        printf("BENCH train%d.step_us_per_dof_t1 %.4f us\n", nv, t1 / (nv * RS_WAGON_NQ));
        fflush(stdout);
    }
    bench_loaded(P);
    char err[4096];
    rs_loaded *h = rs_load("generated/freight_wagon", RS_LOAD_TCC, err, sizeof err);
    if (!h) {
        fprintf(stderr, "bench_train: %s\n", err);
        return 1;
    }
    g_model = rs_loaded_model(h);
    const int csizes[2] = {21, 101};
    for (int k = 0; k < 2; k++) {
        const int nv = csizes[k];
        double it1, itp, itb;
        g_method = RS_KRYLOV_GMRES;
        const double t1 = bench(nv, 1, &it1);
        printf("BENCH train_compiled%d.step_us_t1 %.2f us\n", nv, t1);
        if (P > 1) {
            const double tp = bench(nv, (int)P, &itp);
            printf("BENCH train_compiled%d.step_us_t%ld %.2f us\n", nv, P, tp);
        }
        printf("BENCH train_compiled%d.krylov_iters_per_step %.2f iterations\n", nv, it1);
        g_method = RS_KRYLOV_BICGSTAB;
        const double tb = bench(nv, 1, &itb);
        printf("BENCH train_compiled%d.step_us_t1_bicgstab %.2f us\n", nv, tb);
        printf("BENCH train_compiled%d.bicgstab_iters_per_step %.2f iterations\n", nv, itb);
        fflush(stdout);
    }
    rs_unload(&h);
    return 0;
}
