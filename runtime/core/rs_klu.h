/*
 * rs_klu.h — private shim between the runtime and SuiteSparse KLU.
 *
 * Every system the runtime solves has the block form
 *
 *     S = [ A          s·φ_qᵀ ]      A = M (+ Δt·C later), or the identity
 *         [ φ_q        0      ]      s = Δt (IMEX) or 1 (RK4, projections)
 *
 * of order n = n_q + n_phi.  Its pattern is the union of M's pattern, the
 * diagonal of the A block, and φ_q's pattern placed twice; it is built once
 * per workspace with index maps from each model output into S's values, so a
 * step only scatters values and calls klu_refactor.  One KLU Symbolic object
 * (klu_analyze, once) serves several Numeric objects (one per kind of
 * matrix, so each keeps the pivot order that suits it).
 *
 * KLU's integer type is int (SuiteSparse 5.12, klu_* not klu_l_*).
 */
#ifndef RS_KLU_H
#define RS_KLU_H

#include <suitesparse/klu.h>
#include "rs_alloc.h"
#include "rs_lu_fixed.h"
#include "rs_model.h"
#include "rs_options.h"
#include "rs_stats.h"

/* The contributors of extra terms to the A block (rs_klu_system_build's
 * `extra`): each brings its own n_q × n_q pattern, the block's pattern is
 * their union with M's and the diagonal, and each adds its values through
 * its own map (rs_klu_system_add_extra), so one does not need to know the
 * others.  The contact (its C^K_qq, or the elastic contact's terms) comes
 * first: a model without plugins builds the same matrix as with the
 * contact alone. */
enum {
    RS_KLU_EXTRA_CONTACT = 0,  /* rs_contact_ops.ck_pattern                */
    RS_KLU_EXTRA_PLUGIN_K,     /* the plugins' stiffness: the model's K_pattern */
    RS_KLU_EXTRA_PLUGIN_C,     /* their damping: C_pattern                  */
    RS_KLU_EXTRA_PARTS
};

typedef struct rs_klu_system {
    int n, n_q, n_phi, nnz;
    int *Ap, *Ai;          /* CSC pattern of S, n+1 and nnz entries        */
    double *Ax;            /* values, nnz                                  */
    int *map_M;            /* M value k      -> position in Ax             */
    int *map_diag;         /* A(j,j)         -> position in Ax, n_q        */
    int *map_G;            /* φ_q value k    -> position of (n_q+i, j)     */
    int *map_GT;           /* φ_q value k    -> position of (j, n_q+i)     */
    int *map_X;            /* the extra parts' maps, one after the other
                              (one allocation)                            */
    const int *map_part[RS_KLU_EXTRA_PARTS]; /* part c's value k -> position
                              in Ax: map_part[c][k] (rs_klu_system_build)  */
    int nnz_X[RS_KLU_EXTRA_PARTS]; /* part c's entries (0: no such part)  */
    int nnz_M, nnz_G;
    klu_common common;
    klu_symbolic *sym;
    int ordering, btf;     /* of sym: RS_KLU_AMD/COLAMD/NATURAL/AMD_SCHUR/TREE,
                              BTF 0/1                                      */
    int *perm_schur;       /* RS_KLU_AMD_SCHUR's order: AMD of the A block's
                              pattern, then the multipliers n_q..n-1       */
    int *perm_tree;        /* RS_KLU_TREE's order (rs_klu.c tree_order)    */
    double *mob_w;         /* |M_jj| at the first fill with M (mob_set):
                              fragile_pivots' yardstick of mobility        */
    int mob_set;
    int *zero_pos;         /* A-block positions without an M entry (the
                              diagonal or the extra pattern's only)        */
    int n_zero;
    double rgrowth_drop;   /* refactor's rgrowth below rgrowth_drop × its
                              value at the last full factorization: factor
                              again (0: not checked)                       */
} rs_klu_system;

/* One numeric factorization of S's pattern. */
typedef struct rs_klu_factors {
    klu_numeric *num;      /* NULL until the first klu_factor              */
    double rcond_ref;      /* rcond right after the last full factorization */
    double rgrowth_ref;    /* rgrowth right after it (when checked)        */
    /* RS_FAST_LU_FIXED (rs_klu_fixed_enable): refactorizations by the
     * fixed-order LU in the pivot order of KLU's full factorization        */
    rs_lu_fixed fx;        /* set up when fx.n > 0                          */
    int fx_on;             /* refactor with fx (0 once KLU pivoted
                              differently after a fallback)                 */
    int fx_holds;          /* the current factors are fx's (solves use it) */
} rs_klu_factors;

/* Builds the pattern of S for `m` and analyzes it.  `extra` (NULL: none;
 * else RS_KLU_EXTRA_PARTS patterns, each NULL or n_q × n_q CSC with
 * increasing rows) are the extra terms' patterns merged into the A block
 * besides M and its diagonal — the wheel-rail creep matrix C^K_qq of A =
 * M + Δt C^K_qq (rs_contact.h), the plugins' K_p and C_p — so the pattern
 * stays fixed for the whole run.  Returns RS_OK, RS_E_NOMEM or RS_E_SOLVER
 * (message in err). */
