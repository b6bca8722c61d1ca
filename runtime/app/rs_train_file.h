/*
 * rs_train_file.h — train files (docs/trains.md) and the train runner
 * behind `railsym run TRAIN.train [--threads N] [--out FILE.csv]`.
 *
 * A train file names vehicle types (built-in `wagon` and `loco`, or blocks
 * that change their parameters), coupler types, the order of the vehicles
 * front first, the initial speed and the run's settings.  Every error is
 * "file:line: message" and says what to write instead.  Parsing and
 * building allocate; the run's steps do not (rs_train.h).
 */
#ifndef RS_TRAIN_FILE_H
#define RS_TRAIN_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "rs_load_cache.h"
#include "rs_log.h"
#include "rs_ltrain.h"
#include "rs_train.h"

typedef struct rs_train_spec {
    char file[256];              /* as given, for messages                  */
    double duration, step, output, speed;   /* s, s, s (0: every step), m/s */
    rs_krylov_method solver;
    double tolerance;            /* Krylov relative tolerance               */
    int iterations;              /* Krylov iteration limit                  */
    int restart;                 /* GMRES restart length                    */
    int corrections, rebalance;
    int natural;                 /* 'formulation natural': rs_train_natural.h */
    int natural_method;          /* its rs_ltrain_method ('solver'; -1: a Krylov
                                    solver but cg, -2: none given) */
    int nv;                      /* vehicles, front first                   */
    rs_wagon *veh;               /* nv; traction tables point into `tables` */
    char (*vname)[64];           /* nv                                      */
    rs_coupler *cpl;             /* nv - 1                                  */
    char (*cname)[64];           /* nv - 1: c1, c2, ...                     */
    double *tables;
    unsigned char *contact_out;  /* nv: 1 where the CSV gets contact quantities */
    unsigned char *contact_q;    /* nv × RS_TRAIN_CONTACT_QCOUNT: 1 for each
                                    quantity k (rs_train_contact.h) in the CSV,
                                    per contact "<vehicle>.<contact>.<name>" */
    unsigned char *state_out;    /* nv: 1 where the CSV gets the internal states */
    int *vline;                  /* nv: the line of each vehicle's type block
                                    (0: a built-in type), for messages     */
    int nmodels;                 /* compiled vehicle types:                 */
    double **model_params;       /* nmodels parameter arrays (veh[].model_p) */
    struct rs_plugin_set **plugin_sets;   /* compiled types' user plugins'
                                    libraries (rs_plugin_load.h), nplugin_sets */
    int nplugin_sets;
    rs_load_cache *own_cache;    /* the compiled models when the reader was
                                    given no cache (libtcc), else NULL      */
} rs_train_spec;

/* How many contact quantities vehicle v puts in the CSV per contact. */
int rs_train_spec_contact_nq(const rs_train_spec *S, int v);

/* Reads / parses a train file.  RS_OK, RS_E_IO (cannot read), RS_E_ARG
 * (message "file:line: ..."), RS_E_NOMEM.  Compiled vehicle types are
 * loaded with libtcc into a cache the spec owns (each folder once). */
int rs_train_spec_read(const char *path, rs_train_spec **spec, char *err, size_t errlen);
int rs_train_spec_parse(const char *text, const char *file, rs_train_spec **spec, char *err, size_t errlen);
/* The same with `extra` (NULL: none) read after the file's last line, as if
 * appended to it (e.g. the 'set' lines of a sweep variant), and the
 * compiled models taken from `cache` (NULL: the spec's own, libtcc), which
 * must outlive the spec: a sweep's variants share one, so every variant
 * runs the same compiled code and none compiles it again. */
int rs_train_spec_read_extra(const char *path, const char *extra, rs_load_cache *cache, rs_train_spec **spec,
                             char *err, size_t errlen);
int rs_train_spec_parse_cached(const char *text, const char *file, rs_load_cache *cache, rs_train_spec **spec,
                               char *err, size_t errlen);
void rs_train_spec_free(rs_train_spec **spec);

/* The Park options the spec asks for (threads: 1; the caller sets them). */
void rs_train_spec_opts(const rs_train_spec *spec, rs_park_opts *o);

typedef struct rs_train_run_cfg {
    const char *train_file;
    const char *out;             /* results: .csv, .mat, .h5 (rs_results.h):
                                    renamed into place when the run completes,
                                    else to NAME.partial.EXT               */
    int threads;                 /* >= 1; more than the cores this process
                                    may use are capped (rs_cores.h)         */
    const char *extra;           /* lines read after the file's (NULL: none) */
    rs_load_cache *models;       /* compiled vehicle models (NULL: loaded
                                    with libtcc for this run); it sets the
                                    loader (tcc or dlopen) and include folder */
    int progress;                /* 0 (default): none; -1: a progress line
                                    each second once the run has taken 2 s;
                                    1: from the first step (rs_progress.h)  */
    rs_log log;                  /* progress lines (rs_log.h); {0}: none    */
    int out_in_place;            /* 1: write `out` itself, no renaming (the
                                    caller renames: sweeps)                 */
} rs_train_run_cfg;

typedef struct rs_train_run_report {
    int nv, n;                   /* vehicles, coordinates                   */
    long steps, rows;
    double t_start, t_end;       /* simulated                               */
    double wall_s;               /* wall time of the steps                  */
    double krylov_per_step;      /* mean Krylov iterations per step         */
    int threads;                 /* threads the run used: cfg->threads
                                    capped at rs_cores_usable()             */
    const char *iterations_of;   /* what krylov_per_step counts: NULL for the
                                    Park step's Krylov solver, else its name
                                    ("artificial-dynamics"; "": nothing iterates) */
    long serial_steps;           /* steps run on one thread because that was
                                    faster (rs_park_opts.probe); all of them
                                    with one thread                         */
} rs_train_run_report;

/* Reads the file, builds the train, runs it and writes the CSV (header
 * `time`, then `<vehicle>.x`, `<vehicle>.v` per vehicle, then
 * `<coupler>.force`, `<coupler>.elongation` per coupler, then the contact
 * forces and the internal states `<vehicle>.<state>` of the types that ask
 * for them; SI; one row per output interval, flushed).  A failure midway says up to when the CSV
 * holds results.  RS_OK or the failing status, with the message in err.
 * A derailment that stops the run (the vehicle's `derailment stop`, the
 * default) returns RS_E_DERAILED with err "FILE: " RS_TRAIN_DERAILED_MSG
 * and the derailment's event line (rs_contact_event_line: its time,
 * vehicle, contact, Y/Q), what to write to go on and where the rows are. */
#define RS_TRAIN_DERAILED_MSG "stopped by a derailment: "
int rs_train_run(const rs_train_run_cfg *cfg, rs_train_run_report *rep, char *err, size_t errlen);

#endif /* RS_TRAIN_FILE_H */
