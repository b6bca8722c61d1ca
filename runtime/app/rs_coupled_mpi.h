/*
 * rs_coupled_mpi.h — `railsym run … --mpi` (issue 25, seed 004's loop):
 * rank 0 runs the vehicle (rs_driver_run); the scenario's thermal grid is
 * split along z into slabs over ranks 1 … N−1, which exchange one halo
 * plane with each neighbour per sub-step.  Per vehicle step rank 0
 * broadcasts the power and the step, the ranks advance in parallel, and a
 * gather of the per-plane sums closes the step (the barrier); rank 0 then
 * sets the coefficient.  With one rank everything runs in-process: the
 * same numbers, bit for bit (rs_thermal.h, rs_thermal_couple.h).
 *
 * Messages (MPI_COMM_WORLD, all ranks share the binary, so raw bytes):
 *   start    Bcast from 0: int32 run (0: no thermal model, the workers
 *            return), then the rs_thermal_spec;
 *            Gather to 0: int32 status of each worker's slab; Bcast from 0:
 *            int32 go (0: a rank failed, all return)
 *   step     Bcast from 0: double[3] {1, P, dt}; halo Sendrecv between
 *            neighbouring workers; Gatherv to 0: each worker's plane sums
 *            then its plane losses
 *   stop     Bcast from 0: double[3] {0, 0, 0}
 */
#ifndef RS_COUPLED_MPI_H
#define RS_COUPLED_MPI_H

#include <stddef.h>
#include "rs_driver.h"

/* Initialises MPI, runs rank 0's vehicle or a worker's slabs, finalises
 * MPI.  *rank gets this process's rank (the caller prints only on 0);
 * *ranks the count.  On workers the return is their own status. */
int rs_coupled_mpi_run(const rs_run_config *c, rs_run_report *rep, int *rank, int *ranks, char *err,
                       size_t errlen);

#endif /* RS_COUPLED_MPI_H */
