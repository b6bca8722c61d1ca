/*
 * rs_track_shift.c — ΣY low pass, sliding-window rms and the Prud'homme
 * limit (rs_track_shift.h).
 */
#include <fftw3.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rs_error.h"
#include "rs_status.h"
#include "rs_track_shift.h"

int rs_track_shift_lowpass(const double *y, size_t n, double fs, double fc, double *out, char *err, size_t errlen)
{
    if (!(fs > 0) || !(fc > 0) || !isfinite(fs) || !isfinite(fc))
        return rs_fail(err, errlen, RS_E_ARG, "sampling rate %g Hz, cut-off %g Hz: both must be positive", fs, fc);
    if (n < 2) return rs_fail(err, errlen, RS_E_ARG, "%zu samples: at least 2 are needed", n);
    for (size_t i = 0; i < n; i++)
        if (!isfinite(y[i]))
            return rs_fail(err, errlen, RS_E_NONFINITE, "sample %zu is %g: the signal must be finite", i, y[i]);
    const size_t nb = n / 2 + 1;
    double *buf = fftw_malloc(n * sizeof *buf);
    fftw_complex *X = fftw_malloc(nb * sizeof *X);
    if (!buf || !X) {
        fftw_free(buf);
        fftw_free(X);
        return rs_fail(err, errlen, RS_E_NOMEM, "out of memory for %zu samples", n);
    }
    fftw_plan fwd = fftw_plan_dft_r2c_1d((int)n, buf, X, FFTW_ESTIMATE);
    fftw_plan inv = fftw_plan_dft_c2r_1d((int)n, X, buf, FFTW_ESTIMATE);
    memcpy(buf, y, n * sizeof *buf);
    fftw_execute(fwd);
    for (size_t k = 0; k < nb; k++) {
        const double r = fs * (double)k / (double)n / fc;
        const double g = 1 / (sqrt(1 + r * r * r * r * r * r * r * r) * (double)n);
        X[k][0] *= g;
        X[k][1] *= g;
    }
    fftw_execute(inv);
    memcpy(out, buf, n * sizeof *out);
    fftw_destroy_plan(fwd);
    fftw_destroy_plan(inv);
    fftw_free(buf);
    fftw_free(X);
    return RS_OK;
}

int rs_track_shift_rms(const double *y, const double *s, size_t n, double window, double step, double *start,
                       double *rms, size_t max, size_t *nwin, char *err, size_t errlen)
{
    if (!(window > 0) || !(step > 0))
        return rs_fail(err, errlen, RS_E_ARG, "window %g m, step %g m: both must be positive", window, step);
    if (n < 2) return rs_fail(err, errlen, RS_E_ARG, "%zu samples: at least 2 are needed", n);
    for (size_t i = 1; i < n; i++)
        if (!(s[i] > s[i - 1]))
            return rs_fail(err, errlen, RS_E_ORDER, "position %zu (%g m) is not beyond the one before (%g m): the "
                           "vehicle must move forward", i, s[i], s[i - 1]);
    if (s[n - 1] - s[0] < window)
        return rs_fail(err, errlen, RS_E_ARG, "the record covers %g m of track, less than one %g m window",
                       s[n - 1] - s[0], window);
    size_t k = 0, a = 0, b = 0;
    double sum = 0;   /* Σ y² over [a, b) */
    for (;; k++) {
        const double s0 = s[0] + (double)k * step, s1 = s0 + window;
        if (s1 > s[n - 1]) break;
        if (k >= max) return rs_fail(err, errlen, RS_E_ARG, "more than %zu windows", max);
        while (b < n && s[b] < s1) { sum += y[b] * y[b]; b++; }
        while (a < b && s[a] < s0) { sum -= y[a] * y[a]; a++; }
        /* recompute now and then: a running sum drifts by rounding */
        if (k % 64 == 0) {
            sum = 0;
            for (size_t i = a; i < b; i++) sum += y[i] * y[i];
        }
        start[k] = s0;
        rms[k] = b > a ? sqrt(fmax(sum, 0) / (double)(b - a)) : 0;
    }
    *nwin = k;
    return RS_OK;
}

double rs_track_shift_limit(double q0_kN, double alpha)
{
    return alpha * (10 + 2 * q0_kN / 3);
}
