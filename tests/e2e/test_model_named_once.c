/*
 * test_model_named_once.c — a failed call's message names its model once
 * (issue 20, session 40).
 *
 * The callers that wrap a message from the model's workspace, contact or
 * binding in "model 'X': ..." (rs_driver, rs_instance, rs_bifurcation,
 * rs_linear_modes, the train, the API) did so even when the message named
 * the model already: `railsym critical-speed` of the constraint-contact
 * bogie with FASTSIM said "model 'bogie': model 'bogie': the constraint
 * contact has Kalker's linear law only ...", and so did run, sweep and the
 * bisection.  rs_fail_model (rs_error.h) is the one wrapper now.
 *
 *   rules     rs_fail_model's cases, each against the text written here
 *   commands  run, sweep, critical-speed (both methods) of that bogie: the
 *             message, word for word, with the model named once
 */
#define _GNU_SOURCE

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_error.h"
#include "rs_status.h"
#include "rs_test.h"
#include "test_sweep_util.h"

/* ================================================================== rules */

START_TEST(rules_of_the_wrapper)
{
    char e[256];
    /* a message about something else: the model said first */
    ck_assert_int_eq(rs_fail_model(e, sizeof e, RS_E_VALUE, "m", NULL, "initial state: bad"), RS_E_VALUE);
    ck_assert_str_eq(e, "model 'm': initial state: bad");
    ck_assert_int_eq(rs_fail_model(e, sizeof e, RS_E_VALUE, "m", " at 20 m/s", "bad"), RS_E_VALUE);
    ck_assert_str_eq(e, "model 'm' at 20 m/s: bad");
    /* the message has the prefix already: once */
    rs_fail_model(e, sizeof e, RS_E_VALUE, "m", NULL, "model 'm': no FASTSIM here");
    ck_assert_str_eq(e, "model 'm': no FASTSIM here");
    rs_fail_model(e, sizeof e, RS_E_VALUE, "m", " at 20 m/s", "model 'm': no FASTSIM here");
    ck_assert_str_eq(e, "model 'm' at 20 m/s: no FASTSIM here");
    /* a sentence about the model: kept, or the context put first */
    rs_fail_model(e, sizeof e, RS_E_VALUE, "m", NULL, "model 'm' has no wheel function");
    ck_assert_str_eq(e, "model 'm' has no wheel function");
    rs_fail_model(e, sizeof e, RS_E_VALUE, "m", " at 20 m/s", "model 'm' has no wheel function");
    ck_assert_str_eq(e, "model 'm' at 20 m/s: the model has no wheel function");
    /* named further in: kept whole */
    rs_fail_model(e, sizeof e, RS_E_VALUE, "m", NULL, "rs_ws_create: model 'm' has 2 constraints");
    ck_assert_str_eq(e, "rs_ws_create: model 'm' has 2 constraints");
    /* another model's name, or a name that only begins the same, is no
     * mention of this one */
    rs_fail_model(e, sizeof e, RS_E_VALUE, "m", NULL, "model 'm2': bad");
    ck_assert_str_eq(e, "model 'm': model 'm2': bad");
    /* no name, no buffer */
    rs_fail_model(e, sizeof e, RS_E_VALUE, NULL, NULL, "bad");
    ck_assert_str_eq(e, "model '?': bad");
    ck_assert_int_eq(rs_fail_model(NULL, 0, RS_E_ARG, "m", NULL, "bad"), RS_E_ARG);
    /* cut to fit, terminated */
    char small[12];
    rs_fail_model(small, sizeof small, RS_E_VALUE, "m", NULL, "model 'm': a long message");
    ck_assert_str_eq(small, "model 'm': ");
}
END_TEST

/* =============================================================== commands */

#define BOGIE "generated/bogie"
/* rs_contact_create's refusal, which every command below must say once */
#define REFUSAL "model 'bogie': the constraint contact has Kalker's linear law only (saturated with a friction " \
                "coefficient); FASTSIM and Polach need the elastic contact (scenario 'contact elastic', "   \
                "rs_elastic_contact())"

