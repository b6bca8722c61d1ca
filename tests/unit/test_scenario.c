/*
 * test_scenario.c — scenario files (runtime/app/rs_scenario.h, docs/scenario.md):
 * parsing of every statement, every error form with its exact file:line
 * text, binding to a model with suggestions for unknown names, tables
 * interpolated linearly (inline and from CSV files), layers (default.scn
 * under a user's file), and application to a workspace.
 */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rs_closest.h"
#include "rs_scenario.h"
#include "rt_fixtures.h"
#include "rs_contact.h"
#include "rs_test.h"

static char err[1024];

static void parse_ok(const char *text, rs_scenario *s)
{
    int st = rs_scenario_parse(text, strlen(text), "t.scn", s, err, sizeof err);
    ck_assert_msg(st == RS_OK, "parse failed: %s", err);
}

START_TEST(test_full_scenario)
{
    rs_scenario s;
    parse_ok("# a comment line\n"
             "duration 10        # s\n"
             "step = 2e-3\n"
             "output 0.05\n"
             "method rk4\n"
             "tolerance 1e-9\n"
             "iterations 4\n"
             "\n"
             "param m = 2.5\n"
             "param L 1.5\n"
             "initial theta = 0.75\n"
             "initial theta_dot=-1\n"
             "input tau = 3\n"
             "input F table\n"
             "  0   0\n"
             "  1   10   # ramp\n"
             "  3   10\n"
             "end\n"
             "columns theta theta_dot\n"
             "columns x\n",
             &s);
    ck_assert_uint_eq(s.set, RS_SCENARIO_DURATION | RS_SCENARIO_STEP | RS_SCENARIO_OUTPUT | RS_SCENARIO_METHOD |
                                 RS_SCENARIO_TOLERANCE | RS_SCENARIO_ITERATIONS);
    ck_assert_double_eq(s.duration, 10);
    ck_assert_double_eq(s.step, 2e-3);
    ck_assert_double_eq(s.output, 0.05);
    ck_assert_int_eq(s.method, RS_RK4);
    ck_assert_double_eq(s.tolerance, 1e-9);
    ck_assert_int_eq(s.iterations, 4);
    ck_assert_int_eq(s.n_params, 2);
    ck_assert_str_eq(s.params[1].name, "L");
    ck_assert_double_eq(s.params[1].value, 1.5);
    ck_assert_int_eq(s.params[1].at.line, 10);
    ck_assert_str_eq(s.params[1].at.file, "t.scn");
    ck_assert_int_eq(s.n_initial, 2);
    ck_assert_str_eq(s.initial[1].name, "theta_dot");
    ck_assert_double_eq(s.initial[1].value, -1);
    ck_assert_int_eq(s.n_inputs, 2);
    ck_assert_int_eq(s.inputs[0].n, 1);
    ck_assert_ptr_null(s.inputs[0].t);
    ck_assert_int_eq(s.inputs[1].n, 3);
    ck_assert_double_eq(s.inputs[1].t[2], 3);
    ck_assert_double_eq(s.inputs[1].v[1], 10);
    ck_assert_int_eq(s.n_columns, 3);
    ck_assert_str_eq(s.columns[2].name, "x");
    ck_assert_int_eq(s.columns[2].at.line, 20);
    rs_scenario_free(&s);
    ck_assert_int_eq(s.n_params, 0);
}
END_TEST

START_TEST(test_defaults)
{
    rs_scenario s;
    parse_ok("", &s);
    ck_assert_uint_eq(s.set, 0);
    ck_assert_double_eq(rs_scenario_duration(&s), RS_SCENARIO_DEFAULT_DURATION);
    ck_assert_double_eq(rs_scenario_step(&s), RS_SCENARIO_DEFAULT_STEP);
    ck_assert_double_eq(rs_scenario_output(&s), RS_SCENARIO_DEFAULT_OUTPUT);
    rs_scenario_free(&s);
    /* the output interval is never shorter than the step */
    parse_ok("step 0.1\noutput 0\n", &s);
    ck_assert_double_eq(rs_scenario_output(&s), 0.1);
    rs_scenario_free(&s);
}
END_TEST

