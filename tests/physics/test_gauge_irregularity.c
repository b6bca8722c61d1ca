/*
 * test_gauge_irregularity.c — the track file's `irregularity gauge`
 * (runtime/contact/rs_track*.c; docs/contact.md "Track files"): each rail
 * moves g/2 outwards (+ = wider), in the constraint and the elastic contact
 * alike.  generated/wheelset_cone (1:40 cones on R 300 mm rail heads),
 * centred, in static equilibrium (`equilibrium z roll`):
 *
 *   - a constant +5 mm gauge irregularity gives the same state, bit for bit
 *     up to 1e-12, as the plain track with both rails' offset b_r 2.5 mm
 *     larger (an independent way to widen the gauge: the model's own rail
 *     placement);
 *   - against the plain track at b_r = 0.75 m, hand values: the contact
 *     moves 2.5 mm outwards on each wheel (u_w; u_r, on the rail head's arc,
 *     stays), and the wheelset drops by 2.5 mm / 40 = 62.5 µm (the cone's
 *     radius there is that much smaller);
 *   - running at 10 m/s over a 4 mm, 20 m sine of gauge (constraint
 *     contact): the wheelset stays centred (a symmetric change moves no
 *     net lateral force), so each wheel's contact follows its rail:
 *     u_w(t) − u_w,0 = g(x(t))/2 within 2 µm.
 */
#define _DEFAULT_SOURCE /* mkdtemp, M_PI */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "rs_driver.h"
#include "rs_test.h"
#include "rs_test_scn.h"

#define MODEL "generated/wheelset_cone"

static char err[4000];
static char dir[] = "/tmp/rs_gauge_XXXXXX";

static void write_file(const char *name, const char *fmt, const char *arg)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, fmt, arg);
    fclose(f);
}

static void setup(void) { ck_assert_ptr_nonnull(mkdtemp(dir)); }

static rs_test_csv A, B, N;   /* the results read */

static void teardown(void)
{
    rs_test_csv_free(&A);
    rs_test_csv_free(&B);
    rs_test_csv_free(&N);
    rs_test_rmtree(dir);
}

/* Runs MODEL with scenario NAME.scn (written already) into NAME.scn.csv. */
static void run(const char *name)
{
    char scn[80];
    snprintf(scn, sizeof scn, "%s.scn", name);
    ck_assert_msg(rs_test_drive_in(dir, scn, NULL, MODEL, NULL, 0, err, sizeof err) == 0, "%s: %s", name, err);
}

static void read_csv(const char *name, rs_test_csv *t) { rs_test_csv_read(t, "%s/%s.scn.csv", dir, name); }

static double col(const rs_test_csv *t, int row, const char *name) { return rs_test_csv_at(t, row, name); }

/* s = x on all three tracks (origin at x = s = -10 m) */
static const char *TRACK = "railsym-track 1\ngauge %s\ninclination 1:40\n"
                           "origin x -10 y 0 z 0 heading 0 s -10\nstraight 110\n";

static const char *STATIC_SCN = "duration 0.002\nstep 1e-4\noutput 0.001\nmethod imex\n%s\n"
                                "equilibrium z roll\n";

/* Scenario NAME: STATIC_SCN with its track, contact mode and b_r. */
static void static_case(const char *name, const char *trk, int elastic, int wide_br)
{
    char body[900];
    snprintf(body, sizeof body, "%strack \"%s/%s\"\n%scolumns z roll %s", elastic ? "contact elastic\n" : "",
             dir, trk, wide_br ? "param b_r = 0.7525\n" : "",
             elastic ? "left.p1.u_w left.p1.u_r right.p1.u_w right.p1.u_r left.N right.N"
                     : "left.u_w left.u_r right.u_w right.u_r lambda_left.phi_n lambda_right.phi_n");
    char scn[40];
    snprintf(scn, sizeof scn, "%s.scn", name);
    write_file(scn, STATIC_SCN, body);
    run(name);
}


