/*
 * rs_speed.h — the running speed: what the scenario line `speed V` does
 * (docs/scenario.md, "Running speed"), one place for every run that sets a
 * forward speed (scenarios, and sweeps over `speed`, which write a `speed`
 * line into each variant's scenario).
 *
 * The bodies: a coordinate named `x` or `<P>x` (P ending in '.') is a
 * body's forward coordinate (rs_model_speed_coords); `<P>y`, `<P>z`,
 * `<P>yaw`, `<P>roll` are its position, yaw and roll, taken as ground
 * coordinates.  The wheels: a coordinate `spin` or `<P>spin` spins the
 * wheel body `<P><name>` (rs_track_rel.h); its velocity is V / r with r the
 * radius the wheels roll on: with the constraint contact the one at the
 * solved contact points (the spin that zeroes the body's mean longitudinal
 * slip velocity, found on a scratch copy of the workspace), else the
 * wheels' nominal radius (the wheel function's), else the parameter r0.
 *
 * On straight track (plan and cant straight at every body: |y|, |ψ|, |κ|,
 * |θ|, |dθ/ds| of the track below 1e-9) `speed` sets the forward velocities
 * to V and the spin velocities, and nothing else.  On a curve it also
 * places each body on the track at the arc length its forward position
 * gives (rs_track_rel_arc), reading the body's y, yaw, roll, y_dot as
 * offsets from the track: yaw ← ψ(s) + yaw, roll ← θ(s) + roll, a wheel
 * body's centre ← c(s) + y ĉ + h n̂ (h its height above the rails), a body
 * without wheels to the minimum of the potential energy in its x, y, z (its
 * suspension's neutral place, offset as on straight track); the
 * velocities of steady curving (ẋ, ẏ) = V (cos ψ, sin ψ), yaw rate V κ,
 * roll rate V dθ/ds (added to the yaw and roll rates given); the contact
 * points' rail coordinate s_r at the wheels.  Then every wheel body is
 * checked to be where it was put (RS_E_VALUE otherwise: a model whose
 * coordinates are not ground coordinates, e.g. a bogie's yaw relative to
 * the car body).
 */
#ifndef RS_SPEED_H
#define RS_SPEED_H

#include <stddef.h>

#include "rs_ws.h"

/* Which velocities `speed` sets in model m: the forward coordinates' count
 * (0: none, `speed` cannot be used) and the spin coordinates'; `why` gets
 * a sentence for a model `speed` cannot serve ("" when it can).  Needs no
 * workspace: a scenario is checked with it when it is bound. */
int rs_speed_check(const rs_model *m, char *why, size_t len);

/* 1 when `speed` sets velocity index i of m (a forward or spin velocity). */
int rs_speed_sets(const rs_model *m, int i);

/* Applies the running speed V (m/s, >= 0) to ws (before rs_ws_init, after
 * its parameters and initial state are set).  RS_OK, or an error with a
 * message (no forward coordinate, no rolling radius, a track that cannot be
 * read, a body that cannot be placed). */
int rs_speed_apply(rs_ws *ws, double V, char *err, size_t errlen);

#endif /* RS_SPEED_H */
