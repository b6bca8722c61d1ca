/*
 * rs_park.c — see rs_park.h.
 *
 * Invariants:
 *   - a block's arrays (state, history, predictor, M/F/K/C, right-hand
 *     side, timing) are written only by the thread the plan gives that
 *     block, a link's (port scratch, F/K/C, its two off-diagonal pieces)
 *     only by its link's thread;
 *   - a thread reads another block's predictor only in PS2, after the
 *     barrier that ends PS1, and link outputs only in PS3, after the
 *     barrier that ends PS2;
 *   - M'_i and Q_i add the block's own terms first, then its links in link
 *     order, whatever the plan: sums are the same bits for every plan and
 *     thread count (and so are the Krylov reductions, rs_krylov.c);
 *   - every decision that ends a section early (an error flag, a Krylov
 *     failure) is taken by all threads from the same data after a barrier,
 *     so no thread waits at a barrier the others have left.
 */
#define _POSIX_C_SOURCE 200809L

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rs_artificial.h"
#include "rs_clock.h"
#include "rs_error.h"
#include "rs_park.h"
#include "rs_pool.h"

enum { MODE_INIT, MODE_STEP };
enum { SAMPLE_STEPS = 8, CHUNKS_PER_THREAD = 4 };

/* The probe (rs_park_opts.probe): this many steps on the caller alone,
 * then as many on the team, at the start of each period. */
enum { PROBE_STEPS = 5 };

/* What went wrong, for the message; key = phase × (nb + nl + 1) + index
 * orders errors so the reported one does not depend on the plan. */
enum { E_BLOCKFN = 1, E_LINKFN, E_NONFINITE, E_SINGULAR };

typedef struct terr {
    int key;            /* INT_MAX: none */
    int kind, index, col, code;
} terr;

struct rs_park {
    rs_allocator alloc;
    rs_park_opts opt;
    int nb, nl, n, symmetric;
    rs_park_block_fn bfn;
    rs_park_link_fn lfn;
    rs_park_after_fn afn;
    void *ctx;
    const char **bname, **lname;

    int *off;           /* nb + 1: first coordinate of each block          */
    int *moff;          /* nb + 1: first entry of each block's n×n matrices */
    int *la, *lb, *lna, *lnb;
    int *lpoff;         /* nl + 1: first port (of p = na + nb) of each link */
    int *lports;        /* port local indices: a's then b's, per link      */
    int *lmoff;         /* nl + 1: first entry of each link's p×p matrices */
    int *bl_start, *bl_link, *bl_side;   /* links touching each block, link order */

    double *M, *F, *K, *C;      /* block outputs (n×n, n, n×n, n×n)        */
    double *lq, *lqd, *lF, *lK, *lC;   /* link port values and outputs      */
    double *q, *qd, *qdd, *q1, *q2, *qd1, *qd2, *qp, *qdp, *qddp, *rhs, *x;

    rs_block_matrix *A;
    rs_krylov *kr;
    rs_artificial *ar;               /* solver artificial (else NULL)   */
    rs_pool *pool;
    rs_barrier *bar;

    int *bstart, *blist, *bthread;   /* plan of blocks: threads + 1, nb, nb */
    int *lstart, *llist, *lthread;   /* plan of links                       */
    int *ident;                      /* max(nb, nl): 0, 1, ... the serial
                                        plan's lists (all on thread 0)     */
    int *again;                      /* nb: the block changed its forces
                                        after the solve (rs_park_after_fn) */
    int s_bstart[2], s_lstart[2];    /* the serial plan's offsets           */
    int serial;                      /* this section runs on the caller
                                        alone (same bits: rs_park.h)       */
    double probe_s[2][PROBE_STEPS];  /* probe step times: serial, team      */
    double *bcost, *lcost;           /* measured seconds, accumulated       */
    double *ccost;                   /* chunk costs (planning scratch)      */
    long sampled;                    /* steps measured since the last plan  */
    long clock_steps;                /* steps since create (sampling clock) */
    int timing;                      /* measuring in this section           */

    int mode, hist;
    double t, t_base;
    long k_steps;                    /* steps since t_base                  */
    double cbeta, cbeta2, srhs, beta;

    terr *terr;                      /* one per thread                      */
    rs_krylov_result kres;
    int kfail;
    long iters_this_step;
    rs_park_stats st;
    char msg[512];
};

void rs_park_opts_default(rs_park_opts *o)
{
    memset(o, 0, sizeof *o);
    o->h = 1e-3;
    o->threads = 1;
    rs_krylov_opts_default(&o->krylov);
    o->krylov.tol = 1e-8;   /* on δq: far below the step's truncation error */
    o->corrections = 1;
    o->rebalance = 200;
    o->spin = 50000;
    o->probe = 500;
    o->check_finite = 1;
}

/* ------------------------------------------------------------ plans */

/* Greedy longest-first (rs_pool_plan) over chunks of consecutive tasks,
 * CHUNKS_PER_THREAD per thread: neighbouring vehicles (whose vector blocks
 * share cache lines, and which couplers join) stay on one thread except at
 * chunk ends, while the chunks still balance the measured costs.  Dealing
 * single vehicles longest-first interleaves equal-cost neighbours across
 * threads, and the false sharing made two threads three times slower than
 * one.  Then each thread's share in index order (the order never changes
 * results, only locality). */
