/*
 * test_stress.c — a component's stress model (runtime/coupled/rs_stress.h,
 * issue 25) against what does not come from it:
 *
 *   - a cantilever under a static end load P (left to settle under the
 *     model's damping): tip deflection P L³ / (3 E I) and root bending
 *     stress P L c / I of beam theory.  The cubic beam element holds the
 *     exact solution of an end-loaded beam (a cubic), so 2, 4 and 8
 *     elements must all give it: the tolerance 1e-6 is what is left of the
 *     settling (e^(−ω₁ t) < 1e-12 here) and rounding;
 *   - the same cantilever under its own weight q = ρ A g (a d'Alembert
 *     load of a frame accelerating at −g): tip deflection q L⁴ / (8 E I)
 *     with lumped nodal loads converges as h² (the error ratio for halved
 *     elements is checked to be 4 ± 0.5), the root stress q L² c / (2 I)
 *     is exact (the lumped loads have the distributed load's moment);
 *   - a bar clamped at one end and accelerated along its axis (the frame's
 *     velocity ramps, the couple differentiates it): σ(s) = ρ a (L − s)
 *     exactly at element mid-points (lumped masses: the axial force is
 *     the mass beyond), and at the clamp off by ρ a h / 2, first order;
 *   - a bar spinning about the body's z axis through its clamp:
 *     σ(s) = ρ ω² (L² − s²) / 2, within 0.2 % at 40 elements;
 *   - a chain cut into slabs with halos copied by hand gives the one-slab
 *     values bit for bit (what makes 1, 2, 3 MPI ranks identical);
 *   - the statement's errors name file:line and the fix.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_status.h"
#include "rs_stress.h"
#include "rs_stress_couple.h"
#include "rs_test.h"

#define PI 3.14159265358979323846

/* A steel round bar of length L along the body's x, clamped at s = 0. */
static rs_stress_spec bar(int n_el, double L, double R)
{
    rs_stress_spec s;
    rs_stress_spec_default(&s);
    snprintf(s.name, sizeof s.name, "link");
    snprintf(s.body, sizeof s.body, "arm");
    s.from[0] = s.from[1] = s.from[2] = 0;
    s.to[0] = L;
    s.to[1] = s.to[2] = 0;
    s.elements = n_el;
    s.section = RS_STRESS_CIRCLE;
    s.sec_a = s.sec_b = R;
    s.n_fix = 1;
    s.fix[0] = 0;
    return s;
}

/* Advances a whole-chain slab for t seconds under the input vector in. */
static void settle(rs_stress_slab *sl, const double *in, double t)
{
    const rs_stress_beam *b = rs_stress_slab_beam(sl);
    const double h = 0.9 * b->h_stable;
    rs_stress_slab_load(sl, in);
    for (long i = 0, n = lround(t / h); i < n; i++)
        rs_stress_substep(sl, h);
}

START_TEST(cantilever_end_load_beam_theory)
{
    const double L = 0.5, R = 0.02, P = 1000;
    for (int n_el = 2; n_el <= 8; n_el *= 2) {
        rs_stress_spec s = bar(n_el, L, R);
        s.n_load = 1;
        s.load[0].s = L;
        s.n_point = 1;
        s.point[0] = (rs_stress_point){"root", 0, R, 0, -1};   /* the +e2 fibre at the clamp */
        rs_stress_slab *sl;
        char err[256];
        ck_assert_int_eq(rs_stress_slab_create(&s, 0, n_el + 1, &sl, err, sizeof err), RS_OK);
        const rs_stress_beam *b = rs_stress_slab_beam(sl);
        /* e1 = x, e3 = z, e2 = z × x = y: the force along the body's y bends in e1–e2 */
        ck_assert_double_eq_tol(b->axes[1][1], 1, 1e-15);
        double in[RS_STRESS_IN_LOADS + 3] = {0};
        in[RS_STRESS_IN_LOADS + 1] = P;
        ck_assert(30 / b->omega1 < 0.1);
        settle(sl, in, 0.1);
        const double I = PI * R * R * R * R / 4, E = s.young;
        const double tip = rs_stress_displacement(sl, n_el, 1), tip_exact = P * L * L * L / (3 * E * I);
        double sigma;
        rs_stress_point_values(sl, &sigma);
        const double sig_exact = -P * L * R / I;   /* compression on the +y side */
        printf("cantilever %d elements: tip %.9g m (beam theory %.9g), root stress %.9g Pa (%.9g)\n", n_el, tip,
               tip_exact, sigma, sig_exact);
        ck_assert_msg(fabs(tip / tip_exact - 1) < 1e-6, "%d elements: tip %g vs %g", n_el, tip, tip_exact);
        ck_assert_msg(fabs(sigma / sig_exact - 1) < 1e-6, "%d elements: sigma %g vs %g", n_el, sigma, sig_exact);
        /* the tip's slope P L² / (2 E I) too (the rotation about e3) */
        ck_assert_double_eq_tol(rs_stress_displacement(sl, n_el, 5) / (P * L * L / (2 * E * I)), 1, 1e-6);
        rs_stress_slab_free(&sl);
    }
}
END_TEST