/* Every syntax or value error: the exact message, file:line first. */
static const struct {
    const char *text, *msg;
} bad[] = {
    {"duraton 1\n", "t.scn:1: unknown statement 'duraton' (did you mean 'duration'?)"},
    {"\n\nfrobnicate 1\n", "t.scn:3: unknown statement 'frobnicate'; statements are duration, step, output, "
                           "method, tolerance, iterations, friction, contact, creep, derailment, speed, climb_time, normal, theta, modulus, poisson, param, initial, input, columns, track, "
                           "wheel_profile, rail_profile, rail_profile_left, rail_profile_right, equilibrium, thermal, stress"},
    {"thermal c power p\n", "t.scn:1: thermal: give the coefficient's temperature sensitivity 'beta B' (1/K; "
                            "c = c_ref exp(-B (T - t_ref)); 0: no feedback)"},
    {"thermal c power p beta 0\nthermal c power p beta 0\n",
     "t.scn:2: a second 'thermal' statement (line 1 has one): one damper's thermal model per run for now "
     "(docs/coupled.md)"},
    {"stress l body b from 0 0 0 to 1 0 0 section circle 0.1 fix 0\nstress l body b from 0 0 0 to 1 0 0 section "
     "circle 0.1 fix 0\n",
     "t.scn:2: stress: a second component named 'l' (line 1 has one): give each its own name, its columns are "
     "'l.sigma_POINT'"},
    {"friction -0.1\n", "t.scn:1: friction must be a coefficient from 0 to 10 (got -0.1; 0: linear "
                        "creep without saturation)"},
    {"climb_time -0.01\n", "t.scn:1: climb_time must be a time >= 0 s (got -0.01): how long Y/Q must stay at "
                          "Nadal's limit before a flange climb is reported; write e.g. 'climb_time 0.05' (0: every "
                          "step above the limit is a climb)"},
    {"climb_time\n", "t.scn:1: 'climb_time' needs a value, e.g. 'climb_time 0.05'"},
    {"friction 0.3\nfriction 0.2\n", "t.scn:2: 'friction' is given twice (first at line 1): keep one"},
    {"contact soft\n", "t.scn:1: unknown contact mode 'soft': write 'contact elastic' (every patch, "
                        "Hertzian normal force) or 'contact constraint' (one point per wheel held by a "
                        "constraint)"},
    {"contact\n", "t.scn:1: 'contact' needs a value, e.g. 'contact elastic'"},
    {"creep linear\n", "t.scn:1: unknown creep law 'linear': write 'creep kalker' (linear), 'creep "
                        "fastsim' or 'creep polach' (the last two need 'friction MU' and the elastic "
                        "contact)"},
    {"normal hertz\n", "t.scn:1: unknown normal law 'hertz': write 'normal strips' (each patch's force "
                        "integrated over its wheel slices, conservative: the default) or 'normal point' (one "
                        "Hertz force per minimum of the gap)"},
    {"normal strips\nnormal point\n", "t.scn:2: 'normal' is given twice (first at line 1): keep one"},
    {"theta 0.4\n", "t.scn:1: theta must be from 0.5 to 1 (got 0.4): where the elastic contact's step "
                     "linearizes the normal stiffness, 1 implicit Euler (damps what the step cannot resolve), "
                     "0.5 the trapezoidal rule; leave it out for the normal law's own (docs/scenario.md)"},
    {"theta 1.01\n", "t.scn:1: theta must be from 0.5 to 1 (got 1.01): where the elastic contact's step "
                      "linearizes the normal stiffness, 1 implicit Euler (damps what the step cannot resolve), "
                      "0.5 the trapezoidal rule; leave it out for the normal law's own (docs/scenario.md)"},
    {"theta\n", "t.scn:1: 'theta' needs a value, e.g. 'theta 0.65'"},
    {"theta half\n", "t.scn:1: 'half' is not a number: write e.g. 'theta 0.65'"},
    {"theta 0.7\ntheta 1\n", "t.scn:2: 'theta' is given twice (first at line 1): keep one"},
    {"track vehicles/tracks/straight.trk\n", "t.scn:1: 'track' takes one quoted path, e.g. 'track "
                                             "\"../tracks/straight.trk\"'"},
    {"rail_profile\n", "t.scn:1: 'rail_profile' takes one quoted path, e.g. 'rail_profile "
                       "\"../profiles/s1002.prf\"'"},
    {"track \"no/such.trk\"\n", "t.scn:1: track: cannot open 'no/such.trk' (No such file or "
                                 "directory); a relative path is relative to the scenario's folder"},
    {"wheel_profile \"vehicles/profiles/s1002.prf\"\nwheel_profile \"vehicles/profiles/s1002.prf\"\n",
     "t.scn:2: 'wheel_profile' given twice (first at line 1): keep one"},
    {"step\n", "t.scn:1: 'step' needs a value, e.g. 'step 1e-3'"},
    {"step 1ms\n", "t.scn:1: '1ms' is not a number: write e.g. 'step 1e-3'"},
    {"step -1\n", "t.scn:1: step must be positive (got -1): write e.g. 'step 1e-3'"},
    {"duration 0\n", "t.scn:1: duration must be positive (got 0): write e.g. 'duration 10'"},
    {"duration nan\n", "t.scn:1: 'nan' is not a number: write e.g. 'duration 10'"},
    {"output -0.1\n", "t.scn:1: output interval must be >= 0 s (got -0.1; 0 writes every step)"},
    {"step 1e-3 2e-3\n", "t.scn:1: unexpected '2e-3' after the value of 'step': one setting per line"},
    {"step 1e-3\n# again\nstep 2e-3\n", "t.scn:3: 'step' is given twice (first at line 1): keep one"},
    {"method rk5\n", "t.scn:1: unknown method 'rk5': write 'method imex' or 'method rk4'"},
    {"iterations 2.5\n", "t.scn:1: iterations must be a whole number from 0 to 1000 (got 2.5)"},
    {"param m\n", "t.scn:1: 'param' needs NAME = VALUE, e.g. 'param m = 1.5'"},
    {"param = 3\n", "t.scn:1: 'param' needs NAME = VALUE, e.g. 'param m = 1.5'"},
    {"param m = heavy\n", "t.scn:1: 'heavy' is not a number: write e.g. 'param m = 1.5'"},
    {"param m = 1 kg\n", "t.scn:1: unexpected 'kg' after the value: one parameter per line"},
    {"param m = 1\nparam m = 2\n", "t.scn:2: parameter 'm' is set twice (first at line 1): keep one"},
    {"initial x\n", "t.scn:1: 'initial' needs NAME = VALUE, e.g. 'initial x = 0.1'"},
    {"input F\n", "t.scn:1: 'input' needs NAME and a value, e.g. 'input F = 10', 'input F table' or "
                  "'input F file \"F.csv\"'"},
    {"input F = big\n", "t.scn:1: input 'F': expected a number, 'table' or 'file', e.g. 'input F = 10', "
                        "'input F table' or 'input F file \"F.csv\"'"},
    {"input F = 1\ninput F = 2\n", "t.scn:2: input 'F' is set twice (first at line 1): keep one"},
    {"input F table\n0 1\n1 2\n", "t.scn:1: input 'F': the table has no 'end': add a line 'end' after its last row"},
    {"input F table\nend\n", "t.scn:1: input 'F': the table is empty: give rows 'TIME VALUE' before 'end'"},
    {"input F table\n0 1\n0 2\nend\n", "t.scn:3: input 'F': table times must increase (0 after 0)"},
    {"input F table\n0 1 2\nend\n", "t.scn:2: input 'F': a table row is two numbers, TIME VALUE (or 'end' "
                                    "after the last row)"},
    {"input F table more\n", "t.scn:1: unexpected 'more' after 'table': rows go on the following lines, "
                             "'TIME VALUE', then 'end'"},
    {"input F file F.csv\n", "t.scn:1: 'input F file' needs a quoted path, e.g. 'input F file \"F.csv\"'"},
    {"input F file \"F.csv\" col F\n", "t.scn:1: after the path, only 'column NAME' may follow, e.g. "
                                       "'input F file \"F.csv\" column F'"},
    {"input F file \"no/such.csv\"\n", "t.scn:1: input 'F': cannot read 'no/such.csv': No such file or directory"},
    {"input F file \"F.csv\n", "t.scn:1: missing closing '\"'"},
    {"end\n", "t.scn:1: 'end' without a table: it closes 'input NAME table'"},
    {"columns\n", "t.scn:1: 'columns' needs at least one name, e.g. 'columns x x_dot'"},
    {"= 3\n", "t.scn:1: a line starts with a statement name, e.g. 'step 1e-3'"},
    /* a file of another kind (rs_kind_check): named by its first decisive line */
    {"# a profile\nrailsym-profile 1\nname s1002\n",
     "t.scn:2: the file looks like a profile file (first line 'railsym-profile 1'), not a scenario file; give a scenario here (.scn: 'duration 10', 'initial q = 0.1' ..., docs/scenario.md)"},
    {"railsym-track 1\ngauge 1.435\n",
     "t.scn:1: the file looks like a track file (first line 'railsym-track 1'), not a scenario file; give a scenario here (.scn: 'duration 10', 'initial q = 0.1' ..., docs/scenario.md)"},
    {"param m = 2.0   # kg\nbody bob mass m\n",
     "t.scn:2: the file looks like a vehicle description (.vdl) (line 2 'body bob mass m'), not a scenario file; give a scenario here (.scn: 'duration 10', 'initial q = 0.1' ..., docs/scenario.md)"},
    {"duration 5\nstep 1e-3\nvehicle wagon\nend\n",
     "t.scn:3: the file looks like a train file (line 3 'vehicle wagon'), not a scenario file; give a scenario here (.scn: 'duration 10', 'initial q = 0.1' ..., docs/scenario.md)"},
    {"s,value\n120,0.0\n", "t.scn:1: the file looks like a CSV table (first line 's,value'), not a scenario file; give a scenario here (.scn: 'duration 10', 'initial q = 0.1' ..., docs/scenario.md)"},
};