static void check_static(int elastic)
{
    write_file("g5.csv", "s,value\n-20,%s\n200,0.005\n", "0.005");
    char irr[300];
    snprintf(irr, sizeof irr, "%s%s", TRACK, "irregularity gauge table g5.csv linear\n");
    write_file("gauge.trk", irr, "1.435");
    write_file("wide.trk", TRACK, "1.440");
    write_file("plain.trk", TRACK, "1.435");
    static_case("a", "gauge.trk", elastic, 0);
    static_case("b", "wide.trk", elastic, 1);
    static_case("n", "plain.trk", elastic, 0);
    read_csv("a", &A);
    read_csv("b", &B);
    read_csv("n", &N);
    const char *uw[2] = {elastic ? "left.p1.u_w" : "left.u_w", elastic ? "right.p1.u_w" : "right.u_w"};
    const char *ur[2] = {elastic ? "left.p1.u_r" : "left.u_r", elastic ? "right.p1.u_r" : "right.u_r"};
    for (int k = 1; k < A.ncol; k++) {   /* the irregularity = the wider rail offset */
        const double a = rs_test_csv_cell(&A, 0, k), b = rs_test_csv_cell(&B, 0, k);
        ck_assert_msg(fabs(a - b) <= 1e-12 * fmax(1, fabs(b)), "%s: %s %.17g with +5 mm gauge, %.17g with b_r + 2.5 mm",
                      elastic ? "elastic" : "constraint", A.names[k], a, b);
    }
    for (int w = 0; w < 2; w++) {
        /* u_w counts towards the field side: the contact moves 2.5 mm out */
        ck_assert_double_eq_tol(col(&A, 0, uw[w]) - col(&N, 0, uw[w]), 0.0025, 1e-7);
        ck_assert_double_eq_tol(col(&A, 0, ur[w]) - col(&N, 0, ur[w]), 0, 1e-7);
    }
    ck_assert_double_eq_tol(col(&A, 0, "z") - col(&N, 0, "z"), -0.0025 / 40, 1e-8);
    printf("%s: u_w %.6g -> %.6g m, z %.6g -> %.6g m\n", elastic ? "elastic" : "constraint", col(&N, 0, uw[0]),
           col(&A, 0, uw[0]), col(&N, 0, "z"), col(&A, 0, "z"));
}

START_TEST(constant_gauge_is_a_wider_rail_offset_constraint)
{
    RS_REQUIRE_MODEL("wheelset_cone");
    check_static(0);
}
END_TEST

START_TEST(constant_gauge_is_a_wider_rail_offset_elastic)
{
    RS_REQUIRE_MODEL("wheelset_cone");
    check_static(1);
}
END_TEST

START_TEST(sine_gauge_moves_the_contacts)
{
    RS_REQUIRE_MODEL("wheelset_cone");
    char irr[300];
    snprintf(irr, sizeof irr, "%s%s", TRACK, "irregularity gauge sine amplitude 0.004 wavelength 20 from 5 to 95 taper 2\n");
    write_file("sine.trk", irr, "1.435");
    write_file("plain.trk", TRACK, "1.435");
    const char *scn = "duration 2\nstep 1e-4\noutput 0.001\nmethod imex\ntrack \"%s\"\n"
                      "initial x_dot = 10\ninitial spin_dot = 22.22222222222222\n"
                      "columns x y left.u_w right.u_w\n";
    char path[600];
    snprintf(path, sizeof path, "%s/sine.trk", dir);
    write_file("s.scn", scn, path);
    snprintf(path, sizeof path, "%s/plain.trk", dir);
    write_file("p.scn", scn, path);
    run("s");
    run("p");
    read_csv("s", &A);
    read_csv("p", &N);
    ck_assert_int_eq(A.nrow, 2001);
    double worst = 0;
    int checked = 0;
    for (int r = 0; r < A.nrow; r++) {
        const double x = col(&A, r, "x");
        if (x < 7 || x > 93)   /* inside the taper the hand value is the full sine's */
            continue;
        const double g = 0.004 * sin(2 * M_PI * x / 20);
        const double dl = col(&A, r, "left.u_w") - col(&N, r, "left.u_w");
        const double dr = col(&A, r, "right.u_w") - col(&N, r, "right.u_w");
        worst = fmax(worst, fmax(fabs(dl - g / 2), fabs(dr - g / 2)));
        ck_assert_msg(fabs(col(&A, r, "y")) < 1e-6, "x = %g m: the wheelset moved %g m sideways", x,
                      col(&A, r, "y"));
        checked++;
    }
    printf("sine gauge: %d samples, largest |Δu_w − g/2| %.3g m\n", checked, worst);
    ck_assert_int_gt(checked, 1200);   /* x = 7 .. 20 m */
    ck_assert_msg(worst < 2e-6, "u_w misses g/2 by %g m", worst);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("gauge_irregularity");
    TCase *tc = tcase_create("gauge");
    tcase_set_timeout(tc, 300);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, constant_gauge_is_a_wider_rail_offset_constraint);
    tcase_add_test(tc, constant_gauge_is_a_wider_rail_offset_elastic);
    tcase_add_test(tc, sine_gauge_moves_the_contacts);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
