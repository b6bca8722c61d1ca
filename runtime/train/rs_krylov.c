/*
 * rs_krylov.c — see rs_krylov.h.
 *
 * Invariants:
 *   - every vector is split into blocks; a thread writes only the blocks it
 *     owns (team->list) and reads other blocks only after a barrier that
 *     follows their last write;
 *   - every scalar a decision depends on is a sum of per-block partials
 *     added in block order by every thread, so all threads hold the same
 *     bits and take the same branch;
 *   - partial-sum arrays are used in rotation so that no array is written
 *     while another thread may still be reading it (each is rewritten only
 *     two or more barriers after it was read).
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rs_error.h"
#include "rs_krylov.h"

/* ================================================================ dense */

int rs_dense_chol(double *A, int n, int *bad)
{
    for (int j = 0; j < n; j++) {
        double d = A[j + j * n];
        for (int k = 0; k < j; k++)
            d -= A[j + k * n] * A[j + k * n];
        if (!(d > 0.0)) {
            if (bad)
                *bad = j;
            return RS_E_SINGULAR;
        }
        d = sqrt(d);
        A[j + j * n] = d;
        for (int i = j + 1; i < n; i++) {
            double s = A[i + j * n];
            for (int k = 0; k < j; k++)
                s -= A[i + k * n] * A[j + k * n];
            A[i + j * n] = s / d;
        }
    }
    return RS_OK;
}

void rs_dense_chol_solve(const double *L, int n, double *b)
{
    for (int i = 0; i < n; i++) {          /* L y = b */
        double s = b[i];
        for (int k = 0; k < i; k++)
            s -= L[i + k * n] * b[k];
        b[i] = s / L[i + i * n];
    }
    for (int i = n - 1; i >= 0; i--) {     /* Lᵀ x = y */
        double s = b[i];
        for (int k = i + 1; k < n; k++)
            s -= L[k + i * n] * b[k];
        b[i] = s / L[i + i * n];
    }
}

int rs_dense_lu(double *A, int n, int *piv, int *bad)
{
    for (int k = 0; k < n; k++) {
        int p = k;
        double best = fabs(A[k + k * n]);
        for (int i = k + 1; i < n; i++)
            if (fabs(A[i + k * n]) > best) {
                best = fabs(A[i + k * n]);
                p = i;
            }
        piv[k] = p;
        if (!(best > 0.0)) {
            if (bad)
                *bad = k;
            return RS_E_SINGULAR;
        }
        if (p != k)
            for (int j = 0; j < n; j++) {
                const double t = A[k + j * n];
                A[k + j * n] = A[p + j * n];
                A[p + j * n] = t;
            }
        const double d = A[k + k * n];
        for (int i = k + 1; i < n; i++)
            A[i + k * n] /= d;
        for (int j = k + 1; j < n; j++) {
            const double akj = A[k + j * n];
            if (akj != 0.0)
                for (int i = k + 1; i < n; i++)
                    A[i + j * n] -= A[i + k * n] * akj;
        }
    }
    return RS_OK;
}

void rs_dense_lu_solve(const double *LU, int n, const int *piv, double *b)
{
    for (int k = 0; k < n; k++)
        if (piv[k] != k) {
            const double t = b[k];
            b[k] = b[piv[k]];
            b[piv[k]] = t;
        }
    for (int i = 0; i < n; i++) {          /* unit lower */
        double s = b[i];
        for (int k = 0; k < i; k++)
            s -= LU[i + k * n] * b[k];
        b[i] = s;
    }
    for (int i = n - 1; i >= 0; i--) {
        double s = b[i];
        for (int k = i + 1; k < n; k++)
            s -= LU[i + k * n] * b[k];
        b[i] = s / LU[i + i * n];
    }
}

/* ================================================================ memory */

/* ================================================================ bsm */

struct rs_block_matrix {
    rs_allocator alloc;
    int nb, np, n;
    int *off;            /* nb + 1: first row of each block        */
    int *doff;           /* nb + 1: first value of each D_b        */
    int *poff;           /* np + 1: first value of each P_k        */
    rs_block_matrix_piece_spec *ps;   /* np, ri/ci pointing into idx         */
    int *idx;            /* row and column index lists of pieces   */
    int *row_start;      /* nb + 1 */
    int *row_piece;      /* np: pieces by row block, in k order     */
    double *val;         /* diagonal blocks, then pieces           */
};

