/*
 * test_linear_shares.c — a mode's dominant coordinates by their share of its
 * kinetic energy (rs_linear_energy_shares, rs_linear_dominant_text in
 * runtime/app/rs_linear.h), on modes written here with hand answers:
 *
 *   - energy_not_amplitude: a metre coordinate (1000 kg) moving 0.01 m and
 *     a radian one (10 kg m²) moving 0.05 rad.  By raw amplitude the radian
 *     one leads (0.05 > 0.01); by energy m y² = 1000·1e-4 = 0.1 against
 *     I ψ² = 10·0.0025 = 0.025: 80 % and 20 %, the metre one first.
 *   - coupling_split: the same with a coupling M12 = 20 in the mass matrix:
 *     in phase, E = 0.1 + 2·20·0.01·0.05 + 0.025 = 0.145, shares
 *     0.01·(10 + 20·0.05) / E = 0.11 / 0.145 and 0.05·(0.2 + 0.5) / E =
 *     0.035 / 0.145; a quarter period apart (u2 = 0.05 i) the coupling
 *     does no work: 0.8 and 0.2 again.
 *   - through_null_space_and_bodies: three coordinates "front.ws1.y",
 *     "front.ws1.spin", "y" with the constraint q3 = q1 (N = [1 0; 0 1;
 *     1 0]), M = diag(1000, 10, 500), v = (0.01, 0.05): u = (0.01, 0.05,
 *     0.01), energies 0.1, 0.025, 0.05 of 0.175; the text ranks the
 *     coordinates and the bodies (front.ws1: 0.125 / 0.175 = 71.4 %, the
 *     top level 28.6 %).
 */
#include <math.h>
#include <string.h>
#include <check.h>
#include "rs_linear.h"
#include "rs_test.h"

static const double I2[4] = {1, 0, 0, 1};

START_TEST(energy_not_amplitude)
{
    const double M[4] = {1000, 0, 0, 10}, v[2] = {0.01, 0.05};
    double share[2], work[8];
    rs_linear_mode md = {0};
    rs_linear_energy_shares(2, 2, M, I2, v, NULL, share, work, &md);
    ck_assert_double_eq_tol(share[0], 0.8, 1e-14);
    ck_assert_double_eq_tol(share[1], 0.2, 1e-14);
    ck_assert_int_eq(md.dom[0], 0);   /* the metre one, whose amplitude is the smaller */
    ck_assert_int_eq(md.dom[1], 1);
    ck_assert_int_eq(md.dom[2], -1);
    ck_assert_double_eq_tol(md.dom_share[0], 0.8, 1e-14);
    ck_assert_double_eq_tol(md.dom_share[1], 0.2, 1e-14);
    ck_assert_double_eq(md.dom_share[2], 0);
}
END_TEST

START_TEST(coupling_split)
{
    const double M[4] = {1000, 20, 20, 10}, v[2] = {0.01, 0.05};
    double share[2], work[8];
    rs_linear_mode md = {0};
    rs_linear_energy_shares(2, 2, M, I2, v, NULL, share, work, &md);
    ck_assert_double_eq_tol(share[0], 0.11 / 0.145, 1e-14);
    ck_assert_double_eq_tol(share[1], 0.035 / 0.145, 1e-14);
    const double vr[2] = {0.01, 0}, vi[2] = {0, 0.05};
    rs_linear_energy_shares(2, 2, M, I2, vr, vi, share, work, &md);
    ck_assert_double_eq_tol(share[0], 0.8, 1e-14);
    ck_assert_double_eq_tol(share[1], 0.2, 1e-14);
    ck_assert_int_eq(md.dom[0], 0);
}
END_TEST

START_TEST(through_null_space_and_bodies)
{
    const double M[9] = {1000, 0, 0, 0, 10, 0, 0, 0, 500};
    const double N[6] = {1, 0, 1, 0, 1, 0};   /* column-major 3 × 2 */
    const double v[2] = {0.01, 0.05};
    double share[3], work[12];
    rs_linear_mode md = {0};
    rs_linear_energy_shares(3, 2, M, N, v, NULL, share, work, &md);
    ck_assert_double_eq_tol(share[0], 0.1 / 0.175, 1e-14);
    ck_assert_double_eq_tol(share[1], 0.025 / 0.175, 1e-14);
    ck_assert_double_eq_tol(share[2], 0.05 / 0.175, 1e-14);
    const char *const names[3] = {"front.ws1.y", "front.ws1.spin", "y"};
    char buf[256];
    md.share = share;
    rs_linear_dominant_text(&md, names, 3, buf, sizeof buf);
    ck_assert_str_eq(buf, "front.ws1.y 57.1% y 28.6% front.ws1.spin 14.3%; bodies front.ws1 71.4% (top) 28.6%");
    /* without the full shares (a hand-made mode): the coordinates only */
    md.share = NULL;
    rs_linear_dominant_text(&md, names, 3, buf, sizeof buf);
    ck_assert_str_eq(buf, "front.ws1.y 57.1% y 28.6% front.ws1.spin 14.3%");
    /* one body (every name at the top level): no per-body part */
    const char *const flat[3] = {"y", "spin", "z"};
    rs_linear_dominant_text(&md, flat, 3, buf, sizeof buf);
    ck_assert_str_eq(buf, "y 57.1% z 28.6% spin 14.3%");
    /* a buffer too short is cut, never overrun */
    md.share = share;
    char small[20];
    memset(small, 'x', sizeof small);
    rs_linear_dominant_text(&md, names, 3, small, 12);
    ck_assert_uint_eq(strlen(small), 11);
    ck_assert_int_eq(small[12], 'x');
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("linear_shares");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, energy_not_amplitude);
    tcase_add_test(tc, coupling_split);
    tcase_add_test(tc, through_null_space_and_bodies);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