START_TEST(test_errors)
{
    rs_scenario s;
    int st = rs_scenario_parse(bad[_i].text, strlen(bad[_i].text), "t.scn", &s, err, sizeof err);
    ck_assert_int_ne(st, RS_OK);
    ck_assert_str_eq(err, bad[_i].msg);
    ck_assert_int_eq(s.n_params + s.n_inputs + s.n_initial + s.n_columns, 0); /* emptied */
}
END_TEST

START_TEST(test_read_missing_file)
{
    rs_scenario s;
    ck_assert_int_eq(rs_scenario_read("tests/no-such.scn", &s, err, sizeof err), RS_E_IO);
    ck_assert_str_eq(err, "cannot read scenario 'tests/no-such.scn': No such file or directory");
}
END_TEST

/* Binding to a model: unknown names with suggestions, wrong kinds. */
static const struct {
    const char *text, *msg;
} unbound[] = {
    {"param Lx = 1\n", "t.scn:1: unknown parameter 'Lx' (did you mean 'L'?)"},
    {"\nparam lenght = 1\n", "t.scn:2: unknown parameter 'lenght'; model 'rt_pendulum' has: m, L, g"},
    {"param theta = 1\n", "t.scn:1: 'theta' is a coordinate, not set by 'param': write 'initial theta = ...'"},
    {"initial thetaa = 1\n", "t.scn:1: unknown coordinate or velocity 'thetaa' (did you mean 'theta'?)"},
    {"initial theta_dt = 1\n", "t.scn:1: unknown coordinate or velocity 'theta_dt' (did you mean 'theta_dot'?)"},
    {"initial g = 1\n", "t.scn:1: 'g' is a parameter, not set by 'initial': write 'param g = ...'"},
    {"initial x = 1\n", "t.scn:1: 'x' is an output: a scenario cannot set it with 'initial'"},
    {"input tau = 1\n", "t.scn:1: unknown input 'tau': model 'rt_pendulum' has no inputs; remove the line"},
    {"columns theta thta\n", "t.scn:1: unknown column 'thta' (did you mean 'theta'?)"},
    {"columns energy.kinetc\n", "t.scn:1: unknown column 'energy.kinetc' (did you mean 'energy.kinetic'?)"},
    /* the hand-written fixture has energy but no power function */
    {"columns power.inputs\n", "t.scn:1: unknown column 'power.inputs'; model 'rt_pendulum' has: theta, "
     "theta_dot, x, y, energy.kinetic, energy.potential, m, L, g"},
    {"columns time theta\n", "t.scn:1: 'time' is always the first column: leave it out of 'columns'"},
    {"columns theta x\ncolumns y theta\n", "t.scn:2: column 'theta' is already listed (line 1): list each column once"},
    {"friction left = 0.2\n", "t.scn:1: model 'rt_pendulum' has no wheel-rail contacts: remove the 'friction left' line"},
    {"duration 0.01\nstep 0.1\n", "t.scn:2: the step (0.1 s) is longer than the duration (0.01 s): nothing would be "
     "simulated; shorten 'step' or lengthen 'duration'"},
    {"step 1e-6\nduration 1e9\n", "t.scn:1: 1e+09 s in steps of 1e-06 s is 1e+15 steps, more than any run can "
     "take; lengthen 'step' or shorten 'duration'"},
    {"\nwheel_profile \"vehicles/profiles/arc_r300.prf\"\n", "t.scn:2: 'wheel_profile' replaces the wheel-rail contacts' "
     "files, but model 'rt_pendulum' has no contacts: remove the line"},
};

