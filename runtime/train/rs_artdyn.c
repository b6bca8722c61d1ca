/*
 * rs_artdyn.c — the artificial-dynamics iteration and its direct reference
 * (see rs_artdyn.h), taken out of the pendulum chain so that the chain and
 * the longitudinal train run the same code.
 */
#include "rs_artdyn.h"

#include <math.h>
#include <string.h>

#include "rs_band.h"
#include "rs_error.h"
#include "rs_status.h"

/* Max of one value per thread: exact whatever the order. */
static double max_slots(const double *v, int T)
{
    double m = 0.0;
    for (int t = 0; t < T; t++)
        m = v[t] > m || v[t] != v[t] ? v[t] : m;   /* a NaN wins, so it is seen */
    return m;
}

int rs_artdyn_solve(const rs_artdyn *s, int t, int r0, int r1, int max_iter, int *cur)
{
    const int T = s->T, kd = s->kd, row_len = 2 * kd + 1, nc = s->nc;
    double *g_slot = s->slot, *b_slot = s->slot + T, *r_slot = s->slot + 2 * T;   /* r: 2 parities */
    double g = 0.0, bmax = 0.0;
    for (int row = r0; row < r1; row++) {
        const double *a = s->A + (size_t)row * (size_t)row_len;
        double sum = 0.0;
        for (int d = 0; d < row_len; d++)
            sum += fabs(a[d]);
        const double gr = sum / a[kd];
        g = gr > g || gr != gr ? gr : g;
        bmax = fabs(s->b[row]) > bmax ? fabs(s->b[row]) : bmax;
    }
    g_slot[t] = g;
    b_slot[t] = bmax;
    rs_barrier_wait(s->bar);
    g = max_slots(g_slot, T);
    bmax = max_slots(b_slot, T);
    if (!isfinite(g) || !isfinite(bmax) || !(g > 0.0)) {
        if (t == 0)
            rs_fail(s->msg, s->msglen, RS_E_NONFINITE,
                    "artificial dynamics: A or b is not finite (Gershgorin bound %g, max|b| %g)", g, bmax);
        return RS_E_NONFINITE;
    }
    const double tau = s->omega / g;
    if (t == 0)
        *s->tau = tau;
    if (bmax == 0.0) {   /* A is SPD: μ = 0 exactly, no iteration */
        memset(s->mu[*cur] + r0, 0, (size_t)(r1 - r0) * sizeof(double));
        if (t == 0)
            *s->iters = 0;
        rs_barrier_wait(s->bar);   /* before neighbours read these rows */
        return RS_OK;
    }
    const double thresh = s->tol * bmax;
    double R = 0.0;
    for (int k = 0; k < max_iter; k++) {
        const double *mo = s->mu[*cur];
        double *mn = s->mu[1 - *cur];
        double rmax = 0.0;
        for (int row = r0; row < r1; row++) {
            const double *a = s->A + (size_t)row * (size_t)row_len;
            const int d0 = row - kd < 0 ? kd - row : 0;
            const int d1 = row + kd >= nc ? kd + nc - 1 - row : 2 * kd;
            double r = s->b[row];
            for (int d = d0; d <= d1; d++)
                r -= a[d] * mo[row - kd + d];
            mn[row] = mo[row] + tau * r / a[kd];
            rmax = fabs(r) > rmax || r != r ? fabs(r) : rmax;
        }
        r_slot[(k & 1) * T + t] = rmax;
        rs_barrier_wait(s->bar);
        *cur = 1 - *cur;
        R = max_slots(r_slot + (k & 1) * T, T);
        if (R <= thresh) {
            if (t == 0)
                *s->iters = k + 1;
            return RS_OK;
        }
        if (!isfinite(R)) {
            if (t == 0)
                rs_fail(s->msg, s->msglen, RS_E_NONFINITE,
                        "artificial dynamics: the residual became %g after %d iterations", R, k + 1);
            return RS_E_NONFINITE;
        }
    }
    if (t == 0) {
        *s->iters = max_iter;
        rs_fail(s->msg, s->msglen, RS_E_NOCONV,
                "artificial dynamics: max|b - A mu| = %.3g > tol %.3g x max|b| %.3g after %d iterations; raise "
                "max_iter, loosen tol, or use the direct solver",
                R, s->tol, bmax, max_iter);
    }
    return RS_E_NOCONV;
}

int rs_artdyn_direct(const rs_artdyn *s, int t, int cur)
{
    rs_barrier_wait(s->bar);   /* every row assembled */
    if (t == 0) {
        const int nc = s->nc, kd = s->kd, row_len = 2 * kd + 1;
        double *mu = s->mu[cur];
        for (int row = 0; row < nc; row++) {
            for (int j = 0; j <= kd; j++)
                s->L[(size_t)row * (size_t)(kd + 1) + (size_t)j] = s->A[(size_t)row * (size_t)row_len + (size_t)(kd - j)];
            mu[row] = s->b[row];
        }
        int bad = -1;
        *s->direct_status = rs_band_chol(s->L, nc, kd, &bad);
        if (*s->direct_status == RS_OK)
            rs_band_chol_solve(s->L, nc, kd, mu);
        else
            rs_fail(s->msg, s->msglen, *s->direct_status, "direct solve: A is not positive definite at row %d", bad);
        *s->iters = 0;
    }
    rs_barrier_wait(s->bar);   /* μ and the status visible to all */
    return *s->direct_status;  /* rewritten only after the next solve's first barrier */
}
