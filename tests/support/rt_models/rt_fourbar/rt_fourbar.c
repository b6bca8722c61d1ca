/*
 * rt_fourbar — hand-written test model: planar four-bar linkage, three
 * uniform bars in a vertical plane (gravity −y), angles from the x axis:
 *   crank   O=(0,0) → A = O + L1 e(θ1)      mass m1
 *   coupler A → B = A + L2 e(θ2)              mass m2
 *   rocker  D=(d,0) → B = D + L3 e(θ3)        mass m3
 * Loop closure (2 constraints, B reached both ways):
 *   φ = (L1 c1 + L2 c2 − L3 c3 − d,  L1 s1 + L2 s2 − L3 s3)
 * Lagrange's equations by hand (κ = m2 L1 L2 / 2, s12 = sin(θ1 − θ2)):
 *   M = [m1 L1²/3 + m2 L1²,  κ cos(θ1−θ2), 0; κ cos(θ1−θ2), m2 L2²/3, 0; 0, 0, m3 L3²/3]
 *   δ = (τ − (m1/2 + m2) g L1 c1 − κ s12 θ̇2²,
 *        −m2 g L2 c2 / 2 + κ s12 θ̇1²,
 *        −m3 g L3 c3 / 2)
 *   γ = (L1 c1 θ̇1² + L2 c2 θ̇2² − L3 c3 θ̇3²,  L1 s1 θ̇1² + L2 s2 θ̇2² − L3 s3 θ̇3²)
 * Input u = tau, a torque on the crank [N m].  Outputs: B = (Bx, By) [m].
 */
#include <math.h>
#include "rs_model.h"

enum { FB_L1, FB_L2, FB_L3, FB_D, FB_M1, FB_M2, FB_M3, FB_G };

static int fb_M(const double *const *in, double *const *out)
{
    const double *p = in[RS_IN_P], *q = in[RS_IN_Q];
    const double kap = 0.5 * p[FB_M2] * p[FB_L1] * p[FB_L2];
    double *v = out[0];
    if (!v)
        return RS_ABI_OK;
    /* CSC order: (0,0) (1,0) (0,1) (1,1) (2,2) */
    v[0] = (p[FB_M1] / 3 + p[FB_M2]) * p[FB_L1] * p[FB_L1];
    v[1] = kap * cos(q[0] - q[1]);
    v[2] = v[1];
    v[3] = p[FB_M2] * p[FB_L2] * p[FB_L2] / 3;
    v[4] = p[FB_M3] * p[FB_L3] * p[FB_L3] / 3;
    return RS_ABI_OK;
}

static int fb_delta(const double *const *in, double *const *out)
{
    const double *p = in[RS_IN_P], *q = in[RS_IN_Q], *qd = in[RS_IN_QD];
    const double kap = 0.5 * p[FB_M2] * p[FB_L1] * p[FB_L2], s12 = sin(q[0] - q[1]);
    const double g = p[FB_G];
    double *v = out[0];
    if (!v)
        return RS_ABI_OK;
    v[0] = in[RS_IN_U][0] - (0.5 * p[FB_M1] + p[FB_M2]) * g * p[FB_L1] * cos(q[0]) -
           kap * s12 * qd[1] * qd[1];
    v[1] = -0.5 * p[FB_M2] * g * p[FB_L2] * cos(q[1]) + kap * s12 * qd[0] * qd[0];
    v[2] = -0.5 * p[FB_M3] * g * p[FB_L3] * cos(q[2]);
    return RS_ABI_OK;
}

static int fb_phi(const double *const *in, double *const *out)
{
    const double *p = in[RS_IN_P], *q = in[RS_IN_Q];
    if (out[0]) {
        out[0][0] = p[FB_L1] * cos(q[0]) + p[FB_L2] * cos(q[1]) - p[FB_L3] * cos(q[2]) - p[FB_D];
        out[0][1] = p[FB_L1] * sin(q[0]) + p[FB_L2] * sin(q[1]) - p[FB_L3] * sin(q[2]);
    }
    return RS_ABI_OK;
}

static int fb_phi_q(const double *const *in, double *const *out)
{
    const double *p = in[RS_IN_P], *q = in[RS_IN_Q];
    double *v = out[0];
    if (!v)
        return RS_ABI_OK;
    /* dense 2 × 3, column by column */
    v[0] = -p[FB_L1] * sin(q[0]);
    v[1] = p[FB_L1] * cos(q[0]);
    v[2] = -p[FB_L2] * sin(q[1]);
    v[3] = p[FB_L2] * cos(q[1]);
    v[4] = p[FB_L3] * sin(q[2]);
    v[5] = -p[FB_L3] * cos(q[2]);
    return RS_ABI_OK;
}

static int fb_beta(const double *const *in, double *const *out)
{
    (void)in;
    if (out[0])
        out[0][0] = out[0][1] = 0.0;
    return RS_ABI_OK;
}

