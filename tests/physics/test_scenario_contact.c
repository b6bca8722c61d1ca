/*
 * test_scenario_contact.c — what a scenario does to the wheel-rail contacts
 * (docs/scenario.md): `track "FILE"` runs the same compiled model on another
 * track (a track raised by 10 mm lifts the wheelset by exactly 10 mm);
 * `friction MU` saturates the creep forces at μ N (Shen-Hedrick-Elkins,
 * checked against the formula written here); the contact quantities
 * `<contact>.xi_x/.xi_y/.spin/.N` and `newton_contact` as results (the spin
 * creepage of a rolling cone is sin(δ)/r, δ the contact angle); `theta T`
 * and the θ a workspace resolves without it (the normal law's own); a
 * model without contacts refuses every contact setting, naming its line;
 * a contact's multiplier column `lambda_<contact>.phi_n` is −N with the
 * constraint contact and refused with the elastic one (it holds no normal
 * constraint: the column was NaN throughout), naming `<contact>.N`, and
 * left out of the default columns.
 */
#define _DEFAULT_SOURCE   /* mkdtemp */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "rs_contact.h"
#include "rs_elastic.h"
#include "rs_kalker.h"
#include "rs_load.h"
#include "rs_results.h"
#include "rs_scenario.h"
#include "rs_ws_impl.h"
#include "rs_test.h"

#define DIR "generated/wheelset_cone"

static char err[2000];

/* Bindings stay alive while their workspaces run (the input callback reads
 * them); freed by free_bindings at the end of each test. */
static rs_binding *bindings[8];
static int n_bindings;

static void free_bindings(void)
{
    while (n_bindings > 0)
        rs_binding_free(&bindings[--n_bindings]);
}

/* A workspace of the cone wheelset with its default.scn, then `text` (as
 * the file run.scn in dir) and then the command line's `set` statements
 * (NULL: none) over it (rs_scenario_load), rolling at V. */
