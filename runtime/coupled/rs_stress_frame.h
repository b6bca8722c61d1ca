/*
 * rs_stress_frame.h — a frame component (issue 25): straight members of
 * beam elements (rs_stress.h's element, each member its own local axes) in
 * several directions, joined where their nodes coincide — an H-shaped
 * bogie frame, an L-shaped arm, a triangulated link.
 *
 * Why its own unknowns: at a joint the members' local axes differ, so a
 * frame's node carries its six displacements (u, small rotations) in the
 * body's base, and each element turns its two nodes' values into its own
 * axes, computes rs_stress_element_forces and turns the forces back.  The
 * joints are rigid (the members' ends share displacements and rotations).
 * Masses are lumped as in the chain (ρ A ℓ; the rotary inertia's diagonal
 * in the body's base, exact for members along the body's axes, and a
 * member's rotary inertia is a small part of its dynamics otherwise).
 * Loads, d'Alembert forces, the explicit sub-step with mass-proportional
 * damping and the stability bound (Gershgorin over the assembled rows) are
 * the chain's, node by node.
 *
 * Topology, checked with the statement's file:line: members join where a
 * node of one coincides with a node of another (1e-9 of the frame's size);
 * a member's end on another member between its nodes is refused (choose
 * the members' `elements` so that a node lies there), and every member
 * must be joined to the first through the others.
 *
 * A frame runs whole in one process (the MPI ranks split chains only: a
 * frame with `--mpi` runs on rank 0, which gives the same numbers).
 * Nothing here allocates after rs_stress_frame_create, prints or exits.
 */
#ifndef RS_STRESS_FRAME_H
#define RS_STRESS_FRAME_H

#include <stddef.h>
#include "rs_stress.h"

typedef struct rs_stress_frame rs_stress_frame;

/* Builds the frame of spec s (s->n_member > 0). */
int rs_stress_frame_create(const rs_stress_spec *s, rs_stress_frame **out, char *err, size_t errlen);
void rs_stress_frame_free(rs_stress_frame **f);

/* What the frame's users read: n_nodes (joined), n_in, mu (default 2 ω₁
 * with ω₁ the least of the members' cantilever estimates), omega1,
 * h_stable, mass, length (all members). */
const rs_stress_beam *rs_stress_frame_summary(const rs_stress_frame *f);

/* The same without keeping the frame (what a couple needs up front). */
int rs_stress_frame_beam(const rs_stress_spec *s, rs_stress_beam *b, char *err, size_t errlen);

/* The external forces from the input vector (rs_stress.h's layout). */
void rs_stress_frame_load(rs_stress_frame *f, const double *in);

/* One sub-step of size h. */
void rs_stress_frame_substep(rs_stress_frame *f, double h);

/* σ (Pa) of every point, into sigma[0 … n_point−1]. */
void rs_stress_frame_point_values(const rs_stress_frame *f, double *sigma);

/* Displacement dof (0..5: u, r in the body's base) of the node at
 * MEMBER:s (NaN when s is no node). */
double rs_stress_frame_displacement(const rs_stress_frame *f, int member, double s, int dof);

#endif /* RS_STRESS_FRAME_H */
