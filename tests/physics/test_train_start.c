/*
 * test_train_start.c — a train's start-up (docs/trains.md "Initial states")
 * of an elastic-contact vehicle from a train file that leaves coordinates
 * and velocities out: the static equilibrium puts the wheels on their rails,
 * steady rolling spins them at the speed they move.
 *
 * The climb rig (generated/climb: independently rotating S1002 wheels on
 * 60E1 1:40, yaw held at ψ = 20 mrad, elastic contact) given only its speed.
 * Before this test's fix the steady-rolling Newton ran away on the
 * saturated creep law (FASTSIM, or Kalker's law with μ): from wheels at
 * rest it put the spins at ±1e21 rad/s, the normal forces vanished in
 * rounding and the wheelset fell through its rails (ż = −g t, N = 0 from
 * the first step, the forward speed 1 → 0.886 m/s in 2 ms).
 *
 * Against hand answers: the wheels' vertical loads Q_l + Q_r carry the
 * weight (m_ax + 2 m_w) g; each spin rolls the wheel at V (ω r0 / V = 1
 * within the rolling radius's change at the contact, 0.3 %); over 50 ms the
 * wheelset stays on its rails (every step both wheels loaded, z within
 * 20 µm of the start, the forward speed within 0.5 % of V).  A wheel whose
 * spin steady rolling cannot find (held by a spring) is refused.
 */
#define _GNU_SOURCE
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rs_park.h"
#include "rs_runtime.h"
#include "rs_train.h"
#include "rs_train_contact.h"
#include "rs_train_file.h"
#include "rs_test.h"
#include "rt_fixtures.h"
#include "test_sweep_util.h"

#define V0 1.0 /* m/s */

/* The climb rig given only its contact, creep law and the train's speed. */
static rs_train_spec *bare_rig(const char *creep)
{
    char cwd[1024], text[2048], err[2048];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    snprintf(text, sizeof text,
             "duration 0.05\nstep 1e-4\nspeed %g\nsolver gmres\n"
             "vehicle rig model %s/generated/climb\n"
             "  x_coord x\n  pitch_coord none\n  l_front = 0\n  l_rear = 0\n"
             "  contact elastic\n  creep %s\n  contact_mu = 0.3\n"
             "end\norder\n  rig 1\nend\n",
             V0, cwd, creep);
    rs_train_spec *S = NULL;
    ck_assert_msg(rs_train_spec_parse(text, "bare.train", &S, err, sizeof err) == RS_OK, "%s", err);
    return S;
}

