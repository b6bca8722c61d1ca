/*
 * rs_band.h — Cholesky factorization of a symmetric positive definite band
 * matrix: the direct reference solver of the artificial-dynamics chain
 * (rs_chain.h), O(n kd²) work, no pivoting (SPD needs none).
 *
 * Storage: lower band by rows, L[i*(kd+1) + (i-j)] holds entry (i, j) for
 * max(0, i-kd) <= j <= i.  The factor overwrites it in place.
 */
#ifndef RS_BAND_H
#define RS_BAND_H

/* In-place A = L Lᵀ.  RS_OK, or RS_E_SINGULAR when a pivot is not positive
 * (*bad: its row; bad may be NULL). */
int rs_band_chol(double *L, int n, int kd, int *bad);

/* Solves L Lᵀ x = b in place (b becomes x). */
void rs_band_chol_solve(const double *L, int n, int kd, double *b);

#endif /* RS_BAND_H */
