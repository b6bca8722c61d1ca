/*
 * test_psd.c — Welch's PSD (runtime/app/rs_psd.h) against answers known
 * without it:
 *  - a sinusoid A sin(2π f0 t) + offset: the integrated PSD is the variance
 *    A²/2 (Parseval) within 1 %, and the peak is at the bin nearest f0;
 *  - Gaussian white noise of standard deviation σ (Box–Muller on a test-local
 *    generator): the one-sided level is flat at σ²/(fs/2) within 2 % on
 *    average and within 15 % in each tenth of the band;
 *  - bad arguments are refused with a message.
 */
#define _DEFAULT_SOURCE /* M_PI */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rs_psd.h"
#include "rs_status.h"
#include "rs_test.h"

START_TEST(sinusoid_parseval)
{
    const double fs = 100, A = 2, f0 = 3.7;
    const size_t n = 20000, nseg = 1024, nb = rs_psd_bins(nseg);
    double *x = malloc(n * sizeof *x), *P = malloc(nb * sizeof *P);
    for (size_t i = 0; i < n; i++) x[i] = 0.3 + A * sin(2 * M_PI * f0 * (double)i / fs);
    char err[256];
    size_t m = 0;
    ck_assert_int_eq(rs_psd_welch(x, n, fs, nseg, P, &m, err, sizeof err), RS_OK);
    ck_assert_uint_eq(m, (n - nseg) / (nseg / 2) + 1);   /* 50 % overlap */
    double var = 0;
    size_t kmax = 0;
    for (size_t k = 0; k < nb; k++) {
        var += P[k] * fs / (double)nseg;
        if (P[k] > P[kmax]) kmax = k;
    }
    ck_assert_msg(fabs(var / (A * A / 2) - 1) < 0.01, "integrated PSD %g, variance %g", var, A * A / 2);
    ck_assert_uint_eq(kmax, (size_t)lround(f0 * (double)nseg / fs));
    free(x);
    free(P);
}
END_TEST

/* xorshift64* (test-local, independent of the irregularity generator) */
static uint64_t st = 88172645463325252u;
static double unif(void)
{
    st ^= st >> 12;
    st ^= st << 25;
    st ^= st >> 27;
    return ((double)((st * 2685821657736338717u) >> 11) + 0.5) * 0x1.0p-53;
}

START_TEST(white_noise_level)
{
    const double fs = 200, sigma = 0.5;
    const size_t n = 1 << 18, nseg = 512, nb = rs_psd_bins(nseg);
    double *x = malloc(n * sizeof *x), *P = malloc(nb * sizeof *P);
    for (size_t i = 0; i < n; i += 2) {
        const double r = sqrt(-2 * log(unif())), th = 2 * M_PI * unif();
        x[i] = sigma * r * cos(th);
        x[i + 1] = sigma * r * sin(th);
    }
    char err[256];
    ck_assert_int_eq(rs_psd_welch(x, n, fs, nseg, P, NULL, err, sizeof err), RS_OK);
    const double level = sigma * sigma / (fs / 2);
    double mean = 0;
    for (size_t k = 1; k < nb - 1; k++) mean += P[k];
    mean /= (double)(nb - 2);
    ck_assert_msg(fabs(mean / level - 1) < 0.02, "mean level %g, expected %g", mean, level);
    for (int d = 0; d < 10; d++) {   /* flat: each tenth of the band */
        double s = 0;
        size_t c = 0;
        for (size_t k = 1 + (size_t)d * (nb - 2) / 10; k < 1 + (size_t)(d + 1) * (nb - 2) / 10; k++, c++) s += P[k];
        ck_assert_msg(fabs(s / (double)c / level - 1) < 0.15, "tenth %d: %g vs %g", d, s / (double)c, level);
    }
    free(x);
    free(P);
}
END_TEST

START_TEST(bad_arguments)
{
    double x[64] = {0}, P[64];
    char err[256] = "";
    ck_assert_int_eq(rs_psd_welch(x, 64, 10, 9, P, NULL, err, sizeof err), RS_E_ARG);
    ck_assert_ptr_nonnull(strstr(err, "even"));
    ck_assert_int_eq(rs_psd_welch(x, 64, 10, 128, P, NULL, err, sizeof err), RS_E_ARG);
    ck_assert_int_eq(rs_psd_welch(x, 64, 0, 16, P, NULL, err, sizeof err), RS_E_ARG);
    x[5] = NAN;
    ck_assert_int_eq(rs_psd_welch(x, 64, 10, 16, P, NULL, err, sizeof err), RS_E_NONFINITE);
    ck_assert_ptr_nonnull(strstr(err, "sample 5"));
    ck_assert_uint_eq(rs_psd_default_segment(20000), 2048);
    ck_assert_uint_eq(rs_psd_default_segment(10), 8);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("psd");
    TCase *tc = tcase_create("welch");
    tcase_add_test(tc, sinusoid_parseval);
    tcase_add_test(tc, white_noise_level);
    tcase_add_test(tc, bad_arguments);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
