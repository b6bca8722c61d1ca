/*
 * rs_ltrain_rigid.c — the parallel section of the rigid-coupler train
 * (rs_ltrain.h): RK4 stages, each assembling its rows of b (A is constant)
 * and solving A μ = b by artificial dynamics or directly (rs_artdyn.h),
 * as the pendulum chain's section does (rs_chain_solve.c).
 *
 * Thread t owns vehicles b0..b1−1 and couplers b0..min(b1, n−1)−1: coupler
 * i's row reads vehicle i + 1 (the next thread's first at the boundary),
 * vehicle i's rates read μ_{i−1} (the previous thread's last).
 */
#include <math.h>
#include <string.h>

#include "rs_artdyn.h"
#include "rs_error.h"
#include "rs_ltrain_impl.h"
#include "rs_status.h"

static rs_artdyn view(rs_ltrain *lt)
{
    rs_artdyn s = {.nc = lt->nc, .kd = RS_LTRAIN_KD, .T = lt->T, .A = lt->A, .b = lt->b,
                   .mu = {lt->mu[0], lt->mu[1]}, .slot = lt->slot, .L = lt->L, .cg = lt->cg, .bar = lt->bar,
                   .tol = lt->cfg.tol, .omega = lt->cfg.omega, .iters = &lt->iters, .tau = &lt->last_tau,
                   .direct_status = &lt->direct_status, .msg = lt->msg, .msglen = sizeof lt->msg};
    return s;
}

/* This thread's rows of b at the stage state, then the solve. */
static int stage_solve(rs_ltrain *lt, int t, int r0, int r1, int max_iter, int *cur)
{
    const double alpha = lt->cfg.alpha;
    for (int i = r0; i < r1; i++)
        lt->b[i] = alpha * (lt->ss[i] - lt->ss[i + 1] - lt->d[i]) + lt->minv[i] * lt->ps[i] -
                   lt->minv[i + 1] * lt->ps[i + 1];
    const rs_artdyn s = view(lt);
    int st;
    if (lt->nc == 0) {   /* one vehicle: no coupler, nothing to solve */
        st = RS_OK;
        if (t == 0)
            lt->iters = 0;
    } else {
        /* the first step after a start has no μ history to warm-start
         * from; CG needs at most about nc iterations from anywhere, so
         * only the artificial iteration takes the direct first step */
        const int direct = lt->cfg.method == RS_LTRAIN_DIRECT ||
                           (lt->job == RS_LTRAIN_JOB_STEP && !lt->have_prev && lt->cfg.direct_first &&
                            lt->cfg.method == RS_LTRAIN_ARTIFICIAL);
        st = direct                              ? rs_artdyn_direct(&s, t, *cur)
             : lt->cfg.method == RS_LTRAIN_CG ? rs_artdyn_cg(&s, t, r0, r1, max_iter, cur)
                                                 : rs_artdyn_solve(&s, t, r0, r1, max_iter, cur);
    }
    if (t == 0) {
        lt->stats.solves++;
        lt->stats.iters += lt->iters;
        if (lt->iters > lt->stats.max_iters)
            lt->stats.max_iters = lt->iters;
    }
    return st;
}

/* ṡ_i = (p*_i − μ_i + μ_{i−1}) / m_i, ṗ*_i = F_i(t, ṡ_i). */
static void rates(const rs_ltrain *lt, const double *mu, int i, double t, double *sd, double *pd)
{
    const double jtmu = (i < lt->nc ? mu[i] : 0.0) - (i > 0 ? mu[i - 1] : 0.0);
    *sd = lt->minv[i] * (lt->ps[i] - jtmu);
    *pd = rs_ltrain_force(lt, i, t, *sd);
}

static void section(void *ctx, int task, int t)
{
    (void)task;
    rs_ltrain *lt = ctx;
    const int b0 = lt->start[t], b1 = lt->start[t + 1], n = lt->n;
    const int r0 = b0 < lt->nc ? b0 : lt->nc, r1 = b1 < lt->nc ? b1 : lt->nc;
    int cur = lt->cur, st = RS_OK;
    if (lt->job == RS_LTRAIN_JOB_SOLVE) {
        memcpy(lt->ss + b0, lt->s + b0, (size_t)(b1 - b0) * sizeof(double));
        memcpy(lt->ps + b0, lt->p + b0, (size_t)(b1 - b0) * sizeof(double));
        rs_barrier_wait(lt->bar);
        st = stage_solve(lt, t, r0, r1, lt->max_iter, &cur);
    } else {
        static const double a[4] = {0.0, 0.5, 0.5, 1.0};
        const double h = lt->h;
        /* the history is kept for both solvers (a state copied from a
         * direct train warm-starts an artificial one), used by one */
        const int extra = lt->cfg.method != RS_LTRAIN_DIRECT && lt->cfg.extrapolate;
        for (int i = r0; i < r1; i++) {
            lt->muP[i] = lt->have_prev ? lt->muE[i] : lt->mu[cur][i];
            lt->muE[i] = lt->mu[cur][i];
        }
        for (int k = 0; k < 4 && st == RS_OK; k++) {
            if (extra && k > 0) {
                /* μ (the integral of the tensions) is smooth in time: start
                 * from its line through the last two steps, written into the
                 * buffer nobody reads now (rs_chain_solve.c). */
                double *m0 = lt->mu[1 - cur];
                for (int i = r0; i < r1; i++)
                    m0[i] = lt->muE[i] + a[k] * (lt->muE[i] - lt->muP[i]);
                cur = 1 - cur;
            }
            const double *dks = lt->ks + (size_t)(k > 0 ? k - 1 : 0) * (size_t)n;
            const double *dkp = lt->kp + (size_t)(k > 0 ? k - 1 : 0) * (size_t)n;
            for (int i = b0; i < b1; i++) {
                lt->ss[i] = lt->s[i] + a[k] * h * dks[i];
                lt->ps[i] = lt->p[i] + a[k] * h * dkp[i];
            }
            rs_barrier_wait(lt->bar);   /* the neighbour's boundary vehicle ready */
            st = stage_solve(lt, t, r0, r1, lt->cfg.max_iter, &cur);
            if (st != RS_OK)
                break;
            for (int i = b0; i < b1; i++)
                rates(lt, lt->mu[cur], i, lt->t + a[k] * h, lt->ks + (size_t)k * (size_t)n + i,
                      lt->kp + (size_t)k * (size_t)n + i);
        }
        if (st == RS_OK) {
            const double *k1 = lt->ks, *k2 = k1 + n, *k3 = k2 + n, *k4 = k3 + n;
            const double *l1 = lt->kp, *l2 = l1 + n, *l3 = l2 + n, *l4 = l3 + n;
            for (int i = b0; i < b1; i++) {
                lt->s[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
                lt->p[i] += h / 6.0 * (l1[i] + 2.0 * l2[i] + 2.0 * l3[i] + l4[i]);
            }
        }
    }
    if (t == 0) {
        lt->status = st;
        lt->cur = cur;
        if (lt->job == RS_LTRAIN_JOB_STEP && st == RS_OK)
            lt->have_prev = 1;
    }
}

int rs_ltrain_rigid_run(rs_ltrain *lt, char *err, size_t errlen)
{
    lt->msg[0] = '\0';
    lt->status = RS_OK;
    rs_pool_parallel(lt->pool, section, lt);
    if (lt->status != RS_OK)
        return rs_fail(err, errlen, lt->status, "%s", lt->msg);
    return RS_OK;
}
