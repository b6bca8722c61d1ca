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
    /* and for the closed-form adhesion zone (below): u_i = 1 − t_i,
     * e_i = (1 − t_i²)/2 */
    double um[RS_FASTSIM_MAX_N], em[RS_FASTSIM_MAX_N];
    double T = 0;
    for (int i = 0; i < mx; i++) {
        double t = tm[i] = 1.0 - (2.0 * i + 1) / mx;
        double q = 1 - t * t;
        um[i] = 1 - t;
        em[i] = 0.5 * q;
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

    /* Per strip the sums are taken without the weights that are constant
     * along it (dx dy, and a_j in x = a_j t): they multiply once at its
     * end.  The march's cost is its instruction count (it is not latency-
     * bound: interleaving strips bought nothing), so the adhesion zone
     * behind the leading edge, where traction and derivatives are sums of
     * constants, is summed in closed form; only the elements from the
     * first slip on are marched. */
    double F0 = 0, F1 = 0, M = 0;
    double JF[9] = {0};
    for (int j = 0; j < my; j++) {
        const double eta = -1 + (2.0 * j + 1) / my;
        const double e2 = 1 - eta * eta;
        const double y = b * eta;
        const double aj = a * sqrt(e2);
        const double rj = gs * (hertz ? sqrt(e2) : e2);
        const double dx = 2 * aj / mx, w = dx * dy;
        const double wx = xi[0] * iL1 - xi[2] * y * iLxs;
        const double wy0 = xi[1] * iL2, wy1 = xi[2] * iL3, yl = y * iLxs;
        double px = 0, py = 0;
        double dpx[3] = {0, 0, 0}, dpy[3] = {0, 0, 0};
        /* Σ p, Σ t p_y, and the same of the derivatives */
        double sx = 0, sy = 0, sty = 0;
        double sdx[3] = {0, 0, 0}, sdy[3] = {0, 0, 0}, stdy[3] = {0, 0, 0};
        /* Adhesion from the leading edge (p = p_H) in closed form: the
         * rigid slip summed exactly from the leading edge to midpoint x_i =
         * a_j t_i gives p_x = wx a_j u_i, p_y = wy0 a_j u_i + wy1 a_j² e_i
         * with u_i = 1 − t_i, e_i = (1 − t_i²)/2, and the derivatives are
         * the same sums of constants (dp_x/dξy = dp_y/dξx = 0).  So only the
         * first slip is searched for, summing u, e, t u, t e. */
        const double cx = wx * aj, cy0 = wy0 * aj, cy1 = wy1 * aj * aj;
        double su = 0, se = 0, stu = 0, ste = 0;
        int i = 0;
        for (; i < mx; i++) {
            const double u = um[i], e = em[i];
            const double hx = cx * u, hy = cy0 * u + cy1 * e, g = rj * s[i];
            if (hx * hx + hy * hy > g * g)
                break;
            su += u;
            se += e;
            stu += tm[i] * u;
            ste += tm[i] * e;
        }
        if (i > 0) { /* the march's state at the adhesion zone's end */
            const double u = um[i - 1], e = em[i - 1];
            px = cx * u;
            py = cy0 * u + cy1 * e;
            dpx[0] = iL1 * aj * u;
            dpx[2] = -yl * aj * u;
            dpy[1] = iL2 * aj * u;
            dpy[2] = iL3 * aj * aj * e;
            sx = cx * su;
            sy = cy0 * su + cy1 * se;
            sty = cy0 * stu + cy1 * ste;
            sdx[0] = iL1 * aj * su;
            sdx[2] = -yl * aj * su;
            sdy[1] = iL2 * aj * su;
            sdy[2] = iL3 * aj * aj * se;
            stdy[1] = iL2 * aj * stu;
            stdy[2] = iL3 * aj * aj * ste;
        }
        /* from the first slip on: either, element by element */
        for (; i < mx; i++) {
            /* from the previous midpoint (or the leading edge) to this one:
             * length h, the linear rigid slip integrated exactly (its value
             * at the middle of the step) */
            const double h = i == 0 ? 0.5 * dx : dx, xs = aj * tm[i] + 0.5 * h;
            const double hx = px + h * wx, hy = py + h * (wy0 + wy1 * xs);
            dpx[0] += h * iL1;
            dpx[2] -= h * yl;
            dpy[1] += h * iL2;
            dpy[2] += h * xs * iL3;
            const double g = rj * s[i];
            const double h2 = hx * hx + hy * hy;
            if (h2 > g * g) { /* slip: onto the bound, along n = p_H/|p_H| */
                /* hypot where h2 overflows (absurd creepage): no NaN */
                const double ihn = 1 / (h2 <= DBL_MAX ? sqrt(h2) : hypot(hx, hy));
                const double nx = hx * ihn, ny = hy * ihn, k = g * ihn;
                px = g * nx;
                py = g * ny;
                /* dp = k (I − n nᵀ) dp_H, per ξ component (written out) */
                const double n0 = nx * dpx[0] + ny * dpy[0], n1 = nx * dpx[1] + ny * dpy[1],
                             n2 = nx * dpx[2] + ny * dpy[2];
                dpx[0] = k * (dpx[0] - nx * n0);
                dpx[1] = k * (dpx[1] - nx * n1);
                dpx[2] = k * (dpx[2] - nx * n2);
                dpy[0] = k * (dpy[0] - ny * n0);
                dpy[1] = k * (dpy[1] - ny * n1);
                dpy[2] = k * (dpy[2] - ny * n2);
            } else {
                px = hx;
                py = hy;
            }
            const double t = tm[i];
            sx += px;
            sy += py;
            sty += t * py;
            sdx[0] += dpx[0];
            sdx[1] += dpx[1];
            sdx[2] += dpx[2];
            sdy[0] += dpy[0];
            sdy[1] += dpy[1];
            sdy[2] += dpy[2];
            stdy[0] += t * dpy[0];
            stdy[1] += t * dpy[1];
            stdy[2] += t * dpy[2];
        }
        /* F += w Σ p; M += w Σ (x p_y − y p_x), x = a_j t */
        F0 += w * sx;
        F1 += w * sy;
        M += w * (aj * sty - y * sx);
        for (int m = 0; m < 3; m++) {
            JF[m] += w * sdx[m];
            JF[3 + m] += w * sdy[m];
            JF[6 + m] += w * (aj * stdy[m] - y * sdx[m]);
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
