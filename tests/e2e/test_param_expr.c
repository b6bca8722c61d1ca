/*
 * test_param_expr.c — parameters defined from other parameters
 * (`param dz = m*g/k` in a .vdl; docs/vdl.md "Parameters"): the compiler
 * emits their expressions as the generated function `params` (RS_FN_PARAMS)
 * and the workspace recomputes them whenever a parameter is set, unless the
 * dependent one was set itself (then that value wins).  Every value is
 * checked against m g / k computed here:
 *
 *   - a scenario setting m changes dz (read back from the workspace's
 *     parameters) and dz2 = 2 dz (a chain); a scenario also setting dz keeps
 *     its value, in either order, and dz2 follows the value set;
 *   - the same in a sweep over m (summary.csv's final values);
 *   - the spring's length 1 − dz follows m, so the body stays at rest where
 *     the description puts it for every m (the physics the rule is for).
 */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "rs_load.h"
#include "rs_scenario.h"
#include "rs_test.h"
#include "rs_test_files.h"

static char err[4000];
static char dir[] = "/tmp/rs_param_expr_XXXXXX";


static const char kVdl[] =
    "param k = 2.0e5, m = 500, g = 9.81\n"
    "param dz = m*g/k        # m, static deflection\n"
    "param dz2 = 2*dz        # m, a chain\n"
    "coord z\n"
    "point P = O + [0, 0, 1 + z] in ground\n"
    "body b  mass m  cg P  inertia diag(1, 1, 1) in ground\n"
    "gravity [0, 0, -g] in ground\n"
    "spring s  between O and P  k k  length 1 + dz\n";

static void write_file(const char *name, const char *text) { rs_test_write(dir, name, text); }

static void setup(void)
{
    ck_assert_ptr_nonnull(mkdtemp(dir));
    write_file("pe.vdl", kVdl);
    ck_assert_msg(rs_test_sh("%s compile %s/pe.vdl -o %s/pe > %s/compile.log 2>&1", rs_test_bin(), dir, dir, dir) == 0,
                  "compiling %s/pe.vdl failed (%s/compile.log)", dir, dir);
}

static void teardown(void)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}

/* The parameter NAME of ws. */
static double param(rs_ws *ws, const char *name)
{
    const rs_model *m = rs_ws_model(ws);
    for (int i = 0; i < m->n_p; i++)
        if (strcmp(m->p_names[i], name) == 0)
            return rs_ws_p(ws)[i];
    ck_abort_msg("no parameter '%s'", name);
    return NAN;
}

/* A workspace of DIR/pe with scenario text SCN applied. */
static rs_ws *with_scenario(const rs_model *m, const char *scn)
{
    rs_scenario s;
    ck_assert_msg(rs_scenario_parse(scn, strlen(scn), "t.scn", &s, err, sizeof err) == RS_OK, "%s", err);
    rs_binding *b = NULL;
    ck_assert_msg(rs_scenario_bind(&s, m, &b, err, sizeof err) == RS_OK, "%s", err);
    rs_ws *ws = NULL;
    ck_assert_int_eq(rs_ws_create(m, NULL, &ws, err, sizeof err), RS_OK);
    ck_assert_msg(rs_binding_apply(b, ws, err, sizeof err) == RS_OK, "%s", err);
    rs_binding_free(&b);
    rs_scenario_free(&s);
    return ws;
}

