/*
 * test_plugin_uses.c — user plugins beyond `railsym run`'s step
 * (docs/plugins.md "What runs a plugin model"): the static equilibrium,
 * the linear analysis, saved states and the C API.
 *
 * The model: two blocks hanging under gravity in a vertical chain, ground
 * → s1 → block b1 (m1) → s2 → block b2 (m2), s1 always the built-in spring,
 * s2 either the built-in spring or the same law computed by the tests'
 * plugin (tests/support/plugins/spring_damper_plugin.c), with its Jacobian
 * or without (the runtime then takes central differences of its force).
 * Checked:
 *   - equilibrium: each variant's z1, z2 equal the hand calculation
 *     (s1 carries (m1 + m2) g, s2 carries m2 g) and the built-in's to 1e-9;
 *   - linear analysis: the plugin's eigenvalues equal the built-in spring's
 *     to 1e-9 of |s| (Jacobian given) and 1e-8 (central differences), and
 *     those of the 2 × 2 problem det(s² M + s C + K) = 0 solved in the test;
 *     `railsym linear` on the plugin model prints what it prints for the
 *     built-in one;
 *   - saved states: with the traction controller (docs/plugins/, one state
 *     updated by `advance`) saved at 0.5 s, run on to 1 s, restored and run
 *     again, the second run repeats the first bit for bit, in rs_ws and
 *     through railsym.h; and it would not without the plugin's state (the
 *     state changes between the save and the end);
 *   - the C API opens a plugin model (and its run is the PI's closed form);
 *   - export-fmu carries the plugin's library in resources/plugins/: with
 *     the original library deleted, the FMU still runs and equals `railsym
 *     run` of the same scenario (1e-12 relative, every column);
 *   - the bifurcation runs (`critical-speed --bifurcation`) load the plugins:
 *     a cart rolling along x on a lateral plugin spring-damper (k = 1000
 *     N/m, c = 20 N s/m, m = 10 kg) decays at every speed at the rate
 *     c/(2m) = 1 1/s and the damped frequency √(k/m − (c/2m)²)/2π of the
 *     hand calculation.
 */
#define _XOPEN_SOURCE 700 /* realpath, mkdtemp (rs_test_files.h) */
#include <check.h>
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmi_compare.h"
#include "fmi_import.h"
#include "railsym.h"
#include "rs_bifurcation.h"
#include "rs_equilibrium.h"
#include "rs_linear.h"
#include "rs_load.h"
#include "rs_plugin_load.h"
#include "rs_test.h"
#include "rs_test_files.h"
#include "rs_ws.h"
#include "rs_ws_state.h"

static const double M1 = 2.0, M2 = 3.0, K1 = 1000.0, C1 = 5.0, K2 = 800.0, C2 = 4.0, G = 9.81;

static char tmp[64];

static void compile_text(const char *name, const char *text) { rs_test_compile(tmp, name, text); }

/* The chain with S2 (a `spring` or `plugin` line named s2 between P1 of b1
 * and P2 of b2), released with both springs at their free length 1. */
static void compile_chain(const char *name, const char *s2)
{
    char text[2048];
    snprintf(text, sizeof text,
             "gravity [0, 0, -%.17g] in ground\n"
             "coord z1 = -1\n"
             "coord z2 = -2\n"
             "point A = O + [0, 0, 0] in ground\n"
             "point P1 = O + [0, 0, z1] in ground\n"
             "point P2 = O + [0, 0, z2] in ground\n"
             "body b1 mass %.17g cg P1 inertia diag(1, 1, 1) in ground frame ground\n"
             "body b2 mass %.17g cg P2 inertia diag(1, 1, 1) in ground frame ground\n"
             "spring s1 between A and P1 of b1 k %.17g c %.17g length 1\n"
             "%s\n",
             G, M1, M2, K1, C1, s2);
    compile_text(name, text);
}

