/*
 * test_contact_profiles.c — profile files: the shipped ones are exactly what
 * tests/tools/gen_profiles.c writes, their splines reproduce the published
 * geometry (S1002 sections, 60E1 arcs, cone, circle), and the reader rejects
 * every kind of bad file with file:line and a fix, never crashing.
 */
#define _POSIX_C_SOURCE 200809L   /* mkdtemp */
#define GEN_PROFILES_NO_MAIN
#include "gen_profiles.c"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rs_hertz.h"
#include "rs_profile.h"
#include "rs_wr_geometry.h"
#include "rs_test.h"

#define PROFILE_DIR "vehicles/profiles"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap);
    size_t got;
    while (b && (got = fread(b + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *nb = realloc(b, cap *= 2);
            if (!nb) {
                free(b);
                b = NULL;
            }
            b = nb;
        }
    }
    fclose(f);
    *len = n;
    return b;
}

START_TEST(shipped_files_are_reproducible)
{
    char dir[] = "/tmp/rs_profiles_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char err[512];
    ck_assert_msg(gen_profiles_all(dir, err, sizeof err) == 0, "%s", err);
    for (int i = 0; i < GEN_PROFILES_NFILES; i++) {
        char a[600], b[600];
        snprintf(a, sizeof a, "%s/%s", dir, gen_profiles_files[i]);
        snprintf(b, sizeof b, "%s/%s", PROFILE_DIR, gen_profiles_files[i]);
        size_t la = 0, lb = 0;
        char *ta = slurp(a, &la), *tb = slurp(b, &lb);
        ck_assert_msg(ta != NULL, "generated %s missing", a);
        ck_assert_msg(tb != NULL, "shipped %s missing: run scripts/gen_profiles.sh", b);
        ck_assert_msg(la == lb && memcmp(ta, tb, la) == 0,
                      "%s differs from the generator's output: run scripts/gen_profiles.sh", b);
        free(ta);
        free(tb);
        unlink(a);
    }
    rmdir(dir);
}
END_TEST

static void load(rs_profile *p, const char *file)
{
    char path[256], err[512];
    snprintf(path, sizeof path, "%s/%s", PROFILE_DIR, file);
    int rc = rs_profile_load(p, path, err, sizeof err);
    ck_assert_msg(rc == RS_OK, "%s", err);
}

