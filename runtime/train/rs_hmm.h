/*
 * rs_hmm.h — seed 002's method (b): the pendulum chain of rs_chain.h with
 * its revolute joints replaced by stiff spring-dampers, integrated by a
 * heterogeneous multiscale method (HMM).  docs/massive.md has the
 * equations, the choices and the measurements.
 *
 * Body i (0-based) is a uniform bar of mass m, length L, inertia I about
 * its centre (the same bars as rs_chain).  Its coordinates are its centre
 * of mass S_i = (x_i, y_i) and its angle θ_i from the downward vertical, so
 * its mass matrix diag(m, m, I) is constant and diagonal: the bodies'
 * equations are decoupled (the seed's eq. 8 with A_i at the centre).
 * v_i = (sin θ_i, −cos θ_i) points from the joint end A_i = S_i − (L/2) v_i
 * to the far end B_i = S_i + (L/2) v_i.  Joint j joins A_j to B_{j−1}
 * (B_{−1}: the fixed pivot, the origin) by a spring-damper:
 *   g_j = A_j − B_{j−1},   F_j = −k g_j − c ġ_j   (on body j at A_j,
 *                                                  −F_j on body j−1 at B_{j−1})
 *   m S̈_i = F_i − F_{i+1} + (0, −m g)
 *   I θ̈_i = r_A × F_i − r_B × F_{i+1},   r_A = −(L/2) v_i, r_B = (L/2) v_i
 * (F_n = 0).  k, c are the same for every joint.
 *
 * Two integrations of these equations:
 *   RS_HMM_RESOLVED  RK4 with the micro step δ everywhere (the reference).
 *   RS_HMM_AVERAGED  the HMM: each macro step of H
 *     1. micro: RK4 at step δ over the micro-interval [t, t + η] from the
 *        macro state;
 *     2. averaging with a kernel K (weights on the micro grid, sum 1; sin⁴
 *        by default): the joint forces F̄_j, the bodies' states q̄, v̄ and
 *        accelerations ā.  The averages belong to the kernel's centre
 *        t_c = t + η/2 and lag it by ½ σ² times their second derivative
 *        (σ² the kernel's variance): q̄ by ½ σ² ā, v̄ by ½ σ² ȧ, F̄ by ½ σ² F̈,
 *        which are taken off, ȧ and F̈ by differences over the last macro
 *        steps (none at the first, one for ȧ at the second);
 *     3. macro: each body alone from (q_c, v_c) at t_c to t + H by RK4 with
 *        the joint forces F_j + (τ − t_c) Ḟ_j, Ḟ_j the slope between the
 *        last two macro steps' F̄_j (0 at the first).
 *   The filtered state (2) starts the next micro-interval close to the slow
 *   motion: what the macro step leaves of a joint's ringing reaches the
 *   next averages only through the kernel's leakage, which the automatic
 *   micro-interval keeps small enough for the error not to grow from one
 *   macro step to the next.
 *
 * Frequencies: a bar end has the point mass m_e = 1/(1/m + L²/(4I)) across
 * the bar (m/4 for a uniform bar), a joint the mass m_J = m_e/2 and the
 * frequency ω_J = sqrt(k/m_J); the chain's highest is at most 2 ω_J.
 * Defaults when the fields are <= 0: δ = 2π/(2 ω_J)/20 (20 steps per
 * period of the highest frequency), η = the rule of rs_hmm_auto_interval().
 *
 * Threads: thread t of the pool owns the bodies [N t/T, N (t+1)/T) and the
 * joints with the same indices; it reads its neighbours' boundary bodies
 * and the average of the one joint beyond its range, and the threads meet
 * at one barrier per RK4 stage (and one per macro step).  Every value is
 * computed by the same expression whatever the thread count and there is no
 * reduction, so 1, 2 or T threads give bit-identical results.  Nothing
 * allocates after rs_hmm_create; every loop is bounded: a macro step runs
 * the m micro steps fixed there, a resolved step ceil(H/δ) <= 1e9.
 */
#ifndef RS_HMM_H
#define RS_HMM_H

#include <stddef.h>

typedef struct rs_hmm rs_hmm;

typedef enum rs_hmm_mode {
    RS_HMM_AVERAGED = 0,   /* the HMM: micro-interval, averages, macro step */
    RS_HMM_RESOLVED = 1    /* RK4 at the micro step everywhere (the reference) */
} rs_hmm_mode;

typedef enum rs_hmm_kernel {
    RS_HMM_KERNEL_SIN4 = 0, /* K(s) = sin⁴ πs on [0, 1]: K and its first three derivatives vanish at both ends */
    RS_HMM_KERNEL_COS = 1,  /* K(s) = 1 − cos 2πs = 2 sin² πs: K, K' vanish at both ends */
    RS_HMM_KERNEL_BOX = 2   /* K(s) = 1, the plain mean (trapezoid weights) */
} rs_hmm_kernel;

