/*
 * rs_polach.c — Polach's method with its exact Jacobian by forward-mode
 * differentiation.  The formulas and the choices: rs_polach.h and
 * docs/creep.md.
 */
#include "rs_polach.h"

#include <math.h>

#define RS_PI 3.14159265358979323846

void rs_polach_defaults(rs_polach_opts *o)
{
    o->kA = 1;
    o->kS = 1;
    o->A = 1;
    o->B = 0;
    o->V = 0;
}

/* A value with its partial derivatives along (ξx, ξy, φ). */
typedef struct d3 {
    double v, d[3];
} d3;

static d3 d3_const(double v)
{
    d3 r = {v, {0, 0, 0}};
    return r;
}

static d3 d3_var(double v, int k)
{
    d3 r = d3_const(v);
    r.d[k] = 1;
    return r;
}

static d3 d3_add(d3 x, d3 y)
{
    d3 r = {x.v + y.v, {x.d[0] + y.d[0], x.d[1] + y.d[1], x.d[2] + y.d[2]}};
    return r;
}

static d3 d3_sub(d3 x, d3 y)
{
    d3 r = {x.v - y.v, {x.d[0] - y.d[0], x.d[1] - y.d[1], x.d[2] - y.d[2]}};
    return r;
}

static d3 d3_scale(d3 x, double s)
{
    d3 r = {x.v * s, {x.d[0] * s, x.d[1] * s, x.d[2] * s}};
    return r;
}

static d3 d3_mul(d3 x, d3 y)
{
    d3 r;
    r.v = x.v * y.v;
    for (int k = 0; k < 3; k++)
        r.d[k] = x.d[k] * y.v + x.v * y.d[k];
    return r;
}

static d3 d3_div(d3 x, d3 y)
{
    d3 r;
    r.v = x.v / y.v;
    for (int k = 0; k < 3; k++)
        r.d[k] = (x.d[k] - r.v * y.d[k]) / y.v;
    return r;
}

/* f(x) with f'(x) = fp */
static d3 d3_chain(d3 x, double fx, double fp)
{
    d3 r = {fx, {fp * x.d[0], fp * x.d[1], fp * x.d[2]}};
    return r;
}

static d3 d3_exp(d3 x)
{
    double e = exp(x.v);
    return d3_chain(x, e, e);
}

static d3 d3_atan(d3 x)
{
    return d3_chain(x, atan(x.v), 1 / (1 + x.v * x.v));
}

/* √(x² + y²); derivative 0 at the origin (used only where it multiplies
 * something that vanishes there, or squared) */
static d3 d3_hypot(d3 x, d3 y)
{
    d3 r;
    r.v = hypot(x.v, y.v);
    for (int k = 0; k < 3; k++)
        r.d[k] = r.v > 0 ? (x.v * x.d[k] + y.v * y.d[k]) / r.v : 0;
    return r;
}

/* x/(1 + x²) for x >= 0, as 1/(x + 1/x) beyond 1 (no overflow of x²) */
static d3 bump(d3 x)
{
    if (x.v <= 1)
        return d3_div(x, d3_add(d3_const(1), d3_mul(x, x)));
    const d3 inv = d3_div(d3_const(1), x);
    return d3_div(inv, d3_add(d3_const(1), d3_mul(inv, inv)));
}

static int finite3(const double v[3])
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

