/*
 * rs_ltrain.h — a longitudinal train in natural coordinates: seed 002's
 * two methods for trains (docs/massive.md, "Trains in natural
 * coordinates").
 *
 * Vehicle i (0-based, front first) has one coordinate, s_i, its position
 * along the track [m], and the constant mass m_i = m_body + 2 m_bogie of
 * the built-in wagon or locomotive (rs_train.h), so M = diag(m_i).  Its
 * force is
 *   F_i(t, v) = traction_i(t) − m_i g (r0 v/√(v² + v_s²) + r1 v) − m_i g sin γ
 * (traction constant or a table, rolling resistance as rs_train.h, γ the
 * grade, uphill positive).  Coupler i joins vehicle i and i + 1 at the
 * distance d_i = l_rear,i + length_i + l_front,i+1 (its coupling points at
 * e = 0, as rs_coupler_force with pitch 0); its elongation is
 * e_i = s_i − s_{i+1} − d_i, its tension T_i.
 *
 * Rigid couplers (RS_LTRAIN_ARTIFICIAL, RS_LTRAIN_DIRECT, RS_LTRAIN_CG): the constraints
 * f_i = e_i = 0, J = ∂f/∂s (+1 at i, −1 at i + 1, constant), the modified
 * state-space method of seed 002 (eq. 9-20) with modified momenta
 * p* = M ṡ + Jᵀ μ: each evaluation solves
 *   A μ = b,  A = J M⁻¹ Jᵀ (tridiagonal SPD, constant),  b = α f + J M⁻¹ p*
 * then ṡ = M⁻¹ (p* − Jᵀ μ), ṗ* = F(t, ṡ) (J̇ = 0); RK4 in time.  A μ = b
 * by the artificial dynamics of rs_artdyn.h (D from A's diagonal, warm
 * start extrapolated from the last two steps as rs_chain does, the
 * convergence test on the max-norm residual), by conjugate gradients
 * (rs_artdyn_cg, the same warm start and test) or directly (tridiagonal
 * Cholesky, the reference).  Velocity-level Baumgarte: J ṡ = −α f, so a
 * violation decays as e^{−α t}.  The tension is the Lagrange multiplier
 * λ = μ̇, which the queries get from A λ = J M⁻¹ F + α J ṡ.
 *
 * Stiff couplers (RS_LTRAIN_HMM, RS_LTRAIN_RESOLVED): T_i = k_i e_i + c_i ė_i
 * (no slack: the coupler's slack must be 0), so
 *   m_i s̈_i = F_i(t, ṡ_i) − T_i + T_{i−1}
 * decoupled per vehicle; integrated by the heterogeneous multiscale method
 * of rs_hmm.h (micro RK4 at δ over the micro-interval η, sin⁴-kernel
 * averages of the tensions, states and accelerations with their lag taken
 * off, then each vehicle alone by one RK4 macro step under its two
 * couplers' averaged tensions extrapolated linearly), or by RK4 at δ
 * everywhere (the reference).  Frequencies: the highest is below
 * ω_max = 2 √(k_max/m_min); δ <= 0 takes 20 steps per period of
 * ρ = ω_max + 4 c_max/m_min (the spectral radius's bound with damping).
 * The lowest is at least ω_1 = 2 √(k_min/m_max) sin(π/(2n)) (n masses on
 * n − 1 springs, free at both ends; lighter masses or stiffer springs only
 * raise it), and η <= 0 takes rs_hmm_interval_rule(ω_1, macro_step).
 *
 * Threads: thread t owns the vehicles [n t/T, n (t+1)/T) and the couplers
 * with the same indices; it reads only its neighbours' boundary vehicle,
 * multiplier or averaged tension, and the threads meet at barriers.  Every
 * value is computed by the same expression whatever the thread count and
 * the only reductions are maxima, so 1, 2 or T threads give bit-identical
 * results (not with RS_LTRAIN_CG, whose dot products are sums: the same
 * bits for a given T only).  Nothing allocates after rs_ltrain_create; every loop is
 * bounded (max_iter; the micro steps fixed at create; a resolved step of
 * at most 1e9 micro steps).
 */
#ifndef RS_LTRAIN_H
#define RS_LTRAIN_H

#include <stddef.h>

#include "rs_hmm.h"
#include "rs_train.h"

typedef struct rs_ltrain rs_ltrain;

typedef enum rs_ltrain_method {
    RS_LTRAIN_ARTIFICIAL = 0,   /* rigid couplers: seed 002 (a), artificial dynamics */
    RS_LTRAIN_DIRECT = 1,       /* rigid couplers: tridiagonal Cholesky (the reference) */
    RS_LTRAIN_HMM = 2,          /* stiff couplers: seed 002 (b), the HMM */
    RS_LTRAIN_RESOLVED = 3,     /* stiff couplers: RK4 at the micro step (the reference) */
    RS_LTRAIN_CG = 4            /* rigid couplers: Jacobi-preconditioned conjugate
                                   gradients (rs_artdyn_cg; the last bits depend on T) */
} rs_ltrain_method;

