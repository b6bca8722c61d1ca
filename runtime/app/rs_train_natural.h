/*
 * rs_train_natural.h — the runner of a train file with 'formulation
 * natural' (docs/trains.md, docs/massive.md): the train as rs_ltrain (one
 * coordinate per vehicle), rigid couplers by artificial dynamics or the
 * direct solve, stiff couplers by the HMM or resolved RK4, the results in
 * the columns of the Park runner (<vehicle>.x, .v, <coupler>.force,
 * .elongation).  rs_train_run (rs_train_file.h) fills the job from its
 * spec and calls it; the job is its own struct so that this module does
 * not depend on the train-file reader that calls it.
 */
#ifndef RS_TRAIN_NATURAL_H
#define RS_TRAIN_NATURAL_H

#include <stddef.h>

#include "rs_log.h"
#include "rs_ltrain.h"

typedef struct rs_train_natural_job {
    const char *file;            /* the train file, for messages */
    int nv;                      /* vehicles, front first */
    const rs_wagon *veh;         /* nv */
    const char (*vname)[64];     /* nv names */
    const rs_coupler *cpl;       /* nv − 1 */
    const char (*cname)[64];     /* nv − 1 names */
    rs_ltrain_method method;
    double duration, step, output, speed, tolerance;
    int iterations;
    const char *out;             /* results file (rs_results.h) */
    int out_in_place, threads, progress;
    rs_log log;
} rs_train_natural_job;

typedef struct rs_train_natural_report {
    long steps, rows;
    double t_start, t_end, wall_s;
    double iters_per_step;       /* artificial-dynamics iterations per step */
    int threads;                 /* used: job->threads capped at the usable cores */
} rs_train_natural_report;

/* Runs the job; RS_OK or the failing status with "file: message" in err;
 * *rep filled either way. */
int rs_train_natural_run(const rs_train_natural_job *job, rs_train_natural_report *rep, char *err, size_t errlen);

#endif /* RS_TRAIN_NATURAL_H */