static void make_plan(rs_park *pk, int n, const double *cost, int *start, int *list, int *thread)
{
    const int T = pk->opt.threads;
    if (n == 0) {
        for (int t = 0; t <= T; t++)
            start[t] = 0;
        return;
    }
    const int nc = CHUNKS_PER_THREAD * T < n ? CHUNKS_PER_THREAD * T : n;
    double *cc = pk->ccost;
    for (int c = 0; c < nc; c++) {
        const int lo = (int)((long)c * n / nc), hi = (int)((long)(c + 1) * n / nc);
        cc[c] = 0.0;
        for (int i = lo; i < hi; i++)
            cc[c] += cost[i];
    }
    rs_pool_plan(pk->pool, nc, cc);
    for (int c = 0; c < nc; c++) {
        const int lo = (int)((long)c * n / nc), hi = (int)((long)(c + 1) * n / nc);
        const int t = rs_pool_plan_thread(pk->pool, c);
        for (int i = lo; i < hi; i++)
            thread[i] = t;
    }
    start[0] = 0;
    for (int t = 0; t < T; t++) {
        int w = start[t];
        for (int i = 0; i < n; i++)
            if (thread[i] == t)
                list[w++] = i;
        start[t + 1] = w;
    }
}

static void plan_all(rs_park *pk, int measured)
{
    if (!measured) {   /* static estimate: dense factor + products */
        for (int b = 0; b < pk->nb; b++) {
            const double m = pk->off[b + 1] - pk->off[b];
            pk->bcost[b] = m * m * m / 3.0 + 4.0 * m * m + 10.0;
        }
        for (int l = 0; l < pk->nl; l++) {
            const double p = pk->lpoff[l + 1] - pk->lpoff[l];
            pk->lcost[l] = 3.0 * p * p + 10.0;
        }
    }
    make_plan(pk, pk->nb, pk->bcost, pk->bstart, pk->blist, pk->bthread);
    make_plan(pk, pk->nl, pk->lcost, pk->lstart, pk->llist, pk->lthread);
    pk->st.plans++;
    for (int b = 0; b < pk->nb; b++)
        pk->bcost[b] = 0.0;
    for (int l = 0; l < pk->nl; l++)
        pk->lcost[l] = 0.0;
    pk->sampled = 0;
}

void rs_park_replan(rs_park *pk) { plan_all(pk, pk->sampled > 0); }
int rs_park_block_thread(const rs_park *pk, int b) { return b >= 0 && b < pk->nb ? pk->bthread[b] : -1; }
int rs_park_link_thread(const rs_park *pk, int l) { return l >= 0 && l < pk->nl ? pk->lthread[l] : -1; }

/* ------------------------------------------------------------ create */

void rs_park_free(rs_park **ppk)
{
    if (!ppk || !*ppk)
        return;
    rs_park *pk = *ppk;
    const rs_allocator a = pk->alloc;
    rs_pool_free(&pk->pool);
    rs_barrier_free(&pk->bar);
    rs_krylov_free(&pk->kr);
    rs_artificial_free(&pk->ar);
    rs_block_matrix_free(&pk->A);
    void *arrays[] = {pk->bname, pk->lname, pk->off, pk->moff, pk->la, pk->lb, pk->lna, pk->lnb, pk->lpoff,
                      pk->lports, pk->lmoff, pk->bl_start, pk->bl_link, pk->bl_side, pk->M, pk->lq, pk->q,
                      pk->bstart, pk->blist, pk->bthread, pk->lstart, pk->llist, pk->lthread, pk->bcost,
                      pk->lcost, pk->ccost, pk->terr, pk->ident, pk->again};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        rs_free(&a, arrays[i]);
    rs_free(&a, pk);
    *ppk = NULL;
}

/* Options in their ranges. */
static int check_options(const rs_park_opts *o, char *err, size_t errlen)
{
    if (!(o->h > 0.0) || !isfinite(o->h) || o->threads < 1 || o->threads > 256 || o->corrections < 1 ||
        o->corrections > 20 || o->rebalance < 0 || o->spin < 0 || !(o->krylov.tol > 0.0) || o->krylov.maxiter < 0 ||
        (o->probe != 0 && o->probe < 4 * PROBE_STEPS)) {
        return rs_fail(err, errlen, RS_E_ARG,
                       "rs_park_create: options out of range: h > 0 (%g), threads 1..256 (%d), corrections 1..20 (%d), "
                       "rebalance >= 0 (%d), spin >= 0 (%d), Krylov tolerance > 0 (%g), maxiter >= 0 (%d), probe 0 "
                       "or >= %d (%d)",
                       o->h, o->threads, o->corrections, o->rebalance, o->spin, o->krylov.tol, o->krylov.maxiter,
                       4 * PROBE_STEPS, o->probe);
    }
    return RS_OK;
}

/* Block sizes, and each link's blocks and ports, in range. */
static int check_blocks_links(const rs_park_sys *sys, char *err, size_t errlen)
{
    const int nb = sys->nb, nl = sys->nl;
    for (int b = 0; b < nb; b++)
        if (sys->blocks[b].n < 1 || sys->blocks[b].n > 10000)
            return rs_fail(err, errlen, RS_E_ARG,
                           "rs_park_create: block %d ('%s') has %d coordinates (must be 1..10000)", b,
                           sys->blocks[b].name ? sys->blocks[b].name : "?", sys->blocks[b].n);
    for (int l = 0; l < nl; l++) {
        const rs_park_link *L = &sys->links[l];
        const char *ln = L->name ? L->name : "?";
        if (L->a < 0 || L->a >= nb || L->b < 0 || L->b >= nb || L->a == L->b)
            return rs_fail(err, errlen, RS_E_ARG,
                           "rs_park_create: link %d ('%s') joins blocks %d and %d: they must be distinct, in 0..%d",
                           l, ln, L->a, L->b, nb - 1);
        const int na = sys->blocks[L->a].n, nbb = sys->blocks[L->b].n;
        if (L->na < 1 || L->na > na || L->nb < 1 || L->nb > nbb || !L->ia || !L->ib)
            return rs_fail(err, errlen, RS_E_ARG,
                           "rs_park_create: link %d ('%s') needs 1..%d ports on block %d and 1..%d on block %d",
                           l, ln, na, L->a, nbb, L->b);
        for (int s = 0; s < 2; s++) {
            const int *ix = s ? L->ib : L->ia, np = s ? L->nb : L->na, m = s ? nbb : na;
            for (int i = 0; i < np; i++) {
                if (ix[i] < 0 || ix[i] >= m)
                    return rs_fail(err, errlen, RS_E_ARG,
                                   "rs_park_create: link %d ('%s'): port %d = %d is outside block %d (%d coordinates)",
                                   l, ln, i, ix[i], s ? L->b : L->a, m);
                for (int j = 0; j < i; j++)
                    if (ix[j] == ix[i])
                        return rs_fail(err, errlen, RS_E_ARG,
                                       "rs_park_create: link %d ('%s'): port coordinate %d appears twice on one side",
                                       l, ln, ix[i]);
            }
        }
    }
    return RS_OK;
}