typedef struct rs_ltrain_config {
    int n;                 /* vehicles, >= 1 (>= 2 for the stiff methods) */
    const rs_wagon *veh;   /* n built-in vehicles (no compiled model); copied */
    const rs_coupler *cpl; /* n − 1: length always; k, c for stiff (slack 0, k_buffer 0); copied */
    const char *const *names;   /* n vehicle names for messages (NULL: v1, v2, ...); couplers are c1, c2, ... */
    double grade;          /* γ [rad], uphill positive */
    rs_ltrain_method method;
    int threads;           /* >= 1 */
    /* rigid */
    double alpha;          /* Baumgarte α [1/s], >= 0 */
    double tol;            /* relative residual (max norm) of the iteration */
    int max_iter;          /* iterations per solve, at most */
    double omega;          /* pseudo-step factor, in (0, 2) */
    int extrapolate;       /* warm start: 0 the last μ, 1 extrapolated linearly */
    int direct_first;      /* artificial only (not CG): 1 solves the first step after a start
                              or set_state directly (from μ = 0 the tension must
                              cross the train: about N² iterations), 0 does not */
    /* stiff */
    rs_hmm_kernel kernel;
    double micro_step;     /* δ [s]; <= 0: automatic */
    double micro_interval; /* η [s]; <= 0: automatic for macro_step */
    double macro_step;     /* H [s] the run will take (HMM, automatic η) */
} rs_ltrain_config;

/* Defaults: no vehicles (set n, veh, cpl), grade 0, artificial, 1 thread,
 * α 10, tol 1e-10, max_iter 100000, ω 1.8, extrapolate 1, direct_first 1;
 * sin⁴ kernel, δ
 * and η automatic, macro step 10 ms. */
void rs_ltrain_config_default(rs_ltrain_config *cfg);

/* ω_1 and ρ of the stiff model (above) [rad/s]; 0 when n < 2. */
double rs_ltrain_lowest_frequency(const rs_ltrain_config *cfg);
double rs_ltrain_highest_rate(const rs_ltrain_config *cfg);

/* RS_OK, RS_E_ARG (the field, vehicle or coupler named in err, with the
 * fix) or RS_E_NOMEM. */
int rs_ltrain_create(rs_ltrain **lt, const rs_ltrain_config *cfg, char *err, size_t errlen);
void rs_ltrain_free(rs_ltrain **lt);

/* The front vehicle at x_front, each next one behind it at e = 0, all
 * moving at v0 [m/s]; time t0; μ = 0, no history. */
void rs_ltrain_start(rs_ltrain *lt, double t0, double x_front, double v0);
/* Positions and velocities as given (n each): p* = M v, μ = 0. */
void rs_ltrain_set_state(rs_ltrain *lt, double t, const double *s, const double *v);

/* The state of src (positions, momenta or velocities, μ and its warm-start
 * history, time) into dst: the same vehicles and the same kind of
 * couplers (RS_E_ARG otherwise), e.g. a direct train's state to start an
 * artificial one warm.  An HMM starts its averages afresh. */
int rs_ltrain_copy_state(rs_ltrain *dst, const rs_ltrain *src, char *err, size_t errlen);

/* Rigid: one RK4 step of h (four solves).  HMM: one macro step of h
 * (h >= η).  Resolved: ceil(h/δ) RK4 steps of at most δ.  RS_OK, RS_E_ARG,
 * RS_E_NOCONV (max_iter), RS_E_SINGULAR (direct), RS_E_NONFINITE; the
 * message in err. */
int rs_ltrain_step(rs_ltrain *lt, double h, char *err, size_t errlen);

/* Rigid, for tests: one solve of A μ = b at the current state with the
 * configured solver from (and into) mu (n − 1); *iters its iterations.
 * A dense (n−1)², column-major, and b at the current state (NULL: skip). */
int rs_ltrain_solve(rs_ltrain *lt, double *mu, int max_iter, int *iters, char *err, size_t errlen);
void rs_ltrain_system(const rs_ltrain *lt, double *A_dense, double *b);

int rs_ltrain_vehicles(const rs_ltrain *lt);
double rs_ltrain_time(const rs_ltrain *lt);
double rs_ltrain_mass(const rs_ltrain *lt, int i);      /* m_i [kg] */
double rs_ltrain_distance(const rs_ltrain *lt, int c);  /* d_c [m] */
const double *rs_ltrain_coords(const rs_ltrain *lt);    /* s, n */
/* At the current state (serial, allocation-free; for output and checks):
 * velocities (n), tensions T (n − 1, NULL: skip) and accelerations (n, NULL:
 * skip).  Rigid: ṡ and λ by direct solves; stiff: the state and k e + c ė.
 * RS_OK or RS_E_SINGULAR. */
int rs_ltrain_eval(rs_ltrain *lt, double *v, double *tension, double *accel);
/* Largest |e_i| [m]. */
double rs_ltrain_max_elongation(const rs_ltrain *lt);
/* Rigid: μ (n − 1) and the last pseudo-step; HMM: the last macro step's
 * averaged tensions T̄ (n − 1). */
const double *rs_ltrain_mu(const rs_ltrain *lt);
double rs_ltrain_last_tau(const rs_ltrain *lt);
const double *rs_ltrain_avg_tension(const rs_ltrain *lt);
double rs_ltrain_micro_step(const rs_ltrain *lt);      /* δ in use [s] */
double rs_ltrain_micro_interval(const rs_ltrain *lt);  /* η in use [s] */

typedef struct rs_ltrain_stats {
    long solves, iters;    /* rigid: solves of A μ = b, artificial or CG iterations */
    int max_iters;         /* the most in one solve */
    long macro_steps, micro_steps;   /* stiff */
} rs_ltrain_stats;
rs_ltrain_stats rs_ltrain_get_stats(const rs_ltrain *lt);

#endif /* RS_LTRAIN_H */
