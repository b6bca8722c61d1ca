/*
 * test_equilibrium_z.c — the static equilibrium (runtime/app/rs_equilibrium.h)
 * of models with internal states (series spring–dampers, air springs:
 * docs/elements.md "Elements with an internal state").  At rest ż = a(q, 0)
 * + b z = 0 gives each z from q; for both elements a(q, 0) = ḋ = 0, so the
 * node's spring is unloaded (z = 0) and only the parallel springs carry:
 *
 *   - vehicles/examples/zstate.vdl started off its rest (x1 = 0.1 m,
 *     x2 = −0.05 m, the nodes' springs stretched by 0.01 and 0.02 m): the
 *     equilibrium is x = 0, z = 0 (the springs k0 and k1 at their free
 *     lengths), every force below 1e-9 of the largest one at the start, and
 *     a run from there moves by less than 1e-12 m in 0.5 s;
 *   - two masses m hung under a spring k0 beside a Maxwell element (c in
 *     series with k) and under an air spring (k1 beside k2 in series with
 *     c), by hand: the weight is carried by k0 and k1 alone,
 *     z1 = −m g/k0, z2 = −m g/k1, the states 0 (a solve that kept the
 *     series branch loaded would give m g/(k0 + k) instead), the residual
 *     force below 1e-9 of the weight, and a run from there stays at rest
 *     (|q̇| < 1e-9 m/s, |Δq| < 1e-12 m after 0.5 s).
 */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "rs_equilibrium.h"
#include "rs_load.h"
#include "rs_test.h"
#include "rs_test_files.h"
#include "rs_ws.h"

static char err[4000];
static char dir[64];

static void setup(void) { rs_test_mkdtemp(dir, sizeof dir, "/tmp/rs_eqz_XXXXXX"); }

static void teardown(void) { rs_test_rmtree(dir); }

/* How far a run strays from the state it starts in. */
typedef struct stray {
    double q0[8];
    double dq, qd, z;
} stray;

static int watch(rs_ws *ws, void *ctx)
{
    stray *s = ctx;
    const rs_model *m = rs_ws_model(ws);
    for (int j = 0; j < m->n_q; j++) {
        s->dq = fmax(s->dq, fabs(rs_ws_q(ws)[j] - s->q0[j]));
        s->qd = fmax(s->qd, fabs(rs_ws_qd(ws)[j]));
    }
    for (int i = 0; i < m->n_z; i++)
        s->z = fmax(s->z, fabs(rs_ws_u(ws)[m->z_slot[i]]));
    return 0;
}

/* The equilibrium of ws (all coordinates), then a run of 0.5 s from it. */
static void solve_and_run(rs_ws *ws, rs_equilibrium_report *rep, stray *s)
{
    ck_assert_msg(rs_equilibrium(ws, NULL, rep, err, sizeof err) == RS_OK, "%s", err);
    const rs_model *m = rs_ws_model(ws);
    ck_assert_int_le(m->n_q, 8);
    memset(s, 0, sizeof *s);
    memcpy(s->q0, rs_ws_q(ws), (size_t)m->n_q * sizeof(double));
    ck_assert_msg(rs_run(ws, 0.5, 0.01, watch, s) == RS_OK, "%s", rs_ws_error(ws));
}

