/*
 * test_inertia_params.c — masses and inertias made of parameters are
 * checked for every parameter set, wherever it comes from (the compiler
 * checks literal values and the defaults; tests/vdl_errors/inertia_*):
 *
 *   - a scenario's `param C = 0.9` on diag(A, B, C) with A = 0.3, B = 0.4
 *     breaks the triangle inequality (0.9 > 0.3 + 0.4): `railsym run` fails
 *     naming the body, the moments and the fix, and writes no result file;
 *     `param m = -2` is refused as a mass; C = 0.7 (the boundary, a flat
 *     plate) runs;
 *   - a sweep over C = 0.5, 0.9: the first variant runs, the second fails
 *     with the same reason;
 *   - the same body written with `inertia_unchecked "..."` runs with C = 0.9
 *     (the triangle inequality is not enforced for it) but is refused, before
 *     any result file is written, with `param m = -2` (naming the body, the
 *     -2 kg and the parameters to check) and with `param A = -0.1` (a
 *     negative principal moment): the flag excuses the inequality alone;
 *   - a train file giving the shipped freight wagon m_c = -70000 is refused
 *     naming the car body.
 */
#define _DEFAULT_SOURCE /* mkdtemp, realpath */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

#include "rs_test.h"
#include "rs_test_files.h"

static char dir[] = "/tmp/rs_inertia_params_XXXXXX";

static const char kVdl[] =
    "param m = 2                        # kg\n"
    "param A = 0.3, B = 0.4, C = 0.5     # kg m^2\n"
    "coord th\n"
    "base B1 = rotate(ground, y, th)\n"
    "point G = O + [0, 0, -1] in B1\n"
    "body bob mass m cg G inertia diag(A, B, C) in B1 frame B1%s\n"
    "gravity [0, 0, -9.81] in ground\n";

static void write_file(const char *name, const char *text) { rs_test_write(dir, name, text); }

/* The whole of DIR/NAME ("" when missing). */
static const char *slurp(const char *name)
{
    static char *text;
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    free(text);
    text = rs_test_slurp(path);
    return text ? text : "";
}

/* A command run inside the temporary folder. */
#define sh(FMT, ...) rs_test_sh("cd %s && " FMT, dir, __VA_ARGS__)

static void compile(const char *name, const char *extra)
{
    char text[1000], vdl[600];
    snprintf(text, sizeof text, kVdl, extra);
    snprintf(vdl, sizeof vdl, "%s.vdl", name);
    write_file(vdl, text);
    char log[700];
    snprintf(log, sizeof log, "%s.log", name);
    ck_assert_msg(sh("%s compile %s -o %s > %s 2>&1", rs_test_bin(), vdl, name, log) == 0, "compiling %s failed: %s",
                  vdl, slurp(log));
}

static void setup(void)
{
    ck_assert_ptr_nonnull(mkdtemp(dir));
    compile("m", "");
    compile("u", "  inertia_unchecked \"a published tensor kept as it is\"");
    write_file("c09.scn", "duration 0.01\nstep 1e-3\nparam C = 0.9\n");
    write_file("c07.scn", "duration 0.01\nstep 1e-3\nparam C = 0.7\n");
    write_file("neg.scn", "duration 0.01\nstep 1e-3\nparam m = -2\n");
    write_file("nega.scn", "duration 0.01\nstep 1e-3\nparam A = -0.1\n");
    write_file("base.scn", "duration 0.01\nstep 1e-3\n");
}

static void teardown(void)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}

static const char kTriangle[] =
    "body 'bob': its inertia tensor breaks the triangle inequality (principal moments 0.3, 0.4, 0.9 kg m^2; "
    "0.9 > 0.3 + 0.4)";

