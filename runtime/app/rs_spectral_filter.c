/*
 * rs_spectral_filter.c — zero-phase frequency-domain filtering and the
 * Butterworth magnitudes (rs_spectral_filter.h).
 */
#include <fftw3.h>
#include <math.h>
#include <string.h>

#include "rs_error.h"
#include "rs_spectral_filter.h"
#include "rs_status.h"

int rs_spectral_filter(const double *y, size_t n, double fs, rs_spectral_gain gain, const void *ctx, double *out,
                       char *err, size_t errlen)
{
    if (!(fs > 0) || !isfinite(fs))
        return rs_fail(err, errlen, RS_E_ARG, "sampling rate %g Hz: it must be a positive number", fs);
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
        /* FFTW's inverse is unnormalised: the 1/n goes with the gain */
        const double g = gain(fs * (double)k / (double)n, ctx) / (double)n;
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

double rs_butterworth_lowpass_gain(double f, double fc, int order)
{
    return 1 / sqrt(1 + pow(f / fc, 2.0 * order));
}

double rs_butterworth_highpass_gain(double f, double fc, int order)
{
    if (f <= 0) return 0;
    return 1 / sqrt(1 + pow(fc / f, 2.0 * order));
}
