/*
 * rs_load_tcc.c — compile a model folder in memory with libtcc.
 *
 * libtcc 0.9.27 keeps global compiler state, so compilations are serialized
 * by one mutex (the only global of the runtime, and the reason for it); the
 * compiled code itself is independent per TCCState and runs in any thread.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "rs_error.h"
#include "rs_load_impl.h"
#include "rs_status.h"
#include "rs_tcc_shim.h"

static pthread_mutex_t tcc_lock = PTHREAD_MUTEX_INITIALIZER;

typedef struct msgbuf {
    char *err;
    size_t len;
} msgbuf;

/* libtcc's error callback: messages already read "file:line: error: ...". */
static void on_tcc_error(void *opaque, const char *msg)
{
    msgbuf *b = opaque;
    if (!b)
        return; /* detached: never print from the library */
    size_t used = strlen(b->err);
    if (used + 1 < b->len)
        snprintf(b->err + used, b->len - used, "%s%s", used ? "\n" : "", msg);
}

int rs_load_tcc_impl(rs_loaded *h, const char *const *files, int n, const char *symbol,
                     const rs_load_options *o, char *err, size_t errlen)
{
    int st = RS_OK;
    msgbuf b = {err, errlen};
    err[0] = '\0';
    pthread_mutex_lock(&tcc_lock);
    TCCState *s = tcc_new();
    if (!s) {
        st = rs_fail(err, errlen, RS_E_LOAD, "tcc_new failed");
        goto done;
    }
    h->tcc = s;
    tcc_set_error_func(s, &b, on_tcc_error);
    tcc_set_output_type(s, TCC_OUTPUT_MEMORY);
    tcc_add_include_path(s, o->include_dir);
    for (int i = 0; i < n; i++)
        if (tcc_add_file(s, files[i]) < 0) {
            if (!err[0])
                rs_fail(err, errlen, RS_E_LOAD, "tcc: cannot compile %s", files[i]);
            st = RS_E_LOAD;
            goto done;
        }
    if (tcc_add_library(s, "m") < 0 || rs_tcc_relocate(s) < 0) {
        if (!err[0])
            rs_fail(err, errlen, RS_E_LOAD, "tcc: linking %s failed", files[0]);
        st = RS_E_LOAD;
        goto done;
    }
    void *sym = tcc_get_symbol(s, symbol);
    if (!sym) {
        st = rs_fail(err, errlen, RS_E_LOAD, "%s: no symbol '%s' (is the model name right?)", files[0], symbol);
        goto done;
    }
    rs_model_fn fn;
    memcpy(&fn, &sym, sizeof fn);
    h->model = fn();
    /* Warnings reported into err while compiling are not errors. */
    err[0] = '\0';
done:
    /* The error callback points into the caller's buffer: detach it. */
    if (s)
        tcc_set_error_func(s, NULL, on_tcc_error);
    pthread_mutex_unlock(&tcc_lock);
    return st;
}

void rs_unload_tcc_impl(rs_loaded *h)
{
    tcc_delete((TCCState *)h->tcc);
    h->tcc = NULL;
}
