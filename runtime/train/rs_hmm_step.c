/*
 * rs_hmm_step.c — the parallel section of the compliant chain (rs_hmm.h):
 * micro RK4 stages, the kernel averages over the micro-interval and the
 * macro step of each body alone.
 *
 * Every thread runs the whole section on its own bodies and joints.  A
 * stage writes the stage state of its bodies into the buffer of the
 * stage's parity, passes the barrier, then reads its neighbours' boundary
 * bodies from it: a buffer is written again two stages later, after the
 * next barrier, so by then every reader is done with it.
 */
#include <math.h>
#include <string.h>

#include "rs_hmm_impl.h"
#include "rs_error.h"
#include "rs_status.h"

static const double rk_a[4] = {0.0, 0.5, 0.5, 1.0};

/* RK4 stage k of a step dt: the stage state of bodies b0..b1−1, the
 * barrier, then the forces of joints b0..b1 (b1 only if it exists: the
 * joint beyond the range, computed again here rather than exchanged) and
 * the bodies' rates.  *stage counts stages for the buffers' parity. */
static void stage(rs_hmm *h, int t, int b0, int b1, int k, double dt, long *stage_no)
{
    const int par = (int)(*stage_no & 1);
    const size_t n3 = 3 * (size_t)h->n;
    double *sq = h->sq[par], *sv = h->sv[par];
    for (size_t q = 3 * (size_t)b0; q < 3 * (size_t)b1; q++) {
        if (k == 0) {
            sq[q] = h->q[q];
            sv[q] = h->v[q];
        } else {
            sq[q] = h->q[q] + rk_a[k] * dt * h->kq[(size_t)(k - 1) * n3 + q];
            sv[q] = h->v[q] + rk_a[k] * dt * h->kv[(size_t)(k - 1) * n3 + q];
        }
    }
    rs_barrier_wait(h->bar);
    (*stage_no)++;
    /* sin and cos once per body, the neighbours' boundary bodies included
     * (the same bits as theirs); sc[2 (i − b0 + 1)] belongs to body i */
    double *sc = h->sc + 2 * ((size_t)b0 + 2 * (size_t)t);
    const int i0 = b0 > 0 ? b0 - 1 : b0, i1 = b1 < h->n ? b1 : h->n - 1;
    for (int i = i0; i <= i1; i++) {
        sc[2 * (i - b0 + 1)] = sin(sq[3 * i + 2]);
        sc[2 * (i - b0 + 1) + 1] = cos(sq[3 * i + 2]);
    }
    for (int j = b0; j < b1; j++)
        rs_hmm_joint_force(h, sq, sv, j, sc + 2 * (j - b0 + 1), sc + 2 * (j - b0), h->F + 2 * j);
    double *fb = h->Fb + 2 * t;
    if (b1 < h->n)
        rs_hmm_joint_force(h, sq, sv, b1, sc + 2 * (b1 - b0 + 1), sc + 2 * (b1 - b0), fb);
    else
        fb[0] = fb[1] = 0.0;   /* the free end */
    for (int i = b0; i < b1; i++) {
        const double *Fn = i + 1 < b1 ? h->F + 2 * (i + 1) : fb;
        rs_hmm_body_rates(h, sv, i, sc + 2 * (i - b0 + 1), h->F + 2 * i, Fn,
                          h->kq + (size_t)k * n3 + 3 * (size_t)i, h->kv + (size_t)k * n3 + 3 * (size_t)i);
    }
}

/* One RK4 step of dt for bodies b0..b1−1. */
static void rk4_step(rs_hmm *h, int t, int b0, int b1, double dt, long *stage_no)
{
    const size_t n3 = 3 * (size_t)h->n;
    for (int k = 0; k < 4; k++)
        stage(h, t, b0, b1, k, dt, stage_no);
    const double *k1 = h->kq, *k2 = k1 + n3, *k3 = k2 + n3, *k4 = k3 + n3;
    const double *l1 = h->kv, *l2 = l1 + n3, *l3 = l2 + n3, *l4 = l3 + n3;
    for (size_t q = 3 * (size_t)b0; q < 3 * (size_t)b1; q++) {
        h->q[q] += dt / 6.0 * (k1[q] + 2.0 * k2[q] + 2.0 * k3[q] + k4[q]);
        h->v[q] += dt / 6.0 * (l1[q] + 2.0 * l2[q] + 2.0 * l3[q] + l4[q]);
    }
}