START_TEST(test_bind_errors)
{
    rs_scenario s;
    parse_ok(unbound[_i].text, &s);
    rs_binding *b = (rs_binding *)&s; /* must be reset to NULL on failure */
    ck_assert_int_ne(rs_scenario_bind(&s, rt_pendulum_model(), &b, err, sizeof err), RS_OK);
    ck_assert_ptr_null(b);
    ck_assert_str_eq(err, unbound[_i].msg);
    rs_scenario_free(&s);
}
END_TEST

START_TEST(test_bind_input_suggestion)
{
    rs_scenario s;
    parse_ok("input taux = 1\n", &s);
    rs_binding *b;
    ck_assert_int_eq(rs_scenario_bind(&s, rt_fourbar_model(), &b, err, sizeof err), RS_E_NOTFOUND);
    ck_assert_str_eq(err, "t.scn:1: unknown input 'taux' (did you mean 'tau'?)");
    rs_scenario_free(&s);
}
END_TEST

START_TEST(test_interp)
{
    const double t[] = {0, 1, 3}, v[] = {0, 10, 4};
    ck_assert_double_eq(rs_scenario_interp(t, v, 3, -5), 0);     /* held before */
    ck_assert_double_eq(rs_scenario_interp(t, v, 3, 0), 0);
    ck_assert_double_eq_tol(rs_scenario_interp(t, v, 3, 0.25), 2.5, 1e-15);
    ck_assert_double_eq(rs_scenario_interp(t, v, 3, 1), 10);
    ck_assert_double_eq_tol(rs_scenario_interp(t, v, 3, 2.5), 5.5, 1e-15);
    ck_assert_double_eq(rs_scenario_interp(t, v, 3, 3), 4);
    ck_assert_double_eq(rs_scenario_interp(t, v, 3, 100), 4);    /* held after */
    const double c = 7;
    ck_assert_double_eq(rs_scenario_interp(NULL, &c, 1, 3), 7);  /* constant */
}
END_TEST

