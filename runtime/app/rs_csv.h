/*
 * rs_csv.h — results as CSV: one header row of names ("time" first), SI
 * units, one row per output time, flushed after every row so a run stopped
 * midway keeps everything computed so far.  Numbers are printed with 17
 * significant digits (doubles round-trip exactly).
 *
 * Writing happens between steps (from rs_run's output callback), never
 * inside one.
 */
#ifndef RS_CSV_H
#define RS_CSV_H

#include <stddef.h>
#include "rs_ws.h"

typedef struct rs_csv rs_csv;

/* Opens `path` for a table of time plus ncol columns named `names` and
 * writes the header.  Returns RS_OK, RS_E_IO or RS_E_NOMEM (message in err). */
int rs_csv_open(rs_csv **csv, const char *path, int ncol, const char *const *names,
                char *err, size_t errlen);

/* Writes one row: t, then the ncol values; flushes. */
int rs_csv_row(rs_csv *csv, double t, const double *values);

/* Opens a table whose columns are quantities of ws chosen by name (see
 * rs_model_find: coordinates, "<q>_dot", "lambda_<constraint>", outputs,
 * parameters, inputs).  names == NULL chooses every coordinate, velocity,
 * multiplier and output.  An unknown name fails with RS_E_NOTFOUND and a
 * message that names it. */
int rs_csv_open_ws(rs_csv **csv, const char *path, rs_ws *ws, int ncol,
                   const char *const *names, char *err, size_t errlen);

/* Writes the current values of the columns chosen by rs_csv_open_ws
 * (evaluating the model's outputs when a column needs them). */
int rs_csv_write_ws(rs_csv *csv, rs_ws *ws);

/* An rs_output_fn for rs_run: ctx is the rs_csv of rs_csv_open_ws.  On a
 * write error it returns non-zero (rs_run stops with RS_STOPPED) and
 * rs_csv_status tells why. */
int rs_csv_output(rs_ws *ws, void *ctx);

/* The first error met while writing (RS_OK if none). */
int rs_csv_status(const rs_csv *csv);

/* Closes the file; returns RS_E_IO if anything failed to reach it.  Sets
 * *csv = NULL. */
int rs_csv_close(rs_csv **csv);

#endif /* RS_CSV_H */
