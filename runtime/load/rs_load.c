/*
 * rs_load.c — the loader handle: folder scan, dispatch to the dlopen and
 * libtcc loaders, validation of what they found.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_error.h"
#include "rs_load_impl.h"
#include "rs_status.h"
#include "rs_ws.h"

#define RS_LOAD_MAX_FILES 256

void rs_load_options_default(rs_load_options *o)
{
    memset(o, 0, sizeof *o);
    o->cc = "cc";
    o->cflags = RS_CFLAGS_O3_NATIVE;
    o->include_dir = RS_ABI_INCLUDE_DIR;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void free_list(char **files, int n)
{
    for (int i = 0; i < n; i++)
        free(files[i]);
}

/* Collects dir/NAME.c sorted by name (deterministic compile order). */
static int scan(const char *dir, char **files, int *n, char *err, size_t errlen)
{
    DIR *d = opendir(dir);
    *n = 0;
    if (!d)
        return rs_fail(err, errlen, RS_E_LOAD, "cannot open model folder '%s'", dir);
    struct dirent *e;
    char *names[RS_LOAD_MAX_FILES];
    int k = 0;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 3 || e->d_name[0] == '.' || strcmp(e->d_name + len - 2, ".c") != 0)
            continue;
        if (k == RS_LOAD_MAX_FILES) {
            free_list(names, k);
            closedir(d);
            return rs_fail(err, errlen, RS_E_LOAD, "model folder '%s' holds more than %d .c files", dir,
                           RS_LOAD_MAX_FILES);
        }
        size_t sz = strlen(dir) + len + 2;
        if (!(names[k] = malloc(sz))) {
            free_list(names, k);
            closedir(d);
            return rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
        }
        snprintf(names[k], sz, "%s/%s", dir, e->d_name);
        k++;
    }
    closedir(d);
    if (k == 0)
        return rs_fail(err, errlen, RS_E_LOAD, "model folder '%s' holds no .c file", dir);
    qsort(names, (size_t)k, sizeof names[0], cmp_str);
    memcpy(files, names, (size_t)k * sizeof names[0]);
    *n = k;
    return RS_OK;
}

/* Base name of a folder path, trailing slashes ignored, into out. */
int rs_load_json_string(const char *dir, const char *key, int (*ok)(char), char *buf, size_t len)
{
    char path[4096], text[1024], pat[64];
    snprintf(path, sizeof path, "%s/model.json", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    const size_t n = fread(text, 1, sizeof text - 1, f);   /* the keys are in the first lines */
    fclose(f);
    text[n] = '\0';
    snprintf(pat, sizeof pat, "\"%s\": \"", key);
    const char *v = strstr(text, pat);
    if (!v)
        return 0;
    v += strlen(pat);
    size_t k = 0;
    for (; v[k] && v[k] != '"'; k++) {
        if (!ok(v[k]) || k + 1 >= len)
            return 0;
        buf[k] = v[k];
    }
    if (v[k] != '"' || k == 0)
        return 0;
    buf[k] = '\0';
    return 1;
}

static int identifier_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
}

char *rs_load_model_name(const char *dir, char *buf, size_t len)
{
    if (!len)
        return buf;
    if (rs_load_json_string(dir, "c_prefix", identifier_char, buf, len))
        return buf;
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    size_t start = n;
    while (start > 0 && dir[start - 1] != '/')
        start--;
    size_t k = 0;
    if (start == n || (dir[start] >= '0' && dir[start] <= '9')) {
        const char *pre = "rs_";
        while (*pre && k + 1 < len)
            buf[k++] = *pre++;
    }
    for (size_t i = start; i < n && k + 1 < len; i++)
        buf[k++] = identifier_char(dir[i]) ? dir[i] : '_';
    buf[k] = '\0';
    return buf;
}

#define FNV_OFFSET 0xcbf29ce484222325ull