int rs_block_matrix_create(rs_block_matrix **out, int nb, const int *bsize, int np, const rs_block_matrix_piece_spec *pieces,
                  const rs_allocator *alloc, char *err, size_t errlen)
{
    if (out)
        *out = NULL;
    if (!out || nb < 1 || !bsize || np < 0 || (np > 0 && !pieces))
        return rs_fail(err, errlen, RS_E_ARG,
                       "rs_block_matrix_create: need nb >= 1 blocks with sizes and np >= 0 pieces");
    for (int b = 0; b < nb; b++)
        if (bsize[b] < 1 || bsize[b] > 100000)
            return rs_fail(err, errlen, RS_E_ARG,
                           "rs_block_matrix_create: block %d has size %d (must be 1..100000)", b, bsize[b]);
    size_t nidx = 0;
    for (int k = 0; k < np; k++) {
        const rs_block_matrix_piece_spec *p = &pieces[k];
        if (p->rb < 0 || p->rb >= nb || p->cb < 0 || p->cb >= nb || p->rb == p->cb)
            return rs_fail(err, errlen, RS_E_ARG,
                           "rs_block_matrix_create: piece %d joins blocks %d and %d (must be distinct, in 0..%d)",
                           k, p->rb, p->cb, nb - 1);
        if (p->nr < 1 || p->nc < 1 || !p->ri || !p->ci)
            return rs_fail(err, errlen, RS_E_ARG, "rs_block_matrix_create: piece %d has no rows or columns", k);
        for (int i = 0; i < p->nr; i++)
            if (p->ri[i] < 0 || p->ri[i] >= bsize[p->rb])
                return rs_fail(err, errlen, RS_E_ARG,
                               "rs_block_matrix_create: piece %d: row %d is outside block %d (size %d)",
                               k, p->ri[i], p->rb, bsize[p->rb]);
        for (int i = 0; i < p->nc; i++)
            if (p->ci[i] < 0 || p->ci[i] >= bsize[p->cb])
                return rs_fail(err, errlen, RS_E_ARG,
                               "rs_block_matrix_create: piece %d: column %d is outside block %d (size %d)",
                               k, p->ci[i], p->cb, bsize[p->cb]);
        nidx += (size_t)p->nr + (size_t)p->nc;
    }
    rs_allocator a = {0};
    if (alloc && alloc->alloc && alloc->release)
        a = *alloc;
    rs_block_matrix *A = rs_alloc(&a, 1, sizeof *A);
    if (!A)
        goto nomem;
    A->alloc = a;
    A->nb = nb;
    A->np = np;
    A->off = rs_alloc(&a, (size_t)nb + 1, sizeof(int));
    A->doff = rs_alloc(&a, (size_t)nb + 1, sizeof(int));
    A->poff = rs_alloc(&a, (size_t)np + 1, sizeof(int));
    A->ps = rs_alloc(&a, (size_t)np, sizeof *A->ps);
    A->idx = rs_alloc(&a, nidx, sizeof(int));
    A->row_start = rs_alloc(&a, (size_t)nb + 1, sizeof(int));
    A->row_piece = rs_alloc(&a, (size_t)np, sizeof(int));
    if (!A->off || !A->doff || !A->poff || !A->ps || !A->idx || !A->row_start || !A->row_piece)
        goto nomem;
    size_t nval = 0;
    for (int b = 0; b < nb; b++) {
        A->off[b + 1] = A->off[b] + bsize[b];
        A->doff[b] = (int)nval;
        nval += (size_t)bsize[b] * (size_t)bsize[b];
    }
    A->doff[nb] = (int)nval;
    A->n = A->off[nb];
    size_t w = 0;
    for (int k = 0; k < np; k++) {
        A->ps[k] = pieces[k];
        int *ri = A->idx + w, *ci = ri + pieces[k].nr;
        memcpy(ri, pieces[k].ri, (size_t)pieces[k].nr * sizeof(int));
        memcpy(ci, pieces[k].ci, (size_t)pieces[k].nc * sizeof(int));
        A->ps[k].ri = ri;
        A->ps[k].ci = ci;
        w += (size_t)pieces[k].nr + (size_t)pieces[k].nc;
        A->poff[k] = (int)nval;
        nval += (size_t)pieces[k].nr * (size_t)pieces[k].nc;
        A->row_start[pieces[k].rb + 1]++;
    }
    A->poff[np] = (int)nval;
    if (nval > 0x7fffffff)
        goto nomem;
    for (int b = 0; b < nb; b++)
        A->row_start[b + 1] += A->row_start[b];
    for (int b = 0; b < nb; b++) {   /* pieces of each row in k order */
        int r = A->row_start[b];
        for (int k = 0; k < np; k++)
            if (pieces[k].rb == b)
                A->row_piece[r++] = k;
    }
    A->val = rs_alloc(&a, nval, sizeof(double));
    if (!A->val)
        goto nomem;
    *out = A;
    return RS_OK;
nomem:
    rs_fail(err, errlen, RS_E_NOMEM, "rs_block_matrix_create: out of memory (%d blocks, %d pieces)", nb, np);
    rs_block_matrix_free(&A);
    return RS_E_NOMEM;
}

