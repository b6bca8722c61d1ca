/*
 * test_track.c — track geometry (runtime/contact/rs_track*.c): every check compares
 * the fitted splines with an answer the code under test does not compute:
 * the line and the circle in closed form, clothoid end points from a power
 * series of exp(iψ) written here, the seed's S-curve end point (50 m offset,
 * 270 m in x), irregularities against their formulas; and every reader error
 * (file:line and the fix), a fuzz of the reader, and the segment hint
 * against a fresh binary search.
 */
#define _POSIX_C_SOURCE 200809L   /* mkdtemp */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rs_track.h"
#include "rs_test.h"

#define TRACK_DIR "vehicles/tracks"
#define PI 3.14159265358979323846

/* Deterministic random numbers (xorshift64*), so failures reproduce. */
static unsigned long long rng_state = 0x9E3779B97F4A7C15ULL;
static double urand(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (double)((rng_state * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
}

static void load_text(rs_track *t, const char *text)
{
    char err[512];
    int rc = rs_track_parse(t, text, strlen(text), "t.trk", NULL, err, sizeof err);
    ck_assert_msg(rc == 0, "parse failed (%d): %s", rc, err);
}

static void load_file(rs_track *t, const char *name)
{
    char path[256], err[512];
    snprintf(path, sizeof path, "%s/%s", TRACK_DIR, name);
    int rc = rs_track_load(t, path, err, sizeof err);
    ck_assert_msg(rc == 0, "load %s failed (%d): %s", path, rc, err);
}

static double norm3(const double v[3])
{
    return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

/* ∫_0^L exp(i(k0 u + b u²)) du by the Taylor series of E(u) = exp(iψ(u)):
 * E' = iψ'E gives (n+1) e_{n+1} = i(k0 e_n + 2b e_{n−1}).  Independent of
 * the library's Gauss–Legendre integration. */
static void fresnel_series(double k0, double b, double L, double *x, double *y)
{
    double er[400] = { 0 }, ei[400] = { 0 };
    er[0] = 1.0;
    double sx = L, sy = 0.0, Lp = L;
    for (int n = 0; n + 1 < 400; n++) {
        /* i (k0 e_n + 2b e_{n-1}) */
        double ar = k0 * er[n] + (n > 0 ? 2.0 * b * er[n - 1] : 0.0);
        double ai = k0 * ei[n] + (n > 0 ? 2.0 * b * ei[n - 1] : 0.0);
        er[n + 1] = -ai / (n + 1);
        ei[n + 1] = ar / (n + 1);
        Lp *= L;
        double tx = er[n + 1] * Lp / (n + 2), ty = ei[n + 1] * Lp / (n + 2);
        sx += tx;
        sy += ty;
        if (n > 20 && fabs(tx) + fabs(ty) < 1e-30) break;
    }
    *x = sx;
    *y = sy;
}

/* ---------------------------------------------------------------- geometry */

START_TEST(straight_is_an_exact_line)
{
    rs_track t;
    load_file(&t, "straight.trk");
    ck_assert_double_eq_tol(t.s_end - t.s_begin, 2010.0, 1e-12);
    ck_assert_double_eq_tol(t.s_begin, -10.0, 1e-12);
    ck_assert(t.gauge == 1.435);
    ck_assert(t.inclination == 40.0);
    int hint = 0;
    for (int i = 0; i <= 4000; i++) {
        double s = -10.0 + 2010.0 * i / 4000.0 + (i < 4000 ? 0.3 * urand() : 0.0);
        rs_track_point p;
        ck_assert_int_eq(rs_track_eval(&t, s, &hint, &p), 0);
        ck_assert_double_eq_tol(p.pos[0], s, 1e-11);
        ck_assert_double_eq_tol(p.pos[1], 0.0, 1e-12);
        ck_assert_double_eq_tol(p.pos[2], 0.0, 1e-12);
        ck_assert_double_eq_tol(p.tangent[0], 1.0, 1e-12);
        ck_assert_double_eq_tol(p.curvature, 0.0, 1e-12);
        ck_assert(p.cant == 0.0);
        ck_assert_double_eq_tol(p.lateral[1], 1.0, 1e-12);
        ck_assert_double_eq_tol(p.up[2], 1.0, 1e-12);
    }
    rs_track_free(&t);
}
END_TEST

static void check_arc(const char *text, double R, double side, double margin)
{
    rs_track t;
    load_text(&t, text);
    /* origin (0,0), heading 0: the centre is at (0, side R). */
    int hint = 0;
    double worst_r = 0, worst_k = 0, worst_t = 0;
    for (int i = 0; i < 20000; i++) {
        double s = t.s_begin + margin + urand() * (t.s_end - t.s_begin - 2 * margin);
        rs_track_point p;
        rs_track_eval(&t, s, &hint, &p);
        double r = hypot(p.pos[0], p.pos[1] - side * R);
        /* κ = |x'y'' − y'x''| / (x'² + y'²)^{3/2}, written out here */
        double x1 = p.d1[0], y1 = p.d1[1], x2 = p.d2[0], y2 = p.d2[1];
        double k = fabs(x1 * y2 - y1 * x2) / pow(x1 * x1 + y1 * y1, 1.5);
        worst_r = fmax(worst_r, fabs(r - R));
        worst_k = fmax(worst_k, fabs(k - 1.0 / R));
        worst_t = fmax(worst_t, fabs(norm3(p.d1) - 1.0));
        ck_assert_double_eq_tol(p.curvature * side, k, 1e-15);
    }
    ck_assert_msg(worst_r < 1e-6, "points off the circle by %g m", worst_r);
    ck_assert_msg(worst_k < 1e-6, "curvature off 1/R by %g", worst_k);
    ck_assert_msg(worst_t < 1e-6, "tangent not unit: %g", worst_t);
    rs_track_free(&t);
}

START_TEST(arc_on_its_circle_with_curvature_1_over_R)
{
    check_arc("railsym-track 1\ngauge 1.435\ncurve 400 radius 250 left\n", 250.0, 1.0, 0.0);
    check_arc("railsym-track 1\ngauge 1.0\ncurve 900 radius 120 right\n", 120.0, -1.0, 0.0);
    /* Arc entered and left without transitions (curvature jumps): the arc
     * part still meets both bounds from 1 m off the joints. */
    rs_track t;
    load_text(&t, "railsym-track 1\ngauge 1.435\norigin x -50 s -50\nstraight 50\n"
                  "curve 300 radius 400 left\nstraight 50\n");
    int hint = 0;
    for (int i = 0; i < 5000; i++) {
        double s = 1.0 + urand() * 298.0;
        rs_track_point p;
        rs_track_eval(&t, s, &hint, &p);
        ck_assert_double_eq_tol(hypot(p.pos[0], p.pos[1] - 400.0), 400.0, 1e-6);
        ck_assert_double_eq_tol(p.curvature, 1.0 / 400.0, 1e-6);
    }
    ck_assert(t.fit_err_pos < 1e-6);
    ck_assert(t.fit_err_d2 < 1e-6);
    rs_track_free(&t);
}
END_TEST

static void check_clothoid(double L, double k0, double k1)
{
    char text[256];
    snprintf(text, sizeof text, "railsym-track 1\ngauge 1.435\nclothoid %.17g from %.17g to "
             "%.17g\n", L, k0, k1);
    rs_track t;
    load_text(&t, text);
    double xs, ys;
    fresnel_series(k0, 0.5 * (k1 - k0) / L, L, &xs, &ys);
    rs_track_point p;
    int hint = -1;
    rs_track_eval(&t, L, &hint, &p);
    rs_track_exact ex;
    rs_track_exact_eval(&t, L, NULL, &ex);
    ck_assert_msg(fabs(ex.pos[0] - xs) < 1e-9 && fabs(ex.pos[1] - ys) < 1e-9,
                  "exact end (%.15g, %.15g) vs series (%.15g, %.15g)", ex.pos[0], ex.pos[1],
                  xs, ys);
    ck_assert_msg(fabs(p.pos[0] - xs) < 1e-9 && fabs(p.pos[1] - ys) < 1e-9,
                  "spline end (%.15g, %.15g) vs series (%.15g, %.15g)", p.pos[0], p.pos[1],
                  xs, ys);
    /* interior points too, and the curvature is linear in s */
    for (int i = 0; i < 3000; i++) {
        double s = urand() * L;
        rs_track_eval(&t, s, &hint, &p);
        double k = k0 + (k1 - k0) * s / L;
        ck_assert_msg(fabs(p.curvature - k) < 1e-6, "s %g: curvature %.9g vs %.9g", s,
                      p.curvature, k);
        if (i % 100 == 0) {
            fresnel_series(k0, 0.5 * (k1 - k0) / L, s, &xs, &ys);
            ck_assert_double_eq_tol(p.pos[0], xs, 1e-6);
            ck_assert_double_eq_tol(p.pos[1], ys, 1e-6);
            rs_track_exact_eval(&t, s, NULL, &ex);
            ck_assert_double_eq_tol(ex.pos[0], xs, 1e-9);
            ck_assert_double_eq_tol(ex.pos[1], ys, 1e-9);
        }
        ck_assert_double_eq_tol(norm3(p.d1), 1.0, 1e-6);
    }
    ck_assert_double_eq_tol(t.s_end, L, 1e-12);
    rs_track_free(&t);
}

START_TEST(clothoid_matches_fresnel_series)
{
    check_clothoid(200.0, 0.0, 1.0 / 300.0);
    check_clothoid(80.0, 1.0 / 500.0, -1.0 / 200.0);
    check_clothoid(30.0, -1.0 / 100.0, 0.0);
}
END_TEST

START_TEST(reference_track_s_curve)
{
    rs_track t;
    load_file(&t, "feve3000_reference.trk");
    ck_assert(t.gauge == 1.01746); /* the model's rails (the file says why) */
    ck_assert(t.cant_base == 1.070);
    const double R = 268.771938221779, La = 58.4300985300236;
    ck_assert(t.s_begin == -30.0);
    ck_assert_double_eq_tol(t.s_end - t.s_begin, 80 + 4 * 40 + 2 * La + 160, 1e-9);
    /* The S-curve: 50 m offset over 270 m in x (seed 003 §5); the end is
     * straight and parallel. */
    rs_track_exact ex;
    rs_track_exact_eval(&t, t.s_end - 160.0, NULL, &ex);
    ck_assert_double_eq_tol(ex.pos[0], 320.0, 1e-8);
    ck_assert_double_eq_tol(ex.pos[1], 50.0, 1e-8);
    ck_assert_double_eq_tol(ex.heading, 0.0, 1e-12);
    rs_track_point p;
    int hint = 0;
    rs_track_eval(&t, t.s_end, &hint, &p);
    ck_assert_double_eq_tol(p.pos[0], 480.0, 1e-6);
    ck_assert_double_eq_tol(p.pos[1], 50.0, 1e-6);
    rs_track_eval(&t, 50.0, &hint, &p);
    ck_assert_double_eq_tol(p.pos[0], 50.0, 1e-9);
    ck_assert_double_eq_tol(p.pos[1], 0.0, 1e-9);
    /* first arc's curvature, from the spline's derivatives */
    for (double s = 91; s < 50 + 40 + La - 1; s += 0.37) {
        rs_track_eval(&t, s, &hint, &p);
        ck_assert_double_eq_tol(p.curvature, 1.0 / R, 1e-6);
    }
    /* irregularities: right rail A sin(2πs/10), left rail A cos, in full
     * from s = 30 m (they fade in from s = 10 m; the taper also fades them
     * out over the last 20 m), nothing before s = 10 m */
    for (int i = 0; i < 200; i++) {
        double s = t.s_begin + urand() * (10.0 - t.s_begin);
        rs_track_exact_eval(&t, s, NULL, &ex);
        ck_assert(ex.vertical == 0.0 && ex.cross_level == 0.0);
    }
    for (int i = 0; i < 2000; i++) {
        double s = 30.0 + urand() * (t.s_end - 20.0 - 30.0);
        rs_track_eval(&t, s, &hint, &p);
        rs_track_exact_eval(&t, s, NULL, &ex);
        double zr = 0.010 * sin(2 * PI * s / 10.0), zl = 0.010 * cos(2 * PI * s / 10.0);
        ck_assert_double_eq_tol(ex.vertical, 0.5 * (zl + zr), 1e-12);
        ck_assert_double_eq_tol(ex.cross_level, zl - zr, 1e-12);
        ck_assert_double_eq_tol(p.pos[2], 0.5 * (zl + zr), 1e-6);
        ck_assert_double_eq_tol(p.cant, asin((zl - zr) / 1.070), 1e-6);
    }
    rs_track_free(&t);
}
END_TEST

START_TEST(heading_continuous_at_joints)
{
    const char *files[] = { "feve3000_reference.trk", "curve.trk" };
    for (int f = 0; f < 2; f++) {
        rs_track t;
        load_file(&t, files[f]);
        int hint = 0;
        /* joints: walk the exact geometry's curvature for changes of slope */
        const double eps = 1e-7;
        for (double s = t.s_begin + 1; s < t.s_end - 1; s += 0.5) {
            rs_track_point a, b;
            rs_track_eval(&t, s - eps, &hint, &a);
            rs_track_eval(&t, s + eps, &hint, &b);
            for (int k = 0; k < 3; k++)
                ck_assert_double_eq_tol(a.tangent[k], b.tangent[k], 1e-8);
            rs_track_exact ea, eb;
            rs_track_exact_eval(&t, s - eps, NULL, &ea);
            rs_track_exact_eval(&t, s + eps, NULL, &eb);
            ck_assert_double_eq_tol(ea.heading, eb.heading, 1e-8);
        }
        rs_track_free(&t);
    }
    /* the exact heading at each joint equals the integral of the curvature */
    rs_track t;
    load_text(&t, "railsym-track 1\ngauge 1.435\nstraight 10\nclothoid 50 to 1/250\n"
                  "curve 70 radius 250\nclothoid 50 to 0\nstraight 10\n");
    rs_track_exact ex;
    rs_track_exact_eval(&t, 60.0, NULL, &ex);
    ck_assert_double_eq_tol(ex.heading, 0.5 * 50 / 250.0, 1e-14);
    rs_track_exact_eval(&t, 130.0, NULL, &ex);
    ck_assert_double_eq_tol(ex.heading, 25.0 / 250.0 + 70.0 / 250.0, 1e-14);
    rs_track_exact_eval(&t, 190.0, NULL, &ex);
    ck_assert_double_eq_tol(ex.heading, 2 * 25.0 / 250.0 + 70.0 / 250.0, 1e-14);
    rs_track_free(&t);
}
END_TEST

START_TEST(cant_ramps_over_transitions)
{
    rs_track t;
    load_text(&t, "railsym-track 1\ngauge 1.435\ncant_base 1.5\nstraight 100\n"
                  "clothoid 80\ncurve 200 radius 600 right cant 120 mm\nclothoid 80\n"
                  "straight 100\nclothoid 60\ncurve 100 radius 800 left cant 4 deg\n");
    const double th = asin(0.120 / 1.5);    /* right curve: raises the left rail */
    int hint = 0;
    rs_track_point p;
    for (int i = 0; i <= 80; i++) {
        double s = 100.0 + i;
        rs_track_eval(&t, s, &hint, &p);
        ck_assert_double_eq_tol(p.cant, th * i / 80.0, 1e-6);
        rs_track_eval(&t, 380.0 + i, &hint, &p);
        ck_assert_double_eq_tol(p.cant, th * (80 - i) / 80.0, 1e-6);
    }
    for (double s = 180; s <= 380; s += 1.7) {
        rs_track_eval(&t, s, &hint, &p);
        ck_assert_double_eq_tol(p.cant, th, 1e-6);
        /* the left rail (u = +0.75 along ĉ) sits 120 mm above the right */
        double hl = p.pos[2] + 0.75 * p.lateral[2], hr = p.pos[2] - 0.75 * p.lateral[2];
        ck_assert_double_eq_tol(hl - hr, 0.120, 1e-6);
        /* ĉ, n̂, t orthonormal */
        double d = 0, e = 0;
        for (int k = 0; k < 3; k++) {
            d += p.lateral[k] * p.up[k];
            e += p.lateral[k] * p.tangent[k];
        }
        ck_assert_double_eq_tol(d, 0, 1e-12);
        ck_assert_double_eq_tol(e, 0, 1e-12);
        ck_assert_double_eq_tol(norm3(p.up), 1, 1e-12);
    }
    rs_track_eval(&t, 560.0 + 60 + 50, &hint, &p);       /* left curve, angle given */
    ck_assert_double_eq_tol(p.cant, -4.0 * PI / 180.0, 1e-6);
    rs_track_eval(&t, 560.0 + 30, &hint, &p);             /* mid transition */
    ck_assert_double_eq_tol(p.cant, -2.0 * PI / 180.0, 1e-6);
    rs_track_free(&t);
}
END_TEST

START_TEST(gradient_and_vertical_curve)
{
    rs_track t;
    load_text(&t, "railsym-track 1\ngauge 1.435\ngradient 2 permille\nstraight 100\n"
                  "gradient 12 permille ramp 200\ncurve 300 radius 500\n");
    int hint = 0;
    for (int i = 0; i < 2000; i++) {
        double s = urand() * 400.0, z;
        if (s < 100) z = 0.002 * s;
        else if (s < 300) z = 0.2 + 0.002 * (s - 100) + 0.5 * (0.010 / 200.0) * (s - 100) * (s - 100);
        else z = 0.2 + 0.4 + 1.0 + 0.012 * (s - 300);
        rs_track_point p;
        rs_track_eval(&t, s, &hint, &p);
        ck_assert_double_eq_tol(p.pos[2], z, 1e-6);
        ck_assert_double_eq_tol(norm3(p.d1), 1.0, 1e-6);   /* s is arc length */
    }
    rs_track_free(&t);
}
END_TEST

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

START_TEST(irregularities_amplitude_and_wavelength)
{
    rs_track t;
    load_text(&t, "railsym-track 1\ngauge 1.435\nstraight 400\n"
                  "irregularity lateral sine amplitude 0.003 wavelength 20\n"
                  "irregularity vertical sine amplitude 0.004 wavelength 30 phase 90 deg\n"
                  "irregularity cant sine amplitude 0.002 wavelength 50 from 100 to 300 taper 25\n");
    int hint = 0;
    double ymax = 0, zmax = 0;
    int cross = 0;
    double prev = 0;
    for (int i = 0; i <= 40000; i++) {
        double s = 400.0 * i / 40000.0;
        rs_track_point p;
        rs_track_eval(&t, s, &hint, &p);
        ck_assert_double_eq_tol(p.pos[1], 0.003 * sin(2 * PI * s / 20), 1e-6);
        ck_assert_double_eq_tol(p.pos[2], 0.004 * cos(2 * PI * s / 30), 1e-6);
        ymax = fmax(ymax, fabs(p.pos[1]));
        zmax = fmax(zmax, fabs(p.pos[2]));
        if (i > 0 && (prev < 0) != (p.pos[1] < 0)) cross++;
        prev = p.pos[1];
        /* cross level: full in the middle, faded by the taper, 0 outside */
        double w = 0;
        if (s >= 100 && s <= 300) {
            double u = s < 125 ? (s - 100) / 25 : s > 275 ? (300 - s) / 25 : 1;
            w = u * u * u * (10 - 15 * u + 6 * u * u);
        }
        double h = w * 0.002 * sin(2 * PI * s / 50);
        ck_assert_double_eq_tol(p.cant, asin(h / t.cant_base), 1e-6);
    }
    ck_assert_double_eq_tol(ymax, 0.003, 1e-6);
    ck_assert_double_eq_tol(zmax, 0.004, 1e-6);
    ck_assert_int_eq(cross, 400 / 10 - 1);   /* zero crossings every half wavelength */
    rs_track_free(&t);

    /* per-rail vertical: centre = mean, cant from the difference */
    load_text(&t, "railsym-track 1\ngauge 1.0\ncant_base 1.07\nstraight 100\n"
                  "irregularity vertical_left sine amplitude 0.01 wavelength 10\n"
                  "irregularity vertical_right sine amplitude 0.005 wavelength 10\n");
    for (double s = 0; s <= 100; s += 0.13) {
        rs_track_point p;
        rs_track_eval(&t, s, &hint, &p);
        double l = 0.01 * sin(2 * PI * s / 10), r = 0.005 * sin(2 * PI * s / 10);
        ck_assert_double_eq_tol(p.pos[2], 0.5 * (l + r), 1e-6);
        ck_assert_double_eq_tol(p.cant, asin((l - r) / 1.07), 1e-6);
        /* rails at ±0.535 along ĉ: their heights are l and r */
        ck_assert_double_eq_tol(p.pos[2] + 0.535 * p.lateral[2], l, 1e-6);
        ck_assert_double_eq_tol(p.pos[2] - 0.535 * p.lateral[2], r, 1e-6);
    }
    rs_track_free(&t);

    /* measured tables, linear and spline */
    char dir[] = "/tmp/rs_track_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[600];
    snprintf(path, sizeof path, "%s/lat.csv", dir);
    write_file(path, "# lateral, mm\ns,value\n10,0\n20,2\n30,-1\n40,0\n");
    char text[1024], err[512];
    snprintf(text, sizeof text, "railsym-track 1\ngauge 1.435\nstraight 60\n"
             "irregularity lateral table lat.csv linear scale 0.001\n");
    ck_assert_msg(rs_track_parse(&t, text, strlen(text), "t.trk", dir, err, sizeof err) == 0,
                  "%s", err);
    double probe[][2] = { { 5, 0 }, { 10, 0 }, { 15, 0.001 }, { 20, 0.002 }, { 25, 0.0005 },
                          { 30, -0.001 }, { 37.5, -0.00025 }, { 50, 0 } };
    for (size_t i = 0; i < sizeof probe / sizeof probe[0]; i++) {
        rs_track_point p;
        rs_track_eval(&t, probe[i][0], &hint, &p);
        ck_assert_msg(fabs(p.pos[1] - probe[i][1]) < 1e-6, "s %g: %g vs %g", probe[i][0],
                      p.pos[1], probe[i][1]);
    }
    rs_track_free(&t);
    snprintf(path, sizeof path, "%s/vert.csv", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    for (int i = 0; i <= 50; i++) {   /* a cubic: the spline reproduces it */
        double s = 2.0 * i, v = (s / 100) * (1 - s / 100) * (0.5 - s / 100);
        fprintf(f, "%.17g,%.17g\n", s, v);
    }
    fclose(f);
    snprintf(text, sizeof text, "railsym-track 1\ngauge 1.435\nstraight 100\n"
             "irregularity vertical table vert.csv spline scale 0.01\n");
    ck_assert_msg(rs_track_parse(&t, text, strlen(text), "t.trk", dir, err, sizeof err) == 0,
                  "%s", err);
    for (double s = 0; s <= 100; s += 0.77) {
        rs_track_point p;
        rs_track_eval(&t, s, &hint, &p);
        double v = 0.01 * (s / 100) * (1 - s / 100) * (0.5 - s / 100);
        ck_assert_double_eq_tol(p.pos[2], v, 1e-9);
    }
    rs_track_free(&t);
    unlink(path);
    snprintf(path, sizeof path, "%s/lat.csv", dir);
    unlink(path);
    rmdir(dir);
}
END_TEST

/* Gauge irregularity g(s) (+ = wider): the left rail's line is c + g/2 ĉ,
 * the right one's c − g/2 ĉ; the centre line does not move.  Hand values:
 * a 4 mm sine of 20 m on a straight; a constant +5 mm table on a canted
 * curve (ĉ's z = h / base there). */
START_TEST(gauge_irregularity_moves_each_rail)
{
    rs_track t;
    load_text(&t, "railsym-track 1\ngauge 1.435\nstraight 200\n"
                  "irregularity gauge sine amplitude 0.004 wavelength 20\n");
    ck_assert_int_eq(t.has_gauge, 1);
    int hint = 0;
    rs_track_point c, l, r;
    /* s = 5: g = 4 mm, rails at y = ±2 mm; s = 12.5: g = 4 sin(225°) = −2.828 mm */
    const double probe[][2] = { { 5, 0.002 }, { 12.5, -0.0014142135623731 }, { 0, 0 }, { 110, 0 } };
    for (size_t i = 0; i < sizeof probe / sizeof probe[0]; i++) {
        const double s = probe[i][0];
        rs_track_eval(&t, s, &hint, &c);
        rs_track_rail_eval(&t, +1, s, &hint, &l);
        rs_track_rail_eval(&t, -1, s, &hint, &r);
        ck_assert_double_eq_tol(c.pos[1], 0, 1e-9);
        ck_assert_double_eq_tol(l.pos[0], s, 1e-9);
        ck_assert_double_eq_tol(l.pos[1], probe[i][1], 1e-8);
        ck_assert_double_eq_tol(r.pos[1], -probe[i][1], 1e-8);
        ck_assert_double_eq_tol(l.pos[2], 0, 1e-9);
    }
    /* at s = 10 the left rail turns by g'/2 = 2 mm · 2π/20 m · cos π = −6.2832e-4 rad */
    rs_track_rail_eval(&t, +1, 10, &hint, &l);
    ck_assert_double_eq_tol(atan2(l.tangent[1], l.tangent[0]), -6.283185307e-4, 1e-7);
    ck_assert_double_eq_tol(l.lateral[0], 6.283185307e-4, 1e-7);
    rs_track_exact e;
    rs_track_exact_eval(&t, 5, &hint, &e);
    ck_assert_double_eq_tol(e.gauge, 0.004, 1e-12);
    ck_assert(t.fit_err_rail <= t.tolerance);
    rs_track_free(&t);

    /* constant +5 mm on a left curve, R 1000 m, cant 0.15 m on base 1.5 m */
    char dir[] = "/tmp/rs_track_XXXXXX", path[600], text[1024], err[512];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/g.csv", dir);
    write_file(path, "s,value\n-1,0.005\n301,0.005\n");
    snprintf(text, sizeof text, "railsym-track 1\ngauge 1.435\ncant_base 1.5\n"
             "curve 300 radius 1000 left cant 0.15\nirregularity gauge table g.csv linear\n");
    ck_assert_msg(rs_track_parse(&t, text, strlen(text), "t.trk", dir, err, sizeof err) == 0, "%s", err);
    const double sz = -0.15 / 1.5, cz = sqrt(1 - sz * sz);   /* left curve: θ < 0, the left rail low */
    for (double s = 3; s < 300; s += 37.1) {
        rs_track_eval(&t, s, &hint, &c);
        rs_track_rail_eval(&t, +1, s, &hint, &l);
        rs_track_rail_eval(&t, -1, s, &hint, &r);
        /* plan: the centre's normal (−sin ψ, cos ψ), ψ = s/R; height ± 2.5 mm sin θ */
        const double psi = s / 1000, d = 0.0025 * cz;
        ck_assert_double_eq_tol(l.pos[0] - c.pos[0], -d * sin(psi), 1e-8);
        ck_assert_double_eq_tol(l.pos[1] - c.pos[1], d * cos(psi), 1e-8);
        ck_assert_double_eq_tol(l.pos[2] - c.pos[2], 0.0025 * sz, 1e-8);
        ck_assert_double_eq_tol(r.pos[1] - c.pos[1], -d * cos(psi), 1e-8);
        ck_assert_double_eq_tol(r.pos[2] - c.pos[2], -0.0025 * sz, 1e-8);
        /* a constant gauge keeps the rails parallel to the centre line */
        for (int k = 0; k < 3; k++) {
            ck_assert_double_eq_tol(l.tangent[k], c.tangent[k], 1e-8);
            ck_assert_double_eq_tol(r.lateral[k], c.lateral[k], 1e-8);
        }
    }
    rs_track_free(&t);
    unlink(path);
    rmdir(dir);
}
END_TEST

START_TEST(shipped_curve_fits_within_tolerance)
{
    rs_track t;
    load_file(&t, "curve.trk");
    ck_assert_int_eq(t.n_irregularities, 3);
    int hint = 0, eh = 0;
    double ep = 0, ec = 0;
    for (int i = 0; i < 50000; i++) {
        double s = t.s_begin + urand() * (t.s_end - t.s_begin);
        rs_track_point p;
        rs_track_exact ex;
        rs_track_eval(&t, s, &hint, &p);
        rs_track_exact_eval(&t, s, &eh, &ex);
        for (int k = 0; k < 3; k++) ep = fmax(ep, fabs(p.pos[k] - ex.pos[k]));
        ec = fmax(ec, fabs(p.cant - ex.cant));
    }
    ck_assert_msg(ep < 1e-6, "position error %g", ep);
    ck_assert_msg(ec < 1e-6, "cant error %g", ec);
    /* the design part: 4 permille after the vertical curve */
    rs_track_exact ex;
    rs_track_exact_eval(&t, 500.0, NULL, &ex);
    ck_assert_double_eq_tol(ex.grade, 0.004, 1e-15);
    ck_assert_double_eq_tol(ex.pos[2] - ex.vertical, 0.4 + 0.004 * 200, 1e-12);
    rs_track_free(&t);
}
END_TEST

START_TEST(segment_coefficients_and_hint)
{
    rs_track t;
    load_file(&t, "feve3000_reference.trk");
    int nseg = rs_track_segments(&t);
    ck_assert_int_gt(nseg, 100);
    int hint = 0;
    double s = t.s_begin;
    for (int i = 0; i < 100000; i++) {
        /* a random walk: small steps as in a simulation, sometimes a jump,
         * sometimes outside the track */
        double r = urand();
        if (r < 0.01) s = t.s_begin - 5 + urand() * (t.s_end - t.s_begin + 10);
        else s += (urand() - 0.3) * 0.05;
        int out1 = 9, out2 = 9;
        int a = rs_track_find(&t, s, &hint, &out1);
        int b = rs_track_find(&t, s, NULL, &out2);
        ck_assert_int_eq(a, b);
        ck_assert_int_eq(out1, out2);
        if (i % 50 == 0) {
            double c[4][5];
            rs_track_segment(&t, a, c);
            rs_track_point p;
            int h2 = a;
            rs_track_eval(&t, s, &h2, &p);
            for (int k = 0; k < 3; k++) {
                double v = c[k][0], u = s - c[k][4];
                v = ((c[k][0] * u + c[k][1]) * u + c[k][2]) * u + c[k][3];
                ck_assert_double_eq_tol(v, p.pos[k], 1e-9);
            }
            double u = s - c[3][4];
            ck_assert_double_eq_tol(((c[3][0] * u + c[3][1]) * u + c[3][2]) * u + c[3][3],
                                    p.cant, 1e-12);
            ck_assert(c[0][4] == c[3][4]);   /* shared knots */
        }
    }
    rs_track_free(&t);
}
END_TEST

START_TEST(project_points_onto_the_track)
{
    rs_track t;
    load_file(&t, "feve3000_reference.trk");
    int hint = 0;
    for (int i = 0; i < 500; i++) {
        double s = t.s_begin + 1 + urand() * (t.s_end - t.s_begin - 2);
        double off = (urand() - 0.5) * 4.0;
        rs_track_point p;
        rs_track_eval(&t, s, &hint, &p);
        double hn = hypot(p.tangent[0], p.tangent[1]);
        double q[2] = { p.pos[0] - off * p.tangent[1] / hn, p.pos[1] + off * p.tangent[0] / hn };
        double sp;
        int rc = rs_track_project(&t, q, s + (urand() - 0.5) * 3, &hint, &sp);
        ck_assert_int_eq(rc, 0);
        ck_assert_msg(fabs(sp - s) < 1e-6, "s %g projected to %g", s, sp);
    }
    rs_track_free(&t);
}
END_TEST

/* ---------------------------------------------------------------- errors */

typedef struct bad {
    const char *text;
    const char *where;   /* expected "t.trk:LINE" prefix */
    const char *what;    /* expected substring */
    int code;
} bad;

static const bad BAD[] = {
    { "gauge 1.435\nstraight 10\n", "t.trk:1:", "railsym-track 1", RS_E_SYNTAX },
    { "railsym-track 2\n", "t.trk:1:", "unsupported header", RS_E_SYNTAX },
    /* a file of another kind (rs_kind_check) */
    { "railsym-profile 1\nname s1002\n", "t.trk:1:",
      "the file looks like a profile file (first line 'railsym-profile 1'), not a track file; give a track file "
      "here (.trk, first line 'railsym-track 1', docs/contact.md)", RS_E_SYNTAX },
    { "# curve\ns,value\n120,0.0\n", "t.trk:2:",
      "the file looks like a CSV table (first line 's,value'), not a track file", RS_E_SYNTAX },
    { "duration 10\ninitial th = 0.3\n", "t.trk:2:",
      "the file looks like a scenario file (line 2 'initial th = 0.3'), not a track file", RS_E_SYNTAX },
    { "", "t.trk:", "empty file", RS_E_SYNTAX },
    { "railsym-track 1\ngauge 1.435\nstright 10\n", "t.trk:3:", "did you mean 'straight'",
      RS_E_SYNTAX },
    { "railsym-track 1\ngauge 1.435\nstraight -5\n", "t.trk:3:", "must be positive",
      RS_E_VALUE },
    { "railsym-track 1\ngauge 1.435\nstraight\n", "t.trk:3:", "needs its length",
      RS_E_SYNTAX },
    { "railsym-track 1\ngauge 1.435\nstraight ten\n", "t.trk:3:", "not a length",
      RS_E_SYNTAX },
    { "railsym-track 1\ngauge 1.435\nstraight 0.0001\n", "t.trk:3:", "shorter than",
      RS_E_VALUE },
    { "railsym-track 1\ngauge 1.435\nstraight 200000\n", "t.trk:3:", "longer than the limit",
      RS_E_VALUE },
    { "railsym-track 1\ngauge 1.435\nstraight 10 20\n", "t.trk:3:", "unexpected '20'",
      RS_E_SYNTAX },
    { "railsym-track 1\ngauge 1.435\nstraight 10 cant 0.1\n", "t.trk:3:", "no cant",
      RS_E_SYNTAX },
    { "railsym-track 1\ngauge 1.435\ncurve 100 left\n", "t.trk:3:", "needs its radius",
      RS_E_SYNTAX },
    { "railsym-track 1\ngauge 1.435\ncurve 100 radus 300\n", "t.trk:3:",
      "did you mean 'radius'", RS_E_SYNTAX },
    { "railsym-track 1\ngauge 1.435\ncurve 100 radius\n", "t.trk:3:", "missing radius",
      RS_E_SYNTAX },
    { "railsym-track 1\ngauge 1.435\ncurve 100 radius 0.5\n", "t.trk:3:", "out of range",
      RS_E_VALUE },
    { "railsym-track 1\ngauge 1.435\ncurve 100 radius 300 left right\n", "t.trk:3:",
      "side is given twice", RS_E_SYNTAX },
    { "railsym-track 1\ngauge 1.435\ncurve 100 radius 300 cant 0.1 inch\n", "t.trk:3:",
      "unknown cant unit 'inch'", RS_E_SYNTAX },
    { "railsym-track 1\ngauge 1.435\ncurve 100 radius 300 cant 150\n", "t.trk:3:",
      "check the unit", RS_E_VALUE },
    { "railsym-track 1\ngauge 1.435\nclothoid 50\nstraight 10\n", "t.trk:3:",
      "start of the track needs", RS_E_VALUE },
    { "railsym-track 1\ngauge 1.435\nstraight 10\nclothoid 50\nclothoid 50\ncurve 10 radius 100\n",
      "t.trk:5:", "cannot infer", RS_E_VALUE },
    { "railsym-track 1\ngauge 1.435\nstraight 10\nclothoid 50 to 0.0033\ncurve 10 radius 300\n",
      "t.trk:5:", "a rounded value?", RS_E_VALUE },
    { "railsym-track 1\ngauge 1.435\nstraight 10\nclothoid 50 from 0 to 2\n", "t.trk:4:",
      "out of range", RS_E_VALUE },
    { "railsym-track 1\ngauge 1.435\nstraight 10\nclothoid 50 to 1/0\n", "t.trk:4:",
      "not a number", RS_E_SYNTAX },
    { "railsym-track 1\ngauge 1.435\nstraight 10\nclothoid 50 cant 0.1\n", "t.trk:4:",
      "ramps the cant", RS_E_SYNTAX },
    { "railsym-track 1\ngauge 1.435\nstraight 10\ncurve 10 radius 300 cant 0.1\n", "t.trk:4:",
      "cant jumps", RS_E_VALUE },
    { "railsym-track 1\ngauge 1.435\nstraight 10\ngradient 0.01\nstraight 10\n", "t.trk:4:",
      "needs a vertical curve", RS_E_VALUE },
    { "railsym-track 1\ngauge 1.435\nstraight 10\ngradient 0.01 ramp 50\nstraight 10\n",
      "t.trk:4:", "past the end", RS_E_VALUE },
    { "railsym-track 1\ngauge 1.435\ngradient 0.5\nstraight 10\n", "t.trk:3:", "steeper",
      RS_E_VALUE },
    { "railsym-track 1\ngauge 1.435\ngradient 1 percnt\nstraight 10\n", "t.trk:3:",
      "did you mean 'percent'", RS_E_SYNTAX },
    { "railsym-track 1\ngauge 1.435\nstraight 10\ngauge 1.0\n", "t.trk:4:",
      "after the first alignment element", RS_E_SYNTAX },
    { "railsym-track 1\ngauge 1.435\ngauge 1.0\nstraight 10\n", "t.trk:3:",
      "given twice (first on line 2)", RS_E_SYNTAX },
    { "railsym-track 1\nstraight 10\n", "t.trk:1:", "missing `gauge`", RS_E_SYNTAX },
    { "railsym-track 1\ngauge 1435\nstraight 10\n", "t.trk:2:", "out of range",
      RS_E_VALUE },
    { "railsym-track 1\ngauge 1.435\n", "t.trk:1:", "no alignment elements",
      RS_E_SYNTAX },
    { "railsym-track 1\ngauge 1.435\ninclination 1:x\nstraight 10\n", "t.trk:3:",
      "not an inclination", RS_E_SYNTAX },
    { "railsym-track 1\nname bad/name\ngauge 1.435\nstraight 10\n", "t.trk:2:",
      "one word", RS_E_SYNTAX },
    { "railsym-track 1\ngauge 1.435\norigin x 1 headng 5\nstraight 10\n", "t.trk:3:",
      "did you mean 'heading'", RS_E_SYNTAX },
    { "railsym-track 1\ngauge 1.435\nstraight 10\nirregularity lateal sine amplitude 0.01 "
      "wavelength 5\n", "t.trk:4:", "did you mean 'lateral'", RS_E_SYNTAX },
    { "railsym-track 1\ngauge 1.435\nstraight 10\nirregularity lateral sine amplitude 0.01\n",
      "t.trk:4:", "needs `amplitude A` and `wavelength L`", RS_E_SYNTAX },
    { "railsym-track 1\ngauge 1.435\nstraight 10\nirregularity lateral sin amplitude 0.01\n",
      "t.trk:4:", "did you mean 'sine'", RS_E_SYNTAX },
    { "railsym-track 1\ngauge 1.435\nstraight 100\nirregularity vertical sine amplitude 0.01 "
      "wavelength 10 phase 90 deg from 20\n", "t.trk:4:", "add `taper LENGTH`",
      RS_E_VALUE },
    { "railsym-track 1\ngauge 1.435\nstraight 100\nirregularity vertical sine amplitude 0.01 "
      "wavelength 10 from 200\n", "t.trk:4:", "outside the track", RS_E_VALUE },
    { "railsym-track 1\ngauge 1.435\nstraight 100\nirregularity vertical sine amplitude 0.01 "
      "wavelength 10 from 50 to 40\n", "t.trk:4:", "must be greater", RS_E_VALUE },
    { "railsym-track 1\ngauge 1.435\nstraight 100\nirregularity vertical sine amplitude 0.01 "
      "wavelength 10 from 10 to 20 taper 6\n", "t.trk:4:", "longer than half", RS_E_VALUE },
    { "railsym-track 1\ngauge 1.435\nstraight 100\nirregularity vertical table nosuch.csv\n",
      "t.trk:4:", "cannot open the table", RS_E_IO },
    { "railsym-track 1\ngauge 1.435\nstraight 100\nirregularity cant sine amplitude 0.9 "
      "wavelength 10\n", "t.trk:", "more than half the cant base", RS_E_VALUE },
    { "railsym-track 1\ngauge 1.435\nstraight 10\nrailsym-track 1\n", "t.trk:4:",
      "header is given twice", RS_E_SYNTAX },
    { "railsym-track 1\ngauge 1.435\nspacing 0.01\nstraight 20000\n", "t.trk:",
      "raise `spacing`", RS_E_VALUE },
};

static void expect_error(const char *text, size_t len, const char *dir, const char *where,
                         const char *what, int code)
{
    rs_track t;
    char err[1024];
    int rc = rs_track_parse(&t, text, len, "t.trk", dir, err, sizeof err);
    ck_assert_msg(rc == code, "expected code %d, got %d for:\n%s\nmessage: %s", code, rc, text,
                  err);
    ck_assert_msg(strncmp(err, where, strlen(where)) == 0, "expected '%s...', got '%s'", where,
                  err);
    ck_assert_msg(strstr(err, what) != NULL, "expected '%s' in '%s'", what, err);
    ck_assert_ptr_null(t.design);
    ck_assert_int_eq(t.f[0].n, 0);
    rs_track_free(&t);
}

START_TEST(every_file_error_names_file_line_and_fix)
{
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++)
        expect_error(BAD[i].text, strlen(BAD[i].text), NULL, BAD[i].where, BAD[i].what,
                     BAD[i].code);
    /* NUL byte, over-long line */
    const char nul[] = "railsym-track 1\ngauge 1.435\nstr\0aight 10\n";
    expect_error(nul, sizeof nul - 1, NULL, "t.trk:3:", "a NUL byte at column 4: the file is binary or corrupt",
                 RS_E_SYNTAX);
    /* a NUL byte in an irregularity table (read line by line with fgets,
     * it used to cut the line silently), and a folder given as the table */
    char tdir[] = "/tmp/rs_track_nul_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(tdir));
    char tp[160];
    snprintf(tp, sizeof tp, "%s/irr.csv", tdir);
    FILE *tf = fopen(tp, "wb");
    ck_assert_ptr_nonnull(tf);
    static const char nul_table[] = "s,v\n0,0\n1,\0 1\n2,0\n";
    ck_assert_int_eq(fwrite(nul_table, 1, sizeof nul_table - 1, tf), sizeof nul_table - 1);
    fclose(tf);
    const char *irr = "railsym-track 1\ngauge 1.435\nstraight 100\nirregularity vertical table irr.csv\n";
    char twant[300];
    snprintf(twant, sizeof twant, "%s/irr.csv:3: a NUL byte at column 3: the file is binary or corrupt", tdir);
    expect_error(irr, strlen(irr), tdir, "t.trk:4:", twant, RS_E_SYNTAX);
    unlink(tp);
    ck_assert_int_eq(mkdir(tp, 0700), 0);
    expect_error(irr, strlen(irr), tdir, "t.trk:4:", "cannot open the table (it is a directory)", RS_E_IO);
    rmdir(tp);
    rmdir(tdir);
    char *longl = malloc(3000);
    ck_assert_ptr_nonnull(longl);
    snprintf(longl, 3000, "railsym-track 1\ngauge 1.435\n# ");
    size_t n = strlen(longl);
    memset(longl + n, 'x', 2000);
    strcpy(longl + n + 2000, "\nstraight 10\n");
    expect_error(longl, strlen(longl), NULL, "t.trk:3:", "longer than", RS_E_SYNTAX);
    free(longl);

    /* table errors name the table file and its line */
    char dir[] = "/tmp/rs_track_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    struct { const char *table, *line, *what; } tb[] = {
        { "s,value\n0,0\n10,1\n10,2\n20,0\n", ":4:", "not greater than the previous s = 10 "
          "(line 3)" },
        { "0,0\n10,1\n5,2\n20,0\n", ":3:", "sort the table" },
        { "0,0\n10,abc\n20,0\n", ":2:", "'abc' is not a finite number" },
        { "0,0\n10,1,3\n20,0\n", ":2:", "expected two numbers" },
        { "0,0\n10,nan\n20,0\n", ":2:", "not a finite number" },
        { "0,0\n10,0\n", ":", "spline interpolation needs at least 4" },
    };
    char path[600], text[1024];
    snprintf(path, sizeof path, "%s/tab.csv", dir);
    for (size_t i = 0; i < sizeof tb / sizeof tb[0]; i++) {
        write_file(path, tb[i].table);
        snprintf(text, sizeof text, "railsym-track 1\ngauge 1.435\nstraight 30\n"
                 "irregularity vertical table tab.csv\n");
        char where[700];
        snprintf(where, sizeof where, "t.trk:4: in table 'tab.csv': %s%s", path, tb[i].line);
        expect_error(text, strlen(text), dir, where, tb[i].what, RS_E_SYNTAX);
    }
    /* a kink no C² spline can follow within tolerance: E_FIT, not a crash */
    write_file(path, "0,0\n10,0\n10.001,0.01\n30,0.01\n");
    snprintf(text, sizeof text, "railsym-track 1\ngauge 1.435\nstraight 30\n"
             "irregularity vertical table tab.csv linear\n");
    expect_error(text, strlen(text), dir, "t.trk: ", "miss the geometry", RS_E_FIT);
    unlink(path);
    rmdir(dir);

    /* missing file */
    rs_track t;
    char err[512];
    ck_assert_int_eq(rs_track_load(&t, "vehicles/tracks/nosuch.trk", err, sizeof err),
                     RS_E_IO);
    ck_assert_ptr_nonnull(strstr(err, "vehicles/tracks/nosuch.trk: cannot open"));
    rs_track_free(&t);
    ck_assert_int_eq(rs_track_load(NULL, "x", err, sizeof err), RS_E_ARG);
}
END_TEST

/* Random edits of a valid file: the reader either builds a track or returns
 * an error with a message; it never crashes (ASan/UBSan in `make test`). */
START_TEST(reader_survives_fuzzing)
{
    const char *base =
        "railsym-track 1\nname fz\ngauge 1.0\ncant_base 1.07\nspacing 1\norigin s -10\n"
        "straight 20\ngradient 3 permille ramp 20\nclothoid 15 from 0 to 1/120\n"
        "curve 20 radius 120 left cant 50 mm\nclothoid 15\nstraight 20\n"
        "irregularity lateral sine amplitude 0.002 wavelength 7 from 0 to 60 taper 5\n"
        "irregularity vertical_left sine amplitude 0.003 wavelength 9\n";
    const char *words[] = { "straight", "curve", "clothoid", "radius", "cant", "from", "to",
                            "-1", "0", "1e9", "1/0", "nan", "inf", "#", "\n", " ", "1:20",
                            "gradient", "ramp", "taper", "irregularity", "table", "deg",
                            "0.0001", "1/3", "left", "right", "amplitude", "wavelength" };
    size_t blen = strlen(base);
    char *buf = malloc(blen + 512);
    ck_assert_ptr_nonnull(buf);
    int ok = 0, bad = 0;
    for (int it = 0; it < 1500; it++) {
        memcpy(buf, base, blen + 1);
        size_t n = blen;
        int edits = 1 + (int)(urand() * 4);
        for (int e = 0; e < edits; e++) {
            size_t pos = (size_t)(urand() * (double)n);
            double r = urand();
            if (r < 0.3 && n > 1) {                       /* delete a run */
                size_t k = 1 + (size_t)(urand() * 8);
                if (pos + k > n) k = n - pos;
                memmove(buf + pos, buf + pos + k, n - pos - k + 1);
                n -= k;
            } else if (r < 0.6) {                         /* insert a word */
                const char *w = words[(size_t)(urand() * (sizeof words / sizeof words[0]))];
                size_t k = strlen(w);
                if (n + k + 2 < blen + 512) {
                    memmove(buf + pos + k, buf + pos, n - pos + 1);
                    memcpy(buf + pos, w, k);
                    n += k;
                }
            } else if (n > 0) {                           /* flip a byte */
                buf[pos] = (char)(32 + (int)(urand() * 95));
            }
        }
        rs_track t;
        char err[512];
        err[0] = '\0';
        int rc = rs_track_parse(&t, buf, n, "t.trk", NULL, err, sizeof err);
        if (rc == 0) {
            ok++;
            rs_track_point p;
            int h = 0;
            ck_assert_int_ge(rs_track_eval(&t, 0.5 * (t.s_begin + t.s_end), &h, &p), 0);
            ck_assert(isfinite(p.pos[0]) && isfinite(p.cant));
        } else {
            bad++;
            ck_assert_msg(strncmp(err, "t.trk", 5) == 0, "message without file: '%s'", err);
        }
        rs_track_free(&t);
    }
    free(buf);
    ck_assert_int_gt(ok, 10);
    ck_assert_int_gt(bad, 10);
}
END_TEST

static Suite *track_suite(void)
{
    Suite *s = suite_create("track");
    TCase *g = tcase_create("geometry");
    tcase_set_timeout(g, 120);
    tcase_add_test(g, straight_is_an_exact_line);
    tcase_add_test(g, arc_on_its_circle_with_curvature_1_over_R);
    tcase_add_test(g, clothoid_matches_fresnel_series);
    tcase_add_test(g, reference_track_s_curve);
    tcase_add_test(g, heading_continuous_at_joints);
    tcase_add_test(g, cant_ramps_over_transitions);
    tcase_add_test(g, gradient_and_vertical_curve);
    tcase_add_test(g, irregularities_amplitude_and_wavelength);
    tcase_add_test(g, gauge_irregularity_moves_each_rail);
    tcase_add_test(g, shipped_curve_fits_within_tolerance);
    tcase_add_test(g, segment_coefficients_and_hint);
    tcase_add_test(g, project_points_onto_the_track);
    suite_add_tcase(s, g);
    TCase *e = tcase_create("errors");
    tcase_set_timeout(e, 120);
    tcase_add_test(e, every_file_error_names_file_line_and_fix);
    tcase_add_test(e, reader_survives_fuzzing);
    suite_add_tcase(s, e);
    return s;
}

RS_TEST_MAIN(track_suite)
