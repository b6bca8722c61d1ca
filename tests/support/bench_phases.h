/*
 * bench_phases.h — seed 003's Table 1 from the runtime's phase timers
 * (rs_options.profile, rs_stats.phase_s): shared by bench_contact_phases.c
 * and bench_feve3000.c.
 */
#ifndef BENCH_PHASES_H
#define BENCH_PHASES_H

#include "rs_ws.h"

/* Runs `nsteps` steps of ws (created with rs_options.profile = 1) and gives
 * each phase's median over the steps of its time in that step [µs], and the
 * median of their sum.  Returns RS_OK, or a step's error (message in err). */
int bench_phase_medians(rs_ws *ws, int nsteps, double med_us[RS_PHASE_COUNT], double *total_us,
                        char *err, size_t errlen);

/* Median of v[0..n) (sorts v). */
double bench_median(double *v, int n);

#endif
