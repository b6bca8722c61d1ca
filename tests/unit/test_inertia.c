/*
 * test_inertia.c — the runtime's check of masses and inertias made of
 * parameters (runtime/core/rs_inertia.h):
 *
 *   - principal moments of a tensor built here as R diag(2, 3, 4.5) Rᵀ for a
 *     general rotation R are 2, 3, 4.5 (and of a rotated sphere 1, 1, 1);
 *   - the verdicts: a triangle-breaking tensor, a negative moment, a zero,
 *     negative or NaN mass and a non-finite component are refused with the
 *     reason; the flat plate (C = A + B, the boundary) and a rod are
 *     accepted.
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "rs_inertia.h"
#include "rs_test.h"

/* c = R diag(d) Rᵀ, R = Rz(a) Ry(b) Rx(g), as (xx, yy, zz, xy, xz, yz). */
static void rotated(const double d[3], double a, double b, double g, double c[6])
{
    const double Rz[3][3] = {{cos(a), -sin(a), 0}, {sin(a), cos(a), 0}, {0, 0, 1}};
    const double Ry[3][3] = {{cos(b), 0, sin(b)}, {0, 1, 0}, {-sin(b), 0, cos(b)}};
    const double Rx[3][3] = {{1, 0, 0}, {0, cos(g), -sin(g)}, {0, sin(g), cos(g)}};
    double T[3][3] = {{0}}, R[3][3] = {{0}}, I[3][3] = {{0}};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 3; k++)
                T[i][j] += Rz[i][k] * Ry[k][j];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 3; k++)
                R[i][j] += T[i][k] * Rx[k][j];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 3; k++)
                I[i][j] += R[i][k] * d[k] * R[j][k];
    c[0] = I[0][0], c[1] = I[1][1], c[2] = I[2][2], c[3] = I[0][1], c[4] = I[0][2], c[5] = I[1][2];
}

START_TEST(principal_moments_of_a_rotated_tensor)
{
    const double d[3] = {4.5, 2, 3};
    double c[6], ev[3];
    rotated(d, 0.3, -0.7, 1.1, c);
    ck_assert_msg(fabs(c[3]) > 0.01 && fabs(c[4]) > 0.01 && fabs(c[5]) > 0.01, "%g %g %g", c[3], c[4], c[5]);
    rs_principal_moments(c, ev);
    ck_assert_msg(fabs(ev[0] - 2) < 1e-12 && fabs(ev[1] - 3) < 1e-12 && fabs(ev[2] - 4.5) < 1e-12,
                  "%.17g %.17g %.17g", ev[0], ev[1], ev[2]);
    const double sphere[3] = {1, 1, 1};
    rotated(sphere, 1.0, 0.5, -2.0, c);
    rs_principal_moments(c, ev);
    for (int i = 0; i < 3; i++)
        ck_assert_msg(fabs(ev[i] - 1) < 1e-14, "%.17g", ev[i]);
}
END_TEST

START_TEST(verdicts)
{
    char why[256];
    double c[6];
    const double plate[3] = {1, 2, 3}, rod[3] = {0, 5, 5}, bad[3] = {1, 1, 2.5}, neg[3] = {-0.5, 2, 2};
    rotated(plate, 0.2, 0.4, 0.6, c);
    ck_assert_int_eq(rs_inertia_problem(10, c, why, sizeof why), 0);
    rotated(rod, 0.2, 0.4, 0.6, c);
    ck_assert_int_eq(rs_inertia_problem(10, c, why, sizeof why), 0);
    rotated(bad, 0.2, 0.4, 0.6, c);
    ck_assert_int_eq(rs_inertia_problem(10, c, why, sizeof why), 1);
    ck_assert_msg(strstr(why, "breaks the triangle inequality (principal moments 1, 1, 2.5 kg m^2; 2.5 > 1 + 1)"),
                  "%s", why);
    rotated(neg, 0.2, 0.4, 0.6, c);
    ck_assert_int_eq(rs_inertia_problem(10, c, why, sizeof why), 1);
    ck_assert_msg(strstr(why, "negative principal moment"), "%s", why);
    rotated(plate, 0, 0, 0, c);
    ck_assert_int_eq(rs_inertia_problem(0, c, why, sizeof why), 1);
    ck_assert_msg(strstr(why, "its mass is 0 kg"), "%s", why);
    ck_assert_int_eq(rs_inertia_problem(-3, c, why, sizeof why), 1);
    ck_assert_int_eq(rs_inertia_problem(NAN, c, why, sizeof why), 1);
    c[4] = INFINITY;
    ck_assert_int_eq(rs_inertia_problem(1, c, why, sizeof why), 1);
    ck_assert_msg(strstr(why, "not finite"), "%s", why);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("inertia");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, principal_moments_of_a_rotated_tensor);
    tcase_add_test(tc, verdicts);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return rs_test_run(suite()); }
