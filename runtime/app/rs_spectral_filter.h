/*
 * rs_spectral_filter.h — zero-phase filtering of a sampled record in the
 * frequency domain, shared by the analyses (track shifting force, EN 14363
 * assessment; docs/analyses.md): one FFT of the whole record, each bin
 * multiplied by a real gain |H(f)|, transformed back.  Zero phase keeps the
 * filtered signal aligned with the positions of its samples; the record is
 * treated as periodic (a record that ends far from where it starts gets a
 * transient at both ends).
 *
 * The Butterworth magnitudes of order N (N poles):
 *   low pass   1/√(1 + (f/fc)^(2N)),   high pass  1/√(1 + (fc/f)^(2N))
 * (1/√2 at f = fc for both).
 *
 * Analysis of results, not part of a simulation step: it allocates.
 * One thread at a time: FFTW's planner (fftw_plan_*) is not thread-safe.
 */
#ifndef RS_SPECTRAL_FILTER_H
#define RS_SPECTRAL_FILTER_H

#include <stddef.h>

/* |H(f)| for f >= 0 Hz; ctx is the caller's. */
typedef double (*rs_spectral_gain)(double f, const void *ctx);

/* out[0..n) = y[0..n) (sampled at fs Hz, finite, n >= 2) with each DFT bin
 * k (f = k fs/n) scaled by gain(f, ctx).  out may be y. */
int rs_spectral_filter(const double *y, size_t n, double fs, rs_spectral_gain gain, const void *ctx, double *out,
                       char *err, size_t errlen);

/* Butterworth magnitudes of order `order` with corner fc > 0 Hz. */
double rs_butterworth_lowpass_gain(double f, double fc, int order);
double rs_butterworth_highpass_gain(double f, double fc, int order);

#endif /* RS_SPECTRAL_FILTER_H */
