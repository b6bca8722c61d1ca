/*
 * rs_sweep.h — many runs of one compiled model: parameter sweeps on a local
 * thread pool (and, with rs_sweep_mpi.h, across machines).  docs/sweeps.md.
 *
 *   rs_sweep_spec *s;  rs_sweep_spec_create(&s);
 *   rs_sweep_spec_vary(s, "k=1e5:4e5:4", err, n);     // a grid axis: LO:HI:N or V1,V2,...
 *   rs_sweep_spec_vary(s, "y_dot=0:1:3", err, n);     // initial velocities/coordinates too
 *   rs_sweep_spec_list(s, "variants.csv", err, n);    // and/or explicit rows
 *   rs_sweep_spec_figure(s, "max:y", err, n);         // per-variant figures
 *   rs_sweep_config c;  rs_sweep_config_default(&c);
 *   c.model_dir = "generated/wheelset";  c.scenario = "run.scn";  c.out_dir = "sweep1";  c.jobs = 4;
 *   rs_sweep_run(&c, s, &report, err, sizeof err);
 *
 * Variants: the rows of the list (if any) times the points of the grid of
 * the --vary axes (the first axis varies slowest); numbered 1..n.  A name is
 * a parameter ("param NAME = V") or a coordinate or its velocity
 * ("initial NAME = V"); every variant runs the same loaded code with the
 * base scenario (the model folder's default.scn, the user's scenario over
 * it) plus its own values over both, through rs_driver_simulate: its CSV is
 * byte for byte what `railsym run` writes for that scenario.
 *
 * The output folder holds:
 *   variants.csv       variant number and values (written once; a re-run with
 *                      different variants is refused, so results never mix)
 *   vNNNN.csv          results of a finished variant (temporary name, then
 *                      rename: a file under this name is always complete)
 *   vNNNN.failed       the message of a failed variant (NaN, divergence,
 *                      singular matrix, non-converging projection; a train
 *                      stopped by a derailment: "stopped by a derailment:
 *                      t = T s: vehicle 'V': contact 'C': ..."), and
 *   vNNNN.partial.csv  what it computed before failing
 *   vNNNN.events       the lines its run printed (rs_variant_result.events),
 *                      if any: a resumed sweep prints them again
 *   summary.csv        variant,status,<values>,<figures>,message — one row per
 *                      variant in number order (status ok, failed, derailed:
 *                      failed by a derailment, or pending), derived from the files above
 *                      only, so it is the same however the sweep was run
 *                      (threads, MPI, interrupted and resumed)
 *   sweep.lock         held (flock) while a sweep runs in the folder
 * Re-running skips the variants that have vNNNN.csv or vNNNN.failed (unless
 * retry_failed), so an interrupted sweep resumes where it stopped.
 *
 * Scheduling (seed 000 §3-4): the next heaviest pending variant goes to the
 * first free worker.  A variant's cost is estimated from the model's size
 * times its number of steps, and refined from the measured cost of the
 * nearest finished variant (in the normalized space of the varied values).
 *
 * Layers, for the MPI coordinator and for critical-speed search: open
 * (model + scenario + checks, every process), attach (the output folder,
 * the coordinator only), next/commit (scheduling and results), summary.
 */
#ifndef RS_SWEEP_H
#define RS_SWEEP_H

#include <stddef.h>
#include <stdio.h>
#include "rs_load.h"
#include "rs_log.h"
#include "rs_sweep_spec.h"

/* ---------------------------------------------------------------- config */

typedef struct rs_sweep_config {
    const char *model_dir;     /* compiled model folder                           */
    const char *train_file;    /* or a train file (rs_train_file.h): the variants
                                  vary `set NAME = V` lines (TYPE.PARAM or a
                                  setting); model_dir and the scenario are then
                                  not used                                      */
    int threads;               /* trains: threads per variant (default 1), so
                                  jobs × threads cores are busy                  */
    rs_loader loader;          /* RS_LOAD_TCC (default) or RS_LOAD_DLOPEN          */
    const char *include_dir;   /* runtime headers for the loader (NULL: default)  */
    const char *scenario;      /* base scenario file (NULL: none)                 */
    int use_default_scenario;  /* read MODEL_DIR/default.scn first, default 1     */
    const char *set_text;      /* scenario statements over both and under each
                                  variant's values, one per line (--set), NULL  */
    const char *out_dir;       /* output folder (created)                         */
    int jobs;                  /* local worker threads, default 1                 */
    int method;                /* -1 (default): the scenario's; else an rs_method  */
    int retry_failed;          /* run again variants recorded as failed           */
    int max_variants;          /* stop after starting this many (0: all); for
                                  tests of interruption and for batches           */
    rs_log log;                /* progress lines (rs_log.h); {0}: none            */
    int quiet;                 /* no progress lines                               */
    const rs_model *model;     /* the model already loaded from model_dir (NULL:
                                  rs_sweep_open loads it); it must outlive the
                                  sweep.  Sweeps run one after another (a
                                  critical-speed search) load it once.          */
} rs_sweep_config;

