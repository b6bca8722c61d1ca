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
 * O(Δt) from the value at the row's state.  `accelerometer(G)`, the
 * specific force a − g, reads (ax, az + g) in every row.
 *
 * accelerometer_at_rest: a box held by a stiff bushing in a base rolled by
 * the cant c about x (a car body on canted track), settled by
 * `equilibrium`: at rest it reads −g = (0, 0, g) of ground resolved in the
 * rolled base, whose axes are ey' = (0, cos c, sin c), ez' = (0, −sin c,
 * cos c) (rotate(ground, x, c)): (0, g sin c, g cos c): 0.9794 and 9.761
 * m/s² for c = 0.1 rad, and (0, 0, +9.81), one g upwards, on level track,
 * where acc() reads 0.  A `gravity` statement after an accelerometer() is
 * refused (tests/vdl_errors/gravity_after_accelerometer.vdl).
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
                           "output zdd = pz_dd      # m/s^2\n"
                           "output fx = x(accelerometer(G))   # m/s^2\n"
                           "output fz = z(accelerometer(G))   # m/s^2\n";

static const char kCant[] = "param m = 50, g = 9.81, cant = 0.1   # kg, m/s^2, rad\n"
                            "param k = 1e5   # N/m\n"
                            "coord yc, zc    # m, m: the box in the canted base\n"
                            "base Bt = rotate(ground, x, cant)\n"
                            "point G = O + [0, yc, zc] in Bt\n"
                            "body box  mass m  cg G  frame Bt  inertia diag(1, 1, 1) in Bt\n"
                            "gravity [0, 0, -g] in ground\n"
                            "frame FG = G in Bt\n"
                            "bushing mount  between ground and FG of box  k [k, k, k, 0, 0, 0]\n"
                            "output f = accelerometer(G) in Bt   # m/s^2\n"
                            "output a = acc(G) in Bt             # m/s^2\n";

static void setup(void)
{
    ck_assert_ptr_nonnull(mkdtemp(dir));
    rs_test_write(dir, "pend.vdl", kVdl);
    rs_test_write(dir, "cant.vdl", kCant);
    ck_assert_msg(rs_test_sh("%s compile %s/cant.vdl -o %s/cant > %s/compile.log 2>&1", rs_test_bin(), dir, dir,
                             dir) == 0,
                  "compiling %s/cant.vdl failed (%s/compile.log)", dir, dir);
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
             "columns px pz px_dot pz_dot ax az zdd fx fz\n",
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
    ck_assert_str_eq(line, "time,px,pz,px_dot,pz_dot,ax,az,zdd,fx,fz\n");
    int rows = 0;
    double worst = 0, a_max = 0;
    double t, x, z, xd, zd, ax, az, zdd, fx, fz;
    while (fscanf(f, "%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf", &t, &x, &z, &xd, &zd, &ax, &az, &zdd, &fx, &fz) ==
           10) {
        const double th = atan2(x, -z);
        const double w = (xd * cos(th) + zd * sin(th)) / l; /* tangential speed / l */
        const double ex = -g * sin(th) * cos(th) - w * w * l * sin(th);
        const double ez = -g * sin(th) * sin(th) + w * w * l * cos(th);
        const double e = fmax(fabs(ax - ex), fabs(az - ez));
        if (rows == 0)
            ck_assert_msg(e < tol0, "%s, t = 0: acc (%.12g, %.12g), by hand (%.12g, %.12g)", method, ax, az, ex, ez);
        ck_assert_msg(e < tol, "%s, t = %g: acc (%.9g, %.9g), by hand (%.9g, %.9g)", method, t, ax, az, ex, ez);
        ck_assert_msg(fabs(zdd - az) < 1e-12, "%s, t = %g: pz_dd %.17g, z(acc(G)) %.17g", method, t, zdd, az);
        ck_assert_msg(fabs(fx - ax) < 1e-12 && fabs(fz - (az + g)) < 1e-12,
                      "%s, t = %g: accelerometer (%.17g, %.17g), acc − g (%.17g, %.17g)", method, t, fx, fz, ax, az + g);
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

/* The first row of the canted box settled at cant C: the accelerometer's
 * and acc()'s components in the rolled base. */
static void cant_row(double c, double f[3], double a[2])
{
    char scn[300], path[700], line[1000];
    snprintf(scn, sizeof scn,
             "duration 0.01\nstep 1e-3\noutput 0.01\nparam cant = %.17g\nequilibrium\ncolumns f.x f.y f.z a.y a.z\n",
             c);
    rs_test_write(dir, "cant.scn", scn);
    ck_assert_msg(rs_test_sh("%s run %s/cant --scenario %s/cant.scn --out %s/cant.csv > %s/run.log 2>&1",
                             rs_test_bin(), dir, dir, dir, dir) == 0,
                  "the run failed (%s/run.log)", dir);
    snprintf(path, sizeof path, "%s/cant.csv", dir);
    FILE *fp = fopen(path, "r");
    ck_assert_msg(fp != NULL, "no %s", path);
    ck_assert_ptr_nonnull(fgets(line, sizeof line, fp));
    ck_assert_str_eq(line, "time,f.x,f.y,f.z,a.y,a.z\n");
    double t;
    ck_assert_int_eq(fscanf(fp, "%lf,%lf,%lf,%lf,%lf,%lf", &t, &f[0], &f[1], &f[2], &a[0], &a[1]), 6);
    fclose(fp);
}

START_TEST(accelerometer_at_rest)
{
    const double g = 9.81, c = 0.1;
    double f[3], a[2];
    cant_row(c, f, a);
    printf("canted %g rad at rest: accelerometer (%.10g, %.10g, %.10g) m/s^2, acc (%.3g, %.3g)\n", c, f[0], f[1],
           f[2], a[0], a[1]);
    ck_assert_msg(fabs(a[0]) < 1e-9 && fabs(a[1]) < 1e-9, "at rest: acc (%g, %g)", a[0], a[1]);
    ck_assert_msg(fabs(f[0]) < 1e-12, "along the track %g", f[0]);
    ck_assert_msg(fabs(f[1] - g * sin(c)) < 1e-9, "lateral %.12g, g sin c %.12g", f[1], g * sin(c));
    ck_assert_msg(fabs(f[2] - g * cos(c)) < 1e-9, "vertical %.12g, g cos c %.12g", f[2], g * cos(c));
    ck_assert_double_eq_tol(f[1], 0.97937, 1e-5);   /* 9.81 · 0.0998334 */
    cant_row(0, f, a);
    ck_assert_msg(fabs(f[0]) < 1e-12 && fabs(f[1]) < 1e-12 && fabs(f[2] - g) < 1e-9,
                  "level: accelerometer (%.12g, %.12g, %.12g), one g upwards (0, 0, 9.81)", f[0], f[1], f[2]);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("output_accel");
    TCase *tc = tcase_create("output_accel");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, imex_outputs_have_accelerations);
    tcase_add_test(tc, rk4_outputs_have_accelerations);
    tcase_add_test(tc, accelerometer_at_rest);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
