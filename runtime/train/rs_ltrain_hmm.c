/*
 * rs_ltrain_hmm.c — the stiff-coupler train (rs_ltrain.h) as the HMM
 * driver's bodies (rs_hmm_driver.h, the scheme of the compliant pendulum
 * chain, docs/massive.md, on one coordinate per vehicle): a stage's
 * coupler tensions and vehicle rates over a thread's range, a vehicle's
 * rates in its macro step, and the step.
 *
 * Thread t owns vehicles b0..b1−1 and couplers b0..min(b1, n−1)−1; it
 * computes again the tension of the coupler ahead of its range (the
 * previous thread's last) rather than exchanging it.
 */
#include "rs_ltrain_impl.h"

static double tension(const rs_ltrain *lt, const double *q, const double *v, int c)
{
    return lt->cpl[c].k * (q[c] - q[c + 1] - lt->d[c]) + lt->cpl[c].c * (v[c] - v[c + 1]);
}

/* The stage of thread t over vehicles b0..b1−1 at time ts. */
static void stage(void *ctx, int t, int b0, int b1, const double *sq, const double *sv, double ts, double *F,
                  double *qd, double *vd)
{
    rs_ltrain *lt = ctx;
    const int nc = lt->nc;
    const int c1 = b1 < nc ? b1 : nc;
    for (int c = b0; c < c1; c++)
        F[c] = tension(lt, sq, sv, c);
    lt->Fb[t] = b0 > 0 && b0 < b1 ? tension(lt, sq, sv, b0 - 1) : 0.0;
    for (int i = b0; i < b1; i++) {
        const double ahead = i == 0 ? 0.0 : i == b0 ? lt->Fb[t] : F[i - 1];
        const double behind = i < nc ? F[i] : 0.0;
        qd[i] = sv[i];
        vd[i] = lt->minv[i] * (rs_ltrain_force(lt, i, ts, sv[i]) - behind + ahead);
    }
}

/* Vehicle i alone at speed v under couplers i − 1 (ahead) and i (behind). */
static void macro(void *ctx, int i, double tc, double tau, const double *q, const double *v, double *qd, double *vd)
{
    (void)q;   /* the forces do not depend on the position */
    const rs_ltrain *lt = ctx;
    double behind, ahead;
    rs_hmm_drv_macro_force(&lt->drv, i, tau, &behind);
    rs_hmm_drv_macro_force(&lt->drv, i - 1, tau, &ahead);
    qd[0] = v[0];
    vd[0] = lt->minv[i] * (rs_ltrain_force(lt, i, tc + tau, v[0]) - behind + ahead);
}

rs_hmm_body_model rs_ltrain_body_model_of(rs_ltrain *lt)
{
    rs_hmm_body_model b = {.nb = lt->n, .nj = lt->nc, .dq = 1, .df = 1, .ctx = lt, .stage = stage, .macro = macro,
                       .who = "rs_ltrain_step", .resolved = "the resolved method"};
    return b;
}

int rs_ltrain_stiff_run(rs_ltrain *lt, double H, char *err, size_t errlen)
{
    return rs_hmm_drv_step(&lt->drv, &lt->t, H, err, errlen);
}