/* Tables reach the workspace through the input callback at every time. */
START_TEST(test_table_input_and_apply)
{
    rs_scenario s;
    parse_ok("step 0.01\nmethod rk4\ntolerance 1e-8\niterations 7\n"
             "param m1 = 2.5\n"
             "initial th1 = 0.9\ninitial th1_dot = 0.1\n"
             "input tau table\n0 0\n1 2\n2 -2\nend\n",
             &s);
    rs_binding *b;
    ck_assert_int_eq(rs_scenario_bind(&s, rt_fourbar_model(), &b, err, sizeof err), RS_OK);
    rs_scenario_free(&s); /* the binding keeps its own copies */
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    rs_binding_options(b, &o);
    ck_assert_double_eq(o.dt, 0.01);
    ck_assert_int_eq(o.method, RS_RK4);
    ck_assert_double_eq(o.proj_tol, 1e-8);
    ck_assert_int_eq(o.proj_maxiter, 7);
    ck_assert(o.input == rs_binding_input_varying); /* a table input */
    double uv[1] = {7};
    ck_assert_int_eq(rs_binding_input_varying(o.input_ctx, 1.75, uv, 1), 0);
    ck_assert_double_eq_tol(uv[0], -1.0, 1e-15);
    double u[1];
    ck_assert_int_eq(rs_binding_input(o.input_ctx, 0.5, u, 1), 0);
    ck_assert_double_eq_tol(u[0], 1.0, 1e-15);
    ck_assert_int_eq(rs_binding_input(o.input_ctx, 1.75, u, 1), 0);
    ck_assert_double_eq_tol(u[0], -1.0, 1e-15);
    ck_assert_int_eq(rs_binding_input(o.input_ctx, 9, u, 1), 0);
    ck_assert_double_eq(u[0], -2);

    rs_ws *ws;
    ck_assert_int_eq(rs_ws_create(rt_fourbar_model(), &o, &ws, err, sizeof err), RS_OK);
    ck_assert_int_eq(rs_binding_apply(b, ws, err, sizeof err), RS_OK);
    ck_assert_double_eq(rs_ws_p(ws)[4], 2.5);
    ck_assert_double_eq(rs_ws_q(ws)[0], 0.9);
    ck_assert_double_eq(rs_ws_qd(ws)[0], 0.1);
    ck_assert_double_eq(rs_ws_u(ws)[0], 0);
    /* the runtime calls the callback at each evaluation time */
    rs_ws_set_time(ws, 0.25);
    ck_assert_int_eq(rs_ws_init(ws), RS_OK);
    ck_assert_double_eq_tol(rs_ws_u(ws)[0], 0.5, 1e-15);
    rs_ws_free(&ws);
    rs_binding_free(&b);
    ck_assert_ptr_null(b);
}
END_TEST

/* A constant input is set once by rs_binding_apply, and no callback runs
 * each step for it: what else writes the slot (the contact support writes
 * its creep-force slots) is kept; a constant table is constant too. */