START_TEST(zstate_relaxes)
{
    rs_loaded *h = rs_load("generated/zstate", RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    rs_ws *ws = NULL;
    ck_assert_msg(rs_ws_create(rs_loaded_model(h), NULL, &ws, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(rs_ws_set_q(ws, "x1", 0.1), RS_OK);
    ck_assert_int_eq(rs_ws_set_q(ws, "x2", -0.05), RS_OK);
    ck_assert_int_eq(rs_ws_set_u(ws, "yaw1.z", 0.01), RS_OK);
    ck_assert_int_eq(rs_ws_set_u(ws, "air2.z", 0.02), RS_OK);
    const double k0 = 2.0e5, k_y = 1.0e6, k_1 = 3.0e5, k_2 = 6.0e5;
    /* the largest force at the start: mass 1, k0 0.1 + k_y 0.01 */
    const double f0 = fmax(k0 * 0.1 + k_y * 0.01, k_1 * 0.05 + k_2 * 0.02);
    rs_equilibrium_report rep;
    stray s;
    solve_and_run(ws, &rep, &s);
    const rs_model *m = rs_loaded_model(h);
    printf("zstate: equilibrium in %d iterations, residual %.3g N (scale %.3g N), x = %.3g %.3g m, "
           "z = %.3g %.3g m; run: |dq| %.3g m, |qd| %.3g m/s\n", rep.iterations, rep.residual, rep.scale, s.q0[0],
           s.q0[1], rs_ws_u(ws)[m->z_slot[0]], rs_ws_u(ws)[m->z_slot[1]], s.dq, s.qd);
    ck_assert_msg(rep.residual < 1e-9 * f0, "residual %g N", rep.residual);
    /* the forces at the solution, by hand: k0 x1 + k_y z1 and k1 x2 + k2 z2 */
    ck_assert_msg(fabs(k0 * s.q0[0]) < 1e-9 * f0 && fabs(k_1 * s.q0[1]) < 1e-9 * f0, "x = %g, %g", s.q0[0],
                  s.q0[1]);
    ck_assert_msg(s.z < 1e-9 * f0 / k_y, "the nodes' springs: max |z| %g m over the run", s.z);
    ck_assert_msg(s.dq < 1e-12 && s.qd < 1e-9, "the run strays by %g m, %g m/s", s.dq, s.qd);
    rs_ws_free(&ws);
    rs_unload(&h);
}
END_TEST

static const char kHungVdl[] =
    "param m = 100, g = 9.81\n"
    "param k0 = 2.0e5, c_y = 2.0e3, k_y = 1.0e6\n"
    "param k_1 = 3.0e5, k_2 = 6.0e5, c_a = 3.0e3\n"
    "coord z1, z2\n"
    "point A1 = O + [0, 0, 2] in ground\n"
    "point G1 = O + [0, 0, 1 + z1] in ground\n"
    "body b1 mass m cg G1 inertia diag(1, 1, 1) in ground\n"
    "point A2 = O + [0, 1, 2] in ground\n"
    "point G2 = O + [0, 1, 1 + z2] in ground\n"
    "body b2 mass m cg G2 inertia diag(1, 1, 1) in ground\n"
    "gravity [0, 0, -g] in ground\n"
    "spring hold1 between A1 and G1 k k0 length 1\n"
    "damper yaw1 between A1 and G1 c c_y series k k_y\n"
    "airspring air2 between A2 and G2 k1 k_1 k2 k_2 c c_a length 1\n";

START_TEST(hung_masses)
{
    char model[700];
    rs_test_compile(dir, "hung", kHungVdl);
    snprintf(model, sizeof model, "%s/hung", dir);
    rs_loaded *h = rs_load(model, RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    rs_ws *ws = NULL;
    ck_assert_msg(rs_ws_create(rs_loaded_model(h), NULL, &ws, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(rs_ws_set_u(ws, "yaw1.z", 0.003), RS_OK); /* a loaded node to relax */
    const double m = 100, g = 9.81, W = m * g, k0 = 2.0e5, k_y = 1.0e6, k_1 = 3.0e5;
    rs_equilibrium_report rep;
    stray s;
    solve_and_run(ws, &rep, &s);
    printf("hung masses: z1 %.12g m (hand %.12g), z2 %.12g m (hand %.12g), residual %.3g N; run: |dq| %.3g m, "
           "|qd| %.3g m/s, max |z| %.3g m\n", s.q0[0], -W / k0, s.q0[1], -W / k_1, rep.residual, s.dq, s.qd, s.z);
    ck_assert_msg(rep.residual < 1e-9 * W, "residual %g N", rep.residual);
    /* the weight against k0 (k1) alone, to 1e-9 of the weight */
    ck_assert_msg(fabs(k0 * s.q0[0] + W) < 1e-9 * W, "z1 = %.12g m, hand %.12g m (k0 + k_y would give %.6g)",
                  s.q0[0], -W / k0, -W / (k0 + k_y));
    ck_assert_msg(fabs(k_1 * s.q0[1] + W) < 1e-9 * W, "z2 = %.12g m, hand %.12g m", s.q0[1], -W / k_1);
    ck_assert_msg(k_y * s.z < 1e-9 * W, "a node's spring carries %g N", k_y * s.z);
    ck_assert_msg(s.dq < 1e-12 && s.qd < 1e-9, "the run strays by %g m, %g m/s", s.dq, s.qd);
    rs_ws_free(&ws);
    rs_unload(&h);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("equilibrium_z");
    TCase *tc = tcase_create("equilibrium_z");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, zstate_relaxes);
    tcase_add_test(tc, hung_masses);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return rs_test_run(suite()); }
