/*
 * rs_results_h5.h — results as an HDF5 file (libhdf5; docs/results.md):
 *
 *   /time, /NAME ...   one 1-D double dataset per column (extendible,
 *                      chunked), each with a string attribute "unit"
 *                      ("s" for time, "" where unknown)
 *   attributes of /    "columns" and "units": the names and units in the
 *                      table's order (HDF5 lists datasets by name)
 *
 * Rows are buffered RS_H5_BLOCK at a time (fixed memory: RS_H5_BLOCK
 * doubles per column) and appended to the datasets as a block.  A column
 * name must be a valid HDF5 link name: not empty, no '/', not ".".
 * libhdf5 (the serial build) is not thread-safe: the calls are serialized
 * by one lock.
 */
#ifndef RS_RESULTS_H5_H
#define RS_RESULTS_H5_H

#include "rs_results_backend.h"

#define RS_H5_BLOCK 1024

const rs_results_backend *rs_h5_backend(void);

#endif /* RS_RESULTS_H5_H */
