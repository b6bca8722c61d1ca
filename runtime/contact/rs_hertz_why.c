/* rs_hertz_why.c — see rs_hertz_why.h. */
#include "rs_hertz_why.h"

#include <math.h>
#include <stdio.h>

#include "rs_hertz.h"
#include "rs_status.h"

const char *rs_hertz_why(int code, const double radii[3])
{
    double A, B;
    rs_hertz_curvature_sums(radii[0], radii[1], INFINITY, radii[2], &A, &B);
    if (code == RS_E_NONHERTZ && B < 0)
        return "a saddle (the concave wheel is tighter across the rail than the convex rail, as a flange root "
               "on the gauge corner): no single-point Hertz patch exists";
    if (code == RS_E_NONHERTZ)
        return "conformal (the wheel's and the rail's lateral curvatures cancel): no single-point Hertz patch "
               "exists, its ellipse would have no bound across the rail";
    if (code == RS_E_ARG)
        return "a radius that is not a number, or a modulus or Poisson ratio Hertz cannot take";
    return "a case the Hertz solution does not cover";
}

void rs_hertz_why_numbers(int code, const double radii[3], char *buf, size_t n)
{
    double A, B;
    rs_hertz_curvature_sums(radii[0], radii[1], INFINITY, radii[2], &A, &B);
    snprintf(buf, n,
             "%s %d; radii: wheel %.4g m rolling, %.4g m lateral, rail %.4g m lateral; "
             "B = (1/R_wy + 1/R_ry)/2 = %.4g 1/m, A = %.4g 1/m",
             rs_status_name(code), code, radii[0], radii[1], radii[2], B, A);
}
