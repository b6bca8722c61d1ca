/*
 * rs_linear_lapack.h — the few LAPACK routines the linear analysis uses,
 * through LAPACK's Fortran interface (Debian: liblapack-dev; no LAPACKE,
 * so no extra package).  Arrays are column-major; the trailing size_t
 * arguments are the hidden lengths gfortran passes for CHARACTER
 * arguments (each 1).
 */
#ifndef RS_LINEAR_LAPACK_H
#define RS_LINEAR_LAPACK_H

#include <stddef.h>

/* A X = B by LU with partial pivoting (B n × nrhs becomes X). */
void dgesv_(const int *n, const int *nrhs, double *a, const int *lda, int *ipiv, double *b, const int *ldb,
            int *info);
/* Singular value decomposition A = U Σ Vᵀ (m × n). */
void dgesvd_(const char *jobu, const char *jobvt, const int *m, const int *n, double *a, const int *lda,
             double *s, double *u, const int *ldu, double *vt, const int *ldvt, double *work, const int *lwork,
             int *info, size_t ljobu, size_t ljobvt);
/* Eigenvalues (wr + i wi) and right eigenvectors of a general matrix. */
void dgeev_(const char *jobvl, const char *jobvr, const int *n, double *a, const int *lda, double *wr,
            double *wi, double *vl, const int *ldvl, double *vr, const int *ldvr, double *work,
            const int *lwork, int *info, size_t ljobvl, size_t ljobvr);

/* The same for a complex A and B (interleaved re, im: C's double _Complex
 * has Fortran's COMPLEX*16 layout). */
void zgesv_(const int *n, const int *nrhs, double _Complex *a, const int *lda, int *ipiv, double _Complex *b,
            const int *ldb, int *info);

#endif /* RS_LINEAR_LAPACK_H */