START_TEST(cantilever_own_weight_converges)
{
    const double L = 0.5, R = 0.02, g = 9.81;
    double err_prev = NAN, ratio = NAN;
    for (int n_el = 4; n_el <= 32; n_el *= 2) {
        rs_stress_spec s = bar(n_el, L, R);
        s.n_point = 1;
        s.point[0] = (rs_stress_point){"root", 0, 0, R, -1};   /* the +e3 fibre */
        rs_stress_slab *sl;
        char err[256];
        ck_assert_int_eq(rs_stress_slab_create(&s, 0, n_el + 1, &sl, err, sizeof err), RS_OK);
        double in[RS_STRESS_IN_LOADS] = {0};
        in[RS_STRESS_IN_GRAVITY + 2] = -g;   /* weight along −z = −e3 */
        settle(sl, in, 0.1);
        const double A = PI * R * R, I = PI * R * R * R * R / 4, E = s.young, q = s.density * A * g;
        const double tip = rs_stress_displacement(sl, n_el, 2), tip_exact = -q * L * L * L * L / (8 * E * I);
        double sigma;
        rs_stress_point_values(sl, &sigma);
        /* sagging: the top fibre at the clamp is in tension */
        const double sig_exact = q * L * L * R / (2 * I), e = fabs(tip / tip_exact - 1);
        printf("own weight %2d elements: tip %.9g m (exact %.9g, error %.3g), root stress %.9g Pa (%.9g)\n", n_el, tip,
               tip_exact, e, sigma, sig_exact);
        ck_assert_msg(fabs(sigma / sig_exact - 1) < 1e-6, "%d elements: sigma %g vs %g", n_el, sigma, sig_exact);
        if (n_el > 4) {
            ratio = err_prev / e;
            ck_assert_msg(fabs(ratio - 4) < 0.5, "error ratio %g at %d elements: not second order", ratio, n_el);
        }
        err_prev = e;
        rs_stress_slab_free(&sl);
    }
    ck_assert(err_prev < 2e-3);
}
END_TEST

/* Runs a couple for t_end with the frame's velocity v(t) = vel(t) and a
 * constant ω; returns the points' stresses. */
static void run_couple(const rs_stress_spec *s, double a, const double *w, double t_end, double *sigma)
{
    rs_stress_couple *c;
    char err[256];
    ck_assert_int_eq(rs_stress_couple_create(s, NULL, &c, err, sizeof err), RS_OK);
    const double dt = 1e-3;
    for (long k = 0; k <= lround(t_end / dt); k++) {
        const double v[3] = {a * k * dt, 0, 0};
        ck_assert_int_eq(rs_stress_couple_step(c, v, w, NULL, NULL, k ? dt : 0, err, sizeof err), RS_OK);
    }
    const double *in = rs_stress_couple_input(c);
    ck_assert_double_eq_tol(in[RS_STRESS_IN_ACC], a, 1e-9 * (1 + fabs(a)));   /* BDF2 of a ramp */
    memcpy(sigma, rs_stress_couple_sigma(c), (size_t)s->n_point * sizeof *sigma);
    rs_stress_couple_free(&c);
}

