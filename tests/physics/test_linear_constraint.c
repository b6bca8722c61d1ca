/*
 * test_linear_constraint.c — `railsym linear` with the constraint contact on
 * S1002/60E1 1:40 (issue 22): the S1002 wheelset's eigenvalue against runs
 * of the same contact.
 *
 * Why it exists: the cone wheelset (test_linear) agrees with its runs; on
 * S1002 the 1:40 contact angle's steady spin creepage makes the creep
 * block's change with the displaced contact's curvature radii and reference
 * speed V first order (Cb ∝ (ab)^k / V), which the linearization held
 * fixed: ζ 0.019688 at 15 m/s (+14 % against these runs).  It now re-forms
 * the block at each displaced state (rs_linear.c): ζ 0.017267.
 *
 *   - s1002_constraint_eigen_vs_run: generated/wheelset, constraint
 *     contact, Kalker, at 8, 15 and 25 m/s: the least-damped eigenvalue
 *     against runs of the same workspace released 0.5 µm off centre (IMEX;
 *     8, 5.5, 4 s, measured after the first) at Δt 4e-5 and 2e-5 s,
 *     extrapolated to Δt → 0 as 2 ζ(2e-5) − ζ(4e-5) (first order: at 15 m/s
 *     over 8 s ζ 0.0169287, 0.0170986, 0.0171836, 0.0172260 at Δt 4e-5,
 *     2e-5, 1e-5, 5e-6 s).  Measured (linear against runs): 8 m/s 0.721775 /
 *     0.721751 Hz, ζ 0.0383717 / 0.0383725; 15 m/s 1.35376 / 1.35374 Hz,
 *     ζ 0.0172672 / 0.0172682; 25 m/s 2.24104 / 2.24102 Hz, ζ −0.0341632 /
 *     −0.0341619: frequencies within 0.003 %, damping ratios within
 *     0.006 %.  The extrapolation's own error: from Δt 1e-5 and 5e-6 s
 *     instead (8 s runs), ζ 0.03837246, 0.01726849, −0.03416315, within
 *     2e-4 % of the coarser pairs'.  Held to 0.05 % (frequency) and 0.1 %
 *     (damping ratio); the held creep block (ζ 0.019688, +14 %) fails it,
 *     as does a release off the manifold (below: at 8 m/s already the
 *     frequency, +0.22 %).
 *
 * The runs project to `tolerance 1e-12`.  With the default 1e-6 m the
 * release (y moved, z and roll not) leaves the constraints violated by
 * about 5e-8 m, below the tolerance, so never projected: the run then moves
 * with that violation held constant (φ_q q̇ = β keeps it), which adds a
 * constant yaw acceleration (1.9e-5 rad/s² at 0.5 µm, in proportion to the
 * amplitude) and shifts the equilibrium the decay is measured about: ζ
 * 0.018186 at Δt → 0, +5.3 %, whatever the amplitude (0.1 to 4 µm) — the
 * gap issue 22 was about.  The same release with z and roll moved with it
 * (on the manifold) gives 0.0170986 at 2e-5 s under either tolerance.
 * tests/physics/test_linear_fd.c checks the linear model itself against
 * the runtime's dynamics, entry by entry.
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
#include "rs_test_linear.h"
#include "rt_fixtures.h"

#define ZETA_TOL 0.001 /* relative; the frequency 0.0005 */

/* Frequency and damping ratio of a run at step dt from the linearized
 * state of generated/wheelset at V; the linear answer into f_lin, z_lin. */
static void run_at(double V, double T, const char *dt_text, int reinit, double *f_lin, double *z_lin, double *f_sim,
                   double *z_sim)
{
    const double amp = 0.5e-6, dt = atof(dt_text);
    char set[512];
    /* tolerance: the release projected (the header); reinit: the default
     * tolerance, the release projected by rs_ws_init, as a run's start */
    snprintf(set, sizeof set, "contact constraint\ncreep kalker\nfriction 0\nstep %s\nmethod imex%s", dt_text,
             reinit ? "" : "\ntolerance 1e-12");
    rs_linear_opened o;
    rs_ws *ws = rs_test_linear_least(&o, "generated/wheelset", set, 0, V, f_lin, z_lin);
    const rs_model *m = o.m;
    const int iy = rt_coord_index(m, "y");
    const double y0 = rs_ws_q(ws)[iy];
    rs_ws_q(ws)[iy] += amp;
    if (reinit) {   /* the initial projection goes on to round-off */
        ck_assert_msg(rs_ws_init(ws) == RS_OK, "%s", rs_ws_error(ws));
        ck_assert_msg(rs_ws_stats(ws)->pos_residual <= 1e-13, "after rs_ws_init |phi| = %g",
                      rs_ws_stats(ws)->pos_residual);
    }
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
    /* run lengths: six periods or more after the first second */
    const double speeds[] = {8, 15, 25}, T[] = {8, 5.5, 4};
    for (int k = 0; k < 3; k++) {
        const double V = speeds[k];
        double f_lin, z_lin, f1, z1, f2, z2;
        run_at(V, T[k], "4e-5", 0, &f_lin, &z_lin, &f1, &z1);
        run_at(V, T[k], "2e-5", 0, &f_lin, &z_lin, &f2, &z2);
        const double z0 = 2 * z2 - z1, f0 = 2 * f2 - f1;
        printf("S1002 wheelset, constraint, %g m/s: linear %.6g Hz, zeta %.6g; runs at dt -> 0 %.6g Hz, zeta %.6g "
               "(%+.3f %%, %+.3f %%)\n", V, f_lin, z_lin, f0, z0, 100 * (f_lin - f0) / f0, 100 * (z_lin - z0) / z0);
        ck_assert_msg(fabs(f0 - f_lin) < 0.0005 * f_lin, "%g m/s: frequency: linear %.6g Hz, runs %.6g Hz", V, f_lin,
                      f0);
        ck_assert_msg(fabs(z0 - z_lin) < ZETA_TOL * fabs(z0), "%g m/s: damping ratio: linear %.6g, runs %.6g", V,
                      z_lin, z0);
    }
}
END_TEST

/* A run's start: rs_ws_init projects its state onto the constraints to
 * round-off (rs_step.c project, `initial`), so the same release with the
 * default tolerance 1e-6 m decays as the one projected to 1e-12 (before:
 * ζ +5.3 %, the header). */
START_TEST(start_projected_to_roundoff)
{
    double f_lin, z_lin, f1, z1, f2, z2;
    run_at(15, 5.5, "4e-5", 1, &f_lin, &z_lin, &f1, &z1);
    run_at(15, 5.5, "2e-5", 1, &f_lin, &z_lin, &f2, &z2);
    const double z0 = 2 * z2 - z1, f0 = 2 * f2 - f1;
    printf("S1002 wheelset, constraint, 15 m/s, released through rs_ws_init: runs at dt -> 0 %.6g Hz, zeta %.6g "
           "(%+.3f %%, %+.3f %%)\n", f0, z0, 100 * (f_lin - f0) / f0, 100 * (z_lin - z0) / z0);
    ck_assert_msg(fabs(f0 - f_lin) < 0.0005 * f_lin, "frequency: linear %.6g Hz, runs %.6g Hz", f_lin, f0);
    ck_assert_msg(fabs(z0 - z_lin) < ZETA_TOL * fabs(z0), "damping ratio: linear %.6g, runs %.6g", z_lin, z0);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("linear_constraint");
    TCase *tc = tcase_create("linear_constraint");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, s1002_constraint_eigen_vs_run);
    tcase_add_test(tc, start_projected_to_roundoff);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return rs_test_run(suite()); }
