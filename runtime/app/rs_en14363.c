/*
 * rs_en14363.c — band pass, instability frequency, limits, Y/Q and the
 * differentiated velocity of the EN 14363 assessment (rs_en14363.h).
 * Sources: EN 14363:2016 clause 7; the sub-clauses were not found (the
 * header's "Sources" and docs/analyses.md say what is and is not confirmed).
 */
#include <math.h>
#include <stdlib.h>

#include "rs_en14363.h"
#include "rs_error.h"
#include "rs_psd.h"
#include "rs_spectral_filter.h"
#include "rs_status.h"
#include "rs_track_shift.h"

double rs_en14363_bandpass_gain(double f, double f0, double half)
{
    const double fl = f0 - half, fh = f0 + half;
    if (!(fl > 0)) return rs_butterworth_lowpass_gain(f, fh, 4);
    if (f <= 0) return 0;
    /* the low-pass prototype's 1/√(1 + x^8) at x = (f² − fl fh)/(f (fh − fl)) */
    const double x = (f * f - fl * fh) / (f * (fh - fl)), x2 = x * x, x4 = x2 * x2;
    return 1 / sqrt(1 + x4 * x4);
}

typedef struct { double f0, half; } band;

static double band_gain(double f, const void *ctx)
{
    const band *b = ctx;
    return rs_en14363_bandpass_gain(f, b->f0, b->half);
}

int rs_en14363_bandpass(const double *y, size_t n, double fs, double f0, double half, double *out, char *err,
                        size_t errlen)
{
    if (!(f0 > 0) || !(half > 0) || !isfinite(f0) || !isfinite(half) || !(f0 < fs / 2))
        return rs_fail(err, errlen, RS_E_ARG, "band %g ± %g Hz: f0 must be positive and below the Nyquist "
                       "frequency %g Hz of the record", f0, half, fs / 2);
    const band b = {f0, half};
    return rs_spectral_filter(y, n, fs, band_gain, &b, out, err, errlen);
}

int rs_en14363_find_f0(const double *y, size_t n, double fs, double f_lo, double f_hi, double *f0, char *err,
                       size_t errlen)
{
    if (n < 16) return rs_fail(err, errlen, RS_E_ARG, "%zu samples: at least 16 are needed to find f0", n);
    if (!(fs > 0) || !isfinite(fs))
        return rs_fail(err, errlen, RS_E_ARG, "sampling rate %g Hz: it must be a positive number", fs);
    const size_t nseg = n & ~(size_t)1, nb = rs_psd_bins(nseg);
    const double df = fs / (double)nseg;
    f_hi = fmin(f_hi, fs / 2);
    double *P = malloc(nb * sizeof *P);
    if (!P) return rs_fail(err, errlen, RS_E_NOMEM, "out of memory for %zu bins", nb);
    /* one segment: the finest resolution the record gives, 1/T */
    int st = rs_psd_welch(y, nseg, fs, nseg, P, NULL, err, errlen);
    if (st != RS_OK) {
        free(P);
        return st;
    }
    size_t best = 0;
    for (size_t k = 1; k + 1 < nb; k++) {
        const double f = (double)k * df;
        if (f < f_lo || f > f_hi) continue;
        if (best == 0 || P[k] > P[best]) best = k;
    }
    if (best == 0 || !(P[best] > 0)) {
        free(P);
        return rs_fail(err, errlen, RS_E_ARG, "no spectral peak between %g and %g Hz (record of %g s: resolution "
                       "%g Hz): give f0 (--f0)", f_lo, f_hi, (double)n / fs, df);
    }
    /* the vertex of the parabola through the peak and its neighbours */
    const double a = P[best - 1], b = P[best], c = P[best + 1], den = a - 2 * b + c;
    const double d = den < 0 ? 0.5 * (a - c) / den : 0;
    *f0 = ((double)best + d) * df;
    free(P);
    return RS_OK;
}

/* not confirmed against the standard's text (rs_en14363.h, "Sources") */
double rs_en14363_frame_limit(double bogie_mass_t)
{
    return (12 - bogie_mass_t / 5) / 2;
}

int rs_en14363_yq(const double *Y, const double *Q, size_t n, double fs, double *yq, char *err, size_t errlen)
{
    double *qf = malloc((n ? n : 1) * sizeof *qf);
    if (!qf) return rs_fail(err, errlen, RS_E_NOMEM, "out of memory for %zu samples", n);
    int st = rs_track_shift_lowpass(Y, n, fs, RS_EN14363_LOWPASS, yq, err, errlen);
    if (st == RS_OK) st = rs_track_shift_lowpass(Q, n, fs, RS_EN14363_LOWPASS, qf, err, errlen);
    for (size_t i = 0; st == RS_OK && i < n; i++) {
        if (!(qf[i] > 0)) {
            st = rs_fail(err, errlen, RS_E_ARG, "sample %zu: Q is %g N after the 20 Hz low pass: the wheel is "
                         "unloaded and Y/Q has no meaning there (look at the run: the wheel lifts)", i, qf[i]);
            break;
        }
        yq[i] /= qf[i];
    }
    free(qf);
    return st;
}

int rs_en14363_derivative(const double *v, size_t n, double fs, double *a, char *err, size_t errlen)
{
    if (!(fs > 0) || !isfinite(fs))
        return rs_fail(err, errlen, RS_E_ARG, "sampling rate %g Hz: it must be a positive number", fs);
    if (n < 3) return rs_fail(err, errlen, RS_E_ARG, "%zu samples: at least 3 are needed", n);
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return rs_fail(err, errlen, RS_E_NONFINITE, "sample %zu is %g: the signal must be finite", i, v[i]);
    a[0] = (v[1] - v[0]) * fs;
    for (size_t i = 1; i + 1 < n; i++) a[i] = (v[i + 1] - v[i - 1]) * fs / 2;
    a[n - 1] = (v[n - 1] - v[n - 2]) * fs;
    return RS_OK;
}