typedef struct rs_sweep_report {
    int variants;              /* in the sweep                                    */
    int skipped;               /* already finished by an earlier run              */
    int ran;                   /* run now                                         */
    int ok, failed;            /* over all variants, after this run               */
    int derailed;              /* of the failed: stopped by a derailment (a train
                                  vehicle's `derailment stop`)                   */
    int pending;               /* not finished (max_variants, or interrupted)     */
    double wall_s;             /* wall time of this run                            */
    double mpi_overhead_s;     /* MPI: mean coordinator round trip per variant
                                  minus the worker's run time; 0 otherwise        */
    int threads;               /* trains: threads each variant ran on
                                  (rs_sweep_threads)                              */
} rs_sweep_report;

void rs_sweep_config_default(rs_sweep_config *c);

/* The threads each train variant runs on: c->threads, at most the cores
 * this process may use shared among the jobs that run at once (the usable
 * cores / jobs, at least 1), since jobs × threads workers beyond the cores
 * wait for each other's time slices.  *cores (may be NULL) receives the
 * usable cores (rs_cores.h). */
int rs_sweep_threads(const rs_sweep_config *c, int *cores);

/* The whole sweep on c->jobs local threads.  Returns RS_OK when every
 * variant ran (failed variants included: they are results), or an error
 * that stopped the sweep (bad names, unwritable folder, another sweep's
 * folder) with the message in err. */
int rs_sweep_run(const rs_sweep_config *c, const rs_sweep_spec *s, rs_sweep_report *report,
                 char *err, size_t errlen);

/* ---------------------------------------------------------------- layers */

typedef struct rs_sweep rs_sweep;

/* Status of a variant. */
enum { RS_VAR_PENDING = 0, RS_VAR_RUNNING, RS_VAR_OK, RS_VAR_FAILED };

/* Loads the model, reads the scenarios and checks every varied name and
 * figure column against the model.  c and s must outlive the sweep. */
int rs_sweep_open(rs_sweep **sw, const rs_sweep_config *c, const rs_sweep_spec *s,
                  char *err, size_t errlen);
void rs_sweep_close(rs_sweep **sw);

/* Takes the output folder: creates it, locks it, removes stale temporary
 * files, writes or compares variants.csv, and loads the finished variants'
 * results.  Only the process that writes results calls it. */
int rs_sweep_attach(rs_sweep *sw, char *err, size_t errlen);

/* What running one variant gave. */
typedef struct rs_variant_result {
    int status;                /* rs_status of the run (RS_OK or an error)        */
    long steps;
    double wall_s;             /* wall time of the run                            */
    char message[1024];        /* the driver's message when status != RS_OK       */
    char events[8192];         /* a train's log lines (its elastic contacts' flange
                                  climbs and derailments, rs_contact_event_line),
                                  each ending in '\n', in the order the run gave
                                  them; "" none                                  */
} rs_variant_result;

/* Runs variant i (0-based) with the given values (NULL: the spec's) and
 * writes its CSV to `path`.  Thread-safe; any process that opened the sweep
 * may call it.  The result's status tells success or failure; the return
 * value is r->status. */
int rs_sweep_run_variant(rs_sweep *sw, int i, const double *values, const char *path,
                         rs_variant_result *r);

/* The next heaviest pending variant, marked running, or -1 when none is
 * pending (or max_variants were started).  Thread-safe. */
int rs_sweep_next(rs_sweep *sw);

/* A temporary path in the output folder for variant i's CSV, unique per
 * (process, worker), into buf. */
void rs_sweep_temp_path(const rs_sweep *sw, int i, int worker, char *buf, size_t len);

/* Records variant i: renames the CSV at tmp_path into place (vNNNN.csv, or
 * vNNNN.partial.csv plus vNNNN.failed holding r->message when it failed),
 * computes its figures from the file, refines the cost estimates with
 * r->wall_s.  Thread-safe.  Returns RS_OK or RS_E_IO (message in err). */
int rs_sweep_commit(rs_sweep *sw, int i, const char *tmp_path, const rs_variant_result *r,
                    char *err, size_t errlen);

/* Rewrites summary.csv (temporary name, rename).  Thread-safe. */
int rs_sweep_write_summary(rs_sweep *sw, char *err, size_t errlen);

/* Runs the pending variants of an opened and attached sweep on c->jobs
 * local threads, then writes the summary; adds to *rep. */
int rs_sweep_run_local(rs_sweep *sw, rs_sweep_report *rep, char *err, size_t errlen);

/* 1 (and restarts the clock) when more than every_s seconds passed since
 * the summary was last due: callers rewrite summary.csv now and then. */
int rs_sweep_summary_due(rs_sweep *sw, double every_s);

/* Counts into a report (variants, skipped, ok, failed, pending). */
void rs_sweep_counts(rs_sweep *sw, rs_sweep_report *r);

/* Results in memory, for layers above (critical-speed search). */
int rs_sweep_count(const rs_sweep *sw);
int rs_sweep_status(rs_sweep *sw, int i);
double rs_sweep_figure(rs_sweep *sw, int i, int f);  /* NaN unless RS_VAR_OK */
const rs_sweep_spec *rs_sweep_get_spec(const rs_sweep *sw);
const rs_sweep_config *rs_sweep_get_config(const rs_sweep *sw);
/* Estimated cost of variant i before any measurement (model size × steps). */
double rs_sweep_estimate(const rs_sweep *sw, int i);

#endif /* RS_SWEEP_H */
