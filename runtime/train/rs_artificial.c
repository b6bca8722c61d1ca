/*
 * rs_artificial.c — see rs_artificial.h.
 *
 * Invariants (the same as rs_krylov.c's):
 *   - a thread writes only the blocks it owns, and reads other blocks of a
 *     vector only after the barrier that follows their last write: pass k
 *     reads iterate `cur` and writes `nxt`, and pass k + 1 writes `cur`
 *     again only after barrier k, which follows every read of pass k;
 *   - the decision after each barrier is taken from per-block partial sums
 *     added in block order, the same bits on every thread;
 *   - the partial sums of pass k are in slot k & 1, rewritten in pass k + 2,
 *     which starts after barrier k + 1, by which every thread has read them.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <string.h>

#include "rs_artificial.h"
#include "rs_error.h"

/* A residual this many times ‖b‖ means the iteration diverges. */
#define DIVERGED 1e6

struct rs_artificial {
    rs_allocator alloc;
    int nb, n;
    double *xw;     /* n: the last solution (the warm start) */
    double *y;      /* n: the second iterate buffer */
    double *part;   /* 4 nb: ‖r0‖², ‖b‖², then ‖r‖² of two parities */
    int warm;       /* the last solve started from xw */
};

int rs_artificial_create(rs_artificial **out, const rs_block_matrix *A, const rs_allocator *alloc, char *err,
                         size_t errlen)
{
    if (out)
        *out = NULL;
    if (!out || !A)
        return rs_fail(err, errlen, RS_E_ARG, "rs_artificial_create: no matrix");
    rs_allocator a = {0};
    if (alloc && alloc->alloc && alloc->release)
        a = *alloc;
    rs_artificial *ar = rs_alloc(&a, 1, sizeof *ar);
    if (!ar)
        return rs_fail(err, errlen, RS_E_NOMEM, "rs_artificial_create: out of memory");
    ar->alloc = a;
    ar->nb = rs_block_matrix_nblocks(A);
    ar->n = rs_block_matrix_n(A);
    ar->xw = rs_alloc(&a, (size_t)ar->n, sizeof(double));
    ar->y = rs_alloc(&a, (size_t)ar->n, sizeof(double));
    ar->part = rs_alloc(&a, 4 * (size_t)ar->nb, sizeof(double));
    if (!ar->xw || !ar->y || !ar->part) {
        rs_artificial_free(&ar);
        return rs_fail(err, errlen, RS_E_NOMEM, "rs_artificial_create: out of memory (order %d)",
                       rs_block_matrix_n(A));
    }
    *out = ar;
    return RS_OK;
}

void rs_artificial_free(rs_artificial **par)
{
    if (!par || !*par)
        return;
    rs_artificial *ar = *par;
    const rs_allocator a = ar->alloc;
    rs_free(&a, ar->xw);
    rs_free(&a, ar->y);
    rs_free(&a, ar->part);
    rs_free(&a, ar);
    *par = NULL;
}

void rs_artificial_forget(rs_artificial *ar) { memset(ar->xw, 0, (size_t)ar->n * sizeof(double)); }
int rs_artificial_warm(const rs_artificial *ar) { return ar->warm; }

#define FOR_OWN(b) \
    for (int k_ = team->start[thread], b; k_ < team->start[thread + 1] && (b = team->list[k_], 1); k_++)

static void sync(const rs_team *team)
{
    if (team->threads > 1)
        rs_barrier_wait(team->bar);
}

static double sum_parts(const double *p, int nb)
{
    double s = 0.0;
    for (int b = 0; b < nb; b++)
        s += p[b];
    return s;
}

/* r_b = b_b − (A u)_b into r (block b only); returns r_b · r_b. */
static double residual_block(const rs_block_matrix *A, int blk, const double *b, const double *u, double *r)
{
    rs_block_matrix_mul_block(A, blk, u, r);
    const int o = rs_block_matrix_offset(A, blk), m = rs_block_matrix_bsize(A, blk);
    double s = 0.0;
    for (int i = o; i < o + m; i++) {
        r[i] = b[i] - r[i];
        s += r[i] * r[i];
    }
    return s;
}