START_TEST(s1002_definition)
{
    /* the definition itself (transcription check): F(0) = 0, flange height
     * 28 mm at S = −55, slope −BB at the taping line, sections meet within
     * the published discontinuities (1.2e-4 mm at C/D, 4e-5 mm at B/C) */
    ck_assert(fabs(gen_s1002_mm(0.0)) < 1e-15);
    ck_assert(fabs(gen_s1002_mm(-55.0) - 28.0) < 1e-12);
    ck_assert(fabs(gen_s1002_mm(60.0) - (1.364323640 - 0.066666667 * 60)) < 1e-12);
    for (int j = 0; j < S1002_NJOINT; j++) {
        double S = s1002_joint[j];
        double d = s1002_section(j, S) - s1002_section(j + 1, S);
        ck_assert_msg(fabs(d) < 1.3e-4, "joint %g: jump %g mm", S, d);
        double h = 1e-6;
        double sl = (s1002_section(j, S + h) - s1002_section(j, S - h)) / (2 * h);
        double sr = (s1002_section(j + 1, S + h) - s1002_section(j + 1, S - h)) / (2 * h);
        ck_assert_msg(fabs(sl - sr) < 1e-4, "joint %g: slopes %g %g", S, sl, sr);
    }

    rs_profile p;
    load(&p, "s1002.prf");
    ck_assert_str_eq(p.name, "S1002");
    ck_assert_int_eq(p.kind, RS_PROFILE_WHEEL);
    ck_assert(p.y[0] == -0.070 && p.y[p.n - 1] == 0.060);
    int hint = 0;
    /* at the knots: the definition, to the file's 1e-12 m rounding (of y
     * too, which the steep flange back amplifies) */
    for (int i = 0; i < p.n; i++) {
        double v = rs_profile_eval(&p, p.y[i], &hint, NULL, NULL);
        double S = p.y[i] * 1000, ref = gen_s1002_mm(S);
        for (int j = 0; j < S1002_NJOINT; j++)      /* a joint: the mean */
            if (fabs(S - s1002_joint[j]) < 1e-6)
                ref = 0.5 * (s1002_section(j, S) + s1002_section(j + 1, S));
        double e = fabs(v - ref / 1000);
        ck_assert_msg(e < (p.y[i] < -0.0695 ? 1e-10 : 1e-12), "knot %g: %g", p.y[i], e);
    }
    /* between the knots: the definition within 0.3 µm, except the last
     * 0.5 mm at the flange back with its vertical tangent (never in contact) */
    double worst = 0;
    for (int i = 0; i < p.n - 1; i++) {
        double u = 0.5 * (p.y[i] + p.y[i + 1]);
        if (u < -0.0695)
            continue;
        double e = fabs(rs_profile_eval(&p, u, &hint, NULL, NULL) - gen_s1002_mm(u * 1000) / 1000);
        if (e > worst)
            worst = e;
    }
    ck_assert_msg(worst < 3e-7, "S1002 midpoint error %g m", worst);
    /* slope at the taping line and the tread's concave curvature
     * (F'' = 2 CB: radius 0.319 m, negative = hollow in railsym's sign) */
    double d1, d2;
    rs_profile_eval(&p, 0.0, &hint, &d1, &d2);
    ck_assert_msg(fabs(d1 + 3.358537058e-02) < 1e-5, "slope %g", d1);
    double R = rs_hertz_profile_radius(d1, d2);
    ck_assert_msg(R < 0 && fabs(fabs(R) - 1e-3 / (2 * 1.565681624e-03)) < 2e-3, "R %g", R);
    rs_profile_free(&p);
}
END_TEST

START_TEST(cones_exact)
{
    const char *files[2] = { "cone_1in40.prf", "cone_1in20.prf" };
    const double taper[2] = { 1.0 / 40, 1.0 / 20 };
    for (int k = 0; k < 2; k++) {
        rs_profile p;
        load(&p, files[k]);
        ck_assert_int_eq(p.kind, RS_PROFILE_WHEEL);
        int hint = 0;
        for (double y = -0.065; y <= 0.065; y += 0.00037) {
            double d1, d2, v = rs_profile_eval(&p, y, &hint, &d1, &d2);
            ck_assert(fabs(v + taper[k] * y) < 1e-13);
            ck_assert(fabs(d1 + taper[k]) < 1e-10);
            ck_assert(fabs(d2) < 1e-7);
        }
        rs_profile_free(&p);
    }
}
END_TEST

START_TEST(arc_r300_radius)
{
    rs_profile p;
    load(&p, "arc_r300.prf");
    ck_assert_int_eq(p.kind, RS_PROFILE_RAIL);
    int hint = 0;
    for (double y = -0.035; y <= 0.035; y += 0.00071) {
        double d1, d2, v = rs_profile_eval(&p, y, &hint, &d1, &d2);
        ck_assert(fabs(v + (0.3 - sqrt(0.09 - y * y))) < 1e-12);
        double R = rs_hertz_profile_radius(d1, d2);
        ck_assert_msg(fabs(R - 0.3) < 1e-5 * 0.3, "y %g R %.10g", y, R);
    }
    rs_profile_free(&p);
}
END_TEST

