/*
 * rs_lu_fixed.c — sparse LU in a pivot order fixed at set-up (see
 * rs_lu_fixed.h).  Left-looking, column by column of B = A(prow, pcol):
 *
 *   x = B(:, j);  for k in U(:, j), increasing:  x(L(:, k)) −= L(:, k)·x(k)
 *   U(:, j) = x(rows < j),  d = x(j),  L(:, j) = x(rows > j) / d
 *
 * With the pattern closed under this fill (the symbolic pass), increasing k
 * is a valid order of the updates, so no depth-first search is needed per
 * column as in a pivoting code, and the dense work column x is cleared by the
 * gathers themselves.
 *
 * The saddle-point systems of the step fill a trailing block completely
 * (amd_schur on the FEVE 3000: the last 24 of 38 pivots, 70 % of the
 * flops).  There, indexed updates cost about seven instructions a
 * multiply-add; each column of the block is therefore gathered into a dense
 * column-major array after the sparse columns' updates and finished there
 * by contiguous axpys with the block's earlier columns, two at a time (one
 * load and store of the column per pair), which the compiler turns into
 * paired SIMD operations: under three instructions a multiply-add.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "rs_lu_fixed.h"
#include "rs_status.h"

void rs_lu_fixed_free(rs_lu_fixed *F)
{
    /* never set up (zeroed): every pointer is NULL, rs_free skips them */
    const rs_allocator *a = &F->alloc;
    rs_free(a, F->prow);
    rs_free(a, F->pcol);
    rs_free(a, F->Bp);
    rs_free(a, F->Bi);
    rs_free(a, F->Bsrc);
    rs_free(a, F->Lp);
    rs_free(a, F->Li);
    rs_free(a, F->Up);
    rs_free(a, F->Ui);
    rs_free(a, F->Lx);
    rs_free(a, F->Ux);
    rs_free(a, F->T);
    rs_free(a, F->Dinv);
    rs_free(a, F->ref);
    rs_free(a, F->x);
    rs_free(a, F->y);
    memset(F, 0, sizeof *F);
}

/* y[0..len) −= u·a[0..len), four at a time: without aliasing (restrict)
 * gcc -O2 pairs them into SIMD operations (same rounding as one by one). */
static inline void axpy_neg(double *restrict y, const double *restrict a, double u, int len)
{
    int i = 0;
    for (; i + 4 <= len; i += 4) {
        y[i] -= a[i] * u;
        y[i + 1] -= a[i + 1] * u;
        y[i + 2] -= a[i + 2] * u;
        y[i + 3] -= a[i + 3] * u;
    }
    for (; i < len; i++)
        y[i] -= a[i] * u;
}

/* y −= u0·a + u1·b: two updates of one column at once, so y is loaded and
 * stored once per pair (four rows at a time, paired the same way). */
static inline void axpy2_neg(double *restrict y, const double *restrict a, const double *restrict b,
                             double u0, double u1, int len)
{
    int i = 0;
    for (; i + 4 <= len; i += 4) {
        y[i] -= a[i] * u0 + b[i] * u1;
        y[i + 1] -= a[i + 1] * u0 + b[i + 1] * u1;
        y[i + 2] -= a[i + 2] * u0 + b[i + 2] * u1;
        y[i + 3] -= a[i + 3] * u0 + b[i + 3] * u1;
    }
    for (; i < len; i++)
        y[i] -= a[i] * u0 + b[i] * u1;
}

/* The first pivot of the trailing block where L + U is full: column t
 * qualifies when L(:, t) is every row below t and U(t, j) exists for every
 * j > t (the last j − t rows of U(:, j), sorted and distinct, then start at
 * t). */
static int dense_start(const rs_lu_fixed *F)
{
    const int n = F->n;
    int s = n - 1;
    while (s > 0) {
        const int t = s - 1;
        if (F->Lp[t + 1] - F->Lp[t] != n - 1 - t)
            break;
        int full = 1;
        for (int j = t + 1; j < n && full; j++) {
            const int cnt = F->Up[j + 1] - F->Up[j];
            full = cnt >= j - t && F->Ui[F->Up[j + 1] - (j - t)] == t;
        }
        if (!full)
            break;
        s = t;
    }
    return s;
}

