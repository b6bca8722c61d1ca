/*
 * rs_envelope.c — extrema of an oscillation and the log-linear fit of their
 * amplitudes.  See rs_envelope.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rs_envelope.h"

void rs_peaks_init(rs_peaks *p)
{
    memset(p, 0, sizeof *p);
}

void rs_peaks_free(rs_peaks *p)
{
    free(p->t);
    free(p->a);
    rs_peaks_init(p);
}

static int push(rs_peaks *p, double t, double a)
{
    if (p->n > 0 && (p->a[p->n - 1] > 0) == (a > 0)) {
        /* same sign as the last extremum: noise near one peak, keep the larger */
        if (fabs(a) > fabs(p->a[p->n - 1])) {
            p->t[p->n - 1] = t;
            p->a[p->n - 1] = a;
        }
        return 0;
    }
    if (p->n == p->cap) {
        const int cap = p->cap ? 2 * p->cap : 64;
        double *nt = realloc(p->t, (size_t)cap * sizeof *nt);
        if (!nt) {
            p->nomem = 1;
            return RS_E_NOMEM;
        }
        p->t = nt;
        double *na = realloc(p->a, (size_t)cap * sizeof *na);
        if (!na) {
            p->nomem = 1;
            return RS_E_NOMEM;
        }
        p->a = na;
        p->cap = cap;
    }
    p->t[p->n] = t;
    p->a[p->n] = a;
    p->n++;
    return 0;
}

int rs_peaks_add(rs_peaks *p, double t, double y)
{
    int st = 0;
    if (p->samples >= 2) {
        const double t0 = p->t1, y0 = p->y1, t1 = p->t2, y1 = p->y2;
        const int is_max = y1 > 0 && y1 > y0 && y <= y1;
        const int is_min = y1 < 0 && y1 < y0 && y >= y1;
        if (is_max || is_min) {
            /* the parabola through the three samples, in u = t - t1 */
            double tx = t1, ax = y1;
            const double u0 = t0 - t1, u2 = t - t1;
            if (u0 < 0 && u2 > 0) {
                const double s2 = (y - y1) / u2, s0 = (y0 - y1) / u0;
                const double c = (s2 - s0) / (u2 - u0);
                const double b = s2 - c * u2;
                if (c != 0) {
                    const double us = -b / (2 * c);
                    if (us >= u0 && us <= u2) {
                        tx = t1 + us;
                        ax = y1 - b * b / (4 * c);
                    }
                }
            }
            st = push(p, tx, ax);
        }
    }
    p->t1 = p->t2;
    p->y1 = p->y2;
    p->t2 = t;
    p->y2 = y;
    p->samples++;
    return st;
}

int rs_envelope_fit(const rs_peaks *p, rs_envelope *e)
{
    memset(e, 0, sizeof *e);
    e->rate = e->freq = NAN;
    if (p->nomem)
        return RS_E_NOMEM;
    e->extrema = p->n;
    double amax = 0;
    for (int k = 0; k < p->n; k++)
        if (fabs(p->a[k]) > amax)
            amax = fabs(p->a[k]);
    e->amp_max = amax;
    /* the first extremum is the transient's; the rest above the noise floor,
     * up to the first one below it (a motion that died away stays dead) */
    double st = 0, sy = 0, stt = 0, sty = 0;
    int n = 0;
    for (int k = 1; k < p->n; k++) {
        const double a = fabs(p->a[k]);
        if (!(a > 1e-6 * amax))
            break;
        const double t = p->t[k], ly = log(a);
        if (n == 0)
            e->t_first = t;
        e->t_last = t;
        st += t;
        sy += ly;
        stt += t * t;
        sty += t * ly;
        n++;
    }
    e->fitted = n;
    if (n < 3)
        return RS_FEW_EXTREMA;
    const double den = (double)n * stt - st * st;
    if (!(den > 0))
        return RS_FEW_EXTREMA;
    e->rate = ((double)n * sty - st * sy) / den;
    e->freq = (double)(n - 1) / (2.0 * (e->t_last - e->t_first));
    return RS_OK;
}

int rs_envelope_of(const double *t, const double *y, size_t n, rs_envelope *e)
{
    rs_peaks p;
    rs_peaks_init(&p);
    for (size_t i = 0; i < n; i++)
        rs_peaks_add(&p, t[i], y[i]);
    const int st = rs_envelope_fit(&p, e);
    rs_peaks_free(&p);
    return st;
}
