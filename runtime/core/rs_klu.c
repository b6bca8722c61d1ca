/*
 * rs_klu.c — the only file that calls KLU.  See rs_klu.h for the block
 * structure of the systems and why their pattern is assembled once.
 */
#include <math.h>
#include <string.h>

#include "rs_assert.h"
#include "rs_clock.h"
#include "rs_error.h"
#include "rs_klu.h"

/* S->perm_schur: the AMD order of the A block's own pattern (the leading
 * n_q × n_q part of S: M, its diagonal, the extra pattern), found by KLU's
 * AMD on that sub-matrix, followed by the multipliers in order.  Eliminating
 * the coordinates first (leaves of the bodies' tree before their parents, as
 * AMD orders them) keeps the fill inside the tree's ancestors, and every
 * pivot on A's diagonal; the multipliers then meet the dense Schur
 * complement −s φ_q A⁻¹ φ_qᵀ, again on its diagonal (no fragile pivot, see
 * fragile_pivots). */
static int schur_order(rs_klu_system *S, const rs_allocator *a)
{
    const int nq = S->n_q;
    for (int i = 0; i < S->n; i++)
        S->perm_schur[i] = i;
    if (nq < 2)
        return RS_OK;
    int *Bp = rs_alloc(a, (size_t)nq + 1, sizeof(int));
    int *Bi = rs_alloc(a, (size_t)S->Ap[nq] + 1, sizeof(int));
    if (!Bp || !Bi) {
        rs_free(a, Bp);
        rs_free(a, Bi);
        return RS_E_NOMEM;
    }
    int p = 0;
    for (int j = 0; j < nq; j++) {
        Bp[j] = p;
        for (int k = S->Ap[j]; k < S->Ap[j + 1]; k++)
            if (S->Ai[k] < nq)
                Bi[p++] = S->Ai[k];
    }
    Bp[nq] = p;
    klu_common c = S->common;
    c.btf = 0;
    c.ordering = 0; /* AMD */
    klu_symbolic *sym = klu_analyze(nq, Bp, Bi, &c);
    int st = RS_OK;
    if (sym) {
        for (int k = 0; k < nq; k++)
            S->perm_schur[k] = sym->Q[k];
        klu_free_symbolic(&sym, &c);
    } else {
        S->common.status = c.status;
        st = c.status == KLU_OUT_OF_MEMORY ? RS_E_NOMEM : RS_E_SOLVER;
    }
    rs_free(a, Bp);
    rs_free(a, Bi);
    return st;
}

/* S->perm_tree (RS_KLU_TREE): the coordinates children before parents, and
 * each multiplier as soon as its pivot is robust and its elimination adds
 * no fill beyond what its coordinates already made.
 *
 * A model lists a body's joint coordinates after its parent's (the modeler
 * walks the bodies' tree from the ground), so the model's coordinate order
 * reversed eliminates leaves first: with relative coordinates M couples a
 * coordinate only with its ancestors and descendants, so eliminating a leaf
 * fills nothing.  The elimination tree (etree) of the A block in that order
 * is then the bodies' tree.  A multiplier (a constraint row) goes right
 * after the first coordinate k such that some of its row is eliminated by k
 * and the rest of its row lies on k's path to the etree's root (eliminating
 * it then couples only coordinates already coupled), moved up while k's
 * parent has k as its only child (the rest of the same body's chain: its
 * pivot −s g_E A_EE⁻¹ g_Eᵀ then holds every coordinate of that branch).
 * For a wheel-rail contact: after the wheelset's own coordinates, before
 * its bogie's.  A closed loop spanning two branches waits for their common
 * ancestor; a model whose order does not follow its tree just gets a
 * candidate with more flops, which RS_KLU_AUTO does not pick.  Whether an
 * early multiplier's pivot is robust is judged by fragile_pivots. */
/* parent[k]: the elimination tree of the n × n symmetric pattern adj
 * (row-major, positions in elimination order), -1 at a root; Liu's
 * algorithm with path compression through anc (n ints of scratch). */