START_TEST(rail_60e1)
{
    const char *files[2] = { "60e1_1in40.prf", "60e1_1in20.prf" };
    const int incl[2] = { 40, 20 };
    for (int k = 0; k < 2; k++) {
        rs_profile p;
        load(&p, files[k]);
        ck_assert_int_eq(p.kind, RS_PROFILE_RAIL);
        ck_assert(p.has_gauge && p.has_top);
        int hint = 0;
        double sa = 1 / sqrt(incl[k] * incl[k] + 1.0), ca = incl[k] * sa;
        /* the curvature of each arc survives the rotation: sample at the
         * unrotated arc middles (R300 at y = 0, R80 at |y| = 18, R13 at
         * |y| = 30) mapped into the inclined frame */
        const double yy[5] = { -30, -18, 0, 18, 30 }, RR[5] = { 13, 80, 300, 80, 13 };
        for (int i = 0; i < 5; i++) {
            /* find the rotated abscissa of the unrotated point y0 by a few
             * fixed-point steps: y' = y0 ca − z sa with z on the profile */
            double y0 = yy[i] / 1000, yr = y0 * ca;
            for (int it = 0; it < 50; it++) {
                double z = rs_profile_eval(&p, yr, &hint, NULL, NULL);
                /* unrotate (yr, z) and correct yr so its y is y0 */
                double yu = yr * ca + z * sa;
                yr += (y0 - yu) / ca;
            }
            double d1, d2;
            rs_profile_eval(&p, yr, &hint, &d1, &d2);
            double R = rs_hertz_profile_radius(d1, d2) * 1000;
            ck_assert_msg(fabs(R - RR[i]) < 1e-3 * RR[i], "%s y %g: R %g vs %g", files[k],
                          yy[i], R, RR[i]);
        }
        /* level at the top point, which is the highest point of the table */
        double d1, top = rs_profile_eval(&p, p.top_y, &hint, &d1, NULL);
        ck_assert_msg(fabs(d1) < 1e-5, "%s: slope at the top %g", files[k], d1);
        ck_assert_msg(fabs(top - p.top_z) < 1e-9, "top %g", top - p.top_z);
        for (int i = 0; i < p.n; i++)
            ck_assert(p.z[i] <= p.top_z + 1e-12);
        /* gauge point: 14 mm below the top, on the gauge side, and on the
         * R13 arc whose centre lies 13 mm away */
        ck_assert(fabs(p.gauge_z - (p.top_z - 0.014)) < 1e-12);
        ck_assert(p.gauge_y < p.y[0]);
        ck_assert_msg(p.gauge_y > -0.0365 && p.gauge_y < -0.0350, "gauge y %g", p.gauge_y);
        /* steepest slope within the documented cap of 5 */
        for (int i = 0; i < p.n; i++) {
            rs_profile_eval(&p, p.y[i], &hint, &d1, NULL);
            ck_assert_msg(fabs(d1) < 5.0 + 1e-3, "slope %g at %g", d1, p.y[i]);
        }
        /* the crown: the rail inclined 1:k rises towards the field side */
        rs_profile_eval(&p, 0.0, &hint, &d1, NULL);
        ck_assert(fabs(d1 - 1.0 / incl[k]) < 1e-6);
        rs_profile_free(&p);
    }
}
END_TEST

/* ------------------------------------------------------------ bad files */

typedef struct bad_case {
    const char *text;
    int code;
    int line;
    const char *needle;
} bad_case;

#define HDR "railsym-profile 1\nname t\nkind rail\nunits m\n"
#define PTS "0 0\n1 1\n2 0\n3 1\n"

