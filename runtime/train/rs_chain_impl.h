/*
 * rs_chain_impl.h — the inside of rs_chain, shared by rs_chain.c (the
 * model: Jacobian, rows of A and b, body rates) and rs_chain_solve.c (the
 * parallel section: RK4 stages and the two solvers).
 */
#ifndef RS_CHAIN_IMPL_H
#define RS_CHAIN_IMPL_H

#include "rs_barrier.h"
#include "rs_chain.h"
#include "rs_pool.h"

/* Half bandwidth of A: two rows meet when they touch a common body, and
 * body i is touched by rows 3i .. 3i+4 (joint i, its unit row, joint i+1),
 * so rows at most 4 apart.  The barrier polls as long as the Park step's. */
enum { RS_CHAIN_KD = 4, RS_CHAIN_SPIN = 50000 };

typedef enum rs_chain_job { RS_CHAIN_JOB_STEP, RS_CHAIN_JOB_SOLVE } rs_chain_job;

struct rs_chain {
    rs_chain_config cfg;   /* inertia filled in */
    int n, nc, T;          /* bodies, constraints (3n), threads */
    double minv[4];        /* M⁻¹ of one body: 1/m, 1/m, 1/I, 1/I */
    double *s, *p;         /* state: coordinates and modified momenta, 4n */
    double *ss, *ps;       /* the RK4 stage's state, 4n */
    double *ks, *kp;       /* the four stages' rates, 4 × 4n */
    double *A;             /* band rows of A: A[row*9 + d+4] = A(row, row+d) */
    double *b;             /* nc */
    double *mu[2];         /* μ, double-buffered: iterations read one, write the other */
    int cur;               /* mu[cur] holds μ between sections */
    double *L;             /* band Cholesky factor (direct), nc × 5 */
    double *scratch;       /* nc */
    double *cg;            /* CG: 4 nc + 2T (rs_artdyn.h) */
    double *muE, *muP;     /* μ at the start of this step and of the last
                              (the extrapolated warm start; own rows only) */
    int have_prev;         /* muP holds a step's μ */
    double *slot;          /* per thread: [0..T) Gershgorin g and max|b|,
                              then two parities of max|r| (4T in all) */
    int *start;            /* thread t owns bodies start[t] .. start[t+1]−1 */
    rs_barrier *bar;
    rs_pool *pool;
    /* the job of the current section */
    rs_chain_job job;
    double h;
    int max_iter;
    int status;            /* written by thread 0, read after the join */
    int direct_status;     /* of the last direct solve, read by all after its barrier */
    int iters;             /* of the last solve (written by thread 0 only) */
    char msg[256];
    double last_tau;
    rs_chain_stats stats;
};

int rs_chain_jcoef(const rs_chain *c, const double *s, int row, int i, double coef[4]);
double rs_chain_f(const rs_chain *c, const double *s, int row);
void rs_chain_assemble_row(const rs_chain *c, const double *s, const double *p, int row, double *Arow,
                           double *brow);
void rs_chain_body_rates(const rs_chain *c, const double *s, const double *p, const double *mu, int i,
                         double *sd, double *pd);

#endif /* RS_CHAIN_IMPL_H */
