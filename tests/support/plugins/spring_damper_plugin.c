/*
 * spring_damper_plugin.c — the linear spring-damper as a user plugin
 * (abi/rs_plugin.h), for tests/e2e/test_plugin.c: the tension
 * f = k (x − L0) + c v, the built-in `spring`'s law written again.
 * params [k, c, L0, jac, t_nan]: jac ≠ 0 returns ∂f/∂x = k and ∂f/∂v = c;
 * t_nan > 0 returns NaN from that time on (the run must stop, naming the
 * plugin).  Built by the test with -DBAD_VERSION (a table of another ABI
 * version) and -DNO_ENTRY (no entry symbol) for the load-time errors.
 */
#include "rs_plugin.h"

static int sd_eval(void *ctx, const rs_plugin_in *in, rs_plugin_out *out)
{
    (void)ctx;
    const double *p = in->param;
    if (in->n_param < 3)
        return 1;
    if (in->n_param > 4 && p[4] > 0 && in->t >= p[4]) {
        out->f = 0.0 / 0.0; /* NaN, on purpose */
        return RS_PLUGIN_OK;
    }
    out->f = p[0] * (in->x - p[2]) + p[1] * in->v;
    if (in->n_param > 3 && p[3] != 0) {
        out->dfdx = p[0];
        out->dfdv = p[1];
        out->has_jac = 1;
    }
    return RS_PLUGIN_OK;
}

static const rs_plugin_api sd_api = {
#ifdef BAD_VERSION
    RS_PLUGIN_ABI_VERSION + 1,
#else
    RS_PLUGIN_ABI_VERSION,
#endif
    0, sd_eval, 0, 0};

#ifdef NO_ENTRY
const rs_plugin_api *not_the_entry(void);
const rs_plugin_api *not_the_entry(void) { return &sd_api; }
#else
const rs_plugin_api *rs_plugin_entry(void);
const rs_plugin_api *rs_plugin_entry(void) { return &sd_api; }
#endif