static void compile_variants(void)
{
    char line[512];
    compile_chain("builtin", "spring s2 between P1 of b1 and P2 of b2 k 800 c 4 length 1");
    for (int jac = 0; jac < 2; jac++) {
        snprintf(line, sizeof line,
                 "plugin s2 library \"%s/libsd.so\" between P1 of b1 and P2 of b2 params [800, 4, 1, %d, 0]", tmp,
                 jac);
        compile_chain(jac ? "plugin_jac" : "plugin_fd", line);
    }
}

static void compile_traction(void);

/* Once for all the tests (the compiles dominate the time): the libraries
 * (libsd.so twice: the FMU test deletes its own copy) and the models. */
static void setup(void)
{
    rs_test_mkdtemp(tmp, sizeof tmp, "/tmp/rs_plugin_uses_XXXXXX");
    char line[512];
    rs_test_plugin_lib(tmp, "libsd.so", "tests/support/plugins/spring_damper_plugin.c", "");
    rs_test_plugin_lib(tmp, "libsd_fmu.so", "tests/support/plugins/spring_damper_plugin.c", "");
    rs_test_plugin_lib(tmp, "libtraction.so", "docs/plugins/traction_controller.c", "");
    compile_variants();
    compile_traction();
    snprintf(line, sizeof line,
             "plugin s2 library \"%s/libsd_fmu.so\" between P1 of b1 and P2 of b2 params [800, 4, 1, 0, 0]", tmp);
    compile_chain("plugin_fmu", line);
}

static void teardown(void) { rs_test_rmtree(tmp); }

typedef struct {
    rs_loaded *h;
    rs_plugin_set *ps;
    rs_ws *ws;
} run;

