/*
 * rs_kalker.h — Kalker's linear creep law (Kalker 1967; 1990 book Table E.3).
 *
 *   Fx = − G a b C11 ξx
 *   Fy = − G a b C22 ξy − G (ab)^{3/2} C23 φ
 *   Mz =   G (ab)^{3/2} C23 ξy − G (ab)² C33 φ
 * with G = E / (2 (1 + ν)); a along the rolling direction x, b lateral;
 * ξx, ξy dimensionless creepages, φ the spin creepage (1/m).  Seed 003's
 * eq. (24) prints √(ab) for the C23 terms: dimensionally wrong, corrected.
 *
 * Coefficients C11, C22, C23, C33 (a/b, ν) from the embedded table (19 rows:
 * g = a/b = 0.1..1 and g = b/a = 0.9..0.1; ν = 0, 0.25, 0.5):
 *   - in g: linear on each branch (as CONTACT and the Navarre model);
 *     continuous at a/b = 1 where the branches share the row;
 *   - in ν: parabola through 1/C at ν = 0, 0.25, 0.5 (CONTACT's choice:
 *     1/C is nearly linear in ν since C ∝ 1/(1 − ν) for slender ellipses);
 *     evaluated at the two bracketing g rows, then linear in g;
 *   - a/b < 0.1: CONTACT's slender-ellipse asymptotes for C11, C22, C23;
 *     C33 (no published asymptote) = C33(0.1, ν) · 0.1 / (a/b), railsym's
 *     own choice following the table's 1/g growth.  The asymptotes do not
 *     join the table continuously at 0.1 (jumps of a few %, documented in
 *     docs/contact.md).  Returns RS_ASYMPTOTE;
 *   - b/a < 0.1 (a/b > 10): no published asymptote; the coefficients are
 *     held at their b/a = 0.1 values.  Returns RS_CLAMPED.
 * No allocation, no state: thread-safe.
 */
#ifndef RS_KALKER_H
#define RS_KALKER_H

/* rs_kalker_coeffs returns RS_OK, RS_ASYMPTOTE (a/b < 0.1: slender-ellipse
 * asymptotes), RS_CLAMPED (a/b > 10: held at the table's last row), or
 * RS_E_ARG (a/b <= 0 or not finite, nu outside [0, 0.5]): rs_status.h. */
#include "rs_status.h"

enum { RS_KALKER_C11 = 0, RS_KALKER_C22 = 1, RS_KALKER_C23 = 2, RS_KALKER_C33 = 3 };

#define RS_KALKER_ROWS 19

/* C11, C22, C23, C33 at a/b and ν into c[0..3].  Returns RS_OK,
 * RS_ASYMPTOTE or RS_CLAMPED (c valid), or RS_E_ARG
 * (c untouched). */
int rs_kalker_coeffs(double a_over_b, double nu, double c[4]);

/* Row i (0 <= i < RS_KALKER_ROWS, increasing a/b) of the embedded table:
 * *a_over_b and c[4 * j + inu] for coefficient j (RS_KALKER_C11..) and
 * ν index inu (0, 0.25, 0.5).  Returns 0, or -1 for a bad i.  For tests
 * and documentation. */
int rs_kalker_table_row(int i, double *a_over_b, double c[12]);

/* G = E / (2 (1 + ν)). */
double rs_kalker_shear_modulus(double E, double nu);

/* Creep matrix Cm (row-major 3×3) with (Fx, Fy, Mz) = − Cm (ξx, ξy, φ):
 *   Cm = G [ ab C11, 0, 0 ; 0, ab C22, (ab)^{3/2} C23 ;
 *            0, −(ab)^{3/2} C23, (ab)² C33 ].
 * a b = 0 (no contact) gives the zero matrix. */
void rs_kalker_creep_matrix(double a, double b, double G, const double c[4],
                            double Cm[9]);

/* (Fx, Fy, Mz) into f[3] for creepages xi = (ξx, ξy, φ). */
void rs_kalker_forces(double a, double b, double G, const double c[4],
                      const double xi[3], double f[3]);

/* Saturation of the linear creep force at the friction limit (Shen, Hedrick
 * and Elkins 1983, "A comparison of alternative creep force models for rail
 * vehicle dynamic analysis"): with β = f_lin / f_max (f_lin the magnitude of
 * the linear tangential force (Fx, Fy), f_max = μ N), the saturated magnitude
 * is f_max (β − β²/3 + β³/27) for β < 3 and f_max beyond — smooth (C1) at
 * β = 3, linear as β → 0.  Returns the factor ε = saturated / linear, in
 * (0, 1], that multiplies Fx, Fy and Mz.  f_max <= 0 or f_lin <= 0: 1. */
double rs_creep_saturation(double f_lin, double f_max);

#endif /* RS_KALKER_H */
