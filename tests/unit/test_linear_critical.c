/*
 * test_linear_critical.c — rs_linear_critical (runtime/app/rs_linear.h),
 * the linear critical speed from the modes of a speed sweep, on sweeps
 * written here by hand, where the answer is a line through two points:
 *
 *   - follows_the_unstable_mode: at 90 m/s a nearly undamped 1.05 Hz mode
 *     (a car body's longitudinal mode on undamped springs, ζ = 0.001) is
 *     the least damped and a 4.8 Hz hunting mode has ζ = 0.016; at 100 m/s
 *     the hunting mode (5.1 Hz) has ζ = −0.03.  The hunting mode's ζ is
 *     zero at 90 + 10·0.016/0.046 = 93.478 m/s, where its frequency is
 *     4.8 + 0.3·0.016/0.046 = 4.9043 Hz.  (Interpolating between the two
 *     least-damped modes gave 90.32 m/s and 1.18 Hz: the Manchester coach,
 *     vehicles/examples/coach.vdl, showed it.)
 *   - same_mode_as_before: one mode, least damped at both speeds: the
 *     interpolation between its two values (the behaviour kept);
 *   - none_when_stable: every ζ > 0: NaN.
 */
#define _DEFAULT_SOURCE /* M_PI */
#include <math.h>
#include <check.h>
#include "rs_linear.h"
#include "rs_test.h"

static rs_linear_mode mode(double f, double zeta)
{
    rs_linear_mode m = {0};
    const double w = 2 * M_PI * f; /* |s| ≈ ω for small ζ: re = −ζ|s|, im = |s|√(1 − ζ²) */
    m.re = -zeta * w;
    m.im = w * sqrt(1 - zeta * zeta);
    m.freq = m.im / (2 * M_PI);
    m.zeta = zeta;
    for (int d = 0; d < RS_LINEAR_DOM; d++)
        m.dom[d] = -1;
    return m;
}

/* modes must be least damped first, as rs_linear_modes_at gives them */
static void speed_at(rs_linear_modes *s, double v, rs_linear_mode *modes, int n)
{
    s->speed = v;
    s->n = n;
    s->mode = modes;
    s->least = 0;
}

START_TEST(follows_the_unstable_mode)
{
    rs_linear_mode m90[] = {mode(1.05, 0.001), mode(4.8, 0.016), mode(1.07, 0.13)};
    rs_linear_mode m100[] = {mode(5.1, -0.03), mode(1.05, 0.0011), mode(1.07, 0.13)};
    rs_linear_modes at[2];
    speed_at(&at[0], 90, m90, 3);
    speed_at(&at[1], 100, m100, 3);
    rs_linear_result r = {0};
    r.n = 2;
    r.at = at;
    rs_linear_critical(&r);
    const double zeta90 = m90[1].zeta, f90 = m90[1].freq, f100 = m100[0].freq;
    const double w = zeta90 / (zeta90 + 0.03);
    ck_assert_double_eq_tol(r.v_crit, 90 + 10 * w, 1e-12);
    ck_assert_double_eq_tol(r.v_crit, 93.478, 1e-3);
    ck_assert_double_eq_tol(r.f_crit, f90 + w * (f100 - f90), 1e-12);
    ck_assert_double_eq_tol(r.f_crit, 4.904, 2e-3);
}
END_TEST

START_TEST(same_mode_as_before)
{
    rs_linear_mode m1[] = {mode(1.5, 0.02), mode(3, 0.2)};
    rs_linear_mode m2[] = {mode(1.7, -0.01), mode(3, 0.2)};
    rs_linear_modes at[2];
    speed_at(&at[0], 30, m1, 2);
    speed_at(&at[1], 40, m2, 2);
    rs_linear_result r = {0};
    r.n = 2;
    r.at = at;
    rs_linear_critical(&r);
    ck_assert_double_eq_tol(r.v_crit, 30 + 10 * 0.02 / 0.03, 1e-12);
    ck_assert_double_eq_tol(r.f_crit, m1[0].freq + (0.02 / 0.03) * (m2[0].freq - m1[0].freq), 1e-12);
}
END_TEST

START_TEST(none_when_stable)
{
    rs_linear_mode m1[] = {mode(1.5, 0.02)};
    rs_linear_mode m2[] = {mode(1.7, 0.01)};
    rs_linear_modes at[2];
    speed_at(&at[0], 30, m1, 1);
    speed_at(&at[1], 40, m2, 1);
    rs_linear_result r = {0};
    r.n = 2;
    r.at = at;
    rs_linear_critical(&r);
    ck_assert(isnan(r.v_crit) && isnan(r.f_crit));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("linear_critical");
    TCase *tc = tcase_create("linear_critical");
    tcase_add_test(tc, follows_the_unstable_mode);
    tcase_add_test(tc, same_mode_as_before);
    tcase_add_test(tc, none_when_stable);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return rs_test_run(suite()); }
