/*
 * traction_controller.c — a speed controller with a traction limit as a
 * railsym plugin (docs/plugins.md).  The element acts between a point of
 * the vehicle and a point that moves with the track's reference (or the
 * ground), `along` the running direction: x is the vehicle's travel, v its
 * speed.  A PI controller drives v to v_ref; the tractive effort is
 * limited to ±f_max (no integrator wind-up while it is):
 *     e = v_ref − v,  f = −sat(kp e + ki ∫e)
 * (the element's tension pulls its two points together, so a push forward
 * is a negative tension).  params [v_ref (m/s), kp (N s/m), ki (N/m),
 * f_max (N)]; states 1: ∫e, updated once per accepted step by `advance`.
 * Build: cc -shared -fPIC -O2 -I RAILSYM/abi -o libtraction.so traction_controller.c -lm
 */
#include <math.h>

#include "rs_plugin.h"

static double effort(const rs_plugin_in *in, double integral)
{
    const double v_ref = in->param[0], kp = in->param[1], ki = in->param[2], f_max = in->param[3];
    const double u = kp * (v_ref - in->v) + ki * integral;
    return fmax(-f_max, fmin(f_max, u));
}

static int tc_eval(void *ctx, const rs_plugin_in *in, rs_plugin_out *out)
{
    (void)ctx;
    if (in->n_param != 4 || in->n_state != 1)
        return 1; /* the description must say params [v_ref, kp, ki, f_max] states 1 */
    out->f = -effort(in, in->state[0]);
    return RS_PLUGIN_OK; /* no Jacobian: the controller is treated explicitly */
}

static int tc_advance(void *ctx, const rs_plugin_in *in, double dt, double *state)
{
    (void)ctx;
    const double u = in->param[1] * (in->param[0] - in->v) + in->param[2] * state[0];
    if (fabs(u) < in->param[3]) /* anti-wind-up: integrate only while not saturated */
        state[0] += dt * (in->param[0] - in->v);
    return RS_PLUGIN_OK;
}

static const rs_plugin_api tc_api = {RS_PLUGIN_ABI_VERSION, 0, tc_eval, tc_advance, 0};

const rs_plugin_api *rs_plugin_entry(void);
const rs_plugin_api *rs_plugin_entry(void) { return &tc_api; }
