/*
 * test_linear_constraint.c — `railsym linear` with the constraint contact on
 * S1002/60E1 1:40 (issue 22): the S1002 wheelset's eigenvalue against runs
 * of the same contact.
 *
 * Why it exists: the cone wheelset (test_linear) agrees with its runs; on
 * S1002 the 1:40 contact angle's steady spin creepage makes the creep
 * block's change with the displaced contact's curvature radii and reference
 * speed V first order (Cb ∝ (ab)^k / V), which the linearization held
 * fixed: ζ 0.019688 against the runs' 0.018186 (+8.3 %).  It now re-forms
 * the block at each displaced state (rs_linear.c): ζ 0.017267 (−5.05 %).
 *
 *   - s1002_constraint_eigen_vs_run: generated/wheelset, constraint
 *     contact, Kalker, at 15 m/s: the least-damped eigenvalue against runs
 *     of the same workspace released 0.5 µm off centre (IMEX) at Δt 4e-5
 *     and 2e-5 s: ζ 0.0178147 and 0.0180003, and at 1e-5 / 5e-6 s 0.0180932
 *     / 0.0181397: first order in Δt, so ζ(Δt → 0) = 2 ζ(2e-5) − ζ(4e-5) =
 *     0.018186 (0.0181862 from the two finer runs); the same to 6 digits at
 *     0.1 and 4 µm (linear).  Frequency within 1 % (measured −0.09 %).
 *
 * The damping ratio is held to ZETA_TOL = 6 %, not the 1–2 %: the
 * remaining −5 % is NOT in the creep block.  With the block frozen in the
 * run (a diagnostic hook in rs_contact_creep, not kept) and held in the
 * linearization, with no load term: run 0.021184, linear 0.019997
 * (−5.6 %); with the spin coefficients zeroed in both: run 0.049970,
 * linear 0.041750 (−16 %, frequency −0.7 %).  The block's variation
 * itself agrees: the run's ζ falls by 14.1 % when it is re-formed, the
 * linear ζ by 13.7 %; the loads' term by 1.7 % / 1.8 %.  The held block
 * (+8.3 %) fails this test; a 2 % bound is the target once the remaining
 * term is found (docs/linear.md, "Open").  The gap changes with the speed
 * (same runs and fit): 8 m/s linear 0.721775 Hz, ζ 0.0383717, runs 0.723373
 * Hz, ζ 0.0364192 (+5.4 %); 25 m/s 2.24104 Hz, ζ −0.0341632, runs 2.24143
 * Hz, ζ −0.0343152 (−0.4 %); the runs' forward speed falls by 0.4 mm/s
 * in 8 s (not the cause).
 */
#define _DEFAULT_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "rs_linear.h"
#include "rs_load.h"
#include "rs_test.h"
#include "rs_test_decay.h"
#include "rt_fixtures.h"

#define ZETA_TOL 0.06

static char err[4000];

/* Frequency and damping ratio of a run at step dt from the linearized
 * state of generated/wheelset at V; the linear answer into f_lin, z_lin. */
static void run_at(double V, const char *dt_text, double *f_lin, double *z_lin, double *f_sim, double *z_sim)
{
    const double T = 8, amp = 0.5e-6, dt = atof(dt_text);
    char set[512];
    snprintf(set, sizeof set, "contact constraint\ncreep kalker\nfriction 0\nstep %s\nmethod imex", dt_text);
    rs_linear_config c;
    rs_linear_config_default(&c);
    c.model_dir = "generated/wheelset";
    c.set_text = set;
    c.quiet = 1;
    rs_linear_opened o;
    ck_assert_msg(rs_linear_open(&c, &o, err, sizeof err) == 0, "%s", err);
    rs_ws *ws = NULL;
    ck_assert_msg(rs_linear_ws_at(&o, V, &ws, err, sizeof err) == 0, "%s", err);
    rs_linear_modes md;
    ck_assert_msg(rs_linear_modes_at(ws, &md, err, sizeof err) == 0, "%s", err);
    ck_assert_int_ge(md.least, 0);
    *f_lin = md.mode[md.least].freq;
    *z_lin = md.mode[md.least].zeta;
    rs_linear_modes_free(&md);
    const rs_model *m = o.m;
    const int iy = rt_coord_index(m, "y");
    const double y0 = rs_ws_q(ws)[iy];
    rs_ws_q(ws)[iy] += amp;
    /* measured after the fast modes died out (t > 1 s) */
    const rs_test_decay d = rs_test_decay_run(ws, iy, y0, T, dt, 1.0);
    *f_sim = d.freq;
    *z_sim = d.zeta;
    printf("  dt %s s: run %.6g Hz, zeta %.6g (peak %.3g um)\n", dt_text, *f_sim, *z_sim, 1e6 * d.peak0);
    rs_ws_free(&ws);
    rs_linear_close(&o);
}

START_TEST(s1002_constraint_eigen_vs_run)
{
    const double V = 15;
    double f_lin, z_lin, f1, z1, f2, z2;
    run_at(V, "4e-5", &f_lin, &z_lin, &f1, &z1);
    run_at(V, "2e-5", &f_lin, &z_lin, &f2, &z2);
    const double z0 = 2 * z2 - z1, f0 = 2 * f2 - f1;
    printf("S1002 wheelset, constraint, %g m/s: linear %.6g Hz, zeta %.6g; runs at dt -> 0 %.6g Hz, zeta %.6g "
           "(%+.2f %%)\n", V, f_lin, z_lin, f0, z0, 100 * (z_lin - z0) / z0);
    ck_assert_msg(fabs(f0 - f_lin) < 0.01 * f_lin, "frequency: linear %.6g Hz, runs %.6g Hz", f_lin, f0);
    ck_assert_msg(fabs(z0 - z_lin) < ZETA_TOL * fabs(z0), "damping ratio: linear %.6g, runs %.6g", z_lin, z0);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("linear_constraint");
    TCase *tc = tcase_create("linear_constraint");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, s1002_constraint_eigen_vs_run);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return rs_test_run(suite()); }
