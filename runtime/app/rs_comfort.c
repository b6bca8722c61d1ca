/*
 * rs_comfort.c — EN 12299 / ISO 2631 weightings, N_MV and Sperling's Wz
 * (rs_comfort.h; formulas in docs/analyses.md).
 *
 * The weighting H(p), p = j2πf, ω_i = 2π f_i (ISO 2631-1:1997 Annex A):
 *   band limit  H_h = p² / (p² + ω1 p/Q1 + ω1²),  H_l = ω2² / (p² + ω2 p/Q2 + ω2²)
 *   transition  H_t = (1 + p/ω3) / (1 + p/(Q4 ω4) + p²/ω4²)
 *   upward step H_s = (p² + p ω5/Q5 + ω5²) / (p² + p ω6/Q6 + ω6²)
 *                   = (ω5/ω6)² (1 + p/(Q5 ω5) + p²/ω5²) / (1 + p/(Q6 ω6) + p²/ω6²)
 *               (1 at high frequency, (f5/f6)² at low: Wb, Wk rise by it)
 *   H = K H_h H_l H_t H_s
 */
/* fftw3.h before complex.h: fftw_complex stays double[2] (FFTW manual 4.1.1) */
#include <fftw3.h>
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rs_comfort.h"
#include "rs_error.h"
#include "rs_status.h"

static const double TWO_PI = 6.283185307179586;
static const double Q_BUTTER = 0.7071067811865476;

/* ISO 8041 / ISO 2631-4:2001 Table A.1; EN 12299:2009 uses the same. */
const rs_weighting RS_WEIGHTING_WB = {0.4, 100, 16, 16, 0.55, 2.5, 0.9, 4, 0.95, 1.024};
const rs_weighting RS_WEIGHTING_WD = {0.4, 100, 2, 2, 0.63, INFINITY, 1, INFINITY, 1, 1};

static double complex weighting(const rs_weighting *w, double f)
{
    const double complex p = I * TWO_PI * f;
    const double w1 = TWO_PI * w->f1, w2 = TWO_PI * w->f2, w3 = TWO_PI * w->f3, w4 = TWO_PI * w->f4;
    const double w5 = TWO_PI * w->f5, w6 = TWO_PI * w->f6;
    const double complex hh = p * p / (p * p + w1 * p / Q_BUTTER + w1 * w1);
    const double complex hl = w2 * w2 / (p * p + w2 * p / Q_BUTTER + w2 * w2);
    /* p/ω with ω = ∞ is 0: an absent corner contributes the factor 1 */
    const double complex ht = (1 + p / w3) / (1 + p / (w->Q4 * w4) + p * p / (w4 * w4));
    /* normalised to 1 at high frequency: (ω5/ω6)² below f5 (the step is up) */
    const double step = isfinite(w5) ? (w5 * w5) / (w6 * w6) : 1;
    const double complex hs =
        step * (1 + p / (w->Q5 * w5) + p * p / (w5 * w5)) / (1 + p / (w->Q6 * w6) + p * p / (w6 * w6));
    return w->K * hh * hl * ht * hs;
}

double rs_weighting_magnitude(const rs_weighting *w, double f)
{
    return cabs(weighting(w, f));
}

static int check_signal(const double *a, size_t n, double fs, size_t min_n, char *err, size_t errlen)
{
    if (!(fs > 0) || !isfinite(fs))
        return rs_fail(err, errlen, RS_E_ARG, "the sampling rate %g Hz is not a positive number", fs);
    if (n < min_n)
        return rs_fail(err, errlen, RS_E_ARG, "%zu samples: at least %zu are needed", n, min_n);
    for (size_t i = 0; i < n; i++)
        if (!isfinite(a[i]))
            return rs_fail(err, errlen, RS_E_NONFINITE, "sample %zu is %g: the signal must be finite", i, a[i]);
    return RS_OK;
}

