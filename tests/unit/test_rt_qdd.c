/*
 * test_rt_qdd.c — the accelerations q̈ that outputs read (RS_IN_QDD: acc(),
 * alpha(), q_dd in a .vdl output) are the step's, however late they are read.
 *
 * The IMEX step does not divide (q̇ₙ₊₁ − q̇ₙ)/Δt itself: it keeps both ends
 * and the first call of a function that may read q̈ (outputs, power) does
 * it (rs_step.c, rs_ws_qdd_settle).  These tests hold that lazy q̈ to the
 * eager one bit for bit, computed here from the velocities read around each
 * step, through what could separate them: outputs read only every few
 * steps, q̇ written between the step and the read, a failed step (whose
 * start overwrote the saved q̇ₙ of the previous step: the workspace keeps a
 * second copy), a saved and restored state, a changed Δt, and the power
 * terms.  The first read gives the initial state's q̈ (M⁻¹ δ, by hand).
 *
 * The model, written here in the generated-code ABI: two masses on springs
 * in a chain, M = diag(m1, m2),
 *   δ = [−k1 x1 + k2 (x2 − x1), −k2 (x2 − x1)];
 * outputs [q̈1, q̈2, x1] and power [m1 q̈1 ẋ1, 0, 0, 0] read q̈.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_model.h"
#include "rs_ws_state.h"
#include "rt_fixtures.h"
#include "rs_test.h"

enum { M1, M2, K1, K2 };

static int two_M(const double *const *in, double *const *out)
{
    const double *p = in[RS_IN_P];
    if (out[0]) {
        out[0][0] = p[M1];
        out[0][1] = p[M2];
    }
    return RS_ABI_OK;
}

static int two_delta(const double *const *in, double *const *out)
{
    const double *p = in[RS_IN_P], *q = in[RS_IN_Q];
    if (out[0]) {
        out[0][0] = -p[K1] * q[0] + p[K2] * (q[1] - q[0]);
        out[0][1] = -p[K2] * (q[1] - q[0]);
    }
    return RS_ABI_OK;
}

static int two_outputs(const double *const *in, double *const *out)
{
    if (out[0]) {
        out[0][0] = in[RS_IN_QDD][0];
        out[0][1] = in[RS_IN_QDD][1];
        out[0][2] = in[RS_IN_Q][0];
    }
    return RS_ABI_OK;
}

static int two_power(const double *const *in, double *const *out)
{
    if (out[0]) {
        out[0][0] = in[RS_IN_P][M1] * in[RS_IN_QDD][0] * in[RS_IN_QD][0];
        out[0][1] = out[0][2] = out[0][3] = 0.0;
    }
    return RS_ABI_OK;
}

static const char *const two_q_names[] = {"x1", "x2"};
static const char *const two_p_names[] = {"m1", "m2", "k1", "k2"};
static const double two_p_default[] = {2.0, 0.5, 800.0, 300.0};
static const char *const two_out_names[] = {"x1_dd", "x2_dd", "x1_out"};
static const int two_M_colptr[] = {0, 1, 2};
static const int two_M_rowind[] = {0, 1};
static const int two_len_M[] = {2}, two_len_delta[] = {2}, two_len_out[] = {3},
                 two_len_power[] = {RS_POWER_COUNT};

static const rs_model two_model = {
    .magic = RS_MODEL_MAGIC,
    .version = RS_MODEL_VERSION,
    .name = "rt_two_springs",
    .n_q = 2, .n_p = 4, .n_out = 3,
    .q_names = two_q_names,
    .p_names = two_p_names,
    .output_names = two_out_names,
    .p_default = two_p_default,
    .M_pattern = {2, 2, two_M_colptr, two_M_rowind},
    .phi_q_pattern = {0, 2, 0, 0},
    .fn = {
        [RS_FN_M] = {two_M, 1, two_len_M, 0},
        [RS_FN_DELTA] = {two_delta, 1, two_len_delta, 0},
        [RS_FN_OUTPUTS] = {two_outputs, 1, two_len_out, 0},
        [RS_FN_POWER] = {two_power, 1, two_len_power, 0},
    },
};

#define DT 1e-3

/* A workspace at x = (0.01, −0.02), at rest, initialized. */
static rs_ws *two_ws(rs_method method)
{
    rs_ws *ws = rt_ws_new(&two_model, method, DT, 1e-10);
    rs_ws_q(ws)[0] = 0.01;
    rs_ws_q(ws)[1] = -0.02;
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    return ws;
}

/* One step; the eager q̈ (q̇ₙ₊₁ − q̇ₙ)/Δt into a[2], as rs_step wrote it. */
static void step_eager(rs_ws *ws, double dt, double a[2])
{
    const double v0[2] = {rs_ws_qd(ws)[0], rs_ws_qd(ws)[1]};
    ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
    for (int j = 0; j < 2; j++)
        a[j] = (rs_ws_qd(ws)[j] - v0[j]) / dt;
}

