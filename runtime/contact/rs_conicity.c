/*
 * rs_conicity.c — equivalent conicity (rs_conicity.h).
 */
#include "rs_conicity.h"

#include <math.h>

#define NQ 4096   /* quadrature points (midpoint rule in an angle) */
#define PI 3.14159265358979323846

/* The table interval holding x (clamped), by bisection. */
static int seg(const double *y, int n, double x)
{
    int lo = 0, hi = n - 1;
    while (hi - lo > 1) {
        const int m = (lo + hi) / 2;
        if (y[m] <= x) lo = m; else hi = m;
    }
    return lo;
}

static double dr_at(const double *y, const double *dr, int n, double x)
{
    const int k = seg(y, n, x);
    const double t = (x - y[k]) / (y[k + 1] - y[k]);
    return dr[k] + t * (dr[k + 1] - dr[k]);
}

/* int_{x0}^{x1} dr dy of the piecewise-linear dr, summed from x0 outwards
 * (accurate when x1 is near x0, unlike a difference of two S_at). */
static double S_between(const double *y, const double *dr, int n, double x0, double x1)
{
    if (x1 < x0) return -S_between(y, dr, n, x1, x0);
    double s = 0, a = x0;
    int k = seg(y, n, x0);
    while (a < x1) {
        const double b = (k + 1 < n - 1 && y[k + 1] < x1) ? y[k + 1] : x1;
        const double slope = (dr[k + 1] - dr[k]) / (y[k + 1] - y[k]);
        const double fa = dr[k] + slope * (a - y[k]), fb = dr[k] + slope * (b - y[k]);
        s += 0.5 * (fa + fb) * (b - a);
        a = b;
        if (k + 1 < n - 1) k++;
        else if (b >= x1) break;
    }
    return s;
}

static int check(const double *y, const double *dr, int n, double A)
{
    if (!y || !dr || n < 2 || !(A > 0) || !isfinite(A)) return RS_E_ARG;
    for (int i = 0; i < n; i++)
        if (!isfinite(y[i]) || !isfinite(dr[i]) || (i > 0 && !(y[i] > y[i - 1]))) return RS_E_ARG;
    if (2 * A > (y[n - 1] - y[0]) * (1 + 1e-12)) return RS_E_VALUE;
    return RS_OK;
}

/* A run of table points where dr is exactly 0, at least 2A wide: across it
 * the wheelset is in neutral equilibrium (no restoring term), so an
 * oscillation of amplitude A that fits in it has an infinite wavelength and
 * tan ge = 0.  EN 15302's reference results say so (Annex E, case E4: dr = 0
 * for |y| <= 1.7 mm, tan ge = 0.000 up to A = 1.7 mm); without this rule the
 * bisection below picks an arbitrary centre inside the run and the answer
 * depends on rounding.  1 and the run's centre when there is one. */
static int zero_run(const double *y, const double *dr, int n, double A, double *mid)
{
    for (int i = 0; i < n; i++) {
        if (dr[i] != 0) continue;
        int k = i;
        while (k + 1 < n && dr[k + 1] == 0) k++;
        if (y[k] - y[i] >= 2 * A * (1 - 1e-12)) {
            *mid = 0.5 * (y[i] + y[k]);
            return 1;
        }
        i = k;
    }
    return 0;
}

int rs_conicity_en15302(const double *y, const double *dr, int n, double A,
                        double *tan_ge, double *y_mid, double *j)
{
    int rc = check(y, dr, n, A);
    if (rc != RS_OK) return rc;
    if (!tan_ge) return RS_E_ARG;
    double flat_mid;
    if (zero_run(y, dr, n, A, &flat_mid)) {
        *tan_ge = 0;
        if (y_mid) *y_mid = flat_mid;
        if (j) *j = INFINITY;
        return RS_OK;
    }
    /* turning points: G(y1) = S(y1 + 2A) - S(y1) = 0, increasing in y1 when
     * dr grows; bisection over the table */
    double a = y[0], b = y[n - 1] - 2 * A;
    if (b < a) b = a;
    /* a table whose antisymmetry holds to its rounding (a written CSV, a
     * solver's tolerance) may put a turning point a hair outside it: accept
     * that much (it moves the point by ~1e-6 A) */
    const double tiny = 1e-6 * A * (fabs(dr[0]) + fabs(dr[n - 1]));
    double ga = S_between(y, dr, n, a, a + 2 * A);
    double gb = S_between(y, dr, n, b, b + 2 * A);
    if (!(ga <= tiny && gb >= -tiny)) return RS_E_VALUE;
    for (int i = 0; i < 200 && b - a > 1e-15; i++) {
        const double m = 0.5 * (a + b);
        const double gm = S_between(y, dr, n, m, m + 2 * A);
        if (gm <= 0) a = m; else b = m;
    }
    const double y1 = 0.5 * (a + b), ym = y1 + A;
    const double y2 = y1 + 2 * A;
    /* J = int_0^pi A sin(t) / sqrt(St - S(ym - A cos t)) dt, midpoint rule:
     * the substitution removes the end singularities */
    double J = 0;
    for (int i = 0; i < NQ; i++) {
        const double t = PI * (i + 0.5) / NQ;
        /* S_t - S(y) from both turning points (S equal there but for
         * rounding), each integrated outwards from its point so that nothing
         * cancels near it; their mean, or where rounding makes that <= 0
         * next to an end, the higher */
        const double yt = ym - A * cos(t);
        const double g1 = -S_between(y, dr, n, y1, yt), g2 = -S_between(y, dr, n, y2, yt);
        double gap = 0.5 * (g1 + g2);
        if (!(gap > 0)) gap = fmax(g1, g2);
        if (!(gap > 0)) return RS_E_VALUE;
        J += A * sin(t) / sqrt(gap);
    }
    J *= PI / NQ;
    *tan_ge = PI * PI / (J * J);
    if (y_mid) *y_mid = ym;
    if (j) *j = J;
    return RS_OK;
}

int rs_conicity_harmonic(const double *y, const double *dr, int n, double A, double *tan_ge)
{
    int rc = check(y, dr, n, A);
    if (rc != RS_OK) return rc;
    if (!tan_ge) return RS_E_ARG;
    if (-A < y[0] || A > y[n - 1]) return RS_E_VALUE;
    double s = 0;
    for (int i = 0; i < NQ; i++) {
        const double p = 2 * PI * (i + 0.5) / NQ;
        s += dr_at(y, dr, n, A * sin(p)) * sin(p);
    }
    s *= 2 * PI / NQ;
    *tan_ge = s / (2 * A * PI);
    return RS_OK;
}
