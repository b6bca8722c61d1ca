/* rs_results_h5.c — see rs_results_h5.h. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hdf5.h>

#include "rs_error.h"
#include "rs_results_h5.h"
#include "rs_status.h"

static pthread_mutex_t h5_lock = PTHREAD_MUTEX_INITIALIZER;

typedef struct h5_table {
    hid_t file;
    int ncol1;
    hsize_t rows;       /* rows in the datasets              */
    int held;           /* rows in buf, not yet written      */
    hid_t *ds;          /* ncol1 datasets                    */
    double *buf;        /* column j at buf + j RS_H5_BLOCK   */
    char path[];
} h5_table;

/* A string attribute (fixed length, NUL-terminated) on obj. */
static int put_string(hid_t obj, const char *name, const char *value)
{
    hid_t type = H5Tcopy(H5T_C_S1), space = H5Screate(H5S_SCALAR);
    H5Tset_size(type, strlen(value) + 1);
    H5Tset_strpad(type, H5T_STR_NULLTERM);
    hid_t a = H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    const int ok = a >= 0 && H5Awrite(a, type, value) >= 0;
    if (a >= 0)
        H5Aclose(a);
    H5Sclose(space);
    H5Tclose(type);
    return ok;
}

/* A 1-D attribute of n variable-length strings on obj. */
static int put_strings(hid_t obj, const char *name, const char *const *values, int n)
{
    hsize_t dim = (hsize_t)n;
    hid_t type = H5Tcopy(H5T_C_S1), space = H5Screate_simple(1, &dim, NULL);
    H5Tset_size(type, H5T_VARIABLE);
    hid_t a = H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    const int ok = a >= 0 && H5Awrite(a, type, values) >= 0;
    if (a >= 0)
        H5Aclose(a);
    H5Sclose(space);
    H5Tclose(type);
    return ok;
}

/* Appends the held rows to every dataset. */
static int flush_block(h5_table *t)
{
    if (!t->held)
        return RS_OK;
    const hsize_t start = t->rows, count = (hsize_t)t->held, size = t->rows + count;
    int ok = 1;
    hid_t mem = H5Screate_simple(1, &count, NULL);
    for (int j = 0; ok && j < t->ncol1; j++) {
        ok = H5Dset_extent(t->ds[j], &size) >= 0;
        hid_t fs = ok ? H5Dget_space(t->ds[j]) : -1;
        ok = ok && fs >= 0 && H5Sselect_hyperslab(fs, H5S_SELECT_SET, &start, NULL, &count, NULL) >= 0 &&
             H5Dwrite(t->ds[j], H5T_NATIVE_DOUBLE, mem, fs, H5P_DEFAULT, t->buf + (size_t)j * RS_H5_BLOCK) >= 0;
        if (fs >= 0)
            H5Sclose(fs);
    }
    H5Sclose(mem);
    if (!ok)
        return RS_E_IO;
    t->rows = size;
    t->held = 0;
    return RS_OK;
}

/* Closes the datasets and the file; 1 if all went well. */
static int close_all(h5_table *t)
{
    int ok = 1;
    for (int j = 0; j < t->ncol1; j++)
        if (t->ds[j] >= 0)
            ok &= H5Dclose(t->ds[j]) >= 0;
    /* A close that fails (its last writes hit a full disk) leaves the file
     * open inside libhdf5 (1.10), which crashes closing it again at exit:
     * h5_open turned that exit handler off (H5dont_atexit); the file's
     * descriptor stays open until the process ends. */
    if (t->file >= 0 && H5Fclose(t->file) < 0)
        ok = 0;
    free(t->ds);
    free(t->buf);
    free(t);
    return ok;
}

static void *h5_open(const char *path, int ncol1, const char *const *names, const char *const *units,
                     int *status, char *err, size_t errlen)
{
    for (int j = 0; j < ncol1; j++)
        if (!names[j][0] || strchr(names[j], '/') || strcmp(names[j], ".") == 0) {
            *status = rs_fail(err, errlen, RS_E_ARG,
                              "column '%s' cannot be an HDF5 dataset name (empty, '.' or with '/'): choose "
                              "other columns, or write CSV or MAT",
                              names[j]);
            return NULL;
        }
    const size_t len = strlen(path) + 1;
    h5_table *t = calloc(1, sizeof *t + len);
    if (!t || !(t->ds = malloc((size_t)ncol1 * sizeof *t->ds)) ||
        !(t->buf = malloc((size_t)ncol1 * RS_H5_BLOCK * sizeof *t->buf))) {
        if (t)
            free(t->ds);
        free(t);
        *status = rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
        return NULL;
    }
    memcpy(t->path, path, len);
    t->ncol1 = ncol1;
    for (int j = 0; j < ncol1; j++)
        t->ds[j] = -1;
    pthread_mutex_lock(&h5_lock);
    static int started;
    if (!started) {
        H5dont_atexit();   /* before the library starts: see close_all */
        started = 1;
    }
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);   /* the runtime prints nothing */
    t->file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    int ok = t->file >= 0;
    const char *why = "cannot create the file";
    const hsize_t zero = 0, unlimited = H5S_UNLIMITED, chunk = RS_H5_BLOCK;
    hid_t space = H5Screate_simple(1, &zero, &unlimited), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 1, &chunk);
    for (int j = 0; ok && j < ncol1; j++) {
        t->ds[j] = H5Dcreate2(t->file, names[j], H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
        if (!(ok = t->ds[j] >= 0))
            why = "cannot create a dataset for every column (a column name repeats?)";
        else
            ok = put_string(t->ds[j], "unit", units[j]);
    }
    ok = ok && put_strings(t->file, "columns", names, ncol1) && put_strings(t->file, "units", units, ncol1) &&
         H5Fflush(t->file, H5F_SCOPE_LOCAL) >= 0;
    H5Pclose(dcpl);
    H5Sclose(space);
    if (!ok) {
        close_all(t);
        pthread_mutex_unlock(&h5_lock);
        *status = rs_fail(err, errlen, RS_E_IO, "libhdf5 %s", why);
        return NULL;
    }
    pthread_mutex_unlock(&h5_lock);
    return t;
}

static int h5_row(void *h, const double *row)
{
    h5_table *t = h;
    for (int j = 0; j < t->ncol1; j++)
        t->buf[(size_t)j * RS_H5_BLOCK + t->held] = row[j];
    if (++t->held < RS_H5_BLOCK)
        return RS_OK;
    pthread_mutex_lock(&h5_lock);
    const int st = flush_block(t);
    pthread_mutex_unlock(&h5_lock);
    return st;
}

static int h5_close(void *h, int cut, char *err, size_t errlen)
{
    h5_table *t = h;
    pthread_mutex_lock(&h5_lock);
    /* after a failed block (cut) the held rows are not tried again */
    int st = cut ? RS_OK : flush_block(t);
    if (!close_all(t) && !st)
        st = RS_E_IO;
    pthread_mutex_unlock(&h5_lock);
    if (st && !cut)
        rs_fail(err, errlen, st, "libhdf5 failed to write or close it (disk full?)");
    return cut ? RS_OK : st;
}

static const rs_results_backend backend = {"HDF5", h5_open, h5_row, h5_close};

const rs_results_backend *rs_h5_backend(void) { return &backend; }
