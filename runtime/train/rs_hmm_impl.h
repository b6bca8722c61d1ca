/*
 * rs_hmm_impl.h — the inside of rs_hmm, shared by rs_hmm.c (the model: the
 * joint forces, the bodies' rates, lifetime and queries) and rs_hmm_step.c
 * (the chain as the HMM driver's bodies, and the step).
 */
#ifndef RS_HMM_IMPL_H
#define RS_HMM_IMPL_H

#include "rs_barrier.h"
#include "rs_hmm.h"
#include "rs_hmm_driver.h"
#include "rs_pool.h"

/* The barrier polls as long as the chain's and the Park step's. */
enum { RS_HMM_SPIN = 50000 };

struct rs_hmm {
    rs_hmm_config cfg;      /* inertia, damping, δ, η filled in */
    int n, T;               /* bodies, threads */
    double half;            /* L/2 */
    double minv[3];         /* 1/m, 1/m, 1/I */
    double t;               /* time [s] */
    double *q, *v;          /* state: (x, y, θ) and rates per body, 3n each */
    double *Fb;             /* per thread: the force of the joint beyond its range, 2T */
    double *sc;             /* per thread: (sin, cos) of the stage's θ of bodies
                               b0 − 1 .. b1, thread t from 2 (b0 + 2t): 2 (n + 2T) */
    int *start;             /* thread t owns bodies start[t] .. start[t+1]−1 */
    rs_barrier *bar;
    rs_pool *pool;
    rs_hmm_drv drv;         /* the integration (rs_hmm_driver.h): δ, the kernel,
                               the stages and averages; q, v, start, bar, pool lent */
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

/* The chain as the HMM driver's bodies (rs_hmm_step.c). */
rs_hmm_body_model rs_hmm_body_model_of(rs_hmm *h);

#endif /* RS_HMM_IMPL_H */
