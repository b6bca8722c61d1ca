/*
 * rs_linear_point.h — material points for the frequency responses
 * (`railsym linear --frf --frf-point`, docs/linear.md "Points on bodies"):
 * where a point is, and its velocity Jacobian J = ∂r/∂q at the steady state,
 * so that its acceleration per metre of track input is J Δq̈.
 *
 * Linearizing a = J(q) q̈ + J̇(q, q̇) q̇ about a steady state (q0, q̇0) with
 * q̈0 = 0 leaves J(q0) Δq̈ plus the variation of the convective term,
 * Σ r_jkl q̇_j q̇_k Δq_l + 2 Σ r_jk q̇_j Δq̇_k (r_jk = ∂²r/∂q_j∂q_k).  In
 * straight running the coordinates that move at q̇0 are translations along
 * the track (r linear in them, so r_jk = 0 for every k) and wheelset spins
 * (which a point of a non-spinning body does not depend on), so both sums
 * vanish.  The Jacobian is checked for that: a point that depends
 * nonlinearly on a moving coordinate (a point on a spinning wheel, a body
 * yawing in a curve) is refused rather than given a wrong answer.
 *
 * Where the position comes from (a "pose source"):
 *   - a vector output NAME of the model (`output NAME = pos(O, P)` in the
 *     .vdl: outputs NAME.x, NAME.y, NAME.z), the ground position of a point
 *     the user declares; no offset;
 *   - a wheel body (the body named by contacts' `wheel`): its reference
 *     point is the middle of its wheel centres, its base the non-spinning
 *     base, both from RS_FN_WHEEL's pose; BODY:x,y,z is the point at
 *     offset (x, y, z) in that base (an axle box, say);
 *   - any other body of the model (rs_model.body_names, RS_FN_BODY_POSE):
 *     its centre of mass, and BODY:x,y,z the point at offset (x, y, z) in
 *     the body's own axes (a seat or a bogie-frame corner).
 * The Jacobian is by central differences of the pose (step RS_LINEAR_FD_H).
 */
#ifndef RS_LINEAR_POINT_H
#define RS_LINEAR_POINT_H

#include <stddef.h>

#include "rs_ws.h"

enum { RS_LPOINT_OUTPUT, RS_LPOINT_WHEEL, RS_LPOINT_BODY };

#define RS_LPOINT_MAXCT 8   /* contacts of one wheel body */

typedef struct rs_linear_point {
    char label[128];       /* the spec, commas as ';' (a CSV column name)   */
    int src;               /* RS_LPOINT_*                                   */
    int out[3];            /* RS_LPOINT_OUTPUT: output indices of NAME.x/y/z */
    int n_ct;              /* RS_LPOINT_WHEEL: the body's contacts          */
    int ct[RS_LPOINT_MAXCT];
    int body;              /* RS_LPOINT_BODY: index in rs_model.body_names  */
    double off[3];         /* offset in the body's base [m]                 */
} rs_linear_point;

/* "NAME" (a vector output), "BODY" or "BODY:x,y,z" (a wheel body, else
 * any body) into p;
 * RS_OK or RS_E_ARG with a message naming the fix. */
int rs_linear_point_parse(const rs_model *m, const char *spec, rs_linear_point *p, char *err, size_t errlen);

/* The point's ground position at ws's q (bound by the caller: rs_ws_bind). */
int rs_linear_point_pose(rs_ws *ws, const rs_linear_point *p, double r[3], char *err, size_t errlen);

/* J (3 × n_q, row-major: row c the ground component x, y, z) at ws's q and
 * q̇, which are restored (and bound again) after it.  Refuses a point that
 * depends on velocities or nonlinearly on a coordinate moving at q̇ (see
 * above). */
int rs_linear_point_jacobian(rs_ws *ws, const rs_linear_point *p, double *J, char *err, size_t errlen);

#endif /* RS_LINEAR_POINT_H */
