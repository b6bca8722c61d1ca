/*
 * test_assess_cli.c — `railsym assess` end to end ($RAILSYM_BIN, else
 * ./build/railsym) on a CSV of known signals, 200 Hz for 40 s at 25 m/s
 * (x = 0.125 m per sample, 1000 m):
 *  - ay = 0.8 sin(2π 5 t) + 0.3 + 0.4 sin(2π 15 t) m/s²: f0 5 Hz found from
 *    the spectrum, band 3 .. 7 Hz, largest rms 0.8/√2 = 0.5657 m/s² (the
 *    15 Hz part passes with 0.0075, the mean not at all); limit for
 *    m+ = 5 t (12 − 1)/2 = 5.5 m/s², margin 4.934; for m+ = 58 t the limit
 *    0.2 is exceeded by 0.3657;
 *  - the wheel w: Q = 40 kN, Y = Q (0.3 + 0.2 sin(2π x/50 m)): largest 2 m
 *    mean 0.3 + 0.2 × 0.99738 (the mean of 16 samples of the sine over
 *    2 m, test_en14363) = 0.4995, found without --wheel (w.Y and w.Q);
 *  - sumY = 12 kN sin(2π 5 t) + 5 kN: rms 12/√2 = 8.485 kN after the band
 *    pass, limit (10 + 2·110/3)/2 = 41.67 kN;
 *  - 90 windows of 100 m and 1996 of 2 m in the CSVs;
 *  - a wheel's Y given as --sum-y too leaves its Y/Q as it was;
 *  - --sum-y of a signed sum of columns: sumY+sumY twice the rms, w.Y-w.Y nothing;
 *  - a missing column, positions that do not increase and --frame without
 *    --bogie-mass are refused with messages that say what to do;
 *  - a window's position is printed at the record's resolution ("20 m",
 *    not "19.9999 m" for positions that start 0.1 mm behind the origin).
 */
#define _GNU_SOURCE
#include <check.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "rs_test.h"
#include "rs_test_files.h"

static char bin[PATH_MAX], dir[64], csv[128];

#define sh rs_test_sh

static int lines(const char *path)
{
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    int n = 0, c;
    while ((c = fgetc(f)) != EOF) n += c == '\n';
    fclose(f);
    return n;
}

/* x decreasing at row `bad` (0: never) */
static void write_csv(const char *path, int bad)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "time,x,ay,w.Y,w.Q,sumY\n");
    for (int i = 0; i < 8000; i++) {
        const double t = i / 200.0, x = i == bad ? 0 : 0.125 * i, Q = 40e3;
        fprintf(f, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", t, x,
                0.8 * sin(2 * M_PI * 5 * t) + 0.3 + 0.4 * sin(2 * M_PI * 15 * t),
                Q * (0.3 + 0.2 * sin(2 * M_PI * x / 50)), Q, 12e3 * sin(2 * M_PI * 5 * t) + 5e3);
    }
    fclose(f);
}

