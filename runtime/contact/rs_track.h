/*
 * rs_track.h — track geometry: the .trk reader, the exact alignment, and the
 * cubic splines of the centre line f_x, f_y, f_z and the cant f_θ over the
 * arc length s that the wheel-rail contact uses (DESIGN.md, "Wheel-rail
 * contact"; format and conventions in docs/contact.md, "Track files").
 *
 * Frames and signs.  x, y horizontal, z up (metres).  The heading ψ is the
 * angle of the plan tangent from +x; the curvature κ = dψ/ds is positive for
 * a LEFT curve.  The cant θ(s) is a rotation of the track cross-section about
 * the forward tangent, right-handed: θ > 0 RAISES THE LEFT RAIL (so a right
 * curve has θ > 0, a left curve θ < 0).  The cross-section axes are
 *     h = normalize(ẑ × t)            horizontal, to the left
 *     ĉ = cos θ h + sin θ (t × h)     lateral axis of the canted track
 *     n̂ = t × ĉ                       "up" of the canted track
 * and a rail point is centre + u ĉ + f_r(u) n̂ (u > 0 towards the left rail).
 *
 * Splines: the four functions share one set of knots, so one segment index
 * (one hint) serves all of them.  Each segment is the cubic
 * ((a(s−s_bp)+b)(s−s_bp)+c)(s−s_bp)+d exactly as rs_spline_segment writes it.
 * Knots are placed every `spacing` metres, at every element joint, and are
 * refined until the splines match the exact geometry (sampled at three
 * points per segment) within `tolerance` (position, m; cant, rad) and
 * 2·tolerance (second derivative of x, y, 1/m) — see docs/contact.md for the
 * measured errors.
 *
 * Ownership: rs_track_load* fill a caller's struct and allocate; rs_track_free
 * releases.  Queries never allocate and are thread-safe on one track, each
 * thread holding its own hint.  Errors never crash and never print: a
 * negative code and "file:line: message, and what to do" in err.
 */
#ifndef RS_TRACK_H
#define RS_TRACK_H

#include <stddef.h>

#include "rs_spline.h"

/* Functions return RS_OK, or RS_E_ARG (NULL argument), RS_E_IO (cannot open
 * or read a file), RS_E_SYNTAX (bad header, keyword, number, table),
 * RS_E_VALUE (value out of range, inconsistent geometry), RS_E_NOMEM, RS_E_FIT
 * (splines miss the geometry beyond tolerance): the codes of rs_status.h. */
#include "rs_status.h"

/* Indices of the four splines and of rs_track_segment's rows. */
enum { RS_TRACK_X = 0, RS_TRACK_Y = 1, RS_TRACK_Z = 2, RS_TRACK_THETA = 3 };

#define RS_TRACK_NAME_MAX   64
#define RS_TRACK_FILE_MAX   (16L * 1024 * 1024)  /* larger files refused       */
#define RS_TRACK_MAX_LENGTH 100000.0             /* m: longer tracks refused   */

struct rs_track_design;   /* the exact alignment (rs_track_impl.h) */

typedef struct rs_track {
    char   name[RS_TRACK_NAME_MAX];
    double gauge;          /* nominal gauge (m): 1.435, 1.000, ...            */
    /* where the gauge line is (messages: the contact's gauge check names it) */
    char   file[256];
    int    gauge_line;
    double cant_base;      /* m: cant height h ↔ angle θ by sin θ = h / base  */
    double inclination;    /* k of a 1:k rail inclination; 0 = not given      */
    double s_begin, s_end; /* arc-length range of the track (m)               */
    double spacing;        /* base knot spacing (m)                           */
    double tolerance;      /* fit tolerance (m, rad)                          */
    int    n_elements;     /* alignment elements in the file                  */
    int    n_irregularities;
    /* Largest |spline − exact| at the check points of the final fit:
     * position (m), cant (rad), second derivative of x and y (1/m) away from
     * curvature jumps (a C² spline cannot follow a jump: see docs). */
    double fit_err_pos, fit_err_cant, fit_err_d2;
    int    refine_passes;  /* refinement passes the fit needed                */
    rs_spline f[4];        /* f_x, f_y, f_z, f_θ over s; identical knots      */
    /* With a gauge irregularity g(s) (m, + = wider): the rails' reference
     * lines c(s) ± g(s)/2 ĉ(s), left (+, rail[0]) and right (−, rail[1]),
     * x, y, z on f's knots and within its tolerance; the contact places each
     * rail on its own line (rs_track_rail_eval).  has_gauge = 0: none, the
     * rails sit on the centre line f. */
    int    has_gauge;
    rs_spline rail[2][3];
    double fit_err_rail;   /* largest |spline − exact| of the rail lines (m)  */
    struct rs_track_design *design;
} rs_track;

