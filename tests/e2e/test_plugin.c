/*
 * test_plugin.c — user plugin forces (abi/rs_plugin.h, docs/plugins.md).
 *
 * A block of mass m on a line, held to the ground by a spring-damper from
 * A = (0, 0, 0) to P = (x, 0, 0): once the built-in `spring` (k, c, free
 * length L0), once the same law computed by a plugin library
 * (tests/support/plugins/spring_damper_plugin.c), released at x = 1.3 with
 * L0 = 1.  Checked:
 *   - second formulation: the plugin's trajectory equals the built-in
 *     spring's within 1e-10 relative (IMEX Euler and RK4, 2 s; with the
 *     Jacobian IMEX treats the plugin implicitly, the spring explicitly:
 *     apart by O(Δt) then), and both follow the analytic damped
 *     oscillation within the step's error;
 *   - the implicit treatment (docs/plugins.md): each IMEX step equals the
 *     linearly implicit update written out by hand (also with a constraint
 *     in the step matrix); a stiff plugin spring
 *     blows up without its Jacobian and settles with it; with it the
 *     trajectory converges at first order to the built-in spring's;
 *   - with the plugin's Jacobian given, the model's force Jacobians
 *     (RS_FN_DELTA_JAC, which the implicit steps use) equal the built-in
 *     spring's at several states (1e-12), and without it the plugin adds
 *     nothing to them;
 *   - a plugin returning NaN stops `railsym run` with a message naming the
 *     plugin and the time;
 *   - a missing library, a library without the entry symbol and one built
 *     for another plugin ABI version are refused when loading, naming the
 *     plugin and the file;
 *   - the documented examples (docs/plugins/, both files) compile warning-free;
 *     the hydraulic damper's forces follow its law on both branches, the
 *     traction controller accelerates at f_max / m, then holds v_ref.
 */
#define _XOPEN_SOURCE 700 /* realpath, mkdtemp (rs_test_files.h) */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rs_load.h"
#include "rs_plugin_load.h"
#include "rs_test.h"
#include "rs_test_files.h"
#include "rs_ws.h"

static const double MASS = 2.0, K = 800.0, C = 4.0, L0 = 1.0, X0 = 1.3;

static char tmp[64];

/* The block with ELEMENT (a `spring` or a `plugin` line) between A and P. */
static void compile_model(const char *name, const char *element)
{
    char text[2048];
    snprintf(text, sizeof text,
             "param m = %.17g\n"
             "coord x = %.17g\n"
             "point A = O + [0, 0, 0] in ground\n"
             "point P = O + [x, 0, 0] in ground\n"
             "body  block  mass m  cg P  inertia diag(1, 1, 1) in ground  frame ground\n"
             "%s\n",
             MASS, X0, element);
    rs_test_compile(tmp, name, text);
}

/* Builds SRC into tmp/LIB with extra compiler flags. */
static void build_lib(const char *src, const char *lib, const char *flags) { rs_test_plugin_lib(tmp, lib, src, flags); }

static void setup(void)
{
    rs_test_mkdtemp(tmp, sizeof tmp, "/tmp/rs_plugin_XXXXXX");
    build_lib("tests/support/plugins/spring_damper_plugin.c", "libsd.so", "");
}

static void teardown(void) { rs_test_rmtree(tmp); }

typedef struct {
    rs_loaded *h;
    rs_plugin_set *ps;
    rs_ws *ws;
} run;