static const bad_case bad_cases[] = {
    { "", RS_E_SYNTAX, 1, "empty profile" },
    { "# only a comment\n\n", RS_E_SYNTAX, 2, "empty profile" },
    { "name x\n", RS_E_SYNTAX, 1, "railsym-profile 1" },
    { "railsym-profile 2\n", RS_E_SYNTAX, 1, "reads 'railsym-profile 1'" },
    /* a file of another kind (rs_kind_check) */
    { "y,z\n0,0\n1,1\n", RS_E_SYNTAX, 1,
      "the file looks like a CSV table (first line 'y,z'), not a profile file; give a profile here (.prf, "
      "first line 'railsym-profile 1', docs/contact.md)" },
    { "\nrailsym-track 1\ngauge 1.435\n", RS_E_SYNTAX, 2,
      "the file looks like a track file (first line 'railsym-track 1'), not a profile file" },
    { HDR, RS_E_TABLE, 4, "only 0 points" },
    { HDR "0 0\n1 1\n2 0\n", RS_E_TABLE, 7, "at least 4" },
    { HDR "0 0\n1 1\n1 0\n3 1\n", RS_E_TABLE, 7, "strictly increasing" },
    { HDR "0 0\n2 1\n1 0\n3 1\n", RS_E_TABLE, 7, "strictly increasing" },
    { HDR "0 0\n1 nan\n2 0\n3 1\n", RS_E_TABLE, 6, "not finite" },
    { HDR "0 0\n1 1\ninf 0\n3 1\n", RS_E_TABLE, 7, "not finite" },
    { HDR "0 0\n1 1x\n2 0\n3 1\n", RS_E_SYNTAX, 6, "'1x' is not a number" },
    { HDR "0 0\n1 1 1\n2 0\n3 1\n", RS_E_SYNTAX, 6, "two numbers" },
    { HDR "0 0\n1\n2 0\n3 1\n", RS_E_SYNTAX, 6, "two numbers" },
    { HDR "0 0\n1 1 2 3 4 5\n", RS_E_SYNTAX, 6, "more than" },
    { HDR PTS "name again\n", RS_E_SYNTAX, 9, "after the table" },
    { "railsym-profile 1\nkind rail\nunits m\n" PTS, RS_E_SYNTAX, 4, "'name' missing" },
    { "railsym-profile 1\nname t\nunits m\n" PTS, RS_E_SYNTAX, 4, "'kind' missing" },
    { "railsym-profile 1\nname t\nkind rail\n" PTS, RS_E_SYNTAX, 4, "'units' missing" },
    { "railsym-profile 1\nname t\nkind rail\nunits mm\n" PTS, RS_E_SYNTAX, 4,
      "convert the table to metres" },
    { "railsym-profile 1\nname t\nkind tram\n", RS_E_SYNTAX, 3, "'kind wheel' or" },
    { "railsym-profile 1\nname t\nname u\n", RS_E_SYNTAX, 3, "given twice" },
    { "railsym-profile 1\nname bad/name\n", RS_E_SYNTAX, 2, "one word" },
    { "railsym-profile 1\nnmae t\n", RS_E_SYNTAX, 2, "unknown keyword 'nmae'" },
    { "railsym-profile 1\nrailsym-profile 1\n", RS_E_SYNTAX, 2, "second" },
    { "railsym-profile 1\nname t\nkind wheel\nunits m\ngauge_point 0 0\n" PTS,
      RS_E_SYNTAX, 5, "for rails" },
    { "railsym-profile 1\nname t\nkind rail\nunits m\ngauge_point 0\n", RS_E_SYNTAX,
      5, "two numbers" },
    { "railsym-profile 1\nname t\nkind rail\nunits m\ntop_point 0 q\n", RS_E_SYNTAX, 5,
      "not a number" },
    { "railsym-profile 1\nname t\nkind rail\nunits m\ntop_point 0 nan\n", RS_E_TABLE,
      5, "not finite" },
};

#define DEG_RAD (3.14159265358979323846 / 180)

/* Curvature (1/m) of a profile at y: z'' / (1 + z'^2)^(3/2), and its slope. */
static double curvature_at(const rs_profile *p, double y, double *slope)
{
    int hint = 0;
    double d1, d2;
    rs_profile_eval(p, y, &hint, &d1, &d2);
    *slope = d1;
    return d2 / pow(1 + d1 * d1, 1.5);
}