static void etree(const unsigned char *adj, int n, int *parent, int *anc)
{
    for (int k = 0; k < n; k++) {
        parent[k] = anc[k] = -1;
        for (int i = 0; i < k; i++) {
            if (!adj[(size_t)k * (size_t)n + (size_t)i])
                continue;
            for (int r = i; r != -1 && r < k;) {
                const int next = anc[r];
                anc[r] = k;
                if (next == -1)
                    parent[r] = k;
                r = next;
            }
        }
    }
}

static int tree_order(rs_klu_system *S, const rs_allocator *a)
{
    const int nq = S->n_q, n = S->n;
    for (int k = 0; k < n; k++)
        S->perm_tree[k] = k;
    if (nq < 1 || n == nq)
        return RS_OK;
    int *pos = rs_alloc(a, (size_t)nq, sizeof(int));
    int *parent = rs_alloc(a, (size_t)nq, sizeof(int));
    int *anc = rs_alloc(a, (size_t)nq, sizeof(int));
    int *nchild = rs_alloc(a, (size_t)nq, sizeof(int));
    int *after = rs_alloc(a, (size_t)(n - nq), sizeof(int));
    unsigned char *adj = rs_alloc(a, (size_t)nq * (size_t)nq, 1);
    int st = RS_E_NOMEM;
    if (!pos || !parent || !anc || !nchild || !after || !adj)
        goto done;
    /* symmetric pattern of the A block, in elimination positions */
    for (int j = 0; j < nq; j++)
        pos[j] = nq - 1 - j;
    for (int j = 0; j < nq; j++)
        for (int p = S->Ap[j]; p < S->Ap[j + 1]; p++)
            if (S->Ai[p] < nq) {
                adj[(size_t)pos[j] * (size_t)nq + (size_t)pos[S->Ai[p]]] = 1;
                adj[(size_t)pos[S->Ai[p]] * (size_t)nq + (size_t)pos[j]] = 1;
            }
    etree(adj, nq, parent, anc);
    for (int k = 0; k < nq; k++)
        if (parent[k] >= 0)
            nchild[parent[k]]++;
    for (int i = 0; i < n - nq; i++) {
        const int col = nq + i; /* its rows: the coordinates of constraint i */
        int at = nq - 1;
        for (int k = 0; k < nq && at == nq - 1; k++) {
            int some = 0, on_path = 1;
            for (int p = S->Ap[col]; p < S->Ap[col + 1] && on_path; p++) {
                if (S->Ai[p] >= nq)
                    continue;
                const int q = pos[S->Ai[p]];
                if (q <= k) {
                    some = 1;
                    continue;
                }
                int r = k;
                while (r != -1 && r != q)
                    r = parent[r];
                on_path = r == q;
            }
            if (some && on_path)
                at = k;
        }
        while (parent[at] >= 0 && nchild[parent[at]] == 1)
            at = parent[at];
        after[i] = at;
    }
    int t = 0;
    for (int k = 0; k < nq; k++) {
        S->perm_tree[t++] = nq - 1 - k;
        for (int i = 0; i < n - nq; i++)
            if (after[i] == k)
                S->perm_tree[t++] = nq + i;
    }
    st = RS_OK;
done:
    rs_free(a, pos);
    rs_free(a, parent);
    rs_free(a, anc);
    rs_free(a, nchild);
    rs_free(a, after);
    rs_free(a, adj);
    return st;
}

