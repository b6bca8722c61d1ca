/*
 * rs_load_cache.c — compiled model folders loaded once (rs_load_cache.h):
 * a list of (real path, handle) under a mutex; loading happens under the
 * mutex too, so two threads asking for the same new folder load it once.
 */
#define _XOPEN_SOURCE 700

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "rs_error.h"
#include "rs_load_cache.h"
#include "rs_status.h"

typedef struct entry {
    char *path;        /* realpath of the folder */
    rs_loaded *h;
} entry;

struct rs_load_cache {
    rs_loader kind;
    char *cc, *cflags, *include_dir;   /* copies; NULL: the loader's default */
    pthread_mutex_t mu;
    entry *e;
    int n, cap;
};

static char *copy(const char *s, int *failed)
{
    if (!s)
        return NULL;
    char *t = strdup(s);
    if (!t)
        *failed = 1;
    return t;
}

rs_load_cache *rs_load_cache_create(rs_loader kind, const rs_load_options *opt)
{
    if (kind != RS_LOAD_TCC && kind != RS_LOAD_DLOPEN)
        return NULL;
    rs_load_cache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->kind = kind;
    int failed = 0;
    if (opt) {
        c->cc = copy(opt->cc, &failed);
        c->cflags = copy(opt->cflags, &failed);
        c->include_dir = copy(opt->include_dir, &failed);
    }
    pthread_mutex_init(&c->mu, NULL);
    if (failed)
        rs_load_cache_free(&c);
    return c;
}

const rs_model *rs_load_cache_get(rs_load_cache *c, const char *dir, char *err, size_t errlen)
{
    if (!c || !dir) {
        rs_fail(err, errlen, RS_E_ARG, "rs_load_cache_get: no cache or no folder");
        return NULL;
    }
    char real[PATH_MAX];
    /* a folder that does not resolve is left to rs_load, whose message
     * says what is wrong with it */
    const char *key = realpath(dir, real) ? real : dir;
    const rs_model *m = NULL;
    pthread_mutex_lock(&c->mu);
    for (int i = 0; i < c->n && !m; i++)
        if (strcmp(c->e[i].path, key) == 0)
            m = rs_loaded_model(c->e[i].h);
    if (m)
        goto done;
    if (c->n == c->cap) {
        const int cap = c->cap ? 2 * c->cap : 4;
        entry *e = realloc(c->e, (size_t)cap * sizeof *e);
        if (!e) {
            rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
            goto done;
        }
        c->e = e;
        c->cap = cap;
    }
    /* NULL fields: rs_load_ex's defaults; model_name: model.json's (rs_load_model_name) */
    const rs_load_options o = {.cc = c->cc, .cflags = c->cflags, .include_dir = c->include_dir};
    char *path = strdup(key);
    rs_loaded *h = path ? rs_load_ex(dir, c->kind, &o, err, errlen) : NULL;
    if (!path)
        rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
    if (!h) {
        free(path);
        goto done;
    }
    c->e[c->n].path = path;
    c->e[c->n++].h = h;
    m = rs_loaded_model(h);
done:
    pthread_mutex_unlock(&c->mu);
    return m;
}

int rs_load_cache_loads(rs_load_cache *c)
{
    pthread_mutex_lock(&c->mu);
    const int n = c->n;
    pthread_mutex_unlock(&c->mu);
    return n;
}

rs_loader rs_load_cache_kind(const rs_load_cache *c) { return c->kind; }

void rs_load_cache_free(rs_load_cache **pc)
{
    if (!pc || !*pc)
        return;
    rs_load_cache *c = *pc;
    for (int i = 0; i < c->n; i++) {
        rs_unload(&c->e[i].h);
        free(c->e[i].path);
    }
    free(c->e);
    free(c->cc);
    free(c->cflags);
    free(c->include_dir);
    pthread_mutex_destroy(&c->mu);
    free(c);
    *pc = NULL;
}