/* Adds w × (the forces of own joints, the state and the accelerations of
 * own bodies) at the grid point just evaluated by stage 0 (first: sets). */
static void accumulate(rs_hmm *h, int b0, int b1, double w, double wd, int first)
{
    for (size_t q = 2 * (size_t)b0; q < 2 * (size_t)b1; q++) {
        h->Facc[q] = (first ? 0.0 : h->Facc[q]) + w * h->F[q];
        h->Fdacc[q] = (first ? 0.0 : h->Fdacc[q]) + wd * h->F[q];
    }
    for (size_t q = 3 * (size_t)b0; q < 3 * (size_t)b1; q++) {
        h->qacc[q] = (first ? 0.0 : h->qacc[q]) + w * h->q[q];
        h->vacc[q] = (first ? 0.0 : h->vacc[q]) + w * h->v[q];
        h->aacc[q] = (first ? 0.0 : h->aacc[q]) + w * h->kv[q];   /* stage 0's rates */
        h->adacc[q] = (first ? 0.0 : h->adacc[q]) + wd * h->kv[q];
    }
}

/* Joint j's force at time tau of the macro step (0 beyond the free end). */
static void macro_force(const rs_hmm *h, int j, double tau, double F[2])
{
    if (j >= h->n) {
        F[0] = F[1] = 0.0;
        return;
    }
    F[0] = h->Fbar[2 * j] + tau * h->Fslope[2 * j];
    F[1] = h->Fbar[2 * j + 1] + tau * h->Fslope[2 * j + 1];
}

/* Body i alone by RK4 over dt from the kernel centre (tau = 0), under its
 * two joints' forces extrapolated along their slopes. */
static void macro_body(rs_hmm *h, int i, double dt)
{
    double q0[3], v0[3], q[3], v[3], kq[4][3], kv[4][3];
    memcpy(q0, h->qacc + 3 * i, sizeof q0);
    memcpy(v0, h->vacc + 3 * i, sizeof v0);
    for (int k = 0; k < 4; k++) {
        for (int c = 0; c < 3; c++) {
            q[c] = k ? q0[c] + rk_a[k] * dt * kq[k - 1][c] : q0[c];
            v[c] = k ? v0[c] + rk_a[k] * dt * kv[k - 1][c] : v0[c];
        }
        double Fi[2], Fn[2];
        macro_force(h, i, rk_a[k] * dt, Fi);
        macro_force(h, i + 1, rk_a[k] * dt, Fn);
        /* body_rates indexes q, v by body: pass this body as body 0 */
        const double sc[2] = {sin(q[2]), cos(q[2])};
        rs_hmm_body_rates(h, v, 0, sc, Fi, Fn, kq[k], kv[k]);
    }
    for (int c = 0; c < 3; c++) {
        h->q[3 * i + c] = q0[c] + dt / 6.0 * (kq[0][c] + 2.0 * kq[1][c] + 2.0 * kq[2][c] + kq[3][c]);
        h->v[3 * i + c] = v0[c] + dt / 6.0 * (kv[0][c] + 2.0 * kv[1][c] + 2.0 * kv[2][c] + kv[3][c]);
    }
}

