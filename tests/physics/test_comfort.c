/*
 * test_comfort.c — ride comfort (runtime/app/rs_comfort.h) against answers
 * written out here:
 *  - the weightings Wb and Wd: |H(f)| at the one-third-octave frequencies
 *    0.5 .. 80 Hz against the transfer function of EN 12299 / ISO 2631-1
 *    Annex A written here in real arithmetic from the standard's parameters
 *    (f1..f6, Q's, K) within 1 %;
 *  - the weighting applied to a sinusoid scales its rms by |H(f)|;
 *  - Sperling's Wz of pure sinusoids of known amplitude and frequency (one
 *    vertical, one lateral, one two-tone) against Sperling's formula by hand;
 *  - N_MV of constant-amplitude sinusoids in x, y, z against the hand
 *    calculation 6 √Σ (|W(f)| A/√2)²;
 *  - the 95th percentile of 1..20 by linear interpolation (19.05).
 */
#define _DEFAULT_SOURCE /* M_PI */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_comfort.h"
#include "rs_status.h"
#include "rs_test.h"

/* |H| from the standard: each factor's magnitude with ω = 2πf, real arithmetic.
 * High pass: ω²/√((ω1² − ω²)² + (ω ω1/Q1)²); low pass: ω2²/√((ω2² − ω²)² + (ω ω2/Q2)²);
 * transition: √(1 + (ω/ω3)²) / √((1 − ω²/ω4²)² + (ω/(Q4 ω4))²);
 * step: (f5/f6)² √((1 − ω²/ω5²)² + (ω/(Q5 ω5))²) / √((1 − ω²/ω6²)² + (ω/(Q6 ω6))²),
 * i.e. |p² + pω5/Q5 + ω5²| / |p² + pω6/Q6 + ω6²|: 1 at high frequency. */
static double std_mag(double f, double f1, double f2, double f3, double f4, double Q4, double f5, double Q5,
                      double f6, double Q6, double K)
{
    const double w = 2 * M_PI * f, w1 = 2 * M_PI * f1, w2 = 2 * M_PI * f2, Q1 = 1 / sqrt(2.0);
    double h = w * w / sqrt(pow(w1 * w1 - w * w, 2) + pow(w * w1 / Q1, 2));
    h *= w2 * w2 / sqrt(pow(w2 * w2 - w * w, 2) + pow(w * w2 / Q1, 2));
    if (isfinite(f3)) {
        const double w3 = 2 * M_PI * f3, w4 = 2 * M_PI * f4;
        h *= sqrt(1 + pow(w / w3, 2)) / sqrt(pow(1 - w * w / (w4 * w4), 2) + pow(w / (Q4 * w4), 2));
    }
    if (isfinite(f5)) {
        const double w5 = 2 * M_PI * f5, w6 = 2 * M_PI * f6;
        h *= (f5 / f6) * (f5 / f6) * sqrt(pow(1 - w * w / (w5 * w5), 2) + pow(w / (Q5 * w5), 2)) /
             sqrt(pow(1 - w * w / (w6 * w6), 2) + pow(w / (Q6 * w6), 2));
    }
    return K * h;
}
/* ISO 2631-4:2001 Table A.1 / ISO 8041 */
static double wb(double f) { return std_mag(f, 0.4, 100, 16, 16, 0.55, 2.5, 0.9, 4, 0.95, 1.024); }
static double wd(double f) { return std_mag(f, 0.4, 100, 2, 2, 0.63, INFINITY, 1, INFINITY, 1, 1); }

START_TEST(weighting_magnitudes)
{
    for (int i = -3; i <= 22; i++) {   /* 0.5 .. 80 Hz in thirds of an octave */
        const double f = pow(10, i / 10.0);
        const double gb = rs_weighting_magnitude(&RS_WEIGHTING_WB, f);
        const double gd = rs_weighting_magnitude(&RS_WEIGHTING_WD, f);
        ck_assert_msg(fabs(gb / wb(f) - 1) < 0.01, "Wb at %g Hz: %g vs %g", f, gb, wb(f));
        ck_assert_msg(fabs(gd / wd(f) - 1) < 0.01, "Wd at %g Hz: %g vs %g", f, gd, wd(f));
    }
    /* the shapes the standard draws: Wd flat (≈1) at 1 Hz, falling as 1/f
     * above 2 Hz; Wb near 1 from 4 to 12 Hz and (2.5/4)² lower at 1 Hz */
    ck_assert_double_eq_tol(rs_weighting_magnitude(&RS_WEIGHTING_WD, 1), 1, 0.1);
    ck_assert_double_eq_tol(rs_weighting_magnitude(&RS_WEIGHTING_WD, 16) * 16 / 2, 1, 0.15);
    ck_assert_double_eq_tol(rs_weighting_magnitude(&RS_WEIGHTING_WB, 8), 1, 0.1);
    ck_assert_double_eq_tol(rs_weighting_magnitude(&RS_WEIGHTING_WB, 1), 1.024 * 0.390625, 0.05);
}
END_TEST

START_TEST(weighting_of_a_sinusoid)
{
    const double fs = 200, f0 = 3, A = 0.7;
    const size_t n = 4000;   /* 20 s: 60 periods */
    double *a = malloc(n * sizeof *a), *o = malloc(n * sizeof *o);
    for (size_t i = 0; i < n; i++) a[i] = A * sin(2 * M_PI * f0 * (double)i / fs);
    char err[256];
    ck_assert_int_eq(rs_weighting_apply(&RS_WEIGHTING_WB, a, n, fs, o, err, sizeof err), RS_OK);
    double s = 0;
    for (size_t i = 0; i < n; i++) s += o[i] * o[i];
    ck_assert_double_eq_tol(sqrt(s / (double)n) / (wb(f0) * A / sqrt(2.0)), 1, 1e-9);
    free(a);
    free(o);
}
END_TEST