/* The index tables: names, offsets, the links of each block, the thread
 * plans and their costs.  0, or -1 when out of memory. */
static int alloc_tables(rs_park *pk)
{
    const rs_allocator *a = &pk->alloc;
    const int nb = pk->nb, nl = pk->nl, T = pk->opt.threads;
    pk->bname = rs_alloc(a, (size_t)nb, sizeof(char *));
    pk->lname = rs_alloc(a, (size_t)nl, sizeof(char *));
    pk->off = rs_alloc(a, (size_t)nb + 1, sizeof(int));
    pk->moff = rs_alloc(a, (size_t)nb + 1, sizeof(int));
    pk->la = rs_alloc(a, (size_t)nl, sizeof(int));
    pk->lb = rs_alloc(a, (size_t)nl, sizeof(int));
    pk->lna = rs_alloc(a, (size_t)nl, sizeof(int));
    pk->lnb = rs_alloc(a, (size_t)nl, sizeof(int));
    pk->lpoff = rs_alloc(a, (size_t)nl + 1, sizeof(int));
    pk->lmoff = rs_alloc(a, (size_t)nl + 1, sizeof(int));
    pk->bl_start = rs_alloc(a, (size_t)nb + 1, sizeof(int));
    pk->bl_link = rs_alloc(a, 2 * (size_t)nl, sizeof(int));
    pk->bl_side = rs_alloc(a, 2 * (size_t)nl, sizeof(int));
    pk->bstart = rs_alloc(a, (size_t)T + 1, sizeof(int));
    pk->blist = rs_alloc(a, (size_t)nb, sizeof(int));
    pk->bthread = rs_alloc(a, (size_t)nb, sizeof(int));
    pk->lstart = rs_alloc(a, (size_t)T + 1, sizeof(int));
    pk->llist = rs_alloc(a, (size_t)nl, sizeof(int));
    pk->lthread = rs_alloc(a, (size_t)nl, sizeof(int));
    pk->bcost = rs_alloc(a, (size_t)nb, sizeof(double));
    pk->lcost = rs_alloc(a, (size_t)nl, sizeof(double));
    pk->ccost = rs_alloc(a, (size_t)(nb > nl ? nb : nl), sizeof(double));
    pk->terr = rs_alloc(a, (size_t)T, sizeof(terr));
    pk->ident = rs_alloc(a, (size_t)(nb > nl ? nb : nl), sizeof(int));
    pk->again = rs_alloc(a, (size_t)nb, sizeof(int));
    return pk->bname && pk->lname && pk->off && pk->moff && pk->la && pk->lb && pk->lna && pk->lnb && pk->lpoff &&
                   pk->lmoff && pk->bl_start && pk->bl_link && pk->bl_side && pk->bstart && pk->blist &&
                   pk->bthread && pk->lstart && pk->llist && pk->lthread && pk->bcost && pk->lcost && pk->ccost &&
                   pk->terr && pk->ident && pk->again
               ? 0
               : -1;
}

/* Where each block and link sits in the state vectors and the matrices,
 * and the links of each block; *nm, *np, *nlm: the sizes of the block
 * matrices, the link ports and the link matrices.  0, or -1 when the
 * sizes overflow an int index. */
static int lay_out(rs_park *pk, const rs_park_sys *sys, size_t *nm_out, size_t *np_out, size_t *nlm_out)
{
    const int nb = pk->nb, nl = pk->nl;
    size_t nm = 0, np = 0, nlm = 0;
    for (int b = 0; b < nb; b++) {
        const int m = sys->blocks[b].n;
        pk->bname[b] = sys->blocks[b].name ? sys->blocks[b].name : "?";
        pk->off[b + 1] = pk->off[b] + m;
        pk->moff[b] = (int)nm;
        nm += (size_t)m * (size_t)m;
    }
    pk->moff[nb] = (int)nm;
    pk->n = pk->off[nb];
    for (int l = 0; l < nl; l++) {
        const rs_park_link *L = &sys->links[l];
        const size_t p = (size_t)L->na + (size_t)L->nb;
        pk->lname[l] = L->name ? L->name : "?";
        pk->la[l] = L->a;
        pk->lb[l] = L->b;
        pk->lna[l] = L->na;
        pk->lnb[l] = L->nb;
        pk->lpoff[l] = (int)np;
        pk->lmoff[l] = (int)nlm;
        np += p;
        nlm += p * p;
        pk->bl_start[L->a + 1]++;
        pk->bl_start[L->b + 1]++;
    }
    pk->lpoff[nl] = (int)np;
    pk->lmoff[nl] = (int)nlm;
    if (nm > INT_MAX / 2 || nlm > INT_MAX / 2 || pk->n > INT_MAX / 16)
        return -1;
    for (int b = 0; b < nb; b++)
        pk->bl_start[b + 1] += pk->bl_start[b];
    for (int b = 0; b < nb; b++) {
        int w = pk->bl_start[b];
        for (int l = 0; l < nl; l++) {
            if (pk->la[l] == b) {
                pk->bl_link[w] = l;
                pk->bl_side[w++] = 0;
            }
            if (pk->lb[l] == b) {
                pk->bl_link[w] = l;
                pk->bl_side[w++] = 1;
            }
        }
    }
    *nm_out = nm;
    *np_out = np;
    *nlm_out = nlm;
    return 0;
}