static void open_run(run *r, const char *name)
{
    char dir[256], err[2000];
    snprintf(dir, sizeof dir, "%s/%s", tmp, name);
    r->h = rs_load(dir, RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(r->h != NULL, "%s", err);
    const rs_model *m = rs_loaded_model(r->h);
    ck_assert_msg(rs_plugin_set_open(m, &r->ps, err, sizeof err) == RS_OK, "%s", err);
    rs_options o;
    rs_options_default(&o);
    o.plugins = rs_plugin_set_tables(r->ps);
    ck_assert_msg(rs_ws_create(m, &o, &r->ws, err, sizeof err) == RS_OK, "%s", err);
    for (int i = 0; i < m->n_q; i++)
        rs_ws_q(r->ws)[i] = m->q0[i];
}

static void close_run(run *r)
{
    rs_ws_free(&r->ws);
    rs_plugin_set_close(&r->ps);
    rs_unload(&r->h);
}

/* The equilibrium of tmp/NAME, then its modes (sorted by im, then re). */
static void equilibrium_and_modes(const char *name, double z[2], double s[2][2])
{
    run r;
    open_run(&r, name);
    char err[2000];
    ck_assert_msg(rs_equilibrium(r.ws, NULL, NULL, err, sizeof err) == RS_OK, "%s: %s", name, err);
    z[0] = rs_ws_q(r.ws)[0];
    z[1] = rs_ws_q(r.ws)[1];
    rs_linear_modes lm;
    ck_assert_msg(rs_linear_modes_at(r.ws, &lm, err, sizeof err) == RS_OK, "%s: %s", name, err);
    ck_assert_msg(lm.n == 2, "%s: %d modes (two underdamped expected)", name, lm.n);
    for (int i = 0; i < 2; i++) {
        s[i][0] = lm.mode[i].re;
        s[i][1] = lm.mode[i].im;
    }
    if (s[0][1] > s[1][1]) {
        double t0 = s[0][0], t1 = s[0][1];
        s[0][0] = s[1][0], s[0][1] = s[1][1];
        s[1][0] = t0, s[1][1] = t1;
    }
    rs_linear_modes_free(&lm);
    close_run(&r);
}

/* Roots with im > 0 of det(s² M + s C + K) for the chain (coordinates z1,
 * z2: M = diag(m1, m2), K = [k1 + k2, −k2; −k2, k2], C alike): the quartic
 * a4 s⁴ + … + a0 by Newton from the undamped frequencies (hand-derived
 * coefficients below), sorted by im. */
static void chain_roots(double out[2][2])
{
    const double a4 = M1 * M2, a3 = M1 * C2 + M2 * (C1 + C2), a2 = M1 * K2 + M2 * (K1 + K2) + C1 * C2,
                 a1 = C1 * K2 + C2 * K1, a0 = K1 * K2;
    /* undamped: m1 m2 w⁴ − (m1 k2 + m2 (k1 + k2)) w² + k1 k2 = 0 */
    const double b = M1 * K2 + M2 * (K1 + K2), d = sqrt(b * b - 4 * a4 * a0);
    const double w2[2] = {(b - d) / (2 * a4), (b + d) / (2 * a4)};
    for (int i = 0; i < 2; i++) {
        double complex x = I * sqrt(w2[i]);
        for (int it = 0; it < 50; it++) {
            const double complex p = (((a4 * x + a3) * x + a2) * x + a1) * x + a0;
            const double complex dp = ((4 * a4 * x + 3 * a3) * x + 2 * a2) * x + a1;
            x -= p / dp;
        }
        out[i][0] = creal(x);
        out[i][1] = fabs(cimag(x));
    }
}

START_TEST(equilibrium_and_linear_equal_builtin)
{
    double zb[2], sb[2][2], roots[2][2];
    equilibrium_and_modes("builtin", zb, sb);
    /* hand: s1 stretched by (m1 + m2) g / k1, s2 by m2 g / k2 */
    const double z1 = -1 - (M1 + M2) * G / K1, z2 = z1 - 1 - M2 * G / K2;
    ck_assert_msg(fabs(zb[0] - z1) < 1e-9 && fabs(zb[1] - z2) < 1e-9, "built-in equilibrium %.12g %.12g, hand %.12g %.12g",
                  zb[0], zb[1], z1, z2);
    chain_roots(roots);
    for (int i = 0; i < 2; i++) {
        const double mag = hypot(roots[i][0], roots[i][1]);
        ck_assert_msg(fabs(sb[i][0] - roots[i][0]) < 1e-9 * mag && fabs(sb[i][1] - roots[i][1]) < 1e-9 * mag,
                      "built-in mode %d: %.12g%+.12gi, quartic %.12g%+.12gi", i, sb[i][0], sb[i][1], roots[i][0],
                      roots[i][1]);
    }
    const char *names[2] = {"plugin_jac", "plugin_fd"};
    const double tol[2] = {1e-9, 1e-8};
    for (int v = 0; v < 2; v++) {
        double z[2], s[2][2];
        equilibrium_and_modes(names[v], z, s);
        ck_assert_msg(fabs(z[0] - zb[0]) < 1e-9 && fabs(z[1] - zb[1]) < 1e-9, "%s: equilibrium %.12g %.12g, built-in %.12g %.12g",
                      names[v], z[0], z[1], zb[0], zb[1]);
        for (int i = 0; i < 2; i++) {
            const double mag = hypot(sb[i][0], sb[i][1]);
            const double e = hypot(s[i][0] - sb[i][0], s[i][1] - sb[i][1]) / mag;
            fprintf(stderr, "test_plugin_uses: %s mode %d: %.12g%+.12gi, built-in %.12g%+.12gi (%.2g of |s|)\n",
                    names[v], i, s[i][0], s[i][1], sb[i][0], sb[i][1], e);
            ck_assert_msg(e < tol[v], "%s mode %d: %.3g of |s| from the built-in's", names[v], i, e);
        }
    }
}
END_TEST

/* `railsym linear` on a folder: its stdout with the model's name and
 * folder cut out, into buf. */
static void cli_linear(const char *name, char *buf, size_t len)
{
    char out[256];
    snprintf(out, sizeof out, "%s/%s.linear.txt", tmp, name);
    const int rc = rs_test_sh("'%s' linear '%s/%s' --out '%s/%s-linear' --no-plot >'%s' 2>&1", rs_test_bin(), tmp,
                              name, tmp, name, out);
    char *text = rs_test_read(out);
    snprintf(buf, len, "%s", text);
    free(text);
    ck_assert_msg(rc == 0, "railsym linear %s failed: %s", name, buf);
}

START_TEST(cli_linear_runs_plugin_model)
{
    char a[8192], b[8192];
    cli_linear("builtin", a, sizeof a);
    cli_linear("plugin_jac", b, sizeof b);
    /* the mode lines (frequency, damping) are the same text */
    const char *fa = strstr(a, "Hz"), *fb = strstr(b, "Hz");
    ck_assert_msg(fa && fb, "no mode printed:\n%s\n---\n%s", a, b);
    const char *la = fa, *lb = fb;
    while (la > a && la[-1] != '\n')
        la--;
    while (lb > b && lb[-1] != '\n')
        lb--;
    const size_t na = strcspn(la, "\n"), nb = strcspn(lb, "\n");
    ck_assert_msg(na == nb && !memcmp(la, lb, na), "built-in: %.*s\nplugin:   %.*s", (int)na, la, (int)nb, lb);
}
END_TEST

/* A block pulled by the traction controller (its PI not saturated: its
 * integrator changes every step). */
static void compile_traction(void)
{
    char text[1024];
    snprintf(text, sizeof text,
             "coord x = 0\n"
             "point A = O + [0, 0, 0] in ground\n"
             "point P = O + [x, 0, 0] in ground\n"
             "body block mass 2 cg P inertia diag(1, 1, 1) in ground frame ground\n"
             "plugin traction library \"%s/libtraction.so\" between A and P of block "
             "params [5, 2, 20, 1000] states 1 along [1, 0, 0] in ground\n",
             tmp);
    compile_text("traction", text);
}

START_TEST(saved_state_holds_plugin_state)
{
    run r;
    open_run(&r, "traction");
    for (int i = 0; i < 500; i++)
        ck_assert_msg(rs_step(r.ws) == RS_OK, "%s", rs_ws_error(r.ws));
    const size_t len = rs_ws_state_size(r.ws);
    ck_assert(len > 0);
    void *buf = malloc(len);
    ck_assert_int_eq(rs_ws_state_save(r.ws, buf, len), RS_OK);
    double first[2][500];
    for (int i = 0; i < 500; i++) {
        ck_assert_int_eq(rs_step(r.ws), RS_OK);
        first[0][i] = rs_ws_q(r.ws)[0];
        first[1][i] = rs_ws_qd(r.ws)[0];
    }
    ck_assert_int_eq(rs_ws_state_restore(r.ws, buf, len), RS_OK);
    for (int i = 0; i < 500; i++) {
        ck_assert_int_eq(rs_step(r.ws), RS_OK);
        ck_assert_msg(rs_ws_q(r.ws)[0] == first[0][i] && rs_ws_qd(r.ws)[0] == first[1][i],
                      "step %d after the restore: x %.17g v %.17g, first run %.17g %.17g", i, rs_ws_q(r.ws)[0],
                      rs_ws_qd(r.ws)[0], first[0][i], first[1][i]);
    }
    /* the check can fail: the state (∫e) changed between the save and the
     * end, so continuing from the end state with the saved q, q̇ differs */
    const size_t off = len - sizeof(double); /* the one plugin state is the copy's last double */
    double saved_state, end_state;
    memcpy(&saved_state, (char *)buf + off, sizeof saved_state);
    void *buf2 = malloc(len);
    ck_assert_int_eq(rs_ws_state_save(r.ws, buf2, len), RS_OK);
    memcpy(&end_state, (char *)buf2 + off, sizeof end_state);
    ck_assert_msg(fabs(end_state - saved_state) > 1e-3, "plugin state %.17g at 0.5 s, %.17g at 1 s: not changing",
                  saved_state, end_state);
    memcpy((char *)buf + off, &end_state, sizeof end_state); /* the 0.5 s copy with the 1 s plugin state */
    ck_assert_int_eq(rs_ws_state_restore(r.ws, buf, len), RS_OK);
    for (int i = 0; i < 500; i++)
        ck_assert_int_eq(rs_step(r.ws), RS_OK);
    ck_assert_msg(rs_ws_q(r.ws)[0] != first[0][499], "the plugin's state does not change the run");
    free(buf);
    free(buf2);
    close_run(&r);
}
END_TEST

/* The same through railsym.h: the model opened, stepped, saved, restored. */
START_TEST(api_opens_plugin_model)
{
    char dir[256], err[2000], scn[256];
    snprintf(dir, sizeof dir, "%s/traction", tmp);
    snprintf(scn, sizeof scn, "%s/t.scn", tmp);
    rs_test_write(tmp, "t.scn", "duration 1\nstep 1e-3\n");
    railsym_options o;
    railsym_options_init(&o);
    o.scenario = scn;
    railsym *sim = NULL;
    ck_assert_msg(railsym_open(dir, &o, &sim, err, sizeof err) == RAILSYM_OK, "%s", err);
    ck_assert_int_eq(railsym_advance(sim, 0.5), RAILSYM_OK);
    const size_t len = railsym_state_size(sim);
    ck_assert(len > 0);
    void *buf = malloc(len);
    ck_assert_int_eq(railsym_state_save(sim, buf, len), RAILSYM_OK);
    double v1, v2, x1, x2;
    ck_assert_msg(railsym_advance(sim, 1.0) == RAILSYM_OK, "%s", railsym_error(sim));
    ck_assert_int_eq(railsym_get(sim, "x_dot", &v1), RAILSYM_OK);
    ck_assert_int_eq(railsym_get(sim, "x", &x1), RAILSYM_OK);
    ck_assert_int_eq(railsym_state_restore(sim, buf, len), RAILSYM_OK);
    ck_assert_int_eq(railsym_advance(sim, 1.0), RAILSYM_OK);
    ck_assert_int_eq(railsym_get(sim, "x_dot", &v2), RAILSYM_OK);
    ck_assert_int_eq(railsym_get(sim, "x", &x2), RAILSYM_OK);
    ck_assert_msg(v1 == v2 && x1 == x2, "after the restore: x %.17g v %.17g, first %.17g %.17g", x2, v2, x1, v1);
    free(buf);
    railsym_close(sim);
    /* the same run in rs_ws (the C API adds nothing to the plugin) */
    run r;
    open_run(&r, "traction");
    for (int i = 0; i < 1000; i++)
        ck_assert_int_eq(rs_step(r.ws), RS_OK);
    ck_assert_msg(rs_ws_q(r.ws)[0] == x1 && rs_ws_qd(r.ws)[0] == v1, "rs_ws: x %.17g v %.17g, C API %.17g %.17g",
                  rs_ws_q(r.ws)[0], rs_ws_qd(r.ws)[0], x1, v1);
    /* speed from rest towards v_ref = 5 under PI (kp 2, ki 20, m 2):
     * 2 ẍ = 2 (5 − ẋ) + 20 ∫(5 − ẋ): e = 5 − ẋ obeys ë + ė + 10 e = 0,
     * e(0) = 5, ė(0) = −5 (ẍ(0) = 5) */
    const double a = 0.5, w = sqrt(10 - 0.25), t = 1.0;
    const double e = exp(-a * t) * (5 * cos(w * t) + (-5 + a * 5) / w * sin(w * t));
    ck_assert_msg(fabs(v1 - (5 - e)) < 0.05, "v(1 s) = %.6g, the PI's closed form %.6g", v1, 5 - e);
    close_run(&r);
}
END_TEST

START_TEST(fmu_carries_plugin)
{
    fmi_sanitize_fmus();
    char scn[256], csv[256], fmu[256], dir[256], lib[256];
    snprintf(scn, sizeof scn, "%s/fmu.scn", tmp);
    snprintf(csv, sizeof csv, "%s/fmu_run.csv", tmp);
    snprintf(fmu, sizeof fmu, "%s/chain.fmu", tmp);
    snprintf(dir, sizeof dir, "%s/plugin_fmu", tmp);
    rs_test_write(tmp, "fmu.scn", "duration 1\nstep 1e-3\noutput 0.01\n");
    ck_assert_int_eq(fmi_railsym_run(dir, scn, csv), 0);
    char *argv[] = {(char *)fmi_railsym(), "export-fmu", dir, "--scenario", scn, "-o", fmu, NULL};
    ck_assert_int_eq(fmi_run_argv(argv), 0);
    snprintf(lib, sizeof lib, "%s/libsd_fmu.so", tmp);
    ck_assert_int_eq(unlink(lib), 0); /* the FMU must use its own copy */
    fmi_csv ref;
    char err[1024];
    ck_assert_msg(fmi_csv_read(csv, &ref, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(ref.nrow, 101);
    fmi_fmu f;
    ck_assert_msg(fmi_open(fmu, &f, err, sizeof err) == 0, "%s", err);
    fmi2Component c = fmi_start(&f, "a", 0, NULL, NULL);
    ck_assert_msg(c != NULL, "%s", f.last_log);
    double worst;
    ck_assert_msg(fmi_compare_rows(&f, c, &ref, 0, ref.nrow - 1, 1e-12, &worst, err, sizeof err) == 0, "%s", err);
    fprintf(stderr, "test_plugin_uses: FMU with a plugin vs railsym run: worst relative difference %.3g\n", worst);
    f.terminate(c);
    f.free_instance(c);
    fmi_close(&f);
    free(ref.v);
}
END_TEST

START_TEST(bifurcation_runs_plugin_model)
{
    char line[512], dir[256], scn[256], out[256], err[1024];
    snprintf(line, sizeof line,
             "coord x\ncoord y\npoint A = O + [x, -1, 0] in ground\npoint P = O + [x, y, 0] in ground\n"
             "body car mass 10 cg P inertia diag(1, 1, 1) in ground frame ground\n"
             "plugin s library \"%s/libsd.so\" between A and P of car params [1000, 20, 1, 1, 0]\n",
             tmp);
    compile_text("cart", line);
    snprintf(dir, sizeof dir, "%s/cart", tmp);
    snprintf(scn, sizeof scn, "%s/cart.scn", tmp);
    snprintf(out, sizeof out, "%s/cart_bif", tmp);
    rs_test_write(tmp, "cart.scn", "duration 4\nstep 1e-3\n");
    rs_bifurcation_config c;
    rs_bifurcation_config_default(&c);
    c.model_dir = dir;
    c.loader = RS_LOAD_TCC;
    c.scenario = scn;
    c.out_dir = out;
    c.v_lo = 5;
    c.v_hi = 10;
    c.n_speeds = 2;
    c.ramp = 0;
    c.two_steps = 0;
    c.quiet = 1;
    rs_bifurcation_result r = {0};
    const int st = rs_bifurcation_run(&c, &r, err, sizeof err);
    ck_assert_msg(st == RS_OK, "%s", err);
    ck_assert_int_ge(r.n, 2);
    const double rate = 20.0 / (2 * 10.0), f = sqrt(1000.0 / 10.0 - rate * rate) / (2 * acos(-1.0));
    for (int i = 0; i < r.n; i++) {
        const rs_bifurcation_point *p = &r.pts[i];
        ck_assert_msg(!p->failed, "run %d failed: %s", i, p->message);
        ck_assert_msg(p->lc.cls == RS_LC_DECAYING, "run %d at %g m/s: %s", i, p->v, rs_lc_name(p->lc.cls));
        ck_assert_msg(fabs(-p->lc.rate / rate - 1) < 0.05, "rate %g against -%g", p->lc.rate, rate);
        ck_assert_msg(fabs(p->lc.freq / f - 1) < 0.02, "frequency %g Hz against %g", p->lc.freq, f);
    }
    ck_assert(!r.crossing);
    rs_bifurcation_result_free(&r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("plugin_uses");
    TCase *tc = tcase_create("plugin_uses");
    tcase_set_timeout(tc, 300);
    tcase_add_unchecked_fixture(tc, setup, teardown);
    tcase_add_test(tc, equilibrium_and_linear_equal_builtin);
    tcase_add_test(tc, cli_linear_runs_plugin_model);
    tcase_add_test(tc, saved_state_holds_plugin_state);
    tcase_add_test(tc, api_opens_plugin_model);
    tcase_add_test(tc, fmu_carries_plugin);
    tcase_add_test(tc, bifurcation_runs_plugin_model);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
