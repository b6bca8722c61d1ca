/*
 * rs_coupled_mpi.c — see rs_coupled_mpi.h.
 *
 * Planes are dealt as evenly as they go: worker w of W (w = 0 … W−1, rank
 * w + 1) holds planes [nz·w/W, nz·(w+1)/W).  Every buffer is allocated at
 * the start; a step sends and receives into them only.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rs_coupled_mpi.h"
#include "rs_error.h"
#include "rs_status.h"
#include "rs_thermal.h"

typedef struct start_msg {
    int32_t run;
    int32_t pad;
    rs_thermal_spec spec;
} start_msg;

/* Rank 0's side of the transport. */
typedef struct root_ctx {
    int size, started, running, nz;
    int *counts, *displs;   /* per rank, in doubles                */
    double *recv;           /* 2 nz: each worker's sums then losses */
} root_ctx;

static int plane_lo(int nz, int w, int W) { return (int)((long)nz * w / W); }

static int root_start(void *vctx, const rs_thermal_spec *s, char *err, size_t errlen)
{
    root_ctx *r = vctx;
    const int W = r->size - 1;
    start_msg m;
    memset(&m, 0, sizeof m);
    m.spec = *s;
    m.run = s->nz >= W;
    r->started = 1;
    MPI_Bcast(&m, (int)sizeof m, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (!m.run)
        return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line,
                          "thermal: %d planes along z cannot be split over %d ranks: use 'grid NX NY NZ' with "
                          "NZ >= %d or fewer ranks", s->nz, W, W);
    r->nz = s->nz;
    r->counts = calloc((size_t)r->size, sizeof *r->counts);
    r->displs = calloc((size_t)r->size, sizeof *r->displs);
    r->recv = calloc(2 * (size_t)s->nz, sizeof *r->recv);
    int32_t mine = r->counts && r->displs && r->recv ? RS_OK : RS_E_NOMEM;
    int32_t *all = calloc((size_t)r->size, sizeof *all);
    for (int w = 0; w < W; w++) {
        const int lo = plane_lo(s->nz, w, W), hi = plane_lo(s->nz, w + 1, W);
        if (r->counts) {
            r->counts[w + 1] = 2 * (hi - lo);
            r->displs[w + 1] = 2 * lo;
        }
    }
    MPI_Gather(&mine, 1, MPI_INT32_T, all, 1, MPI_INT32_T, 0, MPI_COMM_WORLD);
    int32_t go = all != NULL && mine == RS_OK, bad = 0;
    for (int i = 1; all && i < r->size; i++)
        if (all[i] != RS_OK && !bad)
            bad = all[i], go = 0;
    free(all);
    MPI_Bcast(&go, 1, MPI_INT32_T, 0, MPI_COMM_WORLD);
    r->running = go;
    if (!go)
        return rs_fail(err, errlen, bad ? bad : RS_E_NOMEM,
                       "thermal: a rank could not set up its slab of the grid (%s)", rs_status_name(bad ? bad : RS_E_NOMEM));
    return RS_OK;
}

static int root_advance(void *vctx, double P, double dt, double *sum, double *loss)
{
    root_ctx *r = vctx;
    double cmd[3] = {1, P, dt};
    MPI_Bcast(cmd, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Gatherv(NULL, 0, MPI_DOUBLE, r->recv, r->counts, r->displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int w = 1; w < r->size; w++) {
        const int n = r->counts[w] / 2, lo = r->displs[w] / 2;
        memcpy(sum + lo, r->recv + 2 * lo, (size_t)n * sizeof *sum);
        memcpy(loss + lo, r->recv + 2 * lo + n, (size_t)n * sizeof *loss);
    }
    return RS_OK;
}

static void root_stop(void *vctx)
{
    root_ctx *r = vctx;
    double cmd[3] = {0, 0, 0};
    if (r->running)
        MPI_Bcast(cmd, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    free(r->counts);
    free(r->displs);
    free(r->recv);
    r->counts = r->displs = NULL;
    r->recv = NULL;
}

/* A worker: its slab until the stop. */
static int worker(int rank, int size, char *err, size_t errlen)
{
    start_msg m;
    MPI_Bcast(&m, (int)sizeof m, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (!m.run)
        return RS_OK;
    const int W = size - 1, w = rank - 1;
    const int k0 = plane_lo(m.spec.nz, w, W), k1 = plane_lo(m.spec.nz, w + 1, W), nk = k1 - k0;
    rs_thermal_slab *sl = NULL;
    int32_t st = rs_thermal_slab_create(&m.spec, k0, k1, &sl, err, errlen), go = 0;
    double *buf = st ? NULL : calloc(2 * (size_t)nk, sizeof *buf);
    if (!st && !buf)
        st = rs_fail(err, errlen, RS_E_NOMEM, "thermal rank %d: out of memory", rank);
    MPI_Gather(&st, 1, MPI_INT32_T, NULL, 1, MPI_INT32_T, 0, MPI_COMM_WORLD);
    MPI_Bcast(&go, 1, MPI_INT32_T, 0, MPI_COMM_WORLD);
    if (go) {
        const rs_thermal_grid *g = rs_thermal_slab_grid(sl);
        const int nxy = g->nx * g->ny;
        const int below = rank > 1 ? rank - 1 : MPI_PROC_NULL, above = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
        double cmd[3];
        for (;;) {
            MPI_Bcast(cmd, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
            if (cmd[0] == 0)
                break;
            const double P = cmd[1], dt = cmd[2];
            const long n = rs_thermal_substeps(g, dt);
            memset(buf + nk, 0, (size_t)nk * sizeof *buf);
            for (long i = 0; i < n; i++) {
                /* halo: my first plane down, my last plane up */
                MPI_Sendrecv(rs_thermal_slab_plane(sl, k0), nxy, MPI_DOUBLE, below, 1,
                             rs_thermal_slab_plane(sl, k1), nxy, MPI_DOUBLE, above, 1, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE);
                MPI_Sendrecv(rs_thermal_slab_plane(sl, k1 - 1), nxy, MPI_DOUBLE, above, 2,
                             rs_thermal_slab_plane(sl, k0 - 1), nxy, MPI_DOUBLE, below, 2, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE);
                rs_thermal_substep(sl, P, dt / (double)n, buf + nk);
            }
            rs_thermal_plane_sums(sl, buf);
            MPI_Gatherv(buf, 2 * nk, MPI_DOUBLE, NULL, NULL, NULL, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        }
    }
    free(buf);
    rs_thermal_slab_free(&sl);
    return st;
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
        root_ctx r;
        memset(&r, 0, sizeof r);
        r.size = size;
        rs_thermal_transport tr = {root_start, root_advance, root_stop, &r};
        rs_run_config c2 = *c;
        c2.thermal_transport = &tr;
        st = rs_driver_run(&c2, rep, err, errlen);
        if (!r.started) {   /* no thermal model (or the run failed before it): release the workers */
            start_msg m;
            memset(&m, 0, sizeof m);
            MPI_Bcast(&m, (int)sizeof m, MPI_BYTE, 0, MPI_COMM_WORLD);
        }
    }
    if (!inited)
        MPI_Finalize();
    return st;
}
