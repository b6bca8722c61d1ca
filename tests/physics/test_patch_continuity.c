/*
 * test_patch_continuity.c — is the elastic wheel force continuous in the
 * pose?  (issue 20: "no jumps made by the search itself"; docs/contact.md
 * "Minima and their share of the depth", "The conformal flange root").
 *
 * S1002 on 60E1 1:40, the wheel held at a fixed height (50 µm below its
 * rigid contact at 6.45 mm lateral shift from the centred wheel) and moved
 * laterally through the flange root, 6.45 … 6.65 mm, in 10 nm steps, with
 * and without yaw.  Per patch N = c_H pen^{3/2} (rs_hertz_patch_law, steel),
 * the wheel's N (vertical) and Y (lateral) the sums.  Independent bound:
 * a Hertz force N = c_H δ^{3/2} with c_H held changes by dN = 3/2 N/δ dδ,
 * and the approach changes by at most tan α_max ≈ 2.75 (70°) times the
 * shift: L = Σ 3/2 N_j/δ_j · 3 Δy per step.  A step whose |ΔN| or |ΔY|
 * exceeds 10 L is a jump.
 *
 * STATUS (2026-11-27, session 35 helper A): the search's single-point Hertz
 * patches DO jump here.  The tests below document it (they assert that the
 * jumps exist and how large they are, so that they fail — and must be
 * turned round — once the cause is fixed):
 *  - default search: forces jump by up to 70 kN within 10 nm (1300–1500 L) —
 *    a patch with several minima of the gap reported at its deepest (the
 *    minima swap; α, curvature and so c_H and the normal with them), and
 *    a minimum sliding ~90 µm per µm of shift along the conformal flange
 *    root (R_w 13.0–13.5 mm against the rail's 13 mm corner: B ≈ 0.03–1
 *    /m, c_H changes 40 % with a 0.3 % curvature wiggle of the spline);
 *  - rs_patch_opts.minima = 1 (every minimum its own patch with a share of
 *    the depth, continuous at merges, splits, swaps and births): the yawed
 *    sweep's worst step falls from 1510 L to 36 L (continuous, still
 *    steep); the unyawed one keeps 830 L: a minimum the grid misses (the
 *    flange's, 0.1 µm deep between two nodes) and the point curvature.
 * Session 36: the gap there is flat to 0.2 µm over 3.6 mm with minima
 * about 0.1 mm apart (the spline's ripple); the sub-interval scan finds
 * the deepest (test_deepest_found) and the sweeps read 600 L and 25 L.
 * What remains are the ripple minima themselves, each a point force
 * (docs/contact.md "The conformal flange root").
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>

#include "rs_hertz.h"
#include "rs_patch.h"
#include "rs_test.h"

#define R0 0.46
#define CY_C (-0.003)   /* the centred wheel (test_patch.c) */
#define PI 3.14159265358979323846

static rs_profile W, R;

