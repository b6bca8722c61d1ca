/*
 * rs_park.h — the Park method for block-structured second-order systems
 * (seed 000, §2.2-2.3): a train of vehicles (blocks) joined by couplers
 * (links), stepped on a persistent thread pool in the parallel sections
 * PS1-PS9 of the seed.
 *
 *   M(q,t) q̈ = F(q, q̇, t)        F = Σ block forces + Σ link forces
 *
 * Each block i (a vehicle) reports its mass matrix M_i, its own forces F_i
 * and their exact Jacobians K_i = −∂F_i/∂q_i, C_i = −∂F_i/∂q̇_i.  Each link
 * (a coupler) joins two blocks through a few "port" coordinates of each
 * (say x and pitch of two car bodies) and reports its forces on the ports
 * and their exact Jacobians, a p × p matrix over both sides' ports.
 *
 * The method (K. C. Park, 1975; β = 0.6 h).  The stiffly stable three-step
 * formula u̇_{n+1} = (10 u_{n+1} − 15 u_n + 6 u_{n−1} − u_{n−2}) / (6h) is
 * applied to q and to q̇; with q_{n+1} = q^p + δq it gives
 *
 *   q̇ = q̇^p + δq/β,   q̈ = q̈^p + δq/β²,   β = 6h/10 = 0.6 h          (6)
 *
 * where q̇^p, q̈^p are the same formula evaluated at the predictor
 * q^p = q_n + h q̇_n + h²/2 q̈_n.  Linearizing F about the predictor (9)
 * gives one linear system per step (10-12):
 *
 *   (M + βC + β²K) δq = β² (F^p − M q̈^p)
 *
 * whose block diagonal M'_i = M_i + βC_ii + β²K_ii (vehicle plus the
 * diagonal part of its couplers) preconditions PCG (symmetric systems) or
 * BiCGStab (non-symmetric); the coupler off-diagonal blocks are ΔJ
 * (rs_krylov.h).  krylov.method RS_KRYLOV_ARTIFICIAL solves the same
 * system by seed 002's artificial dynamics with D = M' (rs_artificial.h),
 * warm-started from the last solve.  `corrections` > 1 repeats the linearized corrector about
 * the corrected state (a Newton iteration); 1 is the seed's single
 * corrector.  The first step after rs_park_init uses backward Euler
 * (β = h), the second BDF2 (β = 2h/3), then Park; second order overall
 * (test_park fits the order on a damped chain against its modal solution).
 *
 * Parallel sections, all inside one fork-join per step (rs_pool_parallel)
 * with a spinning barrier (rs_barrier) between them:
 *   PS1  predictor and block functions (M_i, F_i, K_i, C_i), per block
 *   PS2  link functions (coupler forces and Jacobians), per link; the
 *        off-diagonal pieces are written here
 *   PS3  M'_i, right-hand side, dense factorization of M'_i, per block;
 *        then every thread checks the error flags of all
 *   PS4-PS7  Krylov start and iterations (rs_krylov_solve)
 *   PS8-PS9  δq into q, q̇, q̈ and the history, per block
 * Blocks and links are dealt to threads by the greedy longest-first rule on
 * costs measured during a few steps every `rebalance` steps (rs_pool_plan).
 * Every reduction is summed in block order, so 1, 2, ... threads give
 * bit-identical trajectories whatever the plan.
 *
 * On a busy machine (other processes on the cores) a team that meets at a
 * dozen barriers per step waits for partners that lost their core, and one
 * thread is faster.  So, with threads > 1, the first 5 steps of every
 * `probe` steps run on the caller alone (the serial plan: everything on
 * thread 0, no barrier), the next 5 on the team, and the rest of the
 * period the way whose median step was shorter.  Results are the same
 * bits either way (above); rs_park_stats.serial_steps counts the steps run
 * alone.
 *
 * Memory: everything is allocated by rs_park_create; rs_park_init and
 * rs_park_step allocate nothing, print nothing and never exit.  Errors come
 * back as rs_status codes with a message (rs_park_error) naming the step,
 * the time and the block or link.  A failed step leaves t, q, q̇, q̈ and the
 * history as they were.
 */
#ifndef RS_PARK_H
#define RS_PARK_H

#include <stddef.h>

#include "rs_krylov.h"
#include "rs_status.h"
#include "rs_ws.h"

typedef struct rs_park rs_park;

/* A block (vehicle): n coordinates. */
typedef struct rs_park_block {
    const char *name;
    int n;
} rs_park_block;

/* A link (coupler) between blocks a != b through ports ia[0..na) of a and
 * ib[0..nb) of b (local coordinate indices, distinct within a side). */
typedef struct rs_park_link {
    const char *name;
    int a, b, na, nb;
    const int *ia, *ib;
} rs_park_link;

/* Block function: at (t, q_i, q̇_i) write M (n × n, column-major), F (n),
 * K = −∂F/∂q and C = −∂F/∂q̇ (n × n).  Outputs are zeroed before the call.
 * Called from any pool thread, concurrently for different blocks.  Return
 * 0, or non-zero to fail the step. */
typedef int (*rs_park_block_fn)(void *ctx, int block, double t, const double *q, const double *qd, double *M,
                                double *F, double *K, double *C);

/* Link function: q, q̇ are the port values [a's ports, then b's] (p = na +
 * nb); write F (p: generalized forces on the ports), K = −∂F/∂q and
 * C = −∂F/∂q̇ (p × p, column-major).  Zeroed before the call; concurrent
 * for different links.  Return 0 or non-zero. */
typedef int (*rs_park_link_fn)(void *ctx, int link, double t, const double *q, const double *qd, double *F,
                               double *K, double *C);

