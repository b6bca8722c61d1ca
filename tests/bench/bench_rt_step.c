/*
 * bench_rt_step.c — microseconds per IMEX step of the runtime's test
 * fixtures, for each way of loading the model code: libtcc, gcc -O2
 * (dlopen) and gcc -O3 -march=native (dlopen).  Median, min and max of
 * 2000 individually timed steps after 200 warm-up steps.  Prints
 *   BENCH <model>.step_us_median[_tcc|_o3native] <v> us   (and _min, _max)
 * The fixtures are tiny, so these figures mostly measure the runtime's
 * per-step overhead (assembly, KLU refactor and solve, projections).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt_fixtures.h"

#define WARMUP 200
#define NSTEPS 2000

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

static int bench(const rs_model *m, const char *suffix)
{
    static double us[NSTEPS];
    rs_ws *ws = rt_ws_new(m, RS_IMEX_EULER, 1e-3, 1e-6);
    if (m->n_q == 1)
        rs_ws_q(ws)[0] = 2.0;
    else if (m->n_q == 2) {
        rs_ws_q(ws)[0] = 0.8;
        rs_ws_q(ws)[1] = -0.6;
    } else
        rt_fourbar_assemble(rs_ws_p(ws), 0.6, rs_ws_q(ws));
    rs_ws_qd(ws)[0] = 1.0;
    for (int i = 0; i < WARMUP; i++)
        if (rs_step(ws)) {
            fprintf(stderr, "%s: %s\n", m->name, rs_ws_error(ws));
            return 1;
        }
    for (int i = 0; i < NSTEPS; i++) {
        double t0 = now_us();
        int st = rs_step(ws);
        us[i] = now_us() - t0;
        if (st) {
            fprintf(stderr, "%s: %s\n", m->name, rs_ws_error(ws));
            return 1;
        }
    }
    qsort(us, NSTEPS, sizeof us[0], cmp_double);
    printf("BENCH %s.step_us_median%s %.3f us\n", m->name, suffix, 0.5 * (us[NSTEPS / 2 - 1] + us[NSTEPS / 2]));
    printf("BENCH %s.step_us_min%s %.3f us\n", m->name, suffix, us[0]);
    printf("BENCH %s.step_us_max%s %.3f us\n", m->name, suffix, us[NSTEPS - 1]);
    rs_ws_free(&ws);
    return 0;
}

int main(void)
{
    static const char *const names[] = {"rt_pendulum", "rt_cartpend", "rt_fourbar"};
    static const struct {
        rs_loader kind;
        const char *cflags, *suffix;
    } ways[] = {
        {RS_LOAD_DLOPEN, RS_CFLAGS_O2, ""},
        {RS_LOAD_TCC, NULL, "_tcc"},
        {RS_LOAD_DLOPEN, RS_CFLAGS_O3_NATIVE, "_o3native"},
    };
    int bad = 0;
    for (int f = 0; f < 3; f++)
        for (int w = 0; w < 3; w++) {
            char dir[256], err[2048];
            snprintf(dir, sizeof dir, "%s/%s", RT_MODELS_DIR, names[f]);
            rs_load_options o;
            rs_load_options_default(&o);
            if (ways[w].cflags)
                o.cflags = ways[w].cflags;
            rs_loaded *h = rs_load_ex(dir, ways[w].kind, &o, err, sizeof err);
            if (!h) {
                fprintf(stderr, "bench_rt_step: %s\n", err);
                bad = 1;
                continue;
            }
            bad |= bench(rs_loaded_model(h), ways[w].suffix);
            rs_unload(&h);
        }
    return bad;
}
