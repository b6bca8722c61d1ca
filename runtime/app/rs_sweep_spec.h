/*
 * rs_sweep_spec.h — what a sweep varies and what it measures: the variants
 * (grid axes and explicit rows) and the per-variant figures.  Used by the
 * sweeps of models (rs_sweep.h) and of trains (rs_sweep_train.h).
 * docs/sweeps.md.
 */
#ifndef RS_SWEEP_SPEC_H
#define RS_SWEEP_SPEC_H

#include <stddef.h>

/* Per-variant figures over all rows of one CSV column. */
typedef enum rs_sweep_figure_kind {
    RS_FIG_MAX,      /* largest value            */
    RS_FIG_MIN,      /* smallest value           */
    RS_FIG_ABSMAX,   /* largest |value|          */
    RS_FIG_RMS,      /* sqrt(mean(value²))       */
    RS_FIG_MEAN,     /* mean                     */
    RS_FIG_FINAL,    /* value of the last row    */
    RS_FIG_RATE,     /* growth rate of the oscillation's envelope, 1/s
                        (rs_envelope.h; < 0: decaying; NaN: too few peaks) */
    RS_FIG_FREQ      /* its frequency, Hz (NaN: too few peaks)            */
} rs_sweep_figure_kind;

typedef struct rs_sweep_spec rs_sweep_spec;

int rs_sweep_spec_create(rs_sweep_spec **s);
void rs_sweep_spec_free(rs_sweep_spec **s);

/* A grid axis from text: "NAME=LO:HI:N" (N >= 1 evenly spaced values, LO
 * alone when N == 1) or "NAME=V1,V2,..." (explicit values).  RS_E_ARG with
 * a message on bad syntax or a name given twice. */
int rs_sweep_spec_vary(rs_sweep_spec *s, const char *arg, char *err, size_t errlen);

/* A grid axis from values (copied).  Not for the file-valued names. */
int rs_sweep_spec_axis(rs_sweep_spec *s, const char *name, int n, const double *values,
                       char *err, size_t errlen);

/* File-valued names: `track`, `wheel_profile`, `rail_profile` — a variant
 * runs with the scenario statement `NAME "PATH"` (every contact's track or
 * profile replaced; the model must have contacts).  --vary takes
 * NAME=F1,F2,... (paths as seen from the working directory), a list file a
 * column of paths (relative to the list's folder).  Each file must be
 * readable when the spec is made.  A variant's value for such a name is
 * the path's index in the spec (rs_sweep_spec_values); rs_sweep_spec_file
 * gives the path back. */
int rs_sweep_spec_axis_files(rs_sweep_spec *s, const char *name, int n, const char *const *paths,
                             char *err, size_t errlen);
/* 1 when variable j is file-valued. */
int rs_sweep_spec_is_file(const rs_sweep_spec *s, int j);
/* The path of value v of variable j, or NULL when j is not file-valued. */
const char *rs_sweep_spec_file(const rs_sweep_spec *s, int j, double v);
/* Value v of variable j as a CSV field: %.17g, or the path in quotes;
 * returns the length snprintf would write. */
size_t rs_sweep_spec_format(const rs_sweep_spec *s, int j, double v, char *buf, size_t len);

/* Explicit variants from a CSV file: a header row of names, then one row of
 * numbers (paths in the columns of file-valued names) per variant ('#'
 * lines and blank lines skipped).  At most one list.  Errors name the file
 * and line. */
int rs_sweep_spec_list(rs_sweep_spec *s, const char *path, char *err, size_t errlen);

/* Explicit variants from memory: ncol names, nrow rows of ncol values
 * (row-major), copied.  The same as a list file with those lines. */
int rs_sweep_spec_rows(rs_sweep_spec *s, int ncol, const char *const *names, int nrow, const double *values,
                       char *err, size_t errlen);

/* A figure from text "KIND:COLUMN", KIND one of max, min, absmax, rms,
 * mean, final, rate, freq (rate and freq: against the first column, time). */
int rs_sweep_spec_figure(rs_sweep_spec *s, const char *arg, char *err, size_t errlen);

int rs_sweep_spec_count(const rs_sweep_spec *s);        /* variants (1 if nothing varies) */
int rs_sweep_spec_nvars(const rs_sweep_spec *s);        /* list columns, then axes */
const char *rs_sweep_spec_var(const rs_sweep_spec *s, int j);
int rs_sweep_spec_nfigures(const rs_sweep_spec *s);
/* "max(y)": the figure's column name in summary.csv. */
const char *rs_sweep_spec_figure_name(const rs_sweep_spec *s, int f);
/* Values of variant i (0-based) into vals[nvars]. */
void rs_sweep_spec_values(const rs_sweep_spec *s, int i, double *vals);

/* Figures of one CSV text (header + rows) for the spec's figures, into
 * fig[nfigures].  Shared by every path (local, MPI, resume), so a summary
 * never depends on how a variant ran.  RS_E_ARG if a column is missing or
 * a number cannot be read (message in err). */
int rs_sweep_figures_of_csv(const rs_sweep_spec *s, const char *text, size_t len, double *fig,
                            char *err, size_t errlen);

#endif /* RS_SWEEP_SPEC_H */
