/*
 * rs_scenario.h — scenario files: what one simulation run does (docs/scenario.md).
 *
 * Two stages, so a scenario can be read without a model and checked against
 * any model:
 *   1. rs_scenario_read / rs_scenario_parse turn the text into an
 *      rs_scenario: settings, name = value assignments and input tables, each
 *      remembering its file and line.  No model knowledge: only the syntax and
 *      the numbers are checked.
 *   2. rs_scenario_bind checks every name against an rs_model and produces an
 *      rs_binding: indices instead of names, ready to apply to a workspace.
 *      Unknown names fail with "file:line: unknown parameter 'x' (did you
 *      mean 'y'?)".
 * Every error message starts with "file:line: " and says what to write
 * instead.  Parameters are run-time values: a scenario changes them without
 * recompiling the model.
 *
 * Layers: rs_scenario_overlay puts one scenario over another (a compiled
 * model's default.scn under the user's file): settings and inputs of the top
 * replace those of the base; assignments are applied base first, top last.
 *
 * Not for real-time threads (parsing and binding allocate); the input
 * callbacks rs_binding_input and rs_binding_input_varying are
 * allocation-free and bounded (binary search).
 */
#ifndef RS_SCENARIO_H
#define RS_SCENARIO_H

#include "rs_stress.h"
#include "rs_thermal.h"
#include <stddef.h>
#include "rs_ws.h"

/* Which settings a scenario gives (bits of rs_scenario.set). */
enum {
    RS_SCENARIO_DURATION = 1 << 0,
    RS_SCENARIO_STEP = 1 << 1,
    RS_SCENARIO_OUTPUT = 1 << 2,
    RS_SCENARIO_METHOD = 1 << 3,
    RS_SCENARIO_TOLERANCE = 1 << 4,
    RS_SCENARIO_ITERATIONS = 1 << 5,
    RS_SCENARIO_FRICTION = 1 << 6,
    RS_SCENARIO_CONTACT = 1 << 7,
    RS_SCENARIO_CREEP = 1 << 8,
    RS_SCENARIO_DERAILMENT = 1 << 9,
    RS_SCENARIO_SPEED = 1 << 10,
    RS_SCENARIO_CLIMB_TIME = 1 << 11,
    RS_SCENARIO_NORMAL = 1 << 12,
    RS_SCENARIO_THETA = 1 << 13
};
#define RS_SCENARIO_N_SETTINGS 14

/* The contact mode a scenario asks for (`contact constraint|elastic`). */
enum { RS_CONTACT_MODE_MODEL = 0, RS_CONTACT_MODE_CONSTRAINT, RS_CONTACT_MODE_ELASTIC };

/* Built-in values of settings a scenario leaves out. */
#define RS_SCENARIO_DEFAULT_DURATION 1.0    /* s */
#define RS_SCENARIO_DEFAULT_STEP 1e-3       /* s */
#define RS_SCENARIO_DEFAULT_OUTPUT 1e-2     /* s (never less than the step) */

/* Where a line came from. */
typedef struct rs_scenario_where {
    char *file;
    int line;
} rs_scenario_where;

/* NAME = VALUE (a parameter, or an initial coordinate or velocity). */
typedef struct rs_scenario_assign {
    char *name;
    double value;
    rs_scenario_where at;
} rs_scenario_assign;

/* An input: a constant (n == 1, t == NULL) or a table of n rows (t
 * strictly increasing), interpolated linearly, held constant outside. */
typedef struct rs_scenario_input {
    char *name;
    int n;
    double *t;        /* n times [s], NULL for a constant */
    double *v;        /* n values */
    rs_scenario_where at;
} rs_scenario_input;

/* One output column chosen by name. */
typedef struct rs_scenario_column {
    char *name;
    rs_scenario_where at;
} rs_scenario_column;

/* Contact data files a scenario puts in place of the model's, for every
 * contact that has one: `track "PATH"`, `wheel_profile "PATH"`,
 * `rail_profile "PATH"`, and for the left or right rails only
 * `rail_profile_left "PATH"`, `rail_profile_right "PATH"` (a worn rail on
 * one side; they win over rail_profile) (rs_scenario.file, in this order). */
enum { RS_SCENARIO_FILE_TRACK = 0, RS_SCENARIO_FILE_WHEEL, RS_SCENARIO_FILE_RAIL, RS_SCENARIO_FILE_RAIL_LEFT,
       RS_SCENARIO_FILE_RAIL_RIGHT, RS_SCENARIO_FILE_COUNT };

/* RS_SCENARIO_FILE_* of a file statement's keyword ("track", "wheel_profile",
 * "rail_profile"), or -1. */
int rs_scenario_file_kind(const char *kw);