/* inv[p[k]] = k; 0 when p is a permutation of 0..n-1, else -1. */
static int invert(const int *p, int n, int *inv)
{
    for (int i = 0; i < n; i++)
        inv[i] = -1;
    for (int k = 0; k < n; k++) {
        if (p[k] < 0 || p[k] >= n || inv[p[k]] >= 0)
            return -1;
        inv[p[k]] = k;
    }
    return 0;
}

/* Marks (mark[i] = j) the rows of column j of L + U: B's column, the
 * diagonal, and the fill brought by each U(k, j), k increasing (L(:, k) is
 * final for k < j).  Returns the number of U entries and, when Ui is not
 * NULL, writes their rows there in increasing order. */
static int mark_column(const rs_lu_fixed *F, int j, const int *Lp, const int *Li, int *mark,
                       int *Ui)
{
    for (int p = F->Bp[j]; p < F->Bp[j + 1]; p++)
        mark[F->Bi[p]] = j;
    mark[j] = j;
    int nu = 0;
    for (int k = 0; k < j; k++) {
        if (mark[k] != j)
            continue;
        if (Ui)
            Ui[nu] = k;
        nu++;
        for (int q = Lp[k]; q < Lp[k + 1]; q++)
            mark[Li[q]] = j;
    }
    return nu;
}

int rs_lu_fixed_create(rs_lu_fixed *F, int n, const int *Ap, const int *Ai, const int *prow,
                       const int *pcol, const rs_allocator *a)
{
    memset(F, 0, sizeof *F);
    if (n < 1 || n > RS_LU_FIXED_MAX_N)
        return RS_E_ARG;
    F->n = n;
    F->alloc = *a;
    const int nnz = Ap[n];
    const size_t lcap = (size_t)n * (size_t)(n - 1) / 2 + 1;
    int *pinv = rs_alloc(a, (size_t)n, sizeof(int));
    int *mark = rs_alloc(a, (size_t)n, sizeof(int));
    int *Ltmp = rs_alloc(a, lcap, sizeof(int));
    F->prow = rs_alloc(a, (size_t)n, sizeof(int));
    F->pcol = rs_alloc(a, (size_t)n, sizeof(int));
    F->Bp = rs_alloc(a, (size_t)n + 1, sizeof(int));
    F->Bi = rs_alloc(a, (size_t)nnz, sizeof(int));
    F->Bsrc = rs_alloc(a, (size_t)nnz, sizeof(int));
    F->Lp = rs_alloc(a, (size_t)n + 1, sizeof(int));
    F->Up = rs_alloc(a, (size_t)n + 1, sizeof(int));
    F->Dinv = rs_alloc(a, (size_t)n, sizeof(double));
    F->ref = rs_alloc(a, (size_t)n, sizeof(double));
    F->x = rs_alloc(a, (size_t)n, sizeof(double));
    F->y = rs_alloc(a, (size_t)n, sizeof(double));
    int st = RS_E_NOMEM;
    if (!pinv || !mark || !Ltmp || !F->prow || !F->pcol || !F->Bp || !F->Bi || !F->Bsrc ||
        !F->Lp || !F->Up || !F->Dinv || !F->ref || !F->x || !F->y)
        goto fail;
    st = RS_E_ARG;
    if (invert(pcol, n, pinv) || invert(prow, n, pinv))
        goto fail; /* pinv ends as prow's inverse: A's row -> pivot number */
    memcpy(F->prow, prow, (size_t)n * sizeof(int));
    memcpy(F->pcol, pcol, (size_t)n * sizeof(int));

    /* B = A(prow, pcol), columns in pivot numbering */
    int p = 0;
    for (int j = 0; j < n; j++) {
        F->Bp[j] = p;
        for (int q = Ap[pcol[j]]; q < Ap[pcol[j] + 1]; q++) {
            F->Bi[p] = pinv[Ai[q]];
            F->Bsrc[p++] = q;
        }
    }
    F->Bp[n] = p;

    /* Symbolic pass: L's rows column by column (into Ltmp: at most n(n-1)/2
     * entries below the diagonal), U's counts. */
    for (int i = 0; i < n; i++)
        mark[i] = -1;
    int lnz = 0, unz = 0;
    long flops = 0;
    for (int j = 0; j < n; j++) {
        F->Up[j] = unz;
        unz += mark_column(F, j, F->Lp, Ltmp, mark, NULL);
        F->Lp[j] = lnz;
        for (int i = j + 1; i < n; i++)
            if (mark[i] == j)
                Ltmp[lnz++] = i;
        F->Lp[j + 1] = lnz; /* read by mark_column of later columns */
    }
    F->Up[n] = unz;
    F->Li = rs_alloc(a, (size_t)lnz, sizeof(int));
    F->Lx = rs_alloc(a, (size_t)lnz, sizeof(double));
    F->Ui = rs_alloc(a, (size_t)unz, sizeof(int));
    F->Ux = rs_alloc(a, (size_t)unz, sizeof(double));
    st = RS_E_NOMEM;
    if (!F->Li || !F->Lx || !F->Ui || !F->Ux)
        goto fail;
    memcpy(F->Li, Ltmp, (size_t)lnz * sizeof(int));
    for (int i = 0; i < n; i++)
        mark[i] = -1;
    for (int j = 0; j < n; j++) {
        mark_column(F, j, F->Lp, F->Li, mark, F->Ui + F->Up[j]);
        for (int q = F->Up[j]; q < F->Up[j + 1]; q++) {
            const int k = F->Ui[q];
            flops += 2L * (F->Lp[k + 1] - F->Lp[k]);
        }
        flops += F->Lp[j + 1] - F->Lp[j];
    }
    F->flops = flops;
    /* From pivot s on, T holds L and U: keep only the U rows < s of those
     * columns (a prefix: rows are sorted) and no L list. */
    const int s0 = F->s = dense_start(F);
    F->m = n - s0;
    int w = F->Up[s0];
    for (int j = s0; j < n; j++) {
        const int beg = F->Up[j], end = F->Up[j + 1];
        F->Up[j] = w;
        for (int q = beg; q < end && F->Ui[q] < s0; q++)
            F->Ui[w++] = F->Ui[q];
    }
    F->Up[n] = w;
    for (int j = s0 + 1; j <= n; j++)
        F->Lp[j] = F->Lp[s0];
    F->T = rs_alloc(a, (size_t)F->m * (size_t)F->m, sizeof(double));
    if (!F->T)
        goto fail;
    memset(F->x, 0, (size_t)n * sizeof(double));
    rs_free(a, pinv);
    rs_free(a, mark);
    rs_free(a, Ltmp);
    return RS_OK;
fail:
    rs_free(a, pinv);
    rs_free(a, mark);
    rs_free(a, Ltmp);
    rs_lu_fixed_free(F);
    return st;
}