/* The one-sided spectrum of a[0..n): X[0..n/2] (FFTW's unnormalised r2c). */
static int spectrum(const double *a, size_t n, fftw_complex **Xo, char *err, size_t errlen)
{
    const size_t nb = n / 2 + 1;
    double *in = fftw_malloc(n * sizeof *in);
    fftw_complex *X = fftw_malloc(nb * sizeof *X);
    if (!in || !X) {
        fftw_free(in);
        fftw_free(X);
        return rs_fail(err, errlen, RS_E_NOMEM, "out of memory for %zu samples", n);
    }
    fftw_plan p = fftw_plan_dft_r2c_1d((int)n, in, X, FFTW_ESTIMATE);
    memcpy(in, a, n * sizeof *in);
    fftw_execute(p);
    fftw_destroy_plan(p);
    fftw_free(in);
    *Xo = X;
    return RS_OK;
}

int rs_weighting_apply(const rs_weighting *w, const double *a, size_t n, double fs, double *out, char *err,
                       size_t errlen)
{
    int rc = check_signal(a, n, fs, 2, err, errlen);
    if (rc) return rc;
    fftw_complex *X;
    rc = spectrum(a, n, &X, err, errlen);
    if (rc) return rc;
    const size_t nb = n / 2 + 1;
    for (size_t k = 0; k < nb; k++) {
        const double complex h = weighting(w, fs * (double)k / (double)n);
        const double complex x = (X[k][0] + I * X[k][1]) * h / (double)n;
        X[k][0] = creal(x);
        X[k][1] = cimag(x);
    }
    double *o = fftw_malloc(n * sizeof *o);
    if (!o) {
        fftw_free(X);
        return rs_fail(err, errlen, RS_E_NOMEM, "out of memory for %zu samples", n);
    }
    fftw_plan p = fftw_plan_dft_c2r_1d((int)n, X, o, FFTW_ESTIMATE);
    fftw_execute(p);
    fftw_destroy_plan(p);
    memcpy(out, o, n * sizeof *out);
    fftw_free(o);
    fftw_free(X);
    return RS_OK;
}

int rs_comfort_block_rms(const double *a, size_t n, double fs, double block_s, double *rms, size_t max,
                         size_t *nblocks, char *err, size_t errlen)
{
    if (!(block_s > 0) || !(fs > 0))
        return rs_fail(err, errlen, RS_E_ARG, "block %g s at %g Hz: both must be positive", block_s, fs);
    const size_t m = (size_t)llround(block_s * fs);
    if (m < 1 || m > n)
        return rs_fail(err, errlen, RS_E_ARG, "a %g s block is %zu samples but the record has %zu: record at "
                       "least %g s", block_s, m, n, block_s);
    const size_t nbk = n / m;
    if (nbk > max) return rs_fail(err, errlen, RS_E_ARG, "%zu blocks do not fit in %zu values", nbk, max);
    for (size_t b = 0; b < nbk; b++) {
        double s = 0;
        for (size_t i = b * m; i < (b + 1) * m; i++) s += a[i] * a[i];
        rms[b] = sqrt(s / (double)m);
    }
    *nblocks = nbk;
    return RS_OK;
}

