/*
 * rs_hertz_why.h — why a single-point Hertz contact does not exist, in
 * words, for the messages of the contacts that need one (the constraint
 * contact's creep block, rs_contact_step.c; a train's compliant contact,
 * rs_train_contact.c).  Called only after a failure, never in a step that
 * goes on.  No allocation, no I/O.
 *
 * radii = (R_wx, R_wy, R_ry) in m, rs_hertz.h's signs (positive convex,
 * negative concave); code: what rs_hertz_ellipse_compute or
 * rs_hertz_approach_constant returned (rs_status.h).
 */
#ifndef RS_HERTZ_WHY_H
#define RS_HERTZ_WHY_H

#include <stddef.h>

/* What happened, in words: a saddle (RS_E_NONHERTZ with the lateral
 * curvature sum B = ½ (1/R_wy + 1/R_ry) < 0: a concave wheel, a flange
 * root, tighter across the rail than the convex rail head or gauge corner)
 * or conformal surfaces (RS_E_NONHERTZ with B ≥ 0: the lateral curvatures
 * cancel, B/A beyond RS_HERTZ_MAX_RATIO), so that no Hertz ellipse exists;
 * or a bad value (RS_E_ARG). */
const char *rs_hertz_why(int code, const double radii[3]);

/* The numbers behind it into buf (n bytes): the code's name and number,
 * the three radii, B and A = ½ / R_wx. */
void rs_hertz_why_numbers(int code, const double radii[3], char *buf, size_t n);

#endif /* RS_HERTZ_WHY_H */