static rs_train *start(rs_train_spec *S)
{
    rs_park_opts o;
    rs_train_spec_opts(S, &o);
    rs_train *tr = NULL;
    char err[1024];
    const char *name = S->vname[0];
    ck_assert_msg(rs_train_create(&tr, 1, S->veh, &name, S->cpl, NULL, &o, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_train_start(tr, 0.0, 0.0, S->speed) == RS_OK, "%s", rs_train_error(tr));
    return tr;
}

static double value(rs_train *tr, int i, int k) { return rs_train_wheel_contact_value(rs_train_contact(tr, 0), i, k); }

static void check_start(const char *creep)
{
    rs_train_spec *S = bare_rig(creep);
    const rs_model *m = S->veh[0].model;
    rs_train *tr = start(S);
    const int iz = rt_coord_index(m, "z"), iw[2] = {rt_coord_index(m, "spin_l"), rt_coord_index(m, "spin_r")};
    const double r0 = rt_param_default(m, "r0"), g = rt_param_default(m, "g"),
                 weight = (rt_param_default(m, "m_ax") + 2 * rt_param_default(m, "m_w")) * g;
    const double *q = rs_train_q(tr, 0), *qd = rs_train_qd(tr, 0);
    const double z0 = q[iz];
    /* the start is evaluated (rs_park_init): its loads */
    const double Q = value(tr, 0, RS_CONTACT_VAR_Q) + value(tr, 1, RS_CONTACT_VAR_Q);
    printf("%s: start z = %.4f mm, spins %.6f, %.6f rad/s (V/r0 = %.6f), Q_l + Q_r = %.3f N, weight %.3f N\n", creep,
           z0 * 1e3, qd[iw[0]], qd[iw[1]], V0 / r0, Q, weight);
    ck_assert_msg(fabs(Q / weight - 1) < 1e-6, "%s: Q_l + Q_r = %.6f N, weight %.6f N", creep, Q, weight);
    for (int k = 0; k < 2; k++)
        ck_assert_msg(fabs(qd[iw[k]] * r0 / V0 - 1) < 3e-3, "%s: spin %d at %.6g rad/s, V/r0 = %.6g rad/s", creep,
                      k, qd[iw[k]], V0 / r0);
    double dz = 0, dv = 0, nmin = INFINITY;
    const long n = lround(S->duration / S->step);
    for (long s = 0; s < n; s++) {
        ck_assert_msg(rs_train_step(tr) == RS_OK, "%s, step %ld: %s", creep, s, rs_train_error(tr));
        q = rs_train_q(tr, 0);
        qd = rs_train_qd(tr, 0);
        dz = fmax(dz, fabs(q[iz] - z0));
        dv = fmax(dv, fabs(rs_train_v(tr, 0) - V0));
        nmin = fmin(nmin, fmin(value(tr, 0, RS_CONTACT_VAR_N), value(tr, 1, RS_CONTACT_VAR_N)));
    }
    printf("%s: over %.3f s: |z - z0| <= %.3f um, |v - V| <= %.3g m/s, least N %.1f N\n", creep, S->duration,
           dz * 1e6, dv, nmin);
    ck_assert_msg(nmin > 0.1 * weight / 2, "%s: a wheel's N fell to %g N", creep, nmin);
    ck_assert_msg(dz < 2e-5, "%s: z moved %g m from its start", creep, dz);
    ck_assert_msg(dv < 5e-3 * V0, "%s: the speed moved %g m/s from V", creep, dv);
    rs_train_free(&tr);
    rs_train_spec_free(&S);
}

START_TEST(test_bare_climb_rig_fastsim) { RS_REQUIRE_MODEL("climb"); check_start("fastsim"); }
END_TEST

START_TEST(test_bare_climb_rig_kalker) { RS_REQUIRE_MODEL("climb"); check_start("kalker"); }
END_TEST

/* The rig on a solid axle (k_axle = 1e7 N m/rad between its wheels): its
 * spins have stiffness, so steady rolling leaves them where they are, and
 * the wheels would start sliding at V (creepage 200 %): refused at the
 * vehicle's block, saying what to give; given (V/r0), it starts; given 0
 * (locked: sliding meant), it starts too.  Before, the rig started sliding
 * unasked. */
START_TEST(test_held_spins_refused)
{
    RS_REQUIRE_MODEL("climb");
    char cwd[1024], dir[512], path[700], out[700], text[2048], err[2048];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    sweep_scratch(dir, sizeof dir, "train_start");
    snprintf(path, sizeof path, "%s/axle.train", dir);
    snprintf(out, sizeof out, "%s/axle.csv", dir);
    static const char *const spins[] = {"", "  spin_l_dot = 2.1739\n  spin_r_dot = 2.1739\n",
                                        "  spin_l_dot = 0\n  spin_r_dot = 0\n"};
    for (int given = 0; given < 3; given++) {
        snprintf(text, sizeof text,
                 "duration 0.01\nstep 1e-4\nspeed %g\nsolver gmres\n"
                 "vehicle rig model %s/generated/climb\n"
                 "  x_coord x\n  pitch_coord none\n  l_front = 0\n  l_rear = 0\n"
                 "  contact elastic\n  creep fastsim\n  contact_mu = 0.3\n  k_axle = 1e7\n  c_axle = 1e4\n%s"
                 "end\norder\n  rig 1\nend\n",
                 V0, cwd, spins[given]);
        sweep_write(path, text);
        rs_train_run_cfg cfg = {path, out, 1, NULL, NULL, 0, {0}, 0};
        rs_train_run_report rep;
        const int st = rs_train_run(&cfg, &rep, err, sizeof err);
        printf("solid axle, spins %s: %s %s\n", given == 0 ? "not given" : given == 1 ? "rolling" : "locked",
               rs_status_name(st), st ? err : "");
        if (given) {
            ck_assert_msg(st == RS_OK, "%s", err);
            continue;
        }
        char want[800];
        snprintf(want, sizeof want, "%s:5: initialization failed: vehicle 'rig1': its wheel at contact '", path);
        ck_assert_msg(st == RS_E_ARG && strstr(err, want) &&
                          strstr(err, "would start sliding (longitudinal creepage 200 % at 1 m/s)") &&
                          strstr(err, "give the velocities of its spinning coordinates in the vehicle's block, "
                                      "NAME_dot = VALUE"),
                      "%s", err);
    }
    sweep_rm_rf(dir);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("train_start");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_bare_climb_rig_fastsim);
    tcase_add_test(tc, test_bare_climb_rig_kalker);
    tcase_add_test(tc, test_held_spins_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return rs_test_run(suite()); }
