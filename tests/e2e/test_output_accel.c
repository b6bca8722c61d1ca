/*
 * test_output_accel.c — outputs that read accelerations (`acc(P)`,
 * `alpha(B)`, `q_dd` in a .vdl output; a floor point's acceleration for
 * `railsym comfort`) have the run's accelerations, with both integrators
 * and in the first row.  (The IMEX step used to leave q̈ at zero, so such an
 * output held only its velocity-product terms: a falling body's z(acc(G))
 * read 0.)
 *
 * The model is a point mass on a rigid link of length l, written in the
 * Cartesian x, z of the mass with the link as a constraint, so the
 * acceleration comes through the multiplier.  Independent answer, from each
 * row's state alone: with θ the angle from the downward vertical and
 * ω = θ̇, the mass accelerates by −g sin θ along the tangent
 * (cos θ, sin θ) and by ω² l towards the pivot (−sin θ, cos θ).  The first
 * row (at rest, θ0) is exact; later rows hold the step's mean acceleration,
 * O(Δt) from the value at the row's state.
 */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "rs_test.h"
#include "rs_test_files.h"

static char dir[] = "/tmp/rs_output_accel_XXXXXX";

static const char kVdl[] = "param m = 3.0, l = 0.9, g = 9.81   # kg, m, m/s^2\n"
                           "coord px = 0.5431, pz = -0.7183   # m, m: near the circle (projected onto it)\n"
                           "point G = O + [px, 0, pz] in ground\n"
                           "body bob  mass m  cg G  inertia diag(0.01, 0.01, 0.01) in ground\n"
                           "gravity [0, 0, -g] in ground\n"
                           "constraint link = px^2 + pz^2 - l^2\n"
                           "output ax = x(acc(G))   # m/s^2\n"
                           "output az = z(acc(G))   # m/s^2\n"
                           "output zdd = pz_dd      # m/s^2\n";

static void setup(void)
{
    ck_assert_ptr_nonnull(mkdtemp(dir));
    rs_test_write(dir, "pend.vdl", kVdl);
    ck_assert_msg(rs_test_sh("%s compile %s/pend.vdl -o %s/pend > %s/compile.log 2>&1", rs_test_bin(), dir, dir,
                             dir) == 0,
                  "compiling %s/pend.vdl failed (%s/compile.log)", dir, dir);
}

static void teardown(void)
{
    if (rs_test_sh("rm -rf '%s'", dir) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}

/* Runs the pendulum with METHOD and checks every row against the hand
 * formula: the first row to TOL0, the others to TOL. */
static void check_method(const char *method, double tol0, double tol)
{
    const double g = 9.81, l = 0.9;
    char scn[400], path[700];
    snprintf(scn, sizeof scn,
             "duration 0.5\nstep 1e-4\noutput 0.01\nmethod %s\ntolerance 1e-10\n"
             "columns px pz px_dot pz_dot ax az zdd\n",
             method);
    rs_test_write(dir, "run.scn", scn);
    ck_assert_msg(rs_test_sh("%s run %s/pend --scenario %s/run.scn --out %s/%s.csv > %s/run.log 2>&1", rs_test_bin(),
                             dir, dir, dir, method, dir) == 0,
                  "the run failed (%s/run.log)", dir);
    snprintf(path, sizeof path, "%s/%s.csv", dir, method);
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "no %s", path);
    char line[1000];
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_str_eq(line, "time,px,pz,px_dot,pz_dot,ax,az,zdd\n");
    int rows = 0;
    double worst = 0, a_max = 0;
    double t, x, z, xd, zd, ax, az, zdd;
    while (fscanf(f, "%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf", &t, &x, &z, &xd, &zd, &ax, &az, &zdd) == 8) {
        const double th = atan2(x, -z);
        const double w = (xd * cos(th) + zd * sin(th)) / l; /* tangential speed / l */
        const double ex = -g * sin(th) * cos(th) - w * w * l * sin(th);
        const double ez = -g * sin(th) * sin(th) + w * w * l * cos(th);
        const double e = fmax(fabs(ax - ex), fabs(az - ez));
        if (rows == 0)
            ck_assert_msg(e < tol0, "%s, t = 0: acc (%.12g, %.12g), by hand (%.12g, %.12g)", method, ax, az, ex, ez);
        ck_assert_msg(e < tol, "%s, t = %g: acc (%.9g, %.9g), by hand (%.9g, %.9g)", method, t, ax, az, ex, ez);
        ck_assert_msg(fabs(zdd - az) < 1e-12, "%s, t = %g: pz_dd %.17g, z(acc(G)) %.17g", method, t, zdd, az);
        worst = fmax(worst, e);
        a_max = fmax(a_max, fabs(ez));
        rows++;
    }
    fclose(f);
    ck_assert_int_eq(rows, 51);
    ck_assert(a_max > 1.0); /* a check of something that moves */
    printf("%s: %d rows, largest |acc - hand| %.3g m/s^2 (|az| up to %.3g)\n", method, rows, worst, a_max);
}

START_TEST(imex_outputs_have_accelerations) { check_method("imex", 1e-8, 5e-3); }
END_TEST

START_TEST(rk4_outputs_have_accelerations) { check_method("rk4", 1e-8, 1e-6); }
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("output_accel");
    TCase *tc = tcase_create("output_accel");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, imex_outputs_have_accelerations);
    tcase_add_test(tc, rk4_outputs_have_accelerations);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