static rs_ws *wheelset_set(rs_loaded *h, const char *dir, const char *text, const char *set, double V)
{
    const rs_model *m = rs_loaded_model(h);
    char path[512];
    snprintf(path, sizeof path, "%s/run.scn", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    rs_scenario base;
    rs_scenario_init(&base);
    ck_assert_msg(rs_scenario_load(DIR, 1, path, set, &base, err, sizeof err) == RS_OK, "%s", err);
    rs_binding *b;
    ck_assert_msg(rs_scenario_bind(&base, m, &b, err, sizeof err) == RS_OK, "%s", err);
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    rs_binding_options(b, &o);
    rs_ws *ws;
    ck_assert_msg(rs_ws_create(m, &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_binding_apply(b, ws, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_lt(n_bindings, 8);
    bindings[n_bindings++] = b;
    rs_scenario_free(&base);
    ck_assert_int_eq(rs_ws_set_qd(ws, "x_dot", V), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "spin_dot", V / 0.45), RS_OK);
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    return ws;
}

static rs_ws *wheelset(rs_loaded *h, const char *dir, const char *text, double V)
{
    return wheelset_set(h, dir, text, NULL, V);
}

static double value(rs_ws *ws, const char *name)
{
    rs_var v;
    ck_assert_msg(rs_model_find(ws->model, name, &v) == RS_OK, "no '%s'", name);
    return rs_ws_value(ws, v, NULL);
}

START_TEST(track_replacement)
{
    char dir[] = "/tmp/rs_scenario_contact_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[512];
    snprintf(path, sizeof path, "%s/raised.trk", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("railsym-track 1\nname raised\ngauge 1.435\ninclination 1:40\n"
          "origin x 0 y 0 z 0.01 heading 0 s 0\nstraight 2000\n", f);
    fclose(f);
    rs_loaded *h = rs_load(DIR, RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    rs_ws *a = wheelset(h, dir, "step 1e-3\n", 10);
    rs_ws *b = wheelset(h, dir, "step 1e-3\ntrack \"raised.trk\"   # beside run.scn\n", 10);
    const double za = value(a, "z"), zb = value(b, "z");
    printf("track replacement: wheelset z %.9f m on straight.trk, %.9f m on raised.trk\n", za, zb);
    ck_assert_msg(fabs(zb - za - 0.01) < 1e-9, "z %g vs %g", zb, za);
    for (int n = 0; n < 50; n++) {
        ck_assert_msg(rs_step(a) == RS_OK, "%s", rs_ws_error(a));
        ck_assert_msg(rs_step(b) == RS_OK, "%s", rs_ws_error(b));
    }
    ck_assert_msg(fabs(value(b, "z") - value(a, "z") - 0.01) < 1e-9, "after 50 steps");
    rs_ws_free(&a);
    rs_ws_free(&b);
    free_bindings();
    /* a 0.3 m track: at 10 m/s the wheels are 1 m beyond its end (the
     * margin of extrapolation allowed) after 0.13 s */
    snprintf(path, sizeof path, "%s/short.trk", dir);
    f = fopen(path, "w");
    fputs("railsym-track 1\nname short\ngauge 1.435\ninclination 1:40\n"
          "origin x 0 y 0 z 0 heading 0 s 0\nstraight 0.3\n", f);
    fclose(f);
    rs_ws *c = wheelset(h, dir, "track \"short.trk\"\n", 10);
    int st = RS_OK, n = 0;
    while (st == RS_OK && n++ < 1000)
        st = rs_step(c);
    ck_assert_int_eq(st, RS_E_OFFTRACK);
    ck_assert_msg(n > 125 && n < 140, "off the track after %d steps", n);
    ck_assert_msg(strstr(rs_ws_error(c), "ran off the end of its track"), "%s", rs_ws_error(c));
    printf("short track: %s\n", rs_ws_error(c));
    rs_ws_free(&c);
    free_bindings();
    unlink(path);
    /* a file that is no track: the workspace names the scenario's file */
    snprintf(path, sizeof path, "%s/run.scn", dir);
    f = fopen(path, "w");
    fputs("track \"run.scn\"\n", f);
    fclose(f);
    rs_scenario s;
    rs_binding *bd;
    ck_assert_msg(rs_scenario_read(path, &s, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(rs_scenario_bind(&s, rs_loaded_model(h), &bd, err, sizeof err), RS_OK);
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    rs_binding_options(bd, &o);
    rs_ws *ws = NULL;
    ck_assert_int_ne(rs_ws_create(rs_loaded_model(h), &o, &ws, err, sizeof err), RS_OK);
    ck_assert_msg(strstr(err, "run.scn") && strstr(err, "the scenario's replacement file"), "%s",
                  err);
    rs_binding_free(&bd);
    rs_scenario_free(&s);
    rs_unload(&h);
    unlink(path);
    snprintf(path, sizeof path, "%s/raised.trk", dir);
    unlink(path);
    rmdir(dir);
}
END_TEST

/* Shen-Hedrick-Elkins, written out: saturated magnitude over μN. */
static double she(double beta)
{
    return beta < 3 ? beta - beta * beta / 3 + beta * beta * beta / 27 : 1;
}

START_TEST(saturation_law)
{
    const double fmax = 1000;
    for (double beta = 0.01; beta < 8; beta += 0.01) {
        const double eps = rs_creep_saturation(beta * fmax, fmax);
        ck_assert_msg(fabs(eps * beta - she(beta)) < 1e-12, "beta %g: %g vs %g", beta, eps * beta,
                      she(beta));
        ck_assert(eps > 0 && eps <= 1);
        ck_assert(eps * beta <= 1 + 1e-15); /* never above μN */
    }
    ck_assert_double_eq(rs_creep_saturation(5, 0), 1);   /* no friction limit */
    ck_assert_double_eq(rs_creep_saturation(0, 10), 1);  /* no force */
    /* C1 at β = 3: the slope of ε β is 0 from both sides */
    const double d = 1e-6;
    const double slope = (rs_creep_saturation((3 - d) * fmax, fmax) * (3 - d) -
                          rs_creep_saturation((3 - 2 * d) * fmax, fmax) * (3 - 2 * d)) / d;
    ck_assert_msg(fabs(slope) < 1e-5, "slope %g", slope);
}
END_TEST

START_TEST(friction_limits_creep_forces)
{
    char dir[] = "/tmp/rs_scenario_friction_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    rs_loaded *h = rs_load(DIR, RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    /* released at a 2 mrad yaw angle at 20 m/s: lateral creepage ~2e-3,
     * far beyond saturation at μ = 0.1 */
    rs_ws *lin = wheelset(h, dir, "initial yaw = 0.002\n", 20);
    rs_ws *sat = wheelset(h, dir, "initial yaw = 0.002\nfriction 0.1\n", 20);
    double worst_lin = 0, worst_sat = 0;
    for (int n = 0; n < 200; n++) {
        ck_assert_msg(rs_step(lin) == RS_OK, "%s", rs_ws_error(lin));
        ck_assert_msg(rs_step(sat) == RS_OK, "%s", rs_ws_error(sat));
        for (int i = 0; i < 2; i++) {
            const char *c = i ? "right" : "left";
            char nf[64];
            snprintf(nf, sizeof nf, "%s.N", c);
            const double Nl = value(lin, nf), Ns = value(sat, nf);
            const double *fl = lin->ct->f + 3 * i, *fs = sat->ct->f + 3 * i;
            worst_lin = fmax(worst_lin, hypot(fl[0], fl[1]) / (0.1 * Nl));
            if (n > 0)   /* the first step's factor is from the initial state */
                worst_sat = fmax(worst_sat, hypot(fs[0], fs[1]) / (0.1 * Ns));
        }
    }
    printf("friction 0.1: max |f_t| / (mu N) %.3f linear, %.4f saturated\n", worst_lin, worst_sat);
    ck_assert_msg(worst_lin > 2, "the linear force never exceeded mu N (%g)", worst_lin);
    ck_assert_msg(worst_sat < 1.02, "saturated force %g x mu N", worst_sat);
    rs_ws_free(&lin);
    rs_ws_free(&sat);
    /* friction per contact: 0.1 on the right rail only ('r*' matches it),
     * the left one unbounded; each wheel's force against its own limit */
    rs_ws *each = wheelset(h, dir, "initial yaw = 0.002\nfriction r* = 0.1\n", 20);
    double worst_left = 0, worst_right = 0;
    for (int n = 0; n < 200; n++) {
        ck_assert_msg(rs_step(each) == RS_OK, "%s", rs_ws_error(each));
        const double *fl = each->ct->f, *fr = each->ct->f + 3;
        if (n > 0) {
            worst_left = fmax(worst_left, hypot(fl[0], fl[1]) / (0.1 * value(each, "left.N")));
            worst_right = fmax(worst_right, hypot(fr[0], fr[1]) / (0.1 * value(each, "right.N")));
        }
    }
    printf("friction r* = 0.1: max |f_t| / (0.1 N) %.3f left (unbounded), %.4f right\n", worst_left, worst_right);
    ck_assert_msg(worst_left > 2, "the left (unbounded) force never exceeded 0.1 N (%g)", worst_left);
    ck_assert_msg(worst_right < 1.02, "the right force reached %g x 0.1 N", worst_right);
    rs_ws_free(&each);
    free_bindings();
    rs_unload(&h);
    char path[512];
    snprintf(path, sizeof path, "%s/run.scn", dir);
    unlink(path);
    rmdir(dir);
}
END_TEST

START_TEST(contact_quantities)
{
    char dir[] = "/tmp/rs_scenario_quant_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    rs_loaded *h = rs_load(DIR, RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    rs_ws *ws = wheelset(h, dir, "step 1e-3\n", 15);
    for (int n = 0; n < 20; n++)
        ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
    /* centred, rolling: no longitudinal or lateral creepage; spin creepage
     * of the 1:40 cone sin(δ)/r with δ = atan(1/40) the contact angle, of
     * opposite sign on the two wheels; N = −λ */
    const double spin = sin(atan(1.0 / 40)) / 0.45;
    const double sl = value(ws, "left.spin"), sr = value(ws, "right.spin");
    printf("spin creepage: left %.6f, right %.6f, sin(delta)/r0 = %.6f 1/m\n", sl, sr, spin);
    ck_assert_msg(fabs(fabs(sl) - spin) < 0.01 * spin && fabs(fabs(sr) - spin) < 0.01 * spin,
                  "spin %g %g vs %g", sl, sr, spin);
    ck_assert(sl * sr < 0);
    ck_assert(fabs(value(ws, "left.xi_x")) < 1e-6 && fabs(value(ws, "left.xi_y")) < 1e-6);
    ck_assert_double_eq(value(ws, "left.N"), -value(ws, "lambda_left.phi_n"));
    ck_assert(value(ws, "left.N") > 0);
    ck_assert_double_eq(value(ws, "newton_contact"), rs_ws_stats(ws)->contact_iters_last);
    ck_assert_double_eq(value(ws, "newton_position"), rs_ws_stats(ws)->proj_iters_last);
    rs_var v;
    ck_assert_int_eq(rs_model_find(ws->model, "left.xi", &v), RS_E_NOTFOUND);
    ck_assert_int_eq(rs_model_find(ws->model, "middle.N", &v), RS_E_NOTFOUND);
    rs_ws_free(&ws);
    free_bindings();
    rs_unload(&h);
    char path[512];
    snprintf(path, sizeof path, "%s/run.scn", dir);
    unlink(path);
    rmdir(dir);
}
END_TEST

/* Material per contact from the scenario and the command line: the
 * constraint contact's Hertz ellipse per contact (ws->ct->a) at its normal
 * force.  Hertz (Johnson, Contact Mechanics, §4.2): for fixed curvatures
 * a ∝ (N / E*)^{1/3}, E* = E / (2 (1 − ν²)) for equal materials; the cone
 * (flat across) on the 300 mm arc keeps the curvatures fixed. */
START_TEST(material_per_contact)
{
    char dir[] = "/tmp/rs_scenario_material_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    rs_loaded *h = rs_load(DIR, RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    rs_ws *ref = wheelset(h, dir, "step 1e-3\n", 10);
    /* the file halves the left wheel's modulus; the command line then sets
     * the right one's Poisson ratio to 0 and the common modulus stays */
    rs_ws *mat = wheelset_set(h, dir, "step 1e-3\nmodulus l* = 1.05e11\n", "poisson right = 0\n", 10);
    rs_ws *all = wheelset_set(h, dir, "step 1e-3\n", "modulus 1.05e11\n", 10);
    for (int n = 0; n < 20; n++) {
        ck_assert_msg(rs_step(ref) == RS_OK, "%s", rs_ws_error(ref));
        ck_assert_msg(rs_step(mat) == RS_OK, "%s", rs_ws_error(mat));
        ck_assert_msg(rs_step(all) == RS_OK, "%s", rs_ws_error(all));
    }
    const double estar[2] = {0.5, 1 - 0.28 * 0.28};   /* E*_mat / E*_ref: left, right */
    for (int i = 0; i < 2; i++) {
        const char *c = i ? "right.N" : "left.N";
        const double want = cbrt(value(mat, c) / value(ref, c) / estar[i]), got = mat->ct->a[i] / ref->ct->a[i];
        const double want_all = cbrt(value(all, c) / value(ref, c) / 0.5), got_all = all->ct->a[i] / ref->ct->a[i];
        printf("material per contact: %s a ratio %.6f ((N ratio / E* ratio)^1/3 %.6f); 'modulus 1.05e11': %.6f "
               "(%.6f)\n", c, got, want, got_all, want_all);
        ck_assert_msg(fabs(got - want) < 1e-6 * want, "%s: a ratio %g, want %g", c, got, want);
        ck_assert_msg(fabs(got_all - want_all) < 1e-6 * want_all, "%s: a ratio %g, want %g", c, got_all, want_all);
    }
    rs_ws_free(&ref);
    rs_ws_free(&mat);
    rs_ws_free(&all);
    free_bindings();
    /* errors name where the value came from */
    const struct { const char *text, *set, *msg; } bad[] = {
        {"modulus -1\n", NULL, "run.scn:1: modulus must be Young's modulus in Pa, > 0 (steel: 2.1e11) (got -1)"},
        {"", "poisson left = 0.5\n", "--set:1: poisson must be a Poisson ratio in [0, 0.5) (steel: 0.28) (got 0.5)"},
        {"", "step 1e-3\nmodulus lft = 2e11\n", "--set:2: no contact is named 'lft' (did you mean 'left'?)"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        char path[512];
        snprintf(path, sizeof path, "%s/run.scn", dir);
        FILE *f = fopen(path, "w");
        ck_assert_ptr_nonnull(f);
        fputs(bad[k].text, f);
        fclose(f);
        rs_scenario s;
        rs_scenario_init(&s);
        rs_binding *b = NULL;
        int st = rs_scenario_load(DIR, 1, path, bad[k].set, &s, err, sizeof err);
        if (!st)
            st = rs_scenario_bind(&s, rs_loaded_model(h), &b, err, sizeof err);
        ck_assert_int_ne(st, RS_OK);
        ck_assert_msg(strstr(err, bad[k].msg) != NULL, "'%s' lacks '%s'", err, bad[k].msg);
        rs_binding_free(&b);
        rs_scenario_free(&s);
    }
    rs_unload(&h);
    char path[512];
    snprintf(path, sizeof path, "%s/run.scn", dir);
    unlink(path);
    rmdir(dir);
}
END_TEST

/* The step's θ as a workspace of the cone wheelset resolves it (the
 * scenario `text` over default.scn; 0: the binding is refused, *msg then
 * holds the message). */
static double theta_of(rs_loaded *h, const char *text, char *msg, size_t msglen)
{
    const rs_model *m = rs_loaded_model(h);
    rs_scenario base, top;
    ck_assert_msg(rs_scenario_read(DIR "/default.scn", &base, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_scenario_parse(text, strlen(text), "run.scn", &top, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(rs_scenario_overlay(&base, &top), RS_OK);
    rs_binding *b = NULL;
    const int st = rs_scenario_bind(&base, m, &b, msg, msglen);
    rs_scenario_free(&top);
    rs_scenario_free(&base);
    if (st != RS_OK) {
        ck_assert_ptr_null(b);
        return 0;
    }
    rs_options o;
    rs_options_default(&o);
    rs_binding_options(b, &o);
    o.contact = rs_binding_contact_mode(b) == RS_CONTACT_MODE_ELASTIC ? rs_elastic_contact() : rs_wheel_rail_contact();
    rs_ws *ws;
    ck_assert_msg(rs_ws_create(m, &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_binding_apply(b, ws, err, sizeof err) == RS_OK, "%s", err);
    const double th = rs_ws_options(ws)->contact_theta;
    rs_ws_free(&ws);
    rs_binding_free(&b);
    return th;
}

/* `theta T`: the elastic contact's θ (rs_options.contact_theta); left out,
 * the normal law's own (rs_elastic_theta: RS_THETA_STRIPS for the strip
 * law, the default, RS_THETA_POINT for the point law), resolved when the
 * workspace is created; the constraint contact refuses the statement. */
START_TEST(theta_statement)
{
    rs_loaded *h = rs_load(DIR, RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    char msg[1000] = "";
    ck_assert_double_eq(theta_of(h, "contact elastic\ntheta 0.8\n", msg, sizeof msg), 0.8);
    ck_assert_double_eq(theta_of(h, "contact elastic\nnormal point\ntheta 0.5\n", msg, sizeof msg), 0.5);
    ck_assert_double_eq(theta_of(h, "contact elastic\n", msg, sizeof msg), RS_THETA_STRIPS);
    ck_assert_double_eq(theta_of(h, "contact elastic\nnormal strips\n", msg, sizeof msg), RS_THETA_STRIPS);
    ck_assert_double_eq(theta_of(h, "contact elastic\nnormal point\n", msg, sizeof msg), RS_THETA_POINT);
    ck_assert_double_eq(RS_THETA_POINT, 1.0); /* the point law's results as before session 41 */
    ck_assert(RS_THETA_STRIPS >= 0.5 && RS_THETA_STRIPS <= 1);
    /* the cone wheelset's description asks for the constraint contact */
    ck_assert_double_eq(theta_of(h, "step 1e-3\n", msg, sizeof msg), 0); /* unused there: left at 0 */
    ck_assert_msg(msg[0] == '\0', "%s", msg);
    const char *want = "'theta 0.7' belongs to the elastic contact (where its step linearizes the normal "
                       "stiffness); model 'wheelset_cone' runs the constraint contact, which holds one point per "
                       "wheel on its rail: remove the line, or add 'contact elastic'";
    char full[1200];
    ck_assert_double_eq(theta_of(h, "\ntheta 0.7\n", msg, sizeof msg), 0);
    snprintf(full, sizeof full, "run.scn:2: %s", want);
    ck_assert_str_eq(msg, full);
    ck_assert_double_eq(theta_of(h, "theta 0.7\ncontact constraint\n", msg, sizeof msg), 0);
    snprintf(full, sizeof full, "run.scn:1: %s", want);
    ck_assert_str_eq(msg, full);
    /* the options' own check: 0 (the law's own) or [0.5, 1] */
    rs_options o;
    rs_options_default(&o);
    ck_assert_double_eq(o.contact_theta, 0);
    o.contact = rs_elastic_contact();
    o.contact_theta = 0.45;
    rs_ws *ws = NULL;
    ck_assert_int_eq(rs_ws_create(rs_loaded_model(h), &o, &ws, msg, sizeof msg), RS_E_ARG);
    ck_assert_msg(strstr(msg, "contact_theta in [0.5, 1] (or 0: the normal law's own)"), "%s", msg);
    rs_unload(&h);
}
END_TEST

/* The pendulum has no wheel-rail contacts: each contact setting is refused
 * at its line (not ignored), the others bind. */
START_TEST(contactless_refuses_contact_settings)
{
    RS_REQUIRE_MODEL("pendulum");
    rs_loaded *h = rs_load("generated/pendulum", RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    const rs_model *m = rs_loaded_model(h);
    ck_assert_int_eq(m->n_contact, 0);
    static const char *const line[] = {"friction 0.3", "contact elastic", "contact constraint", "creep fastsim",
                                       "derailment continue", "climb_time 0.1", "normal point", "theta 0.7"};
    for (int k = 0; k < (int)(sizeof line / sizeof line[0]) + 1; k++) {
        char text[128], want[256];
        const int control = k == (int)(sizeof line / sizeof line[0]);
        snprintf(text, sizeof text, "duration 0.5\n%s\n", control ? "step 1e-3" : line[k]);
        rs_scenario sc;
        ck_assert_msg(rs_scenario_parse(text, strlen(text), "p.scn", &sc, err, sizeof err) == RS_OK, "%s", err);
        rs_binding *b = NULL;
        const int st = rs_scenario_bind(&sc, m, &b, err, sizeof err);
        rs_scenario_free(&sc);
        if (control) {
            ck_assert_msg(st == RS_OK, "%s", err);
            rs_binding_free(&b);
            continue;
        }
        char kw[32];
        sscanf(line[k], "%31s", kw);
        snprintf(want, sizeof want, "p.scn:2: model 'pendulum' has no wheel-rail contacts: '%s' has nothing to act "
                 "on; remove the line", kw);
        ck_assert_msg(st != RS_OK && b == NULL && strstr(err, want), "'%s': %s", line[k], err);
    }
    rs_unload(&h);
}
END_TEST

START_TEST(multiplier_column_per_contact)
{
    rs_loaded *h = rs_load(DIR, RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    const rs_model *m = rs_loaded_model(h);
    char dir[] = "/tmp/rs_lambda_col_XXXXXX", path[64];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/r.csv", dir);
    const char *const names[] = {"left.N", "lambda_left.phi_n"};
    for (int elastic = 0; elastic < 2; elastic++) {
        rs_options o;
        rs_options_default(&o);
        o.contact = elastic ? rs_elastic_contact() : rs_wheel_rail_contact();
        rs_ws *ws;
        ck_assert_msg(rs_ws_create(m, &o, &ws, err, sizeof err) == RS_OK, "%s", err);
        ck_assert_int_eq(rs_ws_init(ws), RS_OK);
        rs_results *r = NULL;
        const int st = rs_results_open_ws(&r, path, ws, 2, names, 0, err, sizeof err);
        if (!elastic) { /* the multiplier is −N: the row written holds both */
            ck_assert_msg(st == RS_OK, "%s", err);
            ck_assert_int_eq(rs_results_write_ws(r, ws), RS_OK);
            ck_assert_int_eq(rs_results_close(&r, 1, NULL, 0, err, sizeof err), RS_OK);
            FILE *f = fopen(path, "r");
            char line[256];
            double N = 0, lam = 0;
            ck_assert_ptr_nonnull(fgets(line, sizeof line, f)); /* header */
            ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
            fclose(f);
            ck_assert_int_eq(sscanf(line, "%*[^,],%lf,%lf", &N, &lam), 2);
            ck_assert_msg(N > 0 && lam == -N, "left.N %g, lambda %g", N, lam);
        } else {
            ck_assert_msg(st == RS_E_ARG && r == NULL && strstr(err, "column 2 'lambda_left.phi_n'") &&
                          strstr(err, "its normal force is 'left.N'"), "%d: %s", st, err);
            ck_assert_int_ne(access(path, F_OK), 0); /* a refused table leaves no file */
            char partial[96];
            rs_results_partial_path(path, partial, sizeof partial);
            ck_assert_int_ne(access(partial, F_OK), 0);
            /* the default columns leave them out (they held NaN) */
            ck_assert_msg(rs_results_open_ws(&r, path, ws, 0, NULL, 0, err, sizeof err) == RS_OK, "%s", err);
            ck_assert_int_eq(rs_results_close(&r, 1, NULL, 0, err, sizeof err), RS_OK);
            FILE *f = fopen(path, "r");
            char head[4096];
            ck_assert_ptr_nonnull(fgets(head, sizeof head, f));
            fclose(f);
            ck_assert_msg(strstr(head, "yaw_dot") && !strstr(head, "lambda_"), "%s", head);
        }
        rs_ws_free(&ws);
        char units[96];
        rs_results_units_path(path, units, sizeof units);
        remove(path);
        remove(units);
    }
    ck_assert_int_eq(rmdir(dir), 0);
    rs_unload(&h);
}
END_TEST

int main(void)
{
    if (!rs_test_need_model("test_scenario_contact", "wheelset_cone"))
        return EXIT_FAILURE;
    Suite *s = suite_create("scenario_contact");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, track_replacement);
    tcase_add_test(tc, saturation_law);
    tcase_add_test(tc, friction_limits_creep_forces);
    tcase_add_test(tc, contact_quantities);
    tcase_add_test(tc, material_per_contact);
    tcase_add_test(tc, theta_statement);
    tcase_add_test(tc, contactless_refuses_contact_settings);
    tcase_add_test(tc, multiplier_column_per_contact);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
