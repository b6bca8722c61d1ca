/*
 * rs_hmm_driver.c — the HMM's parallel section over a chain of bodies
 * (rs_hmm_driver.h): micro RK4 stages, the kernel averages over the
 * micro-interval, their lag correction and the macro step of each body
 * alone; or, resolved, plain RK4 steps at the micro step.
 */
#include "rs_hmm_driver.h"

#include <math.h>
#include <string.h>

#include "rs_alloc.h"
#include "rs_error.h"
#include "rs_status.h"

static const double rk_a[4] = {0.0, 0.5, 0.5, 1.0};

/* ------------------------------------------------------------- lifetime */

int rs_hmm_drv_alloc(rs_hmm_drv *d, const rs_hmm_body_model *b, int T, int averaged, int m, double delta, double eta)
{
    memset(d, 0, sizeof *d);
    d->b = *b;
    d->T = T;
    d->averaged = averaged;
    d->m = m;
    d->delta = delta;
    d->eta = eta;
    const size_t nq = (size_t)b->dq * (size_t)b->nb, nf = (size_t)b->df * (size_t)b->nj, mm = (size_t)m + 1;
    double **arr[] = {&d->w,    &d->wd,    &d->sq[0], &d->sq[1], &d->sv[0], &d->sv[1], &d->kq,
                      &d->kv,   &d->F,     &d->Facc,  &d->Fdacc, &d->Fbar,  &d->Fprev, &d->Fslope,
                      &d->qacc, &d->vacc,  &d->aacc,  &d->adacc, &d->aprev};
    const size_t len[] = {mm, mm, nq, nq, nq, nq, 4 * nq, 4 * nq, nf, nf, nf, nf, nf, nf, nq, nq, nq, nq, nq};
    int nomem = 0;
    for (size_t k = 0; k < sizeof arr / sizeof arr[0]; k++) {
        *arr[k] = rs_alloc(NULL, len[k] + 1, sizeof(double));   /* + 1: never a zero-size request */
        nomem |= !*arr[k];
    }
    d->bad = rs_alloc(NULL, (size_t)T, sizeof(int));
    nomem |= !d->bad;
    return nomem ? RS_E_NOMEM : RS_OK;
}

void rs_hmm_drv_free(rs_hmm_drv *d)
{
    double *arr[] = {d->w,    d->wd,   d->sq[0], d->sq[1], d->sv[0], d->sv[1], d->kq,
                     d->kv,   d->F,    d->Facc,  d->Fdacc, d->Fbar,  d->Fprev, d->Fslope,
                     d->qacc, d->vacc, d->aacc,  d->adacc, d->aprev};
    for (size_t k = 0; k < sizeof arr / sizeof arr[0]; k++)
        rs_free(NULL, arr[k]);
    rs_free(NULL, d->bad);
    memset(d, 0, sizeof *d);
}

void rs_hmm_drv_lend(rs_hmm_drv *d, double *q, double *v, const int *start, rs_barrier *bar, rs_pool *pool)
{
    d->q = q;
    d->v = v;
    d->start = start;
    d->bar = bar;
    d->pool = pool;
}

void rs_hmm_drv_restart(rs_hmm_drv *d) { d->hist = 0; }

/* ------------------------------------------------------------- the section */

/* RK4 stage k of a step dt from time t0 for bodies b0..b1−1: the stage
 * state into the buffer of the stage's parity, the barrier, then the
 * chain's forces and rates.  *stage_no counts stages for the parity. */
static void stage(rs_hmm_drv *d, int t, int b0, int b1, int k, double t0, double dt, long *stage_no)
{
    const int par = (int)(*stage_no & 1), dq = d->b.dq;
    const size_t nq = (size_t)dq * (size_t)d->b.nb, q0 = (size_t)dq * (size_t)b0, q1 = (size_t)dq * (size_t)b1;
    double *sq = d->sq[par], *sv = d->sv[par];
    const double *q = d->q, *v = d->v;
    if (k == 0) {
        memcpy(sq + q0, q + q0, (q1 - q0) * sizeof *sq);
        memcpy(sv + q0, v + q0, (q1 - q0) * sizeof *sv);
    } else {
        const double c = rk_a[k] * dt, *kq = d->kq + (size_t)(k - 1) * nq, *kv = d->kv + (size_t)(k - 1) * nq;
        for (size_t i = q0; i < q1; i++) {
            sq[i] = q[i] + c * kq[i];
            sv[i] = v[i] + c * kv[i];
        }
    }
    rs_barrier_wait(d->bar);
    (*stage_no)++;
    d->b.stage(d->b.ctx, t, b0, b1, sq, sv, t0 + rk_a[k] * dt, d->F, d->kq + (size_t)k * nq,
               d->kv + (size_t)k * nq);
}