START_TEST(test_constant_inputs_set_once)
{
    const char *const texts[] = {"input tau = 3\n", "input tau table\n0 3\n1 3\nend\n"};
    for (int k = 0; k < 2; k++) {
        rs_scenario s;
        parse_ok(texts[k], &s);
        rs_binding *b;
        ck_assert_int_eq(rs_scenario_bind(&s, rt_fourbar_model(), &b, err, sizeof err), RS_OK);
        rs_scenario_free(&s);
        rs_options o;
        rs_options_default(&o);
        o.contact = rs_wheel_rail_contact();
        rs_binding_options(b, &o);
        ck_assert_ptr_null(o.input);
        rs_ws *ws;
        ck_assert_int_eq(rs_ws_create(rt_fourbar_model(), &o, &ws, err, sizeof err), RS_OK);
        ck_assert_int_eq(rs_binding_apply(b, ws, err, sizeof err), RS_OK);
        ck_assert_double_eq(rs_ws_u(ws)[0], 3);
        rs_ws_u(ws)[0] = 5; /* written from elsewhere: kept */
        ck_assert_int_eq(rt_fourbar_assemble(rs_ws_p(ws), 0.5, rs_ws_q(ws)), 0);
        ck_assert_int_eq(rs_ws_init(ws), RS_OK);
        ck_assert_int_eq(rs_step(ws), RS_OK);
        ck_assert_double_eq(rs_ws_u(ws)[0], 5);
        rs_ws_free(&ws);
        rs_binding_free(&b);
    }
}
END_TEST

static char dir[64];

