/*
 * gen_profiles.c — writes the shipped profile files of vehicles/profiles/
 * from their published geometric definitions (docs/contact.md):
 *
 *   s1002.prf        S1002 wheel (EN 13715), piecewise definition of
 *                    H. Netter (DLR), sampled every 0.5 mm (0.1 mm on the
 *                    flange) and at all joints
 *   60e1_1in40.prf   60E1 (UIC60) rail head, three tangent arcs, inclined 1:40
 *   60e1_1in20.prf   the same, inclined 1:20
 *   cone_1in40.prf   conical wheel, taper 1:40
 *   cone_1in20.prf   conical wheel, taper 1:20
 *   arc_r300.prf     circular-arc rail head, radius 300 mm
 *   cone_1in13.prf   conical wheel, taper 1:13 (= 0.01/0.13: the FEVE 3000
 *                    authors' analytical wheel, their v6/v72 models)
 *   arc_r160.prf     circular-arc rail head, radius 160 mm (the same models)
 *   feve_wheel.prf   FEVE 3000 metre-gauge wheel and rail, from the seed
 *   feve_rail.prf    authors' piecewise cubics (gen_profiles_feve.c)
 *   cone_1in13_flange.prf  the 1:13 cone with a flange, and the R 160 head
 *   arc_r160_corner.prf    with a gauge corner, for single-point contact
 *                          without jumps (gen_profiles_flange.c)
 *
 * Only + − × / and sqrt are used (all correctly rounded in IEEE 754; C11
 * compilers do not contract to FMA in ISO mode), so the files are the same
 * bit for bit on every conforming machine: tests/unit/test_contact_profiles.c
 * regenerates them and compares byte by byte.
 *
 * Build and run by hand:  scripts/gen_profiles.sh  (or
 *   gcc -std=c11 -O2 tests/tools/gen_profiles.c -lm -o gen && ./gen vehicles/profiles)
 * A test includes this file with GEN_PROFILES_NO_MAIN defined.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ S1002 */

/* Section joints of S1002 (mm), from the flange back to the field side. */
static const double s1002_joint[] = {
    -62.764705882, -49.662510381, -39.764473993, -38.426669071, -35.0, -26.0, 32.15796,
};
#define S1002_NJOINT 7
#define S1002_SMIN -70.0
#define S1002_SMAX 60.0

/* F(S) of one section, mm; sec 0 = H (flange back) ... 7 = A (field side). */
static double s1002_section(int sec, double S)
{
    switch (sec) {
    case 0: { double u = S + 49.5;       return 9.519259302 + sqrt(20.5 * 20.5 - u * u); }
    case 1: { double u = S + 55.0;       return 16.0 + sqrt(12.0 * 12.0 - u * u); }
    case 2: { double u = S + 58.558326413; return 8.834924130 + sqrt(20.0 * 20.0 - u * u); }
    case 3: return -93.576667419 - 2.747477419 * S;
    case 4: { double u = S + 26.210665; return 16.446 - sqrt(13.0 * 13.0 - u * u); }
    case 5: {
        static const double c[8] = { -4.320221063e+03, -1.038384026e+03, -1.065501873e+02,
                                     -6.051367875, -2.054332446e-01, -4.169739389e-03,
                                     -4.687195829e-05, -2.252755540e-07 };
        double f = c[7];
        for (int i = 6; i >= 0; i--)
            f = f * S + c[i];
        return f;
    }
    case 6: {
        static const double c[9] = { 0.0, -3.358537058e-02, 1.565681624e-03,
                                     -2.810427944e-05, 5.844240864e-08, -1.562379023e-08,
                                     5.309217349e-15, -5.957839843e-12, 2.646656573e-13 };
        double f = c[8];
        for (int i = 7; i >= 0; i--)
            f = f * S + c[i];
        return f;
    }
    default: return 1.364323640 - 0.066666667 * S;
    }
}

/* F(S) in mm.  At a joint: the mean of the two sections (they differ by at
 * most 1.2e-4 mm, the published discontinuities). */
