/*
 * rs_stress_couple.h — a component's stress model coupled one way to a run
 * (seed 004's loop): per vehicle step the frame's motion and the attached
 * elements' forces go out, the beam advances its explicit sub-steps, and
 * the stresses at the named points come back.  Nothing goes back to the
 * vehicle: its trajectory is the same with or without the model.
 *
 * The frame's accelerations come from its velocities (the outputs the
 * scenario names), differentiated over the vehicle steps with the
 * second-order backward difference (BDF2; the first step first order):
 *
 *     a_O = dv/dt + ω × v,   α = dω/dt,
 *
 * v and ω the components in the body's base of the origin's velocity and
 * of the body's angular velocity (d/dt of body-base components is the
 * derivative seen from the body, hence the ω × v).  Exact for velocities
 * linear or quadratic in time; otherwise second order in the step.
 *
 * Where the beam lives is a transport: in-process (NULL: one slab of every
 * node) or the MPI ranks of rs_coupled_mpi.h.  Each point's stress is
 * computed by the one rank that holds its element, so every transport
 * gives the same values bit for bit.
 */
#ifndef RS_STRESS_COUPLE_H
#define RS_STRESS_COUPLE_H

#include <stddef.h>
#include "rs_stress.h"

typedef struct rs_stress_transport {
    /* Sets up the beam of spec s (all nodes) and gives it a slot (0, 1, …:
     * a run may hold several components, RS_STRESS_MODELS at most, each
     * stepped in turn); RS_OK or an error. */
    int (*start)(void *ctx, const rs_stress_spec *s, int *slot, char *err, size_t errlen);
    /* One vehicle step of dt of the beam in slot with the input vector in
     * (n_in, rs_stress.h): rs_stress_substeps sub-steps, then sigma[p] of
     * every point.  No allocation. */
    int (*advance)(void *ctx, int slot, const double *in, double dt, double *sigma);
    /* Ends the beam in slot on the workers (also after a failed start). */
    void (*stop)(void *ctx, int slot);
    void *ctx;
} rs_stress_transport;

typedef struct rs_stress_couple rs_stress_couple;

/* tr NULL: in-process (a frame, s->n_member > 0, only so:
 * rs_stress_frame.h). */
int rs_stress_couple_create(const rs_stress_spec *s, const rs_stress_transport *tr, rs_stress_couple **out,
                            char *err, size_t errlen);
void rs_stress_couple_free(rs_stress_couple **c);

/* After a vehicle step of dt (0: the start, nothing advances): the
 * frame's v, ω and g (body base; g NULL: none) and the loads' forces
 * (3 n_load, body base). */
int rs_stress_couple_step(rs_stress_couple *c, const double *v, const double *omega, const double *g,
                          const double *loads, double dt, char *err, size_t errlen);

/* The points' stresses after the last step (n_point values, Pa; 0 at the
 * start: the component starts at rest and unstressed in its frame). */
const double *rs_stress_couple_sigma(const rs_stress_couple *c);

/* The last input vector (a_O, α, ω, g, loads) and sub-step count. */
const double *rs_stress_couple_input(const rs_stress_couple *c);
long rs_stress_couple_substeps(const rs_stress_couple *c);
const rs_stress_beam *rs_stress_couple_beam(const rs_stress_couple *c);

#endif /* RS_STRESS_COUPLE_H */
