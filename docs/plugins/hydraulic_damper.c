/*
 * hydraulic_damper.c — a non-linear hydraulic damper as a railsym plugin
 * (docs/plugins.md).  An orifice gives a force growing with the square of
 * the rate, c2 v |v|; a blow-off valve opens at the force f_bo, above which
 * the force grows only with the much smaller slope c_bo:
 *     f(v) = c2 v |v|                          for |c2 v |v|| <= f_bo
 *          = sign(v) (f_bo + c_bo (|v| − v_bo))  beyond, v_bo = sqrt(f_bo / c2)
 * params [c2 (N s²/m²), f_bo (N), c_bo (N s/m)].  The Jacobian ∂f/∂v is
 * returned (∂f/∂x = 0), so an implicit step treats the damper implicitly.
 * Build: cc -shared -fPIC -O2 -I RAILSYM/abi -o libhyd.so hydraulic_damper.c -lm
 */
#include <math.h>

#include "rs_plugin.h"

static int hyd_init(void **ctx, const double *param, int n_param, double *state, int n_state, char *err,
                    unsigned long errlen)
{
    (void)ctx;
    (void)state;
    (void)n_state;
    if (n_param != 3 || !(param[0] > 0) || !(param[1] > 0) || !(param[2] >= 0)) {
        const char *msg = "params [c2, f_bo, c_bo]: three values, c2 > 0, f_bo > 0, c_bo >= 0";
        unsigned long i = 0;
        for (; errlen > 0 && i + 1 < errlen && msg[i]; i++)
            err[i] = msg[i];
        if (errlen > 0)
            err[i] = '\0';
        return 1;
    }
    return RS_PLUGIN_OK;
}

static int hyd_eval(void *ctx, const rs_plugin_in *in, rs_plugin_out *out)
{
    (void)ctx;
    const double c2 = in->param[0], f_bo = in->param[1], c_bo = in->param[2];
    const double v = in->v, a = fabs(v), v_bo = sqrt(f_bo / c2);
    if (a <= v_bo) {
        out->f = c2 * v * a;
        out->dfdv = 2 * c2 * a;
    } else {
        out->f = copysign(f_bo + c_bo * (a - v_bo), v);
        out->dfdv = c_bo;
    }
    out->dfdx = 0;
    out->has_jac = 1;
    return RS_PLUGIN_OK;
}

static const rs_plugin_api hyd_api = {RS_PLUGIN_ABI_VERSION, hyd_init, hyd_eval, 0, 0};

const rs_plugin_api *rs_plugin_entry(void);
const rs_plugin_api *rs_plugin_entry(void) { return &hyd_api; }
