/*
 * rs_wr_geometry.h — rigid wheel-rail contact geometry of one wheelset on
 * straight track at zero yaw (issue 20 item 3; docs/contact_geometry.md):
 * for a lateral shift y of the wheelset, its height and roll angle with both
 * wheels touching their rails (zero penetration), and per side the contact
 * point(s) on wheel and rail, rolling radius and contact angle; the rolling
 * radius difference dr = r_left - r_right.
 *
 * TRACK FRAME: Y lateral, positive to the LEFT; Z up; X = Y x Z forward.
 * Each side has its own wheel and rail profile (rs_wrgeom_init_sides: a worn
 * rail on one side, unlike wheels as EN 15302's case E9; rs_wrgeom_init puts
 * one pair on both), the right one mirrored.  The rail origins lie at Z = 0
 * and Y = +(G/2 - gauge_y_left), -(G/2 - gauge_y_right): G the gauge measured
 * between the rails' gauge points, gauge_y a gauge point's y in its rail
 * profile (< 0, on the gauge side), so Y = 0 is midway between the gauge
 * points.  The wheelset's centre is at (y, z); roll > 0 raises the left wheel
 * (a right-handed rotation about X); each taping line sits at B/2 - y_min
 * from the centre along the axle, B the flange-back spacing and y_min its
 * wheel table's smallest y (its flange back).
 *
 * Each side's contact is found through rs_patch_find (rs_patch.h): the
 * wheelset height at which the deepest patch's approach is a tiny TAU, then
 * corrected by TAU / cos(alpha) to zero penetration.  Two-point contact: a
 * second patch appears when the wheelset is lowered by two_point_tol.
 *
 * No allocation after rs_wrgeom_init; no global state; thread-safe per
 * rs_wrgeom (the spline hints live in it: one per thread).
 */
#ifndef RS_WR_GEOMETRY_H
#define RS_WR_GEOMETRY_H

#include <stddef.h>

#include "rs_patch.h"
#include "rs_profile.h"
#include "rs_status.h"

typedef struct rs_wrgeom_opts {
    double r0;            /* nominal rolling radius at the taping line (m), 0.46 */
    double r0_right;      /* the right wheel's (m); NAN (default): r0 */
    double gauge;         /* track gauge between the gauge points (m), 1.435 */
    double flange_back;   /* flange-back spacing B (m), 1.360 */
    double gauge_y;       /* rail y of the gauge point (m), both rails; NAN
                             (default): each file's gauge_point, else its
                             gauge-side point gauge_drop below the top */
    double gauge_y_right; /* the right rail's, when finite (m); NAN (default) */
    double gauge_drop;    /* (m), 0.014 (EN 13848-1: 14 mm below the top) */
    double two_point_tol; /* gap under which a second point counts (m), 1e-5 */
    double du;            /* rs_patch grid spacing (m), 0.25e-3 */
} rs_wrgeom_opts;

void rs_wrgeom_defaults(rs_wrgeom_opts *o);

/* One side: its wheel on its rail, placed. */
typedef struct rs_wrgeom_pair {
    const rs_profile *wheel, *rail;
    double r0;         /* nominal rolling radius (m)                        */
    double d;          /* centre to taping line along the axle (m)          */
    double yr0;        /* |Y| of the rail origin (m)                        */
    double gauge_y;    /* the gauge point's rail y used (m)                 */
} rs_wrgeom_pair;

typedef struct rs_wrgeom {
    rs_wrgeom_pair s[2];   /* [0] left, [1] right                        */
    rs_wrgeom_opts o;
    double h_guess;    /* last solution's height (a start value)           */
    double roll_guess;
    rs_patch_hint hint[2];
} rs_wrgeom;

/* One contact point of one side. */
typedef struct rs_wrgeom_point {
    double u_w, u_r;   /* profile coordinates on wheel and rail (m), each
                          positive towards its field side                   */
    double z_r;        /* rail profile height at u_r (m)                    */
    double r;          /* rolling radius r0 + z_w(u_w) (m)                  */
    double alpha;      /* contact angle (rad): the rail's slope angle at
                          u_r, positive where the rail rises to the field
                          side (flange contact on the gauge corner)         */
} rs_wrgeom_point;

typedef struct rs_wrgeom_side {
    int n;             /* 1, or 2 for two-point contact                     */
    rs_wrgeom_point p[2];   /* p[0]: the touching point; p[1]: the second */
} rs_wrgeom_side;

typedef struct rs_wrgeom_state {
    double y;          /* lateral shift of the wheelset, + left (m)         */
    double z;          /* height of the wheelset centre above the rail
                          origins (m)                                       */
    double roll;       /* roll angle, + raises the left wheel (rad)         */
    double dr;         /* r_left - r_right (m)                              */
    rs_wrgeom_side side[2];   /* [0] left, [1] right                        */
} rs_wrgeom_state;

/* Checks the pairs and fills g (it keeps the profile pointers): wheel[0] on
 * rail[0] is the left side, wheel[1] on rail[1] the right.  Errors (RS_E_ARG,
 * RS_E_VALUE) with a message saying what to change (and which side, where
 * the sides differ). */
int rs_wrgeom_init_sides(rs_wrgeom *g, const rs_profile *const wheel[2], const rs_profile *const rail[2],
                         const rs_wrgeom_opts *o, char *err, size_t errlen);

/* The same pair on both sides. */
int rs_wrgeom_init(rs_wrgeom *g, const rs_profile *wheel, const rs_profile *rail,
                   const rs_wrgeom_opts *o, char *err, size_t errlen);

/* The rigid contact state at shift y.  RS_OK; RS_E_VALUE when the profiles
 * do not touch, or a contact lies at the end of a table (the message names
 * the table and the y it must reach); RS_E_NOCONV. */
int rs_wrgeom_solve(rs_wrgeom *g, double y, rs_wrgeom_state *st, char *err, size_t errlen);

/* A copy of rail profile `in` turned by atan(1/n) about its origin, raising
 * the field side (what an inclination 1:n does), into *out (free it with
 * rs_profile_free).  Refused (RS_E_VALUE) when the table's slope at y = 0 is
 * not level within 1e-4: such a file carries an inclination already. */
int rs_wrgeom_incline_rail(const rs_profile *in, double n, rs_profile *out,
                           char *err, size_t errlen);

/* The rail's gauge-side point `drop` (0.014: EN 13848-1) below its top
 * (top_point, else the table's highest point), found on the profile itself;
 * used where a rail file has no gauge_point.  0 and *gy, or -1 where the
 * table's gauge side does not reach that depth. */
int rs_wrgeom_gauge_point(const rs_profile *r, double drop, double *gy);

#endif /* RS_WR_GEOMETRY_H */
