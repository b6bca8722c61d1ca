/*
 * rs_sweep_train.h — the train side of sweeps (rs_sweep.h with
 * rs_sweep_config.train_file): a variant is the train file with one
 * `set NAME = VALUE` line per varied name read after its last line.
 */
#ifndef RS_SWEEP_TRAIN_H
#define RS_SWEEP_TRAIN_H

#include <stddef.h>

#include "rs_load_cache.h"
#include "rs_sweep_spec.h"

/* Checks every varied name (each alone, so the message names it) and every
 * figure's column against the train file; writes the cost estimate of one
 * variant (coordinates × steps).  Allocates; loads the compiled vehicles
 * into `cache`, where every variant then finds them. */
int rs_sweep_train_check(const char *file, rs_load_cache *cache, const rs_sweep_spec *s, double *est_per_variant,
                         char *err, size_t errlen);

/* Runs one variant on `threads` threads into the CSV `path` (rs_train_run):
 * the same bytes as `railsym run FILE --threads T` with the set lines
 * appended to the file.  Its steps into *steps, a failure's message into
 * msg (a derailment's: RS_TRAIN_DERAILED_MSG first, without the file's
 * name), the lines `railsym run` would log (its elastic contacts' events)
 * into events, each ending in '\n' (those that do not fit: one line saying
 * how many more). */
int rs_sweep_train_variant(const char *file, rs_load_cache *cache, const rs_sweep_spec *s, const double *values,
                           const char *path, int threads, long *steps, char *msg, size_t msglen, char *events,
                           size_t evlen);

#endif /* RS_SWEEP_TRAIN_H */
