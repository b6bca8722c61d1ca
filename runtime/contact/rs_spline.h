/*
 * rs_spline.h — interpolating cubic spline over a table with strictly
 * increasing abscissae: profiles of wheels and rails, track functions.
 *
 * End condition: NOT-A-KNOT (the third derivative is continuous at the
 * second and the second-to-last knots).  Why not the natural spline: the
 * natural end condition forces f'' = 0 at both ends, which bends the
 * curvature of a curved profile (a rail head arc, a wheel flange) towards
 * zero near the table ends, and curvature feeds the Hertz ellipse.  The
 * not-a-knot spline imposes nothing physical and reproduces every cubic
 * exactly (so straight lines, cones and parabolas are exact).  It needs at
 * least 4 knots.
 *
 * Segment i (0 <= i < n-1) covers [x[i], x[i+1]) (the last one includes its
 * right end) and holds the cubic
 *     f(u) = ((a t + b) t + c) t + d,   t = u - x[i]  (x[i] = u_bp),
 * the exact form the generated code takes as 5 input slots (DESIGN.md,
 * "Wheel-rail contact").  Outside [x[0], x[n-1]] the end segments' cubics
 * are extrapolated (rs_spline_find reports it).
 *
 * Ownership: rs_spline_fit allocates (once); rs_spline_free releases.  Look-up
 * and evaluation never allocate and are safe to call from many threads on
 * one spline, each thread holding its own hint.
 */
#ifndef RS_SPLINE_H
#define RS_SPLINE_H

#include <stddef.h>

/* The fitting functions return RS_OK, or RS_E_ARG (NULL pointer or n < 4),
 * RS_E_ORDER (abscissae not strictly increasing), RS_E_NONFINITE (NaN or Inf
 * in the table), RS_E_NOMEM: the codes of rs_status.h. */
#include "rs_status.h"

#define RS_SPLINE_MIN_POINTS 4

typedef struct rs_spline {
    int     n;       /* number of knots (>= 4); segments = n - 1          */
    double *x;       /* n knots, strictly increasing                      */
    double *coef;    /* 4 (n-1) numbers: a, b, c, d of segment i at 4 i   */
} rs_spline;

/* Fit the not-a-knot spline through (x[i], y[i]), i < n.  On failure *s is
 * left empty (safe to free) and, if err != NULL, a message is written
 * there (at most errlen bytes, NUL-terminated) naming the offending index.
 * Returns RS_OK or a negative rs_status code (above). */
int rs_spline_fit(rs_spline *s, const double *x, const double *y, int n,
                  char *err, size_t errlen);

/* Release the spline's memory; *s becomes empty.  NULL-safe. */
void rs_spline_free(rs_spline *s);

/* Index of the segment that holds u.  *hint (may be NULL) is the segment of
 * the previous call on this spline by this caller: the hint segment and its
 * neighbours are tried first (O(1) when the coordinate moves little between
 * steps), then a binary search.  *hint is updated.  u below x[0] gives 0,
 * above x[n-1] gives n-2 (extrapolation); NaN gives the hint (or 0).
 * *outside (may be NULL) is set to -1 / 0 / +1 for below / inside / above. */
int rs_spline_find(const rs_spline *s, double u, int *hint, int *outside);

/* Value at u; first and second derivatives into *d1, *d2 when non-NULL.
 * Uses rs_spline_find with the given hint. */
double rs_spline_eval(const rs_spline *s, double u, int *hint,
                      double *d1, double *d2);

/* The five numbers of segment seg as the generated code wants them:
 * out[0..3] = a, b, c, d and out[4] = u_bp = x[seg].  seg is clamped to
 * [0, n-2]. */
void rs_spline_segment(const rs_spline *s, int seg, double out[5]);

/* Evaluate the cubic of 5 coefficients (as rs_spline_segment writes them)
 * at u, with derivatives: the same arithmetic as the generated code. */
double rs_spline_cubic5(const double c5[5], double u, double *d1, double *d2);

#endif /* RS_SPLINE_H */