void rs_block_matrix_free(rs_block_matrix **pA)
{
    if (!pA || !*pA)
        return;
    rs_block_matrix *A = *pA;
    const rs_allocator a = A->alloc;
    rs_free(&a, A->off);
    rs_free(&a, A->doff);
    rs_free(&a, A->poff);
    rs_free(&a, A->ps);
    rs_free(&a, A->idx);
    rs_free(&a, A->row_start);
    rs_free(&a, A->row_piece);
    rs_free(&a, A->val);
    rs_free(&a, A);
    *pA = NULL;
}

int rs_block_matrix_n(const rs_block_matrix *A) { return A->n; }
int rs_block_matrix_nblocks(const rs_block_matrix *A) { return A->nb; }
int rs_block_matrix_npieces(const rs_block_matrix *A) { return A->np; }
int rs_block_matrix_bsize(const rs_block_matrix *A, int b) { return A->off[b + 1] - A->off[b]; }
int rs_block_matrix_offset(const rs_block_matrix *A, int b) { return A->off[b]; }
double *rs_block_matrix_diag(rs_block_matrix *A, int b) { return A->val + A->doff[b]; }
const double *rs_block_matrix_diag_c(const rs_block_matrix *A, int b) { return A->val + A->doff[b]; }
double *rs_block_matrix_piece(rs_block_matrix *A, int k) { return A->val + A->poff[k]; }
const rs_block_matrix_piece_spec *rs_block_matrix_piece_spec_of(const rs_block_matrix *A, int k) { return &A->ps[k]; }

void rs_block_matrix_mul_block(const rs_block_matrix *A, int b, const double *x, double *y)
{
    const int o = A->off[b], n = A->off[b + 1] - o;
    const double *D = A->val + A->doff[b];
    double *yb = y + o;
    const double *xb = x + o;
    for (int i = 0; i < n; i++)
        yb[i] = 0.0;
    for (int j = 0; j < n; j++) {
        const double xj = xb[j];
        const double *Dj = D + (size_t)j * (size_t)n;
        for (int i = 0; i < n; i++)
            yb[i] += Dj[i] * xj;
    }
    for (int r = A->row_start[b]; r < A->row_start[b + 1]; r++) {
        const int k = A->row_piece[r];
        const rs_block_matrix_piece_spec *p = &A->ps[k];
        const double *P = A->val + A->poff[k];
        const double *xc = x + A->off[p->cb];
        for (int c = 0; c < p->nc; c++) {
            const double xv = xc[p->ci[c]];
            const double *Pc = P + (size_t)c * (size_t)p->nr;
            for (int i = 0; i < p->nr; i++)
                yb[p->ri[i]] += Pc[i] * xv;
        }
    }
}

void rs_block_matrix_mul(const rs_block_matrix *A, const double *x, double *y)
{
    for (int b = 0; b < A->nb; b++)
        rs_block_matrix_mul_block(A, b, x, y);
}

/* ================================================================ krylov */

enum { NVEC = 8 };

struct rs_krylov {
    rs_allocator alloc;
    rs_krylov_opts opts;
    int nb, n;
    const int *off;      /* the matrix's block offsets (borrowed shape) */
    int *foff;           /* nb + 1: factor storage offsets */
    double *fac;         /* factored diagonal blocks */
    int *piv;            /* n: LU pivots, block b at off[b] */
    unsigned char *chol; /* nb: 1 when block b holds a Cholesky factor */
    double *vec;         /* NVEC vectors of n */
    double *pa, *pb, *pc;   /* partial sums: nb, 3 nb, 3 nb */
    int *ident;          /* nb: 0, 1, ..., nb-1 (the one-thread team's list) */
    int gm_m;            /* GMRES: restart length the work space holds */
    double *gv;          /* GMRES: gm_m + 1 basis vectors of n, then z (n) */
    double *pg;          /* GMRES: partial sums, (2 (gm_m + 1) + 3) nb */
};

void rs_krylov_opts_default(rs_krylov_opts *o)
{
    o->method = RS_KRYLOV_AUTO;
    o->tol = 1e-10;
    o->maxiter = 200;
    o->restart = 30;
}