START_TEST(scenario_recomputes_dependent)
{
    char path[600];
    snprintf(path, sizeof path, "%s/pe", dir);
    rs_loaded *h = rs_load(path, RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h, "%s", err);
    const rs_model *m = rs_loaded_model(h);
    ck_assert_ptr_nonnull(m->fn[RS_FN_PARAMS].fn);
    const double g = 9.81, k = 2e5;
    /* defaults: the compiler's values */
    rs_ws *ws = with_scenario(m, "duration 0.01\n");
    ck_assert_double_eq_tol(param(ws, "dz"), 500 * g / k, 1e-15);
    rs_ws_free(&ws);
    /* m set: dz and dz2 follow */
    ws = with_scenario(m, "param m = 1200\n");
    ck_assert_msg(fabs(param(ws, "dz") - 1200 * g / k) < 1e-15, "dz %.17g, by hand %.17g", param(ws, "dz"),
                  1200 * g / k);
    ck_assert_msg(fabs(param(ws, "dz2") - 2 * 1200 * g / k) < 1e-15, "dz2 %.17g", param(ws, "dz2"));
    /* the body rests where it is: the spring's length followed m (z̈ = 0) */
    ck_assert_int_eq(rs_step(ws), RS_OK);
    ck_assert_msg(fabs(rs_ws_qd(ws)[0]) < 1e-12, "z_dot after one step %g", rs_ws_qd(ws)[0]);
    /* k set afterwards through the API: dz follows again */
    ck_assert_int_eq(rs_ws_set_param(ws, "k", 4e5), RS_OK);
    ck_assert_msg(fabs(param(ws, "dz") - 1200 * g / 4e5) < 1e-15, "dz %.17g", param(ws, "dz"));
    rs_ws_free(&ws);
    /* dz set too: its value wins, in either order; the chain follows it */
    static const char *const both[] = {"param m = 1200\nparam dz = 0.25\n", "param dz = 0.25\nparam m = 1200\n"};
    for (int i = 0; i < 2; i++) {
        ws = with_scenario(m, both[i]);
        ck_assert_double_eq(param(ws, "dz"), 0.25);
        ck_assert_double_eq(param(ws, "dz2"), 0.5);
        ck_assert_double_eq(param(ws, "m"), 1200);
        rs_ws_free(&ws);
    }
    rs_unload(&h);
}
END_TEST

/* summary.csv of a sweep: the value of `column` in variant row `row`. */
static double summary(const char *out, int row, const char *column)
{
    char path[700], line[2000];
    snprintf(path, sizeof path, "%s/summary.csv", out);
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "no %s", path);
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    int c = -1, n = 0;
    for (char *t = strtok(line, ",\n"); t; t = strtok(NULL, ",\n"), n++)
        if (strcmp(t, column) == 0)
            c = n;
    ck_assert_msg(c >= 0, "no column %s in %s", column, path);
    double v = NAN;
    for (int r = 0; r <= row && fgets(line, sizeof line, f); r++) {
        if (r < row)
            continue;
        char *p = line;
        for (int k = 0; k < c; k++)
            p = strchr(p, ',') + 1;
        v = strtod(p, NULL);
    }
    fclose(f);
    return v;
}

START_TEST(sweep_recomputes_dependent)
{
    const double g = 9.81, k = 2e5;
    write_file("base.scn", "duration 0.01\nstep 1e-3\ncolumns z dz dz2\n");
    write_file("fixed.scn", "duration 0.01\nstep 1e-3\nparam dz = 0.5\ncolumns z dz dz2\n");
    for (int fixed = 0; fixed < 2; fixed++) {
        char out[700];
        snprintf(out, sizeof out, "%s/sweep%d", dir, fixed);
        ck_assert_msg(rs_test_sh("%s sweep %s/pe --scenario %s/%s --vary m=500,1000 --figure final:dz --figure "
                                 "final:dz2 --figure absmax:z --jobs 1 --out %s --quiet > %s.log 2>&1",
                                 rs_test_bin(), dir, dir, fixed ? "fixed.scn" : "base.scn", out, out) == 0,
                      "the sweep into %s failed (%s.log)", out, out);
        for (int r = 0; r < 2; r++) {
            const double m = r ? 1000 : 500;
            const double dz = fixed ? 0.5 : m * g / k;
            ck_assert_msg(fabs(summary(out, r, "final(dz)") - dz) < 1e-15, "m %g: dz %.17g, expected %.17g", m,
                          summary(out, r, "final(dz)"), dz);
            ck_assert_msg(fabs(summary(out, r, "final(dz2)") - 2 * dz) < 1e-15, "m %g: dz2 %.17g", m,
                          summary(out, r, "final(dz2)"));
            if (!fixed) /* at rest for every m: the spring's length followed */
                ck_assert_msg(summary(out, r, "absmax(z)") < 1e-12, "m %g: |z| up to %g", m,
                              summary(out, r, "absmax(z)"));
        }
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("param_expr");
    TCase *tc = tcase_create("param_expr");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, scenario_recomputes_dependent);
    tcase_add_test(tc, sweep_recomputes_dependent);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