/* The RK4 update of bodies b0..b1−1 over dt from the four stages' rates. */
static void rk4_update(rs_hmm_drv *d, int b0, int b1, double dt)
{
    const size_t nq = (size_t)d->b.dq * (size_t)d->b.nb;
    const double *k1 = d->kq, *k2 = k1 + nq, *k3 = k2 + nq, *k4 = k3 + nq;
    const double *l1 = d->kv, *l2 = l1 + nq, *l3 = l2 + nq, *l4 = l3 + nq;
    double *q = d->q, *v = d->v;
    const double h6 = dt / 6.0;
    for (size_t i = (size_t)d->b.dq * (size_t)b0; i < (size_t)d->b.dq * (size_t)b1; i++) {
        q[i] += h6 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
        v[i] += h6 * (l1[i] + 2.0 * l2[i] + 2.0 * l3[i] + l4[i]);
    }
}

/* Own joints' entries: df j0 .. df j1 for bodies b0..b1−1. */
static size_t joints_from(const rs_hmm_drv *d, int b0) { return (size_t)d->b.df * (size_t)b0; }
static size_t joints_to(const rs_hmm_drv *d, int b1)
{
    return (size_t)d->b.df * (size_t)(b1 < d->b.nj ? b1 : d->b.nj);
}

/* Adds w × (the forces of own joints, the state and the accelerations of
 * own bodies) at the grid point stage 0 just evaluated (first: sets). */
static void accumulate(rs_hmm_drv *d, int b0, int b1, double w, double wd, int first)
{
    for (size_t q = joints_from(d, b0); q < joints_to(d, b1); q++) {
        d->Facc[q] = (first ? 0.0 : d->Facc[q]) + w * d->F[q];
        d->Fdacc[q] = (first ? 0.0 : d->Fdacc[q]) + wd * d->F[q];
    }
    for (size_t q = (size_t)d->b.dq * (size_t)b0; q < (size_t)d->b.dq * (size_t)b1; q++) {
        d->qacc[q] = (first ? 0.0 : d->qacc[q]) + w * d->q[q];
        d->vacc[q] = (first ? 0.0 : d->vacc[q]) + w * d->v[q];
        d->aacc[q] = (first ? 0.0 : d->aacc[q]) + w * d->kv[q];   /* stage 0's rates */
        d->adacc[q] = (first ? 0.0 : d->adacc[q]) + wd * d->kv[q];
    }
}

/* Body i alone by RK4 over dt from the kernel centre tc (tau = 0), under
 * its joints' forces extrapolated along their slopes. */
static void macro_body(rs_hmm_drv *d, int i, double tc, double dt)
{
    enum { M = RS_HMM_DRV_DQ_MAX };
    const int dq = d->b.dq;
    double q0[M], v0[M], q[M], v[M], kq[4][M], kv[4][M];
    memcpy(q0, d->qacc + (size_t)dq * (size_t)i, (size_t)dq * sizeof q0[0]);
    memcpy(v0, d->vacc + (size_t)dq * (size_t)i, (size_t)dq * sizeof v0[0]);
    for (int k = 0; k < 4; k++) {
        const double tau = rk_a[k] * dt;
        for (int c = 0; c < dq; c++) {
            q[c] = k ? q0[c] + tau * kq[k - 1][c] : q0[c];
            v[c] = k ? v0[c] + tau * kv[k - 1][c] : v0[c];
        }
        d->b.macro(d->b.ctx, i, tc, tau, q, v, kq[k], kv[k]);
    }
    for (int c = 0; c < dq; c++) {
        d->q[(size_t)dq * (size_t)i + c] = q0[c] + dt / 6.0 * (kq[0][c] + 2.0 * kq[1][c] + 2.0 * kq[2][c] + kq[3][c]);
        d->v[(size_t)dq * (size_t)i + c] = v0[c] + dt / 6.0 * (kv[0][c] + 2.0 * kv[1][c] + 2.0 * kv[2][c] + kv[3][c]);
    }
}

