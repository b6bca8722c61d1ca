/* bench_phases.c — see bench_phases.h. */
#include "bench_phases.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(double *v, int n)
{
    if (n <= 0)
        return 0;
    qsort(v, (size_t)n, sizeof v[0], cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int bench_phase_medians(rs_ws *ws, int nsteps, double med_us[RS_PHASE_COUNT], double *total_us,
                        char *err, size_t errlen)
{
    double *ph = malloc((size_t)(RS_PHASE_COUNT + 1) * (size_t)nsteps * sizeof(double));
    if (!ph) {
        snprintf(err, errlen, "out of memory");
        return RS_E_NOMEM;
    }
    double *total = ph + (size_t)RS_PHASE_COUNT * (size_t)nsteps;
    int st = RS_OK;
    for (int i = 0; i < nsteps; i++) {
        double before[RS_PHASE_COUNT];
        memcpy(before, rs_ws_stats(ws)->phase_s, sizeof before);
        if ((st = rs_step(ws)) != RS_OK) {
            snprintf(err, errlen, "%s", rs_ws_error(ws));
            break;
        }
        const double *after = rs_ws_stats(ws)->phase_s;
        total[i] = 0;
        for (int k = 0; k < RS_PHASE_COUNT; k++) {
            ph[(size_t)k * (size_t)nsteps + (size_t)i] = 1e6 * (after[k] - before[k]);
            total[i] += 1e6 * (after[k] - before[k]);
        }
    }
    if (st == RS_OK) {
        for (int k = 0; k < RS_PHASE_COUNT; k++)
            med_us[k] = bench_median(ph + (size_t)k * (size_t)nsteps, nsteps);
        *total_us = bench_median(total, nsteps);
    }
    free(ph);
    return st;
}
