/*
 * rs_stress_couple.c — see rs_stress_couple.h.  The in-process transport is
 * the MPI one with a single slab: no halo (the chain's ends are its own).
 */
#include <math.h>
#include <string.h>

#include "rs_alloc.h"
#include "rs_error.h"
#include "rs_status.h"
#include "rs_stress_couple.h"
#include "rs_stress_frame.h"

typedef struct local_beam {
    rs_stress_slab *slab;
    rs_stress_frame *frame;   /* a frame instead (spec's members) */
} local_beam;

static int local_start(void *ctx, const rs_stress_spec *s, int *slot, char *err, size_t errlen)
{
    local_beam *lb = ctx;   /* one per couple: the slot is always 0 */
    *slot = 0;
    if (s->n_member > 0)
        return rs_stress_frame_create(s, &lb->frame, err, errlen);
    rs_stress_beam b;
    int st = rs_stress_beam_make(s, &b, err, errlen);
    return st ? st : rs_stress_slab_create(s, 0, b.n_nodes, &lb->slab, err, errlen);
}

static int local_advance(void *ctx, int slot, const double *in, double dt, double *sigma)
{
    (void)slot;
    local_beam *lb = ctx;
    if (lb->frame) {
        const long n = rs_stress_substeps(rs_stress_frame_summary(lb->frame), dt);
        rs_stress_frame_load(lb->frame, in);
        for (long i = 0; i < n; i++)
            rs_stress_frame_substep(lb->frame, dt / (double)n);
        rs_stress_frame_point_values(lb->frame, sigma);
        return RS_OK;
    }
    const long n = rs_stress_substeps(rs_stress_slab_beam(lb->slab), dt);
    rs_stress_slab_load(lb->slab, in);
    for (long i = 0; i < n; i++)
        rs_stress_substep(lb->slab, dt / (double)n);
    rs_stress_point_values(lb->slab, sigma);
    return RS_OK;
}

static void local_stop(void *ctx, int slot)
{
    (void)slot;
    local_beam *lb = ctx;
    rs_stress_slab_free(&lb->slab);
    rs_stress_frame_free(&lb->frame);
}

struct rs_stress_couple {
    rs_stress_spec spec;
    rs_stress_beam beam;
    rs_stress_transport tr;
    local_beam local;
    int started, slot;
    long steps;                 /* vehicle steps seen after the start          */
    double hist[3][6];          /* v, ω at the last three times (0 the newest) */
    double *in, *sigma;
    long substeps;
};

int rs_stress_couple_create(const rs_stress_spec *s, const rs_stress_transport *tr, rs_stress_couple **out,
                            char *err, size_t errlen)
{
    *out = NULL;
    rs_stress_couple *c = rs_alloc(NULL, 1, sizeof *c);
    if (!c)
        return rs_fail(err, errlen, RS_E_NOMEM, "stress: out of memory");
    c->spec = *s;
    c->slot = -1;   /* until the transport gives one */
    c->tr = tr ? *tr : (rs_stress_transport){local_start, local_advance, local_stop, &c->local};
    int st = s->n_member > 0 ? rs_stress_frame_beam(s, &c->beam, err, errlen)
                             : rs_stress_beam_make(s, &c->beam, err, errlen);
    if (!st && s->n_member > 0 && tr)
        st = rs_fail_at(err, errlen, RS_E_UNSUPPORTED, s->file, s->line,
                        "stress %s: a frame runs in one process (no transport)", s->name);
    if (!st && (!(c->in = rs_alloc(NULL, (size_t)c->beam.n_in, sizeof(double))) ||
                !(c->sigma = rs_alloc(NULL, (size_t)s->n_point + 1, sizeof(double)))))
        st = rs_fail(err, errlen, RS_E_NOMEM, "stress: out of memory");
    if (!st) {
        c->started = 1;   /* stop() ends the workers even after a failed start */
        st = c->tr.start(c->tr.ctx, s, &c->slot, err, errlen);
    }
    if (st) {
        rs_stress_couple_free(&c);
        return st;
    }
    *out = c;
    return RS_OK;
}

void rs_stress_couple_free(rs_stress_couple **c)
{
    if (!c || !*c)
        return;
    if ((*c)->started)
        (*c)->tr.stop((*c)->tr.ctx, (*c)->slot);
    rs_free(NULL, (*c)->in);
    rs_free(NULL, (*c)->sigma);
    rs_free(NULL, *c);
    *c = NULL;
}

static int finite_all(const double *x, int n)
{
    for (int i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return 0;
    return 1;
}

int rs_stress_couple_step(rs_stress_couple *c, const double *v, const double *omega, const double *g,
                          const double *loads, double dt, char *err, size_t errlen)
{
    const int nl = c->spec.n_load;
    if (!finite_all(v, 3) || !finite_all(omega, 3) || (g && !finite_all(g, 3)) || (nl && !finite_all(loads, 3 * nl)))
        return rs_fail(err, errlen, RS_E_NONFINITE,
                       "stress %s: the frame's velocity, angular velocity, gravity or a load is not finite at this "
                       "step",
                       c->spec.name);
    /* the history: newest first */
    memmove(c->hist[1], c->hist[0], 2 * sizeof c->hist[0]);
    memcpy(c->hist[0], v, 3 * sizeof *v);
    memcpy(c->hist[0] + 3, omega, 3 * sizeof *omega);
    if (!(dt > 0))
        return RS_OK;
    c->steps++;
    double *in = c->in, d[6];
    for (int k = 0; k < 6; k++)   /* BDF2 from the third time on */
        d[k] = c->steps >= 2 ? (3 * c->hist[0][k] - 4 * c->hist[1][k] + c->hist[2][k]) / (2 * dt)
                             : (c->hist[0][k] - c->hist[1][k]) / dt;
    const double *w = omega;
    in[RS_STRESS_IN_ACC + 0] = d[0] + (w[1] * v[2] - w[2] * v[1]);
    in[RS_STRESS_IN_ACC + 1] = d[1] + (w[2] * v[0] - w[0] * v[2]);
    in[RS_STRESS_IN_ACC + 2] = d[2] + (w[0] * v[1] - w[1] * v[0]);
    for (int k = 0; k < 3; k++) {
        in[RS_STRESS_IN_ALPHA + k] = d[3 + k];
        in[RS_STRESS_IN_OMEGA + k] = w[k];
        in[RS_STRESS_IN_GRAVITY + k] = g ? g[k] : 0;
    }
    if (nl)
        memcpy(in + RS_STRESS_IN_LOADS, loads, 3 * (size_t)nl * sizeof *loads);
    int st = c->tr.advance(c->tr.ctx, c->slot, in, dt, c->sigma);
    if (st)
        return rs_fail(err, errlen, st, "stress %s: the beam's step failed (%s)", c->spec.name, rs_status_name(st));
    c->substeps = rs_stress_substeps(&c->beam, dt);
    if (!finite_all(c->sigma, c->spec.n_point))
        return rs_fail(err, errlen, RS_E_NONFINITE, "stress %s: a stress is not finite (the sub-step is %g s)",
                       c->spec.name, dt / (double)c->substeps);
    return RS_OK;
}

const double *rs_stress_couple_sigma(const rs_stress_couple *c) { return c->sigma; }
const double *rs_stress_couple_input(const rs_stress_couple *c) { return c->in; }
long rs_stress_couple_substeps(const rs_stress_couple *c) { return c->substeps; }
const rs_stress_beam *rs_stress_couple_beam(const rs_stress_couple *c) { return &c->beam; }
