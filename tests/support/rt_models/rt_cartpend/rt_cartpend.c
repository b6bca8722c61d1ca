/*
 * rt_cartpend — hand-written test model: the pendulum of rt_pendulum in
 * Cartesian coordinates (x, y) of the bob, a second, independent
 * formulation with one holonomic constraint.
 *   M = diag(m, m),  δ = (0, −m g)
 *   φ = x² + y² − L²,  φ_q = [2x, 2y],  β = 0,  γ = −2 (ẋ² + ẏ²)
 *   T = ½ m (ẋ² + ẏ²),  V = m g y
 * Output: theta = atan2(x, −y) (angle from the downward vertical) [rad].
 */
#include <math.h>
#include "rs_model.h"

enum { CART_M, CART_L, CART_G };

static int cart_M(const double *const *in, double *const *out)
{
    const double m = in[RS_IN_P][CART_M];
    if (out[0]) {
        out[0][0] = m;
        out[0][1] = m;
    }
    return RS_ABI_OK;
}

static int cart_delta(const double *const *in, double *const *out)
{
    const double *p = in[RS_IN_P];
    if (out[0]) {
        out[0][0] = 0.0;
        out[0][1] = -p[CART_M] * p[CART_G];
    }
    return RS_ABI_OK;
}

static int cart_phi(const double *const *in, double *const *out)
{
    const double *q = in[RS_IN_Q], L = in[RS_IN_P][CART_L];
    if (out[0])
        out[0][0] = q[0] * q[0] + q[1] * q[1] - L * L;
    return RS_ABI_OK;
}

static int cart_phi_q(const double *const *in, double *const *out)
{
    const double *q = in[RS_IN_Q];
    if (out[0]) {
        out[0][0] = 2 * q[0];
        out[0][1] = 2 * q[1];
    }
    return RS_ABI_OK;
}

static int cart_beta(const double *const *in, double *const *out)
{
    (void)in;
    if (out[0])
        out[0][0] = 0.0;
    return RS_ABI_OK;
}

static int cart_gamma(const double *const *in, double *const *out)
{
    const double *qd = in[RS_IN_QD];
    if (out[0])
        out[0][0] = -2 * (qd[0] * qd[0] + qd[1] * qd[1]);
    return RS_ABI_OK;
}

static int cart_energy(const double *const *in, double *const *out)
{
    const double *p = in[RS_IN_P], *q = in[RS_IN_Q], *qd = in[RS_IN_QD];
    if (out[0])
        out[0][0] = 0.5 * p[CART_M] * (qd[0] * qd[0] + qd[1] * qd[1]);
    if (out[1])
        out[1][0] = p[CART_M] * p[CART_G] * q[1];
    return RS_ABI_OK;
}

static int cart_outputs(const double *const *in, double *const *out)
{
    const double *q = in[RS_IN_Q];
    if (out[0])
        out[0][0] = atan2(q[0], -q[1]);
    return RS_ABI_OK;
}

static const char *const cart_q_names[] = {"x", "y"};
static const char *const cart_p_names[] = {"m", "L", "g"};
static const double cart_p_default[] = {1.0, 1.0, 9.81};
static const char *const cart_phi_names[] = {"rod"};
static const char *const cart_out_names[] = {"theta"};
static const int cart_M_colptr[] = {0, 1, 2};
static const int cart_M_rowind[] = {0, 1};
static const int cart_G_colptr[] = {0, 1, 2};
static const int cart_G_rowind[] = {0, 0};

static const int cart_len_2[] = {2};
static const int cart_len_1[] = {1};
static const int cart_len_energy[] = {1, 1};
static const char *const cart_on_energy[] = {"T", "V"};

static const rs_model cart_model = {
    .magic = RS_MODEL_MAGIC,
    .version = RS_MODEL_VERSION,
    .name = "rt_cartpend",
    .n_q = 2, .n_s = 0, .n_p = 3, .n_u = 0, .n_const = 0, .n_phi = 1, .n_out = 1,
    .q_names = cart_q_names,
    .p_names = cart_p_names,
    .phi_names = cart_phi_names,
    .output_names = cart_out_names,
    .p_default = cart_p_default,
    .M_pattern = {2, 2, cart_M_colptr, cart_M_rowind},
    .phi_q_pattern = {1, 2, cart_G_colptr, cart_G_rowind},
    .fn = {
        [RS_FN_M] = {cart_M, 1, cart_len_2, 0},
        [RS_FN_DELTA] = {cart_delta, 1, cart_len_2, 0},
        [RS_FN_PHI] = {cart_phi, 1, cart_len_1, 0},
        [RS_FN_PHI_Q] = {cart_phi_q, 1, cart_len_2, 0},
        [RS_FN_BETA] = {cart_beta, 1, cart_len_1, 0},
        [RS_FN_GAMMA] = {cart_gamma, 1, cart_len_1, 0},
        [RS_FN_ENERGY] = {cart_energy, 2, cart_len_energy, cart_on_energy},
        [RS_FN_OUTPUTS] = {cart_outputs, 1, cart_len_1, 0},
    },
};

const rs_model *rt_cartpend_model(void) { return &cart_model; }