int rs_klu_system_build(rs_klu_system *S, const rs_model *m,
                        const rs_pattern *const extra[RS_KLU_EXTRA_PARTS],
                        const rs_allocator *a, char *err, size_t errlen)
{
    memset(S, 0, sizeof *S);
    const int nq = m->n_q, nphi = m->n_phi, n = nq + nphi;
    const rs_pattern *PM = &m->M_pattern, *PG = &m->phi_q_pattern;
    const rs_pattern *X[RS_KLU_EXTRA_PARTS];
    const int nnzM = PM->colptr[nq];
    const int nnzG = nphi > 0 ? PG->colptr[nq] : 0;
    int nnzX = 0; /* the parts' entries, overlaps counted */
    for (int c = 0; c < RS_KLU_EXTRA_PARTS; c++) {
        X[c] = extra ? extra[c] : NULL;
        S->nnz_X[c] = X[c] ? X[c]->colptr[nq] : 0;
        nnzX += S->nnz_X[c];
    }
    const int cap = nnzM + nq + nnzX + 2 * nnzG;

    S->n = n;
    S->n_q = nq;
    S->n_phi = nphi;
    S->nnz_M = nnzM;
    S->nnz_G = nnzG;
    S->Ap = rs_alloc(a, (size_t)n + 1, sizeof(int));
    S->Ai = rs_alloc(a, (size_t)cap, sizeof(int));
    S->Ax = rs_alloc(a, (size_t)cap, sizeof(double));
    S->map_M = rs_alloc(a, (size_t)nnzM + 1, sizeof(int));
    S->map_diag = rs_alloc(a, (size_t)nq, sizeof(int));
    S->map_G = rs_alloc(a, (size_t)nnzG + 1, sizeof(int));
    S->map_GT = rs_alloc(a, (size_t)nnzG + 1, sizeof(int));
    S->map_X = rs_alloc(a, (size_t)nnzX + 1, sizeof(int));
    S->perm_schur = rs_alloc(a, (size_t)n, sizeof(int));
    S->perm_tree = rs_alloc(a, (size_t)n, sizeof(int));
    S->mob_w = rs_alloc(a, (size_t)nq + 1, sizeof(double));
    S->zero_pos = rs_alloc(a, (size_t)nq + (size_t)nnzX + 1, sizeof(int));
    int *cnt = rs_alloc(a, (size_t)nphi + 1, sizeof(int));
    if (!S->Ap || !S->Ai || !S->Ax || !S->map_M || !S->map_diag || !S->map_G ||
        !S->map_GT || !S->map_X || !S->perm_schur || !S->perm_tree || !S->mob_w ||
        !S->zero_pos || !cnt) {
        rs_free(a, cnt);
        rs_klu_system_free(S, a);
        return rs_fail(err, errlen, RS_E_NOMEM, "out of memory assembling the system pattern");
    }
    int *part_map[RS_KLU_EXTRA_PARTS];
    for (int c = 0, at = 0; c < RS_KLU_EXTRA_PARTS; at += S->nnz_X[c++])
        S->map_part[c] = part_map[c] = S->map_X + at;

    /* Columns of the A block: the sorted union of M's rows, the diagonal
     * and the extra parts' rows (all increasing: a merge, each position
     * recorded in the map of every part that has it), then φ_q's rows
     * shifted by n_q (all >= n_q). */
    int p = 0;
    for (int j = 0; j < nq; j++) {
        S->Ap[j] = p;
        int k = PM->colptr[j], kend = PM->colptr[j + 1], diag_done = 0;
        int x[RS_KLU_EXTRA_PARTS], xend[RS_KLU_EXTRA_PARTS], more = 0;
        for (int c = 0; c < RS_KLU_EXTRA_PARTS; c++) {
            x[c] = X[c] ? X[c]->colptr[j] : 0;
            xend[c] = X[c] ? X[c]->colptr[j + 1] : 0;
            more |= x[c] < xend[c];
        }
        while (k < kend || more || !diag_done) {
            int r = diag_done ? nq : j;
            if (k < kend && PM->rowind[k] < r)
                r = PM->rowind[k];
            for (int c = 0; c < RS_KLU_EXTRA_PARTS; c++)
                if (x[c] < xend[c] && X[c]->rowind[x[c]] < r)
                    r = X[c]->rowind[x[c]];
            if (r == j && !diag_done) {
                S->map_diag[j] = p;
                diag_done = 1;
            }
            if (k < kend && PM->rowind[k] == r)
                S->map_M[k++] = p;
            else
                S->zero_pos[S->n_zero++] = p; /* no M entry: rs_klu_system_fill zeroes it */
            more = 0;
            for (int c = 0; c < RS_KLU_EXTRA_PARTS; c++) {
                if (x[c] < xend[c] && X[c]->rowind[x[c]] == r)
                    part_map[c][x[c]++] = p;
                more |= x[c] < xend[c];
            }
            S->Ai[p++] = r;
        }
        if (nphi > 0)
            for (k = PG->colptr[j]; k < PG->colptr[j + 1]; k++) {
                S->map_G[k] = p;
                S->Ai[p++] = nq + PG->rowind[k];
                cnt[PG->rowind[k]]++;
            }
    }
    /* Columns n_q+i hold row i of φ_q (its transpose): visiting φ_q in
     * column order j appends rows j in increasing order. */
    S->Ap[nq] = p;
    for (int i = 0; i < nphi; i++)
        S->Ap[nq + i + 1] = S->Ap[nq + i] + cnt[i];
    for (int i = 0; i < nphi; i++)
        cnt[i] = S->Ap[nq + i];
    for (int j = 0; j < nq && nphi > 0; j++)
        for (int k = PG->colptr[j]; k < PG->colptr[j + 1]; k++) {
            int i = PG->rowind[k];
            S->map_GT[k] = cnt[i];
            S->Ai[cnt[i]++] = j;
        }
    S->nnz = S->Ap[n];
    rs_free(a, cnt);

    klu_defaults(&S->common);
    if ((p = schur_order(S, a)) != RS_OK || (p = tree_order(S, a)) != RS_OK) {
        rs_fail(err, errlen, p, "ordering the %d x %d coordinate block failed (KLU status %d)",
                nq, nq, S->common.status);
        rs_klu_system_free(S, a);
        return p;
    }
    /* AMD without BTF until told otherwise (rs_klu_system_analyze/choose): these
     * saddle-point systems are irreducible, and BTF's maximum transversal
     * may place the zero-diagonal multiplier columns on constraint entries
     * that pass through zero as the mechanism moves, forcing full
     * re-factorizations. */
    int st = rs_klu_system_analyze(S, RS_KLU_AMD, 0);
    if (st) {
        rs_fail(err, errlen, st, "klu_analyze failed on the %d x %d system (KLU status %d)",
                n, n, S->common.status);
        rs_klu_system_free(S, a);
        return st;
    }
    return RS_OK;
}

