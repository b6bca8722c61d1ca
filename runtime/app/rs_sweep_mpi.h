/*
 * rs_sweep_mpi.h — a sweep across processes and machines with MPI
 * (docs/sweeps.md):
 *
 *   mpirun -np K railsym sweep MODEL --scenario S --vary ... --out DIR --mpi
 *
 * Rank 0 is the coordinator: it owns the output folder (rs_sweep_attach),
 * hands the next heaviest pending variant to the first worker that is free,
 * and writes what comes back (the variant's CSV bytes and its status) with
 * the same rs_sweep_commit as a local run, so the files and the summary are
 * the same however the sweep ran.  Ranks 1..K-1 are workers: each loads the
 * model once and runs variants into a private temporary file whose bytes
 * it sends back; workers need no shared file system.  A failed variant is a
 * result like any other; results reach the folder as they arrive, so a job
 * that dies (a killed worker makes mpirun stop the job) loses only the
 * variants in flight, and re-running the command resumes.  With K = 1 the
 * coordinator runs the sweep on its own threads.
 *
 * Only this file of the runtime needs MPI (link -lmpi).
 */
#ifndef RS_SWEEP_MPI_H
#define RS_SWEEP_MPI_H

#include <stddef.h>
#include "rs_sweep.h"

/* Runs the sweep as one rank of an MPI job.  Calls MPI_Init if MPI is not
 * initialized yet (and then MPI_Finalize before returning).  *rank receives
 * this process's rank.  On rank 0 the return value and report are the
 * sweep's (as rs_sweep_run); on workers RS_OK or the error that stopped
 * them.  err is empty when the error was another rank's (that rank reports
 * it). */
int rs_sweep_mpi_run(int *argc, char ***argv, const rs_sweep_config *c, const rs_sweep_spec *s,
                     rs_sweep_report *report, int *rank, char *err, size_t errlen);

#endif /* RS_SWEEP_MPI_H */
