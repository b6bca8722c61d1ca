/*
 * rs_envelope.h — growth or decay rate and frequency of an oscillation from
 * a sampled signal: the figures of a hunting stability analysis
 * (docs/sweeps.md, "railsym critical-speed").
 *
 *   rs_peaks p;  rs_peaks_init(&p);
 *   for each row: rs_peaks_add(&p, t, y);      // streaming: extrema are found on the fly
 *   rs_envelope e;  rs_envelope_fit(&p, &e);   // e.rate (1/s), e.freq (Hz)
 *   rs_peaks_free(&p);
 *
 * The signal oscillates about zero (a lateral displacement on straight
 * track).  Extrema: a sample that is a local maximum with y > 0, or a local
 * minimum with y < 0, refined by the parabola through it and its two
 * neighbours; two extrema of the same sign in a row (noise near a peak)
 * keep the larger |y|.  So the extrema alternate in sign, half a period
 * apart.
 *
 * Fit: least squares of ln|y_k| against t_k over the extrema, the first one
 * left out (the initial transient: the disturbance excites the well-damped
 * modes too) and those below 1e-6 of the largest left out (numerical noise
 * once a stable motion has died away).  For y = A e^{σt} sin(ωt + φ) the
 * extrema lie where tan(ωt + φ) = ω/σ, exactly half a period apart, and
 * their |y| grow by e^{σπ/ω} from one to the next: the slope is σ exactly.
 * Frequency: (number of extrema − 1) / (2 × their time span), over the same
 * extrema.  Fewer than 3 extrema fitted: rate and frequency are NaN (status
 * RS_FEW_EXTREMA).
 *
 * Allocation: rs_peaks_add grows an array of extrema (post-processing, never
 * inside a step).
 */
#ifndef RS_ENVELOPE_H
#define RS_ENVELOPE_H

#include <stddef.h>

#include "rs_status.h"

typedef struct rs_peaks {
    double *t, *a;             /* extrema: times and signed values        */
    int n, cap;
    double t1, y1, t2, y2;     /* the last two samples (t2 the newest)     */
    long samples;
    int nomem;                 /* an allocation failed: rs_envelope_fit fails */
} rs_peaks;


typedef struct rs_envelope {
    double rate;               /* 1/s, > 0 growing, < 0 decaying; NaN if too few extrema */
    double freq;               /* Hz; NaN if too few extrema                              */
    int extrema;               /* extrema found                                           */
    int fitted;                /* extrema used by the fit                                 */
    double amp_max;            /* largest |y| at an extremum (0 if none)                  */
    double t_first, t_last;    /* times of the first and last fitted extrema              */
} rs_envelope;

void rs_peaks_init(rs_peaks *p);
void rs_peaks_free(rs_peaks *p);

/* One sample (t increasing).  Returns 0, or -1 when memory ran out (then
 * the fit fails too). */
int rs_peaks_add(rs_peaks *p, double t, double y);

/* Rate and frequency of what was added.  Returns RS_OK,
 * RS_FEW_EXTREMA (rate, freq NaN) or RS_E_NOMEM. */
int rs_envelope_fit(const rs_peaks *p, rs_envelope *e);

/* The same for arrays t[n], y[n] (allocates the extrema; returns as above). */
int rs_envelope_of(const double *t, const double *y, size_t n, rs_envelope *e);

#endif /* RS_ENVELOPE_H */
