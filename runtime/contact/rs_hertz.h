/*
 * rs_hertz.h — Hertz contact ellipse for wheel-rail contact.
 *
 * Geometry (seed 003 §3, corrected; docs/contact.md):
 *   A, B      half sums of the principal relative curvatures along the
 *             rolling direction x and the lateral direction y (1/m),
 *   cos θ   = |B − A| / (A + B),
 *   c       = [ (3/2) N (1 − ν²) / (E (A + B)) ]^{1/3}   (identical steels),
 *   semi-axes m(θ) c along the direction of the smaller curvature sum and
 *   n(θ) c along the other.
 * m and n are computed EXACTLY from Johnson's relations (Contact Mechanics
 * §4.2): with k = b/a ≤ 1, e² = 1 − k², K, E the complete elliptic integrals
 * of modulus e,
 *   B/A = (E/k² − K) / (K − E)   (the larger over the smaller sum),
 *   m³  = 2E / (π k²),   n = m k,
 * by one safeguarded Newton solve in ln k from a fitted start (bracketed;
 * two evaluations over 1 < B/A <= 1e12, at most RS_HERTZ_MAX_ITER); K and E by the arithmetic-geometric mean,
 * with K − E summed directly (no cancellation near the circle).
 *
 * Sign convention of radii: POSITIVE = convex towards the other body,
 * NEGATIVE = concave (a hollow wheel tread, a flange root), INFINITY = flat.
 * Plain C, no allocation, no state: thread-safe.
 */
#ifndef RS_HERTZ_H
#define RS_HERTZ_H

/* Returns RS_OK, or RS_E_ARG (NaN/Inf, E <= 0, nu outside [0, 0.5)),
 * RS_E_LIFTOFF (N < 0: the wheel would lift off), RS_E_NONHERTZ (A <= 0 or
 * B <= 0, conformal or saddle, or B/A beyond RS_HERTZ_MAX_RATIO), RS_E_NOCONV
 * (root solve failed; should not happen): the codes of rs_status.h. */
#include "rs_status.h"

#define RS_HERTZ_MAX_ITER  60
#define RS_HERTZ_MAX_RATIO 1e12   /* largest B/A accepted (theta ≈ 1.1e-4°) */

typedef struct rs_hertz_ellipse {
    double a;      /* semi-axis along x, rolling direction (m)             */
    double b;      /* semi-axis along y, lateral direction (m)             */
    double A, B;   /* curvature half sums along x and along y (1/m)        */
    double theta;  /* θ = acos(|B − A| / (A + B)) (rad)                    */
    double m, n;   /* Hertz coefficients, m >= 1 >= n                      */
    double p0;     /* peak pressure 3 N / (2 π a b) (Pa), 0 when N = 0    */
} rs_hertz_ellipse;

/* Curvature radius of a profile z = f(y) (DESIGN.md's corrected eq. 22):
 * (1 + f'²)^{3/2} / |f''|; INFINITY when f'' = 0. */
double rs_hertz_radius(double f1, double f2);

/* Signed lateral radius of a railsym profile (docs/contact.md: rail files give
 * the height, wheel files the radius increase; in both the body lies on the
 * side where the surface is convex when f'' < 0):
 *   R = −(1 + f'²)^{3/2} / f''   (positive convex, negative concave). */
double rs_hertz_profile_radius(double f1, double f2);

/* Curvature half sums from the four principal radii (signed as above;
 * INFINITY for a straight direction, e.g. the rail longitudinally):
 *   *A = ½ (1/R_wx + 1/R_rx),  *B = ½ (1/R_wy + 1/R_ry).
 * R_wx is the wheel's rolling radius as seen in the contact plane. */
void rs_hertz_curvature_sums(double R_wx, double R_wy, double R_rx,
                             double R_ry, double *A, double *B);

/* m(θ), n(θ) for θ in (0, π/2] radians.  Returns RS_OK or an error. */
int rs_hertz_mn(double theta, double *m, double *n);

