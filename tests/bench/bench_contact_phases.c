/*
 * bench_contact_phases.c — where the time of one IMEX step with wheel-rail
 * contact goes, as the rows of seed 003's Table 1, for the single wheelset
 * (generated/wheelset: S1002/60E1, 6 coordinates, 2 contacts) and the
 * two-axle bogie (generated/bogie: 18 coordinates, 4 contacts), each code
 * compiled by gcc -O2 (dlopen) and run on its scenario
 * (vehicles/examples/<model>.scn over generated/<model>/default.scn), with
 * the runtime's phase timers on (rs_options.profile; docs/runtime.md
 * "Phase timers").  500 warm-up steps, then 5000 steps; each phase's figure
 * is the median over the steps of its time in that step.  Prints
 *   BENCH <m>.t1_kalker_us       creep function, Hertz, Kalker, C^K_qq values
 *   BENCH <m>.t1_spline_us       spline look-up (coefficient input slots)
 *   BENCH <m>.t1_functions_us    generated functions of the step's start
 *                                (M, δ^NK, φ_q, γ, or the combined step)
 *   BENCH <m>.t1_constraints_us  those of the projections and contact Newton
 *                                (φ, φ_q, β, φ^d, φ^d_q, φ^d_s, β^d, or the
 *                                combined proj and newton)
 *   BENCH <m>.t1_solve_us        dynamics solution: assembly, KLU refactor, solve
 *   BENCH <m>.t1_integration_us  q update and s prediction
 *   BENCH <m>.t1_projection_us   projections' own work (Newton updates, solves)
 *   BENCH <m>.t1_other_us        input callback, state copies, checks
 *   BENCH <m>.t1_total_us        median of the whole profiled step
 *   BENCH <m>.newton_iters_per_step          contact (φ^d) + position (φ) Newton
 *   BENCH <m>.contact_newton_iters_per_step  iterations, and each apart
 *   BENCH <m>.proj_newton_iters_per_step
 *   BENCH <m>.n_q, <m>.n_contact
 * <m>.step_us_median (unprofiled, every loader) comes from bench_examples.
 * The timers cost one clock read per phase change (tens per step), so
 * t1_total_us exceeds step_us_median by about a microsecond.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_phases.h"
#include "rs_contact.h"
#include "rs_runtime.h"
#include "rs_scenario.h"

#define WARMUP 500
#define NSTEPS 5000

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
        fprintf(stderr, "bench_contact_phases: %s\n", err);
    rs_scenario_free(&top);
    rs_scenario_free(&base);
    return st;
}

static int bench(const char *name)
{
    char dir[256], err[4096];
    snprintf(dir, sizeof dir, "generated/%s", name);
    rs_loaded *h = rs_load(dir, RS_LOAD_DLOPEN, err, sizeof err);
    if (!h) {
        fprintf(stderr, "bench_contact_phases: %s\n", err);
        return 1;
    }
    const rs_model *m = rs_loaded_model(h);
    rs_binding *b = NULL;
    if (read_scenario(name, m, &b) != RS_OK) {
        rs_unload(&h);
        return 1;
    }
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    rs_binding_options(b, &o);
    o.profile = 1;
    rs_ws *ws = NULL;
    int st = rs_ws_create(m, &o, &ws, err, sizeof err);
    if (st == RS_OK && (st = rs_binding_apply(b, ws, err, sizeof err)) == RS_OK &&
        (st = rs_ws_init(ws)) != RS_OK)
        snprintf(err, sizeof err, "%s", rs_ws_error(ws));
    for (int i = 0; st == RS_OK && i < WARMUP; i++)
        if ((st = rs_step(ws)) != RS_OK)
            snprintf(err, sizeof err, "%s", rs_ws_error(ws));
    long it_c0 = 0, it_p0 = 0, steps0 = 0;
    if (st == RS_OK) {
        const rs_stats *s = rs_ws_stats(ws);
        it_c0 = s->contact_iters;
        it_p0 = s->proj_iters;
        steps0 = s->steps;
    }
    double med[RS_PHASE_COUNT], total = 0;
    if (st == RS_OK)
        st = bench_phase_medians(ws, NSTEPS, med, &total, err, sizeof err);
    if (st == RS_OK) {
        const rs_stats *s = rs_ws_stats(ws);
        const double n = (double)(s->steps - steps0);
        for (int k = 0; k < RS_PHASE_COUNT; k++)
            printf("BENCH %s.t1_%s_us %.3f us\n", name, rs_phase_name(k), med[k]);
        printf("BENCH %s.t1_total_us %.3f us\n", name, total);
        printf("BENCH %s.newton_iters_per_step %.3f iterations\n", name,
               (double)(s->contact_iters - it_c0 + s->proj_iters - it_p0) / n);
        printf("BENCH %s.contact_newton_iters_per_step %.3f iterations\n", name,
               (double)(s->contact_iters - it_c0) / n);
        printf("BENCH %s.proj_newton_iters_per_step %.3f iterations\n", name,
               (double)(s->proj_iters - it_p0) / n);
        printf("BENCH %s.n_q %d coordinates\n", name, m->n_q);
        printf("BENCH %s.n_contact %d contacts\n", name, m->n_contact);
        fflush(stdout);
    } else
        fprintf(stderr, "bench_contact_phases: %s: %s\n", name, err);
    rs_ws_free(&ws);
    rs_binding_free(&b);
    rs_unload(&h);
    return st != RS_OK;
}

int main(void)
{
    int bad = 0;
    bad |= bench("wheelset");
    bad |= bench("bogie");
    return bad;
}
