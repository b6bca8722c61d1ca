/*
 * rs_creep.c — the dispatcher of the creep force laws (rs_creep.h).
 */
#include "rs_creep.h"

#include <math.h>

#include "rs_kalker.h"

void rs_creep_defaults(rs_creep_opts *o)
{
    rs_fastsim_defaults(&o->fastsim);
    rs_polach_defaults(&o->polach);
}

static int kalker(double a, double b, double G, const double c[4], double mu,
                  double N, const double xi[3], double f[3], double J[9])
{
    if (!c || !xi || !f)
        return RS_E_ARG;
    if (!isfinite(a) || !isfinite(b) || !isfinite(G) || !isfinite(mu) ||
        !isfinite(N) || !isfinite(xi[0]) || !isfinite(xi[1]) || !isfinite(xi[2]) ||
        !(G > 0) || !(mu >= 0) || !(N >= 0) || !(a >= 0) || !(b >= 0) ||
        (N > 0 && (!(a > 0) || !(b > 0))))
        return RS_E_ARG;
    for (int k = 0; k < 4; k++)
        if (!isfinite(c[k]) || !(c[k] > 0))
            return RS_E_ARG;
    if (N == 0) {           /* no contact: no force, like the other laws */
        f[0] = f[1] = f[2] = 0;
        if (J)
            for (int k = 0; k < 9; k++)
                J[k] = 0;
        return RS_OK;
    }
    rs_kalker_forces(a, b, G, c, xi, f);
    if (J) {
        double Cm[9];
        rs_kalker_creep_matrix(a, b, G, c, Cm);
        for (int k = 0; k < 9; k++)
            J[k] = -Cm[k];
    }
    return RS_OK;
}

int rs_creep_forces(rs_creep_law law, double a, double b, double G,
                    const double c[4], double mu, double N, const double xi[3],
                    const rs_creep_opts *o, double f[3], double J[9])
{
    switch (law) {
    case RS_CREEP_KALKER:
        return kalker(a, b, G, c, mu, N, xi, f, J);
    case RS_CREEP_FASTSIM:
        return rs_fastsim_forces(a, b, G, c, mu, N, xi, o ? &o->fastsim : 0, f, J);
    case RS_CREEP_POLACH:
        return rs_polach_forces(a, b, G, c, mu, N, xi, o ? &o->polach : 0, f, J);
    }
    return RS_E_ARG;
}
