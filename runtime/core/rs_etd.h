/*
 * rs_etd.h — one internal state over one step (docs/runtime.md "Internal
 * states"): ż = a(t) + b z with a linear in time between a0 and a1 over the
 * step h and b < 0, integrated exactly (exponential time differencing):
 *   z1 = e^x z0 + h (φ1(x) a0 + φ2(x) (a1 − a0)),  x = b h,
 *   φ1(x) = (e^x − 1)/x,  φ2(x) = (e^x − 1 − x)/x².
 * Second order in general, exact when a is linear in time, stable for any
 * h, and quasi-static (z → −a/b) for h ≫ −1/b.  Shared by the single
 * vehicle's step (rs_step.c) and the trains' vehicles (rs_train_model.c).
 */
#ifndef RS_ETD_H
#define RS_ETD_H

#include <math.h>

static inline double rs_etd_advance(double z0, double a0, double a1, double b, double h)
{
    const double x = b * h;
    double p1, p2;
    if (fabs(x) < 1e-3) { /* the series: φ1, φ2 lose digits to cancellation here */
        p1 = 1 + x * (1.0 / 2 + x * (1.0 / 6 + x * (1.0 / 24 + x / 120)));
        p2 = 1.0 / 2 + x * (1.0 / 6 + x * (1.0 / 24 + x * (1.0 / 120 + x / 720)));
    } else {
        const double em1 = expm1(x);
        p1 = em1 / x;
        p2 = (em1 - x) / (x * x);
    }
    return (1 + x * p1) * z0 + h * (p1 * a0 + p2 * (a1 - a0)); /* e^x = 1 + x φ1 */
}

#endif /* RS_ETD_H */