/* A fresh analysis of S's pattern; NULL on failure (status in c). */
static klu_symbolic *analyze(rs_klu_system *S, int ordering, int btf, klu_common *c)
{
    c->btf = btf;
    if (ordering == RS_KLU_NATURAL) /* P = Q = NULL: the identity */
        return klu_analyze_given(S->n, S->Ap, S->Ai, NULL, NULL, c);
    if (ordering == RS_KLU_AMD_SCHUR)
        return klu_analyze_given(S->n, S->Ap, S->Ai, S->perm_schur, S->perm_schur, c);
    if (ordering == RS_KLU_TREE)
        return klu_analyze_given(S->n, S->Ap, S->Ai, S->perm_tree, S->perm_tree, c);
    c->ordering = ordering; /* KLU's codes: 0 AMD, 1 COLAMD */
    return klu_analyze(S->n, S->Ap, S->Ai, c);
}

int rs_klu_system_analyze(rs_klu_system *S, int ordering, int btf)
{
    /* the workspace checked the options: a concrete ordering is an invariant */
    RS_ASSERT(ordering >= RS_KLU_AMD && ordering <= RS_KLU_TREE && btf >= 0 && btf <= 1);
    klu_symbolic *sym = analyze(S, ordering, btf, &S->common);
    if (!sym)
        return S->common.status == KLU_OUT_OF_MEMORY ? RS_E_NOMEM : RS_E_SOLVER;
    if (S->sym)
        klu_free_symbolic(&S->sym, &S->common);
    S->sym = sym;
    S->ordering = ordering;
    S->btf = btf;
    return RS_OK;
}

static double now_us(void)
{
    return 1e-3 * (double)rs_now_ns();
}