static void write_file(const char *name, const char *text)
{
    char p[160];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static void mkdir_tmp(void)
{
    strcpy(dir, "/tmp/rs_scenario_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void rm_tmp(const char *const *names)
{
    char p[160];
    for (; *names; names++) {
        snprintf(p, sizeof p, "%s/%s", dir, *names);
        unlink(p);
    }
    rmdir(dir);
}

/* input NAME file "F.csv": relative to the scenario's folder; the column
 * named like the input, or chosen with 'column'. */
START_TEST(test_table_from_csv)
{
    mkdir_tmp();
    write_file("loads.csv", "time, tau, other\n# a comment\n0,0,5\n2,4,5\n\n4,0,5\n");
    write_file("run.scn", "input tau file \"loads.csv\"\n");
    write_file("run2.scn", "input tau file \"loads.csv\" column other\n");
    write_file("bad.scn", "input tau file \"loads.csv\" column othr\n");
    write_file("bad2.csv", "time,tau\n0,1\n1\n");
    write_file("bad2.scn", "\ninput tau file \"bad2.csv\"\n");
    write_file("bad3.csv", "time,tau\n0,1\n0,2\n");
    write_file("bad3.scn", "input tau file \"bad3.csv\"\n");
    char p[160];
    rs_scenario s;
    snprintf(p, sizeof p, "%s/run.scn", dir);
    ck_assert_int_eq(rs_scenario_read(p, &s, err, sizeof err), RS_OK);
    ck_assert_int_eq(s.inputs[0].n, 3);
    ck_assert_double_eq_tol(rs_scenario_interp(s.inputs[0].t, s.inputs[0].v, 3, 3.0), 2.0, 1e-15);
    rs_scenario_free(&s);

    snprintf(p, sizeof p, "%s/run2.scn", dir);
    ck_assert_int_eq(rs_scenario_read(p, &s, err, sizeof err), RS_OK);
    ck_assert_double_eq(s.inputs[0].v[1], 5);
    rs_scenario_free(&s);

    char want[512];
    snprintf(p, sizeof p, "%s/bad.scn", dir);
    ck_assert_int_eq(rs_scenario_read(p, &s, err, sizeof err), RS_E_NOTFOUND);
    snprintf(want, sizeof want, "%s/bad.scn:1: input 'tau': '%s/loads.csv' has no column 'othr' (did you mean "
             "'other'?); its columns: time, tau, other", dir, dir);
    ck_assert_str_eq(err, want);

    snprintf(p, sizeof p, "%s/bad2.scn", dir);
    ck_assert_int_eq(rs_scenario_read(p, &s, err, sizeof err), RS_E_ARG);
    snprintf(want, sizeof want, "%s/bad2.csv:3: row has 1 fields, the header 2 (input 'tau' of %s/bad2.scn:2)",
             dir, dir);
    ck_assert_str_eq(err, want);

    snprintf(p, sizeof p, "%s/bad3.scn", dir);
    ck_assert_int_eq(rs_scenario_read(p, &s, err, sizeof err), RS_E_ARG);
    snprintf(want, sizeof want, "%s/bad3.csv:3: times must increase: 0 after 0 (input 'tau' of %s/bad3.scn:1)",
             dir, dir);
    ck_assert_str_eq(err, want);

    static const char *const files[] = {"loads.csv", "run.scn", "run2.scn", "bad.scn", "bad2.csv",
                                        "bad2.scn", "bad3.csv", "bad3.scn", NULL};
    rm_tmp(files);
}
END_TEST

/* A user's scenario over a model's default.scn: the top wins. */
START_TEST(test_overlay)
{
    rs_scenario base, top;
    parse_ok("initial theta = 0.3\nstep 1e-3\ncolumns theta\nfriction 0.2\n"
             "track \"vehicles/tracks/straight.trk\"\n", &base);
    parse_ok("initial theta = 1.25\nstep 2e-3\nparam L = 2\nfriction 0.4\ncontact elastic\n"
             "rail_profile \"vehicles/profiles/arc_r300.prf\"\n", &top);
    ck_assert_int_eq(base.contact_mode, RS_CONTACT_MODE_MODEL);
    ck_assert_int_eq(rs_scenario_overlay(&base, &top), RS_OK);
    rs_scenario_free(&top);
    ck_assert_double_eq(base.friction, 0.4);
    ck_assert_int_eq(base.contact_mode, RS_CONTACT_MODE_ELASTIC);
    ck_assert_str_eq(base.file[RS_SCENARIO_FILE_TRACK], "vehicles/tracks/straight.trk"); /* kept */
    ck_assert_str_eq(base.file[RS_SCENARIO_FILE_RAIL], "vehicles/profiles/arc_r300.prf");
    ck_assert_ptr_null(base.file[RS_SCENARIO_FILE_WHEEL]);
    ck_assert_int_eq(base.file_at[RS_SCENARIO_FILE_RAIL].line, 6);
    free(base.file[RS_SCENARIO_FILE_TRACK]); /* a file the test does not need */
    base.file[RS_SCENARIO_FILE_TRACK] = NULL;
    free(base.file[RS_SCENARIO_FILE_RAIL]);
    base.file[RS_SCENARIO_FILE_RAIL] = NULL;
    ck_assert_double_eq(rs_scenario_step(&base), 2e-3);
    ck_assert_int_eq(base.n_columns, 1); /* the top gave none: kept */
    /* settings the pendulum has no contacts for (bound, they would be
     * refused: test_scenario_contact contactless_refuses_contact_settings) */
    base.set &= ~(unsigned)(RS_SCENARIO_FRICTION | RS_SCENARIO_CONTACT);
    rs_binding *b;
    ck_assert_int_eq(rs_scenario_bind(&base, rt_pendulum_model(), &b, err, sizeof err), RS_OK);
    rs_ws *ws = rt_ws_new(rt_pendulum_model(), RS_RK4, 1e-3, 1e-6);
    ck_assert_int_eq(rs_binding_apply(b, ws, err, sizeof err), RS_OK);
    ck_assert_double_eq(rs_ws_q(ws)[0], 1.25);
    ck_assert_double_eq(rs_ws_p(ws)[1], 2);
    int n;
    const char *const *cols = rs_binding_columns(b, &n);
    ck_assert_int_eq(n, 1);
    ck_assert_str_eq(cols[0], "theta");
    rs_ws_free(&ws);
    rs_binding_free(&b);
    rs_scenario_free(&base);
}
END_TEST

START_TEST(test_closest_name)
{
    const char *const c[] = {"duration", "step", "output"};
    ck_assert_str_eq(rs_closest_name("stpe", c, 3), "step");   /* transposition */
    ck_assert_str_eq(rs_closest_name("dur", c, 3), "duration"); /* unique prefix */
    ck_assert_ptr_null(rs_closest_name("zzz", c, 3));
    /* the one rule of every layer (common/rs_closest.h; test_vdl_errors
     * checks the modeler agrees): a swap counts 1, ties go to the earliest */
    ck_assert_uint_eq(rs_edit_distance("plto", "plot"), 1);
    ck_assert_uint_eq(rs_edit_distance("kitten", "sitting"), 3);
    ck_assert_uint_eq(rs_edit_distance("", "abc"), 3);
    ck_assert_uint_gt(rs_edit_distance("a", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"), 1000);
    const char *const t[] = {"cat", "bat", "rat"};
    ck_assert_str_eq(rs_closest_name("hat", t, 3), "cat");
    ck_assert_ptr_null(rs_closest_name("duration", c, 3));   /* exact: no typo */
    ck_assert_ptr_null(rs_closest_name("step", c, 0));
}
END_TEST

/* Every byte read is parsed: a NUL byte (which used to end the text
 * silently: a file starting with one ran on all defaults) is an error with
 * its line and column, in a scenario and in an input table; a folder given
 * as either says it is one. */
static void write_bytes(const char *name, const char *bytes, size_t n)
{
    char p[160];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(bytes, 1, n, f), n);
    fclose(f);
}

START_TEST(test_nul_bytes_and_folders)
{
    rs_scenario s;
    static const char mid[] = "duration 2\nstep 1e-3\0 garbage\nparam m = 2\n";
    ck_assert_int_eq(rs_scenario_parse(mid, sizeof mid - 1, "t.scn", &s, err, sizeof err), RS_E_SYNTAX);
    ck_assert_str_eq(err, "t.scn:2: a NUL byte at column 10: the file is binary or corrupt");
    static const char first[] = "\0duration 5\n";
    ck_assert_int_eq(rs_scenario_parse(first, sizeof first - 1, "t.scn", &s, err, sizeof err), RS_E_SYNTAX);
    ck_assert_str_eq(err, "t.scn:1: a NUL byte at column 1: the file is binary or corrupt");

    mkdir_tmp();
    char p[160], want[512];
    write_bytes("bin.scn", "\0\1\2ELF", 6);
    snprintf(p, sizeof p, "%s/bin.scn", dir);
    ck_assert_int_eq(rs_scenario_read(p, &s, err, sizeof err), RS_E_SYNTAX);
    snprintf(want, sizeof want, "%s/bin.scn:1: a NUL byte at column 1: the file is binary or corrupt", dir);
    ck_assert_str_eq(err, want);

    write_bytes("nul.csv", "time,tau\n0,1\n1,\0 2\n2,3\n", 22);
    write_file("nul.scn", "\ninput tau file \"nul.csv\"\n");
    snprintf(p, sizeof p, "%s/nul.scn", dir);
    ck_assert_int_eq(rs_scenario_read(p, &s, err, sizeof err), RS_E_SYNTAX);
    snprintf(want, sizeof want, "%s/nul.csv:3: a NUL byte at column 3: the file is binary or corrupt "
             "(input 'tau' of %s/nul.scn:2)", dir, dir);
    ck_assert_str_eq(err, want);

    /* folders: the scenario, an input table */
    ck_assert_int_eq(rs_scenario_read(dir, &s, err, sizeof err), RS_E_IO);
    snprintf(want, sizeof want, "cannot read scenario '%s': it is a directory", dir);
    ck_assert_str_eq(err, want);
    snprintf(p, sizeof p, "%s/sub.csv", dir);
    ck_assert_int_eq(mkdir(p, 0700), 0);
    write_file("dir.scn", "input tau file \"sub.csv\"\n");
    snprintf(p, sizeof p, "%s/dir.scn", dir);
    ck_assert_int_eq(rs_scenario_read(p, &s, err, sizeof err), RS_E_IO);
    snprintf(want, sizeof want, "%s/dir.scn:1: input 'tau': cannot read '%s/sub.csv': it is a directory", dir, dir);
    ck_assert_str_eq(err, want);
    snprintf(p, sizeof p, "%s/sub.csv", dir);
    rmdir(p);
    static const char *const files[] = {"bin.scn", "nul.csv", "nul.scn", "dir.scn", NULL};
    rm_tmp(files);
}
END_TEST

static Suite *scenario_suite(void)
{
    Suite *s = suite_create("scenario");
    TCase *p = tcase_create("parse");
    tcase_add_test(p, test_full_scenario);
    tcase_add_test(p, test_defaults);
    tcase_add_loop_test(p, test_errors, 0, (int)(sizeof bad / sizeof bad[0]));
    tcase_add_test(p, test_read_missing_file);
    tcase_add_test(p, test_closest_name);
    suite_add_tcase(s, p);
    TCase *b = tcase_create("bind");
    tcase_add_loop_test(b, test_bind_errors, 0, (int)(sizeof unbound / sizeof unbound[0]));
    tcase_add_test(b, test_bind_input_suggestion);
    tcase_add_test(b, test_constant_inputs_set_once);
    tcase_add_test(b, test_interp);
    tcase_add_test(b, test_table_input_and_apply);
    tcase_add_test(b, test_table_from_csv);
    tcase_add_test(b, test_nul_bytes_and_folders);
    tcase_add_test(b, test_overlay);
    suite_add_tcase(s, b);
    return s;
}

RS_TEST_MAIN(scenario_suite)