static char *run_cmd(char *const argv[], int want_status, const char *log)
{
    const int st = sweep_run(argv, log);
    char *text = sweep_slurp(log, NULL);
    ck_assert_msg(st == want_status, "%s %s: exit %d, want %d:\n%s", argv[1], argv[2], st, want_status,
                  text ? text : "");
    ck_assert_ptr_nonnull(text);
    ck_assert_msg(!strstr(text, "model 'bogie': model 'bogie'"), "%s: the model named twice:\n%s", argv[1], text);
    return text;
}

static void want_line(const char *text, const char *line)
{
    ck_assert_msg(strstr(text, line), "want the line\n%s\nin\n%s", line, text);
}

START_TEST(commands_name_the_model_once)
{
    RS_REQUIRE_MODEL("bogie");
    char dir[512], scn[600], out[600], log[600];
    sweep_scratch(dir, sizeof dir, "named_once");
    snprintf(scn, sizeof scn, "%s/fastsim.scn", dir);
    snprintf(log, sizeof log, "%s/err.log", dir);
    /* the example's scenario with FASTSIM: the constraint contact refuses it */
    char *base = sweep_slurp("vehicles/examples/bogie.scn", NULL);
    ck_assert_ptr_nonnull(base);
    char *text = NULL;
    ck_assert_int_ge(asprintf(&text, "%s\ncreep fastsim\nfriction 0.3\n", base), 0);
    sweep_write(scn, text);
    free(text);
    free(base);
    const char *bin = sweep_railsym_bin();

    snprintf(out, sizeof out, "%s/run.csv", dir);
    char *run[] = {(char *)bin, "run", BOGIE, "--scenario", scn, "--out", out, "--quiet", NULL};
    text = run_cmd(run, 1, log);
    want_line(text, "railsym run: " REFUSAL "\n");
    free(text);

    snprintf(out, sizeof out, "%s/sweep", dir);
    char *sweep[] = {(char *)bin, "sweep", BOGIE, "--scenario", scn, "--vary", "x_dot=20", "--out", out, "--quiet",
                     NULL};
    text = run_cmd(sweep, 0, log);
    free(text);
    char path[700];
    snprintf(path, sizeof path, "%s/v0001.failed", out);
    text = sweep_slurp(path, NULL);
    ck_assert_ptr_nonnull(text);
    ck_assert_msg(strncmp(text, REFUSAL, strlen(REFUSAL)) == 0 && strlen(text) <= strlen(REFUSAL) + 1,
                  "v0001.failed:\n%s", text);
    free(text);

    snprintf(out, sizeof out, "%s/bif", dir);
    char *bif[] = {(char *)bin, "critical-speed", BOGIE, "--scenario", scn, "--range", "10:20", "--no-plot",
                   "--out", out, "-q", NULL};
    text = run_cmd(bif, 1, log);
    want_line(text, "railsym critical-speed: " REFUSAL "\n");
    free(text);

    snprintf(out, sizeof out, "%s/bis", dir);
    char *bis[] = {(char *)bin, "critical-speed", BOGIE, "--scenario", scn, "--range", "10:20", "--bisection",
                   "--no-plot", "--out", out, "-q", NULL};
    text = run_cmd(bis, 1, log);
    want_line(text, "railsym critical-speed: the run at the lowest speed 10 m/s failed (" REFUSAL "; a failed run");
    free(text);
    sweep_rm_rf(dir);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("model_named_once");
    TCase *r = tcase_create("rules");
    tcase_add_test(r, rules_of_the_wrapper);
    suite_add_tcase(s, r);
    TCase *c = tcase_create("commands");
    tcase_set_timeout(c, 120);
    tcase_add_test(c, commands_name_the_model_once);
    suite_add_tcase(s, c);
    return rs_test_run(s);
}
