/*
 * rs_strip_table.c — the strip law's stiffness per wheel slice (see the
 * header: the rigid contact's Hertz constant, smoothed).
 */
#include "rs_strip_table.h"

#include <math.h>

#include "rs_hertz.h"
#include "rs_status.h"

#define RAIL_SAMPLES 2048   /* the rail's slope sampled for the matching */

/* The rail point whose slope is s: the first sample from the gauge side
 * (the table's start, where the rail's slope is steepest) at or below s,
 * between it and the one before by linear interpolation; the table's ends
 * beyond its slopes. */
static double rail_match(const rs_profile *r, const double *slope, double s)
{
    const double y0 = r->y[0], dy = (r->y[r->n - 1] - y0) / (RAIL_SAMPLES - 1);
    if (!(slope[0] > s))
        return y0;
    for (int j = 1; j < RAIL_SAMPLES; j++)
        if (slope[j] <= s)
            return y0 + dy * (j - 1 + (slope[j - 1] - s) / (slope[j - 1] - slope[j]));
    return r->y[r->n - 1];
}

int rs_strip_table_make(rs_strip_table *t, const rs_profile *w, const rs_profile *r, double r0, double E,
                        double nu)
{
    double slope[RAIL_SAMPLES], raw[RS_STRIP_N], arc[RS_STRIP_N];
    const double y0 = r->y[0], dy = (r->y[r->n - 1] - y0) / (RAIL_SAMPLES - 1);
    int hint = 0;
    for (int j = 0; j < RAIL_SAMPLES; j++)
        rs_profile_eval(r, y0 + j * dy, &hint, &slope[j], NULL);
    t->u0 = w->y[0];
    t->du = (w->y[w->n - 1] - t->u0) / (RS_STRIP_N - 1);
    int hw = 0, hr = 0;
    double ca_prev = 1.0;
    for (int j = 0; j < RS_STRIP_N; j++) {
        double zw1, zw2, zr1, zr2;
        const double zw = rs_profile_eval(w, t->u0 + j * t->du, &hw, &zw1, &zw2);
        const double s = -zw1; /* the wheel's lower surface, as the rail's slope */
        rs_profile_eval(r, rail_match(r, slope, s), &hr, &zr1, &zr2);
        const double ca = 1.0 / sqrt(1.0 + s * s);
        double A, B, cH;
        rs_hertz_curvature_sums((r0 + zw) / ca, rs_hertz_profile_radius(zw1, zw2), INFINITY,
                                rs_hertz_profile_radius(zr1, zr2), &A, &B);
        B = fmax(B, A / RS_HERTZ_CONFORMAL_RATIO);
        const int st = rs_hertz_approach_constant(A, B, E, nu, &cH, NULL, NULL);
        if (st != RS_OK)
            return st;
        raw[j] = 0.75 * cH * sqrt(B) * ca;
        /* the profile's arc length (the smoothing's measure: on a 70° flank
         * a millimetre of arc is 0.34 mm of u) */
        arc[j] = j > 0 ? arc[j - 1] + t->du * 0.5 * (1.0 / ca + 1.0 / ca_prev) : 0.0;
        ca_prev = ca;
    }
    for (int j = 0; j < RS_STRIP_N; j++) {
        double sk = raw[j], sw = 1.0;
        for (int d = -1; d <= 1; d += 2)
            for (int l = j + d; l >= 0 && l < RS_STRIP_N; l += d) {
                const double wt = 1.0 - fabs(arc[l] - arc[j]) / RS_STRIP_SMOOTH;
                if (!(wt > 0))
                    break;
                sk += wt * raw[l], sw += wt;
            }
        t->k[j] = sk / sw;
    }
    return RS_OK;
}

double rs_strip_stiffness(const rs_strip_table *t, double u)
{
    double x = (u - t->u0) / t->du;
    if (!(x > 0))
        return t->k[0];
    if (!(x < RS_STRIP_N - 1))
        return t->k[RS_STRIP_N - 1];
    const int j = (int)x;
    x -= j;
    return t->k[j] + x * (t->k[j + 1] - t->k[j]);
}
