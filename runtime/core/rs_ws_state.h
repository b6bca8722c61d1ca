/*
 * rs_ws_state.h — a copy of a workspace's simulation state, to go back to
 * it later (FMI's fmi2GetFMUstate / fmi2SetFMUstate, docs/fmi.md).
 *
 * The copy holds every double of the workspace (state, parameters, inputs,
 * constants, multipliers, the step cache, the last model outputs, the
 * scratch) and its time, flags and statistics, so a run continued from a
 * restored copy repeats the original bit for bit.  What it does not hold:
 * the KLU factorizations, which each step refactors in the pivot order of
 * the last full factorization; a restore is therefore exact as long as no
 * full factorization with new pivoting happened between the copy and the
 * restore (rs_stats.refactor_fallbacks unchanged), which is the normal case.
 *
 * For a model with wheel-rail contacts the copy also holds the plug-in's
 * state (rs_contact_ops state_*: spline and patch hints, the last contact
 * forces, events); a plug-in without those entries is refused
 * (RS_E_UNSUPPORTED, size 0).  With user plugins (docs/plugins.md) it
 * holds their states (rs_plugin_in.state); a plugin's own context (what its
 * init allocated) is not copied.
 *
 * No allocation: the caller gives the buffer (rs_ws_state_size bytes).
 */
#ifndef RS_WS_STATE_H
#define RS_WS_STATE_H

#include <stddef.h>
#include "rs_ws.h"

/* Bytes a copy of ws needs (0 for a bad pointer or a contact plug-in
 * without a state copy). */
size_t rs_ws_state_size(const rs_ws *ws);

/* Writes the copy into buf (len >= rs_ws_state_size(ws)).  RS_OK,
 * RS_E_ARG (a bad pointer or a short buffer) or RS_E_UNSUPPORTED. */
int rs_ws_state_save(const rs_ws *ws, void *buf, size_t len);

/* Puts ws back into the state of a copy rs_ws_state_save wrote from a
 * workspace of the same model and options.  RS_E_ARG when buf is not such
 * a copy (its size or model differs). */
int rs_ws_state_restore(rs_ws *ws, const void *buf, size_t len);

#endif /* RS_WS_STATE_H */
