/*
 * test_hertz_why.c — the words and numbers a failed single-point Hertz
 * contact is reported with (runtime/contact/rs_hertz_why.h), against the
 * Hertz solution's own verdict and a hand calculation:
 *
 *   - wheel 0.45 m rolling, −0.1 m lateral (a concave flange root) on a
 *     0.3 m rail: rs_hertz_ellipse_compute refuses it (RS_E_NONHERTZ) and
 *     the words say "a saddle"; B = (1/−0.1 + 1/0.3)/2 = −10/3 1/m and
 *     A = 1/(2 · 0.45) = 1.111 1/m by hand, as the numbers say;
 *   - −0.3 m on 0.3 m (the curvatures cancel, B = 0): refused, "conformal";
 *   - a NaN radius: RS_E_ARG, not called a saddle.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rs_hertz.h"
#include "rs_hertz_why.h"
#include "rs_status.h"
#include "rs_test.h"

/* The code rs_hertz_ellipse_compute gives radii (R_wx, R_wy, R_ry) at 50 kN on steel. */
static int hertz_code(const double radii[3])
{
    double A, B;
    rs_hertz_curvature_sums(radii[0], radii[1], INFINITY, radii[2], &A, &B);
    rs_hertz_ellipse el;
    return rs_hertz_ellipse_compute(5e4, 2.1e11, 0.28, A, B, &el);
}

static double number_after(const char *text, const char *key)
{
    const char *p = strstr(text, key);
    return p ? strtod(p + strlen(key), NULL) : NAN;
}

START_TEST(saddle_conformal_and_bad_values)
{
    char num[256];
    const double saddle[3] = {0.45, -0.1, 0.3};
    int code = hertz_code(saddle);
    ck_assert_int_eq(code, RS_E_NONHERTZ);
    ck_assert_msg(strncmp(rs_hertz_why(code, saddle), "a saddle", 8) == 0, "%s", rs_hertz_why(code, saddle));
    rs_hertz_why_numbers(code, saddle, num, sizeof num);
    ck_assert_msg(strstr(num, "RS_E_NONHERTZ -22"), "%s", num);
    ck_assert_msg(fabs(number_after(num, "B = (1/R_wy + 1/R_ry)/2 = ") - (-10.0 / 3.0)) < 1e-3, "%s", num);
    ck_assert_msg(fabs(number_after(num, "A = ") - 1.0 / 0.9) < 1e-3, "%s", num);

    const double conformal[3] = {0.45, -0.3, 0.3};
    code = hertz_code(conformal);
    ck_assert_int_eq(code, RS_E_NONHERTZ);
    ck_assert_msg(strncmp(rs_hertz_why(code, conformal), "conformal", 9) == 0, "%s",
                  rs_hertz_why(code, conformal));

    const double bad[3] = {0.45, NAN, 0.3};
    code = hertz_code(bad);
    ck_assert_int_eq(code, RS_E_ARG);
    ck_assert_msg(!strstr(rs_hertz_why(code, bad), "saddle"), "%s", rs_hertz_why(code, bad));
    /* a convex pair is no failure: the ellipse exists */
    const double fine[3] = {0.45, 0.5, 0.3};
    ck_assert_int_eq(hertz_code(fine), RS_OK);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("hertz_why");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, saddle_conformal_and_bad_values);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return rs_test_run(suite()); }