START_TEST(bar_accelerated_along_its_axis)
{
    const double L = 0.5, R = 0.02, a = -50;   /* the frame accelerates along −x: inertia pulls +x */
    const double w[3] = {0, 0, 0};
    double err_clamp[2];
    for (int r = 0; r < 2; r++) {
        const int n_el = 10 << r;
        rs_stress_spec s = bar(n_el, L, R);
        const double h = L / n_el;
        s.n_point = 3;
        s.point[0] = (rs_stress_point){"mid0", h / 2, 0, 0, -1};
        s.point[1] = (rs_stress_point){"mid7", 7.5 * h, 0, 0, -1};
        s.point[2] = (rs_stress_point){"clamp", 0, 0, R, -1};   /* a fibre off the axis: no bending here */
        double sigma[3];
        run_couple(&s, a, w, 0.1, sigma);
        const double rho = s.density, A_ = -a;
        for (int p = 0; p < 2; p++) {
            const double exact = rho * A_ * (L - s.point[p].s);
            ck_assert_msg(fabs(sigma[p] / exact - 1) < 1e-6, "%s: %g vs %g", s.point[p].name, sigma[p], exact);
        }
        err_clamp[r] = rho * A_ * L - sigma[2];
        printf("bar %d elements: sigma(mid0) %.9g Pa (exact %.9g), clamp error %.6g Pa (rho a h/2 = %.6g)\n", n_el,
               sigma[0], rho * A_ * (L - h / 2), err_clamp[r], rho * A_ * h / 2);
        ck_assert_double_eq_tol(err_clamp[r] / (rho * A_ * h / 2), 1, 1e-6);
    }
    ck_assert_double_eq_tol(err_clamp[0] / err_clamp[1], 2, 1e-6);   /* first order at the clamp */
}
END_TEST

START_TEST(bar_spinning_about_its_clamp)
{
    const double L = 0.5, R = 0.01, W = 40;   /* rad/s */
    const int n_el = 40;
    rs_stress_spec s = bar(n_el, L, R);
    s.n_point = 3;
    const double h = L / n_el;
    for (int p = 0; p < 3; p++)
        s.point[p] = (rs_stress_point){"", (10 * p + 0.5) * h, 0, 0, -1};
    snprintf(s.point[0].name, RS_STRESS_NAME, "a");
    snprintf(s.point[1].name, RS_STRESS_NAME, "b");
    snprintf(s.point[2].name, RS_STRESS_NAME, "c");
    const double w[3] = {0, 0, W};
    double sigma[3];
    run_couple(&s, 0, w, 0.2, sigma);
    for (int p = 0; p < 3; p++) {
        const double x = s.point[p].s, exact = s.density * W * W * (L * L - x * x) / 2;
        printf("spinning bar at %.4f m: %.9g Pa (exact %.9g)\n", x, sigma[p], exact);
        ck_assert_msg(fabs(sigma[p] / exact - 1) < 2e-3, "s = %g: %g vs %g", x, sigma[p], exact);
    }
}
END_TEST

START_TEST(slabs_bit_identical)
{
    const int n_el = 11, nn = n_el + 1;
    rs_stress_spec s = bar(n_el, 0.55, 0.015);
    s.n_load = 1;
    s.load[0].s = 0.55;
    s.n_point = 2;
    s.point[0] = (rs_stress_point){"root", 0, 0.015, 0, -1};
    s.point[1] = (rs_stress_point){"mid", 0.3, 0, 0.015, -1};
    rs_stress_slab *one, *part[3];
    char err[256];
    ck_assert_int_eq(rs_stress_slab_create(&s, 0, nn, &one, err, sizeof err), RS_OK);
    const int cut[4] = {0, 4, 9, nn};
    for (int p = 0; p < 3; p++)
        ck_assert_int_eq(rs_stress_slab_create(&s, cut[p], cut[p + 1], &part[p], err, sizeof err), RS_OK);
    double in[RS_STRESS_IN_LOADS + 3] = {1, -2, 3, 4, 5, -6, 0.5, 1.5, -2, 0, 0, -9.81, 300, -200, 100};
    const double h = 0.9 * rs_stress_slab_beam(one)->h_stable;
    rs_stress_slab_load(one, in);
    for (int p = 0; p < 3; p++)
        rs_stress_slab_load(part[p], in);
    for (int i = 0; i <= 500; i++) {
        for (int p = 0; p < 3; p++) {   /* the halo exchange, by hand */
            if (p > 0)
                memcpy(rs_stress_slab_node(part[p], cut[p] - 1), rs_stress_slab_node(part[p - 1], cut[p] - 1),
                       6 * sizeof(double));
            if (p < 2)
                memcpy(rs_stress_slab_node(part[p], cut[p + 1]), rs_stress_slab_node(part[p + 1], cut[p + 1]),
                       6 * sizeof(double));
        }
        if (i == 500)
            break;   /* the last exchange: for the points' stresses */
        rs_stress_substep(one, h);
        for (int p = 0; p < 3; p++)
            rs_stress_substep(part[p], h);
    }
    for (int i = 0; i < nn; i++) {
        const rs_stress_slab *sp = part[i < 4 ? 0 : i < 9 ? 1 : 2];
        for (int d = 0; d < 6; d++) {
            const double a = rs_stress_displacement(one, i, d), b = rs_stress_displacement(sp, i, d);
            ck_assert_msg(memcmp(&a, &b, sizeof a) == 0, "node %d dof %d: %.17g vs %.17g", i, d, a, b);
        }
    }
    double s1[2], sp[2] = {NAN, NAN};
    rs_stress_point_values(one, s1);
    for (int p = 0; p < 3; p++)
        rs_stress_point_values(part[p], sp);
    ck_assert(memcmp(s1, sp, sizeof s1) == 0);
    ck_assert(fabs(s1[0]) > 1e5);   /* it is loaded */
    rs_stress_slab_free(&one);
    for (int p = 0; p < 3; p++)
        rs_stress_slab_free(&part[p]);
}
END_TEST