START_TEST(scenario_values_are_checked)
{
    const char *bin = rs_test_bin();
    ck_assert_int_ne(sh("%s run m --scenario c09.scn --out c09.csv --quiet 2> c09.err", bin), 0);
    const char *e = slurp("c09.err");
    ck_assert_msg(strstr(e, kTriangle), "%s", e);
    ck_assert_msg(strstr(e, "inertia_unchecked"), "the fix is missing: %s", e);
    char path[700];
    snprintf(path, sizeof path, "%s/c09.csv", dir);
    ck_assert_msg(access(path, F_OK) != 0, "a failed run left %s", path);

    ck_assert_int_ne(sh("%s run m --scenario neg.scn --out neg.csv --quiet 2> neg.err", bin), 0);
    e = slurp("neg.err");
    ck_assert_msg(strstr(e, "body 'bob': its mass is -2 kg: a body's mass must be positive"), "%s", e);
    /* inertia_unchecked keeps a tensor, never a mass: not offered as the fix */
    ck_assert_msg(!strstr(e, "inertia_unchecked"), "a mass is not excused by inertia_unchecked: %s", e);

    ck_assert_int_eq(sh("%s run m --scenario c07.scn --out c07.csv --quiet 2> c07.err", bin), 0);
    ck_assert_int_eq(sh("%s run u --scenario c09.scn --out u.csv --quiet 2> u.err", bin), 0);
}
END_TEST

START_TEST(unchecked_bodies_are_checked_but_the_triangle)
{
    const char *bin = rs_test_bin();
    /* 0.9 > 0.3 + 0.4 is kept: the run finishes and writes its rows */
    ck_assert_int_eq(sh("%s run u --scenario c09.scn --out u.csv --quiet 2> u.err", bin), 0);
    ck_assert_msg(strchr(slurp("u.csv"), '\n'), "no result rows: %s", slurp("u.err"));

    /* a negative mass from the scenario is refused all the same */
    ck_assert_int_ne(sh("%s run u --scenario neg.scn --out uneg.csv --quiet 2> uneg.err", bin), 0);
    const char *e = slurp("uneg.err");
    ck_assert_msg(strstr(e, "body 'bob': its mass is -2 kg: a body's mass must be positive"), "%s", e);
    ck_assert_msg(strstr(e, "check the parameters that make it (a scenario's 'param' lines"), "the fix: %s", e);
    ck_assert_msg(!strstr(e, "inertia_unchecked"), "a mass is not excused by inertia_unchecked: %s", e);
    char path[700];
    snprintf(path, sizeof path, "%s/uneg.csv", dir);
    ck_assert_msg(access(path, F_OK) != 0, "a refused run left %s", path);

    /* and a negative principal moment: diag(-0.1, 0.4, 0.5) */
    ck_assert_int_ne(sh("%s run u --scenario nega.scn --out unega.csv --quiet 2> unega.err", bin), 0);
    e = slurp("unega.err");
    ck_assert_msg(strstr(e, "body 'bob': its inertia tensor has a negative principal moment (principal moments "
                            "-0.1, 0.4, 0.5 kg m^2)"),
                  "%s", e);
}
END_TEST

START_TEST(sweep_values_are_checked)
{
    sh("%s sweep m --scenario base.scn --vary C=0.5,0.9 --figure final:th --jobs 1 --out sw --quiet > sw.log 2>&1",
       rs_test_bin());
    char both[40000];
    snprintf(both, sizeof both, "%s", slurp("sw.log"));
    strncat(both, slurp("sw/summary.csv"), sizeof both - strlen(both) - 1);
    ck_assert_msg(strstr(both, kTriangle), "the sweep's log and summary do not say why:\n%s", both);
    /* the first variant ran: its row has a figure, not the failure */
    const char *sum = slurp("sw/summary.csv");
    const char *row1 = strchr(sum, '\n');
    ck_assert_ptr_nonnull(row1);
    ck_assert_msg(strncmp(row1 + 1, "0,", 2) == 0 || strstr(row1, "ok"), "summary:\n%s", sum);
}
END_TEST

START_TEST(train_values_are_checked)
{
    char cwd[600], train[4000];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    snprintf(train, sizeof train,
             "duration 0.01\nstep 1e-3\n"
             "vehicle fw model %s/generated/freight_wagon\n"
             "  m_c = -70000\n"
             "end\n"
             "order\n  fw\nend\n",
             cwd);
    write_file("neg.train", train);
    ck_assert_int_ne(sh("%s run neg.train --out t.csv --quiet 2> t.err", rs_test_bin()), 0);
    const char *e = slurp("t.err");
    ck_assert_msg(strstr(e, "body 'car': its mass is -70000 kg"), "%s", e);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("inertia_params");
    TCase *tc = tcase_create("inertia_params");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, scenario_values_are_checked);
    tcase_add_test(tc, unchecked_bodies_are_checked_but_the_triangle);
    tcase_add_test(tc, sweep_values_are_checked);
    tcase_add_test(tc, train_values_are_checked);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return rs_test_run(suite()); }
