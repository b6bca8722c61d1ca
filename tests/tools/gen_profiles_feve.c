/*
 * gen_profiles_feve.c — the metre-gauge wheel and rail profiles of the FEVE
 * 3000-class locomotive (seed 003 §3, vehicles/feve3000/), included by
 * gen_profiles.c.
 *
 * Source: the seed authors' public model (aitorplaza/lib_3d_mec_ginac,
 * examples/train_complete, breaks_*.c / coefs_*.c), transcribed as figures in
 * ../shared/reference/feve3000.md §5: piecewise cubics
 * value = d + t (c + t (b + t a)), t = u − u_start, in metres.
 *
 *   feve_wheel.prf  the authors' "right-wheel" table read with y = u: its
 *                   flange (29 mm at u = −0.055) lies at negative y, which in
 *                   railsym's convention (y positive to the field side) is
 *                   inboard, where a flange belongs.  The authors' own
 *                   assignment puts each flange outboard (their "left" table
 *                   on the left wheel with u along +y): feve3000.md marks it
 *                   [uncertain]; railsym takes the physically right one.
 *                   z = radius increase = −value − 0.5 (the value is minus the
 *                   local radius; 0.5 m at u = 0 is the nominal radius r0).
 *   feve_rail.prf   the rail table (symmetric), z = height − 0.159 m, so that
 *                   the crown is at z = 0 (the track's reference level).
 *
 * Each piece is evaluated exactly (Horner: only + and ×) every 0.5 mm and at
 * its ends; at an interior break the value is the mean of the two pieces
 * (they differ by < 8e-6 m, rounding of the published coefficients).
 */

typedef struct feve_piece {
    double u0, u1, a, b, c, d;   /* m; value = d + t (c + t (b + t a)) */
} feve_piece;

/* Rail head, 14 pieces (feve3000.md §5, "Rail head profile"). */
static const feve_piece feve_rail[] = {
    {-0.035, -0.030, 9248.15, -282.584, 3.0989, 0.14493},
    {-0.030, -0.025, 9248.15, -143.861, 0.96663, 0.15451},
    {-0.025, -0.020, -109.472, -5.1391, 0.22163, 0.1569},
    {-0.020, -0.015, -2.3428, -6.7812, 0.16202, 0.15787},
    {-0.015, -0.010, 188.203, -6.8164, 0.094037, 0.15851},
    {-0.010, -0.005, 199.37, -3.9933, 0.039988, 0.15883},
    {-0.005, 0.000, -66.4033, -1.0028, 0.015008, 0.15896},
    {0.000, 0.005, 66.4033, -1.9988, 0, 0.159},
    {0.005, 0.010, -199.37, -1.0028, -0.015008, 0.15896},
    {0.010, 0.015, -188.203, -3.9933, -0.039988, 0.15883},
    {0.015, 0.020, 2.3428, -6.8164, -0.094037, 0.15851},
    {0.020, 0.025, 109.472, -6.7812, -0.16202, 0.15787},
    {0.025, 0.030, -9248.15, -5.1391, -0.22163, 0.1569},
    {0.030, 0.035, -9248.15, -143.861, -0.96663, 0.15451},
};

/* Wheel, the authors' "right-wheel" table, 18 pieces (feve3000.md §5). */
static const feve_piece feve_wheel[] = {
    {-0.068, -0.065, -20623, 485.052, -4.1097, -0.5153},
    {-0.065, -0.060, -20623, 299.445, -1.7562, -0.52382},
    {-0.060, -0.055, 4775.45, -9.9005, -0.30853, -0.52769},
    {-0.055, -0.050, -4625.83, 61.7312, -0.049372, -0.52889},
    {-0.050, -0.045, 17011.5, -7.6562, 0.221, -0.52817},
    {-0.045, -0.040, -18125.5, 247.516, 1.4203, -0.52513},
    {-0.040, -0.035, -13866.8, -24.3675, 2.536, -0.5141},
    {-0.035, -0.030, 15452.3, -232.369, 1.2524, -0.50377},
    {-0.030, -0.020, -40.7972, -0.58559, 0.087582, -0.50138},
    {-0.020, -0.010, -0.28555, -1.8095, 0.063631, -0.50061},
    {-0.010, 0.000, 59.8094, -1.8181, 0.027355, -0.50015},
    {0.000, 0.010, 64.5679, -0.023792, 0.0089361, -0.5},
    {0.010, 0.020, -14.561, 1.9132, 0.027831, -0.49985},
    {0.020, 0.030, -5.0637, 1.4764, 0.061727, -0.49939},
    {0.030, 0.040, -54.974, 1.3245, 0.089736, -0.49863},
    {0.040, 0.050, 17.7898, -0.32472, 0.099734, -0.49766},
    {0.050, 0.060, -23.995, 0.20897, 0.098577, -0.49668},
    {0.060, 0.062, -23.995, -0.51088, 0.095558, -0.49569},
};

