/*
 * rs_ws_state.c — see rs_ws_state.h.
 *
 * A copy is a header (the scalars of the workspace) followed by the block of
 * doubles rs_ws_create allocated: every array of the workspace lives there,
 * so one memcpy carries them all, including any array added later.  A
 * contact model's plug-in state follows (rs_contact_ops state_*), then the
 * user plugins' states (docs/plugins.md; their private contexts are theirs:
 * what must survive a restore belongs in `state`).
 */
#include <string.h>

#include "rs_ws_impl.h"
#include "rs_ws_state.h"

#define STATE_MAGIC 0x52535354u /* "RSST" */

typedef struct state_head {
    unsigned magic;
    unsigned long long model_hash; /* the same model, also in another process */
    size_t n_block;
    size_t n_contact;              /* bytes of the contact plug-in's part */
    size_t n_plugin_state;         /* doubles of the user plugins' states */
    double t, t_base, dt, t_in;
    long n_since_base;
    double energy[2];
    double power[RS_POWER_COUNT];
    int cache_valid, proj_ready, constants_dirty, ready;
    rs_stats stats;
} state_head;

static int usable(const rs_ws *ws)
{
    return ws && ws->magic == RS_WS_MAGIC && (!ws->ct || ws->cops->state_size);
}

/* Bytes of the contact plug-in's part (0 without contacts). */
static size_t contact_len(const rs_ws *ws)
{
    return ws->ct ? ws->cops->state_size(ws->ct) : 0;
}

/* Doubles of the user plugins' states (0 without plugins). */
static size_t plugin_len(const rs_ws *ws)
{
    return ws->n_plug_live > 0 ? (size_t)rs_ws_plugin_state_count(ws) : 0;
}

size_t rs_ws_state_size(const rs_ws *ws)
{
    if (!usable(ws))
        return 0;
    return sizeof(state_head) + (rs_ws_block_len(ws) + plugin_len(ws)) * sizeof(double) + contact_len(ws);
}

int rs_ws_state_save(const rs_ws *ws, void *buf, size_t len)
{
    if (!ws || ws->magic != RS_WS_MAGIC || !buf)
        return RS_E_ARG;
    if (!usable(ws))
        return RS_E_UNSUPPORTED;
    const size_t n = rs_ws_block_len(ws), nc = contact_len(ws), np = plugin_len(ws);
    if (len < sizeof(state_head) + (n + np) * sizeof(double) + nc)
        return RS_E_ARG;
    state_head h;
    memset(&h, 0, sizeof h);
    h.magic = STATE_MAGIC;
    h.model_hash = ws->model_given->content_hash;
    h.n_block = n;
    h.n_contact = nc;
    h.n_plugin_state = np;
    h.t = ws->t;
    h.t_base = ws->t_base;
    h.dt = ws->dt;
    h.t_in = ws->t_in;
    h.n_since_base = ws->n_since_base;
    memcpy(h.energy, ws->energy, sizeof h.energy);
    memcpy(h.power, ws->power, sizeof h.power);
    h.cache_valid = ws->cache_valid;
    h.proj_ready = ws->proj_ready;
    h.constants_dirty = ws->constants_dirty;
    h.ready = ws->ready;
    h.stats = ws->stats;
    memcpy(buf, &h, sizeof h);
    memcpy((char *)buf + sizeof h, ws->block, n * sizeof(double));
    if (ws->qdd_pending) { /* the copy holds the step's q̈ itself (rs_ws_qdd_settle's) */
        char *at = (char *)buf + sizeof h + (size_t)(ws->qdd - ws->block) * sizeof(double);
        for (int j = 0; j < ws->model->n_q; j++) {
            const double a = rs_ws_qdd_pending_value(ws, j);
            memcpy(at + (size_t)j * sizeof a, &a, sizeof a);
        }
    }
    if (nc)
        ws->cops->state_save(ws->ct, (char *)buf + sizeof h + n * sizeof(double));
    if (np)
        memcpy((char *)buf + sizeof h + n * sizeof(double) + nc, ws->plug_state, np * sizeof(double));
    return RS_OK;
}

int rs_ws_state_restore(rs_ws *ws, const void *buf, size_t len)
{
    if (!ws || ws->magic != RS_WS_MAGIC || !buf || len < sizeof(state_head))
        return RS_E_ARG;
    if (!usable(ws))
        return RS_E_UNSUPPORTED;
    state_head h;
    memcpy(&h, buf, sizeof h);
    const size_t n = rs_ws_block_len(ws), nc = contact_len(ws), np = plugin_len(ws);
    if (h.magic != STATE_MAGIC || h.model_hash != ws->model_given->content_hash || h.n_block != n ||
        h.n_contact != nc || h.n_plugin_state != np || len < sizeof h + (n + np) * sizeof(double) + nc)
        return RS_E_ARG;
    memcpy(ws->block, (const char *)buf + sizeof h, n * sizeof(double));
    if (nc)
        ws->cops->state_restore(ws->ct, (const char *)buf + sizeof h + n * sizeof(double));
    if (np)
        memcpy(ws->plug_state, (const char *)buf + sizeof h + n * sizeof(double) + nc, np * sizeof(double));
    ws->t = h.t;
    ws->t_base = h.t_base;
    ws->dt = h.dt;
    ws->t_in = h.t_in;
    ws->n_since_base = h.n_since_base;
    memcpy(ws->energy, h.energy, sizeof h.energy);
    memcpy(ws->power, h.power, sizeof h.power);
    ws->cache_valid = h.cache_valid;
    ws->proj_ready = h.proj_ready;
    ws->constants_dirty = h.constants_dirty;
    ws->ready = h.ready;
    ws->stats = h.stats;
    ws->qdd_pending = 0; /* the copy's qdd is its q̈ */
    return RS_OK;
}
