/*
 * rs_fastsim.c — FASTSIM with its exact discrete Jacobian.  The theory and
 * the choices: rs_fastsim.h and docs/creep.md.
 */
#include "rs_fastsim.h"

#include <float.h>
#include <math.h>

#define RS_PI 3.14159265358979323846

void rs_fastsim_defaults(rs_fastsim_opts *o)
{
    o->mx = RS_FASTSIM_MX_DEFAULT;
    o->my = RS_FASTSIM_MY_DEFAULT;
    o->bound = RS_FASTSIM_BOUND_HERTZ;
    o->spin_moment_flex = 0;
}

static int finite3(const double v[3])
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

int rs_fastsim_forces(double a, double b, double G, const double c[4],
                      double mu, double N, const double xi[3],
                      const rs_fastsim_opts *o, double f[3], double J[9])
{
    rs_fastsim_opts def;
    if (!o) {
        rs_fastsim_defaults(&def);
        o = &def;
    }
    if (!c || !xi || !f)
        return RS_E_ARG;
    if (!isfinite(a) || !isfinite(b) || !isfinite(G) || !isfinite(mu) ||
        !isfinite(N) || !finite3(xi) || !(G > 0) || !(mu >= 0) || !(N >= 0))
        return RS_E_ARG;
    for (int k = 0; k < 4; k++)
        if (!isfinite(c[k]) || !(c[k] > 0))
            return RS_E_ARG;
    if (o->mx < 1 || o->mx > RS_FASTSIM_MAX_N || o->my < 1 ||
        o->my > RS_FASTSIM_MAX_N ||
        (o->bound != RS_FASTSIM_BOUND_HERTZ && o->bound != RS_FASTSIM_BOUND_PARABOLIC))
        return RS_E_ARG;
    if (N > 0 && (!(a > 0) || !(b > 0)))
        return RS_E_ARG;
    if (!(a >= 0) || !(b >= 0))
        return RS_E_ARG;

    f[0] = f[1] = f[2] = 0;
    if (J)
        for (int k = 0; k < 9; k++)
            J[k] = 0;
    if (N == 0 || mu == 0)
        return RS_OK;

    const int mx = o->mx, my = o->my;
    const int hertz = o->bound == RS_FASTSIM_BOUND_HERTZ;

    /* flexibilities (Kalker 1982); L4 optional, for the x traction from spin */
    const double L1 = 8 * a / (3 * G * c[0]);
    const double L2 = 8 * a / (3 * G * c[1]);
    const double L3 = RS_PI * a * sqrt(a / b) / (4 * G * c[2]);
    const double Lxs = o->spin_moment_flex ? 8 * b / (15 * G * c[3]) : L3;
    const double iL1 = 1 / L1, iL2 = 1 / L2, iL3 = 1 / L3, iLxs = 1 / Lxs;

    /* element midpoints along a strip: t_i = 1 − (2i + 1)/mx, x = a_j t_i
     * (i = 0 at the leading edge); bound factor s_i = √(1 − t²) (Hertz) or
     * 1 − t² (parabolic); T = Σ s_i. */
    double s[RS_FASTSIM_MAX_N], tm[RS_FASTSIM_MAX_N];
    double T = 0;
    for (int i = 0; i < mx; i++) {
        double t = tm[i] = 1.0 - (2.0 * i + 1) / mx;
        double q = 1 - t * t;
        s[i] = hertz ? sqrt(q) : q;
        T += s[i];
    }
    /* strips: η_j = −1 + (2j + 1)/my, y = b η, half length a_j = a √(1 − η²),
     * dx = 2 a_j / mx; the bound at (i, j) is gs · r_j · s_i with
     * r_j = √(1 − η²) (Hertz) or 1 − η² (parabolic) */
    const double dy = 2 * b / my;
    double Y = 0;
    for (int j = 0; j < my; j++) {
        double eta = -1 + (2.0 * j + 1) / my;
        double e2 = 1 - eta * eta;
        Y += hertz ? e2 : e2 * sqrt(e2);
    }
    /* normalise: Σ g dx dy = μ N exactly */
    const double gs = mu * N / ((2 * a / mx) * dy * T * Y);

    double F0 = 0, F1 = 0, M = 0;
    double JF[9] = {0};

    for (int j = 0; j < my; j++) {
        const double eta = -1 + (2.0 * j + 1) / my;
        const double e2 = 1 - eta * eta;
        const double y = b * eta;
        const double aj = a * sqrt(e2);
        const double dx = 2 * aj / mx;
        const double rj = gs * (hertz ? sqrt(e2) : e2);
        const double wx = xi[0] * iL1 - xi[2] * y * iLxs;
        const double w = dx * dy;
        const double wy0 = xi[1] * iL2, wy1 = xi[2] * iL3;
        double px = 0, py = 0;
        double dpx[3] = {0, 0, 0}, dpy[3] = {0, 0, 0};
        for (int i = 0; i < mx; i++) {
            const double x = aj * tm[i];   /* midpoint */
            /* from the previous midpoint (or the leading edge) to this one:
             * length h, the linear rigid slip integrated exactly (its value
             * at the middle of the step) */
            const double h = i == 0 ? 0.5 * dx : dx;
            const double xs = x + 0.5 * h;
            const double wy = wy0 + wy1 * xs;
            const double hx = px + h * wx, hy = py + h * wy;
            const double dhx[3] = {dpx[0] + h * iL1, dpx[1], dpx[2] - h * y * iLxs};
            const double dhy[3] = {dpy[0], dpy[1] + h * iL2, dpy[2] + h * xs * iL3};
            const double g = rj * s[i];
            const double h2 = hx * hx + hy * hy;
            if (h2 > g * g) {            /* slip: onto the bound, along p_H */
                /* hypot where h2 overflows (absurd creepage): no NaN */
                const double ihn = 1 / (h2 <= DBL_MAX ? sqrt(h2) : hypot(hx, hy));
                const double nx = hx * ihn, ny = hy * ihn, k = g * ihn;
                px = g * nx;
                py = g * ny;
                for (int m = 0; m < 3; m++) {
                    const double nd = nx * dhx[m] + ny * dhy[m];
                    dpx[m] = k * (dhx[m] - nx * nd);
                    dpy[m] = k * (dhy[m] - ny * nd);
                }
            } else {
                px = hx;
                py = hy;
                for (int m = 0; m < 3; m++) {
                    dpx[m] = dhx[m];
                    dpy[m] = dhy[m];
                }
            }
            F0 += w * px;
            F1 += w * py;
            M += w * (x * py - y * px);
            for (int m = 0; m < 3; m++) {
                JF[m] += w * dpx[m];
                JF[3 + m] += w * dpy[m];
                JF[6 + m] += w * (x * dpy[m] - y * dpx[m]);
            }
        }
    }
    /* the traction of the simplified theory acts on the rail; the wheel
     * receives the opposite (Kalker's sign, rs_kalker_forces) */
    f[0] = -F0;
    f[1] = -F1;
    f[2] = -M;
    if (J)
        for (int k = 0; k < 9; k++)
            J[k] = -JF[k];
    return RS_OK;
}
