/*
 * rs_test_decay.h — the damped frequency and damping ratio of a free decay,
 * measured from a recorded signal as one would from a test: zero crossings
 * (linear interpolation) for the frequency, the logarithmic decrement over
 * whole periods (peaks of one sign, each the vertex of the parabola through
 * three samples) for the damping.  For the checks of eigenvalues against
 * runs (test_linear, test_linear_constraint, test_linear_elastic), and the
 * run that records it.
 */
#ifndef RS_TEST_DECAY_H
#define RS_TEST_DECAY_H

#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "rs_runtime.h"

typedef struct {
    double freq;  /* damped frequency [Hz] */
    double zeta;  /* damping ratio: δ / √(4π² + δ²) */
    double peak0; /* the first peak measured (|y|) */
} rs_test_decay;

/* y[0..n] sampled every dt; measured from t_skip on (after the fast modes
 * died out).  At least 6 crossings and 6 peaks, else the check fails. */
static inline rs_test_decay rs_test_decay_measure(const double *y, int n, double dt, double t_skip)
{
    double cross[64], peak[64];
    int nc = 0, np = 0;
    const int k0 = (int)(t_skip / dt) > 1 ? (int)(t_skip / dt) : 1;
    for (int k = k0; k < n; k++) {
        if ((y[k] == 0 || (y[k] > 0) != (y[k + 1] > 0)) && nc < 64)
            cross[nc++] = (k + y[k] / (y[k] - y[k + 1])) * dt;
        if (fabs(y[k]) >= fabs(y[k - 1]) && fabs(y[k]) > fabs(y[k + 1]) && np < 64) {
            const double a = fabs(y[k - 1]), b = fabs(y[k]), c = fabs(y[k + 1]);
            const double den = a - 2 * b + c;
            peak[np++] = den != 0 ? b - 0.125 * (a - c) * (a - c) / den : b;
        }
    }
    ck_assert_int_ge(nc, 6);
    ck_assert_int_ge(np, 6);
    rs_test_decay d;
    d.freq = (nc - 1) / (2 * (cross[nc - 1] - cross[0])); /* half periods between first and last crossing */
    const int last = np - 1 - ((np - 1) % 2);
    const double delta = log(peak[0] / peak[last]) / (last / 2);
    const double pi = 3.14159265358979323846;
    d.zeta = delta / sqrt(4 * pi * pi + delta * delta);
    d.peak0 = peak[0];
    return d;
}

/* Steps ws for T s (its step dt), recording coordinate iq less q_ref, and
 * measures the decay from t_skip on; each step must succeed. */
static inline rs_test_decay rs_test_decay_run(rs_ws *ws, int iq, double q_ref, double T, double dt, double t_skip)
{
    const int n = (int)lround(T / dt);
    double *y = malloc((size_t)(n + 1) * sizeof *y);
    ck_assert_ptr_nonnull(y);
    y[0] = rs_ws_q(ws)[iq] - q_ref;
    for (int k = 1; k <= n; k++) {
        ck_assert_msg(rs_step(ws) == 0, "step %d: %s", k, rs_ws_error(ws));
        y[k] = rs_ws_q(ws)[iq] - q_ref;
    }
    const rs_test_decay d = rs_test_decay_measure(y, n, dt, t_skip);
    free(y);
    return d;
}

#endif /* RS_TEST_DECAY_H */
