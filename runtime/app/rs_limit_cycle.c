/*
 * rs_limit_cycle.c — decaying, growing or limit cycle from the extrema of
 * the end of a run.  See rs_limit_cycle.h.
 */
#include <math.h>
#include <string.h>

#include "rs_limit_cycle.h"
#include "rs_status.h"

void rs_lc_options_default(rs_lc_options *o)
{
    o->change_tol = 0.01;
    o->sig = 3;
    o->amp_floor = 1e-6;
    o->periods = 3;
}

const char *rs_lc_name(int cls)
{
    switch (cls) {
    case RS_LC_DECAYING: return "decaying";
    case RS_LC_GROWING: return "growing";
    case RS_LC_LIMIT_CYCLE: return "limit cycle";
    default: return "unclear";
    }
}

int rs_lc_classify(const rs_peaks *p, double t_start, double t_end, const rs_lc_options *o, rs_lc *c)
{
    memset(c, 0, sizeof *c);
    c->rate = c->rate_se = c->freq = c->change = NAN;
    c->cls = RS_LC_DECAYING;
    if (p->nomem)
        return RS_E_NOMEM;
    const double t_mid = 0.5 * (t_start + t_end);
    double amax = 0;
    int k0 = 0;
    while (k0 < p->n && p->t[k0] < t_mid)
        k0++;
    for (int k = k0; k < p->n; k++)
        if (fabs(p->a[k]) > amax)
            amax = fabs(p->a[k]);
    /* the window's extrema above the rounding-noise floor, up to the first
     * one below it (a motion that died away stays dead) */
    double st = 0, sy = 0, stt = 0, sty = 0, syy = 0;
    int n = 0, k1 = k0;
    for (int k = k0; k < p->n; k++) {
        const double a = fabs(p->a[k]);
        if (!(a > 1e-6 * amax))
            break;
        const double t = p->t[k], ly = log(a);
        st += t;
        sy += ly;
        stt += t * t;
        sty += t * ly;
        syy += ly * ly;
        n++;
        k1 = k;
    }
    c->fitted = n;
    if (n < 4 || !(amax > o->amp_floor))
        return RS_OK;   /* nothing left to measure: decayed */
    const double sxx = stt - st * st / n, sxy = sty - st * sy / n, s_yy = syy - sy * sy / n;
    if (!(sxx > 0))
        return RS_OK;
    const double t_first = p->t[k0], t_last = p->t[k1];
    c->rate = sxy / sxx;
    const double ssr = s_yy - c->rate * sxy;
    c->rate_se = sqrt((ssr > 0 ? ssr : 0) / (n - 2) / sxx);
    c->freq = (double)(n - 1) / (2.0 * (t_last - t_first));
    c->change = expm1(c->rate / c->freq);
    /* the amplitude at the end: the last `periods` periods */
    const double t_from = t_last - o->periods / c->freq;
    for (int k = k1; k >= k0 && p->t[k] >= t_from; k--)
        if (fabs(p->a[k]) > c->amp)
            c->amp = fabs(p->a[k]);
    const int real = fabs(c->rate) > o->sig * c->rate_se;
    if (fabs(c->change) <= o->change_tol)
        c->cls = RS_LC_LIMIT_CYCLE;
    else if (!real)
        c->cls = RS_LC_UNCLEAR;
    else
        c->cls = c->change > 0 ? RS_LC_GROWING : RS_LC_DECAYING;
    if (c->amp <= o->amp_floor) {
        c->cls = RS_LC_DECAYING;
        c->amp = 0;
    }
    return RS_OK;
}