int rs_krylov_create(rs_krylov **out, const rs_block_matrix *A, const rs_krylov_opts *opts, const rs_allocator *alloc,
                     char *err, size_t errlen)
{
    if (out)
        *out = NULL;
    if (!out || !A)
        return rs_fail(err, errlen, RS_E_ARG, "rs_krylov_create: no matrix");
    rs_krylov_opts o;
    rs_krylov_opts_default(&o);
    if (opts)
        o = *opts;
    if (!(o.tol > 0.0) || o.maxiter < 0 || (int)o.method < 0 || (int)o.method > RS_KRYLOV_ARTIFICIAL ||
        o.restart < 1 || o.restart > RS_KRYLOV_MAX_RESTART) {
        return rs_fail(err, errlen, RS_E_ARG,
                       "rs_krylov_create: tolerance must be > 0 (got %g), maxiter >= 0 (got %d), method 0..4 (got %d), "
                       "restart 1..%d (got %d)",
                       o.tol, o.maxiter, (int)o.method, RS_KRYLOV_MAX_RESTART, o.restart);
    }
    rs_allocator a = {0};
    if (alloc && alloc->alloc && alloc->release)
        a = *alloc;
    rs_krylov *kr = rs_alloc(&a, 1, sizeof *kr);
    if (!kr)
        goto nomem;
    kr->alloc = a;
    kr->opts = o;
    kr->nb = A->nb;
    kr->n = A->n;
    kr->off = A->off;
    kr->foff = rs_alloc(&a, (size_t)A->nb + 1, sizeof(int));
    kr->fac = rs_alloc(&a, (size_t)A->doff[A->nb], sizeof(double));
    kr->piv = rs_alloc(&a, (size_t)A->n, sizeof(int));
    kr->chol = rs_alloc(&a, (size_t)A->nb, 1);
    kr->vec = rs_alloc(&a, (size_t)NVEC * (size_t)A->n, sizeof(double));
    kr->pa = rs_alloc(&a, (size_t)A->nb, sizeof(double));
    kr->pb = rs_alloc(&a, 3 * (size_t)A->nb, sizeof(double));
    kr->pc = rs_alloc(&a, 3 * (size_t)A->nb, sizeof(double));
    kr->ident = rs_alloc(&a, (size_t)A->nb, sizeof(int));
    kr->gm_m = o.restart;
    kr->gv = rs_alloc(&a, ((size_t)o.restart + 2) * (size_t)A->n, sizeof(double));
    kr->pg = rs_alloc(&a, (2 * ((size_t)o.restart + 1) + 3) * (size_t)A->nb, sizeof(double));
    if (!kr->foff || !kr->fac || !kr->piv || !kr->chol || !kr->vec || !kr->pa || !kr->pb || !kr->pc || !kr->ident ||
        !kr->gv || !kr->pg)
        goto nomem;
    for (int b = 0; b < A->nb; b++)
        kr->ident[b] = b;
    memcpy(kr->foff, A->doff, ((size_t)A->nb + 1) * sizeof(int));
    *out = kr;
    return RS_OK;
nomem:
    rs_fail(err, errlen, RS_E_NOMEM, "rs_krylov_create: out of memory (order %d)", A->n);
    rs_krylov_free(&kr);
    return RS_E_NOMEM;
}

void rs_krylov_free(rs_krylov **pk)
{
    if (!pk || !*pk)
        return;
    rs_krylov *kr = *pk;
    const rs_allocator a = kr->alloc;
    rs_free(&a, kr->foff);
    rs_free(&a, kr->fac);
    rs_free(&a, kr->piv);
    rs_free(&a, kr->chol);
    rs_free(&a, kr->vec);
    rs_free(&a, kr->pa);
    rs_free(&a, kr->pb);
    rs_free(&a, kr->pc);
    rs_free(&a, kr->ident);
    rs_free(&a, kr->gv);
    rs_free(&a, kr->pg);
    rs_free(&a, kr);
    *pk = NULL;
}

void rs_krylov_set_opts(rs_krylov *kr, const rs_krylov_opts *opts)
{
    if (opts && opts->tol > 0.0 && opts->maxiter >= 0 && (int)opts->method >= 0 &&
        (int)opts->method <= RS_KRYLOV_ARTIFICIAL) {
        kr->opts = *opts;
        if (kr->opts.restart < 1 || kr->opts.restart > kr->gm_m)   /* the work space is fixed */
            kr->opts.restart = kr->gm_m;
    }
}

int rs_krylov_factor_block(rs_krylov *kr, const rs_block_matrix *A, int b, int symmetric, int *bad_col)
{
    const int n = A->off[b + 1] - A->off[b];
    double *F = kr->fac + kr->foff[b];
    memcpy(F, A->val + A->doff[b], (size_t)n * (size_t)n * sizeof(double));
    kr->chol[b] = symmetric ? 1 : 0;
    if (symmetric)
        return rs_dense_chol(F, n, bad_col);
    return rs_dense_lu(F, n, kr->piv + A->off[b], bad_col);
}

/* v_b ← D_b⁻¹ v_b */
static void prec_block(const rs_krylov *kr, int b, double *v)
{
    const int o = kr->off[b], n = kr->off[b + 1] - o;
    const double *F = kr->fac + kr->foff[b];
    if (kr->chol[b])
        rs_dense_chol_solve(F, n, v + o);
    else
        rs_dense_lu_solve(F, n, kr->piv + o, v + o);
}

void rs_krylov_prec_block(const rs_krylov *kr, int b, double *v) { prec_block(kr, b, v); }

