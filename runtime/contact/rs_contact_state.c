/*
 * rs_contact_state.c — the constraint contact's state copy (the
 * rs_contact_ops state_* entries; rs_ws_state.h, FMI's fmi2GetFMUstate).
 *
 * What a run carries from one step to the next in rs_contact_ws: the spline
 * hints and the fill's cache (segments, coefficients, which u slots hold
 * them), the outputs of the last contact evaluation (creep matrices, forces,
 * creepages, the C^K values and the plan's dense D blocks) and the one-off
 * flags.  Profiles, tracks and patterns are fixed after rs_contact_create
 * and stay out: a copy restores into any workspace of the same model and
 * options, also in another process.  The arrays are listed once (spans), so
 * size, save and restore cannot disagree.
 */
#include <string.h>

#include "rs_contact.h"

enum { N_SPANS = 24 };

typedef struct span {
    void *p;
    size_t bytes;
} span;

/* The mutable arrays of c and their sizes (from the model's patterns). */
static int spans(const rs_contact_ws *c, span *s)
{
    const rs_model *m = c->model;
    const size_t nc = (size_t)c->nc, nq = (size_t)c->nq, d = sizeof(double), i = sizeof(int);
    const size_t nnzPQ = (size_t)m->phi_d_q_pattern.colptr[nq];
    const size_t nnzD = (size_t)m->ddelta_df_pattern.colptr[3 * nc];
    const size_t nnzN = (size_t)m->dnu_dqd_pattern.colptr[nq];
    const size_t nnzCK = (size_t)c->ck_colptr[nq];
    const size_t nDd = c->ckp.roff ? 3 * (size_t)c->ckp.roff[nc] : 0;
    const span all[] = {
        {c->hint, 6 * nc * i}, {c->seg_v, 6 * nc * i}, {c->u_ok, 6 * nc * i}, {c->v, 30 * nc * d},
        {c->phid, 4 * nc * d}, {c->phids, 16 * nc * d}, {c->phidq, nnzPQ * d}, {c->betad, 4 * nc * d},
        {c->nu, 3 * nc * d},   {c->V, nc * d},          {c->radii, 3 * nc * d}, {c->Dv, nnzD * d},
        {c->Nv, nnzN * d},     {c->Cb, 9 * nc * d},     {c->nu_t, 3 * nc * d}, {c->a, nc * d},
        {c->b, nc * d},        {c->f, 3 * nc * d},      {c->xi, 3 * nc * d},   {c->CKv, nnzCK * d},
        {c->ckp.Dd, nDd * d},  {c->geom, 2 * nc * d},
        {(void *)&c->u_dirty, sizeof c->u_dirty}, {(void *)&c->gauge_checked, sizeof c->gauge_checked},
    };
    _Static_assert(sizeof all / sizeof all[0] == N_SPANS, "N_SPANS counts the list");
    memcpy(s, all, sizeof all);
    return N_SPANS;
}

size_t rs_contact_state_size(const rs_contact_ws *c)
{
    span s[N_SPANS];
    size_t n = 0;
    for (int k = spans(c, s) - 1; k >= 0; k--)
        n += s[k].bytes;
    return n;
}

void rs_contact_state_save(const rs_contact_ws *c, void *buf)
{
    span s[N_SPANS];
    char *p = buf;
    for (int k = 0, n = spans(c, s); k < n; k++) {
        if (s[k].bytes)
            memcpy(p, s[k].p, s[k].bytes);
        p += s[k].bytes;
    }
}

void rs_contact_state_restore(rs_contact_ws *c, const void *buf)
{
    span s[N_SPANS];
    const char *p = buf;
    for (int k = 0, n = spans(c, s); k < n; k++) {
        if (s[k].bytes)
            memcpy(s[k].p, p, s[k].bytes);
        p += s[k].bytes;
    }
}
