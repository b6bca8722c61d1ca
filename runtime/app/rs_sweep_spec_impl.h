/*
 * rs_sweep_spec_impl.h — private layout of a sweep's specification, shared by
 * rs_sweep_spec.c and rs_sweep.c only.
 */
#ifndef RS_SWEEP_SPEC_IMPL_H
#define RS_SWEEP_SPEC_IMPL_H

#include "rs_sweep_spec.h"

typedef struct rs_sweep_axis {
    char *name;
    int n;
    double *v;
} rs_sweep_axis;

typedef struct rs_sweep_figure_def {
    rs_sweep_figure_kind kind;
    char *column;        /* CSV column it reads          */
    char *name;          /* "max(y)": its summary column */
} rs_sweep_figure_def;

struct rs_sweep_spec {
    int n_axes;
    rs_sweep_axis *axes;       /* grid, the first axis varies slowest */
    int list_ncol, list_nrow;
    char **list_names;
    double *list_vals;         /* list_nrow × list_ncol, row-major   */
    int n_fig;
    rs_sweep_figure_def *fig;
    int n_texts;
    char **texts;              /* file names of the file-valued names (track,
                                  wheel_profile, rail_profile): their values
                                  are indices into this table              */
};

#endif /* RS_SWEEP_SPEC_IMPL_H */