static double wz_of(const double *amp, const double *freq, int ntone, rs_sperling_dir dir)
{
    const double fs = 200;
    const size_t n = 12000;   /* 60 s: every tone below on a bin */
    double *a = malloc(n * sizeof *a);
    for (size_t i = 0; i < n; i++) {
        a[i] = 0.05;   /* an offset (gravity, a cant): removed */
        for (int t = 0; t < ntone; t++) a[i] += amp[t] * cos(2 * M_PI * freq[t] * (double)i / fs + t);
    }
    double wz;
    char err[256];
    ck_assert_int_eq(rs_sperling_wz(a, n, fs, dir, &wz, err, sizeof err), RS_OK);
    free(a);
    return wz;
}

START_TEST(sperling_sinusoids)
{
    /* vertical, 0.5 m/s² = 50 cm/s² at 4 Hz: F = 0.325·4² = 5.2 */
    double amp = 0.5, f = 4;
    const double v = wz_of(&amp, &f, 1, RS_SPERLING_VERTICAL);
    const double v_hand = 0.896 * pow(50.0 * 50.0 * 50.0 * 5.2 / 4, 0.1);
    printf("Wz vertical 0.5 m/s^2 at 4 Hz: %.6f (hand %.6f)\n", v, v_hand);
    ck_assert_double_eq_tol(v / v_hand, 1, 1e-9);
    /* lateral, 0.3 m/s² = 30 cm/s² at 8 Hz: F = 650/8² */
    amp = 0.3;
    f = 8;
    const double l = wz_of(&amp, &f, 1, RS_SPERLING_LATERAL);
    const double l_hand = 0.896 * pow(30.0 * 30.0 * 30.0 * (650.0 / 64) / 8, 0.1);
    printf("Wz lateral 0.3 m/s^2 at 8 Hz: %.6f (hand %.6f)\n", l, l_hand);
    ck_assert_double_eq_tol(l / l_hand, 1, 1e-9);
    /* two tones in different bands add as Wz = (Wz1^10 + Wz2^10)^(1/10):
     * 20 cm/s² at 1.5 Hz (F = 0.325·2.25), 40 cm/s² at 12 Hz (F = 400/144) */
    const double amps[2] = {0.2, 0.4}, freqs[2] = {1.5, 12};
    const double t = wz_of(amps, freqs, 2, RS_SPERLING_VERTICAL);
    const double w1 = 0.896 * pow(8000.0 * 0.325 * 2.25 / 1.5, 0.1), w2 = 0.896 * pow(64000.0 * (400.0 / 144) / 12, 0.1);
    ck_assert_double_eq_tol(t / pow(pow(w1, 10) + pow(w2, 10), 0.1), 1, 1e-9);
}
END_TEST

START_TEST(nmv_sinusoids)
{
    const double fs = 100, A[3] = {0.3, 0.2, 0.4}, f[3] = {1, 2, 5};
    const size_t n = 6000;   /* 60 s: 12 blocks of 5 s, whole periods each */
    double *x[3];
    for (int d = 0; d < 3; d++) {
        x[d] = malloc(n * sizeof *x[d]);
        for (size_t i = 0; i < n; i++) x[d][i] = A[d] * sin(2 * M_PI * f[d] * (double)i / fs + d);
    }
    rs_comfort_nmv_result r;
    double rms[36];
    char err[256];
    ck_assert_int_eq(rs_comfort_nmv(x[0], x[1], x[2], n, fs, &r, rms, 36, err, sizeof err), RS_OK);
    ck_assert_uint_eq(r.nblocks, 12);
    const double ax = wd(1) * 0.3 / sqrt(2.0), ay = wd(2) * 0.2 / sqrt(2.0), az = wb(5) * 0.4 / sqrt(2.0);
    const double hand = 6 * sqrt(ax * ax + ay * ay + az * az);
    printf("N_MV of sinusoids: %.6f (hand %.6f)\n", r.nmv, hand);
    ck_assert_double_eq_tol(r.nmv / hand, 1, 0.005);
    ck_assert_double_eq_tol(r.a95[2] / az, 1, 0.005);
    for (int b = 0; b < 12; b++) ck_assert_double_eq_tol(rms[24 + b] / az, 1, 0.005);
    for (int d = 0; d < 3; d++) free(x[d]);
    /* too short for one 5 s block */
    double s[100] = {0};
    ck_assert_int_eq(rs_comfort_nmv(s, s, s, 100, fs, &r, NULL, 0, err, sizeof err), RS_E_ARG);
    ck_assert_msg(strstr(err, "5 s") != NULL, "%s", err);
}
END_TEST

START_TEST(percentile)
{
    double v[20];
    for (int i = 0; i < 20; i++) v[i] = 20 - i;   /* unsorted */
    ck_assert_double_eq_tol(rs_comfort_percentile(v, 20, 95), 19.05, 1e-12);
    ck_assert_double_eq_tol(rs_comfort_percentile(v, 20, 100), 20, 1e-12);
    ck_assert_double_eq_tol(rs_comfort_percentile(v, 20, 0), 1, 1e-12);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("comfort");
    TCase *tc = tcase_create("comfort");
    tcase_add_test(tc, weighting_magnitudes);
    tcase_add_test(tc, weighting_of_a_sinusoid);
    tcase_add_test(tc, sperling_sinusoids);
    tcase_add_test(tc, nmv_sinusoids);
    tcase_add_test(tc, percentile);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
