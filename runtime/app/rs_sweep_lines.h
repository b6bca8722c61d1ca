/*
 * rs_sweep_lines.h — a sweep variant's log lines (rs_variant_result.events):
 * what its run, quiet, would have printed (an elastic contact's flange climbs
 * and derailments, rs_contact_event_line; a warning about the results),
 * collected into a fixed buffer so that the sweep prints them as
 * "vNNNN: <line>" when the variant is recorded, on whichever thread or MPI
 * rank it ran (rs_sweep.c log_variant).  Shared by the single-model and the
 * train variants (rs_sweep.c, rs_sweep_train.c).
 */
#ifndef RS_SWEEP_LINES_H
#define RS_SWEEP_LINES_H

#include <stddef.h>

#include "rs_log.h"

typedef struct rs_sweep_lines {
    char *buf;
    size_t cap, used;
    int left_out;              /* lines that did not fit */
} rs_sweep_lines;

/* A sink that appends each RS_LOG_LINE (other kinds: progress, dropped) with
 * its '\n' to buf (cap bytes; buf may be NULL: nothing kept), "" first. */
rs_log rs_sweep_lines_start(rs_sweep_lines *x, char *buf, size_t cap);

/* After the run: the count of the lines that did not fit, as one line
 * ("... and N more lines"). */
void rs_sweep_lines_end(rs_sweep_lines *x);

#endif /* RS_SWEEP_LINES_H */
