/*
 * rs_psd.c — Welch's averaged periodogram (P. D. Welch, "The use of fast
 * Fourier transform for the estimation of power spectra", IEEE Trans. Audio
 * Electroacoustics 15(2), 1967): Hann-windowed segments overlapping by half,
 * one real-to-complex FFT each (FFTW 3), one-sided density scaling.
 */
#include <fftw3.h>
#include <math.h>
#include <stdlib.h>

#include "rs_error.h"
#include "rs_psd.h"
#include "rs_status.h"

size_t rs_psd_bins(size_t nseg) { return nseg / 2 + 1; }

size_t rs_psd_default_segment(size_t n)
{
    size_t s = 8;
    while (2 * s <= n / 8) s *= 2;
    return s <= n ? s : n & ~(size_t)1;
}

int rs_psd_welch(const double *x, size_t n, double fs, size_t nseg, double *P, size_t *nseg_used,
                 char *err, size_t errlen)
{
    if (!(fs > 0) || !isfinite(fs))
        return rs_fail(err, errlen, RS_E_ARG, "the sampling rate %g is not a positive number", fs);
    if (nseg < 8 || nseg % 2 || nseg > n)
        return rs_fail(err, errlen, RS_E_ARG, "segment length %zu: it must be even, at least 8 and at most "
                       "the signal's %zu samples", nseg, n);
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return rs_fail(err, errlen, RS_E_NONFINITE, "sample %zu is %g: the signal must be finite", i, x[i]);
    const size_t nb = rs_psd_bins(nseg), hop = nseg / 2;
    double *w = malloc(nseg * sizeof *w);
    double *seg = fftw_malloc(nseg * sizeof *seg);
    fftw_complex *X = fftw_malloc(nb * sizeof *X);
    if (!w || !seg || !X) {
        free(w);
        fftw_free(seg);
        fftw_free(X);
        return rs_fail(err, errlen, RS_E_NOMEM, "out of memory for a %zu-sample segment", nseg);
    }
    /* Periodic Hann window (the DFT-even form Welch estimators use). */
    double w2 = 0;
    for (size_t i = 0; i < nseg; i++) {
        w[i] = 0.5 - 0.5 * cos(6.283185307179586 * (double)i / (double)nseg);
        w2 += w[i] * w[i];
    }
    fftw_plan plan = fftw_plan_dft_r2c_1d((int)nseg, seg, X, FFTW_ESTIMATE);
    for (size_t k = 0; k < nb; k++) P[k] = 0;
    size_t m = 0;
    for (size_t start = 0; start + nseg <= n; start += hop, m++) {
        double mean = 0;
        for (size_t i = 0; i < nseg; i++) mean += x[start + i];
        mean /= (double)nseg;
        for (size_t i = 0; i < nseg; i++) seg[i] = (x[start + i] - mean) * w[i];
        fftw_execute(plan);
        for (size_t k = 0; k < nb; k++) P[k] += X[k][0] * X[k][0] + X[k][1] * X[k][1];
    }
    fftw_destroy_plan(plan);
    const double scale = 1.0 / (fs * w2 * (double)m);
    for (size_t k = 0; k < nb; k++) {
        const int edge = k == 0 || k == nb - 1;   /* DC and Nyquist appear once */
        P[k] *= (edge ? 1.0 : 2.0) * scale;
    }
    free(w);
    fftw_free(seg);
    fftw_free(X);
    if (nseg_used) *nseg_used = m;
    return RS_OK;
}
