/*
 * rs_krylov.h — block-sparse systems of train shape and their preconditioned
 * Krylov solvers (seed 000, §2.2, eqs. 13-16), run by a team of threads.
 *
 * A train's Park system (M' − ΔJ) δq = Q has one dense diagonal block per
 * vehicle (M'_i: mass, the vehicle's own damping and stiffness, the diagonal
 * part of its couplers' Jacobians) and small off-diagonal pieces, one per
 * coupler and direction, that touch only the coupler's port coordinates.
 * rs_block_matrix stores exactly that:
 *
 *     (A x)_i = D_i x_i + Σ_{pieces k with row block i, in k order}
 *               scatter(rows_k) P_k gather(cols_k) x_{cb(k)}
 *
 * D_i: n_i × n_i, column-major.  P_k: nr × nc, column-major, rows_k local to
 * block rb(k), cols_k local to block cb(k) ≠ rb(k).
 *
 * The preconditioner is block-diagonal: each D_i factored densely
 * (Cholesky when the system is symmetric, LU with partial pivoting when it is
 * not — creep damping makes it so).  The solvers are PCG (symmetric),
 * right-preconditioned BiCGStab and right-preconditioned restarted GMRES(m)
 * (non-symmetric), started from x0 = D⁻¹ b, stopping when
 * ‖b − A x‖₂ ≤ tol ‖b‖₂ (PCG, BiCGStab: the recursively updated residual;
 * GMRES: the residual recomputed as b − A x at the end of each cycle).
 * GMRES orthogonalizes by classical Gram-Schmidt done twice (CGS2: two
 * block-ordered reductions of all j+1 products at once, not j+1 separate
 * ones), so an Arnoldi step costs four barriers; every thread holds its own
 * copy of the small Hessenberg least-squares problem and computes the same
 * bits from the same sums.
 *
 * Determinism: every reduction (dot product, norm) is summed per block into
 * an array, and every thread then adds that array in block order.  The
 * result does not depend on which thread owns which block: 1, 2 or N threads
 * give bit-identical iterates, iteration counts and solutions.
 *
 * Threads: rs_krylov_solve is called by every thread of a team at once
 * (inside one rs_pool_parallel section, say); each works on its own blocks
 * (team->list) and all meet at team->bar between phases: three barriers per
 * PCG iteration (PS5-PS7 of seed 000 §2.3), five per BiCGStab iteration,
 * four per GMRES Arnoldi step (plus two per restart).
 * All threads take the same decisions (they hold the same sums), so no
 * extra broadcast is needed.  With one thread the barriers are no-ops.
 *
 * Nothing here allocates after rs_block_matrix_create / rs_krylov_create.
 */
#ifndef RS_KRYLOV_H
#define RS_KRYLOV_H

#include <stddef.h>

#include "rs_barrier.h"
#include "rs_status.h"
#include "rs_ws.h"   /* rs_allocator */

/* A team: `threads` threads, each owning the blocks
 * list[start[t] .. start[t+1]) (a partition of 0..nb-1). */
typedef struct rs_team {
    int threads;
    rs_barrier *bar;        /* may be NULL when threads == 1 */
    const int *start;       /* threads + 1 */
    const int *list;        /* nb */
} rs_team;

/* ------------------------------------------------------------ dense blocks */

/* In-place Cholesky A = L Lᵀ of an n × n column-major SPD matrix (lower
 * triangle holds L; the upper is not read).  RS_OK, or RS_E_SINGULAR when a
 * pivot is not positive (*bad: its column).  */
int rs_dense_chol(double *A, int n, int *bad);
/* Solves L Lᵀ x = b in place. */
void rs_dense_chol_solve(const double *L, int n, double *b);

/* In-place LU with partial pivoting P A = L U (column-major; piv[k]: row
 * swapped with k at step k).  RS_OK, or RS_E_SINGULAR when a pivot is 0
 * (*bad: its column). */
int rs_dense_lu(double *A, int n, int *piv, int *bad);
void rs_dense_lu_solve(const double *LU, int n, const int *piv, double *b);

/* ------------------------------------------------------------ block-sparse */

typedef struct rs_block_matrix rs_block_matrix;

/* One off-diagonal piece: rows `ri[0..nr)` of block rb times columns
 * `ci[0..nc)` of block cb (local indices, rb != cb). */
typedef struct rs_block_matrix_piece_spec {
    int rb, cb, nr, nc;
    const int *ri, *ci;
} rs_block_matrix_piece_spec;

/* nb blocks of sizes bsize[0..nb), np pieces.  alloc NULL: calloc/free.
 * RS_OK, RS_E_ARG (message says which block or piece), RS_E_NOMEM. */
int rs_block_matrix_create(rs_block_matrix **A, int nb, const int *bsize, int np, const rs_block_matrix_piece_spec *pieces,
                  const rs_allocator *alloc, char *err, size_t errlen);
void rs_block_matrix_free(rs_block_matrix **A);

