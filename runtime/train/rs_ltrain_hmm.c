/*
 * rs_ltrain_hmm.c — the parallel section of the stiff-coupler train
 * (rs_ltrain.h): micro RK4 stages, the kernel averages over the
 * micro-interval and the macro step of each vehicle alone; the scheme of
 * the compliant pendulum chain (rs_hmm_step.c, docs/massive.md) on one
 * coordinate per body.
 *
 * Thread t owns vehicles b0..b1−1 and couplers b0..min(b1, n−1)−1.  A
 * stage writes its vehicles' stage state into the buffer of the stage's
 * parity, passes the barrier, then reads the next thread's first vehicle
 * and computes again the tension of the coupler ahead of its range (the
 * previous thread's last) rather than exchanging it: that buffer is
 * written again two stages later, after the next barrier.
 */
#include <math.h>
#include <string.h>

#include "rs_error.h"
#include "rs_ltrain_impl.h"
#include "rs_status.h"

static const double rk_a[4] = {0.0, 0.5, 0.5, 1.0};

static double tension(const rs_ltrain *lt, const double *q, const double *v, int c)
{
    return lt->cpl[c].k * (q[c] - q[c + 1] - lt->d[c]) + lt->cpl[c].c * (v[c] - v[c + 1]);
}

/* RK4 stage k of a step dt from time t0 for vehicles b0..b1−1. */
static void stage(rs_ltrain *lt, int t, int b0, int b1, int k, double t0, double dt, long *stage_no)
{
    const int par = (int)(*stage_no & 1), n = lt->n, nc = lt->nc;
    double *sq = lt->sq[par], *sv = lt->sv[par];
    for (int i = b0; i < b1; i++) {
        if (k == 0) {
            sq[i] = lt->s[i];
            sv[i] = lt->v[i];
        } else {
            sq[i] = lt->s[i] + rk_a[k] * dt * lt->ks[(size_t)(k - 1) * (size_t)n + i];
            sv[i] = lt->v[i] + rk_a[k] * dt * lt->kp[(size_t)(k - 1) * (size_t)n + i];
        }
    }
    rs_barrier_wait(lt->bar);
    (*stage_no)++;
    const int c1 = b1 < nc ? b1 : nc;
    for (int c = b0; c < c1; c++)
        lt->F[c] = tension(lt, sq, sv, c);
    lt->Fb[t] = b0 > 0 && b0 < b1 ? tension(lt, sq, sv, b0 - 1) : 0.0;
    const double ts = t0 + rk_a[k] * dt;
    for (int i = b0; i < b1; i++) {
        const double ahead = i == 0 ? 0.0 : i == b0 ? lt->Fb[t] : lt->F[i - 1];
        const double behind = i < nc ? lt->F[i] : 0.0;
        lt->ks[(size_t)k * (size_t)n + i] = sv[i];
        lt->kp[(size_t)k * (size_t)n + i] = lt->minv[i] * (rs_ltrain_force(lt, i, ts, sv[i]) - behind + ahead);
    }
}

static void rk4_update(rs_ltrain *lt, int b0, int b1, double dt)
{
    const int n = lt->n;
    const double *k1 = lt->ks, *k2 = k1 + n, *k3 = k2 + n, *k4 = k3 + n;
    const double *l1 = lt->kp, *l2 = l1 + n, *l3 = l2 + n, *l4 = l3 + n;
    for (int i = b0; i < b1; i++) {
        lt->s[i] += dt / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
        lt->v[i] += dt / 6.0 * (l1[i] + 2.0 * l2[i] + 2.0 * l3[i] + l4[i]);
    }
}

/* Adds the weights times the own couplers' tensions and the own vehicles'
 * states and accelerations at the grid point stage 0 just evaluated. */
static void accumulate(rs_ltrain *lt, int b0, int b1, double w, double wd, int first)
{
    const int c1 = b1 < lt->nc ? b1 : lt->nc;
    for (int c = b0; c < c1; c++) {
        lt->Facc[c] = (first ? 0.0 : lt->Facc[c]) + w * lt->F[c];
        lt->Fdacc[c] = (first ? 0.0 : lt->Fdacc[c]) + wd * lt->F[c];
    }
    for (int i = b0; i < b1; i++) {
        lt->qacc[i] = (first ? 0.0 : lt->qacc[i]) + w * lt->s[i];
        lt->vacc[i] = (first ? 0.0 : lt->vacc[i]) + w * lt->v[i];
        lt->aacc[i] = (first ? 0.0 : lt->aacc[i]) + w * lt->kp[i];   /* stage 0's rates */
        lt->adacc[i] = (first ? 0.0 : lt->adacc[i]) + wd * lt->kp[i];
    }
}

/* Coupler c's tension at tau into the macro step (0 beyond the ends). */
static double macro_tension(const rs_ltrain *lt, int c, double tau)
{
    return c < 0 || c >= lt->nc ? 0.0 : lt->Fbar[c] + tau * lt->Fslope[c];
}