/* A point of the fitted (spline) track. */
typedef struct rs_track_point {
    double s;
    double pos[3];      /* centre line (m)                                    */
    double d1[3];       /* d pos/ds (nearly unit: s is the arc length)         */
    double d2[3];       /* d² pos/ds²                                          */
    double tangent[3];  /* d1 normalized                                       */
    double lateral[3];  /* ĉ: tilted by the cant, towards the left rail        */
    double up[3];       /* n̂ = t × ĉ                                           */
    double curvature;   /* signed plan curvature (x'y''−y'x'')/(x'²+y'²)^{3/2} */
    double cant, cant_d1;  /* θ (rad) and dθ/ds                                */
    int    segment;     /* knot segment holding s                              */
} rs_track_point;

/* A point of the exact geometry (before fitting): what the splines follow. */
typedef struct rs_track_exact {
    double pos[3], d1[3], d2[3];  /* centre line with irregularities         */
    double cant, cant_d1;         /* θ with the cross-level irregularity      */
    double heading, curvature;    /* design ψ (rad) and κ = dψ/ds (1/m)       */
    double grade;                 /* design dz/ds                             */
    double design_cant;           /* design θ (rad), without irregularities   */
    double lateral, vertical, cross_level; /* irregularity sums (m): along h,
                                   on z of the centre, left minus right rail */
    double gauge;                 /* gauge irregularity sum (m, + = wider):
                                   each rail moves g/2 outwards along ĉ      */
} rs_track_exact;

/* Read, check and build a track file.  Tables named in it are read relative
 * to the file's folder.  On error *t is empty (safe to free). */
int rs_track_load(rs_track *t, const char *path, char *err, size_t errlen);

/* The same from text in memory; fname names it in messages, dir (may be
 * NULL = ".") is where tables are looked for. */
int rs_track_parse(rs_track *t, const char *text, size_t len, const char *fname,
                   const char *dir, char *err, size_t errlen);

void rs_track_free(rs_track *t);

/* Segment holding s: the hint (last segment) and its neighbours first, then a
 * binary search.  *outside = -1 / 0 / +1 (may be NULL). */
int rs_track_find(const rs_track *t, double s, int *hint, int *outside);

/* Spline track at s.  Returns 0 inside [s_begin, s_end], +1 when the end
 * cubics are extrapolated, RS_E_ARG on NULL arguments. */
int rs_track_eval(const rs_track *t, double s, int *hint, rs_track_point *out);

/* The reference line of one rail at s: side +1 the left rail, −1 the right
 * one.  Without a gauge irregularity the centre line (rs_track_eval);
 * with one, pos, d1, d2 are the rail line's (c ± g/2 ĉ) and tangent,
 * lateral, up its frame (so a gauge that varies along s turns the rail's
 * tangent by about g'/2), cant and curvature as rs_track_eval gives them
 * for that line.  The rail profile sits at h_r + u_r along `lateral` from
 * pos, exactly as on the centre line.  Returns as rs_track_eval. */
int rs_track_rail_eval(const rs_track *t, int side, double s, int *hint, rs_track_point *out);

/* Number of segments (knots − 1) and the coefficients of segment seg
 * (clamped) for the generated code: c[k] = (a, b, c, d, s_bp) of spline k in
 * the order RS_TRACK_X, _Y, _Z, _THETA. */
int  rs_track_segments(const rs_track *t);
void rs_track_segment(const rs_track *t, int seg, double c[4][5]);

/* The exact geometry at s (clamped to the track); hint as above but over the
 * alignment pieces (its own int).  Returns 0, or RS_E_ARG. */
int rs_track_exact_eval(const rs_track *t, double s, int *hint,
                        rs_track_exact *out);

/* Arc length of the spline centre line point nearest to p in plan (x, y):
 * Newton on (p − c(s))·c'(s) = 0 from s0 (a guess, e.g. the last answer).
 * Returns 0 when converged (|Δs| < 1e-10 m), +1 if the point projects outside
 * the track (s clamped), RS_E_VALUE if Newton did not converge. */
int rs_track_project(const rs_track *t, const double p[2], double s0,
                     int *hint, double *s);

#endif /* RS_TRACK_H */
