/*
 * gen_profiles_flange.c — a flanged metre-gauge wheel and a rail head with a
 * gauge corner, designed so that the single-point contact of railsym's
 * contact element never jumps (docs/feve3000.md, "Wheel and rail
 * profiles"); included by gen_profiles.c.
 *
 *   cone_1in13_flange.prf  the FEVE authors' 1:13 conical tread (as
 *                          cone_1in13.prf) with a flange: from y = -16 mm
 *                          inboard the profile curves up through a R 200 mm
 *                          transition and a R 16 mm flange root to a 71.6°
 *                          flank, 28 mm high;
 *   arc_r160_corner.prf    the authors' R 160 mm rail head (as arc_r160.prf)
 *                          with a R 13 mm gauge corner from 6° on and an 80°
 *                          gauge face down to 16 mm below the crown.
 *
 * Why these shapes: a wheel and rail touch at one point where their slopes
 * match.  That point moves continuously with the wheelset's lateral shift
 * only if, at every contact angle α, the wheel's profile is less curved
 * than the rail's (κ_w(α) < κ_r(α), radii R_w > R_r): the lateral shift then
 * grows monotonically with α, d(u_r - u_w)/dα = (R_w - R_r) cos α > 0.  Where
 * the wheel is the more curved (a tight flange root against a flat rail
 * crown) the contact point jumps, which is two-point contact.  So: the rail
 * turns from R 160 mm to its R 13 mm corner between 5° and 6°, while the
 * wheel stays at R 200 mm up to 6.2° and then tightens only to R 16 mm.
 *
 * Curvature is continuous everywhere (a cubic spline through the table
 * cannot follow a jump of curvature without ringing, which could break the
 * inequality locally): every change of curvature is a C1 blend
 * κ(s) = κa + (κb − κa) S(s/L), S(t) = t² (3 − 2t), over a length L of arc.
 * The tangent angle is then exact, α(s) = α0 + κa s + (κb − κa) L (t³ − t⁴/2),
 * and y, z follow by Simpson's rule on 1 µm steps (error < 1e-12 m).
 */

/* One piece of a profile built by its curvature over arc length:
 * blend (L > 0) from ka to kb, or hold ka (L == 0) until the tangent angle
 * reaches a_end (radians), or a straight line (ka == 0, L == 0) until the
 * height reaches z_end. */
typedef struct flange_piece {
    double L, ka, kb, a_end, z_end;   /* mm, 1/mm, 1/mm, rad, mm */
} flange_piece;

#define DEG (3.14159265358979323846 / 180.0)

/* Tangent angle after arc s of a piece that starts at angle a0. */
static double flange_angle(const flange_piece *p, double a0, double s)
{
    if (p->L > 0) {
        const double t = s / p->L;
        return a0 + p->ka * s + (p->kb - p->ka) * p->L * (t * t * t - 0.5 * t * t * t * t);
    }
    return a0 + p->ka * s;
}

/* Walks the pieces from (y0, z0, a0), moving towards −y with the height
 * changing by dir · sin α per unit arc (wheel: +1, radius grows towards the
 * flange; rail: −1, the head falls towards the gauge face), and writes a
 * point every `every` mm of arc and at each piece's end into y[], z[]
 * (in decreasing y).  Returns the number of points, or -1 if cap is hit. */
static int flange_walk(const flange_piece *p, int np, double y0, double z0, double a0,
                       double dir, double every, double *y, double *z, int cap)
{
    const double h = 1e-3;   /* mm: Simpson step */
    double yy = y0, zz = z0, a = a0, next = every;
    int n = 0;
    for (int k = 0; k < np; k++) {
        const flange_piece *q = &p[k];
        double len;
        if (q->L > 0)
            len = q->L;
        else if (q->ka > 0)
            len = (q->a_end - a) / q->ka;
        else
            len = fabs(q->z_end - zz) / sin(a);   /* straight flank */
        const int steps = (int)ceil(len / h);
        const double ds = len / steps;
        const double ap = a;
        double sp = 0;
        for (int i = 0; i < steps; i++) {
            const double s0 = i * ds, s1 = s0 + ds, sm = 0.5 * (s0 + s1);
            const double a_0 = flange_angle(q, ap, s0), a_m = flange_angle(q, ap, sm),
                         a_1 = flange_angle(q, ap, s1);
            yy -= ds / 6 * (cos(a_0) + 4 * cos(a_m) + cos(a_1));
            zz += dir * ds / 6 * (sin(a_0) + 4 * sin(a_m) + sin(a_1));
            sp += ds;
            if (sp >= next - 1e-9 || i == steps - 1) {
                if (n >= cap)
                    return -1;
                y[n] = yy;
                z[n] = zz;
                n++;
                next = sp + every;
            }
        }
        a = flange_angle(q, ap, len);
        next = every;
    }
    return n;
}