static double dot_block(const rs_krylov *kr, int b, const double *x, const double *y)
{
    double s = 0.0;
    for (int i = kr->off[b]; i < kr->off[b + 1]; i++)
        s += x[i] * y[i];
    return s;
}

/* Σ_b p[b] in block order. */
static double sum_parts(const double *p, int nb)
{
    double s = 0.0;
    for (int b = 0; b < nb; b++)
        s += p[b];
    return s;
}

#define FOR_OWN(b)                                                                    \
    for (int k_ = team->start[thread], b; k_ < team->start[thread + 1] && (b = team->list[k_], 1); k_++)

static void sync(const rs_team *team)
{
    if (team->threads > 1)
        rs_barrier_wait(team->bar);
}

static int finish(rs_krylov_result *res, int status, int it, double rr, double bb, int method)
{
    if (res) {
        res->status = status;
        res->iterations = it;
        res->relres = bb > 0.0 ? sqrt(rr / bb) : 0.0;
        res->method = method;
        res->restarts = 0;
    }
    return status;
}

static int solve_cg(rs_krylov *kr, const rs_block_matrix *A, const double *b, double *x, const rs_team *team, int thread,
                    rs_krylov_result *res)
{
    const int nb = kr->nb, n = kr->n;
    double *r = kr->vec, *z = r + n, *d = z + n, *q = d + n;
    double *pa = kr->pa, *pc = kr->pc;
    FOR_OWN(blk) {
        const int o = kr->off[blk], m = kr->off[blk + 1] - o;
        memcpy(x + o, b + o, (size_t)m * sizeof(double));
        prec_block(kr, blk, x);
    }
    sync(team);
    FOR_OWN(blk) {
        const int o = kr->off[blk], m = kr->off[blk + 1] - o;
        rs_block_matrix_mul_block(A, blk, x, r);
        for (int i = o; i < o + m; i++) {
            r[i] = b[i] - r[i];
            z[i] = r[i];
        }
        prec_block(kr, blk, z);
        pc[blk] = dot_block(kr, blk, r, z);
        pc[nb + blk] = dot_block(kr, blk, r, r);
        pc[2 * nb + blk] = dot_block(kr, blk, b, b);
    }
    sync(team);
    double rho = sum_parts(pc, nb), rr = sum_parts(pc + nb, nb);
    const double bb = sum_parts(pc + 2 * nb, nb);
    const double tol2 = kr->opts.tol * kr->opts.tol * bb;
    double rho_old = 1.0;
    int it = 0;
    for (;;) {
        if (!isfinite(rr) || !isfinite(rho))
            return finish(res, RS_E_NONFINITE, it, rr, bb, RS_KRYLOV_CG);
        if (rr <= tol2)
            return finish(res, RS_OK, it, rr, bb, RS_KRYLOV_CG);
        if (it >= kr->opts.maxiter)
            return finish(res, RS_E_NOCONV, it, rr, bb, RS_KRYLOV_CG);
        const double gamma = it == 0 ? 0.0 : rho / rho_old;
        FOR_OWN(blk) {
            for (int i = kr->off[blk]; i < kr->off[blk + 1]; i++)
                d[i] = z[i] + gamma * d[i];
        }
        sync(team);
        FOR_OWN(blk) {
            rs_block_matrix_mul_block(A, blk, d, q);
            pa[blk] = dot_block(kr, blk, d, q);
        }
        sync(team);
        const double dq = sum_parts(pa, nb);
        if (!(dq > 0.0))   /* not positive definite (or NaN): CG cannot go on */
            return finish(res, isfinite(dq) ? RS_E_SOLVER : RS_E_NONFINITE, it, rr, bb, RS_KRYLOV_CG);
        const double alpha = rho / dq;
        FOR_OWN(blk) {
            for (int i = kr->off[blk]; i < kr->off[blk + 1]; i++) {
                x[i] += alpha * d[i];
                r[i] -= alpha * q[i];
                z[i] = r[i];
            }
            prec_block(kr, blk, z);
            pc[blk] = dot_block(kr, blk, r, z);
            pc[nb + blk] = dot_block(kr, blk, r, r);
        }
        sync(team);
        rho_old = rho;
        rho = sum_parts(pc, nb);
        rr = sum_parts(pc + nb, nb);
        it++;
    }
}

