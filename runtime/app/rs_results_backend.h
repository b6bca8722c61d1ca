/*
 * rs_results_backend.h — what one file format of results provides
 * (rs_results.h chooses one by the file's extension): CSV (rs_csv.h), MAT
 * (rs_results_mat.h), HDF5 (rs_results_h5.h).
 *
 * A backend writes one table to the path it is given (the front end's
 * temporary name; it never renames).  Column 0 is time; names[] and
 * units[] have ncol1 = 1 + the number of quantities entries ("" where a
 * unit is unknown).  Rows arrive between steps, never inside one; a
 * backend may allocate there (a MAT file keeps its rows in memory until
 * close), but its memory per row is the row's doubles and no more.
 */
#ifndef RS_RESULTS_BACKEND_H
#define RS_RESULTS_BACKEND_H

#include <stddef.h>

typedef struct rs_results_backend {
    const char *format;   /* "CSV", "MAT", "HDF5": for messages */
    /* Creates `path` (truncating it) and writes what comes before the rows.
     * Returns the backend's handle, or NULL with the status in *status and
     * the message in err. */
    void *(*open)(const char *path, int ncol1, const char *const *names, const char *const *units,
                  int *status, char *err, size_t errlen);
    /* Writes one row of ncol1 values (time first).  RS_OK, RS_E_IO or
     * RS_E_NOMEM; after a failure no more rows are given. */
    int (*row)(void *h, const double *row);
    /* Writes what is still held and closes; frees h in any case.  `cut`: a
     * row failed, keep only the rows written whole before it (what the
     * backend can).  Returns RS_OK or the status of the first failure, the
     * message in err. */
    int (*close)(void *h, int cut, char *err, size_t errlen);
} rs_results_backend;

#endif /* RS_RESULTS_BACKEND_H */
