/*
 * rs_coupled_mpi.c — see rs_coupled_mpi.h.
 *
 * Parts are dealt as evenly as they go: worker w of W (w = 0 … W−1, rank
 * w + 1) holds planes (thermal) or nodes (stress) [n·w/W, n·(w+1)/W).
 * Every buffer is allocated at a model's start; a step sends and receives
 * into them only.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rs_coupled_mpi.h"
#include "rs_error.h"
#include "rs_status.h"
#include "rs_stress.h"
#include "rs_thermal.h"

enum { OP_QUIT = 0, OP_THERMAL_START, OP_THERMAL_STEP, OP_THERMAL_STOP, OP_STRESS_START, OP_STRESS_STEP,
       OP_STRESS_STOP };

typedef struct command {
    int32_t op;
    int32_t pad;
    double x[2];
} command;

static void send_command(int op, double a, double b)
{
    command c = {op, 0, {a, b}};
    MPI_Bcast(&c, (int)sizeof c, MPI_BYTE, 0, MPI_COMM_WORLD);
}

static int part_lo(int n, int w, int W) { return (int)((long)n * w / W); }

/* Rank 0: after a start's Bcast of the spec, the workers' statuses and
 * the go/no-go; returns the first failure (RS_OK: all set up). */
static int root_gather_go(int size)
{
    int32_t mine = RS_OK, go, bad = RS_OK;
    int32_t *all = calloc((size_t)size, sizeof *all);
    MPI_Gather(&mine, 1, MPI_INT32_T, all, 1, MPI_INT32_T, 0, MPI_COMM_WORLD);
    for (int i = 1; all && i < size; i++)
        if (all[i] != RS_OK && bad == RS_OK)
            bad = all[i];
    if (!all)
        bad = RS_E_NOMEM;
    free(all);
    go = bad == RS_OK;
    MPI_Bcast(&go, 1, MPI_INT32_T, 0, MPI_COMM_WORLD);
    return bad;
}

/* A worker's side of the same: its status in, go out. */
static int worker_gather_go(int32_t st)
{
    int32_t go = 0;
    MPI_Gather(&st, 1, MPI_INT32_T, NULL, 1, MPI_INT32_T, 0, MPI_COMM_WORLD);
    MPI_Bcast(&go, 1, MPI_INT32_T, 0, MPI_COMM_WORLD);
    return go;
}

/* ------------------------------------------------------------ thermal, rank 0 */

typedef struct thermal_root {
    int size, running;
    int *counts, *displs;   /* per rank, in doubles                */
    double *recv;           /* 2 nz: each worker's sums then losses */
} thermal_root;

static int thermal_root_start(void *vctx, const rs_thermal_spec *s, char *err, size_t errlen)
{
    thermal_root *r = vctx;
    const int W = r->size - 1;
    if (s->nz < W)
        return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line,
                          "thermal: %d planes along z cannot be split over %d ranks: use 'grid NX NY NZ' with "
                          "NZ >= %d or fewer ranks", s->nz, W, W);
    r->counts = calloc((size_t)r->size, sizeof *r->counts);
    r->displs = calloc((size_t)r->size, sizeof *r->displs);
    r->recv = calloc(2 * (size_t)s->nz, sizeof *r->recv);
    if (!r->counts || !r->displs || !r->recv)
        return rs_fail(err, errlen, RS_E_NOMEM, "thermal: out of memory");
    for (int w = 0; w < W; w++) {
        const int lo = part_lo(s->nz, w, W), hi = part_lo(s->nz, w + 1, W);
        r->counts[w + 1] = 2 * (hi - lo);
        r->displs[w + 1] = 2 * lo;
    }
    send_command(OP_THERMAL_START, 0, 0);
    rs_thermal_spec spec = *s;
    MPI_Bcast(&spec, (int)sizeof spec, MPI_BYTE, 0, MPI_COMM_WORLD);
    const int bad = root_gather_go(r->size);
    r->running = bad == RS_OK;
    if (bad)
        return rs_fail(err, errlen, bad, "thermal: a rank could not set up its slab of the grid (%s)",
                       rs_status_name(bad));
    return RS_OK;
}

static int thermal_root_advance(void *vctx, double P, double dt, double *sum, double *loss)
{
    thermal_root *r = vctx;
    send_command(OP_THERMAL_STEP, P, dt);
    MPI_Gatherv(NULL, 0, MPI_DOUBLE, r->recv, r->counts, r->displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int w = 1; w < r->size; w++) {
        const int n = r->counts[w] / 2, lo = r->displs[w] / 2;
        memcpy(sum + lo, r->recv + 2 * lo, (size_t)n * sizeof *sum);
        memcpy(loss + lo, r->recv + 2 * lo + n, (size_t)n * sizeof *loss);
    }
    return RS_OK;
}