/* The state: block matrices M, K, C and F; the links' ports, q, q̇, F, K
 * and C; the twelve state vectors; and the ports' coordinates copied from
 * sys.  0, or -1 when out of memory. */
static int alloc_state(rs_park *pk, const rs_park_sys *sys, size_t nm, size_t np, size_t nlm)
{
    const rs_allocator *a = &pk->alloc;
    pk->lports = rs_alloc(a, np, sizeof(int));
    pk->M = rs_alloc(a, 3 * nm + (size_t)pk->n, sizeof(double));
    pk->lq = rs_alloc(a, 3 * np + 2 * nlm, sizeof(double));
    pk->q = rs_alloc(a, 12 * (size_t)pk->n, sizeof(double));
    if (!pk->lports || !pk->M || !pk->lq || !pk->q)
        return -1;
    pk->K = pk->M + nm;
    pk->C = pk->K + nm;
    pk->F = pk->C + nm;
    pk->lqd = pk->lq + np;
    pk->lF = pk->lqd + np;
    pk->lK = pk->lF + np;
    pk->lC = pk->lK + nlm;
    double *v = pk->q;
    double **vecs[] = {&pk->q, &pk->qd, &pk->qdd, &pk->q1, &pk->q2, &pk->qd1,
                       &pk->qd2, &pk->qp, &pk->qdp, &pk->qddp, &pk->rhs, &pk->x};
    for (int i = 0; i < 12; i++)
        *vecs[i] = v + (size_t)i * (size_t)pk->n;
    for (int l = 0; l < pk->nl; l++) {
        const rs_park_link *L = &sys->links[l];
        int *pp = pk->lports + pk->lpoff[l];
        memcpy(pp, L->ia, (size_t)L->na * sizeof(int));
        memcpy(pp + L->na, L->ib, (size_t)L->nb * sizeof(int));
    }
    return 0;
}

/* The coupled system's block matrix (one piece each way per link), its
 * Krylov solver, the barrier and the thread pool.  The message is the
 * failing part's, or create's own when out of memory here. */
static int create_solver(rs_park *pk, char *err, size_t errlen)
{
    const rs_allocator *a = &pk->alloc;
    const int nb = pk->nb, nl = pk->nl, T = pk->opt.threads;
    int *bsize = rs_alloc(a, (size_t)nb, sizeof(int));
    rs_block_matrix_piece_spec *spec = rs_alloc(a, 2 * (size_t)nl, sizeof *spec);
    int st = RS_E_NOMEM;
    if (!bsize || !spec)
        goto nomem;
    for (int b = 0; b < nb; b++)
        bsize[b] = pk->off[b + 1] - pk->off[b];
    for (int l = 0; l < nl; l++) {
        const int *pp = pk->lports + pk->lpoff[l], na = pk->lna[l], nbl = pk->lnb[l];
        spec[2 * l] = (rs_block_matrix_piece_spec){pk->la[l], pk->lb[l], na, nbl, pp, pp + na};
        spec[2 * l + 1] = (rs_block_matrix_piece_spec){pk->lb[l], pk->la[l], nbl, na, pp + na, pp};
    }
    st = rs_block_matrix_create(&pk->A, nb, bsize, 2 * nl, spec, a, err, errlen);
    if (st == RS_OK)
        st = rs_krylov_create(&pk->kr, pk->A, &pk->opt.krylov, a, err, errlen);
    if (st == RS_OK && pk->opt.krylov.method == RS_KRYLOV_ARTIFICIAL)
        st = rs_artificial_create(&pk->ar, pk->A, a, err, errlen);
    if (st == RS_OK && rs_barrier_create(&pk->bar, T, pk->opt.spin) != RS_OK) {
        st = RS_E_NOMEM;
        goto nomem;
    }
    if (st == RS_OK)
        st = rs_pool_create(&pk->pool, T, nb > nl ? nb : nl, err, errlen);
    rs_free(a, bsize);
    rs_free(a, spec);
    return st;
nomem:
    rs_fail(err, errlen, st, "rs_park_create: out of memory (%d blocks, %d links)", nb, nl);
    rs_free(a, bsize);
    rs_free(a, spec);
    return st;
}

int rs_park_create(rs_park **out, const rs_park_sys *sys, const rs_park_opts *opts, char *err, size_t errlen)
{
    if (out)
        *out = NULL;
    if (!out || !sys || sys->nb < 1 || !sys->blocks || !sys->block_fn || sys->nl < 0 ||
        (sys->nl > 0 && (!sys->links || !sys->link_fn))) {
        return rs_fail(err, errlen, RS_E_ARG,
                       "rs_park_create: the system needs nb >= 1 blocks, their function, and (with links) the links and "
                       "their function");
    }
    rs_park_opts o;
    rs_park_opts_default(&o);
    if (opts)
        o = *opts;
    int st = check_options(&o, err, errlen);
    if (st == RS_OK)
        st = check_blocks_links(sys, err, errlen);
    if (st != RS_OK)
        return st;
    if (!o.allocator.alloc || !o.allocator.release)
        o.allocator = (rs_allocator){0};

    rs_park *pk = rs_alloc(&o.allocator, 1, sizeof *pk);
    if (!pk)
        return rs_fail(err, errlen, RS_E_NOMEM, "rs_park_create: out of memory");
    pk->alloc = o.allocator;
    pk->opt = o;
    pk->nb = sys->nb;
    pk->nl = sys->nl;
    pk->symmetric = sys->symmetric != 0;
    pk->bfn = sys->block_fn;
    pk->lfn = sys->link_fn;
    pk->ctx = sys->ctx;
    size_t nm, np, nlm;
    if (alloc_tables(pk) || lay_out(pk, sys, &nm, &np, &nlm) || alloc_state(pk, sys, nm, np, nlm)) {
        rs_fail(err, errlen, RS_E_NOMEM, "rs_park_create: out of memory (%d blocks, %d links)", pk->nb, pk->nl);
        rs_park_free(&pk);
        return RS_E_NOMEM;
    }
    st = create_solver(pk, err, errlen);
    if (st != RS_OK) {
        rs_park_free(&pk);
        return st;
    }
    for (int i = 0; i < (pk->nb > pk->nl ? pk->nb : pk->nl); i++)
        pk->ident[i] = i;
    pk->s_bstart[1] = pk->nb;
    pk->s_lstart[1] = pk->nl;
    plan_all(pk, 0);
    pk->msg[0] = '\0';
    *out = pk;
    return RS_OK;
}

