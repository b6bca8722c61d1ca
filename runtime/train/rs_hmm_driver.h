/*
 * rs_hmm_driver.h — the heterogeneous multiscale method's step over a
 * chain of bodies joined by stiff joints (docs/massive.md), written once
 * for the two chains that use it: the compliant pendulum chain
 * (rs_hmm_step.c: three coordinates per bar, a 2-D force per joint) and
 * the stiff-coupler train in natural coordinates (rs_ltrain_hmm.c: one
 * coordinate per vehicle, one tension per coupler).
 *
 * The driver runs the parallel section: per thread, the RK4 stages and
 * updates of its bodies' states, the kernel averages over the
 * micro-interval (or, resolved, plain RK4 steps of the micro step), the
 * lag correction of the averages and each body's macro step alone under
 * its joints' extrapolated averaged forces; and the checks and counters
 * around it.  What differs between the chains is behind rs_hmm_body_model: a
 * stage's joint forces and body rates over a thread's range, and one
 * body's rates in the macro step.
 *
 * Threads: thread t owns bodies start[t] .. start[t+1]−1 and joints
 * start[t] .. min(start[t+1], nj)−1 (rs_team.h ranges).  A stage writes
 * its bodies' stage state into the buffer of the stage's parity, passes
 * the barrier, then the model reads its neighbours' boundary bodies from
 * it: a buffer is written again two stages later, after the next barrier,
 * so by then every reader is done with it.  Joint forces a thread needs
 * beyond its range are computed again by the model, not exchanged; so the
 * bits do not depend on the number of threads.
 *
 * No allocation and no unbounded loop in a step: the arrays are made once
 * by rs_hmm_drv_alloc.
 */
#ifndef RS_HMM_DRIVER_H
#define RS_HMM_DRIVER_H

#include <stddef.h>

#include "rs_barrier.h"
#include "rs_pool.h"

/* The most state entries per body (the bar's x, y, θ). */
enum { RS_HMM_DRV_DQ_MAX = 3 };

/* What the driver asks of the chain. */
typedef struct rs_hmm_body_model {
    int nb, nj;            /* bodies, joints */
    int dq, df;            /* state entries per body (1..RS_HMM_DRV_DQ_MAX), force entries per joint */
    void *ctx;             /* the chain, first argument of both calls */
    /* Stage of thread t at the stage state sq, sv (dq nb each, own bodies
     * and the neighbours' boundary bodies valid) and time ts: the forces of
     * own joints into F + df j, and the rates of own bodies b0..b1−1 into
     * qd + dq i, vd + dq i. */
    void (*stage)(void *ctx, int t, int b0, int b1, const double *sq, const double *sv, double ts, double *F,
                  double *qd, double *vd);
    /* Body i alone at q, v (dq each), tau into its macro step that starts
     * at the kernel centre tc: its rates qd, vd (dq each), under its joints'
     * forces from rs_hmm_drv_macro_force. */
    void (*macro)(void *ctx, int i, double tc, double tau, const double *q, const double *v, double *qd,
                  double *vd);
    const char *who;       /* the step's name in messages ("rs_hmm_step") */
    const char *resolved;  /* what a message offers instead ("the resolved mode") */
} rs_hmm_body_model;

typedef struct rs_hmm_drv {
    rs_hmm_body_model b;
    int T;                 /* threads */
    int averaged;          /* 1: HMM; 0: resolved RK4 at delta */
    int m;                 /* micro steps per micro-interval (averaged) */
    double delta;          /* the micro step δ [s] */
    double eta;            /* the micro-interval the messages name, and the least macro step [s] */
    double *w, *wd;        /* kernel and derivative weights, m + 1 each (rs_hmm_kernel_weights) */
    double tbar, var;      /* the kernel's centre and variance [s, s²] */
    /* lent by the chain (rs_hmm_drv_lend) */
    double *q, *v;         /* the state, dq nb each */
    const int *start;      /* the threads' ranges, T + 1 */
    rs_barrier *bar;
    rs_pool *pool;
    /* own */
    double *sq[2], *sv[2]; /* stage states by stage parity, dq nb each */
    double *kq, *kv;       /* the four stages' rates, 4 dq nb each */
    double *F;             /* joint forces of the current stage, df nj */
    double *Facc, *Fdacc, *Fbar, *Fprev, *Fslope;   /* joint averages, df nj each */
    double *qacc, *vacc, *aacc, *adacc, *aprev;      /* body averages, dq nb each */
    int hist;              /* macro steps with history, up to 2: Fprev and aprev
                              hold the last step's averages (1), and Fslope the
                              last slope (2) */
    double tc_prev;        /* the kernel centre of the last macro step [s] */
    int *bad;              /* per thread: a non-finite value seen */
    long stage;            /* stages run, for the parity of sq/sv */
    /* the job of the current section */
    int job_steps;         /* resolved: RK4 steps of job_h */
    double job_h, job_H, job_t0;
    long macro_steps, micro_steps;   /* counters for the chains' statistics */
} rs_hmm_drv;

/* Zeroes d, copies the chain's interface and makes the arrays for T
 * threads, m micro steps per micro-interval and the micro step delta;
 * eta as above.  The weights w, wd, tbar and var are the caller's to fill,
 * and the state and team the caller's to lend (rs_hmm_drv_lend) before
 * the first step.  RS_OK or RS_E_NOMEM (no message: the chain says what it
 * was making); on failure rs_hmm_drv_free frees what was made. */
int rs_hmm_drv_alloc(rs_hmm_drv *d, const rs_hmm_body_model *b, int T, int averaged, int m, double delta, double eta);
void rs_hmm_drv_free(rs_hmm_drv *d);

/* Lends the chain's state q, v and its team (rs_team.h); they stay the
 * chain's, to free. */
void rs_hmm_drv_lend(rs_hmm_drv *d, double *q, double *v, const int *start, rs_barrier *bar, rs_pool *pool);

/* Forgets the averages' history: the next macro step starts afresh. */
void rs_hmm_drv_restart(rs_hmm_drv *d);

/* Advances the chain's time *t and state by H: one macro step (averaged),
 * or resolved RK4 steps of at most δ filling H.  RS_E_ARG when H is
 * shorter than the micro-interval (averaged) or needs over 1e9 micro steps;
 * RS_E_NONFINITE when the state became non-finite (*t advanced).  The
 * messages begin with b.who. */
int rs_hmm_drv_step(rs_hmm_drv *d, double *t, double H, char *err, size_t errlen);

/* Joint j's averaged force (df entries) at tau into the macro step, along
 * its slope; 0 for j outside 0..nj−1 (the chain's free ends). */
static inline void rs_hmm_drv_macro_force(const rs_hmm_drv *d, int j, double tau, double *F)
{
    const int df = d->b.df;
    for (int e = 0; e < df; e++)
        F[e] = j < 0 || j >= d->b.nj ? 0.0 : d->Fbar[df * j + e] + tau * d->Fslope[df * j + e];
}

#endif /* RS_HMM_DRIVER_H */