static void thermal_root_stop(void *vctx)
{
    thermal_root *r = vctx;
    if (r->running)
        send_command(OP_THERMAL_STOP, 0, 0);
    r->running = 0;
    free(r->counts);
    free(r->displs);
    free(r->recv);
    r->counts = r->displs = NULL;
    r->recv = NULL;
}

/* ------------------------------------------------------------ stress, rank 0 */

/* One component (a `stress` statement) as rank 0 sees it. */
typedef struct stress_root_beam {
    int running, n_in, n_point;
    int owner[RS_STRESS_MAX];   /* the rank holding each point's element */
    double *recv;               /* size × n_point                        */
} stress_root_beam;

typedef struct stress_root {
    int size;
    stress_root_beam beam[RS_STRESS_MODELS];   /* by slot */
} stress_root;

static int stress_root_start(void *vctx, const rs_stress_spec *s, int *slot, char *err, size_t errlen)
{
    stress_root *r = vctx;
    const int W = r->size - 1;
    *slot = -1;
    int k = 0;
    while (k < RS_STRESS_MODELS && (r->beam[k].running || r->beam[k].recv))
        k++;
    if (k == RS_STRESS_MODELS)
        return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line,
                          "stress %s: more than %d components in one run", s->name, RS_STRESS_MODELS);
    stress_root_beam *rb = &r->beam[k];
    rs_stress_beam b;
    int st = rs_stress_beam_make(s, &b, err, errlen);
    if (st)
        return st;
    if (b.n_nodes < W)
        return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line,
                          "stress %s: %d nodes cannot be split over %d ranks: use 'elements N' with N >= %d or "
                          "fewer ranks", s->name, b.n_nodes, W, W - 1);
    rb->n_in = b.n_in;
    rb->n_point = s->n_point;
    if (!(rb->recv = calloc((size_t)r->size * (size_t)(s->n_point + 1), sizeof *rb->recv)))
        return rs_fail(err, errlen, RS_E_NOMEM, "stress: out of memory");
    *slot = k;
    for (int p = 0; p < s->n_point; p++) {
        const int e = rs_stress_point_element(&b, s->point[p].s);
        int w = 0;
        while (w + 1 < W && part_lo(b.n_nodes, w + 1, W) <= e)
            w++;
        rb->owner[p] = w + 1;
    }
    send_command(OP_STRESS_START, k, 0);
    rs_stress_spec spec = *s;
    MPI_Bcast(&spec, (int)sizeof spec, MPI_BYTE, 0, MPI_COMM_WORLD);
    const int bad = root_gather_go(r->size);
    rb->running = bad == RS_OK;
    if (bad)
        return rs_fail(err, errlen, bad, "stress %s: a rank could not set up its nodes of the beam (%s)", s->name,
                       rs_status_name(bad));
    return RS_OK;
}

