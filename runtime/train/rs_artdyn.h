/*
 * rs_artdyn.h — seed 002's artificial dynamics (eq. 19-20) for a banded SPD
 * system A μ = b, run inside a parallel section by every thread on its own
 * rows: the one iteration that the pendulum chain (rs_chain.h) and the
 * longitudinal train in natural coordinates (rs_ltrain.h) share, and the
 * direct band-Cholesky reference they compare it with.
 *
 *   μ_c ← μ_c + (ω / g) (b_c − Σ_d A_cd μ_d) / A_cc
 *
 * i.e. D = (g/ω) diag(A), g = max_c Σ_d |A_cd| / A_cc (Gershgorin's bound on
 * the eigenvalues of diag(A)⁻¹ A, so ω < 2 is stable), explicit Euler in
 * pseudo-time from the μ given (the warm start).  It stops when
 * max_c |b − A μ|_c <= tol · max_c |b_c|.  Max norms and one barrier per
 * iteration: every value is the same expression whatever the thread count,
 * so 1, 2 or T threads give the same bits.  No allocation; the loop is
 * bounded by max_iter.
 */
#ifndef RS_ARTDYN_H
#define RS_ARTDYN_H

#include <stddef.h>

#include "rs_barrier.h"

/* What the threads of one section share (each builds this view on its
 * stack; the pointers are the owner's). */
typedef struct rs_artdyn {
    int nc, kd, T;        /* rows, half bandwidth, threads */
    const double *A;      /* band rows: A[row (2kd+1) + d + kd] = A(row, row + d) */
    const double *b;      /* nc */
    double *mu[2];        /* μ, double-buffered: an iteration reads one, writes the other */
    double *slot;         /* 4T doubles of scratch for the maxima */
    double *L;            /* direct only: nc (kd+1) for the factor */
    double *cg;           /* CG only: r, z, p, Ap (nc each), then 2T doubles of scratch */
    rs_barrier *bar;
    double tol, omega;
    /* written by thread 0 only */
    int *iters;           /* iterations of the solve (0: direct, or b = 0) */
    double *tau;          /* the pseudo-step ω/g (artificial) */
    int *direct_status;   /* direct: its status, read by all after its barrier */
    char *msg;            /* the failure's message */
    size_t msglen;
} rs_artdyn;

/* Thread t's part of one artificial solve, rows r0..r1−1 (A and b
 * assembled by then for its rows; the first barrier publishes them), from
 * μ = mu[*cur]; *cur follows the buffers.  Returns the status every thread
 * agrees on: RS_OK, RS_E_NOCONV (max_iter reached; the last iterate kept)
 * or RS_E_NONFINITE, the message in msg. */
int rs_artdyn_solve(const rs_artdyn *s, int t, int r0, int r1, int max_iter, int *cur);

/* The direct reference: thread 0 factors the whole A (band Cholesky) and
 * solves into mu[cur] between two barriers.  RS_OK or RS_E_SINGULAR. */
int rs_artdyn_direct(const rs_artdyn *s, int t, int cur);

/* Thread t's part of one solve by conjugate gradients preconditioned by
 * diag(A) (Jacobi), rows r0..r1−1, the same contract as rs_artdyn_solve:
 * warm start from mu[*cur] (updated in place; *cur is left as it is), the
 * same stopping test max_c |b − A μ|_c <= tol · max_c |b_c|, checked on the
 * true residual b − A μ (the recurrence's residual only proposes the stop;
 * when the true one disagrees, CG restarts from it), at most max_iter
 * iterations, three barriers each.  In exact arithmetic it stops within nc
 * iterations.  Dot products: each thread sums its rows into a slot, then
 * every thread adds the T slots in the order 0..T−1, so a given T always
 * gives the same bits but, unlike the artificial iteration, different
 * thread counts differ in the last bits.  RS_OK, RS_E_NOCONV (the last
 * iterate kept), RS_E_NONFINITE, or RS_E_SINGULAR (a direction of
 * non-positive curvature: A is not SPD), the message in msg. */
int rs_artdyn_cg(const rs_artdyn *s, int t, int r0, int r1, int max_iter, int *cur);

#endif /* RS_ARTDYN_H */
