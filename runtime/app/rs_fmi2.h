/*
 * rs_fmi2.h — the FMI 2.0 Co-Simulation adapter (rs_fmi2.c) that
 * `railsym export-fmu` compiles into an FMU's binary (docs/fmi.md).
 *
 * The adapter is the same for every model: the exporter writes a small C
 * file (sources/rs_fmi2_entry.c) defining the two functions below, which
 * name the model's descriptor and the FMU's guid.
 */
#ifndef RS_FMI2_H
#define RS_FMI2_H

#include "rs_fmi2_api.h"
#include "rs_fmi2_layout.h"
#include "rs_model.h"

/* Defined by the exporter's rs_fmi2_entry.c. */
const rs_model *rs_fmi2_model(void);
const char *rs_fmi2_guid(void);

/* The file names inside the FMU's resources/ folder: rs_fmi2_layout.h. */

#endif /* RS_FMI2_H */
