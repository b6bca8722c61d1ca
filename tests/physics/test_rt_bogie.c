/*
 * test_rt_bogie.c — the two-axle bogie (vehicles/examples/bogie.vdl: a frame
 * on two S1002/60E1 wheelsets through primary suspensions, 18 coordinates,
 * 4 contacts), compiled into generated/bogie/, loaded with libtcc.
 *
 *  - reproducible: `railsym compile vehicles/examples/bogie.vdl` into a
 *    temporary folder gives generated/bogie/ byte for byte;
 *  - statics: at rest (damped until settled) the vertical components of the
 *    four normal forces, N_i cos α_i with α_i the rail profile's slope at the
 *    contact point (read from the profile file, not from the model), add up
 *    to the weight (m_f + 2 m_ws) g computed from the parameters; left and
 *    right, front and rear carry the same by symmetry;
 *  - running at 20 m/s with the wheelsets released slightly off centre:
 *    |φ^n| (max |φ| after each step) and |φ^d| (the generated function,
 *    evaluated here at the workspace's state) stay below 1e-6 over 1 s.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rs_contact.h"
#include "rs_load.h"
#include "rs_profile.h"
#include "rs_ws.h"
#include "rs_ws_impl.h" /* φ^d evaluated at the workspace state */
#include "rs_test.h"
#include "rs_test_contact.h"

#define DIR_BOGIE "generated/bogie"

static const char *railsym_bin(void)
{
    const char *b = getenv("RAILSYM_BIN");
    return b && *b ? b : "build/railsym";
}

static double param(rs_ws *ws, const char *name)
{
    rs_var v;
    ck_assert_msg(rs_model_find(rs_ws_model(ws), name, &v) == RS_OK, "%s", name);
    return rs_ws_p(ws)[v.index];
}

START_TEST(test_bogie_reproducible)
{
    RS_REQUIRE_MODEL("bogie");
    char dir[] = "/tmp/railsym_bogie_XXXXXX", cmd[1200];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "%s compile vehicles/examples/bogie.vdl -o %s/bogie 2>&1",
             railsym_bin(), dir);
    ck_assert_msg(system(cmd) == 0, "%s failed", cmd);
    /* the folder's place shows only in model.json's contact_root (the
     * compile's working directory seen from the folder: docs/vdl.md) and so
     * in the descriptor's hash of model.json; every other byte is the same */
    snprintf(cmd, sizeof cmd, "diff -r -I '\"contact_root\": ' -I 'content_hash = ' %s/bogie " DIR_BOGIE, dir);
    int differs = system(cmd);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
    ck_assert_msg(differs == 0, "generated/bogie/ differs from a fresh compile of bogie.vdl");
}
END_TEST

