/*
 * rs_contact_ck.c — C^K_qq contact by contact through small dense blocks
 * (see rs_contact_ck.h).
 */
#include <string.h>

#include "rs_contact_ck.h"
#include "rs_ws_impl.h"

void rs_ck_plan_free(rs_ck_plan *P, const rs_allocator *a)
{
    void *arrays[] = {P->roff, P->dpos, P->Dd, P->goff, P->gk0, P->gk1, P->toff, P->tgt,
                      P->tgt_k};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++)
        rs_free(a, arrays[k]);
    memset(P, 0, sizeof *P);
}

/* Contact i's rows (the union of D's columns 3i..3i+2) in increasing order
 * into rows (when not NULL), local numbers into lmap; returns their count.
 * mark: n_q ints, stamped with i. */
static int contact_rows(const rs_pattern *D, int i, int nq, int *mark, int *rows, int *lmap)
{
    for (int d = D->colptr[3 * i]; d < D->colptr[3 * i + 3]; d++)
        mark[D->rowind[d]] = i;
    int nr = 0;
    for (int r = 0; r < nq; r++)
        if (mark[r] == i) {
            if (rows)
                rows[nr] = r;
            lmap[r] = nr++;
        }
    return nr;
}

/* N's entries of contact i in column j: [*k0, *k1) (rows increase). */
static void group_range(const rs_pattern *N, int i, int j, int *k0, int *k1)
{
    int k = N->colptr[j];
    while (k < N->colptr[j + 1] && N->rowind[k] < 3 * i)
        k++;
    *k0 = k;
    while (k < N->colptr[j + 1] && N->rowind[k] < 3 * i + 3)
        k++;
    *k1 = k;
}

int rs_ck_plan_create(rs_ck_plan *P, const rs_pattern *D, const rs_pattern *N, int nc,
                      const int *colptr, const int *rowind, const rs_allocator *a)
{
    memset(P, 0, sizeof *P);
    const int nq = N->ncol;
    P->nc = nc;
    P->D = D;
    P->N = N;
    P->nnz_ck = colptr[nq];
    int *mark = rs_alloc(a, (size_t)nq, sizeof(int));
    int *lmap = rs_alloc(a, (size_t)nq, sizeof(int));
    int *rows = rs_alloc(a, (size_t)nq, sizeof(int));
    P->roff = rs_alloc(a, (size_t)nc + 1, sizeof(int));
    P->goff = rs_alloc(a, (size_t)nc + 1, sizeof(int));
    P->dpos = rs_alloc(a, (size_t)D->colptr[3 * nc], sizeof(int));
    int st = RS_E_NOMEM;
    if (!mark || !lmap || !rows || !P->roff || !P->goff || !P->dpos)
        goto done;
    /* sizes: rows per contact, groups, target positions */
    for (int r = 0; r < nq; r++)
        mark[r] = -1;
    int ng = 0, nt = 0;
    for (int i = 0; i < nc; i++) {
        const int nr = contact_rows(D, i, nq, mark, NULL, lmap);
        P->roff[i + 1] = P->roff[i] + nr;
        P->goff[i] = ng;
        for (int j = 0; j < nq; j++) {
            int k0, k1;
            group_range(N, i, j, &k0, &k1);
            if (k1 > k0) {
                ng++;
                nt += nr;
            }
        }
    }
    P->goff[nc] = ng;
    P->Dd = rs_alloc(a, 3 * (size_t)P->roff[nc], sizeof(double));
    P->gk0 = rs_alloc(a, (size_t)ng, sizeof(int));
    P->gk1 = rs_alloc(a, (size_t)ng, sizeof(int));
    P->toff = rs_alloc(a, (size_t)ng, sizeof(int));
    P->tgt = rs_alloc(a, (size_t)nt, sizeof(int));
    P->tgt_k = rs_alloc(a, (size_t)nt, sizeof(int));
    P->nt = nt;
    if (!P->Dd || !P->gk0 || !P->gk1 || !P->toff || !P->tgt || !P->tgt_k)
        goto done;
    memset(P->Dd, 0, 3 * (size_t)P->roff[nc] * sizeof(double));
    for (int r = 0; r < nq; r++)
        mark[r] = -1;
    int g = 0, t = 0;
    st = RS_E_MODEL;
    for (int i = 0; i < nc; i++) {
        const int nr = contact_rows(D, i, nq, mark, rows, lmap);
        for (int k = 0; k < 3; k++)
            for (int d = D->colptr[3 * i + k]; d < D->colptr[3 * i + k + 1]; d++)
                P->dpos[d] = 3 * P->roff[i] + k * nr + lmap[D->rowind[d]];
        for (int j = 0; j < nq; j++) {
            int k0, k1;
            group_range(N, i, j, &k0, &k1);
            if (k1 == k0)
                continue;
            P->gk0[g] = k0;
            P->gk1[g] = k1;
            P->toff[g++] = t;
            int p = colptr[j]; /* both row lists increase: one merge */
            for (int r = 0; r < nr; r++) {
                while (p < colptr[j + 1] && rowind[p] < rows[r])
                    p++;
                if (p == colptr[j + 1] || rowind[p] != rows[r])
                    goto done;
                P->tgt[t++] = p;
            }
        }
    }
    st = RS_OK;
done:
    rs_free(a, mark);
    rs_free(a, lmap);
    rs_free(a, rows);
    if (st)
        rs_ck_plan_free(P, a);
    return st;
}

