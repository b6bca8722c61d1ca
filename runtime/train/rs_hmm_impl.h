/*
 * rs_hmm_impl.h — the inside of rs_hmm, shared by rs_hmm.c (the model: the
 * joint forces, the bodies' rates, lifetime and queries) and rs_hmm_step.c
 * (the parallel section: micro RK4, averaging, macro step).
 */
#ifndef RS_HMM_IMPL_H
#define RS_HMM_IMPL_H

#include "rs_barrier.h"
#include "rs_hmm.h"
#include "rs_pool.h"

/* The barrier polls as long as the chain's and the Park step's. */
enum { RS_HMM_SPIN = 50000 };

struct rs_hmm {
    rs_hmm_config cfg;      /* inertia, damping, δ, η filled in */
    int n, T;               /* bodies, threads */
    double half;            /* L/2 */
    double minv[3];         /* 1/m, 1/m, 1/I */
    int m;                  /* micro steps per micro-interval */
    double delta;           /* micro step δ = η/m (averaged) or the configured δ */
    double *w;              /* kernel weights on the m + 1 grid points, sum 1 */
    double *wd;             /* derivative weights −K'/η on the grid, exact for a
                               line: the first macro step's slopes */
    double tbar, var;       /* Σ w_j τ_j and Σ w_j (τ_j − tbar)² [s, s²] */
    double t;               /* time [s] */
    double *q, *v;          /* state: (x, y, θ) and rates per body, 3n each */
    double *sq[2], *sv[2];  /* RK4 stage states by stage parity, 3n each */
    double *kq, *kv;        /* the four stages' rates, 4 × 3n each */
    double *F;              /* joint forces of the current stage, 2n (own joints) */
    double *Fb;             /* per thread: the force of the joint beyond its range, 2T */
    double *sc;             /* per thread: (sin, cos) of the stage's θ of bodies
                               b0 − 1 .. b1, thread t from 2 (b0 + 2t): 2 (n + 2T) */
    double *Facc, *Fbar, *Fprev, *Fslope;   /* joint averages, 2n each */
    double *qacc, *vacc, *aacc;             /* body averages, 3n each */
    double *aprev;          /* the last macro step's ā, 3n */
    double *Fdacc, *adacc;  /* derivative averages of F (2n) and a (3n) */
    int have_prev;          /* macro steps with history, up to 2: Fprev and
                               aprev hold the last step's averages (1), and
                               Fslope the last slope (2) */
    double tc_prev;         /* the kernel centre of that step */
    int *start;             /* thread t owns bodies start[t] .. start[t+1]−1 */
    int *bad;               /* per thread: a non-finite value seen */
    rs_barrier *bar;
    rs_pool *pool;
    /* the job of the current section */
    int job_steps;          /* resolved: RK4 steps of job_h */
    double job_h, job_H;
    long stage;             /* stages run, for the parity of sq/sv */
    rs_hmm_stats stats;
};

/* Joint j's opening g and its rate ġ at the (stage) state q, v; scj and
 * scp hold (sin, cos) of θ_j and θ_{j−1} (scp unused for j = 0). */
void rs_hmm_joint_open(const rs_hmm *h, const double *q, const double *v, int j, const double scj[2],
                       const double scp[2], double g[2], double gd[2]);
/* Its force F = −k g − c ġ. */
void rs_hmm_joint_force(const rs_hmm *h, const double *q, const double *v, int j, const double scj[2],
                        const double scp[2], double F[2]);
/* The rates of body i (sci: sin, cos of θ_i) under joint forces Fi (at A_i)
 * and Fn (the next joint, −Fn at B_i): qd = v_i, vd = the accelerations. */
void rs_hmm_body_rates(const rs_hmm *h, const double *v, int i, const double sci[2],
                       const double Fi[2], const double Fn[2], double qd[3], double vd[3]);

#endif /* RS_HMM_IMPL_H */
