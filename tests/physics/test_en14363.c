/*
 * test_en14363.c — the EN 14363 running safety and stability figures
 * (runtime/app/rs_en14363.h) against hand calculations:
 *  - band pass f0 ± 2 Hz: ÿ = A sin(2π f0 t) + C + B sin(2π 0.5 t) +
 *    D sin(2π 15 t), f0 = 5 Hz, 200 Hz for 40 s at 25 m/s (every frequency
 *    an integer number of periods in each 100 m = 4 s window): each window's
 *    rms is √((A g0)² + (B g1)² + (D g2)²)/√2 with g the filter's formula
 *    1/√(1 + x^8), x = (f² − 3·7)/(f (7 − 3)) (g(0) = 0 removes C), within
 *    1e-6; that is A/√2 (the in-band part) within 1e-4 (g2 = 0.0075 at
 *    15 Hz); at the band edges (3 and 7 Hz, x = ∓1) a sinusoid keeps the
 *    gain 1/√2; with f0 = 1 Hz (no band: a low pass at 3 Hz) 3 Hz keeps
 *    1/√2 too;
 *  - f0 found from the spectrum of that signal (no f0 given): 5 Hz within
 *    a tenth of the 0.025 Hz resolution, and 4.3 Hz (between bins) within
 *    half of it;
 *  - the limit (12 − m+/5)/2: 5.5 m/s² for 5 t, 5.3759 for 6.241 t;
 *  - Y/Q = 0.3 + 0.2 sin(2π s/50 m) (Q = 40 kN (1 + 0.25 cos(2π s/25 m)),
 *    Y = Q Y/Q) sampled every 0.125 m: the mean over 2 m every 0.5 m is,
 *    by the sum of a sine over 16 equally spaced samples,
 *    0.3 + 0.2 sin(8 d/2)/(16 sin(d/2)) ... written out below; max within
 *    1e-9 of 0.3 + 0.2 × that factor;
 *  - the central difference of sin(2π f t) has the gain sin(ω/fs)/(ω/fs);
 *  - refusals: positions that do not increase, a window with no sample,
 *    an unloaded wheel (Q <= 0), f0 above Nyquist.
 */
#define _DEFAULT_SOURCE /* M_PI */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rs_en14363.h"
#include "rs_status.h"
#include "rs_test.h"
#include "rs_track_window.h"

/* the band pass 3..7 Hz: 1/√(1 + x^8), x = (f² − 21)/(4 f) */
static double hand_gain(double f)
{
    if (f <= 0) return 0;
    return 1 / sqrt(1 + pow((f * f - 21) / (4 * f), 8));
}

START_TEST(bandpass_keeps_the_band)
{
    const double fs = 200, A = 0.8, B = 0.5, C = 0.3, D = 0.4;
    const size_t n = 8000;   /* 40 s, 1000 m at 25 m/s */
    double *y = malloc(n * sizeof *y), *s = malloc(n * sizeof *s), *f = malloc(n * sizeof *f);
    for (size_t i = 0; i < n; i++) {
        const double t = (double)i / fs;
        s[i] = 0.125 * (double)i;
        y[i] = A * sin(2 * M_PI * 5 * t) + C + B * sin(2 * M_PI * 0.5 * t) + D * sin(2 * M_PI * 15 * t);
    }
    char err[256];
    ck_assert_int_eq(rs_en14363_bandpass(y, n, fs, 5, 2, f, err, sizeof err), RS_OK);
    double start[100], rms[100];
    size_t nw = 0;
    ck_assert_int_eq(rs_track_window(RS_TRACK_WINDOW_RMS, f, s, n, 100, 10, start, rms, 100, &nw, err, sizeof err),
                     RS_OK);
    ck_assert_uint_eq(nw, 90);   /* starts 0 .. 890 m; the last ends at 990 <= 999.875 */
    const double g0 = hand_gain(5), g1 = hand_gain(0.5), g2 = hand_gain(15);
    const double hand = sqrt((A * g0) * (A * g0) + (B * g1) * (B * g1) + (D * g2) * (D * g2)) / sqrt(2);
    ck_assert_msg(fabs(hand / (A / sqrt(2)) - 1) < 1e-4, "hand %g, in-band part %g", hand, A / sqrt(2));
    for (size_t k = 0; k < nw; k++)
        ck_assert_msg(fabs(rms[k] / hand - 1) < 1e-6, "window %zu: rms %.9g, hand %.9g", k, rms[k], hand);
    ck_assert_double_eq_tol(rs_en14363_bandpass_gain(5, 5, 2), g0, 1e-15);
    /* the band edges: a sinusoid at 3 Hz and one at 7 Hz */
    const double edge = 1 / sqrt(2);
    for (int e = 0; e < 3; e++) {
        const double fe = e == 1 ? 7 : 3, f0 = e == 2 ? 1 : 5;
        for (size_t i = 0; i < n; i++) y[i] = A * sin(2 * M_PI * fe * (double)i / fs);
        ck_assert_int_eq(rs_en14363_bandpass(y, n, fs, f0, 2, f, err, sizeof err), RS_OK);
        double sum = 0;
        for (size_t i = 0; i < n; i++) sum += f[i] * f[i];
        ck_assert_msg(fabs(sqrt(sum / (double)n) / (A / sqrt(2)) / edge - 1) < 1e-9, "edge %g Hz", fe);
    }
    free(y);
    free(s);
    free(f);
}
END_TEST