static double feve_piece_eval(const feve_piece *p, double u)
{
    const double t = u - p->u0;
    return p->d + t * (p->c + t * (p->b + t * p->a));
}

/* Samples a piece table every `step` m (and at every break) into y, z (mm,
 * for write_points): z = sign · value + offset. */
static int feve_samples(const feve_piece *p, int np, double step, double sign, double offset,
                        double *y, double *z, int cap)
{
    int n = 0;
    for (int i = 0; i < np; i++) {
        const int k = (int)((p[i].u1 - p[i].u0) / step + 0.5);
        for (int j = 0; j < k; j++) {
            if (n >= cap)
                return -1;
            const double u = p[i].u0 + (p[i].u1 - p[i].u0) * j / k;
            double v = feve_piece_eval(&p[i], u);
            if (j == 0 && i > 0)   /* a break: the mean of the two pieces */
                v = 0.5 * (v + feve_piece_eval(&p[i - 1], u));
            y[n] = u * 1000.0;
            z[n] = (sign * v + offset) * 1000.0;
            n++;
        }
    }
    if (n >= cap)
        return -1;
    y[n] = p[np - 1].u1 * 1000.0;
    z[n] = (sign * feve_piece_eval(&p[np - 1], p[np - 1].u1) + offset) * 1000.0;
    return n + 1;
}

#define FEVE_NOTE "# From the seed authors' public model (lib_3d_mec_ginac, examples/train_complete)\n" \
                  "# as transcribed in ../shared/reference/feve3000.md section 5; each cubic piece\n" \
                  "# sampled every 0.5 mm and at its ends (at a break: the mean of both pieces).\n"

static int gen_feve(const char *dir, char *err, size_t errlen)
{
    double y[400], z[400];
    int n = feve_samples(feve_wheel, (int)(sizeof feve_wheel / sizeof feve_wheel[0]), 0.0005,
                         -1.0, -0.5, y, z, 400);
    FILE *f = n > 0 ? open_out(dir, "feve_wheel.prf", err, errlen) : NULL;
    if (!f) {
        if (n <= 0)
            snprintf(err, errlen, "feve_wheel.prf: sample table too small");
        return -1;
    }
    int bad = write_header(f, "# FEVE 3000-class metre-gauge wheel, nominal radius 0.5 m at y = 0.\n"
                              "# The authors' 'right-wheel' table with y = u: flange (29 mm) at\n"
                              "# y = -0.055, inboard; z = radius increase over 0.5 m.\n" FEVE_NOTE
                              GEN_NOTE, "feve_wheel", "wheel");
    bad |= write_points(f, y, z, n);
    if (close_out(f, bad, "feve_wheel.prf", err, errlen))
        return -1;

    n = feve_samples(feve_rail, (int)(sizeof feve_rail / sizeof feve_rail[0]), 0.0005, 1.0, -0.159,
                     y, z, 400);
    f = n > 0 ? open_out(dir, "feve_rail.prf", err, errlen) : NULL;
    if (!f) {
        if (n <= 0)
            snprintf(err, errlen, "feve_rail.prf: sample table too small");
        return -1;
    }
    bad = write_header(f, "# FEVE 3000-class metre-gauge rail head (symmetric, no inclination);\n"
                          "# z = height over the crown (0.159 m above the authors' track plane).\n"
                          FEVE_NOTE GEN_NOTE, "feve_rail", "rail");
    bad |= write_points(f, y, z, n);
    return close_out(f, bad, "feve_rail.prf", err, errlen);
}