int rs_park_n(const rs_park *pk) { return pk->n; }
int rs_park_offset(const rs_park *pk, int b) { return b >= 0 && b <= pk->nb ? pk->off[b] : -1; }
int rs_park_threads(const rs_park *pk) { return pk->opt.threads; }
double rs_park_h(const rs_park *pk) { return pk->opt.h; }
double *rs_park_q(rs_park *pk) { return pk->q; }
double *rs_park_qd(rs_park *pk) { return pk->qd; }
const double *rs_park_qdd(const rs_park *pk) { return pk->qdd; }
double rs_park_t(const rs_park *pk) { return pk->t; }
const rs_park_stats *rs_park_get_stats(const rs_park *pk) { return &pk->st; }
const char *rs_park_error(const rs_park *pk) { return pk->msg; }

void rs_park_set_t(rs_park *pk, double t)
{
    pk->t = t;
    pk->t_base = t;
    pk->k_steps = 0;
}

/* ------------------------------------------------------------ the section */

static void set_err(rs_park *pk, terr *E, int kind, int index, int col, int code)
{
    const int key = (kind <= E_LINKFN ? kind - 1 : 2) * (pk->nb + pk->nl + 1) + index;
    if (key < E->key) {
        E->key = key;
        E->kind = kind;
        E->index = index;
        E->col = col;
        E->code = code;
    }
}

static int all_finite(const double *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return 0;
    return 1;
}

/* PS1 (evaluation part): the block function at the predictor. */
static void eval_block(rs_park *pk, int b, double t1, terr *E)
{
    const int o = pk->off[b], m = pk->off[b + 1] - o;
    const size_t mm = (size_t)m * (size_t)m;
    double *M = pk->M + pk->moff[b], *K = pk->K + pk->moff[b], *C = pk->C + pk->moff[b], *F = pk->F + o;
    memset(M, 0, mm * sizeof(double));
    memset(K, 0, mm * sizeof(double));
    memset(C, 0, mm * sizeof(double));
    memset(F, 0, (size_t)m * sizeof(double));
    const int code = pk->bfn(pk->ctx, b, t1, pk->qp + o, pk->qdp + o, M, F, K, C);
    if (code != 0)
        set_err(pk, E, E_BLOCKFN, b, -1, code);
}

/* PS2: one link's forces and Jacobians; writes its two off-diagonal pieces
 * βC + β²K and keeps the rest for PS3. */
static void eval_link(rs_park *pk, int l, double t1, terr *E)
{
    const int na = pk->lna[l], p = na + pk->lnb[l];
    const int oa = pk->off[pk->la[l]], ob = pk->off[pk->lb[l]];
    const int *ports = pk->lports + pk->lpoff[l];
    double *q = pk->lq + pk->lpoff[l], *qd = pk->lqd + pk->lpoff[l], *F = pk->lF + pk->lpoff[l];
    double *K = pk->lK + pk->lmoff[l], *C = pk->lC + pk->lmoff[l];
    for (int i = 0; i < p; i++) {
        const int g = (i < na ? oa : ob) + ports[i];
        q[i] = pk->qp[g];
        qd[i] = pk->qdp[g];
        F[i] = 0.0;
    }
    memset(K, 0, (size_t)p * (size_t)p * sizeof(double));
    memset(C, 0, (size_t)p * (size_t)p * sizeof(double));
    const int code = pk->lfn(pk->ctx, l, t1, q, qd, F, K, C);
    if (code != 0)
        set_err(pk, E, E_LINKFN, l, -1, code);
    const double cb = pk->cbeta, cb2 = pk->cbeta2;
    const int nbb = p - na;
    double *Pab = rs_block_matrix_piece(pk->A, 2 * l), *Pba = rs_block_matrix_piece(pk->A, 2 * l + 1);
    for (int j = 0; j < nbb; j++)
        for (int i = 0; i < na; i++) {
            const size_t k = (size_t)i + (size_t)(na + j) * (size_t)p;
            Pab[i + j * na] = cb * C[k] + cb2 * K[k];
        }
    for (int j = 0; j < na; j++)
        for (int i = 0; i < nbb; i++) {
            const size_t k = (size_t)(na + i) + (size_t)j * (size_t)p;
            Pba[i + j * nbb] = cb * C[k] + cb2 * K[k];
        }
}

