/*
 * rs_results.h — the results of a run as a file: a table of time and
 * named quantities with their units, in the format the file's extension
 * names (docs/results.md):
 *
 *   .mat          MATLAB/Octave MAT (version 5), rs_results_mat.h
 *   .h5, .hdf5    HDF5, rs_results_h5.h
 *   anything else CSV, rs_csv.h
 *
 * A file is whole or plainly unfinished.  Rows go to a temporary file in
 * the same folder (".NAME.tmp.PID.N"), and rs_results_close renames it:
 *   - complete: to the path asked for, and an older "NAME.partial.EXT" of
 *     the same path goes (it is not this run's);
 *   - not complete (the run failed, or a row could not be written): to
 *     "NAME.partial.EXT" with the whole rows written so far, and an older
 *     file at the path asked for goes (it would look like this run's
 *     result).
 * Two runs writing the same path never mix their rows: each has its own
 * temporary file, and the last rename wins.
 *
 * A CSV holds names and numbers only; its units go beside it, in
 * "NAME.units.csv" (rs_results_units_path): the same header row, then one
 * row of units ("" where unknown), renamed with the table (written first)
 * and removed with it.  MAT and HDF5 files carry their units inside.
 *
 * Writing happens between steps (from rs_run's output callback), never
 * inside one.
 */
#ifndef RS_RESULTS_H
#define RS_RESULTS_H

#include <stddef.h>
#include "rs_ws.h"

typedef struct rs_results rs_results;

/* Flags of rs_results_open. */
enum {
    /* write `path` itself, no temporary file and no renaming: for callers
     * that choose a temporary name and rename themselves (sweeps) */
    RS_RESULTS_IN_PLACE = 1
};

/* Opens a table of time plus ncol columns named `names` with units
 * `units` (NULL, or entries NULL or "": unknown) at `path`.  Returns RS_OK,
 * RS_E_IO, RS_E_ARG (a name a format cannot hold) or RS_E_NOMEM, the
 * message in err naming `path`. */
int rs_results_open(rs_results **r, const char *path, int ncol, const char *const *names,
                    const char *const *units, unsigned flags, char *err, size_t errlen);

/* Opens a table whose columns are quantities of ws chosen by name (see
 * rs_model_find: coordinates, "<q>_dot", "lambda_<constraint>", outputs,
 * parameters, inputs, contact quantities ...), with their units from the
 * model (rs_results_unit).  names == NULL chooses every coordinate,
 * velocity, multiplier and output.  An unknown name fails with
 * RS_E_NOTFOUND and a message that names it; a contact's normal multiplier
 * under the elastic contact (which holds no normal constraint) with
 * RS_E_ARG, naming its force '<contact>.N'. */
int rs_results_open_ws(rs_results **r, const char *path, rs_ws *ws, int ncol, const char *const *names,
                       unsigned flags, char *err, size_t errlen);

/* Columns the caller computes beside the model's (a coupled model's
 * results, docs/coupled.md): their names and units, and the array that
 * holds their current values whenever a row is written (it must outlive
 * the table). */
typedef struct rs_results_extra {
    int n;
    const char *const *names;
    const char *const *units;
    const double *values;
} rs_results_extra;

/* rs_results_open_ws where a name of `extra` (NULL: none) is one of its
 * columns. */
int rs_results_open_ws_extra(rs_results **r, const char *path, rs_ws *ws, int ncol, const char *const *names,
                             const rs_results_extra *extra, unsigned flags, char *err, size_t errlen);

/* The columns of names == NULL above: every coordinate, velocity,
 * multiplier and output, *n of them; each name and the array are the
 * caller's to free().  NULL when out of memory. */
char **rs_results_default_columns(const rs_model *m, int *n);

/* The unit of quantity v of model m ("" when unknown), written into buf. */
const char *rs_results_unit(const rs_model *m, rs_var v, char *buf, size_t len);
/* The unit of contact quantity k (index % RS_CONTACT_VAR_STRIDE of an
 * RS_VAR_CONTACT), a static string; "" outside. */
const char *rs_results_contact_unit(int k);

/* Writes one row: t, then the ncol values.  RS_OK, else the write's
 * status (kept: rs_results_status). */
int rs_results_row(rs_results *r, double t, const double *values);

/* Writes the current values of the columns chosen by rs_results_open_ws
 * (evaluating the model's outputs when a column needs them). */
int rs_results_write_ws(rs_results *r, rs_ws *ws);

/* An rs_output_fn for rs_run: ctx is the rs_results of rs_results_open_ws.
 * On a write error it returns non-zero (rs_run stops with RS_STOPPED) and
 * rs_results_status tells why. */
int rs_results_output(rs_ws *ws, void *ctx);

/* The first error met while writing (RS_OK if none). */
int rs_results_status(const rs_results *r);

/* Rows written whole so far, and the time of the last one (NAN if none). */
long rs_results_rows(const rs_results *r);
double rs_results_last_time(const rs_results *r);

/* The path rows go to when not complete: "DIR/NAME.partial.EXT" for
 * "DIR/NAME.EXT" ("PATH.partial" without an extension). */
void rs_results_partial_path(const char *path, char *buf, size_t len);

/* The units file beside the CSV `path`: "DIR/NAME.units.csv" for
 * "DIR/NAME.csv" ("PATH.units" without an extension). */
void rs_results_units_path(const char *path, char *buf, size_t len);

/* Closes and renames (see above).  complete = 0 or a write error: the
 * partial name.  Writes the name the file now has into `where` (when
 * given; "" when no file is left).  Returns RS_OK or the first write
 * error, the message in err.  Sets *r = NULL. */
int rs_results_close(rs_results **r, int complete, char *where, size_t wlen, char *err, size_t errlen);

#endif /* RS_RESULTS_H */
