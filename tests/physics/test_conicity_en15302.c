/*
 * test_conicity_en15302.c — rs_conicity_en15302 (runtime/contact/rs_conicity.c)
 * against the reference results of EN 15302:2008+A1:2010, Annex E.
 *
 * The standard's benchmark gives, for reference wheel/rail profile pairs,
 * the rolling-radius difference Delta r(y) on a 0.1 mm grid and the
 * equivalent conicity it must yield at each amplitude, with Annex F's
 * tolerance +- min(0.05, 0.5 tan ge).  The data (all nine cases: E1-E4,
 * equal wheels and diameters, symmetric; E5-E8, the same wheels with
 * diameters 920 / 918 mm; E9, unlike wheels A / B) are in tests/data/en15302/,
 * with their source in each file's header (a public transcription of Annex E;
 * the standard itself was not at hand).  This checks the conicity step on
 * Delta r tables the standard fixes, independently of our contact geometry;
 * the profiles behind them (R-UIC 519-A/B/H/I, S-UIC 519-A) are measured ones
 * that are not shipped, so the geometry step is not part of this check.
 *
 * Checked:
 *  - every amplitude the table allows (1.0 ... 6.8 mm, 0.1 mm apart; E4's
 *    table reaches 7.1 mm) lies in Annex F's band around the reference;
 *  - and agrees with the reference to 0.001, the digit it is printed to,
 *    at the Delta r jumps too (measured: 0.0005, 0.0005, 0.0007, 0.0005 for
 *    E1-E4: the rounding of the printed values);
 *  - the asymmetric cases (dr(0) = 1 mm for E5-E8, the oscillation centred
 *    off y = 0): every amplitude up to where [y1, y2] leaves the table, in
 *    the band; E6-E9 within 0.001 (measured 0.0005, 0.0007, 0.0005,
 *    0.0006), E5 within 0.01 (measured 0.0062, below);
 *  - E4's dr is exactly 0 for |y| <= 1.7 mm: up to A = 1.7 mm the reference
 *    is 0.000 (infinite wavelength), and so is ours, centred on y = 0;
 *  - E2's tread is an exact cone: 0.025 to 1e-9 below the jump.
 * RS_TEST_VERBOSE=1 prints every row.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_conicity.h"
#include "rs_test.h"

#define DATA "tests/data/en15302/"
#define MAXROWS 256

/* Reads the numeric rows of a CSV file (lines starting with '#' and the
 * header line are skipped) into cols[k][i], k < ncol.  Returns the number
 * of rows. */
static int read_csv(const char *name, int ncol, double cols[][MAXROWS])
{
    char path[256], line[512];
    snprintf(path, sizeof path, DATA "%s", name);
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "%s: cannot open (run the test from the repository root)", path);
    int n = 0, header = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (!header) {
            header = 1;
            continue;
        }
        ck_assert_msg(n < MAXROWS, "%s: more than %d rows", path, MAXROWS);
        char *p = line;
        for (int k = 0; k < ncol; k++) {
            char *end;
            cols[k][n] = strtod(p, &end);
            ck_assert_msg(end != p, "%s:%d: column %d is not a number", path, n + 1, k + 1);
            p = end + (*end == ',');
        }
        n++;
    }
    fclose(f);
    return n;
}

typedef struct {
    double worst_band;  /* largest |ours - ref| / band half-width */
    double worst;       /* largest |ours - ref|                   */
    double at;          /* its amplitude (mm)                     */
    int checked;
} case_result;

/* Case C, its dr table of N points; amplitudes up to AMAX mm (where
 * [y1, y2] fits in the table); SYMMETRIC: the oscillation must be centred
 * on y = 0. */
static case_result check_case(int c, int npts, double amax, int symmetric)
{
    static double dr[2][MAXROWS], ref[4][MAXROWS];
    char name[64];
    snprintf(name, sizeof name, "E%d_dr.csv", c);
    const int n = read_csv(name, 2, dr);
    snprintf(name, sizeof name, "E%d_ref.csv", c);
    const int m = read_csv(name, 4, ref);
    ck_assert_int_eq(n, npts);
    ck_assert_int_ge(m, 60);

    double y[MAXROWS], d[MAXROWS];
    for (int i = 0; i < n; i++) {
        y[i] = dr[0][i] * 1e-3;
        d[i] = dr[1][i] * 1e-3;
    }
    const int verbose = getenv("RS_TEST_VERBOSE") != NULL;
    case_result r = {0, 0, 0, 0};
    for (int i = 0; i < m; i++) {
        const double A = ref[0][i], t_ref = ref[1][i];
        if (A > amax + 1e-9)
            break;   /* [y1, y2] leaves the Delta r table: not computable from it */
        double t, ym;
        ck_assert_int_eq(rs_conicity_en15302(y, d, n, A * 1e-3, &t, &ym, NULL), RS_OK);
        if (symmetric)
            ck_assert_msg(fabs(ym) < 1e-9, "E%d A = %.1f mm: centre %g m", c, A, ym);
        const double half = fmin(0.05, 0.5 * t_ref);
        ck_assert_msg(t >= ref[3][i] - 5e-4 && t <= ref[2][i] + 5e-4,
                      "E%d A = %.1f mm: tan ge = %.4f outside EN 15302's band [%.3f, %.3f] "
                      "around %.3f",
                      c, A, t, ref[3][i], ref[2][i], t_ref);
        const double e = fabs(t - t_ref);
        if (half > 0 && e / half > r.worst_band)
            r.worst_band = e / half;
        if (e > r.worst) {
            r.worst = e;
            r.at = A;
        }
        if (verbose)
            printf("E%d A = %.1f mm: ours %.4f, EN 15302 %.3f, diff %+.4f, centre %.3f mm\n", c,
                   A, t, t_ref, t - t_ref, ym * 1e3);
        r.checked++;
    }
    printf("E%d: %d amplitudes, worst |diff| = %.4f (A = %.1f mm), %.2f of Annex F's band\n", c,
           r.checked, r.worst, r.at, r.worst_band);
    return r;
}

