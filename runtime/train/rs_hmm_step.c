/*
 * rs_hmm_step.c — the compliant chain (rs_hmm.h) as the HMM driver's
 * bodies (rs_hmm_driver.h): a stage's joint forces and bar rates over a
 * thread's range, a bar's rates in its macro step, and the step.
 */
#include <math.h>

#include "rs_hmm_impl.h"
#include "rs_error.h"
#include "rs_status.h"

/* The stage of thread t over bars b0..b1−1: the forces of joints b0..b1
 * (b1 only if it exists: the joint beyond the range, computed again here
 * rather than exchanged) and the bars' rates. */
static void stage(void *ctx, int t, int b0, int b1, const double *sq, const double *sv, double ts, double *F,
                  double *qd, double *vd)
{
    (void)ts;   /* nothing in the chain depends on time */
    rs_hmm *h = ctx;
    /* sin and cos once per bar, the neighbours' boundary bars included
     * (the same bits as theirs); sc[2 (i − b0 + 1)] belongs to bar i */
    double *sc = h->sc + 2 * ((size_t)b0 + 2 * (size_t)t);
    const int i0 = b0 > 0 ? b0 - 1 : b0, i1 = b1 < h->n ? b1 : h->n - 1;
    for (int i = i0; i <= i1; i++) {
        sc[2 * (i - b0 + 1)] = sin(sq[3 * i + 2]);
        sc[2 * (i - b0 + 1) + 1] = cos(sq[3 * i + 2]);
    }
    for (int j = b0; j < b1; j++)
        rs_hmm_joint_force(h, sq, sv, j, sc + 2 * (j - b0 + 1), sc + 2 * (j - b0), F + 2 * j);
    double *fb = h->Fb + 2 * t;
    if (b1 < h->n)
        rs_hmm_joint_force(h, sq, sv, b1, sc + 2 * (b1 - b0 + 1), sc + 2 * (b1 - b0), fb);
    else
        fb[0] = fb[1] = 0.0;   /* the free end */
    for (int i = b0; i < b1; i++) {
        const double *Fn = i + 1 < b1 ? F + 2 * (i + 1) : fb;
        rs_hmm_body_rates(h, sv, i, sc + 2 * (i - b0 + 1), F + 2 * i, Fn, qd + 3 * (size_t)i, vd + 3 * (size_t)i);
    }
}

/* Bar i alone at q, v under joints i and i + 1 (0 beyond the free end). */
static void macro(void *ctx, int i, double tc, double tau, const double *q, const double *v, double *qd, double *vd)
{
    (void)tc;
    const rs_hmm *h = ctx;
    double Fi[2], Fn[2];
    rs_hmm_drv_macro_force(&h->drv, i, tau, Fi);
    rs_hmm_drv_macro_force(&h->drv, i + 1, tau, Fn);
    /* body_rates indexes v by bar: pass this bar as bar 0 */
    const double sc[2] = {sin(q[2]), cos(q[2])};
    rs_hmm_body_rates(h, v, 0, sc, Fi, Fn, qd, vd);
}

rs_hmm_body_model rs_hmm_body_model_of(rs_hmm *h)
{
    rs_hmm_body_model b = {.nb = h->n, .nj = h->n, .dq = 3, .df = 2, .ctx = h, .stage = stage, .macro = macro,
                       .who = "rs_hmm_step", .resolved = "the resolved mode"};
    return b;
}

int rs_hmm_step(rs_hmm *h, double H, char *err, size_t errlen)
{
    if (!(H > 0.0) || !isfinite(H))
        return rs_fail(err, errlen, RS_E_ARG, "rs_hmm_step: the step must be positive and finite (got %g)", H);
    return rs_hmm_drv_step(&h->drv, &h->t, H, err, errlen);
}