/* One macro step: micro-interval, averages, macro step of each own body. */
static void hmm_step(rs_hmm_drv *d, int t, int b0, int b1, long *stage_no)
{
    const double t0 = d->job_t0, delta = d->delta;
    for (int j = 0; j <= d->m; j++) {
        stage(d, t, b0, b1, 0, t0 + j * delta, delta, stage_no);   /* forces and rates at grid point j */
        accumulate(d, b0, b1, d->w[j], d->wd[j], j == 0);
        if (j == d->m)
            break;
        /* stage 0 is done: the step reuses its rates */
        for (int k = 1; k < 4; k++)
            stage(d, t, b0, b1, k, t0 + j * delta, delta, stage_no);
        rk4_update(d, b0, b1, delta);
    }
    /* The averages belong to the kernel's centre tc = t + tbar.  A kernel
     * of variance σ² over a curving path lags by ½ σ² times the second
     * derivative: q̄ by ½ σ² ā, v̄ by ½ σ² ȧ, F̄ by ½ σ² F̈.  Those are taken
     * off, the derivatives from the last two or three centres.  Without
     * that history (the first step), the slopes Ḟ and ȧ come from this
     * interval alone, by the derivative weights, and F̈ is left out (its
     * term is O(η²) and lasts two steps). */
    const double tc = t0 + d->tbar, dtc = tc - d->tc_prev, half_var = 0.5 * d->var;
    for (size_t q = joints_from(d, b0); q < joints_to(d, b1); q++) {
        const double slope = d->hist ? (d->Facc[q] - d->Fprev[q]) / dtc : d->Fdacc[q];
        const double curv = d->hist > 1 ? (slope - d->Fslope[q]) / dtc : 0.0;
        d->Fprev[q] = d->Facc[q];
        d->Fslope[q] = slope;
        d->Fbar[q] = d->Facc[q] - half_var * curv;
    }
    for (size_t q = (size_t)d->b.dq * (size_t)b0; q < (size_t)d->b.dq * (size_t)b1; q++) {
        const double jerk = d->hist ? (d->aacc[q] - d->aprev[q]) / dtc : d->adacc[q];
        d->aprev[q] = d->aacc[q];
        d->qacc[q] -= half_var * d->aacc[q];
        d->vacc[q] -= half_var * jerk;
    }
    rs_barrier_wait(d->bar);   /* the neighbours' F̄ of the joints at the range's ends are ready */
    for (int i = b0; i < b1; i++)
        macro_body(d, i, tc, d->job_H - d->tbar);
}

static void section(void *ctx, int task, int t)
{
    (void)task;
    rs_hmm_drv *d = ctx;
    const int b0 = d->start[t], b1 = d->start[t + 1];
    long stage_no = d->stage;
    if (d->averaged) {
        hmm_step(d, t, b0, b1, &stage_no);
    } else {
        for (int s = 0; s < d->job_steps; s++) {
            for (int k = 0; k < 4; k++)
                stage(d, t, b0, b1, k, d->job_t0 + s * d->job_h, d->job_h, &stage_no);
            rk4_update(d, b0, b1, d->job_h);
        }
    }
    int bad = 0;
    for (size_t q = (size_t)d->b.dq * (size_t)b0; q < (size_t)d->b.dq * (size_t)b1; q++)
        bad |= !isfinite(d->q[q]) || !isfinite(d->v[q]);
    d->bad[t] = bad;
    if (t == 0)
        d->stage = stage_no;   /* every thread ran the same stages */
}

int rs_hmm_drv_step(rs_hmm_drv *d, double *t, double H, char *err, size_t errlen)
{
    const char *who = d->b.who;
    if (d->averaged && H < d->eta)
        return rs_fail(err, errlen, RS_E_ARG,
                       "%s: the macro step %g s is shorter than the micro-interval %g s; take a macro step of at "
                       "least the micro-interval, or %s",
                       who, H, d->eta, d->b.resolved);
    if (!d->averaged) {
        const double steps = ceil(H / d->delta - 1e-9);
        if (steps > 1e9)
            return rs_fail(err, errlen, RS_E_ARG, "%s: %g s is %.3g micro steps of %g s; advance in shorter pieces",
                           who, H, steps, d->delta);
        d->job_steps = (int)steps;
        d->job_h = H / d->job_steps;
    }
    d->job_H = H;
    d->job_t0 = *t;
    rs_pool_parallel(d->pool, section, d);
    if (d->averaged) {
        d->tc_prev = *t + d->tbar;
        d->hist = d->hist < 2 ? d->hist + 1 : 2;
        d->macro_steps++;
        d->micro_steps += d->m;
    } else {
        d->micro_steps += d->job_steps;
    }
    *t += H;
    for (int k = 0; k < d->T; k++)
        if (d->bad[k])
            return rs_fail(err, errlen, RS_E_NONFINITE,
                           "%s: the state became non-finite near t = %g s; shorten micro_step (now %g s) or the "
                           "macro step (%g s), or lengthen micro_interval (now %g s; <= 0 for the automatic rule)",
                           who, *t, d->delta, H, d->eta);
    return RS_OK;
}