/* `rel` as seen from the working directory when a file at path `file`
 * names it (an absolute `rel` as it is; else relative to `file`'s folder).
 * A new string (malloc), or NULL when out of memory. */
char *rs_path_beside(const char *file, const char *rel);

typedef struct rs_scenario {
    unsigned set;                 /* RS_SCENARIO_* bits of the settings given     */
    double duration;              /* s, simulated time after the start       */
    double step;                  /* s                                       */
    double output;                /* s, output interval (0: every step)      */
    rs_method method;
    double tolerance;             /* projection tolerance                    */
    int iterations;               /* projection iteration limit              */
    double friction;              /* wheel-rail friction coefficient μ (0:
                                     linear creep, rs_options.contact_mu)    */
    int contact_mode;             /* RS_CONTACT_MODE_*: `contact elastic`
                                     overrides the description's mode        */
    int creep_law;                /* `creep kalker|fastsim|polach`: the
                                     elastic contact's law (rs_creep_law)    */
    int normal_law;               /* `normal point|strips`: the elastic
                                     contact's normal law (rs_normal_law)    */
    double theta;                 /* `theta T`: where the elastic contact's
                                     step linearizes the normal stiffness,
                                     T in [0.5, 1] (rs_options.contact_theta;
                                     unset: the normal law's own)           */
    int derail_continue;          /* `derailment continue` (1): a derailment
                                     is reported and the run goes on;
                                     `derailment stop` (0, default) ends it  */
    double climb_time;            /* `climb_time T`: how long Y/Q must stay at
                                     Nadal's limit on the flange before a climb
                                     is reported [s] (rs_options.contact_climb_time) */
    double speed;                 /* `speed V`: the running speed [m/s]
                                     (rs_speed.h), applied after every
                                     `initial` line of every layer          */
    int speed_first;              /* initial[0 .. speed_first) come from
                                     layers below the one that gives
                                     `speed`: those it overrides; a later
                                     line for a velocity it sets is refused */
    rs_scenario_where set_at[RS_SCENARIO_N_SETTINGS]; /* where each setting was given
                                     (bit order)                             */

    int n_params, n_initial, n_inputs, n_columns;
    rs_scenario_assign *params;        /* param NAME = VALUE                      */
    rs_scenario_assign *initial;       /* initial NAME = VALUE (q or q_dot)       */
    int n_frictions;
    rs_scenario_assign *frictions;     /* friction CONTACT = MU (CONTACT may hold
                                          '*': every contact it matches)        */
    int n_moduli, n_poissons;
    rs_scenario_assign *moduli;        /* modulus [CONTACT =] E: Young's modulus
                                          [Pa] (no CONTACT: '*')                 */
    rs_scenario_assign *poissons;      /* poisson [CONTACT =] NU: Poisson ratio  */
    rs_scenario_input *inputs;
    rs_scenario_column *columns;       /* none: every coordinate, velocity,
                                     multiplier and output                   */
    char *file[RS_SCENARIO_FILE_COUNT];  /* RS_SCENARIO_FILE_*: the path as seen from
                                     the working directory (a relative path
                                     in the file is relative to the
                                     scenario's folder); NULL: the model's */
    rs_scenario_where file_at[RS_SCENARIO_FILE_COUNT];
    /* `equilibrium [COORD...]` (rs_equilibrium.h): the static equilibrium
     * is solved for before the run; equil_coords (none: the default
     * coordinates, every one but x and spin) are the coordinates solved for */
    int equilibrium;
    int n_equil_coords;
    rs_scenario_column *equil_coords;
    rs_scenario_where equil_at;
    /* `thermal ...` (docs/coupled.md): a damper's thermal model coupled to
     * the run; a later layer's statement replaces an earlier one's */
    int thermal;
    rs_thermal_spec thermal_spec;
    /* `stress ...` (docs/coupled.md): components' stress models beside the
     * run, each its columns "<name>.sigma_<point>"; stress is how many
     * (names unique; a later layer's statement replaces an earlier one's of
     * the same name, the others are added) */
    int stress;
    rs_stress_spec stress_spec[RS_STRESS_MODELS];
} rs_scenario;

/* An empty scenario (every setting at its built-in value, nothing assigned). */
void rs_scenario_init(rs_scenario *s);

/* Frees what the scenario holds and empties it (rs_scenario_init). */
void rs_scenario_free(rs_scenario *s);

/* Parses the `len` bytes of scenario text (all of them: a NUL byte among
 * them is an error, RS_E_SYNTAX); `file` names it in messages and resolves
 * relative paths of input files (its folder).  Returns RS_OK, or RS_E_ARG
 * (a syntax or value error), RS_E_IO (an input file that cannot be read) or
 * RS_E_NOMEM, with "file:line: ..." in err; *s is then empty.  */
