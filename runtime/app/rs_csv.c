/* rs_csv.c — see rs_csv.h. */
#define _POSIX_C_SOURCE 200809L /* truncate, ftello */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "rs_csv.h"
#include "rs_error.h"
#include "rs_file.h"
#include "rs_status.h"

typedef struct csv_file {
    FILE *f;
    int ncol1;
    off_t whole;   /* bytes of the header and the rows written whole */
    char path[];
} csv_file;

/* Flushes; on success records the file's length as whole. */
static int flush_whole(csv_file *c)
{
    if (fflush(c->f) != 0 || ferror(c->f))
        return RS_E_IO;
    const off_t at = ftello(c->f);
    if (at < 0)
        return RS_E_IO;
    c->whole = at;
    return RS_OK;
}

static void *csv_open(const char *path, int ncol1, const char *const *names, const char *const *units,
                      int *status, char *err, size_t errlen)
{
    (void)units;
    const size_t len = strlen(path) + 1;
    csv_file *c = malloc(sizeof *c + len);
    if (!c) {
        *status = rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
        return NULL;
    }
    memcpy(c->path, path, len);
    c->ncol1 = ncol1;
    c->whole = 0;
    if (!(c->f = fopen(path, "w"))) {
        *status = rs_fail(err, errlen, RS_E_IO, "%s", rs_file_why(errno));
        free(c);
        return NULL;
    }
    for (int i = 0; i < ncol1; i++)
        fprintf(c->f, "%s%s", i ? "," : "", names[i]);
    fputc('\n', c->f);
    errno = 0;
    if (flush_whole(c) != RS_OK) {
        *status = rs_fail(err, errlen, RS_E_IO, "%s", errno ? strerror(errno) : "write error");
        fclose(c->f);
        free(c);
        return NULL;
    }
    return c;
}

static int csv_row(void *h, const double *v)
{
    csv_file *c = h;
    for (int i = 0; i < c->ncol1; i++)
        fprintf(c->f, i ? ",%.17g" : "%.17g", v[i]);
    fputc('\n', c->f);
    return flush_whole(c);
}

static int csv_close(void *h, int cut, char *err, size_t errlen)
{
    csv_file *c = h;
    int st = RS_OK;
    errno = 0;
    if (fclose(c->f) != 0 && !cut)
        st = rs_fail(err, errlen, RS_E_IO, "%s", errno ? strerror(errno) : "write error");
    /* A row that reached the file in part (the disk filled in its middle)
     * goes: the file ends with a whole row. */
    if (cut && truncate(c->path, c->whole) != 0)
        st = rs_fail(err, errlen, RS_E_IO, "cannot cut the file back to its whole rows: %s", strerror(errno));
    free(c);
    return st;
}

static const rs_results_backend backend = {"CSV", csv_open, csv_row, csv_close};

const rs_results_backend *rs_csv_backend(void) { return &backend; }
