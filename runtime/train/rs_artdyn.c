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

/* Σ_d A(row, row+d) x[row+d] over the band inside the matrix. */
static double row_times(const rs_artdyn *s, int row, const double *x)
{
    const int kd = s->kd, nc = s->nc;
    const double *a = s->A + (size_t)row * (size_t)(2 * kd + 1);
    const int d0 = row - kd < 0 ? kd - row : 0;
    const int d1 = row + kd >= nc ? kd + nc - 1 - row : 2 * kd;
    double sum = 0.0;
    for (int d = d0; d <= d1; d++)
        sum += a[d] * x[row - kd + d];
    return sum;
}

/* Sum of one value per thread in the order 0..T−1: the same bits on every
 * thread (and for every run with this T). */
static double sum_slots(const double *v, int T)
{
    double sum = 0.0;
    for (int t = 0; t < T; t++)
        sum += v[t];
    return sum;
}

/* r = b − A μ, z = r / diag(A) on rows r0..r1−1 (μ's neighbour rows
 * published by the caller's last barrier); this thread's Σ r z into
 * rz_slot[t] and max |r| into r_slot[t]. */
static void cg_residual(const rs_artdyn *s, int t, int r0, int r1, const double *mu, double *rz_slot, double *r_slot)
{
    const int nc = s->nc, row_len = 2 * s->kd + 1;
    double *r = s->cg, *z = s->cg + nc;
    double rz = 0.0, rmax = 0.0;
    for (int row = r0; row < r1; row++) {
        r[row] = s->b[row] - row_times(s, row, mu);
        z[row] = r[row] / s->A[(size_t)row * (size_t)row_len + (size_t)s->kd];
        rz += r[row] * z[row];
        rmax = fabs(r[row]) > rmax || r[row] != r[row] ? fabs(r[row]) : rmax;
    }
    rz_slot[t] = rz;
    r_slot[t] = rmax;
}

int rs_artdyn_cg(const rs_artdyn *s, int t, int r0, int r1, int max_iter, int *cur)
{
    const int T = s->T, nc = s->nc, kd = s->kd, row_len = 2 * kd + 1;
    /* Each slot is written between two barriers and read after the second,
     * and written again only after a third: no parity is needed. */
    double *b_slot = s->slot, *pap_slot = s->slot + T, *rz_slot = s->slot + 2 * T, *r_slot = s->slot + 3 * T;
    double *crz_slot = s->cg + 4 * (size_t)nc, *cr_slot = crz_slot + T;   /* the true residual's check */
    double *r = s->cg, *z = r + nc, *p = z + nc, *ap = p + nc;
    double *mu = s->mu[*cur];
    double bmax = 0.0;
    for (int row = r0; row < r1; row++) {
        const double dg = s->A[(size_t)row * (size_t)row_len + (size_t)kd];
        /* a non-positive diagonal cannot precondition: reported as non-finite */
        bmax = !(dg > 0.0) ? NAN : fabs(s->b[row]) > bmax || s->b[row] != s->b[row] ? fabs(s->b[row]) : bmax;
    }
    b_slot[t] = bmax;
    cg_residual(s, t, r0, r1, mu, rz_slot, r_slot);
    for (int row = r0; row < r1; row++)
        p[row] = z[row];
    rs_barrier_wait(s->bar);   /* p, b's maxima and the first residual published */
    bmax = max_slots(b_slot, T);
    if (!isfinite(bmax)) {
        if (t == 0)
            rs_fail(s->msg, s->msglen, RS_E_NONFINITE,
                    "conjugate gradients: b is not finite or A's diagonal is not positive (max|b| %g)", bmax);
        return RS_E_NONFINITE;
    }
    if (bmax == 0.0) {   /* A is SPD: μ = 0 exactly, no iteration */
        memset(mu + r0, 0, (size_t)(r1 - r0) * sizeof(double));
        if (t == 0)
            *s->iters = 0;
        rs_barrier_wait(s->bar);   /* before neighbours read these rows */
        return RS_OK;
    }
    const double thresh = s->tol * bmax;
    double rz = sum_slots(rz_slot, T), R = max_slots(r_slot, T);
    if (R <= thresh) {   /* the warm start already solves it */
        if (t == 0)
            *s->iters = 0;
        return RS_OK;
    }
    for (int k = 0; k < max_iter; k++) {
        if (!isfinite(R) || !isfinite(rz)) {
            if (t == 0)
                rs_fail(s->msg, s->msglen, RS_E_NONFINITE,
                        "conjugate gradients: the residual became %g after %d iterations", R, k);
            return RS_E_NONFINITE;
        }
        double pap = 0.0;
        for (int row = r0; row < r1; row++) {
            ap[row] = row_times(s, row, p);
            pap += p[row] * ap[row];
        }
        pap_slot[t] = pap;
        rs_barrier_wait(s->bar);
        pap = sum_slots(pap_slot, T);
        if (!(pap > 0.0)) {
            if (t == 0)
                rs_fail(s->msg, s->msglen, pap == pap ? RS_E_SINGULAR : RS_E_NONFINITE,
                        "conjugate gradients: p^T A p = %g after %d iterations: A is not positive definite "
                        "(or not finite); use the direct solver to locate the row",
                        pap, k);
            return pap == pap ? RS_E_SINGULAR : RS_E_NONFINITE;
        }
        const double alpha = rz / pap;
        double rz_new = 0.0, rmax = 0.0;
        for (int row = r0; row < r1; row++) {
            mu[row] += alpha * p[row];
            r[row] -= alpha * ap[row];
            z[row] = r[row] / s->A[(size_t)row * (size_t)row_len + (size_t)kd];
            rz_new += r[row] * z[row];
            rmax = fabs(r[row]) > rmax || r[row] != r[row] ? fabs(r[row]) : rmax;
        }
        rz_slot[t] = rz_new;
        r_slot[t] = rmax;
        rs_barrier_wait(s->bar);   /* μ, the sums published; p no longer read */
        rz_new = sum_slots(rz_slot, T);
        R = max_slots(r_slot, T);
        double beta = rz_new / rz;
        if (R <= thresh) {
            /* The recurrence drifts from b − A μ in rounding: the stop
             * is decided on the true residual, and CG restarts from it
             * (β = 0) when that one is still too large. */
            cg_residual(s, t, r0, r1, mu, crz_slot, cr_slot);
            rs_barrier_wait(s->bar);
            R = max_slots(cr_slot, T);
            if (R <= thresh) {
                if (t == 0)
                    *s->iters = k + 1;
                return RS_OK;
            }
            rz_new = sum_slots(crz_slot, T);
            beta = 0.0;
        }
        rz = rz_new;
        for (int row = r0; row < r1; row++)
            p[row] = z[row] + beta * p[row];
        rs_barrier_wait(s->bar);   /* the new p published before A p */
    }
    if (t == 0) {
        *s->iters = max_iter;
        rs_fail(s->msg, s->msglen, RS_E_NOCONV,
                "conjugate gradients: max|b - A mu| = %.3g > tol %.3g x max|b| %.3g after %d iterations; raise "
                "max_iter, loosen tol, or use the direct solver",
                R, s->tol, bmax, max_iter);
    }
    return RS_E_NOCONV;
}
