/*
 * rs_load_static.c — the loader handle of a model linked into the program,
 * and what every handle shares (accessors, validation, rs_unload).
 *
 * This file depends on nothing but the C library and rs_model.c: an
 * embedded build (generated/<model>/ + the core runtime, no libtcc, no
 * libdl) links it alone.  The folder loaders (rs_load.c, dlopen, libtcc)
 * hang their clean-up on rs_loaded.release.
 */
#include <stdlib.h>

#include "rs_error.h"
#include "rs_load_impl.h"
#include "rs_status.h"
#include "rs_ws.h"

int rs_load_finish(rs_loaded *h, char *err, size_t errlen)
{
    char msg[256];
    if (rs_model_validate(h->model, msg, sizeof msg) != RS_OK)
        return rs_fail(err, errlen, RS_E_MODEL, "%s", msg);
    return RS_OK;
}

rs_loaded *rs_load_static(rs_model_fn fn, char *err, size_t errlen)
{
    char dummy[1];
    if (!err || !errlen) {
        err = dummy;
        errlen = sizeof dummy;
    }
    if (!fn) {
        rs_fail(err, errlen, RS_E_ARG, "rs_load_static: descriptor function is NULL");
        return NULL;
    }
    rs_loaded *h = calloc(1, sizeof *h);
    if (!h) {
        rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
        return NULL;
    }
    h->kind = RS_LOAD_STATIC;
    h->model = fn();
    if (rs_load_finish(h, err, errlen)) {
        free(h);
        return NULL;
    }
    return h;
}

const rs_model *rs_loaded_model(const rs_loaded *h) { return h ? h->model : NULL; }
rs_loader rs_loaded_kind(const rs_loaded *h) { return h->kind; }

void rs_unload(rs_loaded **hp)
{
    if (!hp || !*hp)
        return;
    rs_loaded *h = *hp;
    if (h->release)
        h->release(h);
    free(h);
    *hp = NULL;
}