START_TEST(f0_from_the_spectrum)
{
    const double fs = 200;
    const size_t n = 8000;
    double *y = malloc(n * sizeof *y);
    const double fa[2] = {5, 4.3};
    const double tol[2] = {0.0025, 0.0125};   /* resolution fs/n = 0.025 Hz */
    for (int c = 0; c < 2; c++) {
        for (size_t i = 0; i < n; i++) {
            const double t = (double)i / fs;
            y[i] = 0.8 * sin(2 * M_PI * fa[c] * t) + 0.3 + 0.2 * sin(2 * M_PI * 0.5 * t) +
                   0.3 * sin(2 * M_PI * 15 * t);
        }
        double f0 = 0;
        char err[256];
        ck_assert_int_eq(rs_en14363_find_f0(y, n, fs, 1, 20, &f0, err, sizeof err), RS_OK);
        ck_assert_msg(fabs(f0 - fa[c]) < tol[c], "f0 %.6g Hz, true %g Hz", f0, fa[c]);
    }
    free(y);
}
END_TEST

START_TEST(limits)
{
    ck_assert_double_eq_tol(rs_en14363_frame_limit(5), (12 - 1.0) / 2, 1e-15);
    ck_assert_double_eq_tol(rs_en14363_frame_limit(6.241), (12 - 6.241 / 5) / 2, 1e-15);
    ck_assert_double_eq_tol(rs_en14363_frame_limit(6.241), 5.3759, 1e-12);
    ck_assert_double_eq_tol(RS_EN14363_YQ_LIMIT, 0.8, 1e-15);
}
END_TEST

START_TEST(yq_sliding_mean)
{
    const double fs = 200, ds = 0.125;   /* 25 m/s */
    const size_t n = 8000;               /* 1000 m: 20 periods of 50 m, 40 of 25 m */
    double *Y = malloc(n * sizeof *Y), *Q = malloc(n * sizeof *Q), *s = malloc(n * sizeof *s),
           *yq = malloc(n * sizeof *yq);
    const double L = 50, a = 0.3, b = 0.2;
    for (size_t i = 0; i < n; i++) {
        s[i] = ds * (double)i;
        Q[i] = 40e3 * (1 + 0.25 * cos(2 * M_PI * s[i] / 25));
        Y[i] = Q[i] * (a + b * sin(2 * M_PI * s[i] / L));
    }
    char err[256];
    ck_assert_int_eq(rs_en14363_yq(Y, Q, n, fs, yq, err, sizeof err), RS_OK);
    /* the low pass passes 0.5 and 1 Hz (gain 1 − 1e-14) and Y/Q is the quotient */
    size_t nw = 0, max = 4000;
    double *start = malloc(max * sizeof *start), *mean = malloc(max * sizeof *mean);
    ck_assert_int_eq(rs_track_window(RS_TRACK_WINDOW_MEAN, yq, s, n, 2, 0.5, start, mean, max, &nw, err,
                                     sizeof err), RS_OK);
    ck_assert_uint_eq(nw, 1996);   /* starts 0 .. 997.5 m; the last ends at 999.5 <= 999.875 */
    /* window k holds the 16 samples s0 + j ds, j = 0..15:
     *   Σ_j sin(θ + j d) = sin(16 d/2)/sin(d/2) · sin(θ + 15 d/2),  d = 2π ds/L */
    const double d = 2 * M_PI * ds / L, factor = sin(8 * d) / (16 * sin(d / 2));
    double worst = -1;
    for (size_t k = 0; k < nw; k++) {
        const double hand = a + b * factor * sin(2 * M_PI * start[k] / L + 7.5 * d);
        ck_assert_msg(fabs(mean[k] - hand) < 1e-9, "window %zu at %g m: %.12g, hand %.12g", k, start[k], mean[k],
                      hand);
        worst = fmax(worst, mean[k]);
    }
    /* the largest: a window centred near the crest; the crest is between windows, so
     * within the phase step of 0.5 m (1 − cos(π/100) of b factor) */
    ck_assert_msg(worst <= a + b * factor + 1e-12 && worst >= a + b * factor * cos(M_PI * 0.5 / L) - 1e-12,
                  "max %.12g, factor %.12g", worst, factor);
    free(Y);
    free(Q);
    free(s);
    free(yq);
    free(start);
    free(mean);
}
END_TEST