/* PS3: M'_b = M + βC + β²K (+ links), Q_b = β²(F + links − M q̈^p), factor. */
static void assemble_block(rs_park *pk, int b, terr *E)
{
    const int o = pk->off[b], m = pk->off[b + 1] - o;
    const size_t mm = (size_t)m * (size_t)m;
    const double *M = pk->M + pk->moff[b], *K = pk->K + pk->moff[b], *C = pk->C + pk->moff[b];
    double *F = pk->F + o;   /* becomes the total force (links added) */
    double *D = rs_block_matrix_diag(pk->A, b), *r = pk->rhs + o;
    const double cb = pk->cbeta, cb2 = pk->cbeta2;
    for (size_t k = 0; k < mm; k++)
        D[k] = M[k] + cb * C[k] + cb2 * K[k];
    for (int w = pk->bl_start[b]; w < pk->bl_start[b + 1]; w++) {
        const int l = pk->bl_link[w], side = pk->bl_side[w];
        const int na = pk->lna[l], p = na + pk->lnb[l];
        const int s0 = side ? na : 0, ns = side ? p - na : na;
        const int *ports = pk->lports + pk->lpoff[l] + s0;
        const double *lF = pk->lF + pk->lpoff[l], *lK = pk->lK + pk->lmoff[l], *lC = pk->lC + pk->lmoff[l];
        for (int j = 0; j < ns; j++) {
            for (int i = 0; i < ns; i++) {
                const size_t k = (size_t)(s0 + i) + (size_t)(s0 + j) * (size_t)p;
                D[ports[i] + (size_t)ports[j] * (size_t)m] += cb * lC[k] + cb2 * lK[k];
            }
            F[ports[j]] += lF[s0 + j];
        }
    }
    const double *qddp = pk->qddp + o;
    for (int i = 0; i < m; i++) {
        double s = F[i];
        for (int j = 0; j < m; j++)
            s -= M[i + (size_t)j * (size_t)m] * qddp[j];
        r[i] = pk->srhs * s;
    }
    if (pk->opt.check_finite && (!all_finite(D, mm) || !all_finite(r, (size_t)m))) {
        set_err(pk, E, E_NONFINITE, b, -1, 0);
        return;
    }
    int bad = -1;
    if (rs_krylov_factor_block(pk->kr, pk->A, b, pk->symmetric, &bad) != RS_OK)
        set_err(pk, E, E_SINGULAR, b, bad, 0);
}

static int any_error(const rs_park *pk)
{
    for (int t = 0; t < pk->opt.threads; t++)
        if (pk->terr[t].key != INT_MAX)
            return 1;
    return 0;
}

/* The blocks and links of `thread` in the section's plan (bstart, blist,
 * lstart, llist: the team's plan, or the serial one). */
#define OWN_BLOCKS(b) for (int k_ = bstart[thread], b; k_ < bstart[thread + 1] && (b = blist[k_], 1); k_++)
#define OWN_LINKS(l) for (int k_ = lstart[thread], l; k_ < lstart[thread + 1] && (l = llist[k_], 1); k_++)

static void sync(rs_park *pk)
{
    if (pk->opt.threads > 1 && !pk->serial)
        rs_barrier_wait(pk->bar);
}

/* After a step's solve: each block's after-function (rs_park_after_fn);
 * the blocks that changed their forces are evaluated at the same state
 * and assembled again (assemble_block adds their links to the new F
 * again; the others' M'_i, right-hand side and factors stand).  1: solve
 * again; 0: not, or an error (any_error).  Every thread decides from the
 * same flags, read after the barrier. */
static int after_solve(rs_park *pk, int thread, const int *bstart, const int *blist, double t1, terr *E, int may)
{
    const double ib = 1.0 / pk->beta;
    OWN_BLOCKS(b) {
        const int r = pk->afn(pk->ctx, b, pk->x + pk->off[b], ib, may);
        if (r < 0)
            set_err(pk, E, E_BLOCKFN, b, -1, r);
        pk->again[b] = r > 0;
    }
    sync(pk);
    if (any_error(pk))
        return 0;
    int any = 0;
    for (int b = 0; b < pk->nb; b++)
        any |= pk->again[b];
    if (!any)
        return 0;
    if (thread == 0)
        pk->st.again++;
    OWN_BLOCKS(b) {
        if (pk->again[b]) {
            eval_block(pk, b, t1, E);
            assemble_block(pk, b, E);
        }
    }
    sync(pk);
    return !any_error(pk);
}