/* One macro step: micro-interval, averages, macro step of each own body. */
static void hmm_step(rs_hmm *h, int t, int b0, int b1, long *stage_no)
{
    for (int j = 0; j <= h->m; j++) {
        stage(h, t, b0, b1, 0, h->delta, stage_no);   /* forces and rates at grid point j */
        accumulate(h, b0, b1, h->w[j], h->wd[j], j == 0);
        if (j == h->m)
            break;
        /* stage 0 is done: the step reuses its rates */
        const size_t n3 = 3 * (size_t)h->n;
        for (int k = 1; k < 4; k++)
            stage(h, t, b0, b1, k, h->delta, stage_no);
        const double *k1 = h->kq, *k2 = k1 + n3, *k3 = k2 + n3, *k4 = k3 + n3;
        const double *l1 = h->kv, *l2 = l1 + n3, *l3 = l2 + n3, *l4 = l3 + n3;
        for (size_t q = 3 * (size_t)b0; q < 3 * (size_t)b1; q++) {
            h->q[q] += h->delta / 6.0 * (k1[q] + 2.0 * k2[q] + 2.0 * k3[q] + k4[q]);
            h->v[q] += h->delta / 6.0 * (l1[q] + 2.0 * l2[q] + 2.0 * l3[q] + l4[q]);
        }
    }
    /* The averages belong to the kernel's centre tc = t + tbar.  A kernel
     * of variance σ² over a curving path lags by ½ σ² times the second
     * derivative: q̄ by ½ σ² ā, v̄ by ½ σ² ȧ, F̄ by ½ σ² F̈.  Those are taken
     * off, the derivatives from the last two or three centres.  Without
     * that history (the first step), the slopes Ḟ and ȧ come from this
     * interval alone, by the derivative weights, and F̈ is left out (its
     * term is O(η²) and lasts two steps). */
    const double tc = h->t + h->tbar, dtc = tc - h->tc_prev, half_var = 0.5 * h->var;
    for (size_t q = 2 * (size_t)b0; q < 2 * (size_t)b1; q++) {
        const double slope = h->have_prev ? (h->Facc[q] - h->Fprev[q]) / dtc : h->Fdacc[q];
        const double curv = h->have_prev > 1 ? (slope - h->Fslope[q]) / dtc : 0.0;
        h->Fprev[q] = h->Facc[q];
        h->Fslope[q] = slope;
        h->Fbar[q] = h->Facc[q] - half_var * curv;
    }
    for (size_t q = 3 * (size_t)b0; q < 3 * (size_t)b1; q++) {
        const double jerk = h->have_prev ? (h->aacc[q] - h->aprev[q]) / dtc : h->adacc[q];
        h->aprev[q] = h->aacc[q];
        h->qacc[q] -= half_var * h->aacc[q];
        h->vacc[q] -= half_var * jerk;
    }
    rs_barrier_wait(h->bar);   /* the neighbour's F̄ of joint b1 is ready */
    const double dt = h->job_H - h->tbar;
    for (int i = b0; i < b1; i++)
        macro_body(h, i, dt);
}

static void section(void *ctx, int task, int t)
{
    (void)task;
    rs_hmm *h = ctx;
    const int b0 = h->start[t], b1 = h->start[t + 1];
    long stage_no = h->stage;
    if (h->cfg.mode == RS_HMM_AVERAGED)
        hmm_step(h, t, b0, b1, &stage_no);
    else
        for (int s = 0; s < h->job_steps; s++)
            rk4_step(h, t, b0, b1, h->job_h, &stage_no);
    int bad = 0;
    for (size_t q = 3 * (size_t)b0; q < 3 * (size_t)b1; q++)
        bad |= !isfinite(h->q[q]) || !isfinite(h->v[q]);
    h->bad[t] = bad;
    if (t == 0)
        h->stage = stage_no;   /* every thread ran the same stages */
}

int rs_hmm_step(rs_hmm *h, double H, char *err, size_t errlen)
{
    if (!(H > 0.0) || !isfinite(H))
        return rs_fail(err, errlen, RS_E_ARG, "rs_hmm_step: the step must be positive and finite (got %g)", H);
    if (h->cfg.mode == RS_HMM_AVERAGED && H < h->cfg.micro_interval)
        return rs_fail(err, errlen, RS_E_ARG,
                       "rs_hmm_step: the macro step %g s is shorter than the micro-interval %g s; take a macro "
                       "step of at least the micro-interval, or the resolved mode",
                       H, h->cfg.micro_interval);
    h->job_H = H;
    if (h->cfg.mode == RS_HMM_RESOLVED) {
        const double steps = ceil(H / h->delta - 1e-9);
        if (steps > 1e9)
            return rs_fail(err, errlen, RS_E_ARG,
                           "rs_hmm_step: %g s is %.3g micro steps of %g s; advance in shorter pieces", H, steps,
                           h->delta);
        h->job_steps = (int)steps;
        h->job_h = H / h->job_steps;
    }
    rs_pool_parallel(h->pool, section, h);
    if (h->cfg.mode == RS_HMM_AVERAGED) {
        h->tc_prev = h->t + h->tbar;
        h->have_prev = h->have_prev < 2 ? h->have_prev + 1 : 2;
        h->stats.macro_steps++;
        h->stats.micro_steps += h->m;
    } else {
        h->stats.micro_steps += h->job_steps;
    }
    h->t += H;
    for (int t = 0; t < h->T; t++)
        if (h->bad[t])
            return rs_fail(err, errlen, RS_E_NONFINITE,
                           "rs_hmm_step: the state became non-finite near t = %g s; shorten micro_step (now %g s) "
                           "or the macro step (%g s), or lengthen micro_interval (now %g s; <= 0 for the automatic "
                           "rule)",
                           h->t, h->delta, H, h->cfg.micro_interval);
    return RS_OK;
}
