/*
 * rs_strip_table.h — the elastic contact's strip stiffness along a wheel's
 * profile (issue 20; docs/contact.md "Normal law: strips").
 *
 * The strip law gives a patch the elastic energy E = ∫ k(u) dv(u)² / 2 du
 * over its wheel slices u (dv the slice's vertical overlap): its normal
 * forces are E's gradient, conservative by construction, as long as k is a
 * property of the wheel slice alone — of the material, not of the pose.
 * k(u) is therefore made once per wheel-rail pair, at the slice's RIGID
 * CONTACT: the rail point whose slope equals the wheel's at u (where that
 * slice touches when it is the contact point, yaw and roll aside), and is
 * fitted to Hertz there: a parabolic gap of curvature sums A, B over the
 * slices gives N = c_H δ^{3/2} when
 *   k = (3/4) c_H(A, B') √B' cos α,
 * α the contact angle, A = cos α / (2 ρ(u)) (Meusnier), B' = max(B,
 * A/100) (the conformal rule, rs_hertz.h), c_H the Hertz constant
 * (rs_hertz_approach_constant).  Where the curvatures change along the
 * profile (a rail's arcs meet, a flange root) k changes by up to ten times
 * within a millimetre; a patch integrates over millimetres, so the table is
 * smoothed by a triangle of half-width RS_STRIP_SMOOTH along the profile's
 * arc length (not u: on a 70° flank a millimetre of u is three of arc),
 * which its Gauss-Legendre quadrature can follow.
 *
 * Plain C, no allocation (the caller's table), thread-safe.
 */
#ifndef RS_STRIP_TABLE_H
#define RS_STRIP_TABLE_H

#include "rs_profile.h"

#define RS_STRIP_N 512          /* table points over the wheel's profile     */
#define RS_STRIP_SMOOTH 4e-3    /* m of arc: the smoothing triangle's half-width */

typedef struct rs_strip_table {
    double u0, du;              /* first point, spacing (m)                  */
    double k[RS_STRIP_N];       /* k(u_0 + j du) (N/m³: force per metre of
                                   slices per metre of overlap)              */
} rs_strip_table;

/* Makes the table of wheel profile w (radius r0 + z_w) against rail profile
 * r for steels of Young's modulus E, Poisson ratio nu.  Returns RS_OK or
 * the first failing rs_hertz status (invalid E, nu, r0). */
int rs_strip_table_make(rs_strip_table *t, const rs_profile *w, const rs_profile *r, double r0, double E,
                        double nu);

/* k at wheel slice u (linear between the points; the ends' beyond). */
double rs_strip_stiffness(const rs_strip_table *t, double u);

#endif /* RS_STRIP_TABLE_H */
