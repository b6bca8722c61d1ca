/*
 * rs_kalker.c — Kalker's linear creep coefficients and the linear creep law.
 * Interpolation rules: see rs_kalker.h and docs/contact.md.
 */
#include "rs_kalker.h"

#include <math.h>

#define RS_PI 3.14159265358979323846

/* Kalker's Table E.3 as in ../shared/reference/kalker_linear_coefficients.csv
 * (sources there: CONTACT m_hertz.f90; the Navarre group's Table_Kalker.c).
 * Row r: r = 0..9 is the a/b branch with g = a/b = 0.1 (r + 1); r = 10..18
 * the b/a branch with g = b/a = 0.1 (19 − r).  Columns: C11, C22, C23, C33,
 * each at ν = 0, 0.25, 0.5. */
static const double kalker_table[RS_KALKER_ROWS][12] = {
    { 2.51,  3.31,  4.85,  2.51,  2.52,  2.53, 0.334, 0.473, 0.731,  6.42,  8.28,  11.7},  /* a/b = 0.1 */
    { 2.59,  3.37,  4.81,  2.59,  2.63,  2.66, 0.483, 0.603, 0.809,  3.46,  4.27,  5.66},  /* a/b = 0.2 */
    { 2.68,  3.44,   4.8,  2.68,  2.75,  2.81, 0.607, 0.715, 0.889,  2.49,  2.96,  3.72},  /* a/b = 0.3 */
    { 2.78,  3.53,  4.82,  2.78,  2.88,  2.98,  0.72, 0.823, 0.977,  2.02,  2.32,  2.77},  /* a/b = 0.4 */
    { 2.88,  3.62,  4.83,  2.88,  3.01,  3.14, 0.827, 0.929,  1.07,  1.74,  1.93,  2.22},  /* a/b = 0.5 */
    { 2.98,  3.72,  4.91,  2.98,  3.14,  3.31,  0.93,  1.03,  1.18,  1.56,  1.68,  1.86},  /* a/b = 0.6 */
    { 3.09,  3.81,  4.97,  3.09,  3.28,  3.48,  1.03,  1.14,  1.29,  1.43,   1.5,   1.6},  /* a/b = 0.7 */
    { 3.19,  3.91,  5.05,  3.19,  3.41,  3.65,  1.13,  1.25,   1.4,  1.34,  1.37,  1.42},  /* a/b = 0.8 */
    { 3.29,  4.01,  5.12,  3.29,  3.54,  3.82,  1.23,  1.36,  1.51,  1.27,  1.27,  1.27},  /* a/b = 0.9 */
    {  3.4,  4.12,   5.2,   3.4,  3.67,  3.98,  1.33,  1.47,  1.63,  1.21,  1.19,  1.16},  /* a/b = 1.0 */
    { 3.51,  4.22,   5.3,  3.51,  3.81,  4.16,  1.44,  1.59,  1.77,  1.16,  1.11,  1.06},  /* b/a = 0.9 */
    { 3.65,  4.36,  5.42,  3.65,  3.99,  4.39,  1.58,  1.75,  1.94,   1.1,  1.04, 0.954},  /* b/a = 0.8 */
    { 3.82,  4.54,  5.58,  3.82,  4.21,  4.67,  1.76,  1.95,  2.18,  1.05, 0.965, 0.852},  /* b/a = 0.7 */
    { 4.06,  4.78,   5.8,  4.06,   4.5,  5.04,  2.01,  2.23,   2.5,  1.01, 0.892, 0.751},  /* b/a = 0.6 */
    { 4.37,   5.1,  6.11,  4.37,   4.9,  5.56,  2.35,  2.62,  2.96, 0.958, 0.819,  0.65},  /* b/a = 0.5 */
    { 4.84,  5.57,  6.57,  4.84,  5.48,  6.31,  2.88,  3.24,   3.7, 0.912, 0.747, 0.549},  /* b/a = 0.4 */
    { 5.57,  6.34,  7.34,  5.57,   6.4,  7.51,  3.79,  4.32,  5.01, 0.868, 0.674, 0.446},  /* b/a = 0.3 */
    { 6.96,  7.78,  8.82,  6.96,  8.14,  9.79,  5.72,  6.63,  7.89, 0.828, 0.601, 0.341},  /* b/a = 0.2 */
    { 10.7,  11.7,  12.9,  10.7,  12.8,    16,  12.2,  14.6,    18, 0.795, 0.526, 0.228},  /* b/a = 0.1 */
};

static double row_a_over_b(int r)
{
    return r < 10 ? 0.1 * (r + 1) : 1.0 / (0.1 * (19 - r));
}

