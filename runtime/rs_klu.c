/*
 * rs_klu.c — the only file that calls KLU.  See rs_klu.h for the block
 * structure of the systems and why their pattern is assembled once.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rs_klu.h"
#include "rs_ws_impl.h"

int rs_kmat_build(rs_kmat *K, const rs_model *m, const rs_pattern *extra,
                  const rs_allocator *a, char *err, size_t errlen)
{
    memset(K, 0, sizeof *K);
    const int nq = m->n_q, nphi = m->n_phi, n = nq + nphi;
    const rs_pattern *PM = &m->M_pattern, *PG = &m->phi_q_pattern;
    const int nnzM = PM->colptr[nq];
    const int nnzG = nphi > 0 ? PG->colptr[nq] : 0;
    const int nnzX = extra ? extra->colptr[nq] : 0;
    const int cap = nnzM + nq + nnzX + 2 * nnzG;

    K->n = n;
    K->n_q = nq;
    K->n_phi = nphi;
    K->nnz_M = nnzM;
    K->nnz_G = nnzG;
    K->nnz_X = nnzX;
    K->Ap = rs_alloc_array(a, (size_t)n + 1, sizeof(int));
    K->Ai = rs_alloc_array(a, (size_t)cap, sizeof(int));
    K->Ax = rs_alloc_array(a, (size_t)cap, sizeof(double));
    K->map_M = rs_alloc_array(a, (size_t)nnzM + 1, sizeof(int));
    K->map_diag = rs_alloc_array(a, (size_t)nq, sizeof(int));
    K->map_G = rs_alloc_array(a, (size_t)nnzG + 1, sizeof(int));
    K->map_GT = rs_alloc_array(a, (size_t)nnzG + 1, sizeof(int));
    K->map_X = rs_alloc_array(a, (size_t)nnzX + 1, sizeof(int));
    int *cnt = rs_alloc_array(a, (size_t)nphi + 1, sizeof(int));
    if (!K->Ap || !K->Ai || !K->Ax || !K->map_M || !K->map_diag || !K->map_G ||
        !K->map_GT || !K->map_X || !cnt) {
        rs_release(a, cnt);
        rs_kmat_free(K, a);
        snprintf(err, errlen, "out of memory assembling the system pattern");
        return RS_E_NOMEM;
    }

    /* Columns of the A block: the sorted union of M's rows, the diagonal
     * and the extra pattern's rows (all increasing: a three-way merge),
     * then φ_q's rows shifted by n_q (all >= n_q). */
    int p = 0;
    for (int j = 0; j < nq; j++) {
        K->Ap[j] = p;
        int k = PM->colptr[j], kend = PM->colptr[j + 1], diag_done = 0;
        int x = extra ? extra->colptr[j] : 0, xend = extra ? extra->colptr[j + 1] : 0;
        while (k < kend || x < xend || !diag_done) {
            int r = diag_done ? nq : j;
            if (k < kend && PM->rowind[k] < r)
                r = PM->rowind[k];
            if (x < xend && extra->rowind[x] < r)
                r = extra->rowind[x];
            if (r == j && !diag_done) {
                K->map_diag[j] = p;
                diag_done = 1;
            }
            if (k < kend && PM->rowind[k] == r)
                K->map_M[k++] = p;
            if (x < xend && extra->rowind[x] == r)
                K->map_X[x++] = p;
            K->Ai[p++] = r;
        }
        if (nphi > 0)
            for (k = PG->colptr[j]; k < PG->colptr[j + 1]; k++) {
                K->map_G[k] = p;
                K->Ai[p++] = nq + PG->rowind[k];
                cnt[PG->rowind[k]]++;
            }
    }
    /* Columns n_q+i hold row i of φ_q (its transpose): visiting φ_q in
     * column order j appends rows j in increasing order. */
    K->Ap[nq] = p;
    for (int i = 0; i < nphi; i++)
        K->Ap[nq + i + 1] = K->Ap[nq + i] + cnt[i];
    for (int i = 0; i < nphi; i++)
        cnt[i] = K->Ap[nq + i];
    for (int j = 0; j < nq && nphi > 0; j++)
        for (int k = PG->colptr[j]; k < PG->colptr[j + 1]; k++) {
            int i = PG->rowind[k];
            K->map_GT[k] = cnt[i];
            K->Ai[cnt[i]++] = j;
        }
    K->nnz = K->Ap[n];
    rs_release(a, cnt);

    klu_defaults(&K->common);
    /* No BTF: these saddle-point systems are irreducible, and its maximum
     * transversal would place the zero-diagonal multiplier columns on
     * constraint entries that pass through zero as the mechanism moves,
     * forcing full re-factorizations. */
    K->common.btf = 0;
    K->sym = klu_analyze(n, K->Ap, K->Ai, &K->common);
    if (!K->sym) {
        int st = K->common.status == KLU_OUT_OF_MEMORY ? RS_E_NOMEM : RS_E_SOLVER;
        snprintf(err, errlen, "klu_analyze failed on the %d x %d system (KLU status %d)",
                 n, n, K->common.status);
        rs_kmat_free(K, a);
        return st;
    }
    return RS_OK;
}

