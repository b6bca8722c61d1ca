/*
 * fmi_import.h — a minimal FMI 2.0 Co-Simulation importer for the tests
 * (docs/fmi.md): unzips an FMU into a temporary folder (the `unzip`
 * command), reads its modelDescription.xml, dlopens the binary and
 * resolves the functions.  Variables are found by name.
 */
#ifndef FMI_IMPORT_H
#define FMI_IMPORT_H

#include <stddef.h>

#include "rs_fmi2_api.h"

typedef struct fmi_fmu {
    char dir[512];                   /* the unzipped FMU                  */
    char id[128], guid[128];
    void *so;
    int n_vars;
    char **var_name;                 /* n_vars, valueReference of each:  */
    unsigned *var_vr;
    char last_log[2048];             /* the last message logged          */
    int n_log;
    fmi2CallbackFunctions cb;
    fmi2InstantiateTYPE *instantiate;
    fmi2FreeInstanceTYPE *free_instance;
    fmi2SetupExperimentTYPE *setup_experiment;
    fmi2EnterInitializationModeTYPE *enter_init;
    fmi2ExitInitializationModeTYPE *exit_init;
    fmi2TerminateTYPE *terminate;
    fmi2GetRealTYPE *get_real;
    fmi2SetRealTYPE *set_real;
    fmi2DoStepTYPE *do_step;
    fmi2GetFMUstateTYPE *get_state;
    fmi2SetFMUstateTYPE *set_state;
    fmi2FreeFMUstateTYPE *free_state;
    fmi2SerializedFMUstateSizeTYPE *state_size;
    fmi2SerializeFMUstateTYPE *serialize;
    fmi2DeSerializeFMUstateTYPE *deserialize;
} fmi_fmu;

/* Opens the FMU at `path`; 0, or -1 with the reason in err. */
int fmi_open(const char *path, fmi_fmu *f, char *err, size_t errlen);
/* Closes it and removes the temporary folder. */
void fmi_close(fmi_fmu *f);
/* An instance (fmi2Instantiate with the resources URI); NULL: see last_log. */
fmi2Component fmi_instantiate(fmi_fmu *f, const char *name);
/* The valueReference of variable `name`, or -1. */
long fmi_vr(const fmi_fmu *f, const char *name);
/* Instantiated, parameters set (names/values, n of them), initialized:
 * an instance ready to step; NULL on failure. */
fmi2Component fmi_start(fmi_fmu *f, const char *name, int n, const char *const *pnames, const double *pvalues);

#endif
