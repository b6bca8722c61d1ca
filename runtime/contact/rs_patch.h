/*
 * rs_patch.h — every contact patch between one wheel and one rail
 * (elastic multi-point contact, issue 20; docs/contact.md "Contact patches").
 *
 * Geometry in the RAIL FRAME of one rail: origin at the rail profile's origin
 * (its y = 0, z = 0), y lateral towards the FIELD side (the profile's own
 * coordinate), z up (the rail profile's height, inclination included), and
 * x = y × z (forward for a left rail, backward for a right one: the frame of
 * the right rail is that of the left one turned by π about z, a proper
 * rotation, so one profile spline serves both sides).  The rail is straight
 * along x (its curvature in a curve is neglected beside the wheel's, as in
 * the constraint contact).
 *
 * The wheel is a surface of revolution: its profile z_w(u) (the radius
 * increase over the nominal radius r0 at the taping line, u towards the field
 * side) turned about the axle.  Its pose is given by
 *   c[3]  the point on the axle in the plane of the taping line (u = 0),
 *   a[3]  the axle's unit vector pointing to the wheel's field side,
 * both in the rail frame; the wheel point at profile coordinate u and angle
 * θ about the axle is  c + u a + (r0 + z_w(u)) e(θ),  e ⟂ a.  Yaw and roll of
 * the wheelset are in a: with yaw the lowest point of a slice is no longer
 * under the axle, and a flange contact leads (x > 0) or lags it.
 *
 * A PATCH is one connected range of wheel slices u where the wheel
 * interpenetrates the rail; tread and flange contact at once are two patches
 * (two-point contact).  Per slice the wheel point nearest to the rail
 * surface (over θ) gives the slice's gap along the rail normal; a patch is
 * reported at its deepest slice.
 *
 * Guarantees: no allocation, no state beyond the caller's hint, a bounded
 * number of spline evaluations per call (a fixed grid over the overlap of
 * both tables, less the stretches that bound tables prove out of contact,
 * plus a bounded refinement per patch), deterministic (the same input gives
 * bit-identical output, whatever the hint holds), thread-safe.
 */
#ifndef RS_PATCH_H
#define RS_PATCH_H

#include "rs_profile.h"
#include "rs_status.h"

#define RS_PATCH_MAX 4   /* patches reported per wheel (more: RS_CLAMPED) */
#define RS_PATCH_NODES 16 /* quadrature nodes per patch (rs_patch_opts.strips) */

/* One wheel slice of a patch's quadrature (rs_patch_opts.strips): the
 * patch's normal force is an integral over its slices (docs/contact.md
 * "Normal law: strips"), evaluated at Gauss-Legendre nodes. */
typedef struct rs_patch_node {
    double u;          /* the wheel slice (profile coordinate, m)           */
    double w;          /* its quadrature weight (m of wheel slices)          */
    double dv;         /* the slice's vertical overlap −g >= 0 (m): the
                          wheel's lowest point over the rail at that slice  */
    double pw[3];      /* the slice's wheel point, rail frame (m)           */
    double zr1;        /* the rail's slope under it: normal (0, −zr1, 1)/
                          √(1 + zr1²), contact angle atan(zr1)              */
} rs_patch_node;

typedef struct rs_patch {
    double pen;        /* approach along the rail normal at the deepest point,
                          > 0 (m): the two surfaces overlap by this much     */
    double u_w, u_r;   /* profile coordinates of the deepest point on wheel
                          and rail (m)                                       */
    double u_lo, u_hi; /* the wheel slices of the patch: [u_lo, u_hi] (m);
                          with rs_patch_opts.ends = 0 a bracket of them     */
    double theta;      /* angle of the wheel point about the axle from the
                          lowest point of its circle (rad; 0 without yaw)    */
    double pw[3];      /* wheel point and rail point, rail frame (m)         */
    double pr[3];
    double n[3];       /* rail normal at pr, unit, out of the rail into the
                          wheel                                              */
    double t[3];       /* lateral tangent of the rail at pr, unit, towards the
                          field side (n, t and x complete the contact base)  */
    double alpha;      /* contact angle atan(dz_r/du) at u_r (rad): positive
                          on the gauge side of the head, where the rail
                          rises towards the field side (flange contact)     */
    double R_wx;       /* wheel's rolling radius in the contact plane (m)   */
    double R_wy, R_ry; /* signed lateral radii of wheel and rail (m),
                          rs_hertz_profile_radius's sign convention          */
    double share;      /* the share of its own approach −g cos α that pen
                          is, in (0, 1]: 1 but for the shallower minima of
                          one overlap with rs_patch_opts.minima = 1         */
    int nn;            /* quadrature nodes in node[] (rs_patch_opts.strips;
                          else 0)                                          */
    rs_patch_node node[RS_PATCH_NODES];
} rs_patch;