static int solve_bicgstab(rs_krylov *kr, const rs_block_matrix *A, const double *b, double *x, const rs_team *team,
                          int thread, rs_krylov_result *res)
{
    const int nb = kr->nb, n = kr->n;
    double *r = kr->vec, *rh = r + n, *p = rh + n, *v = p + n, *y = v + n, *s = y + n, *z = s + n, *t = z + n;
    double *pa = kr->pa, *pb = kr->pb, *pc = kr->pc;
    FOR_OWN(blk) {
        const int o = kr->off[blk], m = kr->off[blk + 1] - o;
        memcpy(x + o, b + o, (size_t)m * sizeof(double));
        prec_block(kr, blk, x);
    }
    sync(team);
    FOR_OWN(blk) {
        const int o = kr->off[blk], m = kr->off[blk + 1] - o;
        rs_block_matrix_mul_block(A, blk, x, r);
        for (int i = o; i < o + m; i++) {
            r[i] = b[i] - r[i];
            rh[i] = r[i];
            p[i] = 0.0;
            v[i] = 0.0;
        }
        pc[blk] = dot_block(kr, blk, rh, r);
        pc[nb + blk] = dot_block(kr, blk, r, r);
        pc[2 * nb + blk] = dot_block(kr, blk, b, b);
    }
    sync(team);
    double rho = sum_parts(pc, nb), rr = sum_parts(pc + nb, nb);
    const double bb = sum_parts(pc + 2 * nb, nb);
    const double tol2 = kr->opts.tol * kr->opts.tol * bb;
    double rho_old = 1.0, alpha = 1.0, omega = 1.0;
    int it = 0;
    for (;;) {
        if (!isfinite(rr) || !isfinite(rho))
            return finish(res, RS_E_NONFINITE, it, rr, bb, RS_KRYLOV_BICGSTAB);
        if (rr <= tol2)
            return finish(res, RS_OK, it, rr, bb, RS_KRYLOV_BICGSTAB);
        if (it >= kr->opts.maxiter)
            return finish(res, RS_E_NOCONV, it, rr, bb, RS_KRYLOV_BICGSTAB);
        if (rho == 0.0 || omega == 0.0)   /* breakdown */
            return finish(res, RS_E_SOLVER, it, rr, bb, RS_KRYLOV_BICGSTAB);
        const double beta = (rho / rho_old) * (alpha / omega);
        FOR_OWN(blk) {
            for (int i = kr->off[blk]; i < kr->off[blk + 1]; i++) {
                p[i] = r[i] + beta * (p[i] - omega * v[i]);
                y[i] = p[i];
            }
            prec_block(kr, blk, y);
        }
        sync(team);
        FOR_OWN(blk) {
            rs_block_matrix_mul_block(A, blk, y, v);
            pa[blk] = dot_block(kr, blk, rh, v);
        }
        sync(team);
        const double rhv = sum_parts(pa, nb);
        if (rhv == 0.0 || !isfinite(rhv))
            return finish(res, isfinite(rhv) ? RS_E_SOLVER : RS_E_NONFINITE, it, rr, bb, RS_KRYLOV_BICGSTAB);
        alpha = rho / rhv;
        FOR_OWN(blk) {
            for (int i = kr->off[blk]; i < kr->off[blk + 1]; i++) {
                s[i] = r[i] - alpha * v[i];
                z[i] = s[i];
            }
            prec_block(kr, blk, z);
        }
        sync(team);
        FOR_OWN(blk) {
            rs_block_matrix_mul_block(A, blk, z, t);
            pb[blk] = dot_block(kr, blk, t, s);
            pb[nb + blk] = dot_block(kr, blk, t, t);
        }
        sync(team);
        const double ts = sum_parts(pb, nb), tt = sum_parts(pb + nb, nb);
        omega = tt > 0.0 ? ts / tt : 0.0;
        FOR_OWN(blk) {
            for (int i = kr->off[blk]; i < kr->off[blk + 1]; i++) {
                x[i] += alpha * y[i] + omega * z[i];
                r[i] = s[i] - omega * t[i];
            }
            pc[blk] = dot_block(kr, blk, rh, r);
            pc[nb + blk] = dot_block(kr, blk, r, r);
        }
        sync(team);
        rho_old = rho;
        rho = sum_parts(pc, nb);
        rr = sum_parts(pc + nb, nb);
        it++;
    }
}

/* Restarted GMRES(m), right-preconditioned: A D⁻¹ u = b − A x0, x = x0 + D⁻¹ u.
 * Arnoldi with classical Gram-Schmidt applied twice (CGS2); the Hessenberg
 * columns are reduced by Givens rotations as they come, so |g_{j+1}| is the
 * residual norm of the current iterate (in exact arithmetic).  Each cycle ends
 * (convergence estimate, m steps, maxiter or a lucky breakdown) by updating x
 * and recomputing the true residual b − A x, which alone decides
 * convergence.  Every thread keeps its own copy of the least-squares problem
 * (R, the rotations, g: on its stack) and computes it from the same sums.
 *
 * Partial sums (kr->pg, nb per slot): P1 (m+1 slots) the first Gram-Schmidt
 * products, P2 (m+1) the second, P3 (1) ‖w‖², P4 (2) ‖r‖², ‖b‖².  P1 is
 * written after barrier 1 and read after barrier 2, P2 after 2 / after 3,
 * P3 after 3 / after 4: a slot is rewritten only after every thread passed
 * the barrier that follows its last read. */
