/*
 * rs_fastsim.h — Kalker's FASTSIM: the simplified theory of rolling contact
 * on a Hertz ellipse, solved by marching along strips (Kalker 1982, "A fast
 * algorithm for the simplified theory of rolling contact", Vehicle System
 * Dynamics 11, 1-13; docs/creep.md).
 *
 * Simplified theory: the elastic displacement is proportional to the local
 * traction, u = L p.  In steady rolling the traction of a particle grows
 * from the leading edge (x = a(y), p = 0) with the rigid slip divided by the
 * flexibility,
 *     dp_x/ds = ξx / L1 − φ y / L3,     dp_y/ds = ξy / L2 + φ x / L3
 * (s = a(y) − x the distance travelled from the leading edge), and is
 * bounded by the traction bound g = μ p(x, y); where the bound is reached
 * the particle slips and p = g p_H / |p_H|.  Flexibilities (Kalker 1982):
 *     L1 = 8 a / (3 G C11),  L2 = 8 a / (3 G C22),
 *     L3 = π a √(a/b) / (4 G C23)
 * so that at small creepage Fx, Fy equal Kalker's linear law exactly
 * (rs_kalker.h).  The spin moment of the simplified theory does NOT equal
 * the linear law's (docs/creep.md gives the factors): option
 * spin_moment_flex = 1 uses a fourth flexibility L4 = 8 b / (15 G C33) for
 * the x traction from spin (which gives Mz only), so that the pure-spin
 * moment matches C33 too.
 *
 * Discretisation: my strips of equal width in y (midpoints), each cut into
 * mx elements of equal length; traction and bound at the element midpoints
 * (the rigid slip, linear in x, integrated exactly between them), forces
 * by the midpoint rule in x and y.  The traction bound is
 * the Hertzian pressure (default) or Kalker's parabolic one, scaled so that
 * its discrete integral is exactly μ N (full sliding gives μ N).
 *
 * Sign convention: that of rs_kalker_forces, forces on the wheel
 * (Fx, Fy, Mz) = − Cm (ξx, ξy, φ) at small creepage.
 *
 * Jacobian: J = ∂(Fx, Fy, Mz)/∂(ξx, ξy, φ), row-major, the exact
 * derivative of the discrete algorithm (forward-mode differentiation of the
 * march: in adhesion dp = dp_prev + Δs dw; in slip
 * dp = (g/|p_H|)(I − n nᵀ) dp_H).  Piecewise smooth: it jumps where an
 * element changes between adhesion and slip.
 *
 * Cost: the adhesion zone behind each strip's leading edge (traction and
 * derivatives sums of constants there) is summed in closed form; only the
 * elements from the first slip on are marched (docs/creep.md, "Cost").
 *
 * No allocation (four stack arrays of RS_FASTSIM_MAX_N doubles),
 * no state, loops bounded by mx and my: thread-safe and deterministic.
 */
#ifndef RS_FASTSIM_H
#define RS_FASTSIM_H

/* Returns RS_OK or RS_E_ARG: rs_status.h. */
#include "rs_status.h"

#define RS_FASTSIM_MX_DEFAULT 20   /* elements per strip (rolling direction) */
#define RS_FASTSIM_MY_DEFAULT 20   /* strips (lateral) */
#define RS_FASTSIM_MAX_N      400  /* the largest mx and my accepted */

enum rs_fastsim_bound {
    RS_FASTSIM_BOUND_HERTZ = 0,     /* g = μ p0 √(1 − x²/a² − y²/b²), p0 = 3N/(2πab) */
    RS_FASTSIM_BOUND_PARABOLIC = 1  /* g = μ (2N/(πab)) (1 − x²/a² − y²/b²) (Kalker 1982) */
};

typedef struct rs_fastsim_opts {
    int mx;               /* elements per strip, 1..RS_FASTSIM_MAX_N */
    int my;               /* strips, 1..RS_FASTSIM_MAX_N */
    int bound;            /* enum rs_fastsim_bound */
    int spin_moment_flex; /* 1: L4 = 8b/(15 G C33) for the x traction from spin */
} rs_fastsim_opts;

/* The defaults: mx = my = 20, Hertzian bound, Kalker's three flexibilities. */
void rs_fastsim_defaults(rs_fastsim_opts *o);

/* Creep forces on the wheel.
 *   a, b     semi-axes along x (rolling) and y (m), > 0 (may be 0 when N = 0)
 *   G        shear modulus (Pa), > 0
 *   c        C11, C22, C23, C33 from rs_kalker_coeffs(a/b, ν), > 0
 *   mu       friction coefficient, >= 0
 *   N        normal force (N), >= 0
 *   xi       (ξx, ξy, φ): creepages and spin (1/m)
 *   o        options (NULL: the defaults)
 *   f        out: (Fx, Fy, Mz) (N, N, N m)
 *   J        out, may be NULL: 3×3 row-major ∂f/∂xi
 * N = 0 or μ = 0: f = 0, J = 0.  Returns RS_OK, or RS_E_ARG (NaN/Inf,
 * a or b <= 0 with N > 0, G <= 0, μ < 0, N < 0, a coefficient <= 0, bad
 * options); then f and J are untouched. */
int rs_fastsim_forces(double a, double b, double G, const double c[4],
                      double mu, double N, const double xi[3],
                      const rs_fastsim_opts *o, double f[3], double J[9]);

#endif /* RS_FASTSIM_H */
