/*
 * bench_klu_orderings.c — the sparse LU's orderings on the wheelset example
 * (generated/wheelset with vehicles/examples/wheelset.scn, gcc -O2 code):
 * what RS_KLU_AUTO measures at rs_ws_init and what it picks, then full steps
 * with each ordering fixed.  Prints, for each candidate NAME in amd, colamd,
 * natural and their _btf forms:
 *   BENCH wheelset.klu_NAME_us          one refactor + solve of the dynamics
 *                                       and projection matrices (fastest of
 *                                       1000 rounds, AUTO's own trial)
 *   BENCH wheelset.klu_NAME_fragile     pivots that may vanish as it moves
 *   BENCH wheelset.klu_NAME_lu_nnz      entries of L + U
 *   BENCH wheelset.step_us_median_klu_NAME   median of 3000 timed steps
 *   BENCH wheelset.klu_NAME_fallbacks   full re-factorizations in those steps
 * and the choice as BENCH wheelset.klu_chosen_NAME 1 flag (with the name on
 * stderr).  The machine is shared: compare medians.
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
#define NSTEPS 3000

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static rs_binding *binding(const rs_model *m)
{
    char err[1024];
    rs_scenario base, top;
    rs_scenario_init(&base);
    rs_scenario_init(&top);
    rs_binding *b = NULL;
    int st = rs_scenario_read("generated/wheelset/default.scn", &base, err, sizeof err);
    if (!st)
        st = rs_scenario_read("vehicles/examples/wheelset.scn", &top, err, sizeof err);
    if (!st && rs_scenario_overlay(&base, &top))
        st = RS_E_NOMEM;
    if (!st)
        st = rs_scenario_bind(&base, m, &b, err, sizeof err);
    if (st)
        fprintf(stderr, "bench_klu_orderings: %s\n", err);
    rs_scenario_free(&top);
    rs_scenario_free(&base);
    return b;
}

/* A set-up workspace with the given ordering (RS_KLU_AUTO: btf -1). */
static rs_ws *make_ws(const rs_model *m, rs_binding *b, int ordering, int btf, int trials)
{
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    rs_binding_options(b, &o);
    o.klu_ordering = ordering;
    o.klu_btf = btf;
    o.klu_trials = trials;
    rs_ws *ws = NULL;
    char err[512];
    int st = rs_ws_create(m, &o, &ws, err, sizeof err);
    if (st == RS_OK && (st = rs_binding_apply(b, ws, err, sizeof err)) == RS_OK &&
        (st = rs_ws_init(ws)) != RS_OK)
        snprintf(err, sizeof err, "%s", rs_ws_error(ws));
    if (st != RS_OK) {
        fprintf(stderr, "bench_klu_orderings: %s: %s\n", rs_klu_ordering_name(ordering, btf), err);
        rs_ws_free(&ws);
    }
    return ws;
}

int main(void)
{
    char err[4096];
    rs_load_options lo;
    rs_load_options_default(&lo);
    rs_loaded *h = rs_load_ex("generated/wheelset", RS_LOAD_DLOPEN, &lo, err, sizeof err);
    if (!h) {
        fprintf(stderr, "bench_klu_orderings: %s\n", err);
        return 1;
    }
    const rs_model *m = rs_loaded_model(h);
    rs_binding *b = binding(m);
    int bad = !b;
    rs_ws *ws = b ? make_ws(m, b, RS_KLU_AUTO, -1, 1000) : NULL;
    if (ws) {
        rs_klu_info ki;
        rs_ws_klu_info(ws, &ki);
        for (int k = 0; k < RS_KLU_CANDIDATES; k++) {
            const char *name = rs_klu_ordering_name(k / 2, k % 2);
            printf("BENCH wheelset.klu_%s_us %.3f us\n", name, ki.cand_us[k]);
            printf("BENCH wheelset.klu_%s_fragile %d count\n", name, ki.cand_fragile[k]);
            printf("BENCH wheelset.klu_%s_lu_nnz %d count\n", name, ki.cand_lu_nnz[k]);
        }
        const char *chosen = rs_klu_ordering_name(ki.ordering, ki.btf);
        printf("BENCH wheelset.klu_chosen_%s 1 flag\n", chosen);
        fprintf(stderr, "bench_klu_orderings: wheelset: %d x %d system, %d entries; AUTO chose %s\n",
                ki.n, ki.n, ki.nnz, chosen);
        rs_ws_free(&ws);
    } else
        bad = 1;
    static double us[NSTEPS];
    for (int k = 0; b && k < RS_KLU_CANDIDATES; k++) {
        const char *name = rs_klu_ordering_name(k / 2, k % 2);
        if (!(ws = make_ws(m, b, k / 2, k % 2, 0))) {
            bad = 1;
            continue;
        }
        int st = RS_OK;
        for (int i = 0; st == RS_OK && i < WARMUP; i++)
            st = rs_step(ws);
        for (int i = 0; st == RS_OK && i < NSTEPS; i++) {
            const double t0 = now_us();
            st = rs_step(ws);
            us[i] = now_us() - t0;
        }
        if (st == RS_OK) {
            qsort(us, NSTEPS, sizeof us[0], cmp_double);
            printf("BENCH wheelset.step_us_median_klu_%s %.3f us\n", name,
                   0.5 * (us[NSTEPS / 2 - 1] + us[NSTEPS / 2]));
            printf("BENCH wheelset.klu_%s_fallbacks %ld count\n", name,
                   rs_ws_stats(ws)->refactor_fallbacks);
        } else {
            fprintf(stderr, "bench_klu_orderings: %s: %s\n", name, rs_ws_error(ws));
            bad = 1;
        }
        rs_ws_free(&ws);
    }
    rs_binding_free(&b);
    rs_unload(&h);
    return bad;
}
