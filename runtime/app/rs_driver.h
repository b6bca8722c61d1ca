/*
 * rs_driver.h — one simulation run from files to files: the C side of
 * `railsym run`, reusable by embedded and scripted users.
 *
 *   rs_run_config c;  rs_run_config_default(&c);
 *   c.model_dir = "generated/pendulum";  c.scenario = "vehicles/examples/pendulum.scn";
 *   c.out = "results/pendulum.csv";
 *   if (rs_driver_run(&c, NULL, err, sizeof err)) fprintf(stderr, "%s\n", err);
 *
 * Steps: load the model folder (libtcc by default, or dlopen); read the
 * folder's default.scn (the initial state and inputs its description gives)
 * if present, and the scenario file over it; bind both to the model (unknown
 * names fail with file:line and a suggestion); create a workspace; apply
 * parameters, initial state and inputs; run with rs_run, writing the chosen
 * columns as CSV, MAT or HDF5 by the extension of c->out (rs_results.h: a
 * temporary file renamed to c->out when the run completes; a failed run
 * leaves its whole rows as NAME.partial.EXT and no c->out); send progress lines to the caller's log
 * sink (c->log, rs_log.h) for runs longer than a couple of seconds
 * (simulated time, real-time factor, ETA).  Nothing here prints: the lines
 * carry no "railsym run:" prefix, the command's sink adds it.
 *
 * Real time (c->realtime): the steps run under an rs_realtime_loop whose tick is
 * the step, each step (or each output interval) waiting with an absolute
 * sleep for its deadline t0 + k·dt; optional memory locking, SCHED_FIFO and
 * CPU pinning are applied for the run and restored afterwards (refusals are
 * warnings unless rt_strict).  At the end the log gets (unless progress is
 * 0, i.e. quiet) a human summary and the machine-readable
 * "RT wheelset.step_p99_us 31.2 us" lines; c->rt_report gets the lines in
 * any case, and report->rt has the figures.
 *
 * Errors come back as an rs_status and a message; nothing here exits or
 * prints.  A
 * failed step gives the runtime's message (step, time, quantity) and says
 * which file holds the results and the time of its last row.
 */
#ifndef RS_DRIVER_H
#define RS_DRIVER_H

#include <stdio.h>
#include "rs_load.h"
#include "rs_log.h"
#include "rs_realtime.h"
#include "rs_scenario.h"
#include "rs_stress_couple.h"
#include "rs_thermal_couple.h"
#include "rs_ws.h"

typedef struct rs_run_config {
    const char *model_dir;     /* generated folder (rs_driver_run)                 */
    rs_loader loader;          /* RS_LOAD_TCC (default) or RS_LOAD_DLOPEN           */
    const char *include_dir;   /* runtime headers for the loaders (NULL: default)  */
    const char *scenario;      /* scenario file, NULL: none                         */
    int use_default_scenario;  /* read MODEL_DIR/default.scn first, default 1       */
    const char *set_text;      /* scenario statements over both, one per line (the
                                  command line's --set), NULL: none              */
    const char *out;           /* results to write (required): .csv, .mat, .h5
                                  (rs_results.h); written under a temporary name,
                                  renamed when the run completes, else to
                                  NAME.partial.EXT                              */
    int out_in_place;          /* 1: write `out` itself (the caller renames: sweeps) */
    int method;                /* -1 (default): the scenario's; else an rs_method   */
    int realtime;              /* pace simulated time to the wall clock (rs_rt.h):
                                  absolute deadlines t0 + k·dt on CLOCK_MONOTONIC,
                                  step-time histograms, misses in the report  */
    int rt_pace_output;        /* 1: one deadline per output interval instead of
                                  per step (fewer wake-ups for small steps)    */
    int rt_lock;               /* mlockall + pre-faulted stack                  */
    int rt_fifo;               /* > 0: SCHED_FIFO at this priority              */
    int rt_cpu;                /* >= 0: pin the run to this CPU; -1 (default) no */
    int rt_strict;             /* a refused rt_lock/rt_fifo/rt_cpu is an error
                                  (RS_E_PERM...) instead of a warning          */
    int rt_cpu_time;           /* record per-step thread CPU time, default 1    */
    const char *rt_report;     /* file for the RT lines (rs_realtime_stats_lines), NULL: none */
    int progress;              /* -1 (default): after progress_after s; 0 never; 1 always */
    double progress_after;     /* s of wall time before progress shows, default 2   */
    double progress_every;     /* s between progress lines, default 1               */
    rs_log log;                /* progress, warning and summary lines (rs_log.h);
                                  {0}: none.  The command's prefix is the sink's */
    const rs_thermal_transport *thermal_transport;  /* where a scenario's `thermal`
                                  grid runs: NULL (default) in this process, else
                                  e.g. MPI ranks (rs_coupled_mpi.h)             */
    const rs_stress_transport *stress_transport;    /* likewise a scenario's `stress`
                                  component (NULL: in this process)             */
} rs_run_config;

/* What a run did. */
typedef struct rs_run_report {
    int status;                /* the rs_run status                                 */
    long steps;                /* steps completed                                   */
    long rows;                 /* CSV rows written (header excluded)                */
    double t_start, t_end;     /* simulated time at the start and reached [s]       */
    double wall_s;             /* wall-clock seconds of the run (not the loading)   */
    int proj_iters_max;        /* most projection iterations in one step            */
    int realtime;              /* the run was paced: rt holds its figures           */
    rs_realtime_stats rt;            /* step times, wake-up latency, deadline misses      */
    char rt_notes[512];        /* settings that were refused (warnings), "" if none */
} rs_run_report;

void rs_run_config_default(rs_run_config *c);

/* Loads c->model_dir and runs it (see the header comment).  report may be
 * NULL.  Returns RS_OK or an error with the message in err. */
int rs_driver_run(const rs_run_config *c, rs_run_report *report, char *err, size_t errlen);

/* The run with a model already in memory (a static link, or loaded by the
 * caller) and a parsed scenario (NULL: built-in defaults). */
int rs_driver_simulate(const rs_model *m, const rs_scenario *scn, const rs_run_config *c,
                       rs_run_report *report, char *err, size_t errlen);

/* The descriptor symbol's model name for a folder: the "c_prefix" its
 * model.json names (so a compiled folder may be renamed or copied), else
 * its base name made a C identifier (as the code generator names
 * "<model>_model").  Writes into buf; returns buf. */
char *rs_driver_model_name(const char *dir, char *buf, size_t len);

/* The folder a compiled model's contact file names are relative to: DIR's
 * model.json "contact_root" (the working directory of `railsym compile`, as
 * seen from DIR) joined to DIR, into buf.  1 when model.json has it, else
 * 0 (no contacts, or a folder of an older compiler). */
int rs_driver_contact_dir(const char *dir, char *buf, size_t len);

/* One line for an elastic contact's event (rs_contact_event) as `railsym
 * run` logs it: "t = T s: WHO: flange climbing: Y/Q ...STOP".  who names the
 * wheel ("contact 'left'"; a train's "vehicle 'w': contact 'left'"), stop
 * is appended ("": nothing). */
void rs_contact_event_line(const rs_contact_event *e, const char *who, const char *stop, char *buf, size_t n);

#endif /* RS_DRIVER_H */