/* Search settings; rs_patch_defaults fills them. */
typedef struct rs_patch_opts {
    double du;         /* grid spacing over the wheel table (m), 1e-3        */
    double r0;         /* nominal rolling radius (m), required (> 0)         */
    double tol;        /* refinement tolerance on u (m), 1e-8                */
    int ends;          /* 1 (default): u_lo, u_hi are the patch's ends to
                          tol; 0: the search's grid nodes next to the patch
                          (outside it, so they bracket it), which saves two
                          root searches per patch for a caller that does not
                          read them (the elastic contact); nothing else of
                          a patch changes                                   */
    int convex;        /* 1 (default): inside a patch, a coarse interval of
                          the grid over which the bound tables prove the
                          gap convex (g'' > 0: one minimum at most, found
                          from the interval's ends) gets no grid nodes
                          filled in; the refined points may then move
                          within tol.  0: every node (the reference the
                          tests compare with)                              */
    int minima;        /* 0 (default): a patch is a connected overlap,
                          reported at its deepest local minimum.  1: every
                          local minimum of the gap below zero is a patch of
                          its own (the elastic contact's normal law needs
                          one point per minimum, docs/contact.md "Minima
                          and their share of the depth"), and pen is its
                          share of the approach: the full −g cos α for the
                          deepest minimum of an overlap; for another, the
                          depth of the minimum it merges with scaled by
                          (s − g)/(s − g_deeper), s the gap's maximum
                          between them (0 where they are separate).  So
                          pen is continuous in the pose where minima are
                          born (share 0), merge, split or swap (equal
                          depths give equal shares); u_lo, u_hi are then
                          the maxima between (or the overlap's ends)       */
    int strips;        /* 0 (default).  1: the elastic contact's normal law
                          by strips (docs/contact.md "Normal law: strips"):
                          a patch is a range of wheel slices over which the
                          normal force is integrated — an overlap, or one
                          side of a barrier in it (the gap's local maximum
                          between two minima) that rises above the
                          shallower minimum by at least RS_PATCH_PROMINENCE
                          of its depth; more than max such ranges: the
                          least prominent barriers are merged first.  Each
                          patch gets RS_PATCH_NODES Gauss-Legendre nodes
                          over [u_lo, u_hi] (node[]); u_lo, u_hi are the
                          ends of ends = 1 to about 1e-7 m (not tol: the
                          force's integrand vanishes at an end, so an end
                          off by d moves it by about (d/width)²), the
                          nodes' gaps to 1e-11 m; the other fields
                          describe the slice at the nodes' mean u
                          weighted by their overlap (the patch's point,
                          continuous in the pose), share is 1.  Implies
                          minima's search for every minimum.              */
} rs_patch_opts;

/* A barrier splits an overlap into two patches (rs_patch_opts.strips) when
 * it rises above the shallower of its two minima by this share of that
 * minimum's depth: the ripple minima of a conformal stretch (0.1 µm in
 * 130 µm) stay one patch, a flange root and flange pressed together stay
 * two until they are nearly one basin. */
#define RS_PATCH_PROMINENCE 0.25

void rs_patch_defaults(rs_patch_opts *o);

/* Bounds of one wheel-rail pair's profiles over RS_PATCH_BLOCKS blocks of
 * each table (the wheel's lowest and highest z_w, the rail's highest z_r,
 * each over every spline segment that touches the block, from the cubics'
 * extremes): a pure function of the two splines, made by rs_patch_find
 * when the hint's do not describe the profiles passed (first call; another
 * pair), so results never depend on them.  They let the search skip whole
 * stretches of the wheel table that cannot touch the rail, and start its
 * spline look-ups near the segment sought. */
#define RS_PATCH_BLOCKS 128
#define RS_PATCH_LEVELS 7         /* runs of 2, 4, ... 128 rail blocks */
#define RS_PATCH_SEGS 512         /* segment table entries per profile */
#define RS_PATCH_COARSE_MAX 129   /* coarse grid intervals at most        */
typedef struct rs_patch_bounds {
    const double *wc, *rc;   /* the splines' coefficients they describe
                                (NULL: none yet)                             */
    int wn, rn;              /* and their sizes, ends (a check)              */
    double wx0, wx1, rx0, rx1;
    double wk, rk;           /* blocks per metre                             */
    double wzmax;            /* the wheel's highest z_w                      */
    double wlo[RS_PATCH_BLOCKS], whi[RS_PATCH_BLOCKS], rhi[RS_PATCH_BLOCKS];
    double rmx[RS_PATCH_LEVELS][RS_PATCH_BLOCKS];   /* maxima of rhi over
                                2^(L+1) blocks from each block (level L)     */
    /* per block, the ranges of the first and second derivatives (wheel
     * z_w', z_w''; rail z_r', z_r''): the convexity proof (opts.convex)  */
    double w1lo[RS_PATCH_BLOCKS], w1hi[RS_PATCH_BLOCKS];
    double w2lo[RS_PATCH_BLOCKS], w2hi[RS_PATCH_BLOCKS];
    double r1lo[RS_PATCH_BLOCKS], r1hi[RS_PATCH_BLOCKS];
    double r2lo[RS_PATCH_BLOCKS], r2hi[RS_PATCH_BLOCKS];
    double r1min, r1max;     /* the rail's z_r' over its whole table         */
    int wseg[RS_PATCH_SEGS], rseg[RS_PATCH_SEGS];   /* the spline segment at
                                the start of each of RS_PATCH_SEGS equal
                                parts of the table (a look-up's start)       */
    /* the wheel's lowest and highest z_w over each whole coarse interval
     * of the search's grid (4 nodes), kept as the search first needs them
     * (cset) for the grid of spacing cdu over [cwlo, cwhi] (cdu = 0: none
     * yet): the interval bound's block scan, once per pair and interval */
    double cdu, cwlo, cwhi;
    double czlo[RS_PATCH_COARSE_MAX], czhi[RS_PATCH_COARSE_MAX];
    unsigned char cset[RS_PATCH_COARSE_MAX];
    int fits;                /* tables made into this hint so far (a
                                statistic for tests: rs_patch_hint_prepare) */
} rs_patch_bounds;