void rs_ck_plan_bind(rs_ck_plan *P, const int *map)
{
    for (int t = 0; t < P->nt; t++)
        P->tgt_k[t] = map[P->tgt[t]];
}

/* Gathers D's values into the plan's dense per-contact blocks (P->Dd). */
static void gather_d(const rs_ck_plan *P, const double *Dv)
{
    for (int d = 0; d < P->D->colptr[3 * P->nc]; d++)
        P->Dd[P->dpos[d]] = Dv[d];
}

/* The kernel of rs_ck_plan_values and rs_ck_plan_add: for each contact i
 * and column j of N_i, w = scale·Cb_i N_i(:, j), then out[t[r]] +=
 * D_i(R_i[r], :) w. */
static void add_products(const rs_ck_plan *P, const int *tgt, const double *Nv, const double *Cb,
                         double scale, double *out)
{
    const int *Nrow = P->N->rowind;
    for (int i = 0; i < P->nc; i++) {
        const int nr = P->roff[i + 1] - P->roff[i];
        const double *d0 = P->Dd + 3 * P->roff[i], *d1 = d0 + nr, *d2 = d1 + nr;
        const double *cb = Cb + 9 * i;
        for (int g = P->goff[i]; g < P->goff[i + 1]; g++) {
            double w0 = 0, w1 = 0, w2 = 0;
            for (int k = P->gk0[g]; k < P->gk1[g]; k++) {
                const int l = Nrow[k] - 3 * i;
                w0 += cb[l] * Nv[k];
                w1 += cb[3 + l] * Nv[k];
                w2 += cb[6 + l] * Nv[k];
            }
            w0 *= scale;
            w1 *= scale;
            w2 *= scale;
            const int *t = tgt + P->toff[g];
            for (int r = 0; r < nr; r++)
                out[t[r]] += d0[r] * w0 + d1[r] * w1 + d2[r] * w2;
        }
    }
}

void rs_ck_plan_add(const rs_ck_plan *P, const double *Dv, const double *Nv, const double *Cb,
                    double scale, double *Ax)
{
    gather_d(P, Dv);
    add_products(P, P->tgt_k, Nv, Cb, scale, Ax);
}

void rs_ck_plan_values(rs_ck_plan *P, const double *Dv, const double *Nv, const double *Cb,
                       double *CKv)
{
    memset(CKv, 0, (size_t)P->nnz_ck * sizeof(double));
    gather_d(P, Dv);
    add_products(P, P->tgt, Nv, Cb, 1.0, CKv);
}