static void open_run(run *r, const char *name, rs_method method, double dt)
{
    char dir[256], err[2000];
    snprintf(dir, sizeof dir, "%s/%s", tmp, name);
    r->h = rs_load(dir, RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(r->h != NULL, "%s", err);
    const rs_model *m = rs_loaded_model(r->h);
    ck_assert_msg(rs_plugin_set_open(m, &r->ps, err, sizeof err) == RS_OK, "%s", err);
    rs_options o;
    rs_options_default(&o);
    o.method = method;
    o.dt = dt;
    o.plugins = rs_plugin_set_tables(r->ps);
    ck_assert_msg(rs_ws_create(m, &o, &r->ws, err, sizeof err) == RS_OK, "%s", err);
    for (int i = 0; i < m->n_q; i++) /* the description's initial state (x = X0) */
        rs_ws_q(r->ws)[i] = m->q0[i];
    ck_assert_msg(rs_ws_init(r->ws) == RS_OK, "%s", rs_ws_error(r->ws));
}

static void close_run(run *r)
{
    rs_ws_free(&r->ws);
    rs_plugin_set_close(&r->ps);
    rs_unload(&r->h);
}

static void spring_and_plugin(int jac, double t_nan)
{
    char line[512];
    compile_model("builtin", "spring s between A and P of block k 800 c 4 length 1");
    /* a bare name would be the dynamic loader's search: give the path */
    snprintf(line, sizeof line,
             "plugin s library \"%s/libsd.so\" between A and P of block params [800, 4, 1, %d, %g]", tmp, jac,
             t_nan);
    compile_model("plugin", line);
}

/* x(t) of m ẍ + c ẋ + k (x − L0) = 0 from x0, at rest. */
static double analytic(double t)
{
    const double w0 = sqrt(K / MASS), z = C / (2 * sqrt(K * MASS)), wd = w0 * sqrt(1 - z * z);
    const double a = X0 - L0;
    return L0 + a * exp(-z * w0 * t) * (cos(wd * t) + z * w0 / wd * sin(wd * t));
}

START_TEST(trajectory_equals_builtin)
{
    spring_and_plugin(_i, 0);   /* _i: without (0) and with (1) the Jacobian */
    const rs_method methods[2] = {RS_IMEX_EULER, RS_RK4};
    for (int k = 0; k < 2; k++) {
        const double dt = 1e-4;
        run a, b;
        open_run(&a, "builtin", methods[k], dt);
        open_run(&b, "plugin", methods[k], dt);
        double worst = 0, worst_an = 0;
        for (int i = 1; i <= 20000; i++) {
            ck_assert_msg(rs_step(a.ws) == RS_OK, "%s", rs_ws_error(a.ws));
            ck_assert_msg(rs_step(b.ws) == RS_OK, "%s", rs_ws_error(b.ws));
            const double xa = rs_ws_q(a.ws)[0], xb = rs_ws_q(b.ws)[0];
            const double va = rs_ws_qd(a.ws)[0], vb = rs_ws_qd(b.ws)[0];
            /* relative to the motion's scale (x − L0 starts at 0.3, v at 6) */
            worst = fmax(worst, fmax(fabs(xa - xb) / (fabs(xa - L0) + 0.3), fabs(va - vb) / (fabs(va) + 6)));
            worst_an = fmax(worst_an, fabs(xa - analytic(rs_ws_time(a.ws))));
        }
        if (k == 0 && _i) /* implicit (its Jacobian) against explicit: both first order, apart O(Δt) */
            ck_assert_msg(worst > 1e-4 && worst < 2e-2, "IMEX jac 1: plugin vs spring %.3g relative", worst);
        else
            ck_assert_msg(worst <= 1e-10, "method %d jac %d: plugin vs spring %.3g relative", k, _i, worst);
        /* the built-in element itself is right: IMEX is first order, RK4 fourth */
        ck_assert_msg(worst_an < (k == 0 ? 2e-3 : 1e-8), "method %d: spring vs analytic %.3g m", k, worst_an);
        close_run(&a);
        close_run(&b);
    }
}
END_TEST

/* The plugin with its Jacobian in the IMEX step: the step's update written
 * out by hand for m ẍ = −k (x − L0) − c ẋ, linearized about the step's
 * start with x1 = x0 + h (v0 + v1)/2 (docs/plugins.md):
 *   (m + h c + h²k/2) v1 = m v0 + h (−k (x0 − L0) − c v0) + h c v0 − h²k/2 v0
 * equals the runtime's trajectory to rounding, every step. */
START_TEST(implicit_step_is_the_hand_update)
{
    spring_and_plugin(1, 0);
    const double h = 1e-3;
    run r;
    open_run(&r, "plugin", RS_IMEX_EULER, h);
    double x = X0, v = 0, worst = 0;
    for (int i = 0; i < 2000; i++) {
        ck_assert_msg(rs_step(r.ws) == RS_OK, "%s", rs_ws_error(r.ws));
        const double v1 = (MASS * v + h * (-K * (x - L0) - C * v) + h * C * v - 0.5 * h * h * K * v) /
                          (MASS + h * C + 0.5 * h * h * K);
        x += 0.5 * h * (v + v1);
        v = v1;
        worst = fmax(worst, fmax(fabs(rs_ws_q(r.ws)[0] - x) / 0.3, fabs(rs_ws_qd(r.ws)[0] - v) / 6));
    }
    ck_assert_msg(worst < 1e-12, "runtime vs the hand update: %.3g relative", worst);
    close_run(&r);
}
END_TEST

/* A stiff plugin spring (k = 2e7 N/m on 2 kg: ω Δt = 3.2 at Δt = 1 ms,
 * beyond the explicit step's limit of 2): without its Jacobian the IMEX run
 * blows up (stopped by the non-finite check, or |x − L0| grows past 1 m);
 * with it the run stays bounded by the release amplitude and settles. */
START_TEST(stiff_plugin_stable_with_jacobian)
{
    char line[512];
    for (int jac = 0; jac < 2; jac++) {
        snprintf(line, sizeof line,
                 "plugin s library \"%s/libsd.so\" between A and P of block params [2e7, 0, 1, %d, 0]", tmp, jac);
        compile_model("stiff", line);
        run r;
        open_run(&r, "stiff", RS_IMEX_EULER, 1e-3);
        double amp = 0;
        int failed = 0;
        for (int i = 0; i < 1000 && !failed; i++) {
            failed = rs_step(r.ws) != RS_OK;
            if (!failed)
                amp = fmax(amp, fabs(rs_ws_q(r.ws)[0] - L0));
        }
        if (jac) {
            ck_assert_msg(!failed, "with the Jacobian: %s", rs_ws_error(r.ws));
            ck_assert_msg(amp <= X0 - L0 + 1e-12, "with the Jacobian: |x - L0| reached %g (released at 0.3)", amp);
            const double x_end = rs_ws_q(r.ws)[0] - L0;
            ck_assert_msg(fabs(x_end) < 1e-3, "with the Jacobian: x - L0 = %g after 1 s", x_end);
        } else {
            ck_assert_msg(failed || amp > 1.0, "without the Jacobian the run stayed bounded (%g): not stiff", amp);
        }
        close_run(&r);
    }
}
END_TEST

/* The implicit plugin in a constrained model: the block moves in the
 * plane on the line y = x (a constraint), pulled along x by a stiff plugin
 * spring (k = 2e7, ω Δt = 2.2 on the effective mass 2m: explicit would
 * blow up).  Along the line the kinetic energy is m ẋ², so the step,
 * [M Δt φ_qᵀ; φ_q 0] with the plugin's terms, reduces exactly to the
 * one-coordinate update with mass 2m written out by hand (as above). */
START_TEST(implicit_with_constraint)
{
    char text[1024];
    snprintf(text, sizeof text,
             "coord x = 1.3\n"
             "coord y = 1.3\n"
             "point A = O + [0, 0, 0] in ground\n"
             "point P = O + [x, y, 0] in ground\n"
             "body block mass %.17g cg P inertia diag(1, 1, 1) in ground frame ground\n"
             "constraint line = y - x\n"
             "plugin s library \"%s/libsd.so\" between A and P of block params [2e7, 40, 1, 1, 0] "
             "along [1, 0, 0] in ground\n",
             MASS, tmp);
    rs_test_compile(tmp, "line", text);
    const double h = 1e-3, k = 2e7, c = 40, me = 2 * MASS;
    run r;
    open_run(&r, "line", RS_IMEX_EULER, h);
    double x = X0, v = 0, worst = 0;
    for (int i = 0; i < 500; i++) {
        ck_assert_msg(rs_step(r.ws) == RS_OK, "%s", rs_ws_error(r.ws));
        const double v1 = (me * v + h * (-k * (x - L0) - c * v) + h * c * v - 0.5 * h * h * k * v) /
                          (me + h * c + 0.5 * h * h * k);
        x += 0.5 * h * (v + v1);
        v = v1;
        const double *q = rs_ws_q(r.ws), *qd = rs_ws_qd(r.ws);
        ck_assert_msg(fabs(q[1] - q[0]) < 1e-12 && fabs(qd[1] - qd[0]) < 1e-9, "off the line: y - x = %g", q[1] - q[0]);
        worst = fmax(worst, fmax(fabs(q[0] - x) / 0.3, fabs(qd[0] - v) / 1e3));
    }
    ck_assert_msg(worst < 1e-10, "runtime vs the hand update on the line: %.3g relative", worst);
    ck_assert_msg(fabs(x - L0) < 0.3, "the hand update itself grew: %g", x - L0);
    close_run(&r);
}
END_TEST

/* Convergence with the Jacobian: the plugin's IMEX trajectory against the
 * built-in spring's RK4 at Δt = 10 µs (the reference; itself checked
 * against the closed form), sampled every 10 ms over 1 s, as Δt halves from
 * 1 ms: the error halves each time (order 1, the IMEX step's). */
START_TEST(implicit_converges_first_order)
{
    spring_and_plugin(1, 0);
    enum { NS = 100 };
    double ref[NS + 1];
    run a;
    open_run(&a, "builtin", RS_RK4, 1e-5);
    ref[0] = X0;
    for (int i = 1; i <= NS; i++) {
        for (int s = 0; s < 1000; s++)
            ck_assert_int_eq(rs_step(a.ws), RS_OK);
        ref[i] = rs_ws_q(a.ws)[0];
        ck_assert_msg(fabs(ref[i] - analytic(rs_ws_time(a.ws))) < 1e-10, "reference off the closed form");
    }
    close_run(&a);
    double err[4];
    for (int l = 0; l < 4; l++) {
        const int per = 10 << l; /* steps per sample */
        run b;
        open_run(&b, "plugin", RS_IMEX_EULER, 1e-2 / per);
        err[l] = 0;
        for (int i = 1; i <= NS; i++) {
            for (int s = 0; s < per; s++)
                ck_assert_msg(rs_step(b.ws) == RS_OK, "%s", rs_ws_error(b.ws));
            err[l] = fmax(err[l], fabs(rs_ws_q(b.ws)[0] - ref[i]));
        }
        close_run(&b);
    }
    for (int l = 0; l < 3; l++) {
        const double order = log2(err[l] / err[l + 1]);
        fprintf(stderr, "test_plugin: implicit plugin, dt %g -> %g: max error %.3g -> %.3g m, order %.3f\n",
                1e-3 / (1 << l), 1e-3 / (2 << l), err[l], err[l + 1], order);
        ck_assert_msg(order > 0.85 && order < 1.2, "order %.3f (errors %g, %g)", order, err[l], err[l + 1]);
    }
}
END_TEST

/* K = −∂δ/∂q and C = −∂δ/∂q̇ of a model at its workspace's state (the plugin
 * slots as the last evaluation wrote them). */
static void jacobians(rs_ws *ws, double *Kv, double *Cv)
{
    const rs_model *m = rs_ws_model(ws);
    double t = rs_ws_time(ws), zero[8] = {0}, konst[256] = {0};
    const double *in[RS_IN_COUNT];
    for (int i = 0; i < RS_IN_COUNT; i++)
        in[i] = zero;
    in[RS_IN_T] = &t;
    in[RS_IN_Q] = rs_ws_q(ws);
    in[RS_IN_QD] = rs_ws_qd(ws);
    in[RS_IN_P] = rs_ws_p(ws);
    in[RS_IN_U] = m->n_u ? rs_ws_u(ws) : zero;
    ck_assert(m->n_const < 256);
    double *ko[RS_FN_MAX_OUT] = {konst};
    if (m->fn[RS_FN_CONSTANTS].fn)
        ck_assert_int_eq(m->fn[RS_FN_CONSTANTS].fn(in, ko), 0);
    in[RS_IN_CONST] = konst;
    double *out[RS_FN_MAX_OUT] = {Kv, Cv};
    ck_assert_ptr_nonnull(m->fn[RS_FN_DELTA_JAC].fn);
    ck_assert_int_eq(m->fn[RS_FN_DELTA_JAC].fn(in, out), 0);
    ck_assert_int_eq(m->K_pattern.colptr[1], 1);   /* one coordinate: K and C are 1 × 1 */
    ck_assert_int_eq(m->C_pattern.colptr[1], 1);
}

START_TEST(jacobian_equals_builtin)
{
    spring_and_plugin(_i, 0);
    run a, b;
    open_run(&a, "builtin", RS_IMEX_EULER, 1e-3);
    open_run(&b, "plugin", RS_IMEX_EULER, 1e-3);
    for (int i = 0; i < 5; i++) {   /* states along the motion: the plugin's slots at each */
        double Ka, Ca, Kb, Cb;
        jacobians(a.ws, &Ka, &Ca);
        jacobians(b.ws, &Kb, &Cb);
        /* the spring along x: K = k, C = c (hand calculation) */
        ck_assert_msg(fabs(Ka - K) <= 1e-12 * K && fabs(Ca - C) <= 1e-12 * C, "builtin K %g C %g", Ka, Ca);
        if (_i) {
            ck_assert_msg(fabs(Kb - Ka) <= 1e-12 * K && fabs(Cb - Ca) <= 1e-12 * C,
                          "plugin K %.17g C %.17g vs spring K %.17g C %.17g", Kb, Cb, Ka, Ca);
        } else {
            ck_assert_msg(Kb == 0 && Cb == 0, "plugin without Jacobian: K %g C %g (expected 0)", Kb, Cb);
        }
        for (int s = 0; s < 37; s++) {
            ck_assert_int_eq(rs_step(a.ws), RS_OK);
            ck_assert_int_eq(rs_step(b.ws), RS_OK);
        }
    }
    close_run(&a);
    close_run(&b);
}
END_TEST

/* Runs `railsym run` on tmp/NAME with a 1 s scenario; its stderr in *log. */
static int cli_run(const char *name, char *log, size_t len)
{
    char scn[256], logf[256];
    snprintf(scn, sizeof scn, "%s.scn", name);
    rs_test_write(tmp, scn, "duration 1\nstep 1e-3\noutput 0.01\n");
    snprintf(logf, sizeof logf, "%s/%s.run.log", tmp, name);
    const int rc = rs_test_sh("'%s' run '%s/%s' --scenario '%s/%s' --out '%s/%s.csv' >'%s' 2>&1", rs_test_bin(), tmp,
                              name, tmp, scn, tmp, name, logf);
    char *text = rs_test_read(logf);
    snprintf(log, len, "%s", text);
    free(text);
    return rc;
}

START_TEST(nan_stops_the_run)
{
    spring_and_plugin(0, 0.25);
    char log[8192];
    ck_assert_msg(cli_run("plugin", log, sizeof log) != 0, "the run went on through a NaN: %s", log);
    ck_assert_msg(strstr(log, "plugin 's'") && strstr(log, "libsd.so") && strstr(log, "non-finite") &&
                      strstr(log, "t = 0.25"),
                  "the message names neither the plugin nor the time: %s", log);
    /* and the same model without the NaN runs */
    spring_and_plugin(0, 0);
    ck_assert_msg(cli_run("plugin", log, sizeof log) == 0, "%s", log);
}
END_TEST

/* Compiles the plugin model against LIB and expects its load to fail with
 * a message holding each of the WANT strings. */
static void expect_load_error(const char *lib, const char *want1, const char *want2)
{
    char line[512], dir[256], err[2000];
    snprintf(line, sizeof line, "plugin s library \"%s\" between A and P of block params [800, 4, 1]", lib);
    compile_model("bad", line);
    snprintf(dir, sizeof dir, "%s/bad", tmp);
    rs_loaded *h = rs_load(dir, RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    rs_plugin_set *ps = NULL;
    err[0] = '\0';
    ck_assert_int_eq(rs_plugin_set_open(rs_loaded_model(h), &ps, err, sizeof err), RS_E_LOAD);
    ck_assert_ptr_null(ps);
    ck_assert_msg(strstr(err, "plugin 's'") && strstr(err, lib) && strstr(err, want1) && strstr(err, want2),
                  "unclear message: %s", err);
    /* a workspace without the tables is refused, naming the plugin */
    rs_options o;
    rs_options_default(&o);
    rs_ws *ws = NULL;
    ck_assert_int_eq(rs_ws_create(rs_loaded_model(h), &o, &ws, err, sizeof err), RS_E_UNSUPPORTED);
    ck_assert_msg(strstr(err, "rs_options.plugins") && strstr(err, "'s'"), "%s", err);
    rs_unload(&h);
    /* railsym run says the same */
    char log[8192];
    ck_assert(cli_run("bad", log, sizeof log) != 0);
    ck_assert_msg(strstr(log, "plugin 's'") && strstr(log, want1), "railsym run: %s", log);
}

START_TEST(load_errors_name_the_file)
{
    char lib[256];
    snprintf(lib, sizeof lib, "%s/libmissing.so", tmp);
    expect_load_error(lib, "cannot load", "No such file");
    build_lib("tests/support/plugins/spring_damper_plugin.c", "libnoentry.so", "-DNO_ENTRY");
    snprintf(lib, sizeof lib, "%s/libnoentry.so", tmp);
    expect_load_error(lib, "has no function", "rs_plugin_entry");
    build_lib("tests/support/plugins/spring_damper_plugin.c", "libv2.so", "-DBAD_VERSION");
    snprintf(lib, sizeof lib, "%s/libv2.so", tmp);
    expect_load_error(lib, "plugin ABI version 2", "rebuild");
}
END_TEST

/* The documented examples build; the damper's model runs and its force
 * follows the law the docs state: f = c2 v |v| below the blow-off. */
START_TEST(doc_examples_build_and_run)
{
    build_lib("docs/plugins/traction_controller.c", "libtraction.so", "");
    build_lib("docs/plugins/hydraulic_damper.c", "libhyd.so", "");
    char line[512];
    snprintf(line, sizeof line,
             "spring s between A and P of block k 800 length 1\n"
             "plugin hyd library \"%s/libhyd.so\" between A and P of block params [50, 40, 2]",
             tmp);
    compile_model("hyd", line);
    run r;
    open_run(&r, "hyd", RS_IMEX_EULER, 1e-4);
    const rs_model *m = rs_ws_model(r.ws);
    int uf = -1, uv = -1;
    for (int i = 0; i < m->n_u; i++) {
        if (!strcmp(m->u_names[i], "hyd.f")) uf = i;
        if (!strcmp(m->u_names[i], "hyd.v_eval")) uv = i;
    }
    ck_assert(uf >= 0 && uv >= 0);
    int seen_fast = 0;
    for (int i = 0; i < 5000; i++) {
        ck_assert_msg(rs_step(r.ws) == RS_OK, "%s", rs_ws_error(r.ws));
        const double v = rs_ws_u(r.ws)[uv], f = rs_ws_u(r.ws)[uf], vbo = sqrt(40.0 / 50.0);
        const double want = fabs(v) <= vbo ? 50 * v * fabs(v) : copysign(40 + 2 * (fabs(v) - vbo), v);
        ck_assert_msg(fabs(f - want) <= 1e-12 * (1 + fabs(want)), "v %g: f %g, law %g", v, f, want);
        seen_fast |= fabs(v) > vbo;
    }
    ck_assert_msg(seen_fast, "the run never opened the blow-off valve: the check above saw one branch");
    close_run(&r);
}
END_TEST

/* The traction controller on a free block (m = 2): saturated at f_max = 4
 * from rest, the speed grows as f_max t / m (exact for IMEX under a
 * constant force), then the PI holds it at v_ref (its integrator in the
 * plugin's state, updated by `advance`). */
START_TEST(traction_controller_reaches_speed)
{
    build_lib("docs/plugins/traction_controller.c", "libtraction.so", "");
    char line[512];
    snprintf(line, sizeof line,
             "plugin traction library \"%s/libtraction.so\" between A and P of block "
             "params [5, 100, 200, 4] states 1 along [1, 0, 0] in ground",
             tmp);
    compile_model("traction", line);
    run r;
    open_run(&r, "traction", RS_IMEX_EULER, 1e-3);
    for (int i = 0; i < 1000; i++)
        ck_assert_msg(rs_step(r.ws) == RS_OK, "%s", rs_ws_error(r.ws));
    const double v1 = rs_ws_qd(r.ws)[0];
    ck_assert_msg(fabs(v1 - 4.0 * 1.0 / MASS) < 1e-9, "v(1 s) = %.12g, f_max t / m = 2", v1);
    for (int i = 0; i < 19000; i++)
        ck_assert_msg(rs_step(r.ws) == RS_OK, "%s", rs_ws_error(r.ws));
    const double v20 = rs_ws_qd(r.ws)[0];
    ck_assert_msg(fabs(v20 - 5.0) < 1e-6, "v(20 s) = %.12g, v_ref = 5", v20);
    close_run(&r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("plugin");
    TCase *tc = tcase_create("plugin");
    tcase_set_timeout(tc, 300);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, trajectory_equals_builtin, 0, 2);
    tcase_add_loop_test(tc, jacobian_equals_builtin, 0, 2);
    tcase_add_test(tc, implicit_step_is_the_hand_update);
    tcase_add_test(tc, stiff_plugin_stable_with_jacobian);
    tcase_add_test(tc, implicit_converges_first_order);
    tcase_add_test(tc, implicit_with_constraint);
    tcase_add_test(tc, nan_stops_the_run);
    tcase_add_test(tc, load_errors_name_the_file);
    tcase_add_test(tc, doc_examples_build_and_run);
    tcase_add_test(tc, traction_controller_reaches_speed);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