int rs_lu_fixed_nnz(const rs_lu_fixed *F)
{
    return F->Lp[F->n] + F->Up[F->n] + F->m * F->m + F->s;
}

/* The smallest pivot magnitude (and its 1-based column) and the largest,
 * for the reciprocal condition estimate. */
static inline void note_pivot(double ad, int j, double *dmin, int *bad_min, double *dmax)
{
    if (ad < *dmin) {
        *dmin = ad;
        *bad_min = j + 1;
    }
    if (ad > *dmax)
        *dmax = ad;
}

/* The pivot check of rs_lu_fixed_factor for pivot j; 1 if it passes. */
static inline int pivot_ok(const rs_lu_fixed *F, int j, double ad, int check_ref, double drop)
{
    return ad > 0 && ad <= DBL_MAX && (!check_ref || ad >= drop * F->ref[j]);
}

int rs_lu_fixed_factor(rs_lu_fixed *F, const double *Ax, double drop, double rcond_min,
                       int set_ref, double *rcond)
{
    const int n = F->n, s = F->s, m = F->m;
    const int *Bp = F->Bp, *Bi = F->Bi, *Bsrc = F->Bsrc;
    const int *Lp = F->Lp, *Li = F->Li, *Up = F->Up, *Ui = F->Ui;
    double *Lx = F->Lx, *Ux = F->Ux, *x = F->x, *T = F->T;
    const int check_ref = F->has_ref && drop > 0;
    double dmin = DBL_MAX, dmax = 0;
    int bad_min = 0;
    for (int j = 0; j < n; j++) {
        for (int p = Bp[j]; p < Bp[j + 1]; p++)
            x[Bi[p]] = Ax[Bsrc[p]];
        for (int p = Up[j]; p < Up[j + 1]; p++) {
            const int k = Ui[p];
            const double u = x[k];
            x[k] = 0;
            Ux[p] = u;
            for (int q = Lp[k]; q < Lp[k + 1]; q++)
                x[Li[q]] -= Lx[q] * u;
        }
        if (j >= s) { /* the rest of this column is the dense block's */
            const int jl = j - s;
            double *tj = T + (size_t)jl * (size_t)m;
            for (int i = s; i < n; i++) {
                tj[i - s] = x[i];
                x[i] = 0;
            }
            /* left-looking in the block: U(k, j) = tj[k] is final once the
             * block's columns before k have updated it */
            int k = 0;
            for (; k + 2 <= jl; k += 2) {
                const double *l0 = T + (size_t)k * (size_t)m, *l1 = l0 + m;
                tj[k + 1] -= l0[k + 1] * tj[k];
                axpy2_neg(tj + k + 2, l0 + k + 2, l1 + k + 2, tj[k], tj[k + 1], m - k - 2);
            }
            if (k < jl)
                axpy_neg(tj + k + 1, T + (size_t)k * (size_t)m + k + 1, tj[k], m - k - 1);
            const double d = tj[jl], ad = fabs(d);
            if (!pivot_ok(F, j, ad, check_ref, drop)) {
                *rcond = 0;
                return j + 1;
            }
            note_pivot(ad, j, &dmin, &bad_min, &dmax);
            const double inv = 1.0 / d;
            F->Dinv[j] = inv;
            for (int i = jl + 1; i < m; i++)
                tj[i] *= inv;
            continue;
        }
        const double d = x[j], ad = fabs(d);
        x[j] = 0;
        /* a zero, non-finite, or collapsed pivot: the order no longer suits
         * the values (NaN fails every comparison) */
        if (!pivot_ok(F, j, ad, check_ref, drop)) {
            memset(x, 0, (size_t)n * sizeof(double)); /* L(:, j) not gathered */
            *rcond = 0;
            return j + 1;
        }
        note_pivot(ad, j, &dmin, &bad_min, &dmax);
        const double inv = 1.0 / d;
        F->Dinv[j] = inv;
        for (int q = Lp[j]; q < Lp[j + 1]; q++) {
            Lx[q] = x[Li[q]] * inv;
            x[Li[q]] = 0;
        }
    }
    *rcond = dmin / dmax;
    if (!(*rcond >= rcond_min))
        return bad_min;
    if (set_ref) {
        for (int j = 0; j < n; j++)
            F->ref[j] = 1.0 / fabs(F->Dinv[j]);
        F->has_ref = 1;
    }
    return 0;
}

