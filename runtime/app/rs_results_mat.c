/* rs_results_mat.c — see rs_results_mat.h. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <matio.h>

#include "rs_error.h"
#include "rs_results_mat.h"
#include "rs_status.h"

typedef struct mat_table {
    int ncol1;
    size_t rows, cap;   /* rows held, rows room for                  */
    double *data;       /* column-major, column j at data + j cap    */
    char **names, **units;
    char path[];
} mat_table;

/* libmatio logs its errors on stderr by default; the runtime prints
 * nothing (its failures come back as statuses). */
static void quiet(int level, char *message)
{
    (void)level;
    (void)message;
}

static void table_free(mat_table *t)
{
    for (int j = 0; j < t->ncol1; j++) {
        free(t->names[j]);
        free(t->units[j]);
    }
    free(t->names);
    free(t->units);
    free(t->data);
    free(t);
}

static void *mat_open(const char *path, int ncol1, const char *const *names, const char *const *units,
                      int *status, char *err, size_t errlen)
{
    const size_t len = strlen(path) + 1;
    mat_table *t = calloc(1, sizeof *t + len);
    if (!t || !(t->names = calloc((size_t)ncol1, sizeof *t->names)) ||
        !(t->units = calloc((size_t)ncol1, sizeof *t->units))) {
        if (t)
            free(t->names);
        free(t);
        *status = rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
        return NULL;
    }
    memcpy(t->path, path, len);
    t->ncol1 = ncol1;
    int bad = 0;
    for (int j = 0; j < ncol1; j++) {
        bad |= !(t->names[j] = strdup(names[j]));
        bad |= !(t->units[j] = strdup(units[j]));
    }
    if (bad) {
        table_free(t);
        *status = rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
        return NULL;
    }
    /* the file is created now, so a folder that cannot take it fails here,
     * before the run, not at its end */
    FILE *f = fopen(path, "wb");
    if (!f || fclose(f) != 0) {
        *status = rs_fail(err, errlen, RS_E_IO, "%s", strerror(errno));
        table_free(t);
        return NULL;
    }
    return t;
}

static int mat_row(void *h, const double *row)
{
    mat_table *t = h;
    if (t->rows == t->cap) {   /* between steps: double the room */
        const size_t cap = t->cap ? 2 * t->cap : 256;
        if (cap > SIZE_MAX / sizeof(double) / (size_t)t->ncol1)
            return RS_E_NOMEM;
        double *d = realloc(t->data, cap * (size_t)t->ncol1 * sizeof *d);
        if (!d)
            return RS_E_NOMEM;
        for (int j = t->ncol1 - 1; j > 0; j--)   /* columns to their new places, last first */
            memmove(d + (size_t)j * cap, d + (size_t)j * t->cap, t->rows * sizeof *d);
        t->data = d;
        t->cap = cap;
    }
    for (int j = 0; j < t->ncol1; j++)
        t->data[(size_t)j * t->cap + t->rows] = row[j];
    t->rows++;
    return RS_OK;
}

/* A 1 × n cell of the strings s[] (NULL when out of memory). */
static matvar_t *string_cell(const char *name, char *const *s, int n)
{
    size_t dims[2] = {1, (size_t)n};
    matvar_t *cell = Mat_VarCreate(name, MAT_C_CELL, MAT_T_CELL, 2, dims, NULL, 0);
    for (int j = 0; cell && j < n; j++) {
        size_t sd[2] = {1, strlen(s[j])};
        matvar_t *str = Mat_VarCreate(NULL, MAT_C_CHAR, MAT_T_UTF8, 2, sd, s[j], 0);
        if (!str) {
            Mat_VarFree(cell);
            return NULL;
        }
        Mat_VarSetCell(cell, j, str);
    }
    return cell;
}

/* 1 if the file at path is a whole MAT 5 file of `vars` variables: its
 * 128-byte header, then elements whose tags' sizes add up to the file's
 * size.  libmatio does not report every failed write (a full disk), so
 * the file is walked once after it is closed. */
static int whole_mat5(const char *path, int vars)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    int ok = fseek(f, 0, SEEK_END) == 0;
    const long size = ftell(f);
    long at = 128;
    int n = 0;
    while (ok && at < size) {
        uint32_t tag[2];
        ok = fseek(f, at, SEEK_SET) == 0 && fread(tag, sizeof tag, 1, f) == 1;
        at += 8 + (long)tag[1];
        n++;
    }
    fclose(f);
    return ok && at == size && n == vars;
}

static int mat_close(void *h, int cut, char *err, size_t errlen)
{
    mat_table *t = h;
    (void)cut;   /* the rows held are whole */
    Mat_LogInitFunc("railsym", quiet);
    for (int j = 1; j < t->ncol1; j++)   /* columns side by side: N × ncol1 */
        memmove(t->data + (size_t)j * t->rows, t->data + (size_t)j * t->cap, t->rows * sizeof *t->data);
    size_t dims[2] = {t->rows, (size_t)t->ncol1};
    static double none;
    int st = RS_OK;
    mat_t *mat = Mat_CreateVer(t->path, "MATLAB 5.0 MAT-file, written by railsym", MAT_FT_MAT5);
    matvar_t *data = Mat_VarCreate("data", MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims, t->data ? t->data : &none,
                                   MAT_F_DONT_COPY_DATA);
    matvar_t *names = string_cell("names", t->names, t->ncol1), *units = string_cell("units", t->units, t->ncol1);
    if (!mat || !data || !names || !units)
        st = rs_fail(err, errlen, mat ? RS_E_NOMEM : RS_E_IO, "%s", mat ? "out of memory" : "libmatio cannot create it");
    else if (Mat_VarWrite(mat, data, MAT_COMPRESSION_NONE) || Mat_VarWrite(mat, names, MAT_COMPRESSION_NONE) ||
             Mat_VarWrite(mat, units, MAT_COMPRESSION_NONE))
        st = rs_fail(err, errlen, RS_E_IO, "libmatio failed to write it (disk full?)");
    if (mat && Mat_Close(mat) != 0 && !st)
        st = rs_fail(err, errlen, RS_E_IO, "libmatio failed to close it (disk full?)");
    if (!st && !whole_mat5(t->path, 3))
        st = rs_fail(err, errlen, RS_E_IO, "the file is cut short (disk full or file size limit?)");
    Mat_VarFree(data);
    Mat_VarFree(names);
    Mat_VarFree(units);
    table_free(t);
    return st;
}

static const rs_results_backend backend = {"MAT", mat_open, mat_row, mat_close};

const rs_results_backend *rs_mat_backend(void) { return &backend; }
