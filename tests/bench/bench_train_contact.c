/*
 * bench_train_contact.c — Park steps of trains whose vehicles run on
 * compliant Hertzian wheel-rail contacts with creep (rs_train_contact.h):
 * the built-in locomotive and N two-axle bogies (generated/bogie: 18
 * coordinates, 4 contacts each), the first displaced 2 mm laterally, at
 * 10 m/s on straight track, step 1 ms, GMRES(20):
 *
 *   BENCH train_contact<N>.step_us_t1 <v> us            median µs per step, 1 thread
 *   BENCH train_contact<N>.step_us_t<P> <v> us          the same on P threads
 *   BENCH train_contact<N>.krylov_iters_per_step <v> iterations
 *   BENCH train_contact<N>.step_us_t1_dlopen <v> us     the model built by cc -O3 (dlopen)
 *
 * for N = 10 and 50; the default loader is libtcc (what `railsym run`
 * uses).  The median is over blocks of 20 steps after 100 warm-up steps.
 * RAILSYM_BENCH_THREADS overrides P (default: every core).  A benchmark
 * prints figures; it never fails on time.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rs_load.h"
#include "rs_train.h"
#include "rs_train_contact.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int qi(const rs_model *m, const char *name)
{
    for (int i = 0; i < m->n_q; i++)
        if (strcmp(m->q_names[i], name) == 0)
            return i;
    fprintf(stderr, "bench_train_contact: model '%s' has no coordinate '%s'\n", m->name, name);
    exit(1);
}

static void die(const char *what, const char *msg)
{
    fprintf(stderr, "bench_train_contact: %s: %s\n", what, msg);
    exit(1);
}

static double bench(const rs_model *m, int nb, int threads, double *iters)
{
    const int nv = nb + 1;
    rs_wagon *veh = calloc((size_t)nv, sizeof *veh);
    rs_coupler *cpl = calloc((size_t)nv, sizeof *cpl);
    double *y0 = calloc((size_t)m->n_q, sizeof(double));
    unsigned char *ys = calloc((size_t)m->n_q, 1);
    if (!veh || !cpl || !y0 || !ys)
        die("setup", "out of memory");
    rs_train_wheel_contact_opts co;
    rs_train_wheel_contact_opts_default(&co);
    co.track = "vehicles/tracks/long_straight.trk";
    y0[qi(m, "front.y")] = 0.002;
    ys[qi(m, "front.y")] = 1;
    rs_loco_default(&veh[0]);
    veh[0].traction = 3e4;
    for (int v = 1; v < nv; v++) {
        rs_wagon_default(&veh[v]);
        veh[v].model = m;
        veh[v].port_x = qi(m, "x");
        veh[v].port_pitch = -1;
        veh[v].l_front = veh[v].l_rear = 2.0;
        veh[v].model_contact = &co;
        if (v == 1) {
            veh[v].init_q = y0;
            veh[v].init_q_set = ys;
        }
    }
    for (int c = 0; c + 1 < nv; c++)
        rs_coupler_default(&cpl[c]);
    rs_park_opts o;
    rs_park_opts_default(&o);
    o.h = 1e-3;
    o.threads = threads;
    o.krylov.method = RS_KRYLOV_GMRES;
    o.krylov.restart = 20;
    rs_train *tr;
    char err[512];
    if (rs_train_create(&tr, nv, veh, NULL, cpl, NULL, &o, err, sizeof err) != RS_OK)
        die("create", err);
    if (rs_train_start(tr, 0.0, 0.0, 10.0) != RS_OK)
        die("start", rs_train_error(tr));
    enum { WARM = 100, BLOCK = 20, NBLOCK = 15 };
    for (int s = 0; s < WARM; s++)
        if (rs_train_step(tr) != RS_OK)
            die("step", rs_park_error(rs_train_park(tr)));
    const long it0 = rs_park_get_stats(rs_train_park(tr))->krylov_iters;
    double us[NBLOCK];
    for (int b = 0; b < NBLOCK; b++) {
        const double t0 = now_s();
        for (int s = 0; s < BLOCK; s++)
            if (rs_train_step(tr) != RS_OK)
                die("step", rs_park_error(rs_train_park(tr)));
        us[b] = 1e6 * (now_s() - t0) / BLOCK;
    }
    *iters = (double)(rs_park_get_stats(rs_train_park(tr))->krylov_iters - it0) / (NBLOCK * BLOCK);
    rs_train_free(&tr);
    free(veh);
    free(cpl);
    free(y0);
    free(ys);
    qsort(us, NBLOCK, sizeof us[0], cmp_double);
    return us[NBLOCK / 2];
}

int main(void)
{
    long P = sysconf(_SC_NPROCESSORS_ONLN);
    const char *env = getenv("RAILSYM_BENCH_THREADS");
    if (env && atoi(env) >= 1)
        P = atoi(env);
    if (P < 1)
        P = 1;
    if (P > 64)
        P = 64;
    char err[4096];
    rs_loaded *h = rs_load("generated/bogie", RS_LOAD_TCC, err, sizeof err);
    if (!h)
        die("generated/bogie", err);
    rs_loaded *hd = rs_load("generated/bogie", RS_LOAD_DLOPEN, err, sizeof err);
    if (!hd)
        fprintf(stderr, "bench_train_contact: no dlopen build (%s)\n", err);
    const int sizes[2] = {10, 50};
    for (int k = 0; k < 2; k++) {
        const int nb = sizes[k];
        double it1, itp, itd;
        const double t1 = bench(rs_loaded_model(h), nb, 1, &it1);
        printf("BENCH train_contact%d.step_us_t1 %.2f us\n", nb, t1);
        if (P > 1) {
            const double tp = bench(rs_loaded_model(h), nb, (int)P, &itp);
            printf("BENCH train_contact%d.step_us_t%ld %.2f us\n", nb, P, tp);
        }
        printf("BENCH train_contact%d.krylov_iters_per_step %.2f iterations\n", nb, it1);
        if (hd) {
            const double td = bench(rs_loaded_model(hd), nb, 1, &itd);
            printf("BENCH train_contact%d.step_us_t1_dlopen %.2f us\n", nb, td);
        }
        fflush(stdout);
    }
    rs_unload(&hd);
    rs_unload(&h);
    return 0;
}