void rs_lu_fixed_solve(rs_lu_fixed *F, double *b)
{
    const int n = F->n, s = F->s, m = F->m;
    const int *Lp = F->Lp, *Li = F->Li, *Up = F->Up, *Ui = F->Ui;
    const double *Lx = F->Lx, *Ux = F->Ux, *Dinv = F->Dinv, *T = F->T;
    double *y = F->y, *ys = F->y + s;
    for (int k = 0; k < n; k++)
        y[k] = b[F->prow[k]];
    for (int j = 0; j < s; j++) { /* L y = P b, L unit lower */
        const double yj = y[j];
        for (int q = Lp[j]; q < Lp[j + 1]; q++)
            y[Li[q]] -= Lx[q] * yj;
    }
    for (int k = 0; k < m; k++)
        axpy_neg(ys + k + 1, T + (size_t)k * (size_t)m + k + 1, ys[k], m - k - 1);
    for (int k = m - 1; k >= 0; k--) { /* U z = y */
        const double z = ys[k] * Dinv[s + k];
        ys[k] = z;
        axpy_neg(ys, T + (size_t)k * (size_t)m, z, k);
        for (int p = Up[s + k]; p < Up[s + k + 1]; p++)
            y[Ui[p]] -= Ux[p] * z;
    }
    for (int j = s - 1; j >= 0; j--) {
        const double z = y[j] * Dinv[j];
        y[j] = z;
        for (int p = Up[j]; p < Up[j + 1]; p++)
            y[Ui[p]] -= Ux[p] * z;
    }
    for (int k = 0; k < n; k++)
        b[F->pcol[k]] = y[k];
}
