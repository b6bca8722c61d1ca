/*
 * test_user_mistakes.c — mistakes an outside user made trying a new vehicle
 * (vehicles/examples/two_axle_wagon.vdl) through the commands, each answered
 * by a message that names the cause and the fix, never a failure far away:
 *
 *   - a wheel profile given as the rail (or a rail as the wheel) by a
 *     scenario's `rail_profile` / `wheel_profile` line: refused naming the
 *     file, its kind and the kind wanted (it used to reach the contact-point
 *     Newton, which failed "after 210 iterations" suggesting the gauge);
 *   - a misspelt contact column (`ws1.left.QQ`) is answered with the
 *     contact's own column (it suggested 'ws1.left.fx', an input, since the
 *     contact quantities were not among the candidates);
 *   - `critical-speed` (bisection) over a scenario whose `equilibrium`
 *     solves for the disturbed coordinate: refused before any run (the
 *     solve put the 2 mm disturbance back to 4e-14 m and the runs
 *     classified the growth of rounding noise as "unstable");
 *   - `export-fmu` of a folder compiled from outside the project (its
 *     contact files named with `..`): the message says how to compile it so
 *     that the FMU can carry them.
 */
#define _DEFAULT_SOURCE /* mkdtemp, realpath */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "rs_test.h"
#include "rs_test_files.h"

static char dir[] = "/tmp/rs_user_mistakes_XXXXXX";
static char root[PATH_MAX];   /* the repository: the tests run there */

static void setup(void)
{
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ck_assert_ptr_nonnull(realpath(".", root));
}

static void teardown(void)
{
    if (rs_test_sh("rm -rf '%s'", dir) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}

/* The whole of DIR/NAME ("" when missing); valid until the next call. */
static const char *slurp(const char *name)
{
    static char *text;
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    free(text);
    text = rs_test_slurp(path);
    return text ? text : "";
}

START_TEST(profile_kinds_swapped)
{
    char scn[PATH_MAX + 200];
    snprintf(scn, sizeof scn, "duration 0.01\nrail_profile \"%s/vehicles/profiles/s1002.prf\"\n", root);
    rs_test_write(dir, "rail.scn", scn);
    snprintf(scn, sizeof scn, "duration 0.01\nwheel_profile \"%s/vehicles/profiles/60e1_1in40.prf\"\n", root);
    rs_test_write(dir, "wheel.scn", scn);
    ck_assert_int_eq(rs_test_sh("%s run generated/wheelset --scenario %s/rail.scn --out %s/r.csv --quiet 2> %s/r.err",
                                rs_test_bin(), dir, dir, dir),
                     1);
    const char *e = slurp("r.err");
    ck_assert_msg(strstr(e, "s1002.prf' is a wheel profile ('kind wheel' in the file) but is given as its rail "
                            "profile (the scenario's replacement file): name a 'kind rail' file there"),
                  "%s", e);
    ck_assert_int_eq(rs_test_sh("%s run generated/wheelset --scenario %s/wheel.scn --out %s/w.csv --quiet 2> %s/w.err",
                                rs_test_bin(), dir, dir, dir),
                     1);
    e = slurp("w.err");
    ck_assert_msg(strstr(e, "60e1_1in40.prf' is a rail profile ('kind rail' in the file) but is given as its wheel "
                            "profile"),
                  "%s", e);
}
END_TEST

START_TEST(contact_column_suggested)
{
    rs_test_write(dir, "col.scn", "duration 0.01\ncolumns left.QQ\n");
    ck_assert_int_eq(rs_test_sh("%s run generated/wheelset --scenario %s/col.scn --out %s/c.csv --quiet 2> %s/c.err",
                                rs_test_bin(), dir, dir, dir),
                     1);
    const char *e = slurp("c.err");
    ck_assert_msg(strstr(e, "col.scn:2: unknown column 'left.QQ' (did you mean 'left.Q'?)"), "%s", e);
    rs_test_write(dir, "col2.scn", "duration 0.01\ncolumns right.Y_q\n");
    ck_assert_int_eq(rs_test_sh("%s run generated/wheelset --scenario %s/col2.scn --out %s/c.csv --quiet 2> %s/c.err",
                                rs_test_bin(), dir, dir, dir),
                     1);
    e = slurp("c.err");
    ck_assert_msg(strstr(e, "(did you mean 'right.Y_Q'?)"), "%s", e);
}
END_TEST

START_TEST(critical_speed_disturbance_not_solved_away)
{
    rs_test_write(dir, "eq.scn", "duration 1\nstep 1e-3\nequilibrium\n");
    ck_assert_int_eq(rs_test_sh("%s critical-speed generated/wheelset_cone --scenario %s/eq.scn --bisection --range 10:20 "
                                "--out %s/crit --quiet 2> %s/e.err",
                                rs_test_bin(), dir, dir, dir),
                     1);
    const char *e = slurp("e.err");
    ck_assert_msg(strstr(e, "eq.scn:3: 'equilibrium' solves for 'y', which every run sets to the disturbance"), "%s",
                  e);
    /* named coordinates without it: accepted (the check passes; the search
     * itself is tested in test_sweep) */
    rs_test_write(dir, "eq2.scn", "duration 1\nstep 1e-3\nequilibrium z roll yaw\n");
    rs_test_sh("%s critical-speed generated/wheelset_cone --scenario %s/eq2.scn --bisection --range 10:20 --rounds 1 "
               "--out %s/crit2 --quiet 2> %s/e2.err",
               rs_test_bin(), dir, dir, dir);
    e = slurp("e2.err");
    ck_assert_msg(!strstr(e, "which every run sets to the disturbance"), "%s", e);
}
END_TEST

START_TEST(fmu_of_a_folder_compiled_outside)
{
    /* compiled in the temporary folder: the profiles lie outside it */
    ck_assert_int_eq(rs_test_sh("cd %s && %s compile %s/vehicles/examples/wheelset_cone.vdl -o cone > c.log 2>&1", dir,
                                rs_test_bin(), root),
                     0);
    ck_assert_int_eq(rs_test_sh("cd %s && %s export-fmu cone -o cone.fmu > f.log 2>&1", dir, rs_test_bin()), 1);
    const char *e = slurp("f.log");
    /* the .vdl is not beside the contact root (the temporary folder): the
     * message names the model folder in place of the description's line */
    ck_assert_msg(strstr(e, "model 'cone': contact 'left' reads '"), "%s", e);
    ck_assert_msg(strstr(e, "which is not below the model's contact root"), "%s", e);
    ck_assert_msg(strstr(e, "replace it in the scenario ('wheel_profile \"PATH\"'"), "%s", e);
    ck_assert_msg(strstr(e, "run 'railsym compile' (or export-fmu of the .vdl) from a folder that holds the .vdl and "
                            "its profiles and track"),
                  "%s", e);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("user_mistakes");
    TCase *tc = tcase_create("user_mistakes");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, profile_kinds_swapped);
    tcase_add_test(tc, contact_column_suggested);
    tcase_add_test(tc, critical_speed_disturbance_not_solved_away);
    tcase_add_test(tc, fmu_of_a_folder_compiled_outside);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
