/*
 * patch_standin.c — TEST-ONLY stand-in of rs_patch_find (rs_patch.h) for
 * ZERO YAW (a[0] == 0), until runtime/contact/rs_patch.c is merged.  Linked
 * only into build/tests/test_contact_geometry and build/railsym (Makefile,
 * PATCH_STANDIN); delete this file and those two Makefile lines when the
 * real search arrives.
 *
 * At zero yaw the lowest point of the wheel slice u lies in the plane x = 0:
 * P(u) = c + u a + (r0 + z_w(u)) e,  e = (0, a_z, -a_y) (down, normal to a).
 * Vertical gap g(u) = P_z(u) - z_r(P_y(u)); the local minima of g on a grid
 * over the wheel slices whose P_y lies on the rail table are refined by
 * golden section; each negative minimum is a patch, pen = -g cos(alpha)
 * (the approach along the rail normal, to first order).
 */
#include <math.h>
#include <string.h>

#include "rs_patch.h"

void rs_patch_defaults(rs_patch_opts *o)
{
    o->du = 1e-3;
    o->r0 = 0;
    o->tol = 1e-8;
}

typedef struct {
    const rs_profile *w, *r;
    const double *c, *a;
    double r0;
} standin;

/* gap at slice u; *yr the rail abscissa, *ok 0 when it is off the rail table */
static double gap(const standin *s, double u, double *yr, int *ok)
{
    int hw = 0, hr = 0;
    const double R = s->r0 + rs_profile_eval(s->w, u, &hw, NULL, NULL);
    const double py = s->c[1] + u * s->a[1] + R * s->a[2];
    const double pz = s->c[2] + u * s->a[2] - R * s->a[1];
    *yr = py;
    *ok = py >= s->r->y[0] && py <= s->r->y[s->r->n - 1];
    if (py < s->r->y[0]) *yr = s->r->y[0];
    if (py > s->r->y[s->r->n - 1]) *yr = s->r->y[s->r->n - 1];
    return pz - rs_profile_eval(s->r, *yr, &hr, NULL, NULL);
}

int rs_patch_find(const rs_profile *w, const rs_profile *r, const double c[3],
                  const double a[3], const rs_patch_opts *o, rs_patch_hint *hint,
                  rs_patch *out, int max, int *n)
{
    (void)hint;
    if (!w || !r || !c || !a || !o || !out || !n || max < 1 || max > RS_PATCH_MAX) return RS_E_ARG;
    if (a[0] != 0 || !(o->r0 > 0) || !(o->du > 0) || fabs(a[1] * a[1] + a[2] * a[2] - 1) > 1e-9) return RS_E_ARG;
    *n = 0;
    standin s = {w, r, c, a, o->r0};
    const double u0 = w->y[0], u1 = w->y[w->n - 1];
    const int m = (int)ceil((u1 - u0) / o->du);
    const double du = (u1 - u0) / m;
    double gp = INFINITY, gc = INFINITY, yr;
    int ok, okp = 0, okc = 0, found = 0;
    rs_patch tmp[16];
    for (int i = 0; i <= m + 1; i++) {
        const double gn = i <= m ? gap(&s, u0 + i * du, &yr, &ok) : INFINITY;
        if (i > m) ok = 0;
        const double gn_eff = ok ? gn : INFINITY;
        /* slice i-1 is a local minimum of the grid gap */
        if (i >= 1 && okc && gc <= gp && gc <= gn_eff) {
            const double gr = 0.6180339887498949;
            double lo = u0 + (i - 2) * du, hi = u0 + i * du;
            if (lo < u0) lo = u0;
            if (hi > u1) hi = u1;
            double x1 = hi - gr * (hi - lo), x2 = lo + gr * (hi - lo);
            double f1 = gap(&s, x1, &yr, &ok), f2 = gap(&s, x2, &yr, &ok);
            while (hi - lo > o->tol) {
                if (f1 < f2) { hi = x2; x2 = x1; f2 = f1; x1 = hi - gr * (hi - lo); f1 = gap(&s, x1, &yr, &ok); }
                else         { lo = x1; x1 = x2; f1 = f2; x2 = lo + gr * (hi - lo); f2 = gap(&s, x2, &yr, &ok); }
            }
            double u = 0.5 * (lo + hi);
            double g = gap(&s, u, &yr, &ok);
            if (gc < g) { u = u0 + (i - 1) * du; g = gap(&s, u, &yr, &ok); }
            if (g < 0 && found < 16) {
                rs_patch *p = &tmp[found++];
                memset(p, 0, sizeof *p);
                int hr = 0, hw = 0;
                double dzr = 0;
                const double zr = rs_profile_eval(r, yr, &hr, &dzr, NULL);
                p->alpha = atan(dzr);
                p->pen = -g * cos(p->alpha);
                p->u_w = u;
                p->u_r = yr;
                p->u_lo = p->u_hi = u;
                const double R = o->r0 + rs_profile_eval(w, u, &hw, NULL, NULL);
                p->pw[1] = yr;
                p->pw[2] = zr + g;
                p->pr[1] = yr;
                p->pr[2] = zr;
                p->n[1] = -sin(p->alpha);
                p->n[2] = cos(p->alpha);
                p->t[1] = cos(p->alpha);
                p->t[2] = sin(p->alpha);
                p->R_wx = R;
                p->R_wy = p->R_ry = INFINITY;
            }
        }
        gp = gc; okp = okc;
        gc = gn_eff; okc = ok;
    }
    (void)okp;
    /* keep the max deepest, ordered by u_w */
    int rc = RS_OK;
    while (found > max) {
        int k = 0;
        for (int i = 1; i < found; i++) if (tmp[i].pen < tmp[k].pen) k = i;
        memmove(&tmp[k], &tmp[k + 1], (size_t)(found - k - 1) * sizeof tmp[0]);
        found--;
        rc = RS_CLAMPED;
    }
    for (int i = 0; i < found; i++) out[i] = tmp[i];
    *n = found;
    return rc;
}
