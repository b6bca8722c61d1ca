/*
 * rs_track_window.c — sliding-window rms and mean along the track
 * (rs_track_window.h).
 */
#include <math.h>

#include "rs_error.h"
#include "rs_status.h"
#include "rs_track_window.h"

int rs_track_window(rs_track_window_stat stat, const double *y, const double *s, size_t n, double window,
                    double step, double *start, double *value, size_t max, size_t *nwin, char *err, size_t errlen)
{
    if (!(window > 0) || !(step > 0) || !isfinite(window) || !isfinite(step))
        return rs_fail(err, errlen, RS_E_ARG, "window %g m, step %g m: both must be positive", window, step);
    if (n < 2) return rs_fail(err, errlen, RS_E_ARG, "%zu samples: at least 2 are needed", n);
    for (size_t i = 1; i < n; i++)
        if (!(s[i] > s[i - 1]))
            return rs_fail(err, errlen, RS_E_ORDER, "position %zu (%g m) is not beyond the one before (%g m): the "
                           "vehicle must move forward", i, s[i], s[i - 1]);
    if (s[n - 1] - s[0] < window)
        return rs_fail(err, errlen, RS_E_ARG, "the record covers %g m of track, less than one %g m window",
                       s[n - 1] - s[0], window);
    const int sq = stat == RS_TRACK_WINDOW_RMS;
    size_t k = 0, a = 0, b = 0;
    double sum = 0;   /* Σ y (or y²) over [a, b) */
    for (;; k++) {
        const double s0 = s[0] + (double)k * step, s1 = s0 + window;
        if (s1 > s[n - 1]) break;
        if (k >= max) return rs_fail(err, errlen, RS_E_ARG, "more than %zu windows", max);
        while (b < n && s[b] < s1) { sum += sq ? y[b] * y[b] : y[b]; b++; }
        while (a < b && s[a] < s0) { sum -= sq ? y[a] * y[a] : y[a]; a++; }
        /* recompute now and then: a running sum drifts by rounding */
        if (k % 64 == 0) {
            sum = 0;
            for (size_t i = a; i < b; i++) sum += sq ? y[i] * y[i] : y[i];
        }
        if (b == a)
            return rs_fail(err, errlen, RS_E_ARG, "the %g m window at %g m holds no sample (samples %g m apart "
                           "there): write the results more often (the scenario's `output`)", window, s0,
                           a < n && a > 0 ? s[a] - s[a - 1] : s[1] - s[0]);
        start[k] = s0;
        const double m = sum / (double)(b - a);
        value[k] = sq ? sqrt(fmax(m, 0)) : m;
    }
    *nwin = k;
    return RS_OK;
}
