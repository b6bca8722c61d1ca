/*
 * rs_track_shift.c — ΣY low pass, sliding-window rms and the Prud'homme
 * limit (rs_track_shift.h), on the shared frequency-domain filter
 * (rs_spectral_filter.h) and track windows (rs_track_window.h).
 */
#include <math.h>

#include "rs_error.h"
#include "rs_spectral_filter.h"
#include "rs_status.h"
#include "rs_track_shift.h"
#include "rs_track_window.h"

static double lowpass4(double f, const void *ctx)
{
    return rs_butterworth_lowpass_gain(f, *(const double *)ctx, 4);
}

int rs_track_shift_lowpass(const double *y, size_t n, double fs, double fc, double *out, char *err, size_t errlen)
{
    if (!(fs > 0) || !(fc > 0) || !isfinite(fs) || !isfinite(fc))
        return rs_fail(err, errlen, RS_E_ARG, "sampling rate %g Hz, cut-off %g Hz: both must be positive", fs, fc);
    return rs_spectral_filter(y, n, fs, lowpass4, &fc, out, err, errlen);
}

int rs_track_shift_rms(const double *y, const double *s, size_t n, double window, double step, double *start,
                       double *rms, size_t max, size_t *nwin, char *err, size_t errlen)
{
    return rs_track_window(RS_TRACK_WINDOW_RMS, y, s, n, window, step, start, rms, max, nwin, err, errlen);
}

double rs_track_shift_limit(double q0_kN, double alpha)
{
    return alpha * (10 + 2 * q0_kN / 3);
}