static void setup(void)
{
    snprintf(bin, sizeof bin, "%s", rs_test_bin());
    snprintf(dir, sizeof dir, "/tmp/rs_assessXXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(csv, sizeof csv, "%s/run.csv", dir);
    write_csv(csv, 0);
}

static void teardown(void) { sh("rm -rf %s", dir); }

/* the command's output (out.txt) holds `pattern` */
static void has(const char *pattern)
{
    char path[128], text[16384];
    snprintf(path, sizeof path, "%s/out.txt", dir);
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    const size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    ck_assert_msg(strstr(text, pattern) != NULL, "no \"%s\" in:\n%s", pattern, text);
}
#define HAS(pattern) has(pattern)

START_TEST(figures_and_verdicts)
{
    ck_assert_int_eq(sh("%s assess %s --frame ay --bogie-mass 5 --sum-y sumY --wheel-load 110 --no-plot > %s/out.txt",
                        bin, csv, dir), 0);
    HAS("frame 'ay': f0 5 Hz (from its spectrum), band pass 3 .. 7 Hz");
    HAS("frame 'ay': largest rms 0.5657 m/s^2");
    HAS("limit (12 - m+/5)/2 = 5.5 m/s^2 (m+ 5 t): within, margin 4.934 m/s^2");
    HAS("Y/Q w: largest 2 m mean 0.4995");
    HAS("limit 0.8: within, margin 0.3005");
    HAS("sum Y 'sumY': largest rms 8.485 kN");
    HAS("= 41.67 kN (alpha 1.00, Q0 110 kN): within");
    /* the verdicts' source line: the clause, no sub-clause (docs/analyses.md) */
    HAS("EN 14363:2016, clause 7 (its sub-clauses and these limits not confirmed against its text: "
        "docs/analyses.md):\nframe 'ay': largest rms");
    char path[160];
    snprintf(path, sizeof path, "%s/run_assess_frame.csv", dir);
    ck_assert_int_eq(lines(path), 1 + 90);
    snprintf(path, sizeof path, "%s/run_assess_yq.csv", dir);
    ck_assert_int_eq(lines(path), 1 + 1996);
    snprintf(path, sizeof path, "%s/run_assess_sum_y.csv", dir);
    ck_assert_int_eq(lines(path), 1 + 90);
    ck_assert_int_eq(sh("head -1 %s/run_assess_frame.csv | grep -qx 's_start_m,ay rms m/s^2,limit m/s^2'", dir), 0);
    /* a heavy bogie: the limit (12 - 58/5)/2 = 0.2 m/s^2 is exceeded; the exit status stays 0 */
    ck_assert_int_eq(sh("%s assess %s --frame ay --bogie-mass 58 --wheel w --no-plot > %s/out.txt", bin, csv, dir), 0);
    HAS("EXCEEDED by 0.3657 m/s^2");
    /* a wheel's Y also given as a sum Y: each column is read once and Y/Q stays Y over Q */
    ck_assert_int_eq(sh("%s assess %s --sum-y w.Y --wheel-load 110 --no-plot > %s/out.txt", bin, csv, dir), 0);
    HAS("Y/Q w: largest 2 m mean 0.4995");
    /* a signed sum of columns (a wheelset's R.Y-L.Y): sumY + sumY has twice the rms, 2 × 8.485 = 16.97 kN;
     * sumY + w.Y - w.Y is sumY's (the w terms cancel) */
    ck_assert_int_eq(sh("%s assess %s --sum-y sumY+sumY --sum-y sumY+w.Y-w.Y --wheel-load 110 --no-plot > %s/out.txt",
                        bin, csv, dir),
                     0);
    HAS("sum Y 'sumY+sumY': largest rms 16.97 kN");
    HAS("sum Y 'sumY+w.Y-w.Y': largest rms 8.485 kN");
    ck_assert_int_eq(sh("%s assess %s --sum-y sumY+ --wheel-load 110 --no-plot > %s/out.txt 2>&1", bin, csv, dir), 2);
    HAS("--sum-y 'sumY+': an empty term");
    ck_assert_int_eq(sh("%s assess %s --sum-y sumY-w.YY --wheel-load 110 --no-plot > %s/out.txt 2>&1", bin, csv, dir),
                     1);
    HAS("has no column 'w.YY' (did you mean 'w.Y'?)");
}
END_TEST

START_TEST(refusals)
{
    ck_assert_int_eq(sh("%s assess %s --frame ayy --bogie-mass 5 --no-plot > %s/out.txt 2>&1", bin, csv, dir), 1);
    HAS("has no column 'ayy' (did you mean 'ay'?)");
    ck_assert_int_eq(sh("%s assess %s --frame ay --no-plot > %s/out.txt 2>&1", bin, csv, dir), 2);
    HAS("--frame needs --bogie-mass M");
    write_csv(csv, 4000);
    ck_assert_int_eq(sh("%s assess %s --wheel w --no-plot > %s/out.txt 2>&1", bin, csv, dir), 1);
    HAS("position 4000 (0 m) is not beyond the one before (499.875 m): the vehicle must move forward");
}
END_TEST

/* Positions 0.1 mm behind the track's origin (x = 0.125 i − 1e-4 m), Y/Q
 * 0.3 but 0.5 on the 16 samples i = 160..175: the one 2 m window holding
 * all of them starts at s[0] + 40·0.5 = 19.9999 m (its mean 0.4894: the
 * 20 Hz low pass spreads the step), printed "20 m" at the
 * record's resolution (0.125 m per sample: one decimal, trailing zeros
 * dropped), not "19.9999 m". */
START_TEST(positions_at_the_record_resolution)
{
    FILE *f = fopen(csv, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "time,x,w.Y,w.Q\n");
    for (int i = 0; i < 2000; i++)
        fprintf(f, "%.17g,%.17g,%.17g,%.17g\n", i / 200.0, 0.125 * i - 1e-4, 40e3 * (i >= 160 && i < 176 ? 0.5 : 0.3),
                40e3);
    fclose(f);
    ck_assert_int_eq(sh("%s assess %s --no-plot > %s/out.txt", bin, csv, dir), 0);
    HAS("Y/Q w: largest 2 m mean 0.4894 (window at 20 m); limit 0.8");
    /* the table keeps the exact starts */
    ck_assert_int_eq(sh("grep -q '^19.9999,0.489' %s/run_assess_yq.csv", dir), 0);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("assess_cli");
    TCase *tc = tcase_create("cli");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, figures_and_verdicts);
    tcase_add_test(tc, refusals);
    tcase_add_test(tc, positions_at_the_record_resolution);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