/* Vehicle i alone by RK4 over dt from the kernel centre tc. */
static void macro_vehicle(rs_ltrain *lt, int i, double tc, double dt)
{
    const double q0 = lt->qacc[i], v0 = lt->vacc[i];
    double kq[4], kv[4];
    for (int k = 0; k < 4; k++) {
        const double tau = rk_a[k] * dt;
        const double q = k ? q0 + tau * kq[k - 1] : q0, v = k ? v0 + tau * kv[k - 1] : v0;
        (void)q;   /* the forces do not depend on the position */
        kq[k] = v;
        kv[k] = lt->minv[i] *
                (rs_ltrain_force(lt, i, tc + tau, v) - macro_tension(lt, i, tau) + macro_tension(lt, i - 1, tau));
    }
    lt->s[i] = q0 + dt / 6.0 * (kq[0] + 2.0 * kq[1] + 2.0 * kq[2] + kq[3]);
    lt->v[i] = v0 + dt / 6.0 * (kv[0] + 2.0 * kv[1] + 2.0 * kv[2] + kv[3]);
}

static void hmm_step(rs_ltrain *lt, int t, int b0, int b1, long *stage_no)
{
    const double t0 = lt->t, delta = lt->delta;
    for (int j = 0; j <= lt->nmicro; j++) {
        stage(lt, t, b0, b1, 0, t0 + j * delta, delta, stage_no);   /* grid point j */
        accumulate(lt, b0, b1, lt->w[j], lt->wd[j], j == 0);
        if (j == lt->nmicro)
            break;
        for (int k = 1; k < 4; k++)
            stage(lt, t, b0, b1, k, t0 + j * delta, delta, stage_no);
        rk4_update(lt, b0, b1, delta);
    }
    /* The averages belong to the kernel's centre and lag by ½ σ² times the
     * second derivative, taken off as in rs_hmm_step.c (slopes from this
     * interval's derivative weights at the first step, then from the
     * centres of the last steps). */
    const double tc = t0 + lt->tbar, dtc = tc - lt->tc_prev, half_var = 0.5 * lt->var;
    const int c1 = b1 < lt->nc ? b1 : lt->nc;
    for (int c = b0; c < c1; c++) {
        const double slope = lt->hist ? (lt->Facc[c] - lt->Fprev[c]) / dtc : lt->Fdacc[c];
        const double curv = lt->hist > 1 ? (slope - lt->Fslope[c]) / dtc : 0.0;
        lt->Fprev[c] = lt->Facc[c];
        lt->Fslope[c] = slope;
        lt->Fbar[c] = lt->Facc[c] - half_var * curv;
    }
    for (int i = b0; i < b1; i++) {
        const double jerk = lt->hist ? (lt->aacc[i] - lt->aprev[i]) / dtc : lt->adacc[i];
        lt->aprev[i] = lt->aacc[i];
        lt->qacc[i] -= half_var * lt->aacc[i];
        lt->vacc[i] -= half_var * jerk;
    }
    rs_barrier_wait(lt->bar);   /* the previous thread's T̄ of coupler b0 − 1 is ready */
    for (int i = b0; i < b1; i++)
        macro_vehicle(lt, i, tc, lt->h - lt->tbar);
}

static void section(void *ctx, int task, int t)
{
    (void)task;
    rs_ltrain *lt = ctx;
    const int b0 = lt->start[t], b1 = lt->start[t + 1];
    long stage_no = lt->stage;
    if (lt->cfg.method == RS_LTRAIN_HMM) {
        hmm_step(lt, t, b0, b1, &stage_no);
    } else {
        const double dt = lt->h / lt->job_steps;
        for (int s = 0; s < lt->job_steps; s++) {
            for (int k = 0; k < 4; k++)
                stage(lt, t, b0, b1, k, lt->t + s * dt, dt, &stage_no);
            rk4_update(lt, b0, b1, dt);
        }
    }
    int bad = 0;
    for (int i = b0; i < b1; i++)
        bad |= !isfinite(lt->s[i]) || !isfinite(lt->v[i]);
    lt->bad[t] = bad;
    if (t == 0)
        lt->stage = stage_no;   /* every thread ran the same stages */
}

int rs_ltrain_stiff_run(rs_ltrain *lt, double H, char *err, size_t errlen)
{
    const int hmm = lt->cfg.method == RS_LTRAIN_HMM;
    if (hmm && H < lt->cfg.micro_interval)
        return rs_fail(err, errlen, RS_E_ARG,
                       "rs_ltrain_step: the macro step %g s is shorter than the micro-interval %g s; take a macro "
                       "step of at least the micro-interval, or the resolved method",
                       H, lt->cfg.micro_interval);
    if (!hmm) {
        const double steps = ceil(H / lt->delta - 1e-9);
        if (steps > 1e9)
            return rs_fail(err, errlen, RS_E_ARG,
                           "rs_ltrain_step: %g s is %.3g micro steps of %g s; advance in shorter pieces", H, steps,
                           lt->delta);
        lt->job_steps = (int)steps;
    }
    lt->h = H;
    rs_pool_parallel(lt->pool, section, lt);
    if (hmm) {
        lt->tc_prev = lt->t + lt->tbar;
        lt->hist = lt->hist < 2 ? lt->hist + 1 : 2;
        lt->stats.macro_steps++;
        lt->stats.micro_steps += lt->nmicro;
    } else {
        lt->stats.micro_steps += lt->job_steps;
    }
    lt->t += H;
    for (int t = 0; t < lt->T; t++)
        if (lt->bad[t])
            return rs_fail(err, errlen, RS_E_NONFINITE,
                           "rs_ltrain_step: the state became non-finite near t = %g s; shorten micro_step (now %g s) "
                           "or the macro step (%g s), or lengthen micro_interval (now %g s; <= 0 for the automatic "
                           "rule)",
                           lt->t, lt->delta, H, lt->cfg.micro_interval);
    return RS_OK;
}
