/*
 * test_linear_elastic.c — `railsym linear --elastic` (rs_linear_elastic.c,
 * issue 22): the linearization of the elastic contact against runs of the
 * same contact.
 *
 * Why it exists: on S1002/60E1 1:40 the constraint contact's linearization
 * (Δr' = 0.22 at the centre, conicity 0.11) and the elastic runs disagree —
 * the coach's linear critical speed 92.37 m/s at 4.82 Hz (93.47 before the
 * creep matrices were rebuilt at the displaced state) against the runs'
 * Hopf point 66.9 ± 2.1 m/s at 6.5 Hz; the wheelset (vehicles/examples/
 * wheelset.vdl) at 15 m/s: constraint eigenvalue 1.355 Hz, elastic run
 * 2.25 Hz.  Δr(y) of the pair jumps by 0.45 mm at |y| = 0.25 mm (the
 * contact moves between two tread points; `railsym contact-geometry`); the
 * elastic contact's patches, a few mm wide, average over it.
 *
 *   - s1002_wheelset_eigen_vs_run: generated/wheelset, elastic contact,
 *     Kalker, at 6 m/s: the least-damped eigenvalue of the elastic
 *     linearization against a run of the same workspace released 2 µm off
 *     centre (IMEX, Δt 2e-5 s: its numerical damping O(ω Δt)): frequency
 *     from the zero crossings, damping ratio from the logarithmic
 *     decrement, each within 1 % (the demand).  Measured: linear
 *     0.89791 Hz, ζ 0.023465; run 0.89775 Hz (−0.02 %), ζ 0.023362
 *     (−0.44 %); the run's ζ at Δt 4e-5 / 2e-5 / 1e-5 s: 0.023250 /
 *     0.023362 / 0.023419 (→ 0.02348, the step's first-order error), the
 *     same at 0.5, 2 and 10 µm (linear).  With the step's creep Jacobian
 *     Σ Jᵀ C6 J for C instead of differences, ζ 0.022197 (−5 %): fails;
 *   - s1002_wheelset_fastsim: the same with FASTSIM at μ 0.3, the coach's
 *     law: linear 0.74733 Hz, ζ 0.050326; run 0.74687 Hz (−0.06 %), ζ
 *     0.050231 (−0.19 %);
 *   - coach_against_runs: the coach with coach_hunt.scn (FASTSIM μ 0.3):
 *     the elastic linear critical speed inside the runs' extrapolated Hopf
 *     point 66.9 ± 2.1 m/s (docs/critical_speed.md, `--small 0.00002`,
 *     Δt 1 and 0.5 ms), where the constraint linearization gives 92.37.
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


static char err[4000];

/* generated/wheelset with the elastic contact and the creep law of law
 * ("creep kalker\nfriction 0", ...) at 6 m/s: the least-damped eigenvalue
 * against a run released 2 µm off centre, each within 1 %. */
static void eigen_vs_run(const char *law, const char *label)
{
    const double V = 6, dt = 2e-5, T = 8, amp = 2e-6;
    char set[512];
    snprintf(set, sizeof set, "contact elastic\n%s\nstep 2e-5\nmethod imex\ninitial z = -0.0001\nequilibrium", law);
    rs_linear_opened o;
    double f_lin, z_lin;
    rs_ws *ws = rs_test_linear_least(&o, "generated/wheelset", set, 1, V, &f_lin, &z_lin);
    /* the run from the linearized state (spins rolling, settled) */
    const rs_model *m = o.m;
    const int iy = rt_coord_index(m, "y");
    const double y0 = rs_ws_q(ws)[iy];
    rs_ws_q(ws)[iy] += amp;
    /* measured after the fast modes died out (t > 1 s) */
    const rs_test_decay d = rs_test_decay_run(ws, iy, y0, T, dt, 1.0);
    const double f_sim = d.freq, z_sim = d.zeta;
    printf("S1002 wheelset, elastic, %s, %g m/s: linear %.6g Hz, zeta %.6g; run %.6g Hz, zeta %.6g (peak %.3g um)\n",
           label, V, f_lin, z_lin, f_sim, z_sim, 1e6 * d.peak0);
    ck_assert_msg(fabs(f_sim - f_lin) < 0.01 * f_lin, "frequency: linear %.6g Hz, run %.6g Hz", f_lin, f_sim);
    ck_assert_msg(fabs(z_sim - z_lin) < 0.01 * fabs(z_lin), "damping ratio: linear %.6g, run %.6g", z_lin, z_sim);
    rs_ws_free(&ws);
    rs_linear_close(&o);
}

START_TEST(s1002_wheelset_eigen_vs_run) { eigen_vs_run("creep kalker\nfriction 0", "Kalker"); }
END_TEST

/* the coach's law (coach_hunt.scn): the differences linearize FASTSIM
 * about the steady creepages (spin, the rolling's longitudinal) */
START_TEST(s1002_wheelset_fastsim) { eigen_vs_run("creep fastsim\nfriction 0.3", "FASTSIM mu 0.3"); }
END_TEST

START_TEST(coach_against_runs)
{
    rs_linear_config c;
    rs_linear_config_default(&c);
    c.model_dir = "generated/coach";
    c.scenario = "vehicles/examples/coach_hunt.scn";
    c.elastic = 1;
    c.quiet = 1;
    c.v_lo = 60;
    c.v_hi = 75;
    c.n_speeds = 4;
    rs_linear_result r;
    ck_assert_msg(rs_linear_sweep(&c, &r, err, sizeof err) == 0, "%s", err);
    printf("coach, elastic contact: linear critical speed %.5g m/s, %.4g Hz (runs: 66.9 +- 2.1 m/s, 6.5 Hz)\n",
           r.v_crit, r.f_crit);
    ck_assert_msg(fabs(r.v_crit - 66.9) < 2.1, "linear critical speed %.6g m/s, runs 66.9 +- 2.1", r.v_crit);
    rs_linear_result_free(&r);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("linear_elastic");
    TCase *tc = tcase_create("linear_elastic");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, s1002_wheelset_eigen_vs_run);
    tcase_add_test(tc, s1002_wheelset_fastsim);
    tcase_add_test(tc, coach_against_runs);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return rs_test_run(suite()); }