static int fb_gamma(const double *const *in, double *const *out)
{
    const double *p = in[RS_IN_P], *q = in[RS_IN_Q], *qd = in[RS_IN_QD];
    const double w1 = qd[0] * qd[0], w2 = qd[1] * qd[1], w3 = qd[2] * qd[2];
    if (out[0]) {
        out[0][0] = p[FB_L1] * cos(q[0]) * w1 + p[FB_L2] * cos(q[1]) * w2 -
                    p[FB_L3] * cos(q[2]) * w3;
        out[0][1] = p[FB_L1] * sin(q[0]) * w1 + p[FB_L2] * sin(q[1]) * w2 -
                    p[FB_L3] * sin(q[2]) * w3;
    }
    return RS_ABI_OK;
}

static int fb_energy(const double *const *in, double *const *out)
{
    const double *p = in[RS_IN_P], *q = in[RS_IN_Q], *qd = in[RS_IN_QD];
    const double L1 = p[FB_L1], L2 = p[FB_L2], L3 = p[FB_L3], g = p[FB_G];
    const double kap = 0.5 * p[FB_M2] * L1 * L2;
    if (out[0])
        out[0][0] = 0.5 * (p[FB_M1] / 3 + p[FB_M2]) * L1 * L1 * qd[0] * qd[0] +
                    kap * cos(q[0] - q[1]) * qd[0] * qd[1] +
                    0.5 * p[FB_M2] * L2 * L2 / 3 * qd[1] * qd[1] +
                    0.5 * p[FB_M3] * L3 * L3 / 3 * qd[2] * qd[2];
    if (out[1])
        out[1][0] = g * (p[FB_M1] * 0.5 * L1 * sin(q[0]) +
                         p[FB_M2] * (L1 * sin(q[0]) + 0.5 * L2 * sin(q[1])) +
                         p[FB_M3] * 0.5 * L3 * sin(q[2]));
    return RS_ABI_OK;
}

static int fb_outputs(const double *const *in, double *const *out)
{
    const double *p = in[RS_IN_P], *q = in[RS_IN_Q];
    if (out[0]) {
        out[0][0] = p[FB_L1] * cos(q[0]) + p[FB_L2] * cos(q[1]);
        out[0][1] = p[FB_L1] * sin(q[0]) + p[FB_L2] * sin(q[1]);
    }
    return RS_ABI_OK;
}

static const char *const fb_q_names[] = {"th1", "th2", "th3"};
static const char *const fb_p_names[] = {"L1", "L2", "L3", "d", "m1", "m2", "m3", "g"};
static const double fb_p_default[] = {0.3, 1.0, 0.8, 1.0, 1.0, 2.0, 1.5, 9.81};
static const char *const fb_u_names[] = {"tau"};
static const char *const fb_phi_names[] = {"loop_x", "loop_y"};
static const char *const fb_out_names[] = {"Bx", "By"};
static const int fb_M_colptr[] = {0, 2, 4, 5};
static const int fb_M_rowind[] = {0, 1, 0, 1, 2};
static const int fb_G_colptr[] = {0, 2, 4, 6};
static const int fb_G_rowind[] = {0, 1, 0, 1, 0, 1};

static const int fb_len_M[] = {5};
static const int fb_len_3[] = {3};
static const int fb_len_2[] = {2};
static const int fb_len_G[] = {6};
static const int fb_len_energy[] = {1, 1};

static const rs_model fb_model = {
    .magic = RS_MODEL_MAGIC,
    .version = RS_MODEL_VERSION,
    .name = "rt_fourbar",
    .n_q = 3, .n_s = 0, .n_p = 8, .n_u = 1, .n_const = 0, .n_phi = 2, .n_out = 2,
    .q_names = fb_q_names,
    .p_names = fb_p_names,
    .u_names = fb_u_names,
    .phi_names = fb_phi_names,
    .output_names = fb_out_names,
    .p_default = fb_p_default,
    .M_pattern = {3, 3, fb_M_colptr, fb_M_rowind},
    .phi_q_pattern = {2, 3, fb_G_colptr, fb_G_rowind},
    .fn = {
        [RS_FN_M] = {fb_M, 1, fb_len_M, 0},
        [RS_FN_DELTA] = {fb_delta, 1, fb_len_3, 0},
        [RS_FN_PHI] = {fb_phi, 1, fb_len_2, 0},
        [RS_FN_PHI_Q] = {fb_phi_q, 1, fb_len_G, 0},
        [RS_FN_BETA] = {fb_beta, 1, fb_len_2, 0},
        [RS_FN_GAMMA] = {fb_gamma, 1, fb_len_2, 0},
        [RS_FN_ENERGY] = {fb_energy, 2, fb_len_energy, 0},
        [RS_FN_OUTPUTS] = {fb_outputs, 1, fb_len_2, 0},
    },
};

const rs_model *rt_fourbar_model(void) { return &fb_model; }