/* Pivots of a factorization of S that may vanish as the mechanism moves,
 * so that a refactorization with them degrades (and falls back to a full
 * factorization, which allocates).  S = [A sGᵀ; G 0] with A = M (+ΔtC) or
 * I, values Ax.  Pivots on A's diagonal are safe (M is positive definite,
 * and so are its Schur complements).  A multiplier column n_q+i on its own
 * diagonal is safe when every coordinate of constraint row i was eliminated
 * before it: the pivot is then −s g_i A⁻¹ g_iᵀ restricted by the earlier
 * constraints, which vanishes only where the constraints are dependent.  It
 * is safe too when the coordinates eliminated before it (E) carry at least
 * RS_KLU_MOBILITY_SHARE of the row's mobility Σ_j g_ij² / M_jj (M's
 * diagonal at the first fill with M, S->mob_w, for every matrix: a unit
 * free yardstick of how much each coordinate moves the constraint; RS_KLU_TREE
 * places a wheel's normal contact after its wheelset's coordinates: about
 * 0.6 of it on the FEVE 3000): its pivot −s g_E A_EE⁻¹ g_Eᵀ then holds the
 * constraint's main motion, which does not pass through zero as the
 * mechanism moves (the fixed-order LU's pivot check stays the guard).  Any
 * other pivot — off the diagonal (a constraint entry, which passes through
 * zero as the mechanism moves; BTF's transversal does this), or a
 * multiplier reached with a minor part of its row eliminated — is
 * fragile.  pos: n ints. */
#define RS_KLU_MOBILITY_SHARE 0.5
static int fragile_pivots(const rs_klu_system *S, const klu_symbolic *sym, const klu_numeric *num,
                          const double *Ax, int *pos)
{
    int bad = 0;
    for (int k = 0; k < S->n; k++)
        pos[sym->Q[k]] = k;
    for (int k = 0; k < S->n; k++) {
        const int col = sym->Q[k];
        if (num->Pnum[k] != col) {
            bad++;
            continue;
        }
        if (col < S->n_q)
            continue;
        /* column n_q+i of S holds s·g_ij at the coordinates j of row i */
        double all = 0, before = 0;
        for (int p = S->Ap[col]; p < S->Ap[col + 1]; p++) {
            const int j = S->Ai[p];
            const double mjj = S->mob_set ? S->mob_w[j] : 1.0;
            const double w = mjj > 0 ? Ax[p] * Ax[p] / mjj : INFINITY;
            all += w;
            if (pos[j] < k)
                before += w;
        }
        if (!(before == all || before >= RS_KLU_MOBILITY_SHARE * all))
            bad++;
    }
    return bad;
}

/* The trial of one candidate: factor, then the fastest of `trials` rounds
 * of refactor + solve.  Returns the µs of that round, or -1 if it failed. */
static double trial(rs_klu_system *S, klu_symbolic *sym, const double *Ax_dyn, const double *Ax_proj,
                    int trials, double rcond_min, double *b, int *pos, double *flops,
                    int *lu_nnz, int *fragile)
{
    klu_common *c = &S->common;
    klu_numeric *nd = NULL, *np = NULL;
    double best = -1;
    nd = klu_factor(S->Ap, S->Ai, (double *)Ax_dyn, sym, c);
    if (!nd || !klu_rcond(sym, nd, c) || !(c->rcond >= rcond_min))
        goto done;
    if (Ax_proj) {
        np = klu_factor(S->Ap, S->Ai, (double *)Ax_proj, sym, c);
        if (!np || !klu_rcond(sym, np, c) || !(c->rcond >= rcond_min))
            goto done;
    }
    *lu_nnz = nd->lnz + nd->unz - S->n + nd->nzoff; /* diagonal counted once */
    *fragile = fragile_pivots(S, sym, nd, Ax_dyn, pos) +
               (np ? fragile_pivots(S, sym, np, Ax_proj, pos) : 0);
    *flops = klu_flops(sym, nd, c) ? c->flops : -1;
    for (int r = 0; r < trials; r++) {
        for (int i = 0; i < S->n; i++)
            b[i] = 1.0;
        const double t0 = now_us();
        int ok = klu_refactor(S->Ap, S->Ai, (double *)Ax_dyn, sym, nd, c) &&
                 klu_solve(sym, nd, S->n, 1, b, c);
        if (ok && np) {
            for (int i = 0; i < S->n; i++)
                b[i] = 1.0;
            ok = klu_refactor(S->Ap, S->Ai, (double *)Ax_proj, sym, np, c) &&
                 klu_solve(sym, np, S->n, 1, b, c);
        }
        const double t = now_us() - t0;
        if (!ok) {
            best = -1;
            goto done;
        }
        if (best < 0 || t < best)
            best = t;
    }
done:
    if (nd)
        klu_free_numeric(&nd, c);
    if (np)
        klu_free_numeric(&np, c);
    return best;
}

