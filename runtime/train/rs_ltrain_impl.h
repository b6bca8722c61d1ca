/*
 * rs_ltrain_impl.h — the inside of rs_ltrain, shared by rs_ltrain.c (the
 * model, lifetime, queries), rs_ltrain_rigid.c (the parallel section of the
 * rigid couplers) and rs_ltrain_hmm.c (the stiff ones as the HMM driver's
 * bodies).
 */
#ifndef RS_LTRAIN_IMPL_H
#define RS_LTRAIN_IMPL_H

#include "rs_barrier.h"
#include "rs_hmm_driver.h"
#include "rs_ltrain.h"
#include "rs_pool.h"

/* Half bandwidth of A (tridiagonal); the barrier polls as long as the
 * chain's. */
enum { RS_LTRAIN_KD = 1, RS_LTRAIN_ROW = 3, RS_LTRAIN_SPIN = 50000 };

typedef enum rs_ltrain_job { RS_LTRAIN_JOB_STEP, RS_LTRAIN_JOB_SOLVE } rs_ltrain_job;

struct rs_ltrain {
    rs_ltrain_config cfg;  /* veh, cpl point to the copies below; δ, η filled in */
    int n, nc, T;          /* vehicles, couplers (n − 1), threads */
    int rigid;             /* artificial or direct */
    rs_wagon *veh;         /* n, traction tables pointing into tab */
    rs_coupler *cpl;       /* nc */
    double *tab;
    double *m, *minv, *d;  /* per vehicle: m_i, 1/m_i; per coupler: d_i */
    double t;              /* time [s] */
    double *s;             /* positions, n */
    double *p;             /* rigid: modified momenta p*, n */
    double *v;             /* stiff: velocities, n */
    double *ss, *ps;       /* rigid: the RK4 stage's state, n */
    double *ks, *kp;       /* rigid: the four stages' rates, 4n each */
    /* rigid */
    double *A, *b;         /* band rows of A (3 nc, constant), b (nc) */
    double *mu[2];         /* μ, double-buffered */
    int cur;
    double *L, *muE, *muP; /* direct factor (2 nc); warm-start history (nc each) */
    int have_prev;
    double *slot;          /* 4T */
    double *cg;            /* CG: 4 nc + 2T (rs_artdyn.h) */
    double *scratch;       /* nc + n: the queries' direct solves */
    int direct_status, iters, status;
    double last_tau;
    char msg[256];
    /* stiff */
    double *Fb;            /* per thread: the tension of the coupler ahead of its range, T */
    rs_hmm_drv drv;        /* the integration (rs_hmm_driver.h): δ, the kernel, the
                              stages and averages; s, v, start, bar, pool lent */
    /* both */
    int *start;            /* thread t owns vehicles start[t] .. start[t+1]−1 */
    rs_barrier *bar;
    rs_pool *pool;
    rs_ltrain_job job;
    double h;
    int max_iter, job_steps;
    rs_ltrain_stats stats;
};

/* The force on vehicle i at time t and speed v [N]. */
double rs_ltrain_force(const rs_ltrain *lt, int i, double t, double v);

/* The stiff train as the HMM driver's bodies (rs_ltrain_hmm.c). */
rs_hmm_body_model rs_ltrain_body_model_of(rs_ltrain *lt);

/* The steps: rigid (rs_ltrain_rigid.c, its failure in lt->msg) and stiff
 * (rs_ltrain_hmm.c, the driver's). */
int rs_ltrain_rigid_run(rs_ltrain *lt, char *err, size_t errlen);
int rs_ltrain_stiff_run(rs_ltrain *lt, double H, char *err, size_t errlen);

#endif /* RS_LTRAIN_IMPL_H */