int rs_klu_system_build(rs_klu_system *S, const rs_model *m,
                        const rs_pattern *const extra[RS_KLU_EXTRA_PARTS],
                        const rs_allocator *a, char *err, size_t errlen);
void rs_klu_system_free(rs_klu_system *S, const rs_allocator *a);

/* Analyzes S's pattern again with another ordering (RS_KLU_AMD, _COLAMD,
 * _NATURAL, _AMD_SCHUR, _TREE) and BTF on or off.  Numeric objects of the old analysis must be
 * freed first.  Returns RS_OK, RS_E_NOMEM or RS_E_SOLVER (S keeps its old
 * analysis on failure); RS_E_INTERNAL (RS_ASSERT) for an ordering out of
 * range, which the workspace's option check rules out. */
int rs_klu_system_analyze(rs_klu_system *S, int ordering, int btf);

/* Times every candidate ordering ({AMD, COLAMD, natural, AMD Schur, tree} × BTF
 * {off, on},
 * or those `btf` allows: -1 both, 0 off, 1 on) on S's pattern with
 * representative values: for each, analyze, factor Ax_dyn (and Ax_proj when
 * not NULL), then the fastest of `trials` rounds of refactor + solve of
 * each.  A candidate whose factorization fails or whose rcond is below
 * rcond_min is skipped.  Only the candidates with the fewest fragile pivots
 * (pivots that may vanish as the mechanism moves: off the diagonal, or a
 * multiplier's before all its constraint's coordinates; see rs_klu.c) stay
 * in; among them, the one with the fewest flops (KLU's count), then the
 * fewest LU entries, then BTF off, then the lowest ordering number — a
 * deterministic choice (the timings are recorded, they do not choose: the
 * same model and state always get the same ordering, hence bit-identical
 * results run to run).  Records everything in *info;
 * S ends analyzed with the choice.  Allocates (it runs at set-up).  Returns
 * RS_OK, RS_E_NOMEM, or RS_E_SINGULAR when no candidate factors. */
int rs_klu_system_choose(rs_klu_system *S, const double *Ax_dyn, const double *Ax_proj, int btf,
                   int trials, double rcond_min, const rs_allocator *a, rs_klu_info *info);

/* Scatters values into S: A = M (Mv != NULL) or I (Mv == NULL), lower-left
 * φ_q = Gv, upper-right gt_scale·φ_qᵀ. */
void rs_klu_system_fill(rs_klu_system *S, const double *Mv, const double *Gv, double gt_scale);

/* Adds scale·Xv (values in the order of build's extra[part]) to the A
 * block after rs_klu_system_fill.  No-op for a part built without one.
 * Inline: each caller names its part, a constant, so the step pays for the
 * parts no more than for one pattern (callgrind, docs/performance.md). */
static inline void rs_klu_system_add_extra(rs_klu_system *S, int part, const double *Xv, double scale)
{
    const int *map = S->map_part[part];
    double *Ax = S->Ax;
    for (int k = 0, n = S->nnz_X[part]; k < n; k++)
        Ax[map[k]] += scale * Xv[k];
}

/* Part `part`'s map: its value k -> position in S->Ax (nnz_X[part]
 * entries). */
const int *rs_klu_system_extra_map(const rs_klu_system *S, int part);

/* Refactors F with S's current values (klu_factor the first time, again when
 * refactorization fails, rcond drops below rcond_drop × its value at the
 * last full factorization, or the reciprocal pivot growth drops below
 * S->rgrowth_drop × its value then: the pivots no longer suit the values;
 * st->refactor_fallbacks counts those).  Returns RS_OK, RS_E_SINGULAR
 * (*bad_col: the column of S KLU found singular, or -1), RS_E_NOMEM or
 * RS_E_SOLVER. */
int rs_klu_factorize(rs_klu_system *S, rs_klu_factors *F, double rcond_min, double rcond_drop,
                   rs_stats *st, int *bad_col);

/* RS_FAST_LU_FIXED: right after a full factorization of F (S->Ax still
 * holding its values), sets up F's fixed-order LU in KLU's pivot order when
 * that order has no fragile pivot (see rs_klu_system_choose) and one block (no
 * BTF), and factors those values with it as the reference of its pivot
 * check.  From then on rs_klu_factorize refactors with it (no allocation) and
 * falls back to KLU's full factorization when a pivot fails the check
 * (rs_lu_fixed_factor with drop = rcond_drop): counted in
 * refactor_fallbacks as before; if KLU then keeps the same pivot order the
 * fixed LU takes the new values as its reference, otherwise it is switched
 * off for F (KLU refactors from then on).  Allocates (set-up only).  Does
 * nothing when F already has it or the order does not qualify.  Returns
 * RS_OK or RS_E_NOMEM. */
int rs_klu_fixed_enable(rs_klu_system *S, rs_klu_factors *F, double rcond_min, const rs_allocator *a);

/* Solves S x = b in place (b has n entries).  RS_E_SOLVER if KLU fails;
 * RS_E_INTERNAL (RS_ASSERT) if F holds no factorization. */
int rs_klu_solve(rs_klu_system *S, rs_klu_factors *F, double *b, rs_stats *st);

void rs_klu_factors_free(rs_klu_system *S, rs_klu_factors *F);

#endif /* RS_KLU_H */
