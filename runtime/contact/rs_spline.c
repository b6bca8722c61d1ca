/*
 * rs_spline.c — not-a-knot cubic spline: fit, segment look-up, evaluation.
 *
 * The fit solves for the knot second derivatives M[i].  Interior knots give
 * the usual continuity rows
 *     h[i-1] M[i-1] + 2 (h[i-1] + h[i]) M[i] + h[i] M[i+1] = 6 (s[i] - s[i-1])
 * (h = knot spacing, s = secant slope).  Not-a-knot makes the third
 * derivative continuous at x[1] and x[n-2]:
 *     M[0]   = ((h0 + h1) M[1] - h0 M[2]) / h1,  and mirrored at the right,
 * which is eliminated into the first and last interior rows.  The resulting
 * tridiagonal system stays strictly diagonally dominant (for the modified
 * first row: (h0+h1)(h0+2h1)/h1 > |h1^2 - h0^2|/h1), so the Thomas algorithm
 * without pivoting is stable.
 */
#include "rs_spline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rs_error.h"

void rs_spline_free(rs_spline *s)
{
    if (!s)
        return;
    free(s->x);             /* x and coef share one block */
    s->x = NULL;
    s->coef = NULL;
    s->n = 0;
}

int rs_spline_fit(rs_spline *s, const double *x, const double *y, int n,
                  char *err, size_t errlen)
{
    if (!s)
        return rs_fail(err, errlen, RS_E_ARG, "spline: NULL spline");
    s->n = 0;
    s->x = NULL;
    s->coef = NULL;
    if (!x || !y || n < RS_SPLINE_MIN_POINTS)
        return rs_fail(err, errlen, RS_E_ARG, "spline: need at least %d points", RS_SPLINE_MIN_POINTS);
    for (int i = 0; i < n; i++) {
        if (!isfinite(x[i]) || !isfinite(y[i]))
            return rs_fail(err, errlen, RS_E_NONFINITE, "spline: point %d is not finite (NaN or Inf)", i);
        if (i > 0 && !(x[i] > x[i - 1]))
            return rs_fail(err, errlen, RS_E_ORDER,
                           "spline: abscissa of point %d is not greater than the previous one", i);
    }

    size_t nseg = (size_t)n - 1;
    double *blk = malloc(sizeof(double) * ((size_t)n + 4 * nseg));
    double *work = malloc(sizeof(double) * 3 * (size_t)n);
    if (!blk || !work) {
        free(blk);
        free(work);
        return rs_fail(err, errlen, RS_E_NOMEM, "spline: out of memory for %d points", n);
    }
    double *M = work;           /* n second derivatives          */
    double *up = work + n;      /* modified upper diagonal       */
    double *rhs = work + 2 * n; /* modified right-hand side      */

    /* Rows i = 1 .. n-2 (unknowns M[1..n-2]); forward sweep of Thomas. */
    for (int i = 1; i <= n - 2; i++) {
        double h0 = x[i] - x[i - 1], h1 = x[i + 1] - x[i];
        double lo = h0, di = 2.0 * (h0 + h1), hi = h1;
        double r = 6.0 * ((y[i + 1] - y[i]) / h1 - (y[i] - y[i - 1]) / h0);
        if (i == 1) {           /* M[0] eliminated */
            di = (h0 + h1) * (h0 + 2.0 * h1) / h1;
            hi = (h1 - h0) * (h1 + h0) / h1;
            lo = 0.0;
        }
        if (i == n - 2) {       /* M[n-1] eliminated */
            lo = (h0 - h1) * (h0 + h1) / h0;
            di = (h0 + h1) * (2.0 * h0 + h1) / h0;
            hi = 0.0;
        }
        if (i > 1) {
            /* eliminate lo with the previous (normalized) row */
            double den = di - lo * up[i - 1];
            up[i] = hi / den;
            rhs[i] = (r - lo * rhs[i - 1]) / den;
        } else {
            up[i] = hi / di;
            rhs[i] = r / di;
        }
    }
    M[n - 2] = rhs[n - 2];
    for (int i = n - 3; i >= 1; i--)
        M[i] = rhs[i] - up[i] * M[i + 1];
    {
        double h0 = x[1] - x[0], h1 = x[2] - x[1];
        M[0] = ((h0 + h1) * M[1] - h0 * M[2]) / h1;
        double hl = x[n - 1] - x[n - 2], hm = x[n - 2] - x[n - 3];
        M[n - 1] = ((hl + hm) * M[n - 2] - hl * M[n - 3]) / hm;
    }

    s->n = n;
    s->x = blk;
    s->coef = blk + n;
    memcpy(s->x, x, sizeof(double) * (size_t)n);
    for (size_t i = 0; i < nseg; i++) {
        double h = x[i + 1] - x[i];
        double *c = s->coef + 4 * i;
        c[0] = (M[i + 1] - M[i]) / (6.0 * h);
        c[1] = 0.5 * M[i];
        c[2] = (y[i + 1] - y[i]) / h - h * (2.0 * M[i] + M[i + 1]) / 6.0;
        c[3] = y[i];
    }
    free(work);
    return RS_OK;
}

int rs_spline_find(const rs_spline *s, double u, int *hint, int *outside)
{
    const double *x = s->x;
    int n = s->n, last = n - 2;
    int i = hint ? *hint : 0;
    int o = 0;
    if (i < 0 || i > last)
        i = 0;

    if (isnan(u)) {
        /* keep the hint: the caller will see the NaN in its result */
    } else if (u < x[0]) {
        i = 0;
        o = -1;
    } else if (u >= x[n - 1]) {
        i = last;
        o = u > x[n - 1] ? 1 : 0;
    } else if (x[i] <= u && u < x[i + 1]) {
        /* hint holds */
    } else if (i < last && x[i + 1] <= u && u < x[i + 2]) {
        i++;
    } else if (i > 0 && x[i - 1] <= u && u < x[i]) {
        i--;
    } else {
        int lo = 0, hi = n - 1;     /* invariant x[lo] <= u < x[hi] */
        while (hi - lo > 1) {
            int mid = lo + (hi - lo) / 2;
            if (x[mid] <= u)
                lo = mid;
            else
                hi = mid;
        }
        i = lo;
    }
    if (hint)
        *hint = i;
    if (outside)
        *outside = o;
    return i;
}

double rs_spline_eval(const rs_spline *s, double u, int *hint,
                      double *d1, double *d2)
{
    int i = rs_spline_find(s, u, hint, NULL);
    const double *c = s->coef + 4 * i;
    double t = u - s->x[i];
    if (d1)
        *d1 = (3.0 * c[0] * t + 2.0 * c[1]) * t + c[2];
    if (d2)
        *d2 = 6.0 * c[0] * t + 2.0 * c[1];
    return ((c[0] * t + c[1]) * t + c[2]) * t + c[3];
}

void rs_spline_segment(const rs_spline *s, int seg, double out[5])
{
    if (seg < 0)
        seg = 0;
    if (seg > s->n - 2)
        seg = s->n - 2;
    const double *c = s->coef + 4 * seg;
    out[0] = c[0];
    out[1] = c[1];
    out[2] = c[2];
    out[3] = c[3];
    out[4] = s->x[seg];
}

double rs_spline_cubic5(const double c5[5], double u, double *d1, double *d2)
{
    double t = u - c5[4];
    if (d1)
        *d1 = (3.0 * c5[0] * t + 2.0 * c5[1]) * t + c5[2];
    if (d2)
        *d2 = 6.0 * c5[0] * t + 2.0 * c5[1];
    return ((c5[0] * t + c5[1]) * t + c5[2]) * t + c5[3];
}
