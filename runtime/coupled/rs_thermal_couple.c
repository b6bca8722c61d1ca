/*
 * rs_thermal_couple.c — see rs_thermal_couple.h.  The in-process transport
 * is the MPI one with a single slab: no halo (the grid's ends are its own).
 */
#include <math.h>
#include <string.h>

#include "rs_alloc.h"
#include "rs_error.h"
#include "rs_status.h"
#include "rs_thermal_couple.h"

typedef struct local_grid {
    rs_thermal_slab *slab;
} local_grid;

static int local_start(void *ctx, const rs_thermal_spec *s, char *err, size_t errlen)
{
    local_grid *lg = ctx;
    return rs_thermal_slab_create(s, 0, s->nz, &lg->slab, err, errlen);
}

static int local_advance(void *ctx, double P, double dt, double *sum, double *loss)
{
    local_grid *lg = ctx;
    const rs_thermal_grid *g = rs_thermal_slab_grid(lg->slab);
    const long n = rs_thermal_substeps(g, dt);
    memset(loss, 0, (size_t)g->nz * sizeof *loss);
    for (long i = 0; i < n; i++)
        rs_thermal_substep(lg->slab, P, dt / (double)n, loss);
    rs_thermal_plane_sums(lg->slab, sum);
    return RS_OK;
}

static void local_stop(void *ctx)
{
    local_grid *lg = ctx;
    rs_thermal_slab_free(&lg->slab);
}

struct rs_thermal_couple {
    rs_thermal_spec spec;
    rs_thermal_grid grid;
    double c_ref;
    rs_thermal_transport tr;
    local_grid local;
    int started;
    double *sum, *loss;
    rs_thermal_energy e;
};

double rs_thermal_coefficient(const rs_thermal_spec *s, double c_ref, double T)
{
    return s->beta == 0 ? c_ref : c_ref * exp(-s->beta * (T - s->t_ref));
}

int rs_thermal_couple_create(const rs_thermal_spec *s, double c_ref, const rs_thermal_transport *tr,
                             rs_thermal_couple **out, char *err, size_t errlen)
{
    *out = NULL;
    rs_thermal_couple *c = rs_alloc(NULL, 1, sizeof *c);
    if (!c)
        return rs_fail(err, errlen, RS_E_NOMEM, "thermal: out of memory");
    c->spec = *s;
    c->c_ref = c_ref;
    if (tr) {
        c->tr = *tr;
    } else {
        c->tr = (rs_thermal_transport){local_start, local_advance, local_stop, &c->local};
    }
    int st = rs_thermal_grid_make(s, &c->grid, err, errlen);
    if (!st && (!(c->sum = rs_alloc(NULL, (size_t)s->nz, sizeof(double))) ||
                !(c->loss = rs_alloc(NULL, (size_t)s->nz, sizeof(double)))))
        st = rs_fail(err, errlen, RS_E_NOMEM, "thermal: out of memory");
    if (!st) {
        c->started = 1;   /* stop() ends the workers even after a failed start */
        st = c->tr.start(c->tr.ctx, s, err, errlen);
    }
    if (st) {
        rs_thermal_couple_free(&c);
        return st;
    }
    c->e.t_mean = s->initial;
    *out = c;
    return RS_OK;
}

void rs_thermal_couple_free(rs_thermal_couple **c)
{
    if (!c || !*c)
        return;
    if ((*c)->started)
        (*c)->tr.stop((*c)->tr.ctx);
    rs_free(NULL, (*c)->sum);
    rs_free(NULL, (*c)->loss);
    rs_free(NULL, *c);
    *c = NULL;
}

int rs_thermal_couple_step(rs_thermal_couple *c, double P, double dt, double *coef, char *err, size_t errlen)
{
    if (dt > 0) {
        if (!isfinite(P))
            return rs_fail(err, errlen, RS_E_NONFINITE, "thermal: the damper power '%s' is %g at this step",
                           c->spec.power, P);
        int st = c->tr.advance(c->tr.ctx, P, dt, c->sum, c->loss);
        if (st)
            return rs_fail(err, errlen, st, "thermal: the grid's step failed (%s)", rs_status_name(st));
        /* plane order, whatever the transport: the same sums on every split */
        double ts = 0, lost = 0;
        for (int k = 0; k < c->grid.nz; k++) {
            ts += c->sum[k];
            lost += c->loss[k];
        }
        c->e.generated += P * dt;
        c->e.lost += lost;
        c->e.t_mean = ts / (double)c->grid.cells;
        c->e.stored = c->grid.cap * (ts - (double)c->grid.cells * c->spec.initial);
        c->e.substeps = rs_thermal_substeps(&c->grid, dt);
    }
    *coef = rs_thermal_coefficient(&c->spec, c->c_ref, c->e.t_mean);
    return RS_OK;
}

void rs_thermal_couple_energy(const rs_thermal_couple *c, rs_thermal_energy *e) { *e = c->e; }
const rs_thermal_grid *rs_thermal_couple_grid(const rs_thermal_couple *c) { return &c->grid; }
