/*
 * test_inertia.c — the runtime's check of masses and inertias made of
 * parameters (runtime/core/rs_inertia.h):
 *
 *   - principal moments of a tensor built here as R diag(2, 3, 4.5) Rᵀ for a
 *     general rotation R are 2, 3, 4.5 (and of a rotated sphere 1, 1, 1);
 *   - the verdicts: a triangle-breaking tensor, a negative moment, a zero,
 *     negative or NaN mass and a non-finite component are refused with the
 *     reason; the flat plate (C = A + B, the boundary) and a rod are
 *     accepted;
 *   - rs_inertia_check_model_changed judges only what changed: a model
 *     made here (mass p0, tensor diag(p1, p2, p3)) is refused when its
 *     tensor breaks the triangle, accepted when it does not, and a "passed"
 *     record equal to the current outputs skips the verdict (shown by
 *     planting a bad tensor as passed: accepted without a look, refused as
 *     soon as the record is not valid or differs);
 *   - a body flagged in inertia_unchecked (version 14) keeps 1, 1, 3 while
 *     the unflagged one is refused for it; its mass -3 kg and a moment
 *     -0.5 are refused all the same, and without the flags it is refused.
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "rs_inertia.h"
#include "rs_status.h"
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
    ck_assert_int_eq(rs_inertia_problem(10, c, why, sizeof why), 2);   /* inertia_unchecked may keep it */
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

/* One body: mass p0, tensor diag(p1, p2, p3). */
static int toy_inertia(const double *const *in, double *const *out)
{
    const double *p = in[RS_IN_P];
    out[0][0] = p[0];
    const double c[6] = {p[1], p[2], p[3], 0, 0, 0};
    memcpy(out[1], c, sizeof c);
    return RS_ABI_OK;
}

START_TEST(judged_only_when_changed)
{
    static const int len[2] = {1, 6};
    static const char *const bodies[] = {"toy"};
    rs_model m;
    memset(&m, 0, sizeof m);
    m.name = "toy";
    m.fn[RS_FN_INERTIA] = (rs_func){toy_inertia, 2, len, NULL};
    m.inertia_bodies = bodies;
    ck_assert_int_eq(rs_model_inertia_count(&m), 1);
    double p[4] = {2, 1, 1, 1}, buf[7], passed[7];
    const double *in[RS_IN_COUNT] = {0};
    in[RS_IN_P] = p;
    int valid = 0;
    char err[512];
    /* a sphere passes and is recorded */
    ck_assert_int_eq(rs_inertia_check_model_changed(&m, in, buf, passed, &valid, err, sizeof err), RS_OK);
    ck_assert_int_eq(valid, 1);
    ck_assert(passed[0] == 2 && passed[1] == 1);
    /* 1, 1, 3 breaks the triangle: refused, the record kept */
    p[3] = 3;
    ck_assert_int_eq(rs_inertia_check_model_changed(&m, in, buf, passed, &valid, err, sizeof err), RS_E_VALUE);
    ck_assert_msg(strstr(err, "body 'toy'") && strstr(err, "triangle"), "%s", err);
    ck_assert(valid == 1 && passed[3] == 1);
    /* the same outputs recorded as passed: no verdict is made (a bad
     * record planted here proves it), ... */
    memcpy(passed, buf, sizeof buf);
    ck_assert_int_eq(rs_inertia_check_model_changed(&m, in, buf, passed, &valid, err, sizeof err), RS_OK);
    /* ... an invalid record or a changed output brings it back */
    valid = 0;
    ck_assert_int_eq(rs_inertia_check_model_changed(&m, in, buf, passed, &valid, err, sizeof err), RS_E_VALUE);
    valid = 1;
    p[0] = 2.5;
    ck_assert_int_eq(rs_inertia_check_model_changed(&m, in, buf, passed, &valid, err, sizeof err), RS_E_VALUE);
    /* the plain check agrees with the first verdict */
    ck_assert_int_eq(rs_inertia_check_model(&m, in, buf, err, sizeof err), RS_E_VALUE);
    p[3] = 1.5;
    ck_assert_int_eq(rs_inertia_check_model(&m, in, buf, err, sizeof err), RS_OK);
}
END_TEST

/* Two bodies from p: mass p0 with diag(p1, p2, p3), mass p4 with
 * diag(p5, p6, p7); the second marked inertia_unchecked. */
static int two_inertia(const double *const *in, double *const *out)
{
    const double *p = in[RS_IN_P];
    out[0][0] = p[0];
    out[0][1] = p[4];
    const double c[12] = {p[1], p[2], p[3], 0, 0, 0, p[5], p[6], p[7], 0, 0, 0};
    memcpy(out[1], c, sizeof c);
    return RS_ABI_OK;
}

START_TEST(unchecked_skips_only_the_triangle)
{
    static const int len[2] = {2, 12};
    static const char *const bodies[] = {"checked", "published"};
    static const int unchecked[] = {0, 1};
    rs_model m;
    memset(&m, 0, sizeof m);
    m.name = "two";
    m.fn[RS_FN_INERTIA] = (rs_func){two_inertia, 2, len, NULL};
    m.inertia_bodies = bodies;
    m.inertia_unchecked = unchecked;
    double p[8] = {2, 1, 1, 1, 3, 1, 1, 3}, buf[14];
    const double *in[RS_IN_COUNT] = {0};
    in[RS_IN_P] = p;
    char err[512] = "";
    /* 1, 1, 3 breaks the triangle (3 > 1 + 1): kept for the marked body */
    ck_assert_msg(rs_inertia_check_model(&m, in, buf, err, sizeof err) == RS_OK, "%s", err);
    /* ... and refused for the other one, naming it */
    p[3] = 3;
    ck_assert_int_eq(rs_inertia_check_model(&m, in, buf, err, sizeof err), RS_E_VALUE);
    ck_assert_msg(strstr(err, "body 'checked'") && strstr(err, "triangle"), "%s", err);
    p[3] = 1;
    /* the marked body's mass is still checked: -3 kg refused, naming it,
     * and inertia_unchecked is not offered as the fix */
    p[4] = -3;
    ck_assert_int_eq(rs_inertia_check_model(&m, in, buf, err, sizeof err), RS_E_VALUE);
    ck_assert_msg(strstr(err, "body 'published': its mass is -3 kg"), "%s", err);
    ck_assert_msg(!strstr(err, "inertia_unchecked"), "%s", err);
    p[4] = 3;
    /* ... and its principal moments: diag(-0.5, 1, 3) refused */
    p[5] = -0.5;
    ck_assert_int_eq(rs_inertia_check_model(&m, in, buf, err, sizeof err), RS_E_VALUE);
    ck_assert_msg(strstr(err, "body 'published'") && strstr(err, "negative principal moment"), "%s", err);
    /* without the flags the same triangle-breaking body is refused */
    p[5] = 1;
    m.inertia_unchecked = NULL;
    ck_assert_int_eq(rs_inertia_check_model(&m, in, buf, err, sizeof err), RS_E_VALUE);
    ck_assert_msg(strstr(err, "body 'published'") && strstr(err, "triangle"), "%s", err);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("inertia");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, principal_moments_of_a_rotated_tensor);
    tcase_add_test(tc, verdicts);
    tcase_add_test(tc, judged_only_when_changed);
    tcase_add_test(tc, unchecked_skips_only_the_triangle);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return rs_test_run(suite()); }