int rs_klu_system_choose(rs_klu_system *S, const double *Ax_dyn, const double *Ax_proj, int btf,
                   int trials, double rcond_min, const rs_allocator *a, rs_klu_info *info)
{
    for (int k = 0; k < RS_KLU_CANDIDATES; k++) {
        info->cand_us[k] = -1;
        info->cand_flops[k] = -1;
        info->cand_lu_nnz[k] = -1;
        info->cand_fragile[k] = -1;
    }
    if (trials < 1)
        trials = 1;
    double *b = rs_alloc(a, (size_t)S->n, sizeof(double));
    int *pos = rs_alloc(a, (size_t)S->n, sizeof(int));
    if (!b || !pos) {
        rs_free(a, b);
        rs_free(a, pos);
        return RS_E_NOMEM;
    }
    klu_common *c = &S->common;
    int nomem = 0;
    for (int k = 0; k < RS_KLU_CANDIDATES; k++) {
        const int ord = k / 2, bt = k % 2;
        if (btf >= 0 && bt != btf)
            continue;
        klu_symbolic *sym = analyze(S, ord, bt, c);
        if (!sym) {
            nomem |= c->status == KLU_OUT_OF_MEMORY;
            continue;
        }
        info->cand_us[k] = trial(S, sym, Ax_dyn, Ax_proj, trials, rcond_min, b, pos,
                                 &info->cand_flops[k], &info->cand_lu_nnz[k],
                                 &info->cand_fragile[k]);
        nomem |= c->status == KLU_OUT_OF_MEMORY;
        klu_free_symbolic(&sym, c);
    }
    rs_free(a, b);
    rs_free(a, pos);
    /* Robust first: only the candidates with the fewest fragile pivots (a
     * refactor with a fragile pivot degrades as the mechanism moves, and
     * the full factorization it then needs allocates in a step).  Among
     * those, the one KLU counts the fewest flops for (then fewest LU
     * entries, BTF off, lowest ordering): a deterministic predictor of the
     * refactor's time.  The measured times (info->cand_us) are reported but
     * do not choose: under load they vary by more than the candidates
     * differ, and a choice that changed from run to run would change the
     * results in the last bits (pivot order). */
    int fewest = -1;
    for (int k = 0; k < RS_KLU_CANDIDATES; k++)
        if (info->cand_us[k] >= 0 && (fewest < 0 || info->cand_fragile[k] < fewest))
            fewest = info->cand_fragile[k];
    if (fewest < 0)
        return nomem ? RS_E_NOMEM : RS_E_SINGULAR;
    int pick = -1;
    for (int k = 0; k < RS_KLU_CANDIDATES; k++) {
        if (info->cand_us[k] < 0 || info->cand_fragile[k] != fewest)
            continue;
        if (pick < 0)
            pick = k;
        else if (info->cand_flops[k] != info->cand_flops[pick]
                     ? info->cand_flops[k] < info->cand_flops[pick]
                 : info->cand_lu_nnz[k] != info->cand_lu_nnz[pick]
                     ? info->cand_lu_nnz[k] < info->cand_lu_nnz[pick]
                     : (k % 2) < (pick % 2))
            pick = k;
    }
    int st = rs_klu_system_analyze(S, pick / 2, pick % 2);
    if (st)
        return st;
    info->ordering = S->ordering;
    info->btf = S->btf;
    info->chosen = 1;
    info->n = S->n;
    info->nnz = S->nnz;
    info->nblocks = S->sym->nblocks;
    return RS_OK;
}

