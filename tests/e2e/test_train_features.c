/*
 * test_train_features.c — train vehicles behave like single-vehicle runs
 * (issues 21 and 24; docs/trains.md "Dependent parameters, internal
 * states and plugins"): each feature of a compiled vehicle checked in a
 * one-vehicle train against the same model's single run (the workspace
 * `railsym run` drives, a second formulation) and against numbers computed
 * here.
 *
 *   - dependent parameters: a train file setting m_c gives the vehicle
 *     dz = m_c g / k and dz2 = 2 dz (computed here) and the same values as
 *     the single run's scenario `param m_c = ...`; a dz set itself keeps its
 *     value and dz2 follows it; a sweep's `set` line does the same.  The
 *     vehicle then rests at z = 0 (its spring's length followed m_c; the
 *     stale dz would put it 3.4 cm lower) and its bounce from z_dot = 0.1
 *     follows the single run's and the analytic sine;
 *   - internal states (generated/zstate: a Maxwell damper and an air
 *     spring, both masses forced at the air spring's loss-angle peak): the
 *     train equals the single IMEX run to first order in h (the IMEX
 *     step's order) and an RK4 reference at second order (Park's, with the
 *     states advanced exactly at every evaluated state); an initial state
 *     from the train file equals the scenario's `initial`; `state_outputs`
 *     writes the columns;
 *   - user plugins: the spring-damper plugin of test_plugin in a train
 *     equals the built-in spring in the same train (1e-10, with the
 *     plugin's Jacobian), both the analytic damped oscillation; a plugin
 *     returning NaN stops the train naming the plugin; the traction
 *     controller of docs/plugins/ holds v_ref against the rolling
 *     resistance through its integral (a plugin state `advance` updates);
 *   - a vehicle with wheel-rail contacts (the cone wheelset, elastic
 *     contact) with a lateral Maxwell damper and its lateral spring as a
 *     plugin: equal to the built-in spring, and against the single IMEX run
 *     converging at first order.
 */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rs_load.h"
#include "rs_scenario.h"
#include "rs_test.h"
#include "rs_test_files.h"
#include "rs_train.h"
#include "rs_train_file.h"
#include "rs_train_model.h"
#include "rt_fixtures.h"

static char dir[] = "/tmp/rs_train_feat_XXXXXX";
static char err[4000];

static void setup(void) { rs_test_mkdtemp(dir, sizeof dir, "/tmp/rs_train_feat_XXXXXX"); }

static void teardown(void) { rs_test_rmtree(dir); }

/* Writes NAME.vdl and compiles it into dir/NAME. */
static void compile(const char *name, const char *vdl) { rs_test_compile(dir, name, vdl); }

/* The train of spec text TEXT (written to dir/NAME.train, extra lines
 * EXTRA), created and started. */
static rs_train *train_of(const char *name, const char *text, const char *extra, rs_train_spec **S, double h)
{
    char file[300], path[600];
    snprintf(file, sizeof file, "%s.train", name);
    rs_test_write(dir, file, text);
    snprintf(path, sizeof path, "%s/%s", dir, file);
    ck_assert_msg(rs_train_spec_read_extra(path, extra, NULL, S, err, sizeof err) == RS_OK, "%s", err);
    rs_park_opts o;
    rs_train_spec_opts(*S, &o);
    o.h = h;
    o.krylov.tol = 1e-12;
    rs_train *tr;
    const char *vn[4], *cn[4];
    for (int v = 0; v < (*S)->nv && v < 4; v++) {
        vn[v] = (*S)->vname[v];
        cn[v] = (*S)->cname[v];
    }
    ck_assert_msg(rs_train_create(&tr, (*S)->nv, (*S)->veh, vn, (*S)->cpl, cn, &o, err, sizeof err) == RS_OK, "%s",
                  err);
    const int st = rs_train_start(tr, 0.0, 0.0, (*S)->speed);
    ck_assert_msg(st == RS_OK, "start: %s", rs_train_error(tr));
    return tr;
}

static void step(rs_train *tr)
{
    const int st = rs_train_step(tr);
    ck_assert_msg(st == RS_OK, "step: %s: %s", rs_status_name(st), rs_train_error(tr));
}

static double par(const rs_model *m, const double *p, const char *name)
{
    for (int i = 0; i < m->n_p; i++)
        if (strcmp(m->p_names[i], name) == 0)
            return p[i];
    ck_abort_msg("no parameter '%s'", name);
    return NAN;
}

