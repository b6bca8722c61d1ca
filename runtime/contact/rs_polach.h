/*
 * rs_polach.h — Polach's creep force method (O. Polach, "A fast wheel-rail
 * forces calculation computer code", Vehicle System Dynamics 33 Suppl.
 * (1999) 728-739; the extension for large creepage: "Creep forces in
 * simulations of traction vehicles running on adhesion limit", Wear 258
 * (2005) 992-1000).  docs/creep.md writes it out.
 *
 * Translational creepage s = √(ξx² + ξy²), slip velocity w = V s,
 *   μ   = μ0 [ (1 − A) e^{−B w} + A ]                          (2005)
 *   ε   = G π a b c_jj s / (4 N μ),  c_jj s = √((C11 ξx)² + (C22 ξy)²)
 *   F   = (2 N μ / π) [ kA ε / (1 + (kA ε)²) + atan(kS ε) ]     (2005)
 *   (Fx, Fy) = − F (ξx, ξy) / s                               (on the wheel)
 * Spin (1999): s_yC = ξy + φ a if |ξy + φ a| > |ξy|, else ξy;
 *   s_C = √(ξx² + s_yC²),  k_e = 1 + 6.3 (1 − e^{−a/b}),
 *   ε_ψ = (8/3) G b √(ab) C23 s_C / (N μ k_e),  δ = (ε_ψ² − 1)/(ε_ψ² + 1),
 *   K_M = |ε_ψ| (δ³/3 − δ²/2 + 1/6) − (1/3) √((1 − δ²)³),
 *   Fy += (9/16) a N μ K_M k_e φ / s_C                          (on the wheel)
 * Identically K_M = −(2/3) ε_ψ/(1 + ε_ψ²)², so the spin term is
 *   Fy += − G (ab)^{3/2} C23 φ / (1 + ε_ψ²)²
 * (evaluated so: stable at any ε_ψ), Kalker's − G (ab)^{3/2} C23 φ at
 * small creepage.
 * Mz: Polach gives none.  railsym's choice: Kalker's linear spin moment
 * scaled by Polach's own saturation ratio at the creepage with spin,
 *   Mz = Mz_lin σ,  σ = F(ε_C) / F_lin(ε_C)
 *                     = [kA ε_C/(1 + (kA ε_C)²) + atan(kS ε_C)] / (2 ε_C),
 *   ε_C = G π a b √((C11 ξx)² + (C22 s_yC)²) / (4 N μ):
 * σ → (kA + kS)/2 (1 by default) at small creepage, so Mz → the linear
 * law; σ ~ π/(4 ε_C) at large creepage, so Mz stays bounded (pure spin:
 * |Mz| → μ N b C33/C22; pure ξy: μ N √(ab) C23/C22).
 *
 * Sign convention: that of rs_kalker_forces, (Fx, Fy, Mz) = − Cm (ξx, ξy, φ)
 * at small creepage, for pure longitudinal, lateral or spin creepage (for
 * mixed ξx, ξy Polach's c_jj interpolates between C11 and C22).
 *
 * Jacobian J = ∂(Fx, Fy, Mz)/∂(ξx, ξy, φ), row-major: exact, by forward-mode
 * differentiation (value and three partial derivatives carried through
 * every operation).  At s = 0 the translational part is not differentiable
 * (F is homogeneous of degree 1 but not linear when C11 ≠ C22); there J
 * takes the limit along the axes, − G a b diag(C11, C22) (times (kA + kS)/2).
 * Where s_yC switches branch the spin force has a kink.
 * No allocation, no state, no loops: thread-safe and deterministic.
 */
#ifndef RS_POLACH_H
#define RS_POLACH_H

/* Returns RS_OK or RS_E_ARG: rs_status.h. */
#include "rs_status.h"

typedef struct rs_polach_opts {
    double kA;  /* reduction of the initial slope, adhesion area (1: none), > 0 */
    double kS;  /* reduction in the slip area (1: none), > 0; Polach 2005:
                   kS <= kA <= 1                                           */
    double A;   /* μ∞/μ0, falling friction (1: none), in [0, 1]             */
    double B;   /* rate of the exponential friction decrease (s/m), >= 0    */
    double V;   /* rolling speed (m/s) for w = V s; >= 0 (needed if A < 1)  */
} rs_polach_opts;

/* The defaults: kA = kS = 1, A = 1, B = 0, V = 0 (Polach 1999, constant μ). */
void rs_polach_defaults(rs_polach_opts *o);

/* Creep forces on the wheel; arguments as rs_fastsim_forces (rs_fastsim.h),
 * mu0 the friction coefficient at zero slip.  N = 0 or μ0 = 0: f = 0, J = 0.
 * Returns RS_OK, or RS_E_ARG (NaN/Inf, a or b <= 0 with N > 0, G <= 0,
 * μ0 < 0, N < 0, a coefficient <= 0, options out of range); then f and J are
 * untouched. */
int rs_polach_forces(double a, double b, double G, const double c[4],
                     double mu0, double N, const double xi[3],
                     const rs_polach_opts *o, double f[3], double J[9]);

#endif /* RS_POLACH_H */