static int stress_root_advance(void *vctx, int slot, const double *in, double dt, double *sigma)
{
    stress_root_beam *rb = &((stress_root *)vctx)->beam[slot];
    send_command(OP_STRESS_STEP, dt, slot);
    MPI_Bcast((double *)in, rb->n_in, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Gather(MPI_IN_PLACE, rb->n_point, MPI_DOUBLE, rb->recv, rb->n_point, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int p = 0; p < rb->n_point; p++)
        sigma[p] = rb->recv[(size_t)rb->owner[p] * rb->n_point + p];
    return RS_OK;
}

static void stress_root_stop(void *vctx, int slot)
{
    if (slot < 0 || slot >= RS_STRESS_MODELS)
        return;   /* the start failed before it had one */
    stress_root_beam *rb = &((stress_root *)vctx)->beam[slot];
    if (rb->running)
        send_command(OP_STRESS_STOP, slot, 0);
    rb->running = 0;
    free(rb->recv);
    rb->recv = NULL;
}

/* ------------------------------------------------------------ workers */

typedef struct worker_state {
    int rank, size, below, above;
    rs_thermal_slab *th;
    double *th_buf;            /* 2 nk: plane sums, losses */
    struct {                   /* the components, by slot  */
        rs_stress_slab *slab;
        double *in, *sigma;    /* n_in, n_point            */
        int np;                /* n_point                  */
    } sr[RS_STRESS_MODELS];
} worker_state;

static void thermal_free(worker_state *ws)
{
    rs_thermal_slab_free(&ws->th);
    free(ws->th_buf);
    ws->th_buf = NULL;
}

static void stress_free(worker_state *ws, int slot)
{
    rs_stress_slab_free(&ws->sr[slot].slab);
    free(ws->sr[slot].in);
    free(ws->sr[slot].sigma);
    ws->sr[slot].in = ws->sr[slot].sigma = NULL;
}

/* A command's slot: rank 0 sends only the ones it gave out (-1: a bug). */
static int stress_slot(double x) { return x >= 0 && x < RS_STRESS_MODELS ? (int)x : -1; }

static int thermal_start(worker_state *ws, char *err, size_t errlen)
{
    rs_thermal_spec s;
    MPI_Bcast(&s, (int)sizeof s, MPI_BYTE, 0, MPI_COMM_WORLD);
    thermal_free(ws);
    const int W = ws->size - 1, w = ws->rank - 1;
    const int k0 = part_lo(s.nz, w, W), k1 = part_lo(s.nz, w + 1, W);
    int32_t st = rs_thermal_slab_create(&s, k0, k1, &ws->th, err, errlen);
    if (!st && !(ws->th_buf = calloc(2 * (size_t)(k1 - k0), sizeof *ws->th_buf)))
        st = rs_fail(err, errlen, RS_E_NOMEM, "thermal rank %d: out of memory", ws->rank);
    if (!worker_gather_go(st))
        thermal_free(ws);
    return st;
}

static void thermal_step(worker_state *ws, double P, double dt)
{
    rs_thermal_slab *sl = ws->th;
    const rs_thermal_grid *g = rs_thermal_slab_grid(sl);
    const int k0 = rs_thermal_slab_k0(sl), k1 = rs_thermal_slab_k1(sl), nk = k1 - k0, nxy = g->nx * g->ny;
    const long n = rs_thermal_substeps(g, dt);
    double *buf = ws->th_buf;
    memset(buf + nk, 0, (size_t)nk * sizeof *buf);
    for (long i = 0; i < n; i++) {
        /* halo: my first plane down, my last plane up */
        MPI_Sendrecv(rs_thermal_slab_plane(sl, k0), nxy, MPI_DOUBLE, ws->below, 1, rs_thermal_slab_plane(sl, k1),
                     nxy, MPI_DOUBLE, ws->above, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(rs_thermal_slab_plane(sl, k1 - 1), nxy, MPI_DOUBLE, ws->above, 2,
                     rs_thermal_slab_plane(sl, k0 - 1), nxy, MPI_DOUBLE, ws->below, 2, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        rs_thermal_substep(sl, P, dt / (double)n, buf + nk);
    }
    rs_thermal_plane_sums(sl, buf);
    MPI_Gatherv(buf, 2 * nk, MPI_DOUBLE, NULL, NULL, NULL, MPI_DOUBLE, 0, MPI_COMM_WORLD);
}

static int stress_start(worker_state *ws, int k, char *err, size_t errlen)
{
    rs_stress_spec s;
    MPI_Bcast(&s, (int)sizeof s, MPI_BYTE, 0, MPI_COMM_WORLD);
    stress_free(ws, k);
    rs_stress_beam b;
    int32_t st = rs_stress_beam_make(&s, &b, err, errlen);
    const int W = ws->size - 1, w = ws->rank - 1;
    if (!st)
        st = rs_stress_slab_create(&s, part_lo(b.n_nodes, w, W), part_lo(b.n_nodes, w + 1, W), &ws->sr[k].slab,
                                   err, errlen);
    if (!st && (!(ws->sr[k].in = calloc((size_t)b.n_in, sizeof *ws->sr[k].in)) ||
                !(ws->sr[k].sigma = calloc((size_t)s.n_point + 1, sizeof *ws->sr[k].sigma))))
        st = rs_fail(err, errlen, RS_E_NOMEM, "stress rank %d: out of memory", ws->rank);
    ws->sr[k].np = s.n_point;
    if (!worker_gather_go(st))
        stress_free(ws, k);
    return st;
}

/* The halo nodes: my first node down, my last node up. */
static void stress_halo(worker_state *ws, rs_stress_slab *sl)
{
    const int i0 = rs_stress_slab_i0(sl), i1 = rs_stress_slab_i1(sl);
    MPI_Sendrecv(rs_stress_slab_node(sl, i0), 6, MPI_DOUBLE, ws->below, 3, rs_stress_slab_node(sl, i1), 6,
                 MPI_DOUBLE, ws->above, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(rs_stress_slab_node(sl, i1 - 1), 6, MPI_DOUBLE, ws->above, 4, rs_stress_slab_node(sl, i0 - 1), 6,
                 MPI_DOUBLE, ws->below, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void stress_step(worker_state *ws, int k, double dt)
{
    rs_stress_slab *sl = ws->sr[k].slab;
    const rs_stress_beam *b = rs_stress_slab_beam(sl);
    MPI_Bcast(ws->sr[k].in, b->n_in, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    rs_stress_slab_load(sl, ws->sr[k].in);
    const long n = rs_stress_substeps(b, dt);
    for (long i = 0; i < n; i++) {
        stress_halo(ws, sl);
        rs_stress_substep(sl, dt / (double)n);
    }
    stress_halo(ws, sl);   /* the points' elements read the node above as it is now */
    rs_stress_point_values(sl, ws->sr[k].sigma);   /* the others stay 0 */
    MPI_Gather(ws->sr[k].sigma, ws->sr[k].np, MPI_DOUBLE, NULL, ws->sr[k].np, MPI_DOUBLE, 0, MPI_COMM_WORLD);
}

/* A worker: commands until the quit.  Returns the first failure. */
static int worker(int rank, int size, char *err, size_t errlen)
{
    worker_state ws;
    memset(&ws, 0, sizeof ws);
    ws.rank = rank;
    ws.size = size;
    ws.below = rank > 1 ? rank - 1 : MPI_PROC_NULL;
    ws.above = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    int first = RS_OK;
    for (;;) {
        command c;
        MPI_Bcast(&c, (int)sizeof c, MPI_BYTE, 0, MPI_COMM_WORLD);
        int st = RS_OK;
        if (c.op == OP_QUIT)
            break;
        switch (c.op) {
        case OP_THERMAL_START: st = thermal_start(&ws, err, errlen); break;
        case OP_THERMAL_STEP: thermal_step(&ws, c.x[0], c.x[1]); break;
        case OP_THERMAL_STOP: thermal_free(&ws); break;
        case OP_STRESS_START:
        case OP_STRESS_STEP:
        case OP_STRESS_STOP: {
            const int k = stress_slot(c.op == OP_STRESS_STEP ? c.x[1] : c.x[0]);
            if (k < 0)
                st = rs_fail(err, errlen, RS_E_INTERNAL, "rank %d: stress slot %g out of range", rank,
                             c.op == OP_STRESS_STEP ? c.x[1] : c.x[0]);
            else if (c.op == OP_STRESS_START)
                st = stress_start(&ws, k, err, errlen);
            else if (c.op == OP_STRESS_STEP)
                stress_step(&ws, k, c.x[0]);
            else
                stress_free(&ws, k);
            break;
        }
        default: st = rs_fail(err, errlen, RS_E_INTERNAL, "rank %d: unknown command %d", rank, (int)c.op); break;
        }
        if (st && first == RS_OK)
            first = st;
    }
    thermal_free(&ws);
    for (int k = 0; k < RS_STRESS_MODELS; k++)
        stress_free(&ws, k);
    return first;
}

int rs_coupled_mpi_run(const rs_run_config *c, rs_run_report *rep, int *rank, int *ranks, char *err,
                       size_t errlen)
{
    int inited = 0, size = 1, me = 0;
    MPI_Initialized(&inited);
    if (!inited)
        MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    *rank = me;
    *ranks = size;
    int st;
    if (me != 0) {
        st = worker(me, size, err, errlen);
    } else if (size == 1) {
        st = rs_driver_run(c, rep, err, errlen);
    } else {
        thermal_root tr_ctx;
        stress_root sr_ctx;
        memset(&tr_ctx, 0, sizeof tr_ctx);
        memset(&sr_ctx, 0, sizeof sr_ctx);
        tr_ctx.size = sr_ctx.size = size;
        rs_thermal_transport tr = {thermal_root_start, thermal_root_advance, thermal_root_stop, &tr_ctx};
        rs_stress_transport sr = {stress_root_start, stress_root_advance, stress_root_stop, &sr_ctx};
        rs_run_config c2 = *c;
        c2.thermal_transport = &tr;
        c2.stress_transport = &sr;
        st = rs_driver_run(&c2, rep, err, errlen);
        send_command(OP_QUIT, 0, 0);   /* whatever the run did: the workers return */
    }
    if (!inited)
        MPI_Finalize();
    return st;
}
