/*
 * rt_pendulum — hand-written test model in the generated-code ABI (the code
 * generator does not exist yet).  Simple pendulum, point mass m on a
 * massless rod of length L, angle theta from the downward vertical.
 *   M = m L² (hoisted constant k0),  δ = −m g L sin θ (k1 = m g L)
 *   T = ½ m L² θ̇²,  V = −m g L cos θ
 * Outputs: bob position x = L sin θ, y = −L cos θ  [m].
 * All names static and prefixed (pend_) so several fixtures share one unit.
 */
#include <math.h>
#include "rs_model.h"

enum { PEND_M, PEND_L, PEND_G };

static int pend_constants(const double *const *in, double *const *out)
{
    const double *p = in[RS_IN_P];
    if (out[0]) {
        out[0][0] = p[PEND_M] * p[PEND_L] * p[PEND_L];
        out[0][1] = p[PEND_M] * p[PEND_G] * p[PEND_L];
    }
    return RS_ABI_OK;
}

static int pend_M(const double *const *in, double *const *out)
{
    if (out[0])
        out[0][0] = in[RS_IN_CONST][0];
    return RS_ABI_OK;
}

static int pend_delta(const double *const *in, double *const *out)
{
    if (out[0])
        out[0][0] = -in[RS_IN_CONST][1] * sin(in[RS_IN_Q][0]);
    return RS_ABI_OK;
}

static int pend_energy(const double *const *in, double *const *out)
{
    const double thd = in[RS_IN_QD][0];
    if (out[0])
        out[0][0] = 0.5 * in[RS_IN_CONST][0] * thd * thd;
    if (out[1])
        out[1][0] = -in[RS_IN_CONST][1] * cos(in[RS_IN_Q][0]);
    return RS_ABI_OK;
}

static int pend_outputs(const double *const *in, double *const *out)
{
    const double L = in[RS_IN_P][PEND_L], th = in[RS_IN_Q][0];
    if (out[0]) {
        out[0][0] = L * sin(th);
        out[0][1] = -L * cos(th);
    }
    return RS_ABI_OK;
}

static const char *const pend_q_names[] = {"theta"};
static const char *const pend_p_names[] = {"m", "L", "g"};
static const double pend_p_default[] = {1.0, 1.0, 9.81};
static const char *const pend_out_names[] = {"x", "y"};
static const int pend_M_colptr[] = {0, 1};
static const int pend_M_rowind[] = {0};

static const int pend_len_M[] = {1};
static const int pend_len_delta[] = {1};
static const int pend_len_energy[] = {1, 1};
static const int pend_len_out[] = {2};
static const int pend_len_k[] = {2};
static const char *const pend_on_M[] = {"M"};
static const char *const pend_on_delta[] = {"delta"};
static const char *const pend_on_energy[] = {"T", "V"};
static const char *const pend_on_out[] = {"outputs"};
static const char *const pend_on_k[] = {"k"};

static const rs_model pend_model = {
    .magic = RS_MODEL_MAGIC,
    .version = RS_MODEL_VERSION,
    .name = "rt_pendulum",
    .n_q = 1, .n_s = 0, .n_p = 3, .n_u = 0, .n_const = 2, .n_phi = 0, .n_out = 2,
    .q_names = pend_q_names,
    .p_names = pend_p_names,
    .output_names = pend_out_names,
    .p_default = pend_p_default,
    .M_pattern = {1, 1, pend_M_colptr, pend_M_rowind},
    .phi_q_pattern = {0, 1, 0, 0},
    .fn = {
        [RS_FN_M] = {pend_M, 1, pend_len_M, pend_on_M},
        [RS_FN_DELTA] = {pend_delta, 1, pend_len_delta, pend_on_delta},
        [RS_FN_ENERGY] = {pend_energy, 2, pend_len_energy, pend_on_energy},
        [RS_FN_OUTPUTS] = {pend_outputs, 1, pend_len_out, pend_on_out},
        [RS_FN_CONSTANTS] = {pend_constants, 1, pend_len_k, pend_on_k},
    },
};

const rs_model *rt_pendulum_model(void) { return &pend_model; }