static int cmp_double(const void *x, const void *y)
{
    const double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

double rs_comfort_percentile(double *v, size_t n, double p)
{
    if (n == 0) return NAN;
    qsort(v, n, sizeof *v, cmp_double);
    const double r = p / 100.0 * (double)(n - 1);
    const size_t i = (size_t)floor(r);
    if (i + 1 >= n) return v[n - 1];
    return v[i] + (r - (double)i) * (v[i + 1] - v[i]);
}

int rs_comfort_nmv(const double *ax, const double *ay, const double *az, size_t n, double fs,
                   rs_comfort_nmv_result *res, double *rms, size_t rms_max, char *err, size_t errlen)
{
    const double *sig[3] = {ax, ay, az};
    const rs_weighting *wt[3] = {&RS_WEIGHTING_WD, &RS_WEIGHTING_WD, &RS_WEIGHTING_WB};
    const char *axis = "xyz";
    double *w = malloc((n ? n : 1) * sizeof *w), *blk = malloc((n ? n : 1) * sizeof *blk);
    int rc = RS_OK;
    if (!w || !blk) rc = rs_fail(err, errlen, RS_E_NOMEM, "out of memory for %zu samples", n);
    double sum = 0;
    for (int d = 0; d < 3 && rc == RS_OK; d++) {
        char e2[512];
        rc = rs_weighting_apply(wt[d], sig[d], n, fs, w, e2, sizeof e2);
        size_t nbk = 0;
        if (rc == RS_OK) rc = rs_comfort_block_rms(w, n, fs, 5.0, blk, n, &nbk, e2, sizeof e2);
        if (rc) {
            rc = rs_fail(err, errlen, rc, "%c acceleration: %s", axis[d], e2);
            break;
        }
        if (rms) {
            if ((size_t)(d + 1) * nbk > rms_max) {
                rc = rs_fail(err, errlen, RS_E_ARG, "%zu block values do not fit in %zu", 3 * nbk, rms_max);
                break;
            }
            memcpy(rms + (size_t)d * nbk, blk, nbk * sizeof *blk);
        }
        res->nblocks = nbk;
        res->a95[d] = rs_comfort_percentile(blk, nbk, 95);
        sum += res->a95[d] * res->a95[d];
    }
    if (rc == RS_OK) res->nmv = 6 * sqrt(sum);
    free(w);
    free(blk);
    return rc;
}

double rs_sperling_weight(rs_sperling_dir dir, double f)
{
    if (f < 0.5 || f > 30) return 0;
    if (dir == RS_SPERLING_VERTICAL) return f < 5.9 ? 0.325 * f * f : f < 20 ? 400 / (f * f) : 1;
    return f < 5.4 ? 0.8 * f * f : f < 26 ? 650 / (f * f) : 1;
}

int rs_sperling_wz(const double *a, size_t n, double fs, rs_sperling_dir dir, double *wz, char *err, size_t errlen)
{
    int rc = check_signal(a, n, fs, 8, err, errlen);
    if (rc) return rc;
    double mean = 0;
    for (size_t i = 0; i < n; i++) mean += a[i];
    mean /= (double)n;
    double *c = malloc(n * sizeof *c);
    if (!c) return rs_fail(err, errlen, RS_E_NOMEM, "out of memory for %zu samples", n);
    for (size_t i = 0; i < n; i++) c[i] = (a[i] - mean) * 100.0;   /* m/s² -> cm/s² */
    fftw_complex *X;
    rc = spectrum(c, n, &X, err, errlen);
    free(c);
    if (rc) return rc;
    /* third-octave bands from 0.5 Hz: band j is [0.5·2^(j/3), 0.5·2^((j+1)/3)) */
    enum { NBAND = 24 };   /* 0.5 Hz · 2^8 = 128 Hz: past 30 Hz */
    double pw[NBAND] = {0}, pf[NBAND] = {0};
    const size_t nb = n / 2 + 1;
    for (size_t k = 1; k < nb; k++) {
        const double f = fs * (double)k / (double)n;
        if (f < 0.5 || f > 30) continue;
        const int edge = 2 * k == n;   /* Nyquist appears once */
        /* the bin's mean square: 2|X_k|²/n² (|X_k|²/n² at Nyquist) */
        const double P = (edge ? 1.0 : 2.0) * (X[k][0] * X[k][0] + X[k][1] * X[k][1]) / ((double)n * (double)n);
        int j = (int)floor(3 * log2(f / 0.5) + 1e-12);
        if (j < 0) j = 0;
        if (j >= NBAND) j = NBAND - 1;
        pw[j] += P;
        pf[j] += P * rs_sperling_weight(dir, f) / f;
    }
    fftw_free(X);
    double sum = 0;
    for (int j = 0; j < NBAND; j++) {
        if (pw[j] <= 0) continue;
        const double amp = sqrt(2 * pw[j]);   /* peak amplitude of the band, cm/s² */
        sum += amp * amp * amp * (pf[j] / pw[j]);
    }
    *wz = sum > 0 ? 0.896 * pow(sum, 0.1) : 0;
    return RS_OK;
}
