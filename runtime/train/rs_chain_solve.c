/*
 * rs_chain_solve.c — the parallel section of the chain: RK4 stages, each
 * assembling its rows of A μ = b and solving it by artificial dynamics
 * (seed 002, eq. 19-20) or by band Cholesky (the reference), both shared
 * with the longitudinal train (rs_artdyn.c).
 *
 * Every thread runs the whole section on its own range of bodies and
 * constraints and takes the same decisions from the same shared maxima, so
 * no broadcast is needed and no thread waits for a master.
 */
#include <math.h>
#include <string.h>

#include "rs_artdyn.h"
#include "rs_chain_impl.h"
#include "rs_error.h"
#include "rs_status.h"

enum { ROW = 2 * RS_CHAIN_KD + 1 };

/* The shared iteration's view of this chain (rs_artdyn.h). */
static rs_artdyn view(rs_chain *c)
{
    rs_artdyn s = {.nc = c->nc, .kd = RS_CHAIN_KD, .T = c->T, .A = c->A, .b = c->b, .mu = {c->mu[0], c->mu[1]},
                   .slot = c->slot, .L = c->L, .cg = c->cg, .bar = c->bar, .tol = c->cfg.tol, .omega = c->cfg.omega,
                   .iters = &c->iters, .tau = &c->last_tau, .direct_status = &c->direct_status,
                   .msg = c->msg, .msglen = sizeof c->msg};
    return s;
}

/* Assembles this thread's rows at the stage state and solves. */
static int stage_solve(rs_chain *c, int t, int max_iter, int *cur)
{
    const int r0 = 3 * c->start[t], r1 = 3 * c->start[t + 1];
    for (int row = r0; row < r1; row++)
        rs_chain_assemble_row(c, c->ss, c->ps, row, c->A + (size_t)row * ROW, &c->b[row]);
    const rs_artdyn s = view(c);
    int st = c->cfg.solver == RS_CHAIN_DIRECT ? rs_artdyn_direct(&s, t, *cur)
             : c->cfg.solver == RS_CHAIN_CG   ? rs_artdyn_cg(&s, t, r0, r1, max_iter, cur)
                                              : rs_artdyn_solve(&s, t, r0, r1, max_iter, cur);
    if (t == 0) {
        c->stats.solves++;
        c->stats.iters += c->iters;
        if (c->iters > c->stats.max_iters)
            c->stats.max_iters = c->iters;
    }
    return st;
}

static void section(void *ctx, int task, int t)
{
    (void)task;
    rs_chain *c = ctx;
    const size_t q0 = 4 * (size_t)c->start[t], q1 = 4 * (size_t)c->start[t + 1], n4 = 4 * (size_t)c->n;
    int cur = c->cur, st = RS_OK;
    if (c->job == RS_CHAIN_JOB_SOLVE) {
        memcpy(c->ss + q0, c->s + q0, (q1 - q0) * sizeof(double));
        memcpy(c->ps + q0, c->p + q0, (q1 - q0) * sizeof(double));
        rs_barrier_wait(c->bar);
        st = stage_solve(c, t, c->max_iter, &cur);
    } else {
        static const double a[4] = {0.0, 0.5, 0.5, 1.0};
        const double h = c->h;
        const int r0 = 3 * c->start[t], r1 = 3 * c->start[t + 1];
        /* both iterations gain from a close warm start */
        const int extra = c->cfg.solver != RS_CHAIN_DIRECT && c->cfg.extrapolate;
        if (extra)
            for (int row = r0; row < r1; row++) {
                c->muP[row] = c->have_prev ? c->muE[row] : c->mu[cur][row];
                c->muE[row] = c->mu[cur][row];
            }
        for (int k = 0; k < 4 && st == RS_OK; k++) {
            if (extra && k > 0) {
                /* μ (the integral of the constraint forces) is smooth in
                 * time: start from its line through the last two steps.
                 * Written into the buffer nobody reads now (neighbours may
                 * still read mu[cur] for their rates), then taken as μ. */
                double *m0 = c->mu[1 - cur];
                for (int row = r0; row < r1; row++)
                    m0[row] = c->muE[row] + a[k] * (c->muE[row] - c->muP[row]);
                cur = 1 - cur;
            }
            const double *dks = c->ks + (size_t)(k > 0 ? k - 1 : 0) * n4;
            const double *dkp = c->kp + (size_t)(k > 0 ? k - 1 : 0) * n4;
            for (size_t q = q0; q < q1; q++) {
                c->ss[q] = c->s[q] + a[k] * h * dks[q];
                c->ps[q] = c->p[q] + a[k] * h * dkp[q];
            }
            rs_barrier_wait(c->bar);   /* neighbours' boundary bodies ready */
            st = stage_solve(c, t, c->cfg.max_iter, &cur);
            if (st != RS_OK)
                break;
            for (int i = c->start[t]; i < c->start[t + 1]; i++)
                rs_chain_body_rates(c, c->ss, c->ps, c->mu[cur], i, c->ks + (size_t)k * n4 + 4 * (size_t)i,
                                    c->kp + (size_t)k * n4 + 4 * (size_t)i);
        }
        if (st == RS_OK) {
            const double *k1 = c->ks, *k2 = k1 + n4, *k3 = k2 + n4, *k4 = k3 + n4;
            const double *l1 = c->kp, *l2 = l1 + n4, *l3 = l2 + n4, *l4 = l3 + n4;
            for (size_t q = q0; q < q1; q++) {
                c->s[q] += h / 6.0 * (k1[q] + 2.0 * k2[q] + 2.0 * k3[q] + k4[q]);
                c->p[q] += h / 6.0 * (l1[q] + 2.0 * l2[q] + 2.0 * l3[q] + l4[q]);
            }
        }
    }
    if (t == 0) {
        c->status = st;
        c->cur = cur;
        if (c->job == RS_CHAIN_JOB_STEP && st == RS_OK)
            c->have_prev = 1;
    }
}

static int run_section(rs_chain *c, char *err, size_t errlen)
{
    c->msg[0] = '\0';
    c->status = RS_OK;
    rs_pool_parallel(c->pool, section, c);
    if (c->status != RS_OK)
        return rs_fail(err, errlen, c->status, "%s", c->msg);
    return RS_OK;
}

int rs_chain_step(rs_chain *c, double h, char *err, size_t errlen)
{
    if (!(h > 0.0) || !isfinite(h))
        return rs_fail(err, errlen, RS_E_ARG, "rs_chain_step: the step must be positive and finite (got %g)", h);
    c->job = RS_CHAIN_JOB_STEP;
    c->h = h;
    return run_section(c, err, errlen);
}

int rs_chain_solve(rs_chain *c, double *mu, int max_iter, int *iters, char *err, size_t errlen)
{
    if (max_iter < 1)
        return rs_fail(err, errlen, RS_E_ARG, "rs_chain_solve: max_iter must be >= 1 (got %d)", max_iter);
    memcpy(c->mu[c->cur], mu, (size_t)c->nc * sizeof(double));
    c->job = RS_CHAIN_JOB_SOLVE;
    c->max_iter = max_iter;
    const int st = run_section(c, err, errlen);
    memcpy(mu, c->mu[c->cur], (size_t)c->nc * sizeof(double));
    if (iters)
        *iters = c->iters;
    return st;
}
