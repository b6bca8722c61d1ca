/*
 * rs_params.c — see rs_params.h.
 */
#include <string.h>

#include "rs_params.h"
#include "rs_status.h"

int rs_params_follow(const rs_model *m, const double *const *in, double *p, const double *set, double *scratch)
{
    const rs_fn fn = m->fn[RS_FN_PARAMS].fn;
    if (!fn)
        return RS_OK;
    static const double none[1] = {0.0};
    const double *own[RS_IN_COUNT];
    if (!in) {
        for (int k = 0; k < RS_IN_COUNT; k++)
            own[k] = none;
        own[RS_IN_P] = p;
        in = own;
    }
    for (int pass = 0; pass <= m->n_p; pass++) {
        double *out[RS_FN_MAX_OUT] = {scratch};
        if (fn(in, out) != RS_ABI_OK)
            return RS_E_MODELFN;
        int changed = 0;
        for (int i = 0; i < m->n_p; i++)   /* bits, not ==: a NaN never settles either way */
            if (!(set && set[i]) && memcmp(&p[i], &scratch[i], sizeof(double)) != 0) {
                p[i] = scratch[i];
                changed = 1;
            }
        if (!changed)
            break;
    }
    return RS_OK;
}