static void section(void *ctx, int thread, int unused)
{
    (void)unused;
    rs_park *pk = ctx;
    terr *E = &pk->terr[thread];
    E->key = INT_MAX;
    const int timing = pk->timing;
    const double h = pk->opt.h;
    const double t1 = pk->mode == MODE_STEP ? pk->t_base + (double)(pk->k_steps + 1) * h : pk->t;
    /* pk->serial is set by the caller before the section starts (the pool's
     * barrier publishes it) and read by every thread alike. */
    const int ser = pk->serial;
    const int *bstart = ser ? pk->s_bstart : pk->bstart, *blist = ser ? pk->ident : pk->blist;
    const int *lstart = ser ? pk->s_lstart : pk->lstart, *llist = ser ? pk->ident : pk->llist;
    const rs_team team = {ser ? 1 : pk->opt.threads, ser ? NULL : pk->bar, bstart, blist};

    /* PS1, first part: the predictor (eq. 6 read backwards). */
    double a0 = 1.0, a1 = -1.0, a2 = 0.0, a3 = 0.0;
    if (pk->hist == 1) {
        a0 = 1.5, a1 = -2.0, a2 = 0.5;
    } else if (pk->hist >= 2) {
        a0 = 10.0 / 6.0, a1 = -15.0 / 6.0, a2 = 1.0, a3 = -1.0 / 6.0;
    }
    OWN_BLOCKS(b) {
        for (int i = pk->off[b]; i < pk->off[b + 1]; i++) {
            if (pk->mode == MODE_INIT) {
                pk->qp[i] = pk->q[i];
                pk->qdp[i] = pk->qd[i];
                pk->qddp[i] = 0.0;
                continue;
            }
            const double qp = pk->q[i] + h * pk->qd[i] + 0.5 * h * h * pk->qdd[i];
            const double qdp = (a0 * qp + a1 * pk->q[i] + a2 * pk->q1[i] + a3 * pk->q2[i]) / h;
            pk->qp[i] = qp;
            pk->qdp[i] = qdp;
            pk->qddp[i] = (a0 * qdp + a1 * pk->qd[i] + a2 * pk->qd1[i] + a3 * pk->qd2[i]) / h;
        }
    }
    const int ncorr = pk->mode == MODE_STEP ? pk->opt.corrections : 1;
    for (int c = 0; c < ncorr; c++) {
        /* PS1: block functions */
        OWN_BLOCKS(b) {
            const double t0 = timing ? rs_now_s() : 0.0;
            eval_block(pk, b, t1, E);
            if (timing)
                pk->bcost[b] += rs_now_s() - t0;
        }
        sync(pk);
        /* PS2: link functions */
        OWN_LINKS(l) {
            const double t0 = timing ? rs_now_s() : 0.0;
            eval_link(pk, l, t1, E);
            if (timing)
                pk->lcost[l] += rs_now_s() - t0;
        }
        sync(pk);
        /* PS3: preconditioner blocks and right-hand side */
        OWN_BLOCKS(b) {
            const double t0 = timing ? rs_now_s() : 0.0;
            assemble_block(pk, b, E);
            if (timing)
                pk->bcost[b] += rs_now_s() - t0;
        }
        sync(pk);
        if (any_error(pk))
            return;
        /* PS4-PS7: Krylov; again while a block changes its forces after
         * the solve (rs_park_after_fn), at most RS_PARK_SOLVES_MAX times */
        for (int solve = 1;; solve++) {
            rs_krylov_result res;
            const int st = pk->ar ? rs_artificial_solve(pk->ar, pk->kr, pk->A, pk->rhs, pk->x, pk->opt.krylov.tol,
                                                        pk->opt.krylov.maxiter, &team, thread, &res)
                                  : rs_krylov_solve(pk->kr, pk->A, pk->rhs, pk->x, pk->symmetric, &team, thread, &res);
            if (thread == 0) {
                pk->kres = res;
                pk->kfail = st;
                pk->iters_this_step += res.iterations;
                pk->st.solves++;
                pk->st.krylov_iters += res.iterations;
                if (res.iterations > pk->st.krylov_max)
                    pk->st.krylov_max = res.iterations;
                pk->st.relres_last = res.relres;
            }
            if (st != RS_OK)
                return;
            if (pk->mode != MODE_STEP || !pk->afn ||
                !after_solve(pk, thread, bstart, blist, t1, E, solve < RS_PARK_SOLVES_MAX))
                break;
        }
        if (any_error(pk))
            return;
        /* PS8: the corrector into the predicted state */
        if (pk->mode == MODE_STEP) {
            const double ib = 1.0 / pk->beta, ib2 = ib * ib;
            OWN_BLOCKS(b) {
                for (int i = pk->off[b]; i < pk->off[b + 1]; i++) {
                    const double dq = pk->x[i];
                    pk->qp[i] += dq;
                    pk->qdp[i] += dq * ib;
                    pk->qddp[i] += dq * ib2;
                }
            }
        }
    }
    /* PS9: new state and history */
    OWN_BLOCKS(b) {
        for (int i = pk->off[b]; i < pk->off[b + 1]; i++) {
            if (pk->mode == MODE_INIT) {
                pk->qdd[i] = pk->x[i];
                continue;
            }
            pk->q2[i] = pk->q1[i];
            pk->q1[i] = pk->q[i];
            pk->q[i] = pk->qp[i];
            pk->qd2[i] = pk->qd1[i];
            pk->qd1[i] = pk->qd[i];
            pk->qd[i] = pk->qdp[i];
            pk->qdd[i] = pk->qddp[i];
        }
    }
}

/* ------------------------------------------------------------ driving */

static int report(rs_park *pk, const char *what)
{
    const terr *best = NULL;
    for (int t = 0; t < pk->opt.threads; t++)
        if (pk->terr[t].key != INT_MAX && (!best || pk->terr[t].key < best->key))
            best = &pk->terr[t];
    char head[96];
    if (pk->mode == MODE_STEP)
        snprintf(head, sizeof head, "step %ld, t = %.10g s", pk->st.steps + 1, pk->t);
    else
        snprintf(head, sizeof head, "%s, t = %.10g s", what, pk->t);
    int status;
    if (best) {
        const char *bn = best->kind == E_LINKFN ? pk->lname[best->index] : pk->bname[best->index];
        switch (best->kind) {
        case E_BLOCKFN:
            status = rs_fail(pk->msg, sizeof pk->msg, RS_E_MODELFN,
                             "%s: the model function of vehicle '%s' failed (code %d)", head, bn, best->code);
            break;
        case E_LINKFN:
            status = rs_fail(pk->msg, sizeof pk->msg, RS_E_MODELFN,
                             "%s: the force function of coupler '%s' failed (code %d)", head, bn, best->code);
            break;
        case E_NONFINITE:
            status = rs_fail(pk->msg, sizeof pk->msg, RS_E_NONFINITE,
                             "%s: vehicle '%s': non-finite force or matrix (M + beta C + beta^2 K or the right-hand side)",
                             head, bn);
            break;
        default:
            status = rs_fail(pk->msg, sizeof pk->msg, RS_E_SINGULAR,
                             "%s: vehicle '%s': the block M + beta C + beta^2 K is singular%s at its coordinate %d",
                             head, bn, pk->symmetric ? " or not positive definite (Cholesky)" : " (LU)", best->col);
            break;
        }
        return status;
    }
    const int km = pk->kres.method;
    if (km == RS_KRYLOV_ARTIFICIAL && pk->kfail == RS_E_NOCONV)
        return rs_fail(pk->msg, sizeof pk->msg, pk->kfail,
                       "%s: artificial dynamics %s after %d iterations (relative residual %.3g, tolerance %.3g): "
                       "x <- x + D^-1 (b - A x) contracts by max|1 - lambda| over the eigenvalues of D^-1 A, which "
                       "non-symmetric terms (creep, compiled vehicles) can push to 1 or above; use 'solver gmres' or "
                       "'solver bicgstab'%s",
                       head, pk->kres.relres > 1.0 ? "diverges" : "did not converge", pk->kres.iterations,
                       pk->kres.relres, pk->opt.krylov.tol,
                       pk->kres.relres > 1.0 ? "" : " (or raise 'iterations', or take a smaller step)");
    const char *mn = km == RS_KRYLOV_CG             ? "PCG"
                     : km == RS_KRYLOV_GMRES        ? "GMRES"
                     : km == RS_KRYLOV_ARTIFICIAL   ? "artificial dynamics"
                                                    : "BiCGStab";
    switch (pk->kfail) {
    case RS_E_NOCONV:
        return rs_fail(pk->msg, sizeof pk->msg, pk->kfail,
                       "%s: %s did not converge in %d iterations (relative residual %.3g, tolerance %.3g): a smaller "
                       "step or a larger iteration limit may help",
                       head, mn, pk->kres.iterations, pk->kres.relres, pk->opt.krylov.tol);
    case RS_E_NONFINITE:
        return rs_fail(pk->msg, sizeof pk->msg, pk->kfail,
                       "%s: %s: non-finite residual after %d iterations", head, mn, pk->kres.iterations);
    default:
        return rs_fail(pk->msg, sizeof pk->msg, pk->kfail,
                       "%s: %s broke down after %d iterations%s", head, mn, pk->kres.iterations,
                       pk->kres.method == RS_KRYLOV_CG ? " (the system is not positive definite: is it really symmetric?)"
                                                       : "");
    }
}

