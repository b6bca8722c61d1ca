/*
 * rs_track_rel.h — where the bodies are relative to the track: the result
 * columns "<body>.<q>_track" (docs/results.md, "Track-relative results")
 * and the track queries `speed` places bodies with (rs_speed.h).
 *
 * The bodies: first the wheel bodies, those that carry wheels
 * (rs_contact.wheel_body: "wheelset", "front.ws", "front.wf.ws"), in
 * contact order; then every other body of the model (rs_model.body_names,
 * in its order: car body, bogie frames, ...).
 *   - A wheel body's pose comes from the model's wheel function (RS_FN_WHEEL:
 *     ground position of each wheel centre and the non-spinning base): its
 *     centre is the mean of its wheel centres (the axle's middle), its axes
 *     those of the non-spinning base, so that pitch is not the spin angle.
 *   - Any other body's from the body pose function (RS_FN_BODY_POSE): its
 *     centre of mass and its base's axes.
 * Either way the model's coordinates may be anything (absolute, relative to
 * a bogie, ...).
 *
 * The track frame at the body: s is the arc length of the cross-section
 * through the centre, (centre − c(s))·t = 0 (from the point nearest in plan,
 * rs_track_project, which it is on level track), c(s) that point, and
 * t, ĉ, n̂ the tangent, the canted lateral axis (to the left rail) and the
 * canted up axis of rs_track.h.  With d = centre − c(s) and the body's
 * forward axis e1 and lateral axis e2 (its base's x and y):
 *     s_track      s                                  m
 *     y_track      d · ĉ      (left +)                m
 *     z_track      d · n̂      (up +; a wheelset: ≈ its rolling radius)  m
 *     yaw_track    atan2(e1·ĉ, e1·t)   (nose left +; the angle of attack)  rad
 *     pitch_track  atan2(−e1·n̂, e1·t)  (nose down +, about ĉ)            rad
 *     roll_track   atan2(e2·n̂, e2·ĉ)   (left end up +, about t)           rad
 * A model without a track file runs on the default straight level track
 * along ground x (s = x); a model without contacts on the track of
 * rs_options.track_file when it is set.  Every contact must name the same
 * track file.
 *
 * rs_track_rel_open allocates; rs_track_rel_update and the queries do not.
 */
#ifndef RS_TRACK_REL_H
#define RS_TRACK_REL_H

#include <stddef.h>

#include "rs_track.h"
#include "rs_ws.h"

/* The quantities of a body, in column-suffix order. */
enum { RS_TREL_S = 0, RS_TREL_Y, RS_TREL_Z, RS_TREL_ROLL, RS_TREL_PITCH, RS_TREL_YAW, RS_TREL_COUNT };

/* The column suffix of quantity k ("s_track", "y_track", ...). */
const char *rs_track_rel_suffix(int k);

/* The model's bodies with track-relative columns (above): their count, the
 * count of the wheel bodies among them (bodies 0 .. nw−1), and the name of
 * body b ("" out of range). */
int rs_track_rel_n_bodies(const rs_model *m);
int rs_track_rel_n_wheel_bodies(const rs_model *m);
const char *rs_track_rel_body(const rs_model *m, int b);

/* Is `name` a track-relative column "<body>.<suffix>" of model m?
 * RS_OK with the body and quantity, else RS_E_NOTFOUND.  Needs no
 * workspace (a scenario's columns are checked with it). */
int rs_track_rel_find(const rs_model *m, const char *name, int *body, int *k);

typedef struct rs_track_rel rs_track_rel;

/* Loads the track of ws's contacts (the scenario's replacement or the
 * model's file) and sizes the wheel and body pose functions' outputs.
 * RS_E_MODEL with a message when the model has no bodies or lacks a
 * function it needs (RS_FN_WHEEL, RS_FN_BODY_POSE: compile it again),
 * RS_E_IO when the track cannot be read, RS_E_VALUE when contacts name
 * different tracks. */
int rs_track_rel_open(rs_ws *ws, rs_track_rel **out, char *err, size_t errlen);
void rs_track_rel_free(rs_track_rel **tr);

/* 1 when a track file is loaded, 0 on the default straight level track. */
int rs_track_rel_has_track(const rs_track_rel *tr);
/* The loaded track (its range and file for messages), or NULL. */
const rs_track *rs_track_rel_track(const rs_track_rel *tr);

/* The track at arc length s (the default track: the ground x axis). */
void rs_track_rel_point(rs_track_rel *tr, double s, rs_track_point *tp);

/* The arc length s of a ground point at x on the track's straight start:
 * s_begin + (x − c_x(s_begin)) (x itself on the default track). */
double rs_track_rel_arc(rs_track_rel *tr, double x);

/* Evaluates the wheel and body pose functions at ws's state and every
 * body's centre, axes and track-relative quantities.  RS_OK or the
 * evaluation's status. */
int rs_track_rel_update(rs_track_rel *tr, rs_ws *ws);

/* After an update: quantity k of body b; body b's centre (3, ground). */
double rs_track_rel_value(const rs_track_rel *tr, int b, int k);
const double *rs_track_rel_centre(const rs_track_rel *tr, int b);

/* After an update: the nominal rolling radius (the wheel function's
 * geometry) of wheel body b's first wheel (NaN for the other bodies). */
double rs_track_rel_radius(const rs_track_rel *tr, int b);

#endif /* RS_TRACK_REL_H */
