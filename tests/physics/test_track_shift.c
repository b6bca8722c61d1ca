/*
 * test_track_shift.c — ΣY figures (runtime/app/rs_track_shift.h) against
 * hand calculations:
 *  - ΣY = C + A sin(2π 2 t) + B sin(2π 40 t) at 25 m/s, 200 Hz (s = 0.125 m
 *    steps): after the 20 Hz low pass every 100 m window (8 periods of the
 *    2 Hz wave, 160 of the 40 Hz one) has rms √(C² + A²/2 + (B g)²/2) with
 *    g = 1/√(1 + 2^8) the 4th-order Butterworth magnitude at twice the
 *    cut-off; windows start every 10 m;
 *  - the limit α (10 + 2 Q0/3): Q0 = 110 kN gives 83.33 kN (α = 1) and
 *    70.83 kN (α = 0.85);
 *  - positions that do not increase are refused.
 */
#define _DEFAULT_SOURCE /* M_PI */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rs_status.h"
#include "rs_test.h"
#include "rs_track_shift.h"

START_TEST(sliding_rms_of_sinusoids)
{
    const double fs = 200, C = 5e3, A = 12e3, B = 8e3;   /* 25 m/s */
    const size_t n = 6000;   /* 30 s, 750 m */
    double *y = malloc(n * sizeof *y), *s = malloc(n * sizeof *s), *f = malloc(n * sizeof *f);
    for (size_t i = 0; i < n; i++) {
        const double t = (double)i / fs;
        s[i] = 0.125 * (double)i;   /* v / fs, exact in binary: no sample on a window edge by rounding */
        y[i] = C + A * sin(2 * M_PI * 2 * t) + B * sin(2 * M_PI * 40 * t);
    }
    char err[256];
    ck_assert_int_eq(rs_track_shift_lowpass(y, n, fs, 20, f, err, sizeof err), RS_OK);
    double start[100], rms[100];
    size_t nw = 0;
    ck_assert_int_eq(rs_track_shift_rms(f, s, n, 100, 10, start, rms, 100, &nw, err, sizeof err), RS_OK);
    ck_assert_uint_eq(nw, 65);   /* starts 0, 10, ..., 640 m: the last ends at 740 <= 749.875 */
    const double g = 1 / sqrt(1 + 256.0);
    const double hand = sqrt(C * C + A * A / 2 + B * g * B * g / 2);
    for (size_t k = 0; k < nw; k++) {
        ck_assert_double_eq_tol(start[k], 10.0 * (double)k, 1e-9);
        ck_assert_msg(fabs(rms[k] / hand - 1) < 1e-6, "window %zu: rms %.9g, hand %.9g", k, rms[k], hand);
    }
    free(y);
    free(s);
    free(f);
}
END_TEST

START_TEST(limit_and_refusals)
{
    ck_assert_double_eq_tol(rs_track_shift_limit(110, 1), 10 + 220.0 / 3, 1e-12);
    ck_assert_double_eq_tol(rs_track_shift_limit(110, 0.85), 0.85 * (10 + 220.0 / 3), 1e-12);
    double y[4] = {1, 2, 3, 4}, s[4] = {0, 50, 50, 200}, st[4], r[4];
    size_t nw;
    char err[256];
    ck_assert_int_eq(rs_track_shift_rms(y, s, 4, 100, 10, st, r, 4, &nw, err, sizeof err), RS_E_ORDER);
    ck_assert_msg(strstr(err, "position 2") != NULL, "%s", err);
    s[2] = 60;
    s[3] = 90;
    ck_assert_int_eq(rs_track_shift_rms(y, s, 4, 100, 10, st, r, 4, &nw, err, sizeof err), RS_E_ARG);
    ck_assert_msg(strstr(err, "less than one 100 m window") != NULL, "%s", err);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("track_shift");
    TCase *tc = tcase_create("sumY");
    tcase_add_test(tc, sliding_rms_of_sinusoids);
    tcase_add_test(tc, limit_and_refusals);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
