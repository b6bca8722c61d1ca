/*
 * rs_lu_fixed.h — private: a sparse LU with a pivot order fixed at set-up,
 * for systems whose pattern never changes and whose pivots need no search
 * (RS_FAST_LU_FIXED; docs/runtime.md "Fixed-order LU").
 *
 * Given the pattern of A (CSC) and a pivot order — prow[k], pcol[k]: the row
 * and column of A eliminated k-th, e.g. the order of a KLU factorization —
 * set-up computes the pattern of the L and U factors of B = A(prow, pcol)
 * and flat index arrays for the numeric factorization and the triangular
 * solves.  A factorization then runs these loops over precomputed indices:
 * no search, no pivoting, no scaling, no allocation.
 *
 * Without pivoting a pivot may be tiny for some values; rs_lu_fixed_factor
 * checks every pivot and says when the caller must pivot afresh (KLU's full
 * factorization, rs_klu.c).  The rule is stated there.
 *
 * KLU-free on purpose: rs_klu.c remains the only file that calls KLU.
 */
#ifndef RS_LU_FIXED_H
#define RS_LU_FIXED_H

#include "rs_alloc.h"

/* Largest order set up (the symbolic pass keeps an n(n-1)/2 bound of L's
 * entries during set-up); larger systems stay with KLU. */
#define RS_LU_FIXED_MAX_N 2048

typedef struct rs_lu_fixed {
    int n;
    int *prow, *pcol;        /* pivot order, n each                          */
    /* B's columns in pivot numbering: column j scatters Ax[Bsrc[p]] to row
     * Bi[p], p in [Bp[j], Bp[j+1])                                         */
    int *Bp, *Bi, *Bsrc;
    /* L (unit diagonal, rows > j) and U (rows < j, increasing) by column;
     * columns j >= s keep only their U rows < s here, the rest is in T    */
    int *Lp, *Li, *Up, *Ui;
    double *Lx, *Ux;
    /* The trailing block from pivot s on, where L + U is full (the Schur
     * complement of the multipliers and the coordinates it fills): m × m,
     * column-major, L strictly below and U on and above its diagonal,
     * factored by dense loops over contiguous columns                      */
    int s, m;
    double *T;
    double *Dinv;            /* 1 / U's diagonal                             */
    double *ref;             /* |pivot| at the reference factorization      */
    double *x;               /* dense work column, n, zero between uses     */
    double *y;               /* solve's work vector, n                      */
    int has_ref;
    long flops;              /* multiply-adds ×2 + divisions of one factor  */
    rs_allocator alloc;      /* what set it up (to release it)              */
} rs_lu_fixed;

/* Sets F up for the n × n pattern (Ap, Ai) and the pivot order (prow, pcol,
 * each a permutation of 0..n-1).  The diagonal of B is kept in the pattern
 * even where A has no entry.  Allocates through `a`.  Returns RS_OK, RS_E_ARG
 * (not permutations, n out of range) or RS_E_NOMEM (nothing kept). */
int rs_lu_fixed_create(rs_lu_fixed *F, int n, const int *Ap, const int *Ai, const int *prow,
                       const int *pcol, const rs_allocator *a);
void rs_lu_fixed_free(rs_lu_fixed *F);

/* Factors A (values Ax in the pattern given to create) in the fixed order.
 * Returns 0 when every pivot passes the check, else the 1-based number of the
 * first pivot that failed (the factors are then unusable).  A pivot passes
 * when it is finite and non-zero, and — once a reference exists — its
 * magnitude is at least `drop` times its magnitude at the reference
 * factorization; the smallest over the largest |pivot| (*rcond, KLU's crude
 * estimate, unscaled) must also be at least rcond_min.  set_ref: make this
 * factorization the reference (only when it passes). */
int rs_lu_fixed_factor(rs_lu_fixed *F, const double *Ax, double drop, double rcond_min,
                       int set_ref, double *rcond);

/* Solves A x = b in place with the last factorization that passed. */
void rs_lu_fixed_solve(rs_lu_fixed *F, double *b);

/* Entries of L + U (diagonal once). */
int rs_lu_fixed_nnz(const rs_lu_fixed *F);

#endif /* RS_LU_FIXED_H */