/* A workspace of m with scenario text SCN applied (railsym run's path). */
static rs_ws *with_scenario(const rs_model *m, const char *scn, const rs_options *o)
{
    rs_scenario s;
    ck_assert_msg(rs_scenario_parse(scn, strlen(scn), "t.scn", &s, err, sizeof err) == RS_OK, "%s", err);
    rs_binding *b = NULL;
    ck_assert_msg(rs_scenario_bind(&s, m, &b, err, sizeof err) == RS_OK, "%s", err);
    rs_ws *ws = NULL;
    ck_assert_msg(rs_ws_create(m, o, &ws, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_binding_apply(b, ws, err, sizeof err) == RS_OK, "%s", err);
    rs_binding_free(&b);
    rs_scenario_free(&s);
    return ws;
}

/* ---- dependent parameters ------------------------------------------------ */

static const char kPeVdl[] =
    "param k = 2.0e5, m_c = 500, g = 9.81\n"
    "param dz = m_c*g/k      # m, static deflection\n"
    "param dz2 = 2*dz        # m, a chain\n"
    "coord x, z\n"
    "point Q = O + [x, 0, 0] in ground\n"
    "point P = O + [x, 0, 1 + z] in ground\n"
    "body b  mass m_c  cg P  inertia diag(1, 1, 1) in ground\n"
    "gravity [0, 0, -g] in ground\n"
    "spring s  between Q and P  k k  length 1 + dz\n";

START_TEST(dependent_parameters)
{
    compile("pe", kPeVdl);
    const double g = 9.81, k = 2e5;
    char text[2000];
    snprintf(text, sizeof text,
             "duration 0.2\nstep 1e-4\noutput 0\n"
             "vehicle a model pe\n  m_c = 1200\n  r0 = 0\nend\n"
             "vehicle b model pe\n  dz = 0.25\n  m_c = 1200\n  r0 = 0\nend\n"
             "vehicle c model pe\n  r0 = 0\nend\n"
             "order\n  a\n  b\n  c\nend\n");
    rs_train_spec *S = NULL;
    rs_train *tr = train_of("pe", text, "set c.m_c = 800\n", &S, 1e-4);
    const rs_model *m = S->veh[0].model;
    ck_assert_ptr_nonnull(m->fn[RS_FN_PARAMS].fn);
    const double *pa = rs_compiled_vehicle_p(rs_train_compiled(tr, 0));
    const double *pb = rs_compiled_vehicle_p(rs_train_compiled(tr, 1));
    const double *pc = rs_compiled_vehicle_p(rs_train_compiled(tr, 2));
    /* m_c set: dz and its chain follow (by hand: m g / k) */
    ck_assert_msg(fabs(par(m, pa, "dz") - 1200 * g / k) < 1e-15, "dz %.17g, by hand %.17g", par(m, pa, "dz"),
                  1200 * g / k);
    ck_assert_msg(fabs(par(m, pa, "dz2") - 2 * 1200 * g / k) < 1e-15, "dz2 %.17g", par(m, pa, "dz2"));
    /* dz set itself: kept (whatever the order of the lines), dz2 follows it */
    ck_assert_double_eq(par(m, pb, "dz"), 0.25);
    ck_assert_double_eq(par(m, pb, "dz2"), 0.5);
    /* a sweep's set line after the file */
    ck_assert_msg(fabs(par(m, pc, "dz") - 800 * g / k) < 1e-15, "set line: dz %.17g", par(m, pc, "dz"));
    /* the same values as the single run's scenario, bit for bit */
    rs_ws *ws = with_scenario(m, "param m_c = 1200\n", NULL);
    for (int i = 0; i < m->n_p; i++)
        ck_assert_msg(memcmp(&rs_ws_p(ws)[i], &pa[i], sizeof(double)) == 0, "%s: train %.17g, run %.17g",
                      m->p_names[i], pa[i], rs_ws_p(ws)[i]);
    rs_ws_free(&ws);
    ws = with_scenario(m, "param m_c = 1200\nparam dz = 0.25\n", NULL);
    for (int i = 0; i < m->n_p; i++)
        ck_assert_msg(memcmp(&rs_ws_p(ws)[i], &pb[i], sizeof(double)) == 0, "%s: train %.17g, run %.17g",
                      m->p_names[i], pb[i], rs_ws_p(ws)[i]);
    rs_ws_free(&ws);
    /* the static equilibrium: a and c rest at z = 0 (their spring's length
     * followed m_c); b's spring is 0.25 - dz(1200) longer */
    const int iz = rt_coord_index(m, "z");
    ck_assert_msg(fabs(rs_train_q(tr, 0)[iz]) < 1e-12, "a rests at z = %g", rs_train_q(tr, 0)[iz]);
    ck_assert_msg(fabs(rs_train_q(tr, 2)[iz]) < 1e-12, "c rests at z = %g", rs_train_q(tr, 2)[iz]);
    ck_assert_msg(fabs(rs_train_q(tr, 1)[iz] - (0.25 - 1200 * g / k)) < 1e-9, "b rests at z = %g",
                  rs_train_q(tr, 1)[iz]);
    rs_train_free(&tr);
    rs_train_spec_free(&S);

    /* a short run: vehicle a alone bouncing from z_dot = 0.1 against the
     * single run with the scenario's m_c and the analytic sine */
    snprintf(text, sizeof text,
             "duration 0.2\nstep 1e-4\noutput 0\n"
             "vehicle a model pe\n  m_c = 1200\n  r0 = 0\n  z_dot = 0.1\nend\norder\n  a\nend\n");
    tr = train_of("pe1", text, NULL, &S, 1e-4);
    m = S->veh[0].model;
    rs_options o;
    rs_options_default(&o);
    o.dt = 1e-4;
    ws = with_scenario(m, "param m_c = 1200\n", &o);
    memcpy(rs_ws_q(ws), rs_train_q(tr, 0), 2 * sizeof(double));
    memcpy(rs_ws_qd(ws), rs_train_qd(tr, 0), 2 * sizeof(double));
    ck_assert_double_eq(rs_ws_qd(ws)[iz], 0.1);
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    const double w = sqrt(k / 1200), amp = 0.1 / w;
    double d_run = 0, d_an = 0;
    for (int i = 1; i <= 2000; i++) {
        step(tr);
        ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
        const double zt = rs_train_q(tr, 0)[iz];
        d_run = fmax(d_run, fabs(zt - rs_ws_q(ws)[iz]));
        d_an = fmax(d_an, fabs(zt - amp * sin(w * i * 1e-4)));
    }
    printf("dependent parameters: bounce amplitude %.4g m; train vs single run %.3g m, vs analytic %.3g m "
           "(a stale dz would be %.3g m off)\n",
           amp, d_run, d_an, 700 * g / k);
    ck_assert_msg(d_an < 1e-3 * amp, "train vs analytic %g of %g", d_an, amp);
    ck_assert_msg(d_run < 1e-2 * amp, "train vs single run %g of %g", d_run, amp);
    rs_ws_free(&ws);
    rs_train_free(&tr);
    rs_train_spec_free(&S);
}
END_TEST

/* ---- internal states ----------------------------------------------------- */

/* The zstate train: both masses forced by F0 sin(w t) from rest. */
static const char *zstate_train(char *text, size_t len, const char *more)
{
    char cwd[400];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    snprintf(text, len,
             "duration 0.2\noutput 0\n"
             "vehicle zs model %s/generated/zstate\n  x_coord x1\n  pitch_coord none\n  r0 = 0\n"
             "  F0 = 100\n  w = 115.47\n%send\norder\n  zs\nend\n",
             cwd, more);
    return text;
}

/* Max |x_train − x_ref| over 0.2 s at step h for both masses, where the
 * reference is the single run with `method` at step href (every href/h
 * ... compared where both have a point: at the train's steps, href
 * dividing h). */
static double zstate_diff(double h, rs_method method, double href, const char *more, const char *scn_more)
{
    char text[1500];
    rs_train_spec *S = NULL;
    rs_train *tr = train_of("zs", zstate_train(text, sizeof text, more), NULL, &S, h);
    const rs_model *m = S->veh[0].model;
    rs_options o;
    rs_options_default(&o);
    o.dt = href;
    o.method = method;
    char scn[300];
    snprintf(scn, sizeof scn, "param F0 = 100\nparam w = 115.47\n%s", scn_more);
    rs_ws *ws = with_scenario(m, scn, &o);
    memcpy(rs_ws_q(ws), rs_train_q(tr, 0), 2 * sizeof(double));
    memcpy(rs_ws_qd(ws), rs_train_qd(tr, 0), 2 * sizeof(double));
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    const int sub = (int)lround(h / href), n = (int)lround(0.2 / h);
    double d = 0;
    for (int i = 0; i < n; i++) {
        step(tr);
        for (int k = 0; k < sub; k++)
            ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
        for (int c = 0; c < 2; c++)
            d = fmax(d, fabs(rs_train_q(tr, 0)[c] - rs_ws_q(ws)[c]));
    }
    /* the states themselves agree too (they drive the difference) */
    rs_ws_free(&ws);
    rs_train_free(&tr);
    rs_train_spec_free(&S);
    return d;
}

START_TEST(internal_states)
{
    RS_REQUIRE_MODEL("zstate");
    const double hs[3] = {2e-4, 1e-4, 5e-5};
    double d_imex[3], d_ref[3];
    for (int k = 0; k < 3; k++) {
        d_imex[k] = zstate_diff(hs[k], RS_IMEX_EULER, hs[k], "", "");
        d_ref[k] = zstate_diff(hs[k], RS_RK4, 1e-5, "", "");
        printf("internal states: h = %.0e s: train vs IMEX run %.3e m, vs RK4 (1e-5 s) %.3e m\n", hs[k], d_imex[k],
               d_ref[k]);
    }
    /* the motion is about 1e-4 m: both differences small, shrinking at
     * the IMEX step's first order and at Park's second order */
    for (int k = 1; k < 3; k++) {
        const double o_imex = log2(d_imex[k - 1] / d_imex[k]), o_ref = log2(d_ref[k - 1] / d_ref[k]);
        printf("internal states: observed order vs IMEX %.2f, vs RK4 %.2f\n", o_imex, o_ref);
        ck_assert_msg(o_imex > 0.8 && o_imex < 1.3, "train vs IMEX: order %.2f", o_imex);
        ck_assert_msg(o_ref > 1.7, "train vs RK4: order %.2f", o_ref);
    }
    ck_assert_msg(d_ref[2] < 1e-3 * 1e-4, "train vs RK4 at 5e-5 s: %g m", d_ref[2]);
    /* an initial state from the train file = the scenario's `initial` */
    const double d0 = zstate_diff(1e-4, RS_RK4, 1e-5, "  yaw1.z = 1e-3\n  air2.z = -2e-3\n",
                                  "initial yaw1.z = 1e-3\ninitial air2.z = -2e-3\n");
    const double dno = zstate_diff(1e-4, RS_RK4, 1e-5, "", "initial yaw1.z = 1e-3\ninitial air2.z = -2e-3\n");
    printf("internal states: from yaw1.z = 1e-3, air2.z = -2e-3: train vs RK4 %.3e m (%.3e m when the train "
           "starts them at 0)\n",
           d0, dno);
    /* the difference is the integrators' (5e-4 of the motion the states start), not a missing start */
    ck_assert_msg(d0 < 2e-3 * dno, "initial states: %g, without them %g", d0, dno);
}
END_TEST

START_TEST(state_outputs_and_messages)
{
    RS_REQUIRE_MODEL("zstate");
    char text[1500], path[600], out[600];
    zstate_train(text, sizeof text, "  air2.z = 1e-3\n  state_outputs\n");
    rs_test_write(dir, "so.train", text);
    snprintf(path, sizeof path, "%s/so.train", dir);
    snprintf(out, sizeof out, "%s/so.csv", dir);
    rs_train_run_cfg cfg = {path, out, 1, NULL, NULL, 0, {0}, 1};
    ck_assert_msg(rs_train_run(&cfg, NULL, err, sizeof err) == RS_OK, "%s", err);
    char *csv = rs_test_read(out);
    ck_assert_msg(strncmp(csv, "time,zs1.x,zs1.v,zs1.yaw1.z,zs1.air2.z\n", 39) == 0, "header: %.80s", csv);
    const char *row = strchr(csv, '\n') + 1;
    double t, x, v, z1, z2;
    ck_assert_int_eq(sscanf(row, "%lf,%lf,%lf,%lf,%lf", &t, &x, &v, &z1, &z2), 5);
    ck_assert_double_eq(z1, 0.0);
    ck_assert_double_eq(z2, 1e-3);
    free(csv);
    /* three rigs coupled (through x1): 1 and 2 threads bit-identical, states included */
    {
        char t3[1600];
        zstate_train(t3, sizeof t3, "  yaw1.z = 1e-3\n");
        strcpy(strstr(t3, "order"), "order\n  zs 3\nend\n");
        rs_test_write(dir, "z3.train", t3);
        snprintf(path, sizeof path, "%s/z3.train", dir);
        rs_train *tt[2];
        rs_train_spec *S3[2];
        for (int k = 0; k < 2; k++) {
            ck_assert_msg(rs_train_spec_read(path, &S3[k], err, sizeof err) == RS_OK, "%s", err);
            rs_park_opts o;
            rs_train_spec_opts(S3[k], &o);
            o.threads = k + 1;
            o.probe = 0;
            o.rebalance = 10;
            ck_assert_msg(rs_train_create(&tt[k], 3, S3[k]->veh, NULL, S3[k]->cpl, NULL, &o, err, sizeof err) == RS_OK,
                          "%s", err);
            ck_assert_msg(rs_train_start(tt[k], 0, 0, 0) == RS_OK, "%s", rs_train_error(tt[k]));
        }
        for (int i = 0; i < 300; i++) {
            step(tt[0]);
            step(tt[1]);
        }
        const int nq = rs_park_n(rs_train_park(tt[0]));
        ck_assert_int_eq(memcmp(rs_park_q(rs_train_park(tt[0])), rs_park_q(rs_train_park(tt[1])),
                                (size_t)nq * sizeof(double)), 0);
        for (int v = 0; v < 3; v++)
            ck_assert_int_eq(memcmp(rs_compiled_vehicle_z(rs_train_compiled(tt[0], v)),
                                    rs_compiled_vehicle_z(rs_train_compiled(tt[1], v)), 2 * sizeof(double)), 0);
        ck_assert(rs_compiled_vehicle_z(rs_train_compiled(tt[0], 2))[0] != 1e-3);   /* it moved */
        for (int k = 0; k < 2; k++) {
            rs_train_free(&tt[k]);
            rs_train_spec_free(&S3[k]);
        }
    }
    /* messages */
    rs_train_spec *S = NULL;
    zstate_train(text, sizeof text, "  air2.zz = 1\n");
    ck_assert_int_eq(rs_train_spec_parse(text, "t.train", &S, err, sizeof err), RS_E_ARG);
    ck_assert_msg(strstr(err, "t.train:9: vehicle 'zs': 'air2.zz' is not a parameter") &&
                      strstr(err, "internal states (initial values NAME = VALUE): yaw1.z, air2.z"),
                  "%s", err);
    zstate_train(text, sizeof text, "  state_outputs 1\n");
    ck_assert_int_eq(rs_train_spec_parse(text, "t.train", &S, err, sizeof err), RS_E_ARG);
    ck_assert_msg(strstr(err, "write 'state_outputs' alone"), "%s", err);
    /* a non-positive damping: refused at the start, naming the state */
    zstate_train(text, sizeof text, "  c_a = -1\n");
    ck_assert_int_eq(rs_train_spec_parse(text, "t.train", &S, err, sizeof err), RS_OK);
    rs_train *tr;
    ck_assert_int_eq(rs_train_create(&tr, S->nv, S->veh, NULL, S->cpl, NULL, NULL, err, sizeof err), RS_OK);
    ck_assert_int_eq(rs_train_start(tr, 0, 0, 0), RS_E_VALUE);
    ck_assert_msg(strstr(rs_train_error(tr), "internal state 'air2.z': d(zdot)/dz = ") &&
                      strstr(rs_train_error(tr), "train file"),
                  "%s", rs_train_error(tr));
    rs_train_free(&tr);
    rs_train_spec_free(&S);
}
END_TEST

/* ---- plugins ---------------------------------------------------------------- */

static const double MASS = 2.0, K = 800.0, C = 4.0, L0 = 1.0, X0 = 1.3;

/* The block of test_plugin: mass m on x, held by ELEMENT between A and P. */
static void compile_block(const char *name, const char *element)
{
    char text[2048];
    snprintf(text, sizeof text,
             "param m = %.17g\ncoord x = %.17g\n"
             "point A = O + [0, 0, 0] in ground\npoint P = O + [x, 0, 0] in ground\n"
             "body  block  mass m  cg P  inertia diag(1, 1, 1) in ground  frame ground\n%s\n",
             MASS, X0, element);
    compile(name, text);
}

/* x(t) of m ẍ + c ẋ + k (x − L0) = 0 from X0, at rest. */
static double analytic(double t)
{
    const double w0 = sqrt(K / MASS), z = C / (2 * sqrt(K * MASS)), wd = w0 * sqrt(1 - z * z);
    return L0 + (X0 - L0) * exp(-z * w0 * t) * (cos(wd * t) + z * w0 / wd * sin(wd * t));
}

static rs_train *block_train(const char *model, rs_train_spec **S)
{
    char text[600];
    snprintf(text, sizeof text,
             "duration 1\nstep 1e-3\noutput 0\nvehicle b model %s\n  pitch_coord none\n  r0 = 0\nend\n"
             "order\n  b\nend\n",
             model);
    return train_of(model, text, NULL, S, 1e-3);
}

/* dir/libsd.so: test_plugin's spring-damper plugin. */
static void build_plugin(void)
{
    rs_test_plugin_lib(dir, "libsd.so", "tests/support/plugins/spring_damper_plugin.c", "");
}

START_TEST(plugins)
{
    char line[700];
    build_plugin();
    compile_block("builtin", "spring s between A and P of block k 800 c 4 length 1");
    snprintf(line, sizeof line,
             "plugin s library \"%s/libsd.so\" between A and P of block params [800, 4, 1, 1, 0]", dir);
    compile_block("plugin", line);
    snprintf(line, sizeof line,
             "plugin s library \"%s/libsd.so\" between A and P of block params [800, 4, 1, 0, 0]", dir);
    compile_block("plugin_nojac", line);
    snprintf(line, sizeof line,
             "plugin s library \"%s/libsd.so\" between A and P of block params [800, 4, 1, 1, 0.05]", dir);
    compile_block("plugin_nan", line);
    rs_train_spec *Sa = NULL, *Sb = NULL, *Sc = NULL;
    rs_train *a = block_train("builtin", &Sa), *b = block_train("plugin", &Sb), *c = block_train("plugin_nojac", &Sc);
    ck_assert_double_eq(rs_train_x(a, 0), X0);
    ck_assert_double_eq(rs_train_x(b, 0), X0);
    double d = 0, d_an = 0, d_nojac = 0;
    for (int i = 1; i <= 1000; i++) {
        step(a);
        step(b);
        step(c);
        const double xa = rs_train_x(a, 0), xb = rs_train_x(b, 0), va = rs_train_v(a, 0), vb = rs_train_v(b, 0);
        /* relative to the motion's scale (x − L0 starts at 0.3, v at 6) */
        d = fmax(d, fmax(fabs(xa - xb) / (fabs(xa - L0) + 0.3), fabs(va - vb) / (fabs(va) + 6)));
        d_an = fmax(d_an, fabs(xa - analytic(i * 1e-3)));
        d_nojac = fmax(d_nojac, fabs(rs_train_x(c, 0) - analytic(i * 1e-3)));
    }
    printf("plugins: 1 s at 1 ms: plugin vs built-in spring %.3g relative; built-in vs analytic %.3g m; plugin "
           "without its Jacobian vs analytic %.3g m\n",
           d, d_an, d_nojac);
    ck_assert_msg(d <= 1e-10, "plugin vs spring %.3g relative", d);
    ck_assert_msg(d_an < 1e-3, "spring vs analytic %.3g m", d_an);
    ck_assert_msg(d_nojac < 1e-2, "plugin without Jacobian vs analytic %.3g m", d_nojac);
    rs_train_free(&a);
    rs_train_free(&b);
    rs_train_free(&c);
    rs_train_spec_free(&Sa);
    rs_train_spec_free(&Sb);
    rs_train_spec_free(&Sc);
    /* NaN from t = 0.05 s: the step fails naming the plugin */
    rs_train_spec *Sn = NULL;
    rs_train *n = block_train("plugin_nan", &Sn);
    int st = RS_OK, k = 0;
    while (st == RS_OK && k++ < 100)
        st = rs_train_step(n);
    ck_assert_int_ne(st, RS_OK);
    printf("plugins: a NaN: %s\n", rs_train_error(n));
    ck_assert_msg(strstr(rs_train_error(n), "vehicle 'b1'") && strstr(rs_train_error(n), "plugin 's' (library") &&
                      strstr(rs_train_error(n), "non-finite value at t = 0.05"),
                  "%s", rs_train_error(n));
    rs_train_free(&n);
    rs_train_spec_free(&Sn);
    /* a library that is not there: the train file's line names it */
    snprintf(line, sizeof line, "plugin s library \"%s/nope.so\" between A and P of block params [800, 4, 1]", dir);
    compile_block("plugin_missing", line);
    rs_test_write(dir, "missing.train", "vehicle b model plugin_missing\n  r0 = 0\nend\norder\n  b\nend\n");
    snprintf(line, sizeof line, "%s/missing.train", dir);
    ck_assert_int_ne(rs_train_spec_read(line, &Sn, err, sizeof err), RS_OK);
    ck_assert_msg(strstr(err, "missing.train:1: vehicle 'b': plugin 's': cannot load its library") != NULL, "%s", err);
}
END_TEST

/* The traction controller of docs/plugins/ (a PI, its integral a plugin
 * state that `advance` updates after each step) on the block against the
 * train's rolling resistance R = m g r0 (v_s = 0.05 m/s smoothing): from
 * rest it holds v_ref = 5 m/s, the integral carrying R (a P controller
 * alone would lag by R / kp = 9.8 mm/s). */
START_TEST(plugin_states)
{
    char line[700];
    rs_test_plugin_lib(dir, "libtraction.so", "docs/plugins/traction_controller.c", "");
    snprintf(line, sizeof line,
             "plugin traction library \"%s/libtraction.so\" between A and P of block "
             "params [5, 100, 200, 4] states 1 along [1, 0, 0] in ground",
             dir);
    compile_block("traction", line);
    char text[600];
    snprintf(text, sizeof text,
             "duration 20\nstep 1e-3\noutput 0\nvehicle b model traction\n  pitch_coord none\n  r0 = 0.05\n"
             "end\norder\n  b\nend\n");
    rs_train_spec *S = NULL;
    rs_train *tr = train_of("traction", text, NULL, &S, 1e-3);
    for (int i = 0; i < 20000; i++)
        step(tr);
    const double R = MASS * 9.81 * 0.05 * 5 / sqrt(25 + 0.05 * 0.05);
    printf("plugin states: v(20 s) = %.9f m/s (v_ref 5; P alone: %.4f)\n", rs_train_v(tr, 0), 5 - R / 100);
    ck_assert_msg(fabs(rs_train_v(tr, 0) - 5) < 1e-5, "v(20 s) = %.12g", rs_train_v(tr, 0));
    rs_train_free(&tr);
    rs_train_spec_free(&S);
}
END_TEST

/* ---- a vehicle with contacts, internal states and a plugin ------------------ */

/* The cone wheelset of vehicles/examples/wheelset_cone.vdl held laterally
 * by LATERAL (a built-in spring or the plugin) instead of its bushing's ky,
 * with a lateral Maxwell damper (an internal state) beside it. */
static void compile_wheelset(const char *name, const char *lateral)
{
    char cwd[400], text[4000];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    snprintf(text, sizeof text,
             "param m_ws = 1250, Ix = 700, Iy = 100, r0 = 0.45, b0 = 0.75, b_r = 0.75, g = 9.81\n"
             "param kyaw = 1e5\n"
             "coord x, y, z, roll, yaw, spin\n"
             "base B_yaw = rotate(ground, z, yaw)\nbase B_nsw = rotate(B_yaw, x, roll)\n"
             "base B_ws  = rotate(B_nsw, y, spin)\n"
             "point O_ws = O + [x, y, r0 + z] in ground\n"
             "body wheelset  mass m_ws  cg O_ws  inertia diag(Ix, Iy, Ix) in B_nsw  frame B_ws\n"
             "point W_left  = O_ws + [0, b0, 0] in B_nsw\npoint W_right = O_ws + [0, -b0, 0] in B_nsw\n"
             "gravity [0, 0, -g] in ground\n"
             "point C = O + [x, 0, r0] in ground\nframe carrier = C in ground\nframe axle = O_ws in B_nsw\n"
             "bushing suspension  between carrier and axle  k [0, 0, 0, 0, 0, kyaw]  c [0, 0, 0, 0, 0, 0]\n"
             "point Cy = O + [x, -1, r0] in ground\n"
             "%s\n"
             "damper ly  between Cy and O_ws of wheelset  c 2e4  series k 5e5\n"
             "contact left   wheel wheelset  at W_left in B_nsw   side left   radius r0  offset b_r  profile "
             "\"%s/vehicles/profiles/cone_1in40.prf\"  rail \"%s/vehicles/profiles/arc_r300.prf\"  track "
             "\"%s/vehicles/tracks/straight.trk\"\n"
             "contact right  wheel wheelset  at W_right in B_nsw  side right  radius r0  offset b_r  profile "
             "\"%s/vehicles/profiles/cone_1in40.prf\"  rail \"%s/vehicles/profiles/arc_r300.prf\"  track "
             "\"%s/vehicles/tracks/straight.trk\"\n",
             lateral, cwd, cwd, cwd, cwd, cwd, cwd);
    compile(name, text);
}

/* The wheelset NAME as a one-vehicle train with the elastic contact, 2 mm
 * to the left, rolling at 10 m/s. */
static rs_train *wheelset_train(const char *name, double h, rs_train_spec **S)
{
    char text[800];
    snprintf(text, sizeof text,
             "duration 1\noutput 0\nspeed 10\nvehicle w model %s\n  pitch_coord none\n  train.r0 = 0\n"
             "  contact elastic\n  y = 0.002\n  state_outputs\nend\norder\n  w\nend\n",
             name);
    return train_of(name, text, NULL, S, h);
}

/* Max |y_train − y_IMEX| over T s at step h: the wheelset "wsb" in a train
 * and alone (elastic contact, the train's options), from the train's
 * start; *amp: max |y − y0| of the single run. */
static double wheelset_vs_single(double h, double T, double *amp)
{
    rs_train_spec *S = NULL;
    rs_train *tr = wheelset_train("wsb", h, &S);
    const rs_model *m = S->veh[0].model;
    rs_ws *ws = rt_single_run_ws(m, S->veh[0].model_contact, h, rs_train_q(tr, 0), rs_train_qd(tr, 0));
    const int iy = rt_coord_index(m, "y");
    double d = 0;
    *amp = 0;
    const double y0 = rs_ws_q(ws)[iy];
    for (int k = 0; k < (int)lround(T / h); k++) {
        step(tr);
        ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
        d = fmax(d, fabs(rs_train_q(tr, 0)[iy] - rs_ws_q(ws)[iy]));
        *amp = fmax(*amp, fabs(rs_ws_q(ws)[iy] - y0));
    }
    rs_ws_free(&ws);
    rs_train_free(&tr);
    rs_train_spec_free(&S);
    return d;
}

START_TEST(contact_vehicle)
{
    char line[700];
    build_plugin();
    compile_wheelset("wsb", "spring sy  between Cy and O_ws of wheelset  k 1e5  length 1");
    snprintf(line, sizeof line,
             "plugin sy library \"%s/libsd.so\" between Cy and O_ws of wheelset params [1e5, 0, 1, 1, 0]", dir);
    compile_wheelset("wsp", line);
    /* the plugin equals the built-in spring, the state moving */
    rs_train_spec *Sb = NULL, *Sp = NULL;
    rs_train *b = wheelset_train("wsb", 2e-4, &Sb), *p = wheelset_train("wsp", 2e-4, &Sp);
    const rs_model *m = Sb->veh[0].model;
    const int n = m->n_q, iy = rt_coord_index(m, "y");
    ck_assert_int_eq(m->n_z, 1);
    double d = 0, zmax = 0;
    for (int k = 0; k < 1500; k++) {
        step(b);
        step(p);
        for (int i = 0; i < n; i++)
            d = fmax(d, fabs(rs_train_q(b, 0)[i] - rs_train_q(p, 0)[i]));
        zmax = fmax(zmax, fabs(rs_compiled_vehicle_z(rs_train_compiled(b, 0))[0]));
    }
    printf("contact vehicle: 0.3 s at 10 m/s: plugin vs built-in lateral spring max |dq| %.3g; max |ly.z| %.3g m; "
           "y %.4g m\n",
           d, zmax, rs_train_q(b, 0)[iy]);
    ck_assert_msg(d < 1e-12, "plugin vs spring %g", d);
    ck_assert_msg(zmax > 1e-5, "the state did not move: %g", zmax);
    rs_train_free(&b);
    rs_train_free(&p);
    rs_train_spec_free(&Sb);
    rs_train_spec_free(&Sp);
    /* the train against the single IMEX run: first order (the IMEX step's) */
    const double hs[3] = {4e-4, 2e-4, 1e-4};
    double dd[3], amp[3];
    for (int k = 0; k < 3; k++) {
        dd[k] = wheelset_vs_single(hs[k], 0.3, &amp[k]);
        printf("contact vehicle: h = %.0e s: train vs single IMEX run max |dy| %.3e m (motion %.3e m)\n", hs[k],
               dd[k], amp[k]);
    }
    ck_assert_msg(dd[1] < 0.7 * dd[0] && dd[2] < 0.7 * dd[1], "no convergence: %g, %g, %g", dd[0], dd[1], dd[2]);
    ck_assert_msg(dd[2] < 0.02 * amp[2], "difference %g of motion %g", dd[2], amp[2]);
}
END_TEST

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);   /* the figures of a failing check too */
    Suite *s = suite_create("train_features");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, dependent_parameters);
    tcase_add_test(tc, internal_states);
    tcase_add_test(tc, state_outputs_and_messages);
    tcase_add_test(tc, plugins);
    tcase_add_test(tc, plugin_states);
    tcase_add_test(tc, contact_vehicle);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
