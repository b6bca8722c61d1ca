/*
 * test_park_probe.c — the probe that runs a period's steps on the caller
 * alone when that is faster (rs_park_opts.probe, for busy machines) never
 * changes a bit of the trajectory:
 *
 *   - a train of 16 vehicles (traction, free play, buffers), 600 steps with
 *     two corrections and a re-plan every 10 steps: 3 threads with the
 *     probe every 20 steps give the trajectory of 1 thread bit for bit, and
 *     so do 3 threads without the probe;
 *   - the probe ran both ways, whatever the machine's load: at least its 5
 *     serial and 5 team steps in each of the 30 periods, so both paths (and
 *     the switches between them) are covered;
 *   - without the probe no step runs serially; with one thread every step
 *     does (serial_steps counts them);
 *   - a probe period below 20 steps (the probe's own 10 steps twice) is
 *     refused with a message naming it.
 * Which way the rest of a period runs depends on the machine's load; the
 * test asserts nothing about that.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "rs_test.h"
#include "rs_train.h"

#define NV 16
#define STEPS 600

typedef struct run_out {
    double *traj;
    long serial_steps, steps;
} run_out;

static int make(rs_train **tr, int threads, int probe, char *err, size_t errlen)
{
    rs_wagon veh[NV];
    rs_coupler cpl[NV - 1];
    static const double tt[3] = {0.0, 0.2, 0.5}, ff[3] = {0.0, 4e5, -1e5};
    for (int v = 0; v < NV; v++) {
        if (v % 6 == 0) {
            rs_loco_default(&veh[v]);
            veh[v].traction_n = 3;
            veh[v].traction_t = tt;
            veh[v].traction_f = ff;
        } else {
            rs_wagon_default(&veh[v]);
            veh[v].m_body = 24000.0 + 3000.0 * (v % 4);
        }
    }
    for (int c = 0; c < NV - 1; c++) {
        rs_coupler_default(&cpl[c]);
        cpl[c].slack = 0.01 * (c % 3);
        cpl[c].k_buffer = 4e7;
    }
    rs_park_opts o;
    rs_park_opts_default(&o);
    o.threads = threads;
    o.rebalance = 10;
    o.corrections = 2;
    o.probe = probe;
    return rs_train_create(tr, NV, veh, NULL, cpl, NULL, &o, err, errlen);
}

static run_out run(int threads, int probe)
{
    rs_train *tr;
    char err[512];
    ck_assert_msg(make(&tr, threads, probe, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(rs_train_start(tr, 0.0, 0.0, 0.5), RS_OK);
    rs_park *pk = rs_train_park(tr);
    const int n = rs_park_n(pk);
    run_out r;
    r.traj = malloc((size_t)STEPS * 2 * (size_t)n * sizeof(double));
    ck_assert_ptr_nonnull(r.traj);
    for (int s = 0; s < STEPS; s++) {
        ck_assert_msg(rs_train_step(tr) == RS_OK, "%s", rs_park_error(pk));
        memcpy(r.traj + (size_t)s * 2 * n, rs_park_q(pk), (size_t)n * sizeof(double));
        memcpy(r.traj + (size_t)s * 2 * n + n, rs_park_qd(pk), (size_t)n * sizeof(double));
    }
    r.serial_steps = rs_park_get_stats(pk)->serial_steps;
    r.steps = rs_park_get_stats(pk)->steps;
    rs_train_free(&tr);
    return r;
}

START_TEST(test_probe_bit_identical)
{
    const size_t bytes = (size_t)STEPS * 2 * NV * RS_WAGON_NQ * sizeof(double);
    run_out r1 = run(1, 0);
    ck_assert_int_eq(r1.steps, STEPS);
    ck_assert_int_eq(r1.serial_steps, STEPS);   /* one thread: every step on the caller */
    run_out team = run(3, 0);
    ck_assert_int_eq(team.serial_steps, 0);
    ck_assert_msg(memcmp(r1.traj, team.traj, bytes) == 0, "3 threads without the probe differ from one");
    run_out probe = run(3, 20);
    printf("probe: %ld of %d steps on the caller alone (3 threads, a probe every 20 steps)\n", probe.serial_steps,
           STEPS);
    ck_assert_msg(memcmp(r1.traj, probe.traj, bytes) == 0, "3 threads with the probe differ from one");
    /* 30 periods of 20 steps: 5 serial and 5 team steps in each at least */
    ck_assert_int_ge(probe.serial_steps, 30 * 5);
    ck_assert_int_le(probe.serial_steps, STEPS - 30 * 5);
    free(r1.traj);
    free(team.traj);
    free(probe.traj);
}
END_TEST

START_TEST(test_probe_option_checked)
{
    rs_train *tr = NULL;
    char err[512] = "";
    ck_assert_int_eq(make(&tr, 2, 19, err, sizeof err), RS_E_ARG);
    ck_assert_ptr_null(tr);
    ck_assert_msg(strstr(err, "probe 0 or >= 20 (19)"), "%s", err);
    ck_assert_int_eq(make(&tr, 2, 20, err, sizeof err), RS_OK);
    rs_train_free(&tr);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("park_probe");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_probe_bit_identical);
    tcase_add_test(tc, test_probe_option_checked);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return rs_test_run(suite()); }