static void load_pair(const char *w, const char *r)
{
    char err[512];
    ck_assert_msg(rs_profile_load(&W, w, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_profile_load(&R, r, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_patch_check_pair(&W, &R, R0, err, sizeof err) == RS_OK, "%s", err);
}

static void load(void)
{
    load_pair("vehicles/profiles/s1002.prf", "vehicles/profiles/60e1_1in40.prf");
}

static void unload(void)
{
    rs_profile_free(&W);
    rs_profile_free(&R);
}

/* the rigid contact height, no yaw: brute force every 10 µm of u */
static double rigid_cz(double cy)
{
    double gmin = INFINITY;
    int hw = 0, hr = 0;
    for (double u = W.y[0]; u <= W.y[W.n - 1]; u += 1e-5) {
        const double y = cy + u;
        if (y < R.y[0] || y > R.y[R.n - 1])
            continue;
        const double gap = -(R0 + rs_profile_eval(&W, u, &hw, NULL, NULL)) - rs_profile_eval(&R, y, &hr, NULL, NULL);
        if (gap < gmin)
            gmin = gap;
    }
    return -gmin;
}

typedef struct wf {
    int n;
    double N, Y, L;   /* vertical and lateral sums, the step's Hertz rate */
    double amax;      /* the largest contact angle (rad) */
} wf;

static void wheel_force(double cy, double cz, double psi, int minima, rs_patch_hint *h, wf *o)
{
    rs_patch_opts op;
    rs_patch_defaults(&op);
    op.r0 = R0;
    op.ends = 0;          /* as the elastic contact calls it */
    op.minima = minima;
    rs_patch p[RS_PATCH_MAX];
    const double c[3] = {0, cy, cz}, a[3] = {-sin(psi), cos(psi), 0};
    const int rc = rs_patch_find(&W, &R, c, a, &op, h, p, RS_PATCH_MAX, &o->n);
    ck_assert_msg(rc == RS_OK || rc == RS_CLAMPED, "shift %g: rc %d", cy - CY_C, rc);
    ck_assert_msg(o->n >= 1, "shift %g: no patch (search failure)", cy - CY_C);
    o->N = o->Y = o->L = o->amax = 0;
    for (int j = 0; j < o->n; j++) {
        o->amax = fmax(o->amax, p[j].alpha);
        double cH, a1, b1;
        ck_assert(rs_hertz_patch_law(p[j].R_wx, p[j].R_wy, p[j].R_ry, 2.1e11, 0.28, &cH, &a1, &b1) >= 0);
        const double N = cH * pow(p[j].pen, 1.5);
        o->N += N * p[j].n[2];
        o->Y += N * p[j].n[1];
        o->L += 1.5 * N / fmax(p[j].pen, 1e-7) * 3.0;
    }
}

/* the sweep: the worst step's jump over its Hertz bound, and the number of
 * steps above 10 × the bound */
static double sweep_range(double y0, double y1, double h, double psi, int minima, int *njump, int *maxn)
{
    const double cz = rigid_cz(CY_C + y0) - 5e-5;
    rs_patch_hint hint = {0};
    wf a, b;
    *maxn = 0;
    wheel_force(CY_C + y0, cz, psi, minima, &hint, &a);
    double worst = 0;
    *njump = 0;
    const int steps = (int)lround((y1 - y0) / h);
    for (int i = 1; i <= steps; i++) {
        wheel_force(CY_C + y0 + i * h, cz, psi, minima, &hint, &b);
        const double L = fmax(a.L, b.L) * h + 1.0;   /* + 1 N: rounding */
        const double r = fmax(fabs(b.N - a.N), fabs(b.Y - a.Y)) / L;
        worst = fmax(worst, r);
        *njump += r > 10.0;
        if (b.n > *maxn)
            *maxn = b.n;
        a = b;
    }
    return worst;
}

static double sweep(double psi, int minima, int *njump)
{
    int maxn;
    return sweep_range(0.00645, 0.00665, 1e-8, psi, minima, njump, &maxn);
}

/* The worst steps of the sweep without yaw (w[0]) and at 5 mrad (w[1]),
 * with or without the minima's shares, printed after `what`. */
static void sweep_both(int minima, const char *what, double w[2])
{
    int nj0, nj5;
    w[0] = sweep(0.0, minima, &nj0);
    w[1] = sweep(0.005, minima, &nj5);
    printf("%s: worst step %.0f x the Hertz bound (%d jumps) without yaw, %.0f x (%d) at 5 mrad\n", what, w[0], nj0,
           w[1], nj5);
}

/* KNOWN DEFECT (issue 20), documented: the default search's forces jump
 * in the flange root, with and without yaw.  When this fails, the jumps
 * are gone: assert njump == 0 instead and update docs/contact.md. */
START_TEST(test_jumps_documented)
{
    load();
    double w[2];
    sweep_both(0, "default search", w);
    ck_assert_msg(w[0] > 1000 && w[1] > 1000, "the documented jumps are gone: turn this test round");
    unload();
}
END_TEST

/* rs_patch_opts.minima: continuous at the swaps of the yawed sweep (its
 * worst step 25 L against 1510 L), not yet without yaw (600 L; see the
 * top). */
START_TEST(test_minima_shares)
{
    load();
    double w[2];
    sweep_both(1, "minima shares", w);
    ck_assert_msg(w[1] < 100, "yawed sweep: %.0f x the bound", w[1]);
    ck_assert_msg(w[0] > 300, "the unyawed jump is gone: turn this test round");
    unload();
}
END_TEST

/* the unyawed gap in closed form: g(u) = c_z − r0 − z_w(u) − z_r(c_y + u) */
static double gap0(double cy, double cz, double u, int *hw, int *hr)
{
    return cz - R0 - rs_profile_eval(&W, u, hw, NULL, NULL) - rs_profile_eval(&R, cy + u, hr, NULL, NULL);
}

/* rs_patch_opts.minima finds the deepest minimum of the flat flange root.
 * Without yaw the gap is the closed form above; its lowest value over the
 * wheel table (every 0.5 µm: a sampling error below g''/8 · (0.5 µm)² ≈
 * 1e-10 m for the flange's g'' ≈ 3000 /m) is the vertical depth of the
 * deepest patch (−g = pen / (share cos α), share 1).  Over 6.45 … 6.65 mm
 * every µm: there the gap is flat to 0.2 µm over 3.6 mm (S1002's flange
 * root against 60E1's gauge corner, rippled by the spline: minima about
 * 0.1 mm apart).  Before the sub-interval scan (rs_patch.c,
 * sub_candidates) the refinement of a grid interval holding two minima
 * 0.9 mm apart closed on the shallower at times: 24 nm off at 6.5754 mm,
 * and the patch's point jumped between α ≈ 43° and 70°. */
START_TEST(test_deepest_found)
{
    load();
    const double cz = rigid_cz(CY_C + 0.00645) - 5e-5;
    rs_patch_hint hint = {0};
    rs_patch_opts op;
    rs_patch_defaults(&op);
    op.r0 = R0;
    op.ends = 0;
    op.minima = 1;
    double worst = 0, wy = 0;
    for (int i = 0; i <= 200; i++) {
        const double cy = CY_C + 0.00645 + i * 1e-6;
        int hw = 0, hr = 0;
        double gmin = INFINITY;
        for (double u = W.y[0]; u <= W.y[W.n - 1]; u += 5e-7)
            if (cy + u >= R.y[0] && cy + u <= R.y[R.n - 1])
                gmin = fmin(gmin, gap0(cy, cz, u, &hw, &hr));
        rs_patch p[RS_PATCH_MAX];
        int n;
        const double c[3] = {0, cy, cz}, a[3] = {0, 1, 0};
        const int rc = rs_patch_find(&W, &R, c, a, &op, &hint, p, RS_PATCH_MAX, &n);
        ck_assert(rc == RS_OK || rc == RS_CLAMPED);
        double deep = 0;
        for (int j = 0; j < n; j++)
            deep = fmax(deep, p[j].pen / (p[j].share * cos(p[j].alpha)));
        if (fabs(deep + gmin) > worst)
            worst = fabs(deep + gmin), wy = cy - CY_C;
    }
    printf("minima: the deepest patch against the closed-form gap's minimum, flange root: worst %.2g m at "
           "shift %.6f mm\n",
           worst, wy * 1e3);
    ck_assert_msg(worst < 3e-10, "the deepest depth is off by %g m at shift %g m", worst, wy);
    unload();
}
END_TEST

/* A pair without a conformal stretch: the 1:13 cone with a flange (R 200
 * and R 16 mm blends, a 71.6° flank) on the R 160 mm head with a gauge
 * corner (vehicles/profiles; single-point contact by design: the wheel is
 * everywhere less curved across than the rail), the wheel 50 µm below its
 * rigid height and moved through the flange root, where the contact angle
 * passes 30° (found on a 0.1 mm scan), ±0.25 mm in 0.1 µm steps, without
 * and with yaw: every step within 10 × the Hertz bound. */
START_TEST(test_cone_flange_lipschitz)
{
    load_pair("vehicles/profiles/cone_1in13_flange.prf", "vehicles/profiles/arc_r160_corner.prf");
    double on = NAN;
    for (int i = 0; i <= 800 && isnan(on); i++) {
        const double y = -0.040 + 1e-4 * i;
        wf f;
        rs_patch_hint hint = {0};
        wheel_force(CY_C + y, rigid_cz(CY_C + y) - 5e-5, 0.0, 1, &hint, &f);
        if (f.amax > 30 * PI / 180)
            on = y;
    }
    ck_assert_msg(!isnan(on), "no flange contact on the scan");
    for (int k = 0; k < 2; k++) {
        int nj, maxn, nj0, maxn0;
        const double w = sweep_range(on - 2.5e-4, on + 2.5e-4, 1e-7, 0.005 * k, 1, &nj, &maxn);
        const double w0 = sweep_range(on - 2.5e-4, on + 2.5e-4, 1e-7, 0.005 * k, 0, &nj0, &maxn0);
        printf("cone 1:13 flange on R 160 corner, 30 deg at shift %.1f mm, yaw %g: worst step %.2f x the "
               "Hertz bound (%d patches at most); default search %.2f x\n",
               on * 1e3, 0.005 * k, w, maxn, w0);
        ck_assert_msg(w < 10.0, "yaw %g: a step %.1f x the Hertz bound", 0.005 * k, w);
    }
    unload();
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("patch_continuity");
    TCase *tc = tcase_create("sweep");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_jumps_documented);
    tcase_add_test(tc, test_minima_shares);
    tcase_add_test(tc, test_cone_flange_lipschitz);
    tcase_add_test(tc, test_deepest_found);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
