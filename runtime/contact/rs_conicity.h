/*
 * rs_conicity.h — equivalent conicity tan(gamma_e) from a rolling-radius
 * difference function dr(y) (docs/contact_geometry.md, "Equivalent
 * conicity").
 *
 * dr(y) is given as a table (y strictly increasing, at least 2 points),
 * linear between its points; y the wheelset's lateral shift (m), dr in m.
 *
 * EN 15302 (integration of the linearised wheelset equation, Annex B):
 * the kinematic (Klingel) motion of a free wheelset rolling without slip,
 *     y'' + dr(y) / (2 e0 r0) = 0       (' = d/dx along the track),
 * has the first integral  y'^2 = (S_t - S(y)) / (e0 r0),  S(y) = int dr dy.
 * For amplitude A the turning points y1 < y2 = y1 + 2A satisfy
 * S(y1) = S(y2) (for an antisymmetric dr, y1 = -A); the wavelength is
 *     L = 2 sqrt(e0 r0) J,   J = int_{y1}^{y2} dy / sqrt(S_t - S(y)),
 * and Klingel's formula L = 2 pi sqrt(e0 r0 / tan ge) gives
 *     tan ge = (2 pi / L)^2 e0 r0 = pi^2 / J^2   (e0 and r0 cancel).
 *
 * Harmonic linearisation (describing function), a second formulation:
 *     tan ge = 1/(2A) * (1/pi) int_0^{2 pi} dr(A sin phi) sin phi dphi.
 * For a cone, dr = 2 g y, both give g exactly.
 */
#ifndef RS_CONICITY_H
#define RS_CONICITY_H

#include "rs_status.h"

/* EN 15302's integration method for amplitude A (m, > 0).  *tan_ge the
 * equivalent conicity; *y_mid (may be NULL) the centre (y1 + y2)/2 of the
 * oscillation; *j (may be NULL) the integral J (m^0.5), so the wavelength is
 * 2 sqrt(e0 r0) J.  RS_OK; RS_E_ARG; RS_E_VALUE when [y1, y2] does not fit in
 * the table or no oscillation of that amplitude exists (dr does not grow
 * through zero: S_t - S <= 0 inside).  Where dr is exactly 0 at table points
 * spanning at least 2A (a neutral, flat stretch), the wavelength is infinite:
 * *tan_ge = 0, *j = INFINITY, *y_mid the stretch's centre (EN 15302 Annex E,
 * case E4, gives 0 there). */
int rs_conicity_en15302(const double *y, const double *dr, int n, double A,
                        double *tan_ge, double *y_mid, double *j);

/* Harmonic linearisation about y = 0 for amplitude A.  RS_E_VALUE when
 * [-A, A] does not fit in the table. */
int rs_conicity_harmonic(const double *y, const double *dr, int n, double A, double *tan_ge);

#endif /* RS_CONICITY_H */
