/*
 * rs_band.c — band Cholesky (see rs_band.h).  Row-oriented: row i of L
 * needs only the kd rows above it, so the loops never leave the band.
 */
#include "rs_band.h"

#include <math.h>
#include <stddef.h>

#include "rs_status.h"

#define AT(L, kd, i, j) ((L)[(size_t)(i) * (size_t)((kd) + 1) + (size_t)((i) - (j))])

int rs_band_chol(double *L, int n, int kd, int *bad)
{
    for (int i = 0; i < n; i++) {
        const int j0 = i - kd > 0 ? i - kd : 0;
        for (int j = j0; j <= i; j++) {
            double s = AT(L, kd, i, j);
            /* columns shared by rows i and j inside both bands */
            for (int k = j0 > j - kd ? j0 : j - kd; k < j; k++)
                s -= AT(L, kd, i, k) * AT(L, kd, j, k);
            if (j < i) {
                AT(L, kd, i, j) = s / AT(L, kd, j, j);
            } else {
                if (!(s > 0.0)) {
                    if (bad)
                        *bad = i;
                    return RS_E_SINGULAR;
                }
                AT(L, kd, i, i) = sqrt(s);
            }
        }
    }
    return RS_OK;
}

void rs_band_chol_solve(const double *L, int n, int kd, double *b)
{
    for (int i = 0; i < n; i++) {            /* L y = b */
        double s = b[i];
        for (int j = i - kd > 0 ? i - kd : 0; j < i; j++)
            s -= AT(L, kd, i, j) * b[j];
        b[i] = s / AT(L, kd, i, i);
    }
    for (int i = n - 1; i >= 0; i--) {       /* Lᵀ x = y */
        double s = b[i];
        const int j1 = i + kd < n - 1 ? i + kd : n - 1;
        for (int j = i + 1; j <= j1; j++)
            s -= AT(L, kd, j, i) * b[j];
        b[i] = s / AT(L, kd, i, i);
    }
}
