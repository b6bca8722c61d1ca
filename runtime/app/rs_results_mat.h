/*
 * rs_results_mat.h — results as a MATLAB/Octave MAT file (version 5,
 * written with libmatio; docs/results.md):
 *
 *   data    N × (1 + ncol) double: one row per output time, time first
 *   names   1 × (1 + ncol) cell of char: the column names ("time" first)
 *   units   1 × (1 + ncol) cell of char: their units ("s" first; '' unknown)
 *
 * MAT version 5 is what Octave, MATLAB and scipy.io.loadmat all read, but
 * it cannot grow a variable in place: the rows are kept in memory (the
 * doubles of each row, in a buffer that doubles when full) and written when
 * the file is closed.  For runs too long for that, write HDF5.
 */
#ifndef RS_RESULTS_MAT_H
#define RS_RESULTS_MAT_H

#include "rs_results_backend.h"

const rs_results_backend *rs_mat_backend(void);

#endif /* RS_RESULTS_MAT_H */
