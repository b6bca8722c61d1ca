/*
 * rs_coupled_mpi.h — `railsym run … --mpi` (issue 25, seed 004's loop):
 * rank 0 runs the vehicle (rs_driver_run); the scenario's auxiliary models
 * run on ranks 1 … N−1, each split over all of them: the thermal grid
 * along z into slabs of planes, each stress component's beam into ranges of
 * nodes, each exchanging one halo plane or node with each neighbour per
 * sub-step.  Per vehicle step rank 0 broadcasts what the model needs (the
 * power; the frame's motion and the loads), the ranks advance in
 * parallel, and a gather of their results closes the step (the barrier).
 * With one rank everything runs in-process: the same numbers, bit for bit
 * (rs_thermal.h, rs_stress.h).
 *
 * Messages (MPI_COMM_WORLD, all ranks share the binary, so raw bytes).
 * Every exchange starts with a command, Bcast from 0: {int32 op, int32 0,
 * double x[2]}; then, by op:
 *   thermal start   Bcast the rs_thermal_spec; Gather to 0 each worker's
 *                   int32 status; Bcast int32 go (0: a rank failed)
 *   thermal step    x = {P, dt}; halo Sendrecv between neighbouring
 *                   workers; Gatherv to 0: each worker's plane sums then
 *                   its plane losses
 *   stress start    x = {slot}; as thermal start, with the rs_stress_spec
 *                   (a run's components, each its slot 0 … RS_STRESS_MODELS−1)
 *   stress step     x = {dt, slot}; Bcast the input vector (n_in doubles); halo
 *                   Sendrecv of 6 doubles per sub-step and once after the
 *                   last; Gather to 0: n_point stresses per worker (0 for
 *                   the points it does not hold)
 *   thermal stop, stress stop (x = {slot})   the workers free that model
 *   quit            the workers return (after the run, always)
 */
#ifndef RS_COUPLED_MPI_H
#define RS_COUPLED_MPI_H

#include <stddef.h>
#include "rs_driver.h"

/* Initialises MPI, runs rank 0's vehicle or a worker's parts, finalises
 * MPI.  *rank gets this process's rank (the caller prints only on 0);
 * *ranks the count.  On workers the return is their own status. */
int rs_coupled_mpi_run(const rs_run_config *c, rs_run_report *rep, int *rank, int *ranks, char *err,
                       size_t errlen);

#endif /* RS_COUPLED_MPI_H */
