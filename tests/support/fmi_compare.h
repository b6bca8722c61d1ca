/*
 * fmi_compare.h — what the FMU tests share (tests/e2e/test_fmu*.c): running
 * railsym, reading its results CSV, and stepping an FMU instance over the
 * CSV's rows while comparing every column.
 */
#ifndef FMI_COMPARE_H
#define FMI_COMPARE_H

#include <stddef.h>

#include "fmi_import.h"

enum { FMI_CSV_MAXCOL = 32 };

/* A results CSV: rows of ncol numbers after a header of names. */
typedef struct fmi_csv {
    int ncol, nrow;
    char names[FMI_CSV_MAXCOL][64];
    double *v; /* nrow × ncol, row-major (free it) */
} fmi_csv;

/* Runs argv (argv[0] found on PATH) and returns its exit status (-1: it
 * did not exit normally). */
int fmi_run_argv(char *const argv[]);

/* The railsym program under test ($RAILSYM_BIN, else ./build/railsym). */
const char *fmi_railsym(void);

/* `railsym run MODEL_DIR --scenario SCN --out OUT --quiet`; its status. */
int fmi_railsym_run(const char *model_dir, const char *scn, const char *out);

/* In a test built with the sanitizers (make SANITIZE=1), has export-fmu
 * compile the FMU's binary with them too (RAILSYM_FMU_CFLAGS, unless set),
 * so the adapter and the runtime inside the FMU are checked as well. */
void fmi_sanitize_fmus(void);

/* Reads a CSV; 0, or -1 with the reason in err. */
int fmi_csv_read(const char *path, fmi_csv *c, char *err, size_t errlen);

/* Steps instance c through rows row_from..row_to of ref (each communication
 * step the difference of two rows' times) and compares every column with
 * fmi2GetReal: the largest relative difference |a − b| / max(1, |b|) (two
 * NaNs are equal) in *worst.  0, or -1 with the first failure (a call that
 * did not return fmi2OK, a missing variable, a difference above tol) in err. */
int fmi_compare_rows(fmi_fmu *f, void *c, const fmi_csv *ref, int row_from, int row_to, double tol, double *worst,
                     char *err, size_t errlen);

#endif