int rs_kalker_table_row(int i, double *a_over_b, double c[12])
{
    if (i < 0 || i >= RS_KALKER_ROWS)
        return -1;
    if (a_over_b)
        *a_over_b = row_a_over_b(i);
    if (c)
        for (int j = 0; j < 12; j++)
            c[j] = kalker_table[i][j];
    return 0;
}

double rs_kalker_shear_modulus(double E, double nu)
{
    return E / (2.0 * (1.0 + nu));   /* not 2 (1 − ν): see docs/contact.md */
}

/* Parabola through 1/C at ν = 0, 0.25, 0.5 (Lagrange weights w). */
static void row_at_nu(int r, const double w[3], double out[4])
{
    const double *t = kalker_table[r];
    for (int j = 0; j < 4; j++) {
        double inv = w[0] / t[3 * j] + w[1] / t[3 * j + 1] + w[2] / t[3 * j + 2];
        out[j] = 1.0 / inv;
    }
}

int rs_kalker_coeffs(double a_over_b, double nu, double c[4])
{
    if (!isfinite(a_over_b) || !(a_over_b > 0.0) || !(nu >= 0.0) || !(nu <= 0.5))
        return RS_E_ARG;

    double w[3] = {
        (nu - 0.25) * (nu - 0.5) / 0.125,
        -nu * (nu - 0.5) / 0.0625,
        nu * (nu - 0.25) / 0.125,
    };
    int rc = RS_OK;

    if (a_over_b < 0.1) {
        /* CONTACT's slender-ellipse asymptotes (a/b → 0) */
        double g = a_over_b;
        c[RS_KALKER_C11] = RS_PI * RS_PI / (4.0 * (1.0 - nu));
        c[RS_KALKER_C22] = RS_PI * RS_PI / 4.0;
        c[RS_KALKER_C23] = RS_PI * sqrt(g) / (3.0 * (1.0 - nu))
                           * (1.0 + nu * (log(16.0 / g) - 5.0));
        double at01[4];
        row_at_nu(0, w, at01);
        c[RS_KALKER_C33] = at01[RS_KALKER_C33] * 0.1 / g;   /* railsym's choice */
        return RS_ASYMPTOTE;
    }

    /* Position on the g axis of the branch, 0.1 .. 1.0 in steps of 0.1. */
    int ab = a_over_b <= 1.0;
    double g = ab ? a_over_b : 1.0 / a_over_b;
    if (g < 0.1) {                  /* b/a < 0.1: hold the last row */
        g = 0.1;
        rc = RS_CLAMPED;
    }
    double s = (g - 0.1) * 10.0;    /* 0 .. 9 */
    int j = (int)s;
    if (j > 8)
        j = 8;
    if (j < 0)
        j = 0;
    double f = s - j;               /* weight of node j + 1 */
    /* table rows of g nodes j and j + 1 on this branch */
    int r0 = ab ? j : 18 - j;
    int r1 = ab ? j + 1 : 17 - j;  /* g = 1 on the b/a branch: row 9 */
    double c0[4], c1[4];
    row_at_nu(r0, w, c0);
    row_at_nu(r1, w, c1);
    for (int k = 0; k < 4; k++)
        c[k] = c0[k] + f * (c1[k] - c0[k]);
    return rc;
}

void rs_kalker_creep_matrix(double a, double b, double G, const double c[4],
                            double Cm[9])
{
    double ab = a * b;
    double ab15 = ab * sqrt(ab);
    Cm[0] = G * ab * c[RS_KALKER_C11];
    Cm[1] = 0.0;
    Cm[2] = 0.0;
    Cm[3] = 0.0;
    Cm[4] = G * ab * c[RS_KALKER_C22];
    Cm[5] = G * ab15 * c[RS_KALKER_C23];
    Cm[6] = 0.0;
    Cm[7] = -G * ab15 * c[RS_KALKER_C23];
    Cm[8] = G * ab * ab * c[RS_KALKER_C33];
}

void rs_kalker_forces(double a, double b, double G, const double c[4],
                      const double xi[3], double f[3])
{
    double Cm[9];
    rs_kalker_creep_matrix(a, b, G, c, Cm);
    f[0] = -Cm[0] * xi[0];
    f[1] = -(Cm[4] * xi[1] + Cm[5] * xi[2]);
    f[2] = -(Cm[7] * xi[1] + Cm[8] * xi[2]);
}

double rs_creep_saturation(double f_lin, double f_max)
{
    if (!(f_max > 0) || !(f_lin > 0))
        return 1;
    const double beta = f_lin / f_max;
    if (beta >= 3)
        return 1 / beta;
    return 1 - beta / 3 + beta * beta / 27;
}
