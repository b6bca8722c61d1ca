/*
 * rs_flangeway.h — the flangeway clearance of a model's wheelset, from the
 * model's own profiles and wheel and rail positions, through the rigid
 * contact geometry of rs_wr_geometry.h (what `railsym contact-geometry`
 * tabulates): the lateral shift of the centred, unyawed wheelset on
 * straight track at which its contact reaches the flange.  Used for the
 * bifurcation diagram's default large disturbance (docs/critical_speed.md):
 * a disturbance beyond it holds the wheel pressed into its flange, where no
 * equilibrium may exist and the run fails at once.
 *
 * Flange contact: the contact angle of the wheel the shift moves towards
 * its rail reaches RS_FLANGE_ANGLE (45°: its rail's normal force then
 * pushes it sideways at least as hard as it carries it).  S1002 on 60E1
 * 1:40 (b0 0.75 m, rail offset 0.753035 m): 6.3 mm (the contact jumps
 * from the flange root, 17°, to the flank, 68°); a wheel without a flange
 * (a plain cone) has none: the clearance is then where the rigid contact
 * leaves the profile tables, and `flange` is 0.
 */
#ifndef RS_FLANGEWAY_H
#define RS_FLANGEWAY_H

#include <stddef.h>

#include "rs_runtime.h"

#define RS_FLANGE_ANGLE 0.7853981633974483   /* 45° in rad */

typedef struct rs_flangeway {
    double y;          /* the clearance (m, > 0)                               */
    int flange;        /* 1: the contact angle reached RS_FLANGE_ANGLE at y;
                          0: the tables end there first (no flange)           */
    double alpha0;     /* contact angle of the centred wheelset (rad)         */
    double b0;         /* half the distance between the wheels' taping lines  */
    double h_r;        /* the rail profiles' offset from the track centre (m) */
    double r0;         /* nominal rolling radius (m)                          */
} rs_flangeway;

/* The clearance of the wheelset of contact `ci` of ws's model: the partner
 * contact is the other one on the same wheel body, of the other side.  ws
 * needs its parameters set (rs_binding_apply); opt the options it was
 * created with (the contact folder, the scenario's profile replacements).
 * Errors (no partner, a file, a geometry that does not touch) with the
 * reason in msg. */
int rs_flangeway_clearance(rs_ws *ws, const rs_options *opt, int ci, rs_flangeway *f, char *msg, size_t len);

#endif /* RS_FLANGEWAY_H */