int rs_block_matrix_n(const rs_block_matrix *A);              /* total order */
int rs_block_matrix_nblocks(const rs_block_matrix *A);
int rs_block_matrix_npieces(const rs_block_matrix *A);
int rs_block_matrix_bsize(const rs_block_matrix *A, int b);
int rs_block_matrix_offset(const rs_block_matrix *A, int b);  /* first row of block b */
double *rs_block_matrix_diag(rs_block_matrix *A, int b);      /* D_b, n_b × n_b column-major */
const double *rs_block_matrix_diag_c(const rs_block_matrix *A, int b);
double *rs_block_matrix_piece(rs_block_matrix *A, int k);     /* P_k, nr × nc column-major */
const rs_block_matrix_piece_spec *rs_block_matrix_piece_spec_of(const rs_block_matrix *A, int k);

/* y_b = (A x)_b for block b (x, y: full vectors; only y_b is written). */
void rs_block_matrix_mul_block(const rs_block_matrix *A, int b, const double *x, double *y);
/* y = A x, all blocks (serial). */
void rs_block_matrix_mul(const rs_block_matrix *A, const double *x, double *y);

/* ------------------------------------------------------------ solver */

typedef enum rs_krylov_method {
    RS_KRYLOV_AUTO = 0,     /* PCG when symmetric, else BiCGStab */
    RS_KRYLOV_CG = 1,
    RS_KRYLOV_BICGSTAB = 2,
    RS_KRYLOV_GMRES = 3,    /* restarted GMRES(restart), right-preconditioned */
    RS_KRYLOV_ARTIFICIAL = 4   /* not a Krylov method: seed 002's artificial
                                  dynamics on the same factored blocks
                                  (rs_artificial.h), which rs_park runs in
                                  its place; rs_krylov_solve refuses it */
} rs_krylov_method;

/* Largest GMRES restart length (the Hessenberg matrix lives on each
 * thread's stack: (m+1) m doubles). */
#define RS_KRYLOV_MAX_RESTART 64

typedef struct rs_krylov_opts {
    rs_krylov_method method;
    double tol;             /* relative residual, default 1e-10 */
    int maxiter;            /* default 200 (GMRES: Arnoldi steps, all cycles) */
    int restart;            /* GMRES restart length m, 1..RS_KRYLOV_MAX_RESTART,
                               default 30; the work space holds m + 1 basis
                               vectors (fixed by rs_krylov_create) */
} rs_krylov_opts;

void rs_krylov_opts_default(rs_krylov_opts *o);

typedef struct rs_krylov_result {
    int status;             /* RS_OK, RS_E_NOCONV, RS_E_NONFINITE, RS_E_SOLVER (breakdown) */
    int iterations;         /* Krylov iterations (PCG: matrix products; BiCGStab: two
                               each; GMRES: Arnoldi steps, restarts not counted) */
    double relres;          /* ‖r‖ / ‖b‖ at the end */
    int method;             /* the method used (CG, BiCGSTAB or GMRES) */
    int restarts;           /* GMRES: cycles begun after the first (else 0) */
} rs_krylov_result;

typedef struct rs_krylov rs_krylov;

/* Work space for systems shaped like A (same blocks and pieces). */
int rs_krylov_create(rs_krylov **kr, const rs_block_matrix *A, const rs_krylov_opts *opts,
                     const rs_allocator *alloc, char *err, size_t errlen);
void rs_krylov_free(rs_krylov **kr);
void rs_krylov_set_opts(rs_krylov *kr, const rs_krylov_opts *opts);

/* Factors block b's D_b into the preconditioner: Cholesky when symmetric,
 * else LU.  Thread-safe for distinct b.  RS_OK or RS_E_SINGULAR (*bad_col
 * local column, may be NULL). */
int rs_krylov_factor_block(rs_krylov *kr, const rs_block_matrix *A, int b, int symmetric, int *bad_col);

/* Solves A x = rhs.  Called by every thread of `team` (thread = its index)
 * after the blocks are factored and a barrier has passed; returns the same
 * status on every thread, and the result in *res if res != NULL (each
 * thread may pass its own).  x need not be initialized.  Ends with a
 * barrier, so x is complete on return.  symmetric chooses PCG under
 * RS_KRYLOV_AUTO. */
int rs_krylov_solve(rs_krylov *kr, const rs_block_matrix *A, const double *rhs, double *x, int symmetric,
                    const rs_team *team, int thread, rs_krylov_result *res);

/* v_b ← D_b⁻¹ v_b with block b's factor (rs_krylov_factor_block): the
 * preconditioner, for a solver outside this file (rs_artificial.h). */
void rs_krylov_prec_block(const rs_krylov *kr, int b, double *v);

/* Serial convenience: factors every block and solves (one thread). */
int rs_krylov_solve_serial(rs_krylov *kr, const rs_block_matrix *A, const double *rhs, double *x, int symmetric,
                           rs_krylov_result *res);

#endif /* RS_KRYLOV_H */