/* nxt_b = cur_b + D_b⁻¹ r_b, r_b already in nxt_b. */
static void update_block(const rs_krylov *kr, const rs_block_matrix *A, int blk, const double *cur, double *nxt)
{
    rs_krylov_prec_block(kr, blk, nxt);
    const int o = rs_block_matrix_offset(A, blk), m = rs_block_matrix_bsize(A, blk);
    for (int i = o; i < o + m; i++)
        nxt[i] += cur[i];
}

static int finish(rs_krylov_result *res, int status, int it, double rr, double bb)
{
    if (res) {
        res->status = status;
        res->iterations = it;
        res->relres = bb > 0.0 ? sqrt(rr / bb) : 0.0;
        res->method = RS_KRYLOV_ARTIFICIAL;
        res->restarts = 0;
    }
    return status;
}

/* The end: the answer `cur` into x (own blocks), and into the warm start
 * when keep; then the barrier that makes x complete. */
static void conclude(rs_artificial *ar, const rs_block_matrix *A, const double *cur, double *x, int keep,
                     const rs_team *team, int thread)
{
    FOR_OWN(blk) {
        const int o = rs_block_matrix_offset(A, blk), m = rs_block_matrix_bsize(A, blk);
        if (cur != x)
            memcpy(x + o, cur + o, (size_t)m * sizeof(double));
        if (keep)
            memcpy(ar->xw + o, x + o, (size_t)m * sizeof(double));
    }
    sync(team);
}

int rs_artificial_solve(rs_artificial *ar, const rs_krylov *kr, const rs_block_matrix *A, const double *b, double *x,
                        double tol, int maxiter, const rs_team *team, int thread, rs_krylov_result *res)
{
    const int nb = ar->nb;
    double *p0 = ar->part, *pb = p0 + nb, *pr = pb + nb;
    /* Pass 0: the residual of the warm start xw, and the first update of
     * both candidates: xw + D⁻¹ r0 into x, 0 + D⁻¹ b into y. */
    FOR_OWN(blk) {
        const int o = rs_block_matrix_offset(A, blk), m = rs_block_matrix_bsize(A, blk);
        p0[blk] = residual_block(A, blk, b, ar->xw, x);
        update_block(kr, A, blk, ar->xw, x);
        double s = 0.0;
        for (int i = o; i < o + m; i++) {
            ar->y[i] = b[i];
            s += b[i] * b[i];
        }
        pb[blk] = s;
        rs_krylov_prec_block(kr, blk, ar->y);
    }
    sync(team);
    const double rr0 = sum_parts(p0, nb), bb = sum_parts(pb, nb), tol2 = tol * tol * bb;
    if (!isfinite(rr0) || !isfinite(bb)) {
        conclude(ar, A, x, x, 0, team, thread);
        return finish(res, RS_E_NONFINITE, 0, rr0, bb);
    }
    if (thread == 0)   /* read by the caller after the final barrier */
        ar->warm = rr0 < bb;
    if (bb == 0.0 || rr0 <= tol2) {   /* 0, or the warm start, already solves it */
        FOR_OWN(blk) {
            const int o = rs_block_matrix_offset(A, blk), m = rs_block_matrix_bsize(A, blk);
            if (bb == 0.0)
                memset(x + o, 0, (size_t)m * sizeof(double));
            else
                memcpy(x + o, ar->xw + o, (size_t)m * sizeof(double));
        }
        conclude(ar, A, x, x, 1, team, thread);
        return finish(res, RS_OK, 0, bb == 0.0 ? 0.0 : rr0, bb);
    }
    double *cur = rr0 < bb ? x : ar->y, *nxt = cur == x ? ar->y : x;
    double rr = rr0 < bb ? rr0 : bb;
    for (int it = 1;; it++) {
        double *slot = pr + (size_t)(it & 1) * (size_t)nb;
        FOR_OWN(blk) {
            slot[blk] = residual_block(A, blk, b, cur, nxt);
            update_block(kr, A, blk, cur, nxt);
        }
        sync(team);
        rr = sum_parts(slot, nb);   /* of iterate `it`, in cur */
        int st = RS_OK;
        if (!isfinite(rr))
            st = RS_E_NONFINITE;
        else if (rr <= tol2)
            st = RS_OK;
        else if (it >= maxiter || rr > DIVERGED * DIVERGED * bb)
            st = RS_E_NOCONV;
        else {
            double *t = cur;
            cur = nxt;
            nxt = t;
            continue;
        }
        conclude(ar, A, cur, x, st == RS_OK, team, thread);
        return finish(res, st, it, rr, bb);
    }
}
