/*
 * rs_chain.h — a planar chain of N pendulums in natural coordinates, by the
 * modified state-space method of seed 002 (eq. 9-20), whose linear system
 * is solved by artificial dynamics (the seed's method (a)), by
 * Jacobi-preconditioned conjugate gradients (the Krylov comparison), or
 * directly (band Cholesky, the reference).  docs/massive.md has the
 * equations, the choices and the measurements.
 *
 * Body i (0-based) is a uniform bar of mass m, length L, inertia I about
 * its centre: coordinates s_i = (x_i, y_i, u_i, w_i), its centre of mass S_i
 * and the unit vector v_i = (u_i, w_i) from its joint A_i to its far end
 * B_i.  Kinetic energy ½ m |Ṡ_i|² + ½ I |v̇_i|², so M = diag(m, m, I, I):
 * constant and diagonal.  Three constraints per body, in the order
 *   f[3i], f[3i+1] = A_i − B_{i−1}   (B_{−1}: the fixed pivot, the origin)
 *   f[3i+2]        = ½ (u_i² + w_i² − 1)
 * with A_i = S_i − (L/2) v_i, B_i = S_i + (L/2) v_i.  Gravity −g along y.
 *
 * State: s (4N) and the modified momenta p* = M ṡ + Jᵀ μ (4N).  Each
 * evaluation of the derivatives solves
 *   A μ = b,  A = J M⁻¹ Jᵀ (band, half bandwidth 4, SPD),
 *             b = α f + J M⁻¹ p*
 * then ṡ = M⁻¹ (p* − Jᵀ μ), ṗ* = F + J̇ᵀ μ (eq. 12, 16, 17); RK4 in time.
 *
 * Artificial dynamics (eq. 19-20): D μ̇ + A μ = b integrated by explicit
 * Euler in pseudo-time from the last μ (warm start; by default extrapolated
 * linearly from the μ of the last two steps to the stage's time):
 *   μ_c ← μ_c + (ω / g) (b_c − Σ_d A_cd μ_d) / A_cc
 * i.e. D = (g/ω) diag(A), g = max_c Σ_d |A_cd| / A_cc (Gershgorin's bound
 * on the eigenvalues of diag(A)⁻¹ A, so ω < 2 is stable).  It stops when
 * max_c |b − A μ|_c <= tol · max_c |b_c| (max norms: exact in any order).
 *
 * Threads: thread t of the pool owns the bodies [N t/T, N (t+1)/T) and
 * their constraints; it reads only its neighbours' boundary bodies and
 * multipliers, and the threads meet at one barrier per iteration.  Every
 * value is computed by the same expression whatever the thread count, and
 * the only reductions are maxima, so 1, 2 or T threads give bit-identical
 * results (not with RS_CHAIN_CG, whose dot products are sums: the same
 * bits for a given T only).  Nothing allocates after rs_chain_create; every iteration loop
 * is bounded by max_iter.
 */
#ifndef RS_CHAIN_H
#define RS_CHAIN_H

#include <stddef.h>

typedef struct rs_chain rs_chain;

typedef enum rs_chain_solver {
    RS_CHAIN_ARTIFICIAL = 0,   /* seed 002 (a): D μ̇ + A μ = b to steady state */
    RS_CHAIN_DIRECT = 1,       /* band Cholesky of A (the reference) */
    RS_CHAIN_CG = 2            /* Jacobi-preconditioned conjugate gradients
                                  (rs_artdyn_cg; the last bits depend on T) */
} rs_chain_solver;

typedef struct rs_chain_config {
    int n;              /* bodies, >= 1 */
    double mass;        /* m [kg] */
    double length;      /* L [m] */
    double inertia;     /* I about the centre [kg m²]; <= 0: m L²/12 */
    double gravity;     /* g [m/s²] */
    double alpha;       /* Baumgarte α [1/s], >= 0 */
    rs_chain_solver solver;
    int threads;        /* >= 1 */
    double tol;         /* relative residual (max norm) of the iteration */
    int max_iter;       /* iterations per solve, at most */
    double omega;       /* pseudo-step factor, in (0, 2) */
    int extrapolate;    /* warm start: 0 the last μ (the seed), 1 the last
                           μ extrapolated linearly from the last two steps */
} rs_chain_config;

/* Defaults: 10 bars of 1 kg, 1 m, g 9.81, α 10, artificial, 1 thread,
 * tol 1e-10, max_iter 100000, ω 1.8, extrapolate 1. */
void rs_chain_config_default(rs_chain_config *cfg);

/* RS_OK, RS_E_ARG (a bad field, named in err) or RS_E_NOMEM. */
int rs_chain_create(rs_chain **c, const rs_chain_config *cfg, char *err, size_t errlen);
void rs_chain_free(rs_chain **c);

/* A consistent state from the bars' angles from the downward vertical
 * [rad] and their angular velocities [rad/s] (n each; omega NULL: at rest);
 * μ = 0.  Bar i hangs from the end of bar i−1. */
void rs_chain_set_angles(rs_chain *c, const double *theta, const double *omega);

/* Sets s, p* (4n each) and μ (3n; NULL: 0) as they are: for copying one
 * chain's state into another (a second solver from the same state). */
void rs_chain_set_state(rs_chain *c, const double *s, const double *p, const double *mu);

/* One RK4 step of h [s]: four solves.  RS_OK, RS_E_NOCONV (max_iter reached),
 * RS_E_SINGULAR (direct), RS_E_NONFINITE; the message in err. */
int rs_chain_step(rs_chain *c, double h, char *err, size_t errlen);

/* One solve of A μ = b at the current state with the configured solver,
 * μ warm-started from (and returned in) mu (3n); *iters the iterations
 * (0 for direct).  For tests: RS_E_NOCONV leaves the last iterate in mu. */
int rs_chain_solve(rs_chain *c, double *mu, int max_iter, int *iters, char *err, size_t errlen);

/* A and b at the current state: A as a dense 3n × 3n column-major matrix
 * (zeros outside the band), b as 3n values (either may be NULL). */
void rs_chain_system(rs_chain *c, double *A_dense, double *b);

int rs_chain_bodies(const rs_chain *c);
const double *rs_chain_coords(const rs_chain *c);    /* s, 4n */
const double *rs_chain_momenta(const rs_chain *c);   /* p*, 4n */
const double *rs_chain_mu(const rs_chain *c);        /* μ, 3n */
double rs_chain_angle(const rs_chain *c, int i);     /* atan2(u_i, −w_i) */
/* Kinetic + potential energy [J], the velocities from a direct solve at
 * the current state (serial; for checks, not the step). */
double rs_chain_energy(rs_chain *c);
/* Largest |f| of the joint constraints [m] and of the unit ones. */
double rs_chain_joint_violation(const rs_chain *c);
double rs_chain_unit_violation(const rs_chain *c);
/* The pseudo-step ω/g of the last artificial solve. */
double rs_chain_last_tau(const rs_chain *c);

typedef struct rs_chain_stats {
    long solves;        /* solves of A μ = b */
    long iters;         /* artificial or CG iterations, all solves */
    int max_iters;      /* the most in one solve */
} rs_chain_stats;
rs_chain_stats rs_chain_get_stats(const rs_chain *c);

#endif /* RS_CHAIN_H */
