/*
 * bench_examples.c — microseconds per step of every shipped example
 * (generated/<model>/, as `railsym compile` wrote it), for each way of
 * loading its code: gcc -O2 (dlopen), libtcc, gcc -O3 -march=native
 * (dlopen).  Each model runs its own scenario (vehicles/examples/<model>.scn
 * over the folder's default.scn: method, step, tolerance, initial state),
 * 500 warm-up steps, then 5000 individually timed steps.  Prints
 *   BENCH <model>.step_us_median[_tcc|_o3native] <v> us   (and _min, _max)
 *   BENCH <model>.load_ms[_tcc|_o3native] <v> ms          (compile + load)
 * no suffix being gcc -O2.  The scenario's integrator matters: an RK4 step
 * evaluates the model four times, an IMEX step once.  The machine is shared,
 * so the median is the figure to compare; max shows interruptions.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rs_contact.h"
#include "rs_runtime.h"
#include "rs_scenario.h"

#define WARMUP 500
#define NSTEPS 5000

static const char *const examples[] = {"pendulum",   "double_pendulum",   "spinning_top",
                                       "four_bar",   "free_body",         "coupled_pendulums",
                                       "torque_free_body", "wheelset", "wheelset_cone", "bogie"};

static const struct way {
    rs_loader kind;
    const char *cflags, *suffix;
} ways[] = {
    {RS_LOAD_DLOPEN, RS_CFLAGS_O2, ""},
    {RS_LOAD_TCC, NULL, "_tcc"},
    {RS_LOAD_DLOPEN, RS_CFLAGS_O3_NATIVE, "_o3native"},
};

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

/* default.scn of the folder, then the example's scenario over it (what
 * `railsym run generated/NAME --scenario vehicles/examples/NAME.scn` does),
 * bound to the model. */
static int read_scenario(const char *name, const rs_model *m, rs_binding **b)
{
    char path[256], err[1024];
    rs_scenario base, top;
    rs_scenario_init(&base);
    rs_scenario_init(&top);
    int st;
    snprintf(path, sizeof path, "generated/%s/default.scn", name);
    if ((st = rs_scenario_read(path, &base, err, sizeof err)) == RS_OK) {
        snprintf(path, sizeof path, "vehicles/examples/%s.scn", name);
        if ((st = rs_scenario_read(path, &top, err, sizeof err)) == RS_OK &&
            (st = rs_scenario_overlay(&base, &top)) != RS_OK)
            snprintf(err, sizeof err, "%s: cannot lay it over default.scn", path);
    }
    if (st == RS_OK)
        st = rs_scenario_bind(&base, m, b, err, sizeof err);
    if (st != RS_OK)
        fprintf(stderr, "bench_examples: %s\n", err);
    rs_scenario_free(&top);
    rs_scenario_free(&base);
    return st;
}

static int bench(const char *name, const rs_model *m, const char *suffix)
{
    static double us[NSTEPS];
    rs_binding *b = NULL;
    if (read_scenario(name, m, &b) != RS_OK)
        return 1;
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    rs_binding_options(b, &o);
    rs_ws *ws = NULL;
    char err[512];
    int st = rs_ws_create(m, &o, &ws, err, sizeof err);
    if (st == RS_OK && (st = rs_binding_apply(b, ws, err, sizeof err)) == RS_OK &&
        (st = rs_ws_init(ws)) != RS_OK)
        snprintf(err, sizeof err, "%s", rs_ws_error(ws));
    for (int i = 0; st == RS_OK && i < WARMUP; i++)
        if ((st = rs_step(ws)) != RS_OK)
            snprintf(err, sizeof err, "%s", rs_ws_error(ws));
    for (int i = 0; st == RS_OK && i < NSTEPS; i++) {
        double t0 = now_us();
        st = rs_step(ws);
        us[i] = now_us() - t0;
        if (st != RS_OK)
            snprintf(err, sizeof err, "%s", rs_ws_error(ws));
    }
    if (st == RS_OK) {
        qsort(us, NSTEPS, sizeof us[0], cmp_double);
        printf("BENCH %s.step_us_median%s %.3f us\n", name, suffix,
               0.5 * (us[NSTEPS / 2 - 1] + us[NSTEPS / 2]));
        printf("BENCH %s.step_us_min%s %.3f us\n", name, suffix, us[0]);
        printf("BENCH %s.step_us_max%s %.3f us\n", name, suffix, us[NSTEPS - 1]);
        fflush(stdout);
    } else
        fprintf(stderr, "bench_examples: %s%s: %s\n", name, suffix, err);
    rs_ws_free(&ws);
    rs_binding_free(&b);
    return st != RS_OK;
}

int main(void)
{
    int bad = 0;
    const double start = now_us();
    for (size_t e = 0; e < sizeof examples / sizeof examples[0]; e++)
        for (size_t w = 0; w < sizeof ways / sizeof ways[0]; w++) {
            char dir[256], err[4096];
            snprintf(dir, sizeof dir, "generated/%s", examples[e]);
            rs_load_options lo;
            rs_load_options_default(&lo);
            if (ways[w].cflags)
                lo.cflags = ways[w].cflags;
            const double t0 = now_us();
            rs_loaded *h = rs_load_ex(dir, ways[w].kind, &lo, err, sizeof err);
            if (!h) {
                fprintf(stderr, "bench_examples: %s\n", err);
                bad = 1;
                continue;
            }
            printf("BENCH %s.load_ms%s %.1f ms\n", examples[e], ways[w].suffix,
                   (now_us() - t0) * 1e-3);
            bad |= bench(examples[e], rs_loaded_model(h), ways[w].suffix);
            rs_unload(&h);
        }
    fprintf(stderr, "bench_examples: %.1f s\n", (now_us() - start) * 1e-6);
    return bad;
}