static double gen_s1002_mm(double S)
{
    int sec = 0;
    while (sec < S1002_NJOINT && S >= s1002_joint[sec])
        sec++;
    if (sec > 0 && S == s1002_joint[sec - 1])
        return 0.5 * (s1002_section(sec - 1, S) + s1002_section(sec, S));
    return s1002_section(sec, S);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Abscissae of the S1002 table (mm), sorted; returns the count.  A grid of
 * 0.5 mm on the tread, refined to 0.1 mm where the profile is steep (the
 * flange, S < -60 and -50 <= S <= -30: a cubic in S must follow curvature
 * jumps at the joints there, which slopes up to 2.75 amplify), the joints,
 * and three graded points next to the flange back (-70 mm, where arc H has a
 * vertical tangent).  Grid points closer than a fifth of their spacing to a
 * joint are dropped (near-duplicate knots only add wiggle).  Grid values are
 * k / 10 for integer k: exact and reproducible. */
static int s1002_abscissae(double *S, int cap)
{
    int n = 0;
    for (int k = -700; k <= 600 && n < cap; k++) {
        int fine = k <= -600 || (k >= -500 && k <= -300);
        if (!fine && k % 5 != 0)
            continue;
        double s = k / 10.0, near = fine ? 0.02 : 0.1;
        int drop = 0;
        for (int j = 0; j < S1002_NJOINT; j++)
            if (fabs(s - s1002_joint[j]) < near)
                drop = 1;
        if (!drop)
            S[n++] = s;
    }
    for (int j = 0; j < S1002_NJOINT && n < cap; j++)
        S[n++] = s1002_joint[j];
    for (int j = 1; j <= 3 && n < cap; j++)
        S[n++] = S1002_SMIN + 0.1 * (double)(j * j) / 16.0;
    qsort(S, (size_t)n, sizeof(double), cmp_double);
    return n;
}

/* ------------------------------------------------------------ 60E1 */

/* 60E1 head in mm, rail axis vertical, origin at the top of the crown,
 * y towards the field side.  Arcs (centre cy, cz; radius r) from the gauge
 * side to the field side; joints at |y| = 10.228 and 26.0265 (GENSYS
 * construction, arcs tangent at each joint).  The R13 arc meets the 1:20
 * flank where its slope is 20 (|y| = 35.99981, the drawing's 36.000). */
typedef struct arc { double cy, cz, r; } arc;

typedef struct rail60 {
    arc a300, a80, a13;     /* field-side arcs; the gauge side is mirrored */
    double y1, z1, y2, z2;  /* joints on the field side */
} rail60;

static void rail60_build(rail60 *g)
{
    g->y1 = 10.228;
    g->y2 = 26.0265;
    g->a300 = (arc){ 0.0, -300.0, 300.0 };
    g->z1 = -300.0 + sqrt(300.0 * 300.0 - g->y1 * g->y1);
    double s1 = g->y1 / 300.0, c1 = (g->z1 + 300.0) / 300.0;   /* normal at joint 1 */
    g->a80 = (arc){ g->y1 - 80.0 * s1, g->z1 - 80.0 * c1, 80.0 };
    double dy = g->y2 - g->a80.cy;
    g->z2 = g->a80.cz + sqrt(80.0 * 80.0 - dy * dy);
    double s2 = dy / 80.0, c2 = (g->z2 - g->a80.cz) / 80.0;
    g->a13 = (arc){ g->y2 - 13.0 * s2, g->z2 - 13.0 * c2, 13.0 };
}

/* z of the arc at y (upper half); the gauge side uses the mirrored centre. */
static double arc_z(const arc *a, double y, int gauge)
{
    double u = y - (gauge ? -a->cy : a->cy);
    return a->cz + sqrt(a->r * a->r - u * u);
}

/* Sample [y0, y1] of an arc with arc-length steps <= 0.25 mm; the steepest
 * point of the interval has normal-angle cosine cmin.  Writes the points
 * except the last (the next piece starts there); returns the count. */
static int arc_samples(const arc *a, int gauge, double y0, double y1, double cmin,
                       double *Y, double *Z, int cap)
{
    double dy = 0.25 * cmin;
    int k = (int)ceil((y1 - y0) / dy);
    if (k < 1)
        k = 1;
    int n = 0;
    for (int j = 0; j < k && n < cap; j++) {
        double y = y0 + (y1 - y0) * (double)j / (double)k;
        Y[n] = y;
        Z[n] = arc_z(a, y, gauge);
        n++;
    }
    return n;
}

/* Point of the R13 arc where the inclined profile's slope is ±cap_slope.
 * Rotation by α (sin sa, cos ca) raises the field side.  On an arc the
 * outward normal angle ψ (sin ψ = (y − cy)/r) gives the rotated tangent
 * angle α − ψ; |α − ψ| = θcap, tan θcap = cap_slope. */
static void rail60_cap(const rail60 *g, double sa, double ca, double cap_slope, int gauge,
                       double *y, double *cpsi)
{
    double st = cap_slope / sqrt(1.0 + cap_slope * cap_slope);
    double ct = 1.0 / sqrt(1.0 + cap_slope * cap_slope);
    /* gauge: ψ = α − θ; field: ψ = α + θ */
    double sp = gauge ? sa * ct - ca * st : sa * ct + ca * st;
    double cp = gauge ? ca * ct + sa * st : ca * ct - sa * st;
    *y = (gauge ? -g->a13.cy : g->a13.cy) + 13.0 * sp;
    *cpsi = cp;
}

typedef struct table {
    int n;
    double y[2048], z[2048];   /* mm */
} table;

/* The inclined 60E1 table; inclination 1:k; rail points and the gauge point
 * (14 mm below the top of rail, on the gauge side) and the top point. */
static int rail60_table(int k, table *t, double gauge[2], double top[2])
{
    rail60 g;
    rail60_build(&g);
    double sa = 1.0 / sqrt((double)k * k + 1.0), ca = (double)k / sqrt((double)k * k + 1.0);
    const double cap = 5.0;           /* keep |dz/dy| <= 5 (78.7°) after inclination */
    double yl, cl, yh, ch;
    rail60_cap(&g, sa, ca, cap, 1, &yl, &cl);
    rail60_cap(&g, sa, ca, cap, 0, &yh, &ch);

    double c1 = (g.z1 + 300.0) / 300.0;                 /* cos ψ at joint 1 */
    double c2 = (g.z2 - g.a80.cz) / 80.0;               /* cos ψ at joint 2 */
    double Y[2048], Z[2048];
    int n = 0;
    n += arc_samples(&g.a13, 1, yl, -g.y2, cl, Y + n, Z + n, 2048 - n);
    n += arc_samples(&g.a80, 1, -g.y2, -g.y1, c2, Y + n, Z + n, 2048 - n);
    n += arc_samples(&g.a300, 0, -g.y1, g.y1, c1, Y + n, Z + n, 2048 - n);
    n += arc_samples(&g.a80, 0, g.y1, g.y2, c2, Y + n, Z + n, 2048 - n);
    n += arc_samples(&g.a13, 0, g.y2, yh, ch, Y + n, Z + n, 2048 - n);
    if (n >= 2047)
        return -1;
    Y[n] = yh;
    Z[n] = arc_z(&g.a13, yh, 0);
    n++;
    /* joints: both arcs agree to rounding; use the inner arc's value */
    for (int i = 0; i < n; i++) {
        t->y[i] = Y[i] * ca - Z[i] * sa;
        t->z[i] = Y[i] * sa + Z[i] * ca;
    }
    t->n = n;

    /* top of rail: where the inclined surface is level, ψ = α */
    const arc *ta = sa <= g.y1 / 300.0 ? &g.a300 : &g.a80;
    double ty = ta->cy + ta->r * sa, tz = ta->cz + ta->r * ca;
    top[0] = ty * ca - tz * sa;
    top[1] = ty * sa + tz * ca;
    /* gauge point: gauge-side R13 arc ∩ the line 14 mm below the top,
     * h = y sa + z ca (rotated height).  Centre P = (−cy, cz); points
     * P + 13 (sin ψ, cos ψ); along the line direction d = (ca, −sa). */
    double h = top[1] - 14.0;
    double py = -g.a13.cy, pz = g.a13.cz;
    double hp = py * sa + pz * ca;            /* rotated height of the centre */
    double off = h - hp;                      /* distance of the line from P */
    if (fabs(off) > 13.0)
        return -1;
    double half = sqrt(13.0 * 13.0 - off * off);
    /* foot of the perpendicular from P: P + off (sa, ca); go along −d to the gauge side */
    double gy = py + off * sa - half * ca, gz = pz + off * ca + half * sa;
    /* must lie on the arc above the flank (slope of the unrotated arc < 20) */
    if (!(gy - py > -13.0 * 20.0 / sqrt(401.0)))
        return -1;
    gauge[0] = gy * ca - gz * sa;
    gauge[1] = gy * sa + gz * ca;
    return 0;
}

/* ------------------------------------------------------------ writing */

static int write_header(FILE *f, const char *comment, const char *name, const char *kind)
{
    return fprintf(f, "%srailsym-profile 1\nname %s\nkind %s\nunits m\n", comment, name, kind) < 0;
}

static int write_points(FILE *f, const double *y, const double *z, int n)
{
    fprintf(f, "# y (m)            z (m)\n");
    for (int i = 0; i < n; i++)
        if (fprintf(f, "%.12f %.12f\n", y[i] / 1000.0, z[i] / 1000.0) < 0)
            return 1;
    return 0;
}

static FILE *open_out(const char *dir, const char *file, char *err, size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "w");
    if (!f)
        snprintf(err, errlen, "%.400s: %s", path, strerror(errno));
    return f;
}

