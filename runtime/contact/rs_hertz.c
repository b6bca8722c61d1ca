/*
 * rs_hertz.c — exact Hertz coefficients m, n and the contact ellipse.
 *
 * The unknown is t = ln k, k = b/a in (0, 1].  In t the function
 * g(t) = ln(B/A)(t) − ln(B/A)* is smooth, decreasing and nearly linear
 * (slope −3/2 near the circle, → −2 for slender ellipses).  Newton with
 * the exact slope from a fitted start (start_ratio, within 3e-5 of the root)
 * converges in two evaluations; it is kept inside a bracket (bisection
 * when a step leaves it).  The bracket [−L, −L/2], L = ln(B/A)*, always holds the root because
 * k^{-1} < B/A(k) < k^{-2} for 0 < k < 1 (the second from 2E < (1 + k²)K).
 */
#include "rs_hertz.h"

#include <math.h>
#include <stddef.h>

#define RS_PI 3.14159265358979323846

double rs_hertz_radius(double f1, double f2)
{
    if (f2 == 0.0)
        return INFINITY;
    double q = 1.0 + f1 * f1;
    return q * sqrt(q) / fabs(f2);
}

double rs_hertz_profile_radius(double f1, double f2)
{
    if (f2 == 0.0)
        return INFINITY;
    double q = 1.0 + f1 * f1;
    return -q * sqrt(q) / f2;
}

void rs_hertz_curvature_sums(double R_wx, double R_wy, double R_rx,
                             double R_ry, double *A, double *B)
{
    /* 1/INFINITY = 0: a straight direction adds no curvature */
    *A = 0.5 * (1.0 / R_wx + 1.0 / R_rx);
    *B = 0.5 * (1.0 / R_wy + 1.0 / R_ry);
}

/* B/A as a function of t = ln(b/a) < 0, with K and E of modulus
 * e = sqrt(1 − k²).  K − E = K S and E − k² K = K (e² − S) where
 * S = Σ 2^{j−1} c_j² is the AGM's sum; both are sums of positive terms,
 * so the ratio keeps full precision as k → 1.  Also returns
 * g'(t) = d ln(B/A)/dt = −2 − k²/(e² − S) + (1 − S)/S (from
 * dK/dt = (k²K − E)/e², dE/dt = k²(K − E)/e²) and dE/dt = k² K S/e². */
static double curvature_ratio(double t, double *k_out, double *K_out, double *E_out,
                              double *slope, double *dE)
{
    const double em = expm1(t);        /* k − 1 < 0 */
    double k = 1.0 + em;
    double e2 = -em * (2.0 + em);      /* 1 − k², exact as k → 1 */
    double a = 1.0, b = k;
    double S = 0.5 * e2, w = 0.5;
    for (int j = 0; j < 40; j++) {
        double an = 0.5 * (a + b);
        double bn = sqrt(a * b);
        double cn = 0.5 * (a - b);
        w *= 2.0;
        S += w * cn * cn;
        a = an;
        b = bn;
        if (cn < 1e-9 * a)          /* next terms below 1e-18 relative */
            break;
    }
    double K = RS_PI / (2.0 * a);
    double k2 = k * k;
    *k_out = k;
    *K_out = K;
    *E_out = K * (1.0 - S);
    *slope = -2.0 - k2 / (e2 - S) + (1.0 - S) / S;
    *dE = k2 * K * S / e2;
    return (e2 - S) / (k2 * S);
}

/* Start: t/L as a polynomial in w = L/(L + 4), L = ln(B/A) ≤ ln(1e12),
 * least-squares fit of the exact root (|t − t*| ≤ 3e-5 over the range), so
 * that Newton with the exact slope needs two evaluations. */
static double start_ratio(double L)
{
    static const double c[7] = {
        -0.66645109406994485, -0.0086169856232172111, 0.15641954140116088,
        -0.49372484933142596, 1.7407973371794609,     -2.0463504105905428,
        0.81309050795992033,
    };
    const double w = L / (L + 4.0);
    double u = c[6];
    for (int j = 5; j >= 0; j--)
        u = u * w + c[j];
    return u * L;
}

int rs_hertz_mn_ratio(double r, double *m, double *n, int *iters)
{
    if (iters)
        *iters = 0;
    if (!isfinite(r) || !(r >= 1.0))
        return RS_E_ARG;
    if (r > RS_HERTZ_MAX_RATIO)
        return RS_E_NONHERTZ;
    if (r == 1.0) {
        *m = 1.0;
        *n = 1.0;
        return RS_OK;
    }
    double L = log(r);
    double lo = -L, hi = -0.5 * L;     /* g(lo) > 0 > g(hi) */
    double t = start_ratio(L);
    if (!(t > lo && t < hi))
        t = -(2.0 / 3.0) * L;          /* Greenwood's b/a ≈ (A/B)^{2/3} */
    double K = 0.0, E = 0.0, k = 1.0;
    int it = 0;
    /* Newton in t with the exact slope, kept inside the bracket.  Once a
     * step is below 1e-8 (1 + |t|), the next one would be below about
     * 1e-16 (quadratic convergence, g nearly linear): take it without
     * another evaluation, moving E along dE/dt to the new t. */
    while (it < RS_HERTZ_MAX_ITER) {
        double slope, dE;
        double g = log(curvature_ratio(t, &k, &K, &E, &slope, &dE)) - L;
        it++;
        if (g == 0.0)
            break;
        if (g > 0.0)
            lo = t;
        else
            hi = t;
        if (!(slope < 0.0) || !isfinite(slope))
            slope = -1.5;
        double dt = -g / slope;
        double tn = t + dt;
        if (!(tn > lo && tn < hi)) {   /* Newton left the bracket: bisect */
            t = 0.5 * (lo + hi);
            continue;
        }
        if (fabs(dt) <= 1e-8 * (1.0 + fabs(t))) {
            if (isfinite(dE))
                E += dE * dt;
            k *= 1.0 + dt * (1.0 + 0.5 * dt); /* exp(dt), |dt| <= 1e-8 (1 + |t|) */
            t = tn;
            break;
        }
        t = tn;
    }
    if (iters)
        *iters = it;
    if (it >= RS_HERTZ_MAX_ITER || !isfinite(E))
        return RS_E_NOCONV;
    double mm = cbrt(2.0 * E / (RS_PI * k * k)); /* k = e^t of the last evaluation */
    *m = mm;
    *n = mm * k;
    return RS_OK;
}

