/*
 * rs_load_impl.h — private: the loaded-model handle and the per-loader
 * entry points behind rs_load_ex.
 */
#ifndef RS_LOAD_IMPL_H
#define RS_LOAD_IMPL_H

#include "rs_load.h"

struct rs_loaded {
    rs_loader kind;
    const rs_model *model;
    void *dl;       /* dlopen handle (RS_LOAD_DLOPEN)  */
    void *tcc;      /* TCCState * (RS_LOAD_TCC)        */
    /* Releases dl / tcc; NULL for static models.  A pointer, not a call,
     * so rs_unload (rs_load_static.c) links without libtcc or libdl: an
     * embedded build needs only rs_load_static.c. */
    void (*release)(struct rs_loaded *h);
};

/* Validates h->model; 0 or RS_E_MODEL with err set. */
int rs_load_finish(rs_loaded *h, char *err, size_t errlen);

/* Each fills h->model and h->dl / h->tcc, or returns non-zero with err set.
 * files: n paths of the folder's .c files, sorted; symbol: "<name>_model". */
int rs_load_dlopen_impl(rs_loaded *h, const char *const *files, int n, const char *symbol,
                        const rs_load_options *opt, char *err, size_t errlen);
int rs_load_tcc_impl(rs_loaded *h, const char *const *files, int n, const char *symbol,
                     const rs_load_options *opt, char *err, size_t errlen);
void rs_unload_dlopen_impl(rs_loaded *h);
void rs_unload_tcc_impl(rs_loaded *h);

#endif /* RS_LOAD_IMPL_H */
