/*
 * rs_artificial.h — seed 002's method (a), artificial dynamics, for the
 * train step's block system (M' − ΔJ) δq = Q (rs_park.h, rs_krylov.h):
 * `solver artificial` in train files (docs/massive.md "Trains").
 *
 * The linear system A x = b is the steady state of D ẋ + A x = b, with D
 * the block diagonal of A (one dense block per vehicle: its M + βC + β²K
 * and its couplers' diagonal parts, factored once per step by rs_park for
 * every solver).  Explicit Euler with pseudo-step 1 integrates it:
 *
 *   x ← x + D⁻¹ (b − A x)
 *
 * Why this system and not its Schur complement on the coupler forces (the
 * seed's A = J M⁻¹ Jᵀ): D is the block diagonal the step already factors,
 * any vehicle (built-in or compiled, Cholesky or LU blocks) and any link
 * shape fit it, and each update reads only the port values of the
 * neighbours a coupler joins.  The Schur form would need each coupler's
 * Jacobian to be rank one and a second factorization per vehicle.
 *
 * Convergence: the error contracts by ρ = max |1 − λ| over the eigenvalues
 * λ of D⁻¹A.  For a symmetric train (wagons, couplers) A and D are
 * positive definite and so is 2D − A (a coupler's Jacobian c g gᵀ with
 * g = (g_a; g_b) enters 2D − A as c (g_a; −g_b)(g_a; −g_b)ᵀ), so every λ
 * lies in (0, 2) and the iteration converges for any step and stiffness;
 * a train is a path of vehicles (a two-coloured graph), so the λ lie in
 * pairs 1 ± μ and pseudo-step 1 is the best one.  Non-symmetric trains
 * (creep, compiled vehicles) have no such guarantee: the iteration is
 * stopped at `maxiter`, or as soon as the residual exceeds 1e6 ‖b‖, with
 * RS_E_NOCONV.
 *
 * Warm start: each solve starts from the last solve's solution when its
 * residual is smaller than ‖b‖ (the residual of x = 0), else from 0 (both
 * candidates' first updates are made in the first pass, so the choice costs
 * no extra barrier).
 *
 * Stopping: ‖b − A x‖₂ <= tol ‖b‖₂ (the Krylov solvers' test), the
 * residual computed from x itself, never updated recursively.
 *
 * Threads and determinism: called by every thread of a team (rs_krylov.h's
 * rs_team: each thread owns the blocks of its list, the plan's chunks of
 * consecutive vehicles).  One barrier per iteration; each block's update
 * reads its neighbours' values of the last iterate only (two buffers).  The
 * one reduction, ‖r‖², is summed per block and then in block order by every
 * thread, so 1, 2 or N threads give bit-identical iterates, decisions and
 * iteration counts.  Nothing allocates after rs_artificial_create.
 */
#ifndef RS_ARTIFICIAL_H
#define RS_ARTIFICIAL_H

#include <stddef.h>

#include "rs_krylov.h"

typedef struct rs_artificial rs_artificial;

/* Work space for systems shaped like A.  alloc NULL: calloc/free.
 * RS_OK, RS_E_ARG, RS_E_NOMEM. */
int rs_artificial_create(rs_artificial **ar, const rs_block_matrix *A, const rs_allocator *alloc, char *err,
                         size_t errlen);
void rs_artificial_free(rs_artificial **ar);

/* The next solve starts from 0 (forgets the warm start). */
void rs_artificial_forget(rs_artificial *ar);

/* Solves A x = b with D⁻¹ from kr (every block factored by
 * rs_krylov_factor_block, then a barrier).  Called by every thread of
 * team; returns the same status on each: RS_OK, RS_E_NOCONV (maxiter
 * reached or diverging: res->relres says which), RS_E_NONFINITE.  The
 * result (method RS_KRYLOV_ARTIFICIAL; iterations: updates of x) in *res
 * when res != NULL.  Ends with a barrier; x is the last iterate on
 * failure. */
int rs_artificial_solve(rs_artificial *ar, const rs_krylov *kr, const rs_block_matrix *A, const double *b, double *x,
                        double tol, int maxiter, const rs_team *team, int thread, rs_krylov_result *res);

/* The last solve started warm (1) or from 0 (0). */
int rs_artificial_warm(const rs_artificial *ar);

#endif /* RS_ARTIFICIAL_H */