static unsigned long long fnv_update(unsigned long long h, const unsigned char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

unsigned long long rs_fnv1a64(const void *bytes, size_t n)
{
    return fnv_update(FNV_OFFSET, bytes, n);
}

/* The descriptor's content_hash against DIR/model.json: a folder whose C
 * was compiled from another model.json (an edit, a copy of one file) is
 * refused.  No model.json or a hash of 0 (hand-written C): nothing to check. */
static int check_model_json(const char *dir, const rs_model *m, char *err, size_t errlen)
{
    if (!m->content_hash)
        return 0;
    char path[4096];
    snprintf(path, sizeof path, "%s/model.json", dir);
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    unsigned long long h = FNV_OFFSET;
    unsigned char buf[8192];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        h = fnv_update(h, buf, n);
    const int read_err = ferror(f);
    fclose(f);
    if (read_err)
        return rs_fail(err, errlen, RS_E_IO, "%s: cannot read", path);
    if (h != m->content_hash)
        return rs_fail(err, errlen, RS_E_MODEL,
                       "%s does not match the model's C (content hash %016llx, the C says %016llx): "
                       "recompile the model with railsym compile", path, h, m->content_hash);
    return 0;
}

/* Releases what the folder loaders opened (rs_loaded.release). */
static void release_folder_model(rs_loaded *h)
{
    if (h->dl)
        rs_unload_dlopen_impl(h);
    if (h->tcc)
        rs_unload_tcc_impl(h);
}

rs_loaded *rs_load(const char *dir, rs_loader kind, char *err, size_t errlen)
{
    return rs_load_ex(dir, kind, NULL, err, errlen);
}

rs_loaded *rs_load_ex(const char *dir, rs_loader kind, const rs_load_options *opt,
                      char *err, size_t errlen)
{
    char dummy[1];
    if (!err || !errlen) {
        err = dummy;
        errlen = sizeof dummy;
    }
    err[0] = '\0';
    if (!dir) {
        rs_fail(err, errlen, RS_E_ARG, "rs_load: folder is NULL");
        return NULL;
    }
    if (kind == RS_LOAD_STATIC) {
        rs_fail(err, errlen, RS_E_ARG, "rs_load: a static model is linked in: use rs_load_static(%s)",
                "MODEL_model");
        return NULL;
    }
    if (kind != RS_LOAD_DLOPEN && kind != RS_LOAD_TCC) {
        rs_fail(err, errlen, RS_E_ARG, "rs_load: unknown loader %d", (int)kind);
        return NULL;
    }
    rs_load_options o;
    rs_load_options_default(&o);
    if (opt) {
        if (opt->cc)
            o.cc = opt->cc;
        if (opt->cflags)
            o.cflags = opt->cflags;
        if (opt->include_dir)
            o.include_dir = opt->include_dir;
        o.model_name = opt->model_name;
        o.keep_dir = opt->keep_dir;
        o.cache_dir = opt->cache_dir;
    }
    char name[128], symbol[160];
    if (o.model_name)
        snprintf(name, sizeof name, "%s", o.model_name);
    else   /* model.json's name: a train's or any caller's folder may be renamed */
        rs_load_model_name(dir, name, sizeof name);
    snprintf(symbol, sizeof symbol, "%s_model", name);

    char *files[RS_LOAD_MAX_FILES];
    int n = 0;
    if (scan(dir, files, &n, err, errlen))
        return NULL;
    rs_loaded *h = calloc(1, sizeof *h);
    if (!h) {
        free_list(files, n);
        rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
        return NULL;
    }
    h->kind = kind;
    h->release = release_folder_model;
    int st = kind == RS_LOAD_DLOPEN
                 ? rs_load_dlopen_impl(h, (const char *const *)files, n, symbol, &o, err, errlen)
                 : rs_load_tcc_impl(h, (const char *const *)files, n, symbol, &o, err, errlen);
    free_list(files, n);
    if (st || rs_load_finish(h, err, errlen) || check_model_json(dir, h->model, err, errlen)) {
        rs_unload(&h);
        return NULL;
    }
    return h;
}
