/*
 * rs_plugin_load.c — dlopen of the plugin libraries (rs_plugin_load.h).
 * Each plugin entry opens its own handle (dlopen counts references, so a
 * library named twice is loaded once).
 */
#define _POSIX_C_SOURCE 200809L
#include "rs_plugin_load.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "rs_error.h"
#include "rs_status.h"

struct rs_plugin_set {
    int n;
    void **handles;
    const rs_plugin_api **tables;
};

void rs_plugin_set_close(rs_plugin_set **sp)
{
    if (!sp || !*sp)
        return;
    rs_plugin_set *s = *sp;
    for (int i = 0; i < s->n; i++)
        if (s->handles[i])
            dlclose(s->handles[i]);
    free(s->handles);
    free((void *)s->tables);
    free(s);
    *sp = NULL;
}

const rs_plugin_api *const *rs_plugin_set_tables(const rs_plugin_set *s)
{
    return s ? (const rs_plugin_api *const *)s->tables : NULL;
}

/* dir NULL: each library where the description says; else dir/NAME.so. */
static int open_set(const rs_model *m, const char *dir, rs_plugin_set **out, char *err, size_t errlen)
{
    if (!out || !m)
        return rs_fail(err, errlen, RS_E_ARG, "rs_plugin_set_open: model or out is NULL");
    *out = NULL;
    if (m->n_plugin <= 0)
        return RS_OK;
    rs_plugin_set *s = calloc(1, sizeof *s);
    if (!s || !(s->handles = calloc((size_t)m->n_plugin, sizeof(void *))) ||
        !(s->tables = calloc((size_t)m->n_plugin, sizeof(rs_plugin_api *)))) {
        rs_plugin_set_close(&s);
        return rs_fail(err, errlen, RS_E_NOMEM, "out of memory opening the plugins");
    }
    s->n = m->n_plugin;
    for (int i = 0; i < m->n_plugin; i++) {
        const rs_model_plugin *g = &m->plugins[i];
        char path[4200];
        if (dir && snprintf(path, sizeof path, "%s/%s.so", dir, g->name) >= (int)sizeof path) {
            rs_plugin_set_close(&s);
            return rs_fail(err, errlen, RS_E_ARG, "plugin '%s': the folder '%s' is too long a path", g->name, dir);
        }
        if (!(s->handles[i] = dlopen(dir ? path : g->library, RTLD_NOW | RTLD_LOCAL))) {
            const char *why = dlerror();
            rs_plugin_set_close(&s);
            if (dir)
                return rs_fail(err, errlen, RS_E_LOAD,
                               "plugin '%s': cannot load its library '%s' (the copy of '%s'): %s", g->name, path,
                               g->library, why ? why : "unknown error");
            return rs_fail(err, errlen, RS_E_LOAD,
                           "plugin '%s': cannot load its library '%s': %s (build it, or correct the 'library' "
                           "of the description: a path, or a bare name the dynamic loader finds)",
                           g->name, g->library, why ? why : "unknown error");
        }
        dlerror();
        void *sym = dlsym(s->handles[i], RS_PLUGIN_ENTRY_SYMBOL);
        if (!sym) {
            rs_plugin_set_close(&s);
            return rs_fail(err, errlen, RS_E_LOAD,
                           "plugin '%s': library '%s' has no function '%s' (a plugin exports "
                           "'const rs_plugin_api *%s(void)', abi/rs_plugin.h)",
                           g->name, g->library, RS_PLUGIN_ENTRY_SYMBOL, RS_PLUGIN_ENTRY_SYMBOL);
        }
        rs_plugin_entry_fn entry;
        *(void **)&entry = sym; /* POSIX: a data pointer holds a function's address */
        const rs_plugin_api *api = entry();
        if (!api || !api->eval) {
            rs_plugin_set_close(&s);
            return rs_fail(err, errlen, RS_E_LOAD, "plugin '%s': library '%s': %s() returned %s", g->name,
                           g->library, RS_PLUGIN_ENTRY_SYMBOL, api ? "a table without eval" : "NULL");
        }
        if (api->abi_version != RS_PLUGIN_ABI_VERSION) {
            const unsigned v = api->abi_version;
            rs_plugin_set_close(&s);
            return rs_fail(err, errlen, RS_E_LOAD,
                           "plugin '%s': library '%s' was built for plugin ABI version %u, this railsym has "
                           "version %d: rebuild it against this railsym's abi/rs_plugin.h",
                           g->name, g->library, v, RS_PLUGIN_ABI_VERSION);
        }
        s->tables[i] = api;
    }
    *out = s;
    return RS_OK;
}

int rs_plugin_set_open(const rs_model *m, rs_plugin_set **out, char *err, size_t errlen)
{
    return open_set(m, NULL, out, err, errlen);
}

int rs_plugin_set_open_dir(const rs_model *m, const char *dir, rs_plugin_set **out, char *err, size_t errlen)
{
    if (!dir)
        return rs_fail(err, errlen, RS_E_ARG, "rs_plugin_set_open_dir: no folder");
    return open_set(m, dir, out, err, errlen);
}