/* The y in [lo, hi] where the profile's slope equals `slope` (the slope is
 * monotonic there), by bisection. */
static double where_slope(const rs_profile *p, double lo, double hi, double slope)
{
    double s_lo, s_hi, s_mid;
    curvature_at(p, lo, &s_lo);
    curvature_at(p, hi, &s_hi);
    ck_assert_msg((s_lo - slope) * (s_hi - slope) <= 0, "slope %g not bracketed in [%g, %g]",
                  slope, lo, hi);
    for (int it = 0; it < 80; it++) {
        const double mid = 0.5 * (lo + hi);
        curvature_at(p, mid, &s_mid);
        if ((s_mid - slope) * (s_lo - slope) > 0)
            lo = mid, s_lo = s_mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

START_TEST(flanged_pair_has_one_contact_point)
{
    rs_profile w, r;
    load(&w, "cone_1in13_flange.prf");
    load(&r, "arc_r160_corner.prf");
    ck_assert_int_eq(w.kind, RS_PROFILE_WHEEL);
    ck_assert_int_eq(r.kind, RS_PROFILE_RAIL);
    int hint = 0;
    /* the tread is the 1:13 cone and the crown the R 160 arc, exactly at the
     * knots (file rounding 1e-12 m) and between them */
    for (double y = -0.0155; y <= 0.06; y += 0.00025) {
        const double e = fabs(rs_profile_eval(&w, y, &hint, NULL, NULL) + y / 13);
        ck_assert_msg(e < 1e-11, "cone at y = %g: error %g m", y, e);
    }
    for (double y = -0.0135; y <= 0.036; y += 0.00025) {
        const double ref = -(0.16 - sqrt(0.16 * 0.16 - y * y));
        const double e = fabs(rs_profile_eval(&r, y, &hint, NULL, NULL) - ref);
        ck_assert_msg(e < 2e-9, "crown at y = %g: error %g m", y, e);
    }
    /* the design radii: flange root R 16 mm, gauge corner R 13 mm (at 30°,
     * mid-way in both), transition R 200 mm at 5.5°; rail crown R 160 mm */
    const double ywr = w.y[0] + 1e-4, ywt = -0.016, yrr = r.y[0] + 1e-4, yrt = 0;
    double sl;
    double yw30 = where_slope(&w, ywr, ywt, -tan(30 * DEG_RAD));
    double yr30 = where_slope(&r, yrr, yrt, tan(30 * DEG_RAD));
    double kw = curvature_at(&w, yw30, &sl), kr = -curvature_at(&r, yr30, &sl);
    ck_assert_msg(fabs(1 / kw - 0.016) < 0.016 * 0.01, "flange root radius %g m", 1 / kw);
    ck_assert_msg(fabs(1 / kr - 0.013) < 0.013 * 0.01, "gauge corner radius %g m", 1 / kr);
    double yw55 = where_slope(&w, ywr, ywt, -tan(5.5 * DEG_RAD));
    kw = curvature_at(&w, yw55, &sl);
    ck_assert_msg(fabs(1 / kw - 0.2) < 0.2 * 0.01, "transition radius %g m", 1 / kw);
    /* Single contact point: at every contact angle beyond the cone's the
     * wheel is less curved than the rail (by 10 % at least), so the lateral
     * shift d(u_r - u_w)/dα = (R_w - R_r) cos α > 0 and the contact point
     * moves continuously (no jump) from the tread to the flank.  Angles from
     * just above the cone's (4.40°) to 71.5° (the flank is 71.6°). */
    double worst = 1e9;
    for (double a = 4.45; a <= 71.5; a += 0.05) {
        const double t = tan(a * DEG_RAD);
        const double yw = where_slope(&w, ywr, ywt, -t), yr = where_slope(&r, yrr, yrt, t);
        kw = curvature_at(&w, yw, &sl);
        kr = -curvature_at(&r, yr, &sl);
        ck_assert_msg(kw < 0.9 * kr, "angle %.2f deg: wheel curvature %g >= 0.9 x rail %g", a,
                      kw, kr);
        if (kr / kw < worst)
            worst = kr / kw;
        /* rail and wheel contact points at that angle both lie on their
         * tables' curved parts: inboard of the cone, gauge side of the crown */
        ck_assert(yw < -0.016 && yr < 0);
    }
    printf("flanged pair: rail/wheel curvature ratio >= %.3f from 4.45 to 71.5 deg\n", worst);
    rs_profile_free(&w);
    rs_profile_free(&r);
}
END_TEST

START_TEST(bad_files_rejected)
{
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const bad_case *c = &bad_cases[i];
        rs_profile p;
        char err[512], where[64];
        int rc = rs_profile_parse(&p, c->text, strlen(c->text), "t.prf", err, sizeof err);
        ck_assert_msg(rc == c->code, "case %zu: rc %d, expected %d (%s)", i, rc, c->code, err);
        snprintf(where, sizeof where, "t.prf:%d: ", c->line);
        ck_assert_msg(strncmp(err, where, strlen(where)) == 0, "case %zu: '%s' not at '%s'", i,
                      err, where);
        ck_assert_msg(strstr(err, c->needle) != NULL, "case %zu: '%s' lacks '%s'", i, err,
                      c->needle);
        ck_assert(p.n == 0 && p.y == NULL && p.spline.x == NULL);
        rs_profile_free(&p);
    }
}
END_TEST

START_TEST(good_file_variants)
{
    /* comments after data, CRLF line ends, tabs, no final newline, signs,
     * exponents, optional keywords in any order */
    const char *t = "# c\r\nrailsym-profile 1 # v1\r\nunits m\r\nkind rail\r\nname r-1.x\r\n"
                    "top_point 0 0\r\n\t-1e-3\t+2E-4 # first\r\n0 0\r\n.001 -0.0002\r\n2e-3 0";
    rs_profile p;
    char err[256];
    ck_assert_msg(rs_profile_parse(&p, t, strlen(t), "v.prf", err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(p.name, "r-1.x");
    ck_assert_int_eq(p.n, 4);
    ck_assert(p.y[0] == -1e-3 && p.z[0] == 2e-4 && p.has_top && !p.has_gauge);
    rs_profile_free(&p);
    rs_profile_free(NULL);
}
END_TEST

START_TEST(io_errors_and_binary)
{
    rs_profile p;
    char err[512];
    ck_assert_int_eq(rs_profile_load(&p, "no/such/file.prf", err, sizeof err), RS_E_IO);
    ck_assert(strstr(err, "no/such/file.prf:") == err && strstr(err, "cannot open"));
    ck_assert_int_eq(rs_profile_load(&p, "vehicles", err, sizeof err), RS_E_IO);
    ck_assert_str_eq(err, "vehicles: cannot open: it is a directory; check the path");
    const char bin[] = "railsym-profile 1\nname t\0x\n";
    ck_assert_int_eq(rs_profile_parse(&p, bin, sizeof bin - 1, "b.prf", err, sizeof err),
                     RS_E_SYNTAX);
    ck_assert_str_eq(err, "b.prf:2: a NUL byte at column 7: the file is binary or corrupt");
    ck_assert_int_eq(rs_profile_load(NULL, "x", err, sizeof err), RS_E_ARG);
    ck_assert_int_eq(rs_profile_parse(&p, NULL, 0, "x", err, sizeof err), RS_E_ARG);
    /* a tiny error buffer truncates, never overflows */
    char small[8];
    ck_assert_int_eq(rs_profile_parse(&p, "x", 1, "long-name.prf", small, sizeof small),
                     RS_E_SYNTAX);
    ck_assert_int_eq((int)strlen(small), 7);
}
END_TEST

START_TEST(fuzz_never_crashes)
{
    /* random byte edits of a valid file: every outcome is OK or an error
     * with a message, never a crash (run under ASan/UBSan by make test) */
    size_t len;
    char *orig = slurp(PROFILE_DIR "/cone_1in40.prf", &len);
    ck_assert_ptr_nonnull(orig);
    char *buf = malloc(len);
    unsigned long long s = 12345;
    static const char alphabet[] = "0123456789.-+eE #\n\tnaifx";
    for (int trial = 0; trial < 3000; trial++) {
        memcpy(buf, orig, len);
        int edits = 1 + trial % 5;
        for (int e = 0; e < edits; e++) {
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            size_t at = (size_t)(s >> 33) % len;
            buf[at] = alphabet[(s >> 20) % (sizeof alphabet - 1)];
        }
        size_t l = trial % 7 == 0 ? (size_t)(s >> 40) % len : len;
        rs_profile p;
        char err[256];
        int rc = rs_profile_parse(&p, buf, l, "f.prf", err, sizeof err);
        if (rc == 0) {
            ck_assert(p.n >= 4);
            rs_profile_free(&p);
        } else {
            ck_assert(rc < 0 && strncmp(err, "f.prf:", 6) == 0);
        }
    }
    free(buf);
    free(orig);
}
END_TEST


/* The 14-mm rule on the profile itself (used where a rail has no
 * gauge_point).  Against the analytic answer: on a circular head of radius
 * R with its top at y = 0 the point 14 mm below the top is at
 * y = -sqrt(R^2 - (R - 0.014)^2) (-90.58 mm for R = 0.3 m), within 0.1 mm.
 * The shipped 60E1 tables end 1 mm above their drawn gauge_point (its
 * 14 mm is off the table), so they answer -1: the case the runtime skips. */
START_TEST(gauge_point_by_14mm_rule)
{
    static char text[40000];
    const double R = 0.3;
    size_t n = (size_t)snprintf(text, sizeof text, "railsym-profile 1\nname circle\nkind rail\nunits m\n");
    for (int k = -200; k <= 200; k++) {
        const double y = 0.0005 * k;
        n += (size_t)snprintf(text + n, sizeof text - n, "%.9f %.12f\n", y, sqrt(R * R - y * y) - R);
    }
    rs_profile p;
    char err[512];
    ck_assert_msg(rs_profile_parse(&p, text, n, "circle", err, sizeof err) == RS_OK, "%s", err);
    double gy = 0;
    ck_assert_int_eq(rs_wrgeom_gauge_point(&p, 0.014, &gy), 0);
    const double want = -sqrt(R * R - (R - 0.014) * (R - 0.014));
    printf("circle R 0.3 m: 14-mm gauge point %.6f m, analytic %.6f m\n", gy, want);
    ck_assert_msg(fabs(gy - want) < 1e-4, "%g vs %g", gy, want);
    rs_profile_free(&p);
    load(&p, "60e1_1in40.prf");
    ck_assert_int_eq(rs_wrgeom_gauge_point(&p, 0.014, &gy), -1);
    rs_profile_free(&p);
}
END_TEST

static Suite *profile_suite(void)
{
    Suite *s = suite_create("contact_profiles");
    TCase *tc = tcase_create("shipped");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, shipped_files_are_reproducible);
    tcase_add_test(tc, s1002_definition);
    tcase_add_test(tc, cones_exact);
    tcase_add_test(tc, arc_r300_radius);
    tcase_add_test(tc, rail_60e1);
    tcase_add_test(tc, flanged_pair_has_one_contact_point);
    tcase_add_test(tc, gauge_point_by_14mm_rule);
    suite_add_tcase(s, tc);
    tc = tcase_create("reader");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, bad_files_rejected);
    tcase_add_test(tc, good_file_variants);
    tcase_add_test(tc, io_errors_and_binary);
    tcase_add_test(tc, fuzz_never_crashes);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(profile_suite)