/* Wheel: y in mm from the taping line, z = radius increase (mm). */
static const double flange_wheel_y1 = -22.0;   /* mm: end of the cone */
static const flange_piece flange_wheel[] = {
    {2.0, 0.0, 1.0 / 200, 0, 0},               /* into the R 200 transition  */
    {0, 1.0 / 200, 0, 6.2 * DEG, 0},           /* R 200 to 6.2°              */
    {3.0, 1.0 / 200, 1.0 / 16, 0, 0},          /* into the R 16 flange root  */
    {0, 1.0 / 16, 0, 68.0 * DEG, 0},           /* R 16 to 68°                */
    {2.0, 1.0 / 16, 0.0, 0, 0},                /* out to the straight flank  */
    {0, 0.0, 0, 0, 28.0},                      /* flank up to 28 mm          */
};

/* Rail gauge side: from the crown (0, 0) towards −y. */
static const flange_piece flange_rail[] = {
    {0, 1.0 / 160, 0, 5.0 * DEG, 0},           /* crown R 160 to 5°          */
    {0.4194, 1.0 / 160, 1.0 / 13, 0, 0},       /* into the R 13 corner (+1°) */
    {0, 1.0 / 13, 0, 78.0 * DEG, 0},           /* R 13 to 78°                */
    {1.0, 1.0 / 13, 0.0, 0, 0},                /* out to the gauge face      */
    {0, 0.0, 0, 0, -16.0},                     /* face down to 16 mm         */
};

#define FLANGE_CAP 2000

static int gen_flange(const char *dir, char *err, size_t errlen)
{
    static double y[FLANGE_CAP], z[FLANGE_CAP], yw[FLANGE_CAP], zw[FLANGE_CAP];
    const int nwp = (int)(sizeof flange_wheel / sizeof flange_wheel[0]);
    const int nrp = (int)(sizeof flange_rail / sizeof flange_rail[0]);

    /* wheel: flange end first (increasing y), then the cone out to +60 mm */
    const double a0 = atan(1.0 / 13.0);
    int nf = flange_walk(flange_wheel, nwp, flange_wheel_y1, -flange_wheel_y1 / 13.0, a0, 1.0,
                         0.1, yw, zw, FLANGE_CAP);
    if (nf < 0) {
        snprintf(err, errlen, "cone_1in13_flange.prf: table too small");
        return -1;
    }
    int n = 0;
    for (int i = nf - 1; i >= 0; i--, n++)
        y[n] = yw[i], z[n] = zw[i];
    for (double u = flange_wheel_y1; u <= 60.0 + 1e-9; u += 0.5, n++)
        y[n] = u, z[n] = -u / 13.0;
    FILE *f = open_out(dir, "cone_1in13_flange.prf", err, errlen);
    if (!f)
        return -1;
    int bad = write_header(f, "# Conical wheel, taper 1:13 (the FEVE 3000 authors' tread, as\n"
                              "# cone_1in13.prf) for y >= -16 mm, with a flange inboard: C1\n"
                              "# curvature blends into R 200 mm (to 6.2 deg), R 16 mm (to 68 deg),\n"
                              "# a 71.6 deg flank up to 28 mm.  Designed for single-point\n"
                              "# contact with arc_r160_corner.prf (wheel less curved than the\n"
                              "# rail at every contact angle: no contact jumps); see\n"
                              "# tests/tools/gen_profiles_flange.c.  z = radius increase over r0.\n"
                              GEN_NOTE, "cone_1in13_flange", "wheel");
    bad |= write_points(f, y, z, n);
    if (close_out(f, bad, "cone_1in13_flange.prf", err, errlen))
        return -1;

    /* rail: gauge face first (increasing y), the crown, the field side arc */
    nf = flange_walk(flange_rail, nrp, 0.0, 0.0, 0.0, -1.0, 0.05, yw, zw, FLANGE_CAP);
    if (nf < 0) {
        snprintf(err, errlen, "arc_r160_corner.prf: table too small");
        return -1;
    }
    n = 0;
    for (int i = nf - 1; i >= 0; i--) {
        if (yw[i] > -12.0 && yw[i] < 0)   /* on the crown arc: the 0.5 mm grid below */
            continue;
        y[n] = yw[i], z[n] = zw[i], n++;
    }
    for (double u = -12.0; u <= 36.0 + 1e-9; u += 0.5, n++)
        y[n] = u, z[n] = -u * u / (160.0 + sqrt(160.0 * 160.0 - u * u));
    f = open_out(dir, "arc_r160_corner.prf", err, errlen);
    if (!f)
        return -1;
    bad = write_header(f, "# Circular-arc rail head, radius 160 mm (the FEVE 3000 authors', as\n"
                          "# arc_r160.prf) with a gauge corner: from 5 deg a C1 curvature blend\n"
                          "# into R 13 mm (reached at 6 deg) to 78 deg, then an 80.2 deg gauge\n"
                          "# face down to 16 mm below the crown.  Field side: the R 160 arc to\n"
                          "# y = 36 mm.  See tests/tools/gen_profiles_flange.c.\n" GEN_NOTE,
                       "arc_r160_corner", "rail");
    bad |= write_points(f, y, z, n);
    return close_out(f, bad, "arc_r160_corner.prf", err, errlen);
}
