/*
 * railsym.h — the C API for embedding railsym in another program
 * (docs/api.md): open a compiled model folder with a scenario, set
 * parameters and inputs by name, step, read any result quantity by name,
 * save and restore the state, close.
 *
 *   railsym *sim;
 *   char err[1024];
 *   if (railsym_open("generated/pendulum", NULL, &sim, err, sizeof err)) { puts(err); return 1; }
 *   railsym_set(sim, "L", 0.5);
 *   while (railsym_time(sim) < 1.0 - 1e-9)
 *       if (railsym_step(sim) < 0) { puts(railsym_error(sim)); break; }
 *   double th;
 *   railsym_get(sim, "th", &th);
 *   railsym_close(sim);
 *
 * Build: cc main.c $(pkg-config --cflags --libs railsym)  (docs/api.md).
 *
 * This header is self-contained (it includes only <stddef.h>) and is the
 * whole of the API: the other headers installed beside it belong to the
 * runtime and may change between versions.
 *
 * Versions: RAILSYM_API_VERSION_MAJOR changes when a function is removed or
 * changes meaning (a program must be rebuilt); MINOR when functions are
 * added.  A program checks at run time that the library it runs with is the
 * one it was built for:
 *   if (railsym_api_version() / 1000 != RAILSYM_API_VERSION_MAJOR) ...
 *
 * Errors: a function that can fail returns RAILSYM_OK (0) or a negative
 * status; the message (what failed, naming the file, the line, the name or
 * the step, and what to do) is railsym_error(sim), or for railsym_open the
 * caller's buffer.  Nothing in the library prints or exits.
 *
 * Threads: an instance is used by one thread at a time; any number of
 * instances run at the same time in different threads, each with its own
 * copy of the model, scenario and state (no global state is shared; loading
 * with libtcc is serialized inside the library, which is harmless: it
 * happens at railsym_open only).  railsym_api_version and
 * railsym_status_text may be called from any thread.
 */
#ifndef RAILSYM_H
#define RAILSYM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RAILSYM_API_VERSION_MAJOR 1
#define RAILSYM_API_VERSION_MINOR 0
/* major * 1000 + minor, what railsym_api_version() returns */
#define RAILSYM_API_VERSION (RAILSYM_API_VERSION_MAJOR * 1000 + RAILSYM_API_VERSION_MINOR)

/* Statuses (the runtime's own codes, so a message and its code agree; any
 * other negative value is another failure that railsym_error describes). */
#define RAILSYM_OK 0
#define RAILSYM_E_ARG (-1)          /* a bad argument: NULL, a short buffer, a state of another
                                       model, a quantity that cannot be set, a non-finite value */
#define RAILSYM_E_NOMEM (-2)        /* out of memory                                   */
#define RAILSYM_E_UNSUPPORTED (-4)  /* not possible for this model (e.g. a function it was compiled without) */
#define RAILSYM_E_NOTFOUND (-11)    /* an unknown name (the message suggests the closest) */
#define RAILSYM_E_LOAD (-12)        /* the model folder could not be loaded              */

/* The loaders of a model folder (as `railsym run --loader`). */
typedef enum railsym_loader {
    RAILSYM_LOADER_TCC = 0,    /* compiled in memory by libtcc: no compiler needed (default) */
    RAILSYM_LOADER_DLOPEN = 1  /* compiled by the system C compiler into a shared object, cached */
} railsym_loader;

/* What railsym_open takes besides the folder.  Fill with
 * railsym_options_init, then change fields: `size` lets a newer library
 * accept an older program's smaller structure. */
typedef struct railsym_options {
    size_t size;               /* sizeof(railsym_options), set by railsym_options_init */
    const char *scenario;      /* a scenario file (docs/scenario.md), NULL: none       */
    int use_default_scenario;  /* read MODEL_DIR/default.scn first, default 1          */
    const char *set_text;      /* scenario statements over both, one per line, as
                                  `railsym run --set` gives them; NULL: none          */
    railsym_loader loader;     /* default RAILSYM_LOADER_TCC                           */
    const char *abi_dir;       /* folder of rs_abi.h and rs_model.h for the loaders;
                                  NULL: $RAILSYM_ABI_DIR, else the installed
                                  PREFIX/include/railsym, else ./abi               */
} railsym_options;

typedef struct railsym railsym;   /* one simulation: opaque */

/* RAILSYM_API_VERSION of the library the program runs with. */
int railsym_api_version(void);

/* The text of a status ("ok", "unknown name", ...): a static string. */
const char *railsym_status_text(int status);