START_TEST(test_bogie_statics)
{
    RS_REQUIRE_MODEL("bogie");
    char err[2000];
    rs_loaded *h = rs_load(DIR_BOGIE, RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    const rs_model *m = rs_loaded_model(h);
    ck_assert_int_eq(m->n_q, 18);
    ck_assert_int_eq(m->n_contact, 4);
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    o.proj_tol = 1e-9;
    rs_ws *ws;
    ck_assert_msg(rs_ws_create(m, &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    /* heavy primary damping: the frame's bounce settles within the run */
    ck_assert_int_eq(rs_ws_set_param(ws, "cpz", 1e5), RS_OK);
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    for (int n = 0; n < 3000; n++)
        ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
    const double W = (param(ws, "m_f") + 2 * param(ws, "m_ws")) * param(ws, "g");
    rs_profile rail;
    ck_assert_int_eq(rs_profile_load(&rail, m->contacts[0].spline[RS_SPLINE_RAIL].file, err,
                                     sizeof err), 0);
    double N[4], sum = 0;
    for (int i = 0; i < 4; i++) {
        const rs_contact *c = &m->contacts[i];
        ck_assert_msg(strcmp(c->spline[RS_SPLINE_RAIL].file,
                             m->contacts[0].spline[RS_SPLINE_RAIL].file) == 0, "one rail");
        N[i] = -rs_ws_lambda(ws)[c->phi_row];
        double d1;
        rs_profile_eval(&rail, rs_ws_s(ws)[c->s_slot[3]], NULL, &d1, NULL);
        const double cosa = 1 / sqrt(1 + d1 * d1);
        sum += N[i] * cosa;
        printf("bogie statics: %s N = %.6f N (cos alpha %.9f, u_r = %.6g m)\n", c->name, N[i],
               cosa, rs_ws_s(ws)[c->s_slot[3]]);
    }
    printf("bogie statics: sum N cos(alpha) = %.6f N, weight (m_f + 2 m_ws) g = %.6f N (%.2e)\n",
           sum, W, (sum - W) / W);
    ck_assert_msg(fabs(sum - W) < 1e-6 * W, "sum %.9g vs weight %.9g", sum, W);
    for (int i = 1; i < 4; i++)
        ck_assert_msg(fabs(N[i] - N[0]) < 1e-6 * N[0], "N[%d] %.9g vs N[0] %.9g", i, N[i], N[0]);
    rs_profile_free(&rail);
    rs_ws_free(&ws);
    rs_unload(&h);
}
END_TEST

START_TEST(test_bogie_run_constraints)
{
    RS_REQUIRE_MODEL("bogie");
    char err[2000];
    rs_loaded *h = rs_load(DIR_BOGIE, RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    const rs_model *m = rs_loaded_model(h);
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    rs_ws *ws;
    ck_assert_msg(rs_ws_create(m, &o, &ws, err, sizeof err) == RS_OK, "%s", err);
    const double v = 20, r0 = param(ws, "r0");
    static const char *const x_dot[] = {"x_dot", "front.x_dot", "rear.x_dot"};
    for (int k = 0; k < 3; k++)
        ck_assert_int_eq(rs_ws_set_qd(ws, x_dot[k], v), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "front.spin_dot", v / r0), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "rear.spin_dot", v / r0), RS_OK);
    /* slightly off centre and yawed: the motion is not symmetric */
    ck_assert_int_eq(rs_ws_set_q(ws, "front.y", 2e-4), RS_OK);
    ck_assert_int_eq(rs_ws_set_q(ws, "rear.y", -1e-4), RS_OK);
    ck_assert_int_eq(rs_ws_set_q(ws, "yaw", 1e-4), RS_OK);
    ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
    double worst = 0, worst_d = 0, ymax = 0;
    for (int n = 0; n < 1000; n++) {
        ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
        double pos, vel;
        ck_assert_int_eq(rs_ws_residuals(ws, &pos, &vel), RS_OK);
        worst = fmax(worst, pos);
        worst_d = fmax(worst_d, rs_test_phi_d_max(ws));
        ymax = fmax(ymax, fabs(rs_ws_q(ws)[6 + 1]));
    }
    const rs_stats *st = rs_ws_stats(ws);
    printf("bogie run: 1000 steps of 1 ms at %g m/s, max |phi_n| %.3g, max |phi_d| %.3g, "
           "max |front.y| %.3g m, Newton iterations per step: contact %.2f, projection %.2f\n",
           v, worst, worst_d, ymax, (double)st->contact_iters / (double)st->steps,
           (double)st->proj_iters / (double)st->steps);
    ck_assert_msg(worst < 1e-6, "max |phi_n| %g", worst);
    ck_assert_msg(worst_d < 1e-6, "max |phi_d| %g", worst_d);
    ck_assert(rs_ws_q(ws)[0] > 19.9 && rs_ws_q(ws)[0] < 20.1);
    rs_ws_free(&ws);
    rs_unload(&h);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("rt_bogie");
    TCase *tc = tcase_create("bogie");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_bogie_reproducible);
    tcase_add_test(tc, test_bogie_statics);
    tcase_add_test(tc, test_bogie_run_constraints);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
