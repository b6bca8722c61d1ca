/*
 * rs_interval.h — closed intervals of reals for the patch search's
 * convexity proof (rs_patch.c convex_interval): lower and upper end, in
 * plain round-to-nearest (the bound tables' own rounding allowances cover
 * the arithmetic's).  Header-only: the proof calls these a few hundred
 * times a step, and tests/physics/test_patch.c checks the shortcuts for
 * factors of known sign against the general product.
 */
#ifndef RS_INTERVAL_H
#define RS_INTERVAL_H

typedef struct iv {
    double lo, hi;
} iv;

/* min and max of non-NaN numbers (no library call, no NaN rules) */
static inline double iv_min(double x, double y) { return x < y ? x : y; }
static inline double iv_max(double x, double y) { return x > y ? x : y; }

static inline iv iv_make(double a, double b)
{
    iv r = {iv_min(a, b), iv_max(a, b)};
    return r;
}

static inline iv iv_add(iv a, iv b)
{
    iv r = {a.lo + b.lo, a.hi + b.hi};
    return r;
}

static inline iv iv_mul(iv a, iv b)
{
    const double p0 = a.lo * b.lo, p1 = a.lo * b.hi, p2 = a.hi * b.lo, p3 = a.hi * b.hi;
    iv r = {iv_min(iv_min(p0, p1), iv_min(p2, p3)), iv_max(iv_max(p0, p1), iv_max(p2, p3))};
    return r;
}

/* iv_mul for a >= 0 (a.lo >= 0): rounding is monotone in each factor, so
 * the extreme products follow from b's signs alone and are iv_mul's, two
 * products instead of four and no comparisons of products (the same
 * values; a zero may differ in sign, which no sum or comparison of the
 * proof sees) */
static inline iv iv_mul_pos(iv a, iv b)
{
    iv r = {b.lo >= 0.0 ? a.lo * b.lo : a.hi * b.lo, b.hi >= 0.0 ? a.hi * b.hi : a.lo * b.hi};
    return r;
}

static inline iv iv_scale(double k, iv a)
{
    return iv_make(k * a.lo, k * a.hi);
}

/* iv_scale for k > 0, and for k = −1 (iv_neg): the same values */
static inline iv iv_scale_pos(double k, iv a)
{
    iv r = {k * a.lo, k * a.hi};
    return r;
}

static inline iv iv_neg(iv a)
{
    iv r = {-a.hi, -a.lo};
    return r;
}

static inline iv iv_sq(iv a)
{
    const double l = a.lo * a.lo, h = a.hi * a.hi;
    iv r = {a.lo <= 0.0 && a.hi >= 0.0 ? 0.0 : iv_min(l, h), iv_max(l, h)};
    return r;
}

#endif