enum { MR = RS_KRYLOV_MAX_RESTART };   /* GMRES: the longest restart cycle */

/* r = b − A x into v; returns ‖r‖² (partial sums in P4[0..nb)). */
static double gmres_residual(rs_krylov *kr, const rs_block_matrix *A, const double *b, const double *x, double *v,
                             double *P4, const rs_team *team, int thread)
{
    FOR_OWN(blk) {
        rs_block_matrix_mul_block(A, blk, x, v);
        for (int i = kr->off[blk]; i < kr->off[blk + 1]; i++)
            v[i] = b[i] - v[i];
        P4[blk] = dot_block(kr, blk, v, v);
    }
    sync(team);
    return sum_parts(P4, kr->nb);
}

/* The next basis vector: v /= s, and z = D⁻¹ v. */
static void gmres_basis(rs_krylov *kr, double *v, double s, double *z, const rs_team *team, int thread)
{
    FOR_OWN(blk) {
        for (int i = kr->off[blk]; i < kr->off[blk + 1]; i++) {
            v[i] /= s;
            z[i] = v[i];
        }
        prec_block(kr, blk, z);
    }
}

/* Arnoldi step j: w = V_{j+1} = A z orthogonalized against V_0 .. V_j by
 * classical Gram-Schmidt twice (barriers 1 to 4, partial sums in P1, P2,
 * P3); h (column j of R, not yet rotated) gets the coefficients.  Returns
 * ‖w‖. */
static double gmres_arnoldi(rs_krylov *kr, const rs_block_matrix *A, double *V, const double *z, int j, double *h,
                            double *P1, double *P2, double *P3, const rs_team *team, int thread)
{
    const int nb = kr->nb, n = kr->n;
    sync(team);   /* 1: z complete */
    double *w = V + (size_t)(j + 1) * (size_t)n;
    FOR_OWN(blk) {
        rs_block_matrix_mul_block(A, blk, z, w);
        for (int i = 0; i <= j; i++)
            P1[(size_t)i * nb + blk] = dot_block(kr, blk, V + (size_t)i * n, w);
    }
    sync(team);   /* 2 */
    for (int i = 0; i <= j; i++)
        h[i] = sum_parts(P1 + (size_t)i * nb, nb);
    FOR_OWN(blk) {
        for (int i = 0; i <= j; i++) {
            const double *vi = V + (size_t)i * n;
            for (int l = kr->off[blk]; l < kr->off[blk + 1]; l++)
                w[l] -= h[i] * vi[l];
        }
        for (int i = 0; i <= j; i++)
            P2[(size_t)i * nb + blk] = dot_block(kr, blk, V + (size_t)i * n, w);
    }
    sync(team);   /* 3 */
    double h2[MR + 1];
    for (int i = 0; i <= j; i++) {
        h2[i] = sum_parts(P2 + (size_t)i * nb, nb);
        h[i] += h2[i];
    }
    FOR_OWN(blk) {
        for (int i = 0; i <= j; i++) {
            const double *vi = V + (size_t)i * n;
            for (int l = kr->off[blk]; l < kr->off[blk + 1]; l++)
                w[l] -= h2[i] * vi[l];
        }
        P3[blk] = dot_block(kr, blk, w, w);
    }
    sync(team);   /* 4 */
    return sqrt(sum_parts(P3, nb));
}

/* Rotates column j of R (h, with hn = ‖w‖ below it) by the previous
 * rotations, makes rotation j and applies it to g.  -1 when the column is
 * zero (A D⁻¹ singular on the Krylov space). */
static int gmres_rotate(double *h, int j, double hn, double *cs, double *sn, double *g)
{
    for (int i = 0; i < j; i++) {
        const double t = cs[i] * h[i] + sn[i] * h[i + 1];
        h[i + 1] = -sn[i] * h[i] + cs[i] * h[i + 1];
        h[i] = t;
    }
    const double den = hypot(h[j], hn);
    if (!(den > 0.0))
        return -1;
    cs[j] = h[j] / den;
    sn[j] = hn / den;
    h[j] = den;
    g[j + 1] = -sn[j] * g[j];
    g[j] = cs[j] * g[j];
    return 0;
}

/* The end of a cycle: R y = g (upper triangular, k × k), x += D⁻¹ (V y)
 * (z as scratch). */
static void gmres_update(rs_krylov *kr, const double *R, const double *g, int k, const double *V, double *z,
                         double *x, const rs_team *team, int thread)
{
    const int n = kr->n;
    double y[MR];
    for (int i = k - 1; i >= 0; i--) {
        double s = g[i];
        for (int l = i + 1; l < k; l++)
            s -= R[(size_t)l * (MR + 1) + i] * y[l];
        y[i] = s / R[(size_t)i * (MR + 1) + i];
    }
    FOR_OWN(blk) {
        for (int l = kr->off[blk]; l < kr->off[blk + 1]; l++) {
            double s = 0.0;
            for (int i = 0; i < k; i++)
                s += y[i] * V[(size_t)i * n + l];
            z[l] = s;
        }
        prec_block(kr, blk, z);
        for (int l = kr->off[blk]; l < kr->off[blk + 1]; l++)
            x[l] += z[l];
    }
}