int rs_polach_forces(double a, double b, double G, const double c[4],
                     double mu0, double N, const double xi[3],
                     const rs_polach_opts *o, double f[3], double J[9])
{
    rs_polach_opts def;
    if (!o) {
        rs_polach_defaults(&def);
        o = &def;
    }
    if (!c || !xi || !f)
        return RS_E_ARG;
    if (!isfinite(a) || !isfinite(b) || !isfinite(G) || !isfinite(mu0) ||
        !isfinite(N) || !finite3(xi) || !(G > 0) || !(mu0 >= 0) || !(N >= 0) ||
        !(a >= 0) || !(b >= 0))
        return RS_E_ARG;
    for (int k = 0; k < 4; k++)
        if (!isfinite(c[k]) || !(c[k] > 0))
            return RS_E_ARG;
    if (!isfinite(o->kA) || !isfinite(o->kS) || !(o->kA > 0) || !(o->kS > 0) ||
        !(o->A >= 0) || !(o->A <= 1) || !isfinite(o->B) || !(o->B >= 0) ||
        !isfinite(o->V) || !(o->V >= 0))
        return RS_E_ARG;
    if (N > 0 && (!(a > 0) || !(b > 0)))
        return RS_E_ARG;

    f[0] = f[1] = f[2] = 0;
    if (J)
        for (int k = 0; k < 9; k++)
            J[k] = 0;
    if (N == 0 || mu0 == 0)
        return RS_OK;

    const double ab = a * b, ab15 = ab * sqrt(ab);
    const d3 sx = d3_var(xi[0], 0), sy = d3_var(xi[1], 1), ph = d3_var(xi[2], 2);

    /* translational creepage and friction (falling friction, Polach 2005) */
    const d3 s = d3_hypot(sx, sy);
    d3 mu = d3_const(mu0);
    if (o->A < 1) {
        d3 e = d3_exp(d3_scale(s, -o->B * o->V));
        mu = d3_scale(d3_add(d3_scale(e, 1 - o->A), d3_const(o->A)), mu0);
    }
    const d3 muN = d3_scale(mu, N);

    d3 Fx = d3_const(0), Fy = d3_const(0);
    if (s.v > 0) {
        /* ε = G π a b c_jj s / (4 N μ), c_jj s = √((C11 ξx)² + (C22 ξy)²) */
        const d3 q = d3_hypot(d3_scale(sx, c[0]), d3_scale(sy, c[1]));
        const d3 eps = d3_div(d3_scale(q, G * RS_PI * ab / 4), muN);
        const d3 t1 = bump(d3_scale(eps, o->kA));
        const d3 t2 = d3_atan(d3_scale(eps, o->kS));
        const d3 F = d3_mul(d3_scale(muN, 2 / RS_PI), d3_add(t1, t2));
        const d3 Fs = d3_div(F, s);
        Fx = d3_scale(d3_mul(Fs, sx), -1);
        Fy = d3_scale(d3_mul(Fs, sy), -1);
    } else {
        /* s = 0: F = 0; the derivative along the axes (rs_polach.h) */
        const double k0 = 0.5 * (o->kA + o->kS) * G * ab;
        Fx.d[0] = -k0 * c[0];
        Fy.d[1] = -k0 * c[1];
    }

    /* spin (Polach 1999): Fy += (9/16) a N μ K_M k_e φ / s_C.  With
     * u = ε_ψ² and d = 1 − δ = 2/(1 + u), δ³/3 − δ²/2 + 1/6 = d²/2 − d³/3
     * and √((1 − δ²)³) = 8 ε_ψ³/(1 + u)³, so K_M = −(2/3) ε_ψ/(1 + u)²
     * exactly, and since ε_ψ/s_C = (8/3) G b √(ab) C23/(N μ k_e):
     *   Fy += − G (ab)^{3/2} C23 φ / (1 + ε_ψ²)²
     * (no cancellation, no division by s_C; the test evaluates the printed
     * form).  Evaluated at φ = 0 too: the value is 0 there, the derivative
     * is not.  Beyond ε_ψ = 1e75 the term is below 1e-300 of the linear one:
     * 0, derivatives included (no overflow). */
    {
        const d3 yc = fabs(xi[1] + xi[2] * a) > fabs(xi[1])
                          ? d3_add(sy, d3_scale(ph, a)) : sy;
        const d3 sc = d3_hypot(sx, yc);
        const double ke = 1 + 6.3 * (1 - exp(-a / b));
        const d3 ep = d3_div(d3_scale(sc, (8.0 / 3.0) * G * b * sqrt(ab) * c[2] / ke), muN);
        if (ep.v < 1e75) {
            const d3 op = d3_add(d3_const(1), d3_mul(ep, ep));
            const d3 h = d3_div(ph, d3_mul(op, op));
            Fy = d3_add(Fy, d3_scale(h, -G * ab15 * c[2]));
        }
    }

    /* Mz: Kalker's linear spin moment scaled by Polach's saturation ratio
     * F(ε_C)/F_lin(ε_C) at the creepage with spin, s_C (rs_polach.h):
     *   σ = [kA ε/(1 + (kA ε)²) + atan(kS ε)] / (2 ε),
     *   ε = G π a b √((C11 ξx)² + (C22 s_yC)²) / (4 N μ);
     * for ε < 1e-4 its series (kA + kS)/2 − (kA³ + kS³/3) ε²/2 (error
     * O(ε⁴), no 0/0). */
    const d3 Mlin = d3_sub(d3_scale(sy, G * ab15 * c[2]), d3_scale(ph, G * ab * ab * c[3]));
    d3 Mz = d3_const(0);
    {
        const d3 yc = fabs(xi[1] + xi[2] * a) > fabs(xi[1])
                          ? d3_add(sy, d3_scale(ph, a)) : sy;
        const d3 q = d3_hypot(d3_scale(sx, c[0]), d3_scale(yc, c[1]));
        const d3 eps = d3_div(d3_scale(q, G * RS_PI * ab / 4), muN);
        const double kA = o->kA, kS = o->kS;
        d3 sigma;
        if (eps.v < 1e-4) {
            sigma = d3_sub(d3_const(0.5 * (kA + kS)),
                           d3_scale(d3_mul(eps, eps), 0.5 * (kA * kA * kA + kS * kS * kS / 3)));
        } else {
            const d3 t1 = bump(d3_scale(eps, kA));
            const d3 t2 = d3_atan(d3_scale(eps, kS));
            sigma = d3_div(d3_add(t1, t2), d3_scale(eps, 2));
        }
        Mz = d3_mul(Mlin, sigma);
    }

    f[0] = Fx.v;
    f[1] = Fy.v;
    f[2] = Mz.v;
    if (J)
        for (int k = 0; k < 3; k++) {
            J[k] = Fx.d[k];
            J[3 + k] = Fy.d[k];
            J[6 + k] = Mz.d[k];
        }
    return RS_OK;
}