/* The outputs' q̈ is a[] to the bit (and the velocities moved: a ≠ 0). */
static void assert_outputs_qdd(rs_ws *ws, const double a[2], const char *when)
{
    double o[3];
    ck_assert_msg(rs_ws_outputs(ws, o) == RS_OK, "%s", rs_ws_error(ws));
    for (int j = 0; j < 2; j++)
        ck_assert_msg(o[j] == a[j] && a[j] != 0.0, "%s: output q_dd[%d] %.17g, the step's %.17g", when, j,
                      o[j], a[j]);
}

/* The outputs' q̈ is M⁻¹ δ at x, by hand (the initial solve's). */
static void assert_initial_qdd(rs_ws *ws, double x1, double x2, const char *when)
{
    double o[3];
    ck_assert_int_eq(rs_ws_outputs(ws, o), RS_OK);
    const double d1 = -800.0 * x1 + 300.0 * (x2 - x1), d2 = -300.0 * (x2 - x1);
    ck_assert_msg(fabs(o[0] - d1 / 2.0) < 1e-12 * fabs(d1) && fabs(o[1] - d2 / 0.5) < 1e-12 * fabs(d2),
                  "%s: q_dd (%.17g, %.17g), by hand (%.17g, %.17g)", when, o[0], o[1], d1 / 2.0, d2 / 0.5);
}

/* The first read, and one after rs_ws_init again at another state (the
 * steps' pending q̈ dropped): the initial state's q̈. */
START_TEST(test_first_read_initial_state)
{
    rs_ws *ws = two_ws(RS_IMEX_EULER);
    assert_initial_qdd(ws, 0.01, -0.02, "first read");
    for (int n = 0; n < 5; n++)
        ck_assert_int_eq(rs_step(ws), RS_OK);
    rs_ws_q(ws)[0] = -0.03;
    rs_ws_q(ws)[1] = 0.015;
    rs_ws_qd(ws)[0] = rs_ws_qd(ws)[1] = 0.0;
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    assert_initial_qdd(ws, -0.03, 0.015, "after rs_ws_init again");
    rs_ws_free(&ws);
}
END_TEST

/* Read after every step, or only every 7th: the same bits. */
START_TEST(test_every_step_and_sparse_reads)
{
    rs_ws *a = two_ws(RS_IMEX_EULER), *b = two_ws(RS_IMEX_EULER);
    for (int n = 1; n <= 50; n++) {
        double ea[2], eb[2];
        step_eager(a, DT, ea);
        step_eager(b, DT, eb);
        ck_assert(ea[0] == eb[0] && ea[1] == eb[1]);
        assert_outputs_qdd(a, ea, "every step");
        if (n % 7 == 0)
            assert_outputs_qdd(b, eb, "every 7th step");
    }
    rs_ws_free(&a);
    rs_ws_free(&b);
}
END_TEST

/* q̇ (and q) written between the step and the read: the outputs keep the
 * step's q̈, as when the step divided at once. */
START_TEST(test_state_written_after_step)
{
    rs_ws *ws = two_ws(RS_IMEX_EULER);
    double a[2];
    for (int n = 0; n < 5; n++)
        step_eager(ws, DT, a);
    rs_ws_qd(ws)[0] += 3.0;
    rs_ws_qd(ws)[1] = -7.0;
    ck_assert_int_eq(rs_ws_set_qd(ws, "x1_dot", 0.25), RS_OK);
    rs_ws_q(ws)[0] = 0.5;
    assert_outputs_qdd(ws, a, "after writing q and q_dot");
    rs_ws_free(&ws);
}
END_TEST

/* A step that fails after its start (a non-finite parameter: its q̇ₙ was
 * copied over the one the pending q̈ needed) leaves the last good step's q̈. */
START_TEST(test_failed_step_keeps_last_qdd)
{
    rs_ws *ws = two_ws(RS_IMEX_EULER);
    double a[2];
    for (int n = 0; n < 3; n++)
        step_eager(ws, DT, a);
    const double v[2] = {rs_ws_qd(ws)[0], rs_ws_qd(ws)[1]};
    ck_assert_int_eq(rs_ws_set_param(ws, "k1", NAN), RS_OK);
    ck_assert_int_eq(rs_step(ws), RS_E_NONFINITE);
    ck_assert(rs_ws_qd(ws)[0] == v[0] && rs_ws_qd(ws)[1] == v[1]); /* the state restored */
    ck_assert_int_eq(rs_ws_set_param(ws, "k1", 800.0), RS_OK);
    assert_outputs_qdd(ws, a, "after a failed step");
    /* and twice in a row, then a good step */
    ck_assert_int_eq(rs_ws_set_param(ws, "k1", NAN), RS_OK);
    ck_assert_int_eq(rs_step(ws), RS_E_NONFINITE);
    ck_assert_int_eq(rs_step(ws), RS_E_NONFINITE);
    ck_assert_int_eq(rs_ws_set_param(ws, "k1", 800.0), RS_OK);
    assert_outputs_qdd(ws, a, "after two failed steps");
    step_eager(ws, DT, a);
    assert_outputs_qdd(ws, a, "after a good step");
    rs_ws_free(&ws);
}
END_TEST