static int solve_gmres(rs_krylov *kr, const rs_block_matrix *A, const double *b, double *x, const rs_team *team, int thread,
                       rs_krylov_result *res)
{
    const int nb = kr->nb, n = kr->n;
    int m = kr->opts.restart;
    if (m < 1 || m > kr->gm_m)
        m = kr->gm_m;
    double *V = kr->gv, *z = V + (size_t)(m + 1) * (size_t)n;
    double *P1 = kr->pg, *P2 = P1 + (size_t)(m + 1) * nb, *P3 = P2 + (size_t)(m + 1) * nb, *P4 = P3 + nb;
    double R[(MR + 1) * MR], cs[MR], sn[MR], g[MR + 1];
    FOR_OWN(blk) {
        const int o = kr->off[blk], mb = kr->off[blk + 1] - o;
        memcpy(x + o, b + o, (size_t)mb * sizeof(double));
        prec_block(kr, blk, x);
        P4[nb + blk] = dot_block(kr, blk, b, b);
    }
    sync(team);
    const double bb = sum_parts(P4 + nb, nb);
    const double tol2 = kr->opts.tol * kr->opts.tol * bb, tol = sqrt(tol2);
    int it = 0, cycles = 0, status;
    double rr;
    for (;;) {
        rr = gmres_residual(kr, A, b, x, V, P4, team, thread);
        if (!isfinite(rr)) {
            status = RS_E_NONFINITE;
            break;
        }
        if (rr <= tol2) {
            status = RS_OK;
            break;
        }
        if (it >= kr->opts.maxiter) {
            status = RS_E_NOCONV;
            break;
        }
        cycles++;
        const double beta = sqrt(rr);
        gmres_basis(kr, V, beta, z, team, thread);
        g[0] = beta;
        int j = 0, k = 0;   /* k: columns of R made */
        status = RS_OK;
        for (;;) {
            double *h = R + (size_t)j * (MR + 1);
            const double hn = gmres_arnoldi(kr, A, V, z, j, h, P1, P2, P3, team, thread);
            it++;
            if (!isfinite(hn)) {
                status = RS_E_NONFINITE;
                break;
            }
            if (gmres_rotate(h, j, hn, cs, sn, g)) {
                status = RS_E_SOLVER;
                break;
            }
            k = j + 1;
            const int done = fabs(g[j + 1]) <= tol || j + 1 == m || it >= kr->opts.maxiter || hn == 0.0;
            if (done)
                break;
            gmres_basis(kr, V + (size_t)(j + 1) * n, hn, z, team, thread);
            j++;
        }
        if (status != RS_OK) {
            rr = fmax(rr, g[0] * g[0]);
            break;
        }
        gmres_update(kr, R, g, k, V, z, x, team, thread);
        sync(team);   /* x complete before the residual */
    }
    finish(res, status, it, rr, bb, RS_KRYLOV_GMRES);
    if (res)
        res->restarts = cycles > 0 ? cycles - 1 : 0;
    return status;
}

int rs_krylov_solve(rs_krylov *kr, const rs_block_matrix *A, const double *rhs, double *x, int symmetric,
                    const rs_team *team, int thread, rs_krylov_result *res)
{
    int method = kr->opts.method;
    if (method == RS_KRYLOV_AUTO)
        method = symmetric ? RS_KRYLOV_CG : RS_KRYLOV_BICGSTAB;
    if (method == RS_KRYLOV_CG)
        return solve_cg(kr, A, rhs, x, team, thread, res);
    if (method == RS_KRYLOV_GMRES)
        return solve_gmres(kr, A, rhs, x, team, thread, res);
    if (method != RS_KRYLOV_BICGSTAB)   /* RS_KRYLOV_ARTIFICIAL: rs_artificial_solve's */
        return finish(res, RS_E_ARG, 0, 0.0, 0.0, method);
    return solve_bicgstab(kr, A, rhs, x, team, thread, res);
}

int rs_krylov_solve_serial(rs_krylov *kr, const rs_block_matrix *A, const double *rhs, double *x, int symmetric,
                           rs_krylov_result *res)
{
    for (int b = 0; b < kr->nb; b++) {
        const int st = rs_krylov_factor_block(kr, A, b, symmetric, NULL);
        if (st != RS_OK)
            return finish(res, st, 0, 0.0, 0.0, 0);
    }
    const int start[2] = {0, kr->nb};
    const rs_team team = {1, NULL, start, kr->ident};
    return rs_krylov_solve(kr, A, rhs, x, symmetric, &team, 0, res);
}