/* The same from the curvature ratio r = max(A,B)/min(A,B) >= 1 (no trig):
 * also gives k = n/m.  *iters (may be NULL) receives the evaluations used. */
int rs_hertz_mn_ratio(double r, double *m, double *n, int *iters);

/* Contact ellipse for the normal force N >= 0 (N), Young's modulus E (Pa),
 * Poisson ratio nu, curvature sums A (along x) and B (along y) (1/m).
 * N = 0 gives a = b = 0 (no contact area; creep forces then vanish). */
int rs_hertz_ellipse_compute(double N, double E, double nu, double A, double B,
                             rs_hertz_ellipse *out);

/* The elastic normal law N = c_H δ^{3/2} of a Hertz contact (δ the approach
 * of the two bodies along the normal), for identical materials: Johnson,
 * Contact Mechanics §4.2, δ = p0 b K(e) / E*, b the smaller semi-axis,
 * K(e) the complete elliptic integral of the ellipse's eccentricity e,
 * p0 = 3N/(2π a b), E* = E / (2 (1 − ν²)); the semi-axes grow as N^{1/3},
 * so δ ∝ N^{2/3} and c_H = N / δ^{3/2} depends on the geometry only.
 *
 * rs_hertz_approach_constant takes the curvature half sums A (along x),
 * B (along y) and is strict: A <= 0 or B <= 0 is RS_E_NONHERTZ.  The
 * semi-axes at N = 1 N go into *a1, *b1 (may be NULL).
 *
 * rs_hertz_approach_law takes the radii (R_wx > 0 the wheel's rolling radius
 * in the contact plane, R_wy, R_ry the signed lateral radii; the rail is
 * straight along x) and applies the CONFORMAL RULE: where the lateral sum
 * B = ½ (1/R_wy + 1/R_ry) falls below A / RS_HERTZ_CONFORMAL_RATIO (a
 * concave flange root or hollow tread nearly fitting the rail, B → 0, or
 * overlapping it, B < 0: no Hertz ellipse exists), B is held at
 * A / RS_HERTZ_CONFORMAL_RATIO and the return code is RS_CLAMPED.  The held
 * ellipse is about 18 times longer laterally than along x (Hertz's b/a for
 * B/A = 1/100), the most the half-space theory is trusted with on a profile
 * a few centimetres wide; c_H is continuous across the threshold (the sum
 * enters only through max(B, A/100)).  Returns RS_OK, RS_CLAMPED, RS_E_ARG
 * (NaN, E <= 0, ν outside [0, 0.5), R_wx <= 0) or RS_E_NONHERTZ. */
#define RS_HERTZ_CONFORMAL_RATIO 100.0

int rs_hertz_approach_constant(double A, double B, double E, double nu, double *c_hertz,
                               double *a1, double *b1);
int rs_hertz_approach_law(double R_wx, double R_wy, double R_ry, double E, double nu,
                          double *c_hertz);

/* The same, with the contact ellipse's semi-axes at N = 1 N (conformal rule
 * included) into *a1, *b1 (may be NULL): at a normal force N they are
 * a1 N^{1/3}, b1 N^{1/3}, so one root solve serves the normal law and the
 * creep law's ellipse of a patch. */
int rs_hertz_patch_law(double R_wx, double R_wy, double R_ry, double E, double nu, double *c_hertz,
                       double *a1, double *b1);

/* The same from the curvature half sums A (along x, > 0) and B (along y,
 * any sign: the conformal rule holds it at A / RS_HERTZ_CONFORMAL_RATIO),
 * for a caller that has B from elsewhere (the strip patch's overlap,
 * rs_patch_overlap_curvature). */
int rs_hertz_patch_law_sums(double A, double B, double E, double nu, double *c_hertz, double *a1,
                            double *b1);

#endif /* RS_HERTZ_H */