int rs_hertz_mn(double theta, double *m, double *n)
{
    if (!isfinite(theta) || !(theta > 0.0) || theta > 0.5 * RS_PI + 1e-15)
        return RS_E_ARG;
    /* B/A = (1 + cos θ)/(1 − cos θ) = cot²(θ/2), without cancellation */
    double c = 1.0 / tan(0.5 * theta);
    double r = c * c;
    if (r < 1.0)                       /* rounding at θ = 90° */
        r = 1.0;
    return rs_hertz_mn_ratio(r, m, n, NULL);
}

int rs_hertz_ellipse_compute(double N, double E, double nu, double A, double B,
                             rs_hertz_ellipse *out)
{
    if (!out || !isfinite(N) || !isfinite(E) || !isfinite(nu) || !isfinite(A)
        || !isfinite(B) || !(E > 0.0) || !(nu >= 0.0) || !(nu < 0.5))
        return RS_E_ARG;
    if (N < 0.0)
        return RS_E_LIFTOFF;
    if (!(A > 0.0) || !(B > 0.0))
        return RS_E_NONHERTZ;
    double small = A < B ? A : B, large = A < B ? B : A;
    double m, n;
    int rc = rs_hertz_mn_ratio(large / small, &m, &n, NULL);
    if (rc != RS_OK)
        return rc;
    double c = cbrt(1.5 * N * (1.0 - nu * nu) / (E * (A + B)));
    out->A = A;
    out->B = B;
    out->theta = acos((large - small) / (A + B));
    out->m = m;
    out->n = n;
    /* the long axis m c lies along the direction of the smaller sum */
    out->a = (A <= B ? m : n) * c;
    out->b = (A <= B ? n : m) * c;
    out->p0 = N > 0.0 ? 1.5 * N / (RS_PI * out->a * out->b) : 0.0;
    return RS_OK;
}

/* K(e) of modulus e = sqrt(1 − k²), k in (0, 1], by the arithmetic-geometric
 * mean: K = π / (2 AGM(1, k)). */
static double ellip_k(double k)
{
    double a = 1.0, b = k;
    for (int i = 0; i < 40 && fabs(a - b) > 1e-16 * a; i++) {
        const double an = 0.5 * (a + b);
        b = sqrt(a * b);
        a = an;
    }
    return 1.5707963267948966 / a;   /* π / 2 over the mean */
}

int rs_hertz_approach_constant(double A, double B, double E, double nu, double *c_hertz,
                               double *a1, double *b1)
{
    if (!c_hertz)
        return RS_E_ARG;
    rs_hertz_ellipse el;
    const int r = rs_hertz_ellipse_compute(1.0, E, nu, A, B, &el);
    if (r != RS_OK)
        return r;
    /* approach of two identical elastic bodies at N = 1 N (Johnson §4.2):
     * δ = p0 b K(e) / E*, b the smaller semi-axis, E* = E / (2 (1 − ν²)) */
    const double lo = fmin(el.a, el.b), hi = fmax(el.a, el.b);
    const double Estar = E / (2.0 * (1.0 - nu * nu));
    const double d1 = el.p0 * lo * ellip_k(lo / hi) / Estar;
    if (a1)
        *a1 = el.a;
    if (b1)
        *b1 = el.b;
    *c_hertz = pow(d1, -1.5);
    return RS_OK;
}

int rs_hertz_approach_law(double R_wx, double R_wy, double R_ry, double E, double nu,
                          double *c_hertz)
{
    return rs_hertz_patch_law(R_wx, R_wy, R_ry, E, nu, c_hertz, NULL, NULL);
}

int rs_hertz_patch_law(double R_wx, double R_wy, double R_ry, double E, double nu, double *c_hertz,
                       double *a1, double *b1)
{
    if (!c_hertz || isnan(R_wx) || isnan(R_wy) || isnan(R_ry) || !(R_wx > 0.0))
        return RS_E_ARG;
    double A, B;
    rs_hertz_curvature_sums(R_wx, R_wy, INFINITY, R_ry, &A, &B);
    return rs_hertz_patch_law_sums(A, B, E, nu, c_hertz, a1, b1);
}

int rs_hertz_patch_law_sums(double A, double B, double E, double nu, double *c_hertz, double *a1,
                            double *b1)
{
    if (!c_hertz || isnan(A) || isnan(B))
        return RS_E_ARG;
    if (!(A > 0.0) || !isfinite(A))
        return RS_E_NONHERTZ;
    int rc = RS_OK;
    const double Bmin = A / RS_HERTZ_CONFORMAL_RATIO;
    if (!(B >= Bmin)) {
        B = Bmin;
        rc = RS_CLAMPED;
    }
    const int r = rs_hertz_approach_constant(A, B, E, nu, c_hertz, a1, b1);
    return r != RS_OK ? r : rc;
}
