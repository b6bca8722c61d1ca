/*
 * rs_psd.h — power spectral density of a sampled signal by Welch's method
 * (docs/analyses.md, "PSD"): segments of nseg samples, Hann window, 50 %
 * overlap, each segment's mean removed, periodograms averaged.
 *
 * One-sided: P[k] at f_k = k fs / nseg, k = 0 .. nseg/2, in unit²/Hz when fs
 * is in Hz (unit²/(1/m) when the signal is sampled along the track, fs in
 * samples per metre), scaled so that Σ_k P[k] Δf ≈ the signal's variance
 * (Parseval; Δf = fs/nseg): P[k] = c |X_k|² / (fs Σ w²) with c = 2 except at
 * k = 0 and at Nyquist (c = 1).
 *
 * Analysis of results, not part of a simulation step: it allocates.
 * One thread at a time: FFTW's planner (fftw_plan_*) is not thread-safe.
 */
#ifndef RS_PSD_H
#define RS_PSD_H

#include <stddef.h>

/* The number of one-sided bins of a segment of nseg samples: nseg/2 + 1. */
size_t rs_psd_bins(size_t nseg);

/* Welch's PSD of x[0..n) sampled at fs into P[0..rs_psd_bins(nseg)).
 * nseg even, 8 <= nseg <= n; fs > 0 and finite; x finite.  *nseg_used (may be
 * NULL) gets the number of segments averaged.  RS_E_ARG / RS_E_NONFINITE /
 * RS_E_NOMEM with a message in err. */
int rs_psd_welch(const double *x, size_t n, double fs, size_t nseg, double *P, size_t *nseg_used,
                 char *err, size_t errlen);

/* The largest power of two <= n/8 (at least 8, at most n): a default segment
 * length giving about 15 averaged segments. */
size_t rs_psd_default_segment(size_t n);

#endif /* RS_PSD_H */