void rs_klu_system_free(rs_klu_system *S, const rs_allocator *a)
{
    if (S->sym)
        klu_free_symbolic(&S->sym, &S->common);
    rs_free(a, S->Ap);
    rs_free(a, S->Ai);
    rs_free(a, S->Ax);
    rs_free(a, S->map_M);
    rs_free(a, S->map_diag);
    rs_free(a, S->map_G);
    rs_free(a, S->map_GT);
    rs_free(a, S->map_X);
    rs_free(a, S->perm_schur);
    rs_free(a, S->perm_tree);
    rs_free(a, S->mob_w);
    rs_free(a, S->zero_pos);
    memset(S, 0, sizeof *S);
}

void rs_klu_system_fill(rs_klu_system *S, const double *Mv, const double *Gv, double gt_scale)
{
    if (Mv) {
        /* every position is M's, φ_q's or φ_qᵀ's (assigned below) or in
         * zero_pos (the diagonal or C^K's pattern without an M entry) */
        for (int k = 0; k < S->n_zero; k++)
            S->Ax[S->zero_pos[k]] = 0.0;
        for (int k = 0; k < S->nnz_M; k++)
            S->Ax[S->map_M[k]] = Mv[k];
    } else {
        memset(S->Ax, 0, (size_t)S->nnz * sizeof(double));
        for (int j = 0; j < S->n_q; j++)
            S->Ax[S->map_diag[j]] = 1.0;
    }
    if (Mv && !S->mob_set) { /* fragile_pivots' yardstick, once */
        for (int j = 0; j < S->n_q; j++)
            S->mob_w[j] = fabs(S->Ax[S->map_diag[j]]);
        S->mob_set = 1;
    }
    for (int k = 0; k < S->nnz_G; k++) {
        S->Ax[S->map_G[k]] = Gv[k];
        S->Ax[S->map_GT[k]] = gt_scale * Gv[k];
    }
}

const int *rs_klu_system_extra_map(const rs_klu_system *S, int part)
{
    return S->map_part[part];
}

/* isfinite and >= threshold; a NaN rcond counts as singular. */
static int rcond_ok(double rcond, double threshold)
{
    return rcond == rcond && rcond >= threshold;
}

static int full_factor(rs_klu_system *S, rs_klu_factors *F, double rcond_min, rs_stats *st, int *bad_col);

/* After a full factorization that a failed fixed-order pivot check forced:
 * if KLU kept the pivot order of the fixed LU, that order still suits the
 * values (partial pivoting chose it again), so the fixed LU factors them as
 * its new reference; otherwise it is switched off for F. */
static void fixed_rebase(rs_klu_system *S, rs_klu_factors *F, double rcond_min)
{
    double rc;
    for (int k = 0; k < S->n; k++)
        if (F->num->Pnum[k] != F->fx.prow[k] || S->sym->Q[k] != F->fx.pcol[k]) {
            F->fx_on = 0;
            return;
        }
    F->fx.has_ref = 0;
    if (rs_lu_fixed_factor(&F->fx, S->Ax, 0.0, rcond_min, 1, &rc) == 0)
        F->fx_holds = 1;
    else
        F->fx_on = 0;
}

int rs_klu_factorize(rs_klu_system *S, rs_klu_factors *F, double rcond_min, double rcond_drop,
                   rs_stats *st, int *bad_col)
{
    klu_common *c = &S->common;
    *bad_col = -1;
    if (F->num && F->fx_on) {
        /* the fixed-order LU in KLU's last pivot order: no search, no
         * scaling, no rgrowth pass; its per-pivot check replaces rcond's */
        double rc;
        st->refactors++;
        if (rs_lu_fixed_factor(&F->fx, S->Ax, rcond_drop, rcond_min, 0, &rc) == 0) {
            F->fx_holds = 1;
            st->rcond_last = rc;
            st->lu_fixed_refactors++;
            return RS_OK;
        }
        st->refactor_fallbacks++;
        F->fx_holds = 0;
        klu_free_numeric(&F->num, c);
    } else if (F->num) {
        st->refactors++;
        F->fx_holds = 0; /* KLU's factors from here on */
        if (klu_refactor(S->Ap, S->Ai, S->Ax, S->sym, F->num, c) &&
            klu_rcond(S->sym, F->num, c) &&
            rcond_ok(c->rcond, rcond_min) && rcond_ok(c->rcond, rcond_drop * F->rcond_ref)) {
            st->rcond_last = c->rcond;
            /* Pivots fixed by the last full factorization may now multiply
             * large multipliers although U's diagonal looks fine: klu_rgrowth
             * (min over columns of max|A| / max|U|) catches the growth. */
            if (!(S->rgrowth_drop > 0))
                return RS_OK;
            if (klu_rgrowth(S->Ap, S->Ai, S->Ax, S->sym, F->num, c)) {
                st->rgrowth_last = c->rgrowth;
                if (rcond_ok(c->rgrowth, S->rgrowth_drop * F->rgrowth_ref))
                    return RS_OK;
            }
        }
        /* The pivot order of the last full factorization no longer suits
         * these values: pivot afresh (this allocates, hence only here). */
        st->refactor_fallbacks++;
        klu_free_numeric(&F->num, c);
    }
    int s = full_factor(S, F, rcond_min, st, bad_col);
    if (s == RS_OK && F->fx_on)
        fixed_rebase(S, F, rcond_min);
    return s;
}