static int close_out(FILE *f, int bad, const char *file, char *err, size_t errlen)
{
    if (fclose(f) != 0 || bad) {
        snprintf(err, errlen, "%s: write failed", file);
        return -1;
    }
    return 0;
}

#define GEN_NOTE "# Generated by tests/tools/gen_profiles.c (scripts/gen_profiles.sh); do not edit.\n" \
                 "# Format: docs/contact.md.  y lateral, positive towards the field side.\n"

static int gen_s1002(const char *dir, char *err, size_t errlen)
{
    static double S[1000], F[1000];
    int n = s1002_abscissae(S, 1000);
    for (int i = 0; i < n; i++)
        F[i] = gen_s1002_mm(S[i]);
    FILE *f = open_out(dir, "s1002.prf", err, errlen);
    if (!f)
        return -1;
    int bad = write_header(f, "# S1002 wheel profile (EN 13715), from the piecewise definition\n"
                              "# attributed to H. Netter (DLR), as in ../shared/reference/contact.md.\n"
                              "# z = radius increase over the radius at the taping line (y = 0).\n"
                              "# Sampled every 0.5 mm on the tread, every 0.1 mm on the flange, at the\n"
                              "# section joints (value: mean of the two sections, which differ by\n"
                              "# <= 1.2e-4 mm) and densely next to the flange back (y = -0.070,\n"
                              "# vertical tangent).  Flange height 28 mm\n"
                              "# at y = -0.055.\n" GEN_NOTE, "S1002", "wheel");
    bad |= write_points(f, S, F, n);
    return close_out(f, bad, "s1002.prf", err, errlen);
}

