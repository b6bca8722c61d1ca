/*
 * rs_track_shift.h — the rms of the sum of guiding forces ΣY over sliding
 * track windows and its limit (EN 14363's running-safety figures;
 * docs/analyses.md, "Track shifting force ΣY").
 *
 *  - low pass: the 4th-order Butterworth magnitude 1/√(1 + (f/fc)^8) applied
 *    in the frequency domain (zero phase; fc = 20 Hz in EN 14363);
 *  - rms over windows of `window` metres of track, one starting every `step`
 *    metres (100 m and 10 m in EN 14363), from the positions s of the samples;
 *  - the limit of the track shifting force after Prud'homme:
 *    (ΣY)_lim = α (10 + 2 Q0/3) kN, Q0 the static wheel force in kN, α = 1
 *    for locomotives and passenger vehicles, 0.85 for freight wagons; the
 *    limit of its rms is half of it.
 *
 * Analysis of results, not part of a simulation step: it allocates.
 * One thread at a time: FFTW's planner (fftw_plan_*) is not thread-safe.
 */
#ifndef RS_TRACK_SHIFT_H
#define RS_TRACK_SHIFT_H

#include <stddef.h>

/* out[0..n) = y low-pass filtered at fc Hz (sampled at fs). */
int rs_track_shift_lowpass(const double *y, size_t n, double fs, double fc, double *out, char *err, size_t errlen);

/* rms of y over the windows [s_a, s_a + window) of the positions s (strictly
 * increasing, metres), s_a = s[0] + k step while s_a + window <= s[n-1]:
 * start[k], rms[k], k < *nwin <= max. */
int rs_track_shift_rms(const double *y, const double *s, size_t n, double window, double step, double *start,
                       double *rms, size_t max, size_t *nwin, char *err, size_t errlen);

/* α (10 + 2 Q0/3), kN, for the static wheel force Q0 in kN. */
double rs_track_shift_limit(double q0_kN, double alpha);

#endif /* RS_TRACK_SHIFT_H */