/* The median of PROBE_STEPS (5) times: insertion sort of a copy. */
static double median5(const double *v)
{
    double w[PROBE_STEPS];
    for (int i = 0; i < PROBE_STEPS; i++) {
        int j = i;
        for (; j > 0 && w[j - 1] > v[i]; j--)
            w[j] = w[j - 1];
        w[j] = v[i];
    }
    return w[PROBE_STEPS / 2];
}

/* Runs one section.  A failed section leaves q, q̇, q̈ and the history as
 * they were: the failure exits return before PS9, which alone writes them. */
static int run_section(rs_park *pk)
{
    pk->kfail = RS_OK;
    pk->iters_this_step = 0;
    for (int t = 0; t < pk->opt.threads; t++)
        pk->terr[t].key = INT_MAX;
    if (pk->serial || pk->opt.threads == 1)
        section(pk, 0, 0);
    else
        rs_pool_parallel(pk->pool, section, pk);
    if (any_error(pk) || pk->kfail != RS_OK)
        return report(pk, "initialization");
    return RS_OK;
}

void rs_park_set_after_fn(rs_park *pk, rs_park_after_fn fn) { pk->afn = fn; }

int rs_park_init(rs_park *pk)
{
    pk->mode = MODE_INIT;
    pk->cbeta = pk->cbeta2 = 0.0;
    pk->srhs = 1.0;
    pk->timing = 0;
    pk->msg[0] = '\0';
    if (pk->ar)   /* a new start: the last run's solution is no guess */
        rs_artificial_forget(pk->ar);
    const int st = run_section(pk);
    if (st == RS_OK) {
        pk->hist = 0;
        pk->t_base = pk->t;
        pk->k_steps = 0;
    }
    return st;
}

int rs_park_step(rs_park *pk)
{
    pk->mode = MODE_STEP;
    const double h = pk->opt.h;
    const double a0 = pk->hist == 0 ? 1.0 : pk->hist == 1 ? 1.5 : 10.0 / 6.0;
    pk->beta = h / a0;
    pk->cbeta = pk->beta;
    pk->cbeta2 = pk->beta * pk->beta;
    pk->srhs = pk->cbeta2;
    const int R = pk->opt.rebalance;
    const int W = R < SAMPLE_STEPS ? R : SAMPLE_STEPS;
    pk->timing = pk->opt.threads > 1 && R > 0 && pk->clock_steps % R < W;
    /* The probe: the first PROBE_STEPS steps of each period on the caller
     * alone, the next PROBE_STEPS on the team; the rest of the period runs
     * the way whose median step was shorter. */
    const int P = pk->opt.threads > 1 ? pk->opt.probe : 0;
    const long k = P > 0 ? pk->clock_steps % P : -1;
    const int probing = k >= 0 && k < 2 * PROBE_STEPS;
    if (probing)
        pk->serial = k < PROBE_STEPS;
    const double t0 = probing ? rs_now_s() : 0.0;
    const int st = run_section(pk);
    if (st != RS_OK)
        return st;
    pk->st.serial_steps += pk->serial || pk->opt.threads == 1;
    if (probing) {
        pk->probe_s[k < PROBE_STEPS ? 0 : 1][k % PROBE_STEPS] = rs_now_s() - t0;
        if (k == 2 * PROBE_STEPS - 1)
            pk->serial = median5(pk->probe_s[0]) < median5(pk->probe_s[1]);
    }
    pk->k_steps++;
    pk->t = pk->t_base + (double)pk->k_steps * h;
    if (pk->hist < 2)
        pk->hist++;
    pk->st.steps++;
    pk->st.krylov_last = (int)pk->iters_this_step;
    if (pk->timing) {
        pk->sampled++;
        if (pk->clock_steps % R == W - 1)
            plan_all(pk, 1);
    }
    pk->clock_steps++;
    return RS_OK;
}

void rs_park_last_system(const rs_park *pk, const rs_block_matrix **A, const double **rhs, const double **x)
{
    if (A)
        *A = pk->A;
    if (rhs)
        *rhs = pk->rhs;
    if (x)
        *x = pk->x;
}