int rs_scenario_parse(const char *text, size_t len, const char *file, rs_scenario *s,
                      char *err, size_t errlen);

/* Reads and parses a scenario file. */
int rs_scenario_read(const char *path, rs_scenario *s, char *err, size_t errlen);

/* Puts `top` over `base` (both parsed): base receives deep copies.  Returns
 * RS_OK, RS_E_NOMEM, or RS_E_UNSUPPORTED when the layers together hold
 * more than RS_STRESS_MODELS `stress` components (RS_SCENARIO_OVERLAY_MSG). */
int rs_scenario_overlay(rs_scenario *base, const rs_scenario *top);
#define RS_SCENARIO_OVERLAY_MSG(st) \
    ((st) == RS_E_UNSUPPORTED ? "more 'stress' components over the scenario layers than one run holds (docs/coupled.md)" \
                              : "out of memory")

/* Effective settings: the scenario's or the built-in ones. */
/* The scenario of a run, into *s (initialized by the caller): MODEL_DIR's
 * default.scn when use_default is set and the file exists, then FILE (NULL:
 * none) over it, then SET_TEXT (NULL: none) — scenario statements, one per
 * line, as the command line's --set gives them; messages name its lines
 * "--set:N" — over both.  RS_OK or an error with the message in err. */
int rs_scenario_load(const char *model_dir, int use_default, const char *file, const char *set_text,
                     rs_scenario *s, char *err, size_t errlen);

double rs_scenario_duration(const rs_scenario *s);
double rs_scenario_step(const rs_scenario *s);
double rs_scenario_output(const rs_scenario *s);

/* ---------------------------------------------------------------- binding */

typedef struct rs_binding rs_binding;

/* Checks every name of `s` against `m` and builds the binding (s may be
 * freed afterwards).  Unknown names: RS_E_NOTFOUND with
 * "file:line: unknown parameter 'x' (did you mean 'y'?)"; a name of the wrong
 * kind says which statement to use.  Returns RS_OK or an error. */
int rs_scenario_bind(const rs_scenario *s, const rs_model *m, rs_binding **b,
                     char *err, size_t errlen);

void rs_binding_free(rs_binding **b);

/* Writes the scenario's step, method, tolerance and iteration limit into
 * opt, and the input callback rs_binding_input_varying when the scenario
 * gives inputs that change with time (ctx = b; the binding must outlive
 * every workspace created with opt).  Constant inputs are set once by
 * rs_binding_apply: whatever writes such a slot later (the contact support
 * writes the creep-force slots) is not overwritten each step. */
void rs_binding_options(const rs_binding *b, rs_options *opt);

/* Sets parameters, initial coordinates, velocities and inputs in ws (a
 * workspace of the bound model, before rs_ws_init). */
int rs_binding_apply(const rs_binding *b, rs_ws *ws, char *err, size_t errlen);

/* The scenario's 'param' lines as "FILE:LINE 'param NAME = VALUE'", "; "
 * between them (the first four, then how many more), into OUT (truncated
 * to LEN); returns how many there are.  For messages about a model's
 * values (a mass or inertia that is not positive): what to change. */
int rs_binding_param_lines(const rs_binding *b, char *out, size_t len);

/* Fills every input the scenario gives at time t (inputs it does not give
 * are left as they are). */
int rs_binding_input(void *ctx, double t, double *u, int n_u);

/* The rs_input_fn rs_binding_options installs: the same for the inputs that
 * change with time only (a table with different values). */
int rs_binding_input_varying(void *ctx, double t, double *u, int n_u);

/* The output columns chosen (n == 0 and NULL: the default, all). */
const char *const *rs_binding_columns(const rs_binding *b, int *n);

/* Effective duration, step and output interval of the bound scenario. */
double rs_binding_duration(const rs_binding *b);
double rs_binding_step(const rs_binding *b);
/* RS_CONTACT_MODE_MODEL unless the scenario says `contact ...`. */
int rs_binding_contact_mode(const rs_binding *b);
/* 1 when the scenario says `equilibrium`: then *idx, *n are the
 * coordinates it names (n 0: the default ones, rs_equilibrium.h). */
int rs_binding_equilibrium(const rs_binding *b, const int **idx, int *n);
/* 1 when the scenario gives `speed`: its equilibrium keeps the velocities
 * (rs_equilibrium_opts.keep_velocities), the rolling state on a curve. */
int rs_binding_has_speed(const rs_binding *b);
/* 1 when the scenario says `derailment continue`. */
int rs_binding_derail_continue(const rs_binding *b);
double rs_binding_output(const rs_binding *b);

/* Value at t of a table of n rows (t strictly increasing), linear between
 * rows, held at the end values outside; also used by rs_binding_input. */
double rs_scenario_interp(const double *t, const double *v, int n, double x);

#endif /* RS_SCENARIO_H */