static int gen_rail60(const char *dir, int k, char *err, size_t errlen)
{
    static table t;
    double gauge[2], top[2];
    char file[64], name[64];
    snprintf(file, sizeof file, "60e1_1in%d.prf", k);
    snprintf(name, sizeof name, "60E1_1in%d", k);
    if (rail60_table(k, &t, gauge, top) != 0) {
        snprintf(err, errlen, "%s: geometry construction failed", file);
        return -1;
    }
    FILE *f = open_out(dir, file, err, errlen);
    if (!f)
        return -1;
    fprintf(f, "# 60E1 (UIC60) rail head inclined 1:%d towards the track centre.\n"
               "# Arcs R300 (centre on the rail axis, 300 mm below the top), R80 from\n"
               "# |y| = 10.228 mm, R13 from |y| = 26.0265 mm, tangent at each joint\n"
               "# (GENSYS, 'Creation of a rail profile from a drawing').  The inclination\n"
               "# rotates the profile about the crown point (origin) so that the field\n"
               "# side rises.  The table covers the head where |dz/dy| <= 5 after the\n"
               "# rotation (the gauge face beyond is not a function of y at 1:20).\n"
               "# gauge_point: 14 mm below top_point, on the gauge side.\n", k);
    int bad = write_header(f, GEN_NOTE, name, "rail");
    bad |= fprintf(f, "gauge_point %.12f %.12f\ntop_point %.12f %.12f\n", gauge[0] / 1000.0,
                   gauge[1] / 1000.0, top[0] / 1000.0, top[1] / 1000.0) < 0;
    bad |= write_points(f, t.y, t.z, t.n);
    return close_out(f, bad, file, err, errlen);
}