typedef struct rs_hmm_config {
    int n;                 /* bodies, >= 1 */
    double mass;           /* m [kg] */
    double length;         /* L [m] */
    double inertia;        /* I about the centre [kg m²]; <= 0: m L²/12 */
    double gravity;        /* g [m/s²], >= 0 */
    double stiffness;      /* k [N/m] of every joint, > 0 */
    double damping;        /* c [N s/m] of every joint, >= 0 */
    rs_hmm_mode mode;
    rs_hmm_kernel kernel;
    int threads;           /* >= 1 */
    double micro_step;     /* δ [s]; <= 0: 20 steps per period of 2 ω_J */
    double micro_interval; /* η [s]; <= 0: rs_hmm_auto_interval() */
    double macro_step;     /* H [s] the run will take (averaged, automatic η only) */
} rs_hmm_config;

/* Defaults: 10 bars of 1 kg, 1 m, g 9.81, k 1e10 N/m, damping ratio 0.2 of
 * the joint frequency (rs_hmm_damping_for_ratio), averaged, cosine kernel,
 * 1 thread, δ and η automatic, macro step 10 ms. */
void rs_hmm_config_default(rs_hmm_config *cfg);

/* ω_J = sqrt(k/m_J) [rad/s] of cfg (inertia <= 0 taken as m L²/12). */
double rs_hmm_joint_frequency(const rs_hmm_config *cfg);
/* c = 2 ζ sqrt(k m_J): the damping of ratio ζ at the joint frequency. */
double rs_hmm_damping_for_ratio(const rs_hmm_config *cfg, double zeta);
/* The lowest joint mode of the chain, ω_1 = 2 sqrt(k/m) sin(π / (2 (2n + 1)))
 * [rad/s]: n joint springs in series, bars as point masses m, one end
 * fixed (the bars' axial mode, the lowest the joints have). */
double rs_hmm_lowest_frequency(const rs_hmm_config *cfg);
/* The automatic micro-interval η [s] for the macro step cfg->macro_step
 * (docs/massive.md, "The micro-interval"): P periods of ω_1, P the least
 * with RS_HMM_LEAK (P/4)^−5 (ω_1 H)² <= RS_HMM_GAIN and at least
 * RS_HMM_MIN_PERIODS.  (P/4)^−5 RS_HMM_LEAK is the sin⁴ kernel's leakage of
 * a decaying oscillation of P periods; (ω_1 H)² turns a force error into the
 * joint opening after a macro step, so their product is the gain of an
 * error from one macro step to the next. */
#define RS_HMM_LEAK 7.6e-4
#define RS_HMM_GAIN 0.1
#define RS_HMM_MIN_PERIODS 4.0
double rs_hmm_auto_interval(const rs_hmm_config *cfg);
/* The same rule for any lowest frequency w1 [rad/s] and macro step H [s]
 * (the longitudinal train's, rs_ltrain.h). */
double rs_hmm_interval_rule(double w1, double H);
/* The kernel's weights w on the grid τ_j = j δ, j = 0..m (m + 1 values, sum
 * 1), the derivative weights wd (−K'/η scaled so that a line's slope comes
 * out exactly), the kernel's centre *tbar = Σ w_j τ_j and variance *var. */
void rs_hmm_kernel_weights(rs_hmm_kernel kernel, int m, double delta, double *w, double *wd, double *tbar,
                           double *var);

/* RS_OK, RS_E_ARG (a bad field, named in err; averaged: also a
 * micro-interval longer than a given macro_step) or RS_E_NOMEM. */
int rs_hmm_create(rs_hmm **h, const rs_hmm_config *cfg, char *err, size_t errlen);
void rs_hmm_free(rs_hmm **h);

/* The rigid chain's state from the bars' angles from the downward vertical
 * [rad] and angular velocities [rad/s] (omega NULL: at rest): every joint
 * closed (g = 0) and moving together; t = 0, no macro history. */
void rs_hmm_set_angles(rs_hmm *h, const double *theta, const double *omega);

/* Advances by H [s]: averaged, one macro step (H >= the micro-interval η,
 * else RS_E_ARG); resolved, ceil(H/δ) equal RK4 steps of at most δ.
 * RS_OK, RS_E_ARG or RS_E_NONFINITE (the message in err). */
int rs_hmm_step(rs_hmm *h, double H, char *err, size_t errlen);

int rs_hmm_bodies(const rs_hmm *h);
double rs_hmm_time(const rs_hmm *h);
double rs_hmm_micro_step(const rs_hmm *h);      /* δ in use [s] */
double rs_hmm_micro_interval(const rs_hmm *h);  /* η in use [s] (the grid's length) */
const double *rs_hmm_coords(const rs_hmm *h);   /* (x, y, θ) per body, 3n */
const double *rs_hmm_rates(const rs_hmm *h);    /* (ẋ, ẏ, θ̇) per body, 3n */
double rs_hmm_angle(const rs_hmm *h, int i);    /* θ_i */
/* Kinetic + gravity + spring energy [J] at the current state. */
double rs_hmm_energy(const rs_hmm *h);
/* Largest |g_j| [m]: the joints' opening. */
double rs_hmm_max_gap(const rs_hmm *h);
/* The last macro step's averaged joint force F̄_j (2 values: x, y) [N]. */
void rs_hmm_avg_force(const rs_hmm *h, int j, double F[2]);

typedef struct rs_hmm_stats {
    long macro_steps;   /* averaged steps */
    long micro_steps;   /* RK4 steps at δ, both modes */
} rs_hmm_stats;
rs_hmm_stats rs_hmm_get_stats(const rs_hmm *h);

#endif /* RS_HMM_H */
