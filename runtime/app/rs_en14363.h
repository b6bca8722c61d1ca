/*
 * rs_en14363.h — running safety and stability figures as EN 14363:2016
 * evaluates them (docs/analyses.md, "Running safety and stability"):
 *
 *  - the band pass around the instability frequency f0, f0 ± 2 Hz, for the
 *    stability criteria (bogie-frame lateral acceleration ÿ+, sum of guiding
 *    forces ΣY): the Butterworth band pass from fl = f0 − 2 Hz to
 *    fh = f0 + 2 Hz, the 4th-order low-pass prototype moved to the band
 *    (8 poles),
 *        |H(f)| = 1/√(1 + x^8),  x = (f² − fl fh)/(f (fh − fl)),
 *    1 at √(fl fh), 1/√2 at both edges (x = ∓1), 1/√(1 + f0^−8) at f0
 *    (x = 1/f0; within 1e-4 of 1 for f0 >= 3 Hz); applied in the frequency domain (zero phase); when
 *    f0 − 2 Hz <= 0 there is no band: the 4th-order Butterworth low pass
 *    1/√(1 + (f/fh)^8) at fh = f0 + 2 Hz;
 *  - f0 from the signal's spectrum when it is not given: the peak of the
 *    one-segment Hann periodogram (rs_psd_welch) between f_lo and f_hi,
 *    refined by a parabola through the peak bin and its neighbours;
 *  - the limit of the rms of ÿ+: ÿ+_lim,rms = (12 − m+/5)/2 m/s², m+ the
 *    bogie mass in t;
 *  - the derailment quotient Y/Q of one wheel: Y and Q low-pass filtered at
 *    20 Hz (4th-order Butterworth magnitude, zero phase, as the track
 *    shifting force), divided sample by sample; the limit 0.8 (curves of
 *    radius >= 250 m);
 *  - a lateral velocity differentiated into an acceleration, for runs that
 *    write velocities (central differences).
 *
 * Sources (docs/analyses.md, "What the sources confirm"): these criteria
 * belong to clause 7 of EN 14363:2016 ("running safety, track loading and
 * ride characteristics", its scope as the DIN catalogue lists it); the
 * sub-clause, table and formula numbers of EN 14363:2016 and of UIC 518
 * (4th ed., 2009) were not in any text reached.  The Y/Q 2 m sliding mean
 * every 0.5 m after a low pass of at least 20 Hz, and ΣY's sliding rms after
 * the f0 ± 2 Hz band pass, are as the table of assessment quantities at
 * gensys.se/course/UIC518_tests.html lists them; the limits above, the
 * 100 m / 10 m windows and the filters' type and order are not confirmed.
 *
 * Analysis of results, not part of a simulation step: it allocates.
 * One thread at a time: FFTW's planner (fftw_plan_*) is not thread-safe.
 */
#ifndef RS_EN14363_H
#define RS_EN14363_H

#include <stddef.h>

#define RS_EN14363_HALF_BAND 2.0      /* Hz: the band pass is f0 ± 2 Hz */
#define RS_EN14363_YQ_LIMIT 0.8       /* (Y/Q)_lim, curve radius >= 250 m */
#define RS_EN14363_YQ_WINDOW 2.0      /* m: Y/Q sliding mean ... */
#define RS_EN14363_YQ_STEP 0.5        /* m: ... every 0.5 m */
#define RS_EN14363_STAB_WINDOW 100.0  /* m: stability rms ... */
#define RS_EN14363_STAB_STEP 10.0     /* m: ... every 10 m */
#define RS_EN14363_LOWPASS 20.0       /* Hz: the forces' low pass */

/* |H(f)| of the band pass f0 ± half (Hz). */
double rs_en14363_bandpass_gain(double f, double f0, double half);

/* out[0..n) = y band-passed to f0 ± half (fs Hz sampling; f0 > 0, below
 * the Nyquist frequency fs/2). */
int rs_en14363_bandpass(const double *y, size_t n, double fs, double f0, double half, double *out, char *err,
                        size_t errlen);

/* *f0 = the frequency of the largest spectral peak of y in [f_lo, f_hi] Hz
 * (f_hi capped at the Nyquist frequency); n >= 16.  RS_E_ARG when the band
 * holds no bin, or the signal has no variance there. */
int rs_en14363_find_f0(const double *y, size_t n, double fs, double f_lo, double f_hi, double *f0, char *err,
                       size_t errlen);

/* (12 − m+/5)/2 m/s² for the bogie mass m+ in t. */
double rs_en14363_frame_limit(double bogie_mass_t);

/* yq[0..n) = Y/Q after the 20 Hz low pass of both.  A filtered Q <= 0 (the
 * wheel unloaded: the quotient has no meaning) is RS_E_ARG naming the
 * sample. */
int rs_en14363_yq(const double *Y, const double *Q, size_t n, double fs, double *yq, char *err, size_t errlen);

/* a[0..n) = dv/dt by central differences (one-sided at both ends), v
 * sampled at fs.  On a sinusoid of frequency f the inner samples get the
 * gain sin(2πf/fs)/(2πf/fs) of the exact derivative.  a must not be v. */
int rs_en14363_derivative(const double *v, size_t n, double fs, double *a, char *err, size_t errlen);

#endif /* RS_EN14363_H */