START_TEST(annex_e_symmetric_cases)
{
    for (int c = 1; c <= 4; c++) {
        /* E4's table (wheel I) runs over -7.1 ... 7.1 mm */
        const case_result r = c == 4 ? check_case(c, 143, 7.1, 1) : check_case(c, 137, 6.8, 1);
        ck_assert_int_eq(r.checked, c == 4 ? 62 : 59);
        ck_assert_msg(r.worst < 0.001, "E%d: %.4f from the reference at A = %.1f mm", c, r.worst,
                      r.at);
    }
}
END_TEST

/* E4 (wheels I / I): dr is exactly 0 for |y| <= 1.7 mm, a neutral stretch
 * where nothing steers the wheelset back, so an oscillation that stays in
 * it has an infinite wavelength: EN 15302's reference is 0.000 up to
 * A = 1.7 mm and 0.084 at 1.8 mm.  Ours: 0, J infinite, centred on the
 * stretch (not at an arbitrary point of it). */
START_TEST(annex_e4_flat_stretch)
{
    static double dr[2][MAXROWS];
    const int n = read_csv("E4_dr.csv", 2, dr);
    double y[MAXROWS], d[MAXROWS];
    for (int i = 0; i < n; i++) {
        y[i] = dr[0][i] * 1e-3;
        d[i] = dr[1][i] * 1e-3;
    }
    for (int k = 1; k <= 17; k++) {
        const double A = k * 0.1e-3;
        double t = -1, ym = -1, J = 0;
        ck_assert_int_eq(rs_conicity_en15302(y, d, n, A, &t, &ym, &J), RS_OK);
        ck_assert_msg(t == 0 && isinf(J) && fabs(ym) < 1e-12, "A = %.1f mm: %g, J %g, centre %g m",
                      A * 1e3, t, J, ym);
    }
    double t;
    ck_assert_int_eq(rs_conicity_en15302(y, d, n, 1.8e-3, &t, NULL, NULL), RS_OK);
    ck_assert_msg(fabs(t - 0.084) < 0.001, "A = 1.8 mm: %.4f", t);
}
END_TEST

/* E5: the A/A pair with wheel diameters 920 / 918 mm, so dr(0) = 1 mm and
 * the oscillation is centred where dr = 0, near y = -2.6 mm for small
 * amplitudes; the table then allows amplitudes up to 5.0 mm. */
START_TEST(annex_e_asymmetric_case)
{
    const case_result r = check_case(5, 137, 5.0, 0);
    ck_assert_int_eq(r.checked, 41);
    /* measured 0.0062 at 1.5 mm: this dr is a staircase on the 0.1 mm grid
     * (steps of 0.01-0.17 mm between nearly flat runs), and at amplitudes
     * of 1-2 mm the oscillation spans 20-40 grid points, where linear
     * interpolation between them (ours) and the reference's smoother
     * curve differ by a few thousandths; 0.12 of Annex F's band */
    ck_assert_msg(r.worst < 0.01, "E5: %.4f from the reference at A = %.1f mm", r.worst, r.at);
}
END_TEST

/* E6-E8: wheels B, H, I with diameters 920 / 918 mm (dr(0) = 1 mm), and
 * E9: wheel A on the right, B on the left (920 / 920 mm).  Each table has
 * its own grid (the transcription's, in the files' headers); amplitudes up
 * to where the oscillation, centred where dr = 0, leaves it. */
START_TEST(annex_e_asymmetric_cases_6_to_9)
{
    static const struct {
        int c, npts, checked;
        double amax;
    } cs[] = {{6, 138, 47, 5.6}, {7, 136, 42, 5.1}, {8, 142, 51, 6.0}, {9, 137, 58, 6.7}};
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        const case_result r = check_case(cs[i].c, cs[i].npts, cs[i].amax, 0);
        ck_assert_int_eq(r.checked, cs[i].checked);
        /* measured 0.0005, 0.0007, 0.0005, 0.0006 */
        ck_assert_msg(r.worst < 0.001, "E%d: %.4f from the reference at A = %.1f mm", cs[i].c,
                      r.worst, r.at);
    }
}
END_TEST

/* E2's tread is a 1:40 cone (Delta r = 0.05 y): below the jump at 3 mm
 * the conicity is the taper exactly. */
START_TEST(annex_e2_cone)
{
    static double dr[2][MAXROWS];
    const int n = read_csv("E2_dr.csv", 2, dr);
    double y[MAXROWS], d[MAXROWS];
    for (int i = 0; i < n; i++) {
        y[i] = dr[0][i] * 1e-3;
        d[i] = dr[1][i] * 1e-3;
    }
    for (double A = 0.5; A <= 2.95; A += 0.25) {
        double t;
        ck_assert_int_eq(rs_conicity_en15302(y, d, n, A * 1e-3, &t, NULL, NULL), RS_OK);
        ck_assert_msg(fabs(t - 0.025) < 1e-9, "A = %.2f mm: %.12f", A, t);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("conicity_en15302");
    TCase *tc = tcase_create("conicity_en15302");
    tcase_add_test(tc, annex_e_symmetric_cases);
    tcase_add_test(tc, annex_e4_flat_stretch);
    tcase_add_test(tc, annex_e_asymmetric_case);
    tcase_add_test(tc, annex_e_asymmetric_cases_6_to_9);
    tcase_add_test(tc, annex_e2_cone);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
