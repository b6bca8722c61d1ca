/*
 * rs_track_impl.h — private to rs_track*.c: the parsed description and the
 * exact alignment built from it.
 *
 *   rs_track_file.c   the .trk reader          -> rs_track_design (elements,
 *                                                 gradients, irregularities)
 *   rs_track_geom.c   resolve + integrate      -> pieces, exact evaluation
 *   rs_track_irreg.c  irregularity functions, table files
 *   rs_track.c        knots, fit, refinement, queries
 *
 * The alignment is cut into PIECES at every element joint and every
 * gradient breakpoint; inside a piece the curvature, the grade and the
 * design cant are linear in s, so the heading and z are quadratics.
 */
#ifndef RS_TRACK_IMPL_H
#define RS_TRACK_IMPL_H

#include <stddef.h>

#include "rs_spline.h"
#include "rs_track.h"

#define RS_TRACK_PI 3.14159265358979323846

enum { RS_TRACK_STRAIGHT = 0, RS_TRACK_CLOTHOID = 1, RS_TRACK_CURVE = 2 };

typedef struct rs_track_elem {
    int    kind, line;
    double len;
    double k0, k1;          /* curvature at start / end (1/m, + = left)        */
    int    k0_given, k1_given;  /* clothoid: written in the file               */
    int    has_cant;        /* curve: 0 none, 1 height (m), 2 angle (rad)      */
    double cant_outer;      /* curve: cant raising the outer rail (rad after
                               parsing; the height until then)               */
    double s0;              /* resolved start                                  */
    double th0, th1;        /* resolved signed design cant at the ends (rad)   */
} rs_track_elem;

typedef struct rs_track_grade {
    int    line;
    double s_at;            /* where the change starts                          */
    double g, ramp;         /* new grade dz/ds; length of the linear change     */
} rs_track_grade;

typedef struct rs_track_piece {
    double s0, len;
    double x0, y0, z0;      /* exact start point                               */
    double psi0, k0, dk;    /* heading, curvature, dκ/ds                        */
    double g0, dg;          /* grade, d grade/ds                                */
    double th0, dth;        /* design cant, dθ/ds                               */
    int    closed;          /* dk = dg = 0: closed form                        */
    int    a0, na;          /* numeric pieces: anchors a0 .. a0+na-1            */
    double da;              /* anchor spacing                                  */
} rs_track_piece;

enum { RS_TRACK_IRREG_LATERAL, RS_TRACK_IRREG_VERTICAL, RS_TRACK_IRREG_CANT, RS_TRACK_IRREG_VLEFT,
       RS_TRACK_IRREG_VRIGHT, RS_TRACK_IRREG_GAUGE, RS_TRACK_IRREG_NKINDS };
enum { RS_TRACK_IRREG_SINE, RS_TRACK_IRREG_LINEAR, RS_TRACK_IRREG_SPLINE };

typedef struct rs_track_irreg {
    int    kind, shape, line;
    double amp, wavelength, phase;  /* sine: A sin(2π(s − a)/λ + φ)            */
    double from, to, taper, scale;
    int    has_from, has_to;
    char   file[512];               /* table: path as resolved                 */
    int    n;                       /* table points                            */
    double *ts, *tv;                /* table s, value (scaled)                 */
    rs_spline sp;                   /* RS_TRACK_IRREG_SPLINE                           */
    double a, b;                    /* resolved window [a, b]                  */
} rs_track_irreg;

typedef struct rs_track_design {
    int ne, ecap;       rs_track_elem  *e;
    int ng, gcap;       rs_track_grade *g;
    int ni, icap;       rs_track_irreg   *irr;
    int np;             rs_track_piece *p;
    int nanch;          double *ax, *ay;
    double ox, oy, oz, opsi, os;    /* origin: point, heading, s               */
    double cant_base;
    double s_begin, s_end;
} rs_track_design;

void rs_track_design_free(rs_track_design *d);

/* rs_track_file.c: parse the text into d and the header fields of t. */
int rs_track_design_parse(rs_track *t, rs_track_design *d, const char *text, size_t len,
                 const char *fname, const char *dir, char *err, size_t errlen);

/* rs_track_geom.c: resolve clothoid ends and cants, cut pieces, integrate. */
int rs_track_geom_build(rs_track_design *d, const char *fname, char *err,
                      size_t errlen);
/* Exact design geometry at s (no irregularities): position, d1, d2, the
 * heading, curvature, grade, design cant and dθ/ds. */
void rs_track_geom_eval(const rs_track_design *d, double s, int *hint,
                      double p[3], double d1[3], double d2[3], double *psi,
                      double *kappa, double *dkappa, double *grade,
                      double *th, double *dth);
/* s of every joint where the plan curvature jumps (for the error report). */
int rs_track_geom_jumps(const rs_track_design *d, double *s, int cap);

/* rs_track_irreg.c */
int  rs_track_irreg_table_read(rs_track_irreg *ir, const char *path, char *err,
                       size_t errlen);
int  rs_track_irreg_resolve(rs_track_design *d, const char *fname, char *err,
                        size_t errlen);
/* Value and two derivatives of one irregularity at s (0 outside). */
void rs_track_irreg_eval(const rs_track_irreg *ir, double s, double v[3]);
void rs_track_irreg_free(rs_track_irreg *ir);

/* The full exact geometry (design + irregularities). */
void rs_track_exact_geometry(const rs_track_design *d, double s, int *hint,
                  rs_track_exact *o);

#endif /* RS_TRACK_IMPL_H */