static int gen_cone(const char *dir, int k, char *err, size_t errlen)
{
    double y[25], z[25];
    for (int i = 0; i < 25; i++) {
        y[i] = -60.0 + 5.0 * i;
        z[i] = -y[i] / (double)k;
    }
    char file[64], name[64];
    snprintf(file, sizeof file, "cone_1in%d.prf", k);
    snprintf(name, sizeof name, "cone_1in%d", k);
    FILE *f = open_out(dir, file, err, errlen);
    if (!f)
        return -1;
    fprintf(f, "# Conical wheel, taper 1:%d: radius r(y) = r0 - y/%d (no flange).\n", k, k);
    int bad = write_header(f, GEN_NOTE, name, "wheel");
    bad |= write_points(f, y, z, 25);
    return close_out(f, bad, file, err, errlen);
}

/* Circular-arc rail head of radius R mm over |y| <= 36 mm. */
static int gen_arc(const char *dir, int R, char *err, size_t errlen)
{
    double y[145], z[145];
    for (int i = 0; i < 145; i++) {
        y[i] = -36.0 + 0.5 * i;
        z[i] = -y[i] * y[i] / (R + sqrt((double)R * R - y[i] * y[i]));   /* R − √(R² − y²) */
    }
    char file[64], name[64];
    snprintf(file, sizeof file, "arc_r%d.prf", R);
    snprintf(name, sizeof name, "arc_r%d", R);
    FILE *f = open_out(dir, file, err, errlen);
    if (!f)
        return -1;
    fprintf(f, "# Circular-arc rail head, radius %d mm, top at the origin:\n"
               "# z = -(R - sqrt(R^2 - y^2)) (the parabola z = -y^2/(2R) is its\n"
               "# small-slope approximation).%s\n", R,
            R == 160 ? "  The FEVE 3000 authors' analytical rail\n"
                       "# head (their v6/v72 models, ../shared/reference/feve3000.md 3.4)."
                     : "  For analytic tests.");
    int bad = write_header(f, GEN_NOTE, name, "rail");
    bad |= write_points(f, y, z, 145);
    return close_out(f, bad, file, err, errlen);
}

#include "gen_profiles_feve.c"
#include "gen_profiles_flange.c"

/* Write every shipped profile into dir.  0 on success, else -1 and err. */
static int gen_profiles_all(const char *dir, char *err, size_t errlen)
{
    if (gen_s1002(dir, err, errlen) || gen_rail60(dir, 40, err, errlen)
        || gen_rail60(dir, 20, err, errlen) || gen_cone(dir, 40, err, errlen)
        || gen_cone(dir, 20, err, errlen) || gen_arc(dir, 300, err, errlen)
        || gen_cone(dir, 13, err, errlen) || gen_arc(dir, 160, err, errlen)
        || gen_feve(dir, err, errlen) || gen_flange(dir, err, errlen))
        return -1;
    return 0;
}

static const char *const gen_profiles_files[] = {
    "s1002.prf", "60e1_1in40.prf", "60e1_1in20.prf", "cone_1in40.prf", "cone_1in20.prf",
    "arc_r300.prf", "cone_1in13.prf", "arc_r160.prf", "feve_wheel.prf", "feve_rail.prf",
    "cone_1in13_flange.prf", "arc_r160_corner.prf",
};
#define GEN_PROFILES_NFILES 12

#ifndef GEN_PROFILES_NO_MAIN
int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "vehicles/profiles";
    char err[512];
    if (argc > 2) {
        fprintf(stderr, "usage: %s [DIR]   (default vehicles/profiles)\n", argv[0]);
        return 2;
    }
    if (gen_profiles_all(dir, err, sizeof err) != 0) {
        fprintf(stderr, "gen_profiles: %s\n", err);
        return 1;
    }
    for (int i = 0; i < GEN_PROFILES_NFILES; i++)
        printf("%s/%s\n", dir, gen_profiles_files[i]);
    return 0;
}
#endif