/* A state saved with q̈ pending carries that q̈: restored after later
 * steps, read or not (an odd number: the step alternates the two copies of
 * q̇ₙ), the outputs give it again. */
START_TEST(test_saved_state_carries_qdd)
{
    rs_ws *ws = two_ws(RS_IMEX_EULER);
    double a[2], later[2];
    for (int n = 0; n < 4; n++)
        step_eager(ws, DT, a);
    const size_t len = rs_ws_state_size(ws);
    void *buf = malloc(len);
    ck_assert_ptr_nonnull(buf);
    ck_assert_int_eq(rs_ws_state_save(ws, buf, len), RS_OK);
    for (int n = 0; n < 5; n++)
        step_eager(ws, DT, later);
    ck_assert(later[0] != a[0]);
    ck_assert_int_eq(rs_ws_state_restore(ws, buf, len), RS_OK);
    assert_outputs_qdd(ws, a, "restored, five steps on, unread");
    for (int n = 0; n < 6; n++)
        step_eager(ws, DT, later);
    assert_outputs_qdd(ws, later, "six steps on");
    ck_assert_int_eq(rs_ws_state_restore(ws, buf, len), RS_OK);
    assert_outputs_qdd(ws, a, "restored, six steps on, read");
    /* a second workspace restored from it, never stepped */
    rs_ws *w2 = two_ws(RS_IMEX_EULER);
    ck_assert_int_eq(rs_ws_state_restore(w2, buf, len), RS_OK);
    assert_outputs_qdd(w2, a, "restored into another workspace");
    free(buf);
    rs_ws_free(&ws);
    rs_ws_free(&w2);
}
END_TEST

/* Δt changed between the step and the read: the step's own Δt divides. */
START_TEST(test_dt_changed_before_read)
{
    rs_ws *ws = two_ws(RS_IMEX_EULER);
    double a[2];
    step_eager(ws, DT, a);
    ck_assert_int_eq(rs_ws_set_dt(ws, 4 * DT), RS_OK);
    assert_outputs_qdd(ws, a, "after rs_ws_set_dt");
    step_eager(ws, 4 * DT, a);
    assert_outputs_qdd(ws, a, "a step of the new dt");
    rs_ws_free(&ws);
}
END_TEST

/* The power terms read q̈ as well: P_inputs = m1 q̈1 ẋ1 of the step. */
START_TEST(test_power_reads_qdd)
{
    rs_ws *ws = two_ws(RS_IMEX_EULER);
    double a[2], pw[RS_POWER_COUNT];
    for (int n = 0; n < 3; n++)
        step_eager(ws, DT, a);
    ck_assert_int_eq(rs_ws_power(ws, pw), RS_OK);
    const double want = 2.0 * a[0] * rs_ws_qd(ws)[0];
    ck_assert_msg(pw[RS_POWER_INPUTS] == want && want != 0.0, "power %.17g, the step's %.17g",
                  pw[RS_POWER_INPUTS], want);
    rs_ws_free(&ws);
}
END_TEST

/* RK4 writes its last stage's q̈ (kv[3]; that stage's state is O(h²) from
 * the step's end) and leaves nothing pending: the outputs follow the
 * oscillation, q̈1 = δ1/m1 at the state to 1e-4 (1.3e-6 here). */
START_TEST(test_rk4_last_stage)
{
    rs_ws *ws = two_ws(RS_RK4);
    for (int n = 0; n < 20; n++)
        ck_assert_int_eq(rs_step(ws), RS_OK);
    double o[3];
    ck_assert_int_eq(rs_ws_outputs(ws, o), RS_OK);
    const double *q = rs_ws_q(ws);
    const double d1 = -800.0 * q[0] + 300.0 * (q[1] - q[0]);
    ck_assert_msg(fabs(o[0] - d1 / 2.0) < 1e-4 * fabs(d1 / 2.0), "rk4 q_dd1 %.9g, at the state %.9g", o[0],
                  d1 / 2.0);
    printf("rk4, 20 steps: q_dd1 %.9g, M^-1 delta at the state %.9g (initial %.9g)\n", o[0], d1 / 2.0,
           (-800.0 * 0.01 + 300.0 * -0.03) / 2.0);
    rs_ws_free(&ws);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("rt_qdd");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_first_read_initial_state);
    tcase_add_test(tc, test_every_step_and_sparse_reads);
    tcase_add_test(tc, test_state_written_after_step);
    tcase_add_test(tc, test_failed_step_keeps_last_qdd);
    tcase_add_test(tc, test_saved_state_carries_qdd);
    tcase_add_test(tc, test_dt_changed_before_read);
    tcase_add_test(tc, test_power_reads_qdd);
    tcase_add_test(tc, test_rk4_last_stage);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