/* Defaults into *opt (size included). */
void railsym_options_init(railsym_options *opt);

/* Opens the compiled model folder `model_dir` (what `railsym compile`
 * writes) as `railsym run` does: the folder's default.scn, the scenario
 * file over it, bound to the model (unknown names fail with file:line and
 * the closest name), the workspace created, parameters, initial state and
 * inputs applied, the static equilibrium solved when the scenario asks.
 * opt NULL: defaults.  On success *sim is the instance; on failure *sim is
 * NULL and err (errlen bytes, may be NULL) holds the message. */
int railsym_open(const char *model_dir, const railsym_options *opt, railsym **sim, char *err,
                 size_t errlen);

/* Frees the instance and everything it loaded.  NULL is fine. */
void railsym_close(railsym *sim);

/* The message of the last failed call on sim ("" if none). */
const char *railsym_error(const railsym *sim);

/* The model's name (its descriptor's). */
const char *railsym_model_name(const railsym *sim);

/* ---------------------------------------------------------------- names */

/* The quantity `name` as an index for the *_index functions (>= 0; valid
 * for this instance and every instance of the same model folder), or
 * RAILSYM_E_NOTFOUND with a message suggesting the closest name.  Names are
 * those of `railsym run`'s columns (docs/scenario.md "columns"): "time", a
 * coordinate "th", its velocity "th_dot", a parameter, an input, an output,
 * a multiplier "lambda_<constraint>", contact quantities "<contact>.N",
 * ".Y", ".Q", ".xi_x", ..., track-relative "<wheel body>.y_track", ...,
 * "energy.kinetic", "power.creep", "newton_position", ... */
int railsym_find(railsym *sim, const char *name);

/* The columns `railsym run` writes for this scenario (its `columns`, else
 * every coordinate, velocity, multiplier and output), time excluded. */
int railsym_column_count(const railsym *sim);
const char *railsym_column_name(const railsym *sim, int i);   /* NULL outside 0..count-1 */

/* ---------------------------------------------------------------- values */

/* Sets a parameter (the hoisted constants follow; no recompilation), an
 * input (it keeps this value until set again, over any table the scenario
 * gives for it), or a coordinate or velocity (the initial state when set
 * before the first step, which projects it onto the constraints; between
 * steps the state as it is).  RAILSYM_E_ARG for any other quantity
 * (outputs, multipliers, contact forces, time: "cannot be set") and for a
 * non-finite value, RAILSYM_E_NOTFOUND for an unknown name. */
int railsym_set(railsym *sim, const char *name, double value);
int railsym_set_index(railsym *sim, int index, double value);

/* The current value of any quantity (outputs, energies, contact and
 * track-relative quantities are evaluated at the current state, once per
 * state).  Before the first step the run is started first (the initial
 * state projected), as `railsym run` does before its first row. */
int railsym_get(railsym *sim, const char *name, double *value);
int railsym_get_index(railsym *sim, int index, double *value);

/* ---------------------------------------------------------------- time */

double railsym_time(const railsym *sim);             /* s                             */
double railsym_step_size(const railsym *sim);        /* the scenario's `step`, s      */
double railsym_output_interval(const railsym *sim);  /* the scenario's `output`, s    */
double railsym_end_time(const railsym *sim);         /* start + the scenario's `duration`, s */

/* One step of railsym_step_size.  RAILSYM_OK (or a positive remark), or a
 * negative status with the message (step, time, quantity) in
 * railsym_error; the state is then the one before the step. */
int railsym_step(railsym *sim);

/* Steps until t_end: round((t_end - time) / step) steps, the count `railsym
 * run` takes to reach the same time.  RAILSYM_E_ARG when t_end is before
 * the current time by more than half a step. */
int railsym_advance(railsym *sim, double t_end);

/* ---------------------------------------------------------------- state */

/* Bytes a saved state of sim takes (wheel-rail contact and plugin states
 * included); 0 when the model's state cannot be saved (a contact
 * implementation without a state copy). */
size_t railsym_state_size(const railsym *sim);

/* Saves everything the simulation continues from (state, parameters,
 * inputs set, time, step caches) into buf (len >= railsym_state_size).
 * The bytes hold no pointer: they may be written to a file and restored in
 * another process into an instance of the same model folder and scenario. */
int railsym_state_save(railsym *sim, void *buf, size_t len);

/* Puts sim back into a saved state: a run continued from it repeats the
 * original bit for bit.  RAILSYM_E_ARG when buf is not a state of this
 * model (its size or model differs). */
int railsym_state_restore(railsym *sim, const void *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* RAILSYM_H */
