/*
 * rs_comfort.h — ride comfort from acceleration signals (docs/analyses.md,
 * "Ride comfort"):
 *
 *  - the frequency weightings of EN 12299:2009 / ISO 2631-1:1997 Annex A
 *    (parameters as ISO 8041 and ISO 2631-4:2001 Table A.1 list them): a
 *    band limit (2nd-order Butterworth high pass f1, low pass f2), the
 *    acceleration–velocity transition (f3, f4, Q4) and the upward step
 *    (f5, Q5, f6, Q6), times a gain K; applied in the frequency domain;
 *  - EN 12299's mean comfort, standard method: N_MV = 6 √(a_XP95² + a_YP95²
 *    + a_ZP95²) from the 95th percentiles of the 5 s rms values of the
 *    Wd-weighted longitudinal and lateral and the Wb-weighted vertical
 *    accelerations (m/s²);
 *  - Sperling's ride index Wz = 0.896 (Σ a³ F(f)/f)^0.1 with a in cm/s²
 *    (Sperling, Betzhold, Glasers Annalen 80, 1956; Garg, Dukkipati,
 *    Dynamics of Railway Vehicle Systems, 1984, Sec. 12.2).
 *
 * Analysis of results, not part of a simulation step: it allocates.
 * One thread at a time: FFTW's planner (fftw_plan_*) is not thread-safe.
 */
#ifndef RS_COMFORT_H
#define RS_COMFORT_H

#include <stddef.h>

/* One frequency weighting; INFINITY for an absent corner (factor 1). */
typedef struct {
    double f1, f2;          /* band limit, Hz (Q1 = Q2 = 1/√2) */
    double f3, f4, Q4;      /* a–v transition */
    double f5, Q5, f6, Q6;  /* upward step */
    double K;               /* gain */
} rs_weighting;

extern const rs_weighting RS_WEIGHTING_WB;   /* vertical, EN 12299 */
extern const rs_weighting RS_WEIGHTING_WD;   /* horizontal, EN 12299 / ISO 2631-1 */

/* |H(j 2π f)| of the weighting at f >= 0 Hz. */
double rs_weighting_magnitude(const rs_weighting *w, double f);

/* out[0..n) = the weighted signal of a[0..n) sampled at fs: one FFT of the
 * whole record, multiplied by H(j2πf), transformed back (the record is
 * treated as periodic: a record that ends far from where it starts gets a
 * transient at both ends). */
int rs_weighting_apply(const rs_weighting *w, const double *a, size_t n, double fs, double *out, char *err,
                       size_t errlen);

/* The rms values of consecutive blocks of block_s seconds (rounded to whole
 * samples; a last partial block is dropped): rms[0..*nblocks), at most max. */
int rs_comfort_block_rms(const double *a, size_t n, double fs, double block_s, double *rms, size_t max,
                         size_t *nblocks, char *err, size_t errlen);

/* The p-th percentile (0..100) of v[0..n) by linear interpolation between
 * the order statistics at rank p/100 (n−1); sorts v in place. */
double rs_comfort_percentile(double *v, size_t n, double p);

typedef struct {
    double a95[3];      /* a_XP95 (Wd), a_YP95 (Wd), a_ZP95 (Wb), m/s² */
    double nmv;         /* N_MV */
    size_t nblocks;     /* 5 s blocks */
} rs_comfort_nmv_result;

/* N_MV from the three acceleration signals (m/s², sampled at fs, n samples,
 * at least one 5 s block).  rms (may be NULL) gets 3 × nblocks values: the
 * blocks' weighted rms of x, then y, then z; rms_max its capacity. */
int rs_comfort_nmv(const double *ax, const double *ay, const double *az, size_t n, double fs,
                   rs_comfort_nmv_result *res, double *rms, size_t rms_max, char *err, size_t errlen);

typedef enum { RS_SPERLING_VERTICAL, RS_SPERLING_LATERAL } rs_sperling_dir;

/* Sperling's weighting F(f) (0.5–30 Hz; 0 outside):
 *   vertical  0.325 f² (f < 5.9 Hz), 400/f² (5.9 .. 20 Hz), 1 above
 *   lateral   0.8 f²   (f < 5.4 Hz), 650/f² (5.4 .. 26 Hz), 1 above */
double rs_sperling_weight(rs_sperling_dir dir, double f);

/* Wz of a (m/s², sampled at fs): the record's spectrum (mean removed, no
 * window) is summed in third-octave bands from 0.5 Hz up to 30 Hz (or
 * Nyquist); each band's peak amplitude a_b = √2 × its rms (cm/s²) and its
 * power-weighted F(f)/f give Wz = 0.896 (Σ_b a_b³ (F/f)_b)^0.1. */
int rs_sperling_wz(const double *a, size_t n, double fs, rs_sperling_dir dir, double *wz, char *err,
                   size_t errlen);

#endif /* RS_COMFORT_H */