/* After-solve function (optional): after each corrector solve of a step,
 * block b's δq (dq, its n values; q̇ moves by δq/β, ib = 1/β).  A block
 * whose forces are not what the linearization assumed (an elastic wheel's
 * patch whose normal force, linearized to the step's end, would pull:
 * rs_train_wheel_contact_after_solve) returns 1: its block function is then
 * called again at the same state (t, q^p, q̇^p), writes the forces as they
 * now are, and the step solves again.  0: as it is; < 0: fail the step.
 * At most RS_PARK_SOLVES_MAX solves per corrector: the last call has
 * may_change 0 (the block takes the solve as it is).  Called from any pool
 * thread, concurrently for different blocks. */
typedef int (*rs_park_after_fn)(void *ctx, int block, const double *dq, double ib, int may_change);
enum { RS_PARK_SOLVES_MAX = 4 };

typedef struct rs_park_sys {
    int nb, nl;
    const rs_park_block *blocks;   /* nb */
    const rs_park_link *links;     /* nl (may be NULL when nl == 0) */
    rs_park_block_fn block_fn;
    rs_park_link_fn link_fn;       /* may be NULL when nl == 0 */
    void *ctx;
    int symmetric;   /* every M, K, C is symmetric (block and link): PCG and
                        Cholesky; else BiCGStab and LU */
} rs_park_sys;

typedef struct rs_park_opts {
    double h;                /* step [s], default 1e-3                        */
    int threads;             /* pool threads (the caller is one), default 1   */
    rs_krylov_opts krylov;   /* default AUTO, tol 1e-8, 200 iterations        */
    int corrections;         /* linearized corrector solves per step, 1..20, default 1 */
    int rebalance;           /* re-plan from measured costs every this many
                                steps (measured over the first 8 of each
                                period), default 200; 0: plan once, statically */
    int spin;                /* barrier polls before sleeping, at most: the
                                budget adapts below it (rs_barrier.h),
                                default 50000 (tens of us) */
    int probe;               /* threads > 1: every this many steps, time 5
                                steps on the caller alone against 5 on the
                                pool and run the rest of the period the
                                faster way (on a busy machine one thread
                                often wins); the same bits either way.  0:
                                always the pool; else >= 20; default 500 */
    int check_finite;        /* check forces and matrices each step, default 1 */
    rs_allocator allocator;  /* {0}: calloc/free; contract in rs_alloc.h    */
} rs_park_opts;

void rs_park_opts_default(rs_park_opts *o);

typedef struct rs_park_stats {
    long steps;              /* steps completed                               */
    long solves;             /* Krylov solves (steps × corrections + inits)   */
    long krylov_iters;       /* Krylov iterations, total                      */
    int krylov_last;         /* iterations of the last step (all corrections) */
    int krylov_max;          /* most iterations of one solve                  */
    double relres_last;      /* relative residual of the last solve           */
    long plans;              /* balancing plans made (the first included)     */
    long serial_steps;       /* steps run on the caller alone (all of them
                                with one thread; the probe's and those
                                it found faster that way with more)           */
    long again;              /* solves repeated because a block changed its
                                forces after a solve (rs_park_after_fn)       */
} rs_park_stats;

/* Copies sys's arrays it needs (names are borrowed: they must outlive the
 * integrator), creates the pool and the first (static) plan.  RS_OK,
 * RS_E_ARG (message says which block, link or option), RS_E_NOMEM. */
int rs_park_create(rs_park **pk, const rs_park_sys *sys, const rs_park_opts *opts, char *err, size_t errlen);
void rs_park_free(rs_park **pk);
/* The blocks' after-solve function (NULL: none, the default), with sys's ctx. */
void rs_park_set_after_fn(rs_park *pk, rs_park_after_fn fn);

int rs_park_n(const rs_park *pk);                 /* total coordinates     */
int rs_park_offset(const rs_park *pk, int block); /* first coordinate of a block */
int rs_park_threads(const rs_park *pk);
double rs_park_h(const rs_park *pk);

/* The current state: q, q̇ (write them, then rs_park_init), q̈ (from the
 * last init or step), t. */
double *rs_park_q(rs_park *pk);
double *rs_park_qd(rs_park *pk);
const double *rs_park_qdd(const rs_park *pk);
double rs_park_t(const rs_park *pk);
void rs_park_set_t(rs_park *pk, double t);

/* Starts (or restarts) the integration from the current t, q, q̇: q̈ from
 * M q̈ = F (links included), history cleared (next step: backward Euler).
 * Allocation-free. */
int rs_park_init(rs_park *pk);

/* One step of h.  Allocation-free. */
int rs_park_step(rs_park *pk);

/* Force a new plan from the costs measured so far (none: static estimate). */
void rs_park_replan(rs_park *pk);
/* The thread the current plan gives a block / a link. */
int rs_park_block_thread(const rs_park *pk, int block);
int rs_park_link_thread(const rs_park *pk, int link);

const rs_park_stats *rs_park_get_stats(const rs_park *pk);

/* The linear system (M' − ΔJ) δq = Q of the last corrector solve (after
 * rs_park_step or rs_park_init): A (diagonal blocks M'_i, off-diagonal link
 * pieces), the right-hand side Q and the Krylov solution δq (rs_park_n
 * values each).  Valid until the next step; for checks against a direct
 * solver (tests/physics/test_train_contact.c).  Any pointer may be NULL. */
void rs_park_last_system(const rs_park *pk, const rs_block_matrix **A, const double **rhs, const double **x);
const char *rs_park_error(const rs_park *pk);

#endif /* RS_PARK_H */
