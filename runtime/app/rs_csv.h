/*
 * rs_csv.h — the CSV format of results (rs_results.h writes through it):
 * one header row of names ("time" first), SI units, one row per output
 * time, flushed after every row.  Numbers are printed with 17 significant
 * digits (doubles round-trip exactly).
 *
 * A row that cannot be written whole (disk full, file size limit) is cut
 * off again when the file is closed: the file holds the header and whole
 * rows only.
 */
#ifndef RS_CSV_H
#define RS_CSV_H

#include "rs_results_backend.h"

const rs_results_backend *rs_csv_backend(void);

#endif /* RS_CSV_H */
