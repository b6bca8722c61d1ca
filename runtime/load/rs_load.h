/*
 * rs_load.h — getting a model descriptor into the process.
 *
 * Three ways, one handle:
 *   RS_LOAD_STATIC  the descriptor function is linked in (embedded targets):
 *                   rs_load_static(MODEL_model, ...)
 *   RS_LOAD_DLOPEN  every *.c of a generated folder is compiled by the system
 *                   C compiler into a shared object, opened with dlopen
 *   RS_LOAD_TCC     every *.c is compiled in memory by libtcc: no external
 *                   compiler needed (the default of `railsym run`)
 * The folder's model name is its base name unless given; the descriptor
 * function looked up is "<name>_model".
 *
 * Ownership: the handle owns its dlopen handle or TCCState; the descriptor
 * and every function pointer in it are valid until rs_unload.  Free every
 * workspace of a model before unloading it.
 *
 * Not for real-time threads: loading compiles, allocates and does I/O.
 */
#ifndef RS_LOAD_H
#define RS_LOAD_H

#include <stddef.h>
#include "rs_model.h"

typedef enum rs_loader {
    RS_LOAD_STATIC = 0,
    RS_LOAD_DLOPEN = 1,
    RS_LOAD_TCC = 2
} rs_loader;

/* Folder holding rs_abi.h and rs_model.h, passed as -I to the compilers.
 * Relative paths are resolved from the working directory. */
#ifndef RS_ABI_INCLUDE_DIR
#define RS_ABI_INCLUDE_DIR "abi"
#endif

#define RS_CFLAGS_O2        "-std=c99 -O2 -fPIC"
/* -std=c99 alone makes gcc keep a * b + c as two roundings (ISO C mode:
 * -ffp-contract=off); -ffp-contract=fast lets it use the CPU's fused
 * multiply-add (a third fewer arithmetic instructions in the FEVE 3000's
 * step).  -fno-math-errno: sqrt, sin, cos set no errno (the generated code
 * never reads it), so sqrt is one instruction and the calls do not force
 * every input read before them to be kept on the stack.  Results differ
 * from RS_CFLAGS_O2's in the last bits (rounding of the fused operations). */
#define RS_CFLAGS_O3_NATIVE "-std=c99 -O3 -march=native -ffp-contract=fast -fno-math-errno -fPIC"

typedef struct rs_load_options {
    const char *cc;           /* compiler for RS_LOAD_DLOPEN, default "cc"          */
    const char *cflags;       /* whitespace-separated, default RS_CFLAGS_O3_NATIVE
                                 (the model runs where it is compiled; -O3,
                                 AVX-512 and FMA make the FEVE 3000's step
                                 ~15 % faster than RS_CFLAGS_O2); the
                                 loader adds -shared -I<include_dir> -o OUT ... -lm */
    const char *include_dir;  /* default RS_ABI_INCLUDE_DIR                      */
    const char *model_name;   /* default: rs_load_model_name(dir)                    */
    const char *keep_dir;     /* RS_LOAD_DLOPEN: write the .so and the compiler log
                                 there and keep them (default: the cache below)      */
    const char *cache_dir;    /* RS_LOAD_DLOPEN: NULL (default): the built object is
                                 kept in the user's cache folder ($RAILSYM_CACHE_DIR,
                                 else $XDG_CACHE_HOME/railsym, else ~/.cache/railsym)
                                 under a key of the generated C, ABI headers,
                                 compiler, flags and (-march=native) CPU, and
                                 reused while they are the same; a folder: that
                                 one; "": no cache (a temporary folder, removed
                                 once the object is open)                         */
} rs_load_options;

typedef struct rs_loaded rs_loaded;

void rs_load_options_default(rs_load_options *opt);

/* KEY's string value in the first lines of DIR/model.json (what `railsym
 * compile` wrote), into buf: 1, or 0 when the file or the key is missing,
 * the value holds a character `ok` refuses, or it does not fit. */
int rs_load_json_string(const char *dir, const char *key, int (*ok)(char), char *buf, size_t len);

/* The descriptor symbol's model name for a folder: the "c_prefix" its
 * model.json names (so a compiled folder may be renamed or copied), else
 * its base name made a C identifier (as the code generator names
 * "<model>_model").  Writes into buf; returns buf. */
char *rs_load_model_name(const char *dir, char *buf, size_t len);

/* Loads the model in folder `dir` with default options.  Returns NULL on
 * failure with a message in err (the compiler's messages included). */
rs_loaded *rs_load(const char *dir, rs_loader kind, char *err, size_t errlen);
rs_loaded *rs_load_ex(const char *dir, rs_loader kind, const rs_load_options *opt,
                      char *err, size_t errlen);

/* Wraps a linked-in descriptor function (validated like the others). */
rs_loaded *rs_load_static(rs_model_fn fn, char *err, size_t errlen);

const rs_model *rs_loaded_model(const rs_loaded *h);

/* FNV-1a 64 of n bytes: rs_model.content_hash is this of the folder's
 * model.json.  rs_load/rs_load_ex refuse a folder whose model.json does not
 * hash to its descriptor's content_hash (when both are there). */
unsigned long long rs_fnv1a64(const void *bytes, size_t n);
rs_loader rs_loaded_kind(const rs_loaded *h);

/* Releases the handle (and the code it loaded); sets *h = NULL. */
void rs_unload(rs_loaded **h);

#endif /* RS_LOAD_H */
