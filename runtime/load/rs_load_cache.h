/*
 * rs_load_cache.h — compiled model folders loaded once and shared.
 *
 * A train file names a compiled model per vehicle type, often the same
 * folder for several types, and a sweep over a train reads the file once
 * per variant.  Loading compiles the folder's C (libtcc in memory, or the
 * system compiler for dlopen): a quarter of a second for a contact bogie,
 * seconds with cc -O3.  The cache loads each folder on its first request
 * and hands the same descriptor to every later one, so a sweep's variants
 * all run the same compiled code (the descriptor is read-only; every
 * vehicle keeps its own workspace).  Safe to share between threads.
 */
#ifndef RS_LOAD_CACHE_H
#define RS_LOAD_CACHE_H

#include <stddef.h>

#include "rs_load.h"

typedef struct rs_load_cache rs_load_cache;

/* A cache loading with `kind` (RS_LOAD_TCC or RS_LOAD_DLOPEN) and the
 * options' compiler, flags and include folder (NULL: defaults; the strings
 * are copied; model_name and keep_dir are per folder and not taken).  NULL
 * when out of memory or `kind` is not a folder loader. */
rs_load_cache *rs_load_cache_create(rs_loader kind, const rs_load_options *opt);

/* The model of folder `dir`, loaded on the first request for that folder
 * (folders are the same when their real paths are); it lives until the
 * cache is freed.  NULL with the loader's message in err. */
const rs_model *rs_load_cache_get(rs_load_cache *c, const char *dir, char *err, size_t errlen);

/* Folders loaded so far (each counted once). */
int rs_load_cache_loads(rs_load_cache *c);
rs_loader rs_load_cache_kind(const rs_load_cache *c);

/* Unloads every folder; sets *c = NULL. */
void rs_load_cache_free(rs_load_cache **c);

#endif /* RS_LOAD_CACHE_H */