void rs_kmat_free(rs_kmat *K, const rs_allocator *a)
{
    if (K->sym)
        klu_free_symbolic(&K->sym, &K->common);
    rs_release(a, K->Ap);
    rs_release(a, K->Ai);
    rs_release(a, K->Ax);
    rs_release(a, K->map_M);
    rs_release(a, K->map_diag);
    rs_release(a, K->map_G);
    rs_release(a, K->map_GT);
    rs_release(a, K->map_X);
    memset(K, 0, sizeof *K);
}

void rs_kmat_fill(rs_kmat *K, const double *Mv, const double *Gv, double gt_scale)
{
    memset(K->Ax, 0, (size_t)K->nnz * sizeof(double));
    if (Mv)
        for (int k = 0; k < K->nnz_M; k++)
            K->Ax[K->map_M[k]] += Mv[k];
    else
        for (int j = 0; j < K->n_q; j++)
            K->Ax[K->map_diag[j]] = 1.0;
    for (int k = 0; k < K->nnz_G; k++) {
        K->Ax[K->map_G[k]] = Gv[k];
        K->Ax[K->map_GT[k]] = gt_scale * Gv[k];
    }
}

void rs_kmat_add_extra(rs_kmat *K, const double *Xv, double scale)
{
    for (int k = 0; k < K->nnz_X; k++)
        K->Ax[K->map_X[k]] += scale * Xv[k];
}

/* isfinite and >= threshold; a NaN rcond counts as singular. */
static int rcond_ok(double rcond, double threshold)
{
    return rcond == rcond && rcond >= threshold;
}

int rs_kfac_factor(rs_kmat *K, rs_kfac *F, double rcond_min, double rcond_drop,
                   rs_stats *st, int *bad_col)
{
    klu_common *c = &K->common;
    *bad_col = -1;
    if (F->num) {
        st->refactors++;
        if (klu_refactor(K->Ap, K->Ai, K->Ax, K->sym, F->num, c) &&
            klu_rcond(K->sym, F->num, c) &&
            rcond_ok(c->rcond, rcond_min) && rcond_ok(c->rcond, rcond_drop * F->rcond_ref)) {
            st->rcond_last = c->rcond;
            return RS_OK;
        }
        /* The pivot order of the last full factorization no longer suits
         * these values: pivot afresh (this allocates, hence only here). */
        klu_free_numeric(&F->num, c);
    }
    st->factors++;
    F->num = klu_factor(K->Ap, K->Ai, K->Ax, K->sym, c);
    if (!F->num) {
        st->rcond_last = 0.0; /* a zero pivot stopped the factorization */
        if (c->status == KLU_OUT_OF_MEMORY)
            return RS_E_NOMEM;
        if (c->status == KLU_SINGULAR) {
            *bad_col = c->singular_col;
            return RS_E_SINGULAR;
        }
        return RS_E_SOLVER;
    }
    if (!klu_rcond(K->sym, F->num, c) || !rcond_ok(c->rcond, rcond_min)) {
        st->rcond_last = c->rcond;
        *bad_col = c->singular_col < K->n ? c->singular_col : -1;
        klu_free_numeric(&F->num, c);
        return RS_E_SINGULAR;
    }
    F->rcond_ref = c->rcond;
    st->rcond_last = c->rcond;
    return RS_OK;
}

int rs_kfac_solve(rs_kmat *K, rs_kfac *F, double *b, rs_stats *st)
{
    st->solves++;
    if (!F->num || !klu_solve(K->sym, F->num, K->n, 1, b, &K->common))
        return RS_E_SOLVER;
    return RS_OK;
}

void rs_kfac_free(rs_kmat *K, rs_kfac *F)
{
    if (F->num)
        klu_free_numeric(&F->num, &K->common);
}