static void parse_fails(const char *line, const char *expect)
{
    char buf[1024], *tok[64];
    snprintf(buf, sizeof buf, "%s", line);
    int n = 0;
    for (char *t = strtok(buf, " "); t && n < 64; t = strtok(NULL, " "))
        tok[n++] = t;
    rs_stress_spec s;
    char err[512];
    ck_assert_int_ne(rs_stress_spec_parse((const char *const *)tok, n, "c.scn", 3, &s, err, sizeof err), RS_OK);
    ck_assert_msg(strstr(err, expect), "%s\n  expected: %s", err, expect);
}

START_TEST(statement_errors)
{
    parse_fails("stress link body arm from 0 0 0 to 0.5 0 0 section circle 0.02 fix 0.13 elements 4",
                "c.scn:3: stress: fix at 0.13 m is not a node: nodes are 0.125 m apart from 0 to 0.5 m; choose "
                "'elements' so that one lies there");
    parse_fails("stress link body arm from 0 0 0 to 0.5 0 0 section circle 0.02",
                "c.scn:3: stress: the component needs a clamped node");
    parse_fails("stress link body arm from 0 0 0 to 0.5 0 0 fix 0", "c.scn:3: stress: give the section");
    parse_fails("stress link body arm from 0 0 0 to 0.5 0 0 section square 0.02 fix 0",
                "c.scn:3: stress: section 'square': write 'section circle R'");
    parse_fails("stress link body arm to 0.5 0 0 section circle 0.02 fix 0 loda F at 0.5",
                "c.scn:3: stress: unknown word 'loda'");
    parse_fails("stress link from 0 0 0 to 0.5 0 0 section circle 0.02 fix 0",
                "c.scn:3: stress: which body carries the component?");
    parse_fails("stress link body arm from 0 0 0 to 0.5 0 0 section circle 0.02 fix 0 point tip at 0.6",
                "c.scn:3: stress: point 'tip' at 0.6 m is off the axis (0 to 0.5 m)");
    /* the defaults of the frame's outputs follow the body's name */
    const char *ok[] = {"stress", "link", "body", "arm", "from", "0", "0", "0", "to", "0.5", "0", "0",
                        "section", "rect", "0.04", "0.02", "fix", "0", "point", "root", "at", "0", "fibre", "0", "0.01"};
    rs_stress_spec s;
    char err[256];
    ck_assert_int_eq(rs_stress_spec_parse(ok, 25, "c.scn", 1, &s, err, sizeof err), RS_OK);
    ck_assert_str_eq(s.velocity, "arm_v");
    ck_assert_str_eq(s.omega, "arm_omega");
    ck_assert_str_eq(s.gravity, "arm_g");
    ck_assert_double_eq(s.point[0].z, 0.01);
    rs_stress_beam b;
    ck_assert_int_eq(rs_stress_beam_make(&s, &b, err, sizeof err), RS_OK);
    ck_assert_double_eq_tol(b.i2, 0.04 * 0.02 * 0.02 * 0.02 / 12, 1e-20);   /* height 0.02 along e3 */
    ck_assert_double_eq_tol(b.i3, 0.02 * 0.04 * 0.04 * 0.04 / 12, 1e-20);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("stress");
    TCase *tc = tcase_create("beam");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, cantilever_end_load_beam_theory);
    tcase_add_test(tc, cantilever_own_weight_converges);
    tcase_add_test(tc, bar_accelerated_along_its_axis);
    tcase_add_test(tc, bar_spinning_about_its_clamp);
    tcase_add_test(tc, slabs_bit_identical);
    tcase_add_test(tc, statement_errors);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