/* klu_factor with fresh pivoting (allocates), its rcond and rgrowth as the
 * references of later refactorizations. */
static int full_factor(rs_klu_system *S, rs_klu_factors *F, double rcond_min, rs_stats *st, int *bad_col)
{
    klu_common *c = &S->common;
    F->fx_holds = 0;
    st->factors++;
    F->num = klu_factor(S->Ap, S->Ai, S->Ax, S->sym, c);
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
    if (!klu_rcond(S->sym, F->num, c) || !rcond_ok(c->rcond, rcond_min)) {
        st->rcond_last = c->rcond;
        *bad_col = c->singular_col < S->n ? c->singular_col : -1;
        klu_free_numeric(&F->num, c);
        return RS_E_SINGULAR;
    }
    F->rcond_ref = c->rcond;
    st->rcond_last = c->rcond;
    if (S->rgrowth_drop > 0) {
        F->rgrowth_ref = klu_rgrowth(S->Ap, S->Ai, S->Ax, S->sym, F->num, c) ? c->rgrowth : 0.0;
        st->rgrowth_last = F->rgrowth_ref;
    }
    return RS_OK;
}

int rs_klu_fixed_enable(rs_klu_system *S, rs_klu_factors *F, double rcond_min, const rs_allocator *a)
{
    if (F->fx.n > 0 || !F->num || S->sym->nblocks != 1 || S->n > RS_LU_FIXED_MAX_N)
        return RS_OK;
    int *pos = rs_alloc(a, (size_t)S->n, sizeof(int));
    if (!pos)
        return RS_E_NOMEM;
    const int fragile = fragile_pivots(S, S->sym, F->num, S->Ax, pos);
    rs_free(a, pos);
    if (fragile > 0)
        return RS_OK; /* a refactorization in this order may degrade: KLU's checks */
    int st = rs_lu_fixed_create(&F->fx, S->n, S->Ap, S->Ai, F->num->Pnum, S->sym->Q, a);
    if (st)
        return st == RS_E_NOMEM ? st : RS_OK;
    double rc;
    if (rs_lu_fixed_factor(&F->fx, S->Ax, 0.0, rcond_min, 1, &rc) != 0) {
        rs_lu_fixed_free(&F->fx); /* KLU managed, the fixed order did not */
        return RS_OK;
    }
    F->fx_on = F->fx_holds = 1;
    return RS_OK;
}

int rs_klu_solve(rs_klu_system *S, rs_klu_factors *F, double *b, rs_stats *st)
{
    st->solves++;
    if (F->fx_holds) {
        rs_lu_fixed_solve(&F->fx, b);
        return RS_OK;
    }
    RS_ASSERT(F->num);   /* the step solves only after a factorization succeeded */
    if (!klu_solve(S->sym, F->num, S->n, 1, b, &S->common))
        return RS_E_SOLVER;
    return RS_OK;
}

void rs_klu_factors_free(rs_klu_system *S, rs_klu_factors *F)
{
    if (F->num)
        klu_free_numeric(&F->num, &S->common);
    rs_lu_fixed_free(&F->fx);
    F->fx_on = F->fx_holds = 0;
}