START_TEST(derivative_of_a_sinusoid)
{
    const double fs = 100, f = 3, w = 2 * M_PI * f;
    const size_t n = 500;
    double v[500], a[500];
    for (size_t i = 0; i < n; i++) v[i] = 0.01 * sin(w * (double)i / fs);
    char err[128];
    ck_assert_int_eq(rs_en14363_derivative(v, n, fs, a, err, sizeof err), RS_OK);
    const double g = sin(w / fs) / (w / fs);
    for (size_t i = 1; i + 1 < n; i++)
        ck_assert_double_eq_tol(a[i], 0.01 * w * g * cos(w * (double)i / fs), 1e-12);
}
END_TEST

START_TEST(refusals)
{
    double y[6] = {1, 2, 3, 4, 5, 6}, s[6] = {0, 1, 1, 2, 3, 4}, st[8], v[8];
    size_t nw;
    char err[256];
    ck_assert_int_eq(rs_track_window(RS_TRACK_WINDOW_MEAN, y, s, 6, 2, 0.5, st, v, 8, &nw, err, sizeof err),
                     RS_E_ORDER);
    ck_assert_msg(strstr(err, "position 2 (1 m) is not beyond the one before") != NULL, "%s", err);
    const double sparse[6] = {0, 3, 6, 9, 12, 15};   /* 3 m apart: a 2 m window can miss every sample */
    ck_assert_int_eq(rs_track_window(RS_TRACK_WINDOW_MEAN, y, sparse, 6, 2, 0.5, st, v, 8, &nw, err, sizeof err),
                     RS_E_ARG);
    ck_assert_msg(strstr(err, "holds no sample") != NULL && strstr(err, "output") != NULL, "%s", err);
    double Y[64], Q[64], yq[64];
    for (int i = 0; i < 64; i++) {
        Y[i] = 1e3;
        Q[i] = i < 40 ? 50e3 : -10.0;   /* the wheel lifts (a step: the low pass rings, but Q ends < 0) */
    }
    ck_assert_int_eq(rs_en14363_yq(Y, Q, 64, 100, yq, err, sizeof err), RS_E_ARG);
    ck_assert_msg(strstr(err, "unloaded") != NULL, "%s", err);
    ck_assert_int_eq(rs_en14363_bandpass(Y, 64, 100, 60, 2, yq, err, sizeof err), RS_E_ARG);
    ck_assert_msg(strstr(err, "Nyquist") != NULL, "%s", err);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("en14363");
    TCase *tc = tcase_create("figures");
    tcase_add_test(tc, bandpass_keeps_the_band);
    tcase_add_test(tc, f0_from_the_spectrum);
    tcase_add_test(tc, limits);
    tcase_add_test(tc, yq_sliding_mean);
    tcase_add_test(tc, derivative_of_a_sinusoid);
    tcase_add_test(tc, refusals);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