/* Spline hints and bound tables of one wheel-rail pair, carried from call
 * to call (zero it before the first call, and again when a profile is
 * freed and replaced).  About 25 KB. */
typedef struct rs_patch_hint {
    int wheel, rail;
    int nodes;               /* out: grid nodes the last call evaluated (a
                                statistic for tests and benches)             */
    rs_patch_bounds b;
} rs_patch_hint;

/* Finds every patch of the wheel (profile w, pose c, a) against rail profile
 * r, ordered by increasing u_w (the flange side first), at most max
 * (<= RS_PATCH_MAX).  *n receives the number written (0: no
 * contact, lift-off; not an error).  Returns RS_OK, RS_CLAMPED when more
 * than max patches exist (the max deepest are kept), or RS_E_ARG (NULL, a
 * non-finite pose, |a| not 1 within 1e-9, r0 <= 0; also max outside
 * [1, RS_PATCH_MAX], du or tol not positive, a_y < 0.5: an axle more than
 * 60° from the rail's lateral direction). */
int rs_patch_find(const rs_profile *w, const rs_profile *r, const double c[3],
                  const double a[3], const rs_patch_opts *o, rs_patch_hint *hint,
                  rs_patch *out, int max, int *n);

/* Makes the hint's bound tables for the pair (w, r) now unless they
 * describe it already: what rs_patch_find would do at its first call with
 * the hint, moved to set-up, so that the first search of a simulation
 * costs what the others do (O(knots) of both profiles, about 30 times one
 * search).  Results never depend on it (the tables are a function of the
 * splines).  A NULL argument: nothing. */
void rs_patch_hint_prepare(rs_patch_hint *hint, const rs_profile *w, const rs_profile *r);

/* For tests: 1 when the search's interval bound (the bound tables, the
 * hint's, made as rs_patch_find makes them) proves that no slice u in
 * [u0, u1] of the wheel at pose (c, a), radius r0 + z_w, comes within 1e-9 m
 * of the rail at any angle; 0 when it does not prove it.  NULL hint: the
 * tables on the stack. */
int rs_patch_interval_clear(const rs_profile *w, const rs_profile *r, const double c[3],
                            const double a[3], double r0, rs_patch_hint *hint, double u0, double u1);

/* The lateral curvature half sum B (1/m) of a strip patch's overlap
 * (rs_patch_opts.strips; docs/contact.md "The strip patch's creep
 * ellipse"): the parabola dv(u) = D (1 − (u − u0)²/w²) with the same
 * zeroth, first and second moments over the nodes as the slices' overlap
 * (w² = 5 M2/M0, D = 3 M0/(4 w)), its curvature D/w² taken along the
 * contact plane (× cos³ α: the overlap along the normal, the width along
 * the surface).  Where the profiles' curvatures are constant across the
 * patch (a Hertzian overlap, parabolic) it is their half sum
 * ½ (1/R_wy + 1/R_ry) (the quadrature is exact for it); where they change
 * across it (a conformal flange root, S1002's tread where its curvature
 * changes sign) it is the curvature of the overlap the patch has, which is
 * continuous in the pose while the point's curvatures jump.  NAN for a
 * patch without nodes or without overlap. */
double rs_patch_overlap_curvature(const rs_patch *p);

/* Input checks of a wheel-rail pair for rs_patch_find, at set-up: kinds
 * (wheel, rail), r0 > 0, the wheel's radius r0 + z_w above r0/2 everywhere
 * on its table, the rail table reaching on its gauge side a slope at least
 * as steep as the wheel's steepest flange slope (max −z_w'; otherwise a
 * flange contact could leave the rail table, where nothing is in contact),
 * and the wheel table reaching on the field side at least as far as the
 * rail's.  Returns RS_OK, RS_E_ARG or RS_E_TABLE with a message naming both
 * profiles and what to change (err may be NULL). */
int rs_patch_check_pair(const rs_profile *w, const rs_profile *r, double r0, char *err,
                        size_t errlen);

#endif /* RS_PATCH_H */
