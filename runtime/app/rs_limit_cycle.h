/*
 * rs_limit_cycle.h — what one constant-speed run did with its disturbance:
 * decayed, grew, or settled on a limit cycle, and how large that cycle is
 * (docs/critical_speed.md).  The classifier behind `railsym critical-speed
 * --bifurcation` (rs_bifurcation.h).
 *
 *   rs_peaks p;  rs_peaks_init(&p);              // rs_envelope.h: extrema on the fly
 *   for each sample: rs_peaks_add(&p, t, y);
 *   rs_lc_options o;  rs_lc_options_default(&o);
 *   rs_lc c;  rs_lc_classify(&p, t_start, t_end, &o, &c);
 *
 * Window: the second half of the run (t_mid = (t_start + t_end) / 2 on):
 * the end state, after the transients the disturbance excites.  Its
 * extrema above 1e-6 of the largest (below: rounding noise of a motion that
 * died away) give, by least squares of ln|y_k| against t_k, the rate σ
 * (1/s) and its standard error se = sqrt(SSR / (n − 2) / Σ(t − t̄)²); the
 * frequency f = (n − 1) / (2 × their span).  The relative change of the
 * peaks per period is c = e^{σ/f} − 1.
 *
 * Classes (thresholds in rs_lc_options):
 *   DECAYING     c < −change_tol and |σ| > sig · se, or no oscillation left
 *                (fewer than 4 extrema in the window, or every one of them
 *                below amp_floor): the disturbance dies away;
 *   GROWING      c > change_tol and |σ| > sig · se;
 *   LIMIT_CYCLE  |c| <= change_tol: the peaks keep their size within
 *                change_tol per period — a limit cycle of amplitude A;
 *   UNCLEAR      |c| > change_tol but |σ| <= sig · se: the peaks scatter
 *                more than they trend (e.g. contact jumps), no verdict.
 * Amplitude A: the largest |y| at an extremum in the last `periods` periods
 * of the run (all of the window if it is shorter).
 */
#ifndef RS_LIMIT_CYCLE_H
#define RS_LIMIT_CYCLE_H

#include "rs_envelope.h"

enum { RS_LC_DECAYING = 0, RS_LC_GROWING = 1, RS_LC_LIMIT_CYCLE = 2, RS_LC_UNCLEAR = 3 };

typedef struct rs_lc_options {
    double change_tol;   /* relative change of the peaks per period that still
                            counts as a limit cycle, default 0.01 (1 %)       */
    double sig;          /* a trend is real when |σ| > sig · se, default 3   */
    double amp_floor;    /* m: smaller peaks are no oscillation, default 1e-6 */
    double periods;      /* amplitude over the last `periods` periods, default 3 */
} rs_lc_options;

typedef struct rs_lc {
    int cls;             /* RS_LC_*                                          */
    double amp;          /* m, end-of-run peak amplitude (0: none left)      */
    double rate, rate_se;  /* 1/s, NaN with fewer than 4 extrema            */
    double freq;         /* Hz, NaN likewise                                 */
    double change;       /* relative change per period, NaN likewise        */
    int fitted;          /* extrema in the fit                               */
} rs_lc;

void rs_lc_options_default(rs_lc_options *o);

/* Classifies the extrema of p collected over [t_start, t_end].  Returns
 * RS_OK or RS_E_NOMEM (p ran out of memory). */
int rs_lc_classify(const rs_peaks *p, double t_start, double t_end, const rs_lc_options *o, rs_lc *out);

/* "decaying", "growing", "limit cycle", "unclear". */
const char *rs_lc_name(int cls);

#endif /* RS_LIMIT_CYCLE_H */
