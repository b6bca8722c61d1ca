/*
 * rs_linear.h — linear stability analysis from the symbolic model
 * (`railsym linear`, docs/linear.md).
 *
 * At a state (q0, q̇0) — the scenario's initial state with the running speed
 * V applied by rs_speed.h and the contact points solved — the equations of
 * motion  M q̈ = δ(q, q̇) + D f − φ_qᵀ λ,  φ(q) = 0  are linearized:
 *
 *   M                        RS_FN_M at (q0, q̇0)
 *   K = K_δ + K_λ + K_f      K_δ = −∂δ/∂q   (RS_FN_DELTA_JAC, creep inputs 0)
 *   C = C_δ + C_f            C_δ = −∂δ/∂q̇   (RS_FN_DELTA_JAC)
 *
 *   K_λ = ∂(φ_qᵀ λ0)/∂q      the normal forces' geometric (gravitational)
 *                            stiffness; λ0 from [M φ_qᵀ; φ_q 0][q̈; λ] =
 *                            [δ + D f0; γ]; central differences of φ_q(q)
 *                            with the contact points re-solved at each q
 *   f  = −Cb ν               linear Kalker: Cb the runtime's creep block
 *                            (rs_contact_creep_block) at N0 = −λ0,
 *                            re-formed at each displaced state's radii and
 *                            V as the step does; its variation with N is
 *                            first order too (the steady spin creepage
 *                            ν0 ≠ 0): K, C are multiplied by T
 *                            (rs_linear_load.c)
 *   C_f = D Cb ∂ν/∂q̇         the implicit creep Jacobian C^K_qq (RS_FN_CREEP)
 *   K_f = −∂(D f)/∂q         central differences, contact points re-solved
 *
 * The constraints are removed by a null-space basis N of φ_q (LAPACK's SVD:
 * q = q0 + N x), giving  Mr ẍ + Cr ẋ + Kr x = 0  with Mr = NᵀMN, ..., and
 * the first-order eigenproblem of [x; ẋ] is solved by LAPACK's dgeev.
 * Internal states z (ż = a(q, q̇) + b z, RS_FN_ZDOT) add their rows:
 *   Mr ẍ + Cr ẋ + Kr x + NᵀKz z = 0,  ż = Zq N x + Zv N ẋ + diag(b) z,
 * Kz = −∂δ/∂z, Zq = ∂ż/∂q, Zv = ∂ż/∂q̇ by central differences (the forces
 * are linear in z, ż linear in q̇: the differences are exact but for
 * rounding), b exact; the eigenproblem of [x; ẋ; z] has size 2 r + n_z.
 * Left out: ∂M/∂q q̈0 (q̈0 = 0 in steady running).  Checked against the
 * runtime's own dynamics by finite differences, entry by entry
 * (tests/physics/test_linear_fd.c, the S1002 wheelset).
 *
 * Each mode: eigenvalue s = re ± i im, frequency f = im / 2π [Hz], damping
 * ratio ζ = −re / |s| (1 for a decaying real mode, −1 a diverging one),
 * its dominant coordinates: the largest shares of the mode's kinetic
 * energy (rs_linear_energy_shares; not the raw entries of N v, where a
 * radian of wheel spin would outweigh a metre of the car body).  A mode with
 * |s| < 1e-7 max|s| is rigid (free translation or spin): kept, flagged,
 * and never the least damped.
 */
#ifndef RS_LINEAR_H
#define RS_LINEAR_H

#include <stddef.h>

#include "rs_load.h"
#include "rs_log.h"
#include "rs_ws.h"

#define RS_LINEAR_DOM 3   /* dominant coordinates kept per mode */

typedef struct rs_linear_mode {
    double re, im;        /* eigenvalue [1/s], im >= 0 (one of each pair)   */
    double freq;          /* im / 2π [Hz]                                   */
    double zeta;          /* −re / |s|                                      */
    int rigid;            /* |s| below the rigid-mode threshold             */
    int dom[RS_LINEAR_DOM];      /* coordinate indices (-1: none)           */
    double dom_share[RS_LINEAR_DOM]; /* their shares of the kinetic energy  */
    const double *share;  /* n_q shares of the kinetic energy (sum 1), in
                             rs_linear_modes.share; NULL: not known         */
} rs_linear_mode;

/* The modes at one state, least damped first (rigid modes last). */
typedef struct rs_linear_modes {
    double speed;         /* V [m/s] (NaN: the state as the scenario gives it) */
    int n;                /* modes (oscillatory pairs counted once)          */
    rs_linear_mode *mode; /* n, owned                                        */
    int n_red;            /* reduced degrees of freedom (n_q − rank φ_q)     */
    int least;            /* index of the least-damped non-rigid mode, -1    */
    int n_q;              /* entries of each mode's share                    */
    double *share;        /* n × n_q, owned: the modes' share arrays         */
    double rest_acc;      /* rs_linear_system's: how far the state is from rest */
    int rest_at;          /* its coordinate (-1: none)                       */
} rs_linear_modes;

void rs_linear_modes_free(rs_linear_modes *m);

/* The matrices at the workspace's current state (after rs_ws_init): dense,
 * column-major n_q × n_q; any output may be NULL.  N gets the null-space
 * basis (n_q × n_red, *n_red set).  For tests and the eigen analysis. */
typedef struct rs_linear_system {
    int n, r;             /* n_q, reduced size                               */
    double *M, *K, *C;    /* n × n                                           */
    double *N;            /* n × r                                           */
    double *lambda0;      /* n_phi: the multipliers of the steady state      */
    int nphi;
    double *G;            /* n_phi × n: φ_q at q0                            */
    /* internal states z (n_z > 0; docs/elements.md): the forces' and the
     * rates' linear parts, M q̈ + C q̇ + K q + Kz z = 0 (constraint forces
     * aside), ż = Zq q + Zv q̇ + diag(Zb) z; NULL when nz = 0 */
    int nz;
    double *Kz;           /* n × nz: −∂δ/∂z                                  */
    double *Zq, *Zv;      /* nz × n: ∂ż/∂q, ∂ż/∂q̇                           */
    double *Zb;           /* nz: ∂ż_i/∂z_i (RS_FN_ZDOT)                      */
    /* the creep forces' variation with the normal loads (rs_linear_load.c):
     * K, C, Kz above are already T K, T C, T Kz; NULL when it is nil */
    double *T;            /* n × n: I − E S φ_q M⁻¹                          */
    double *ES;           /* n × n_phi: E S                                  */
    /* how far q0 is from rest: the largest |q̈_j| of the steady-state solve
     * (creep forces aside), in the coordinate's units per s²; rest_at its j
     * (-1: no coordinate).  A state the forces accelerate is no state to
     * linearize about: the scenario wants `equilibrium`. */
    double rest_acc;
    int rest_at;
} rs_linear_system;

/* Above it (m/s², rad/s²) the sweep warns that its state is not at rest. */
#define RS_LINEAR_REST_ACC 1e-3

int rs_linear_system_at(rs_ws *ws, rs_linear_system *sys, char *err, size_t errlen);

/* The same of a workspace that runs the elastic contact (rs_linear_elastic.c;
 * rs_linear_system_at calls it for one): the spins first set rolling (their
 * generalized forces 0), then, with no constraints (N = I, nphi 0),
 * K = −∂F/∂q and C = −∂F/∂q̇ by central differences of F = δ^NK + Σ Jᵀ W
 * (rs_elastic_eval, the scenario's creep law).  The linearization of the
 * runs' own contact (docs/linear.md "Elastic contact"). */
int rs_linear_system_elastic(rs_ws *ws, rs_linear_system *sys, char *err, size_t errlen);
void rs_linear_system_free(rs_linear_system *sys);

/* The modes of ws at its current state (after rs_ws_init).  RS_OK, or an
 * error with its message (a model without force Jacobians, a singular
 * reduced mass matrix, LAPACK failing). */
int rs_linear_modes_at(rs_ws *ws, rs_linear_modes *out, char *err, size_t errlen);

/* ---- the sweep over speeds (`railsym linear`) -------------------------- */

typedef struct rs_linear_config {
    const char *model_dir;    /* compiled model folder                        */
    const rs_model *model;    /* non-NULL: use it (model_dir still gives
                                 default.scn and the contact files' folder)   */
    rs_loader loader;         /* when model is NULL                           */
    const char *include_dir;  /* the ABI headers for the loader (NULL: default) */
    const char *scenario;     /* NULL: default.scn only                       */
    const char *set_text;     /* --set lines (NULL: none)                     */
    double v_lo, v_hi;        /* speeds [m/s]                                 */
    int n_speeds;             /* >= 1; 0: no speed (the scenario's state)    */
    int quiet;                /* no progress lines                            */
    int elastic;              /* 1: linearize the elastic contact, with the
                                 scenario's creep law and friction (the runs'
                                 contact); 0: the constraint contact, Kalker */
    rs_log log;               /* progress lines                               */
} rs_linear_config;

void rs_linear_config_default(rs_linear_config *c);

typedef struct rs_linear_result {
    int n;                    /* speeds done                                  */
    rs_linear_modes *at;      /* n                                            */
    char **q_names;           /* the model's coordinate names (n_q copies)    */
    int n_q;
    char model[128];
    double v_crit;            /* NaN: not found in the range                  */
    double f_crit;            /* frequency of that mode there [Hz] (interp.)  */
} rs_linear_result;

int rs_linear_sweep(const rs_linear_config *c, rs_linear_result *r, char *err, size_t errlen);
void rs_linear_result_free(rs_linear_result *r);

/* The model of c loaded and its scenario bound, shared by the sweep and the
 * frequency responses (rs_linear_frf.h). */
struct rs_binding;
typedef struct rs_linear_opened {
    rs_loaded *h;             /* NULL when c->model was given                 */
    const rs_model *m;
    struct rs_binding *b;
    char cdir[4096];
    const char *contact_dir;  /* cdir, or NULL                                */
    struct rs_plugin_set *plugins; /* the model's plugin libraries (docs/plugins.md) */
    int elastic;              /* rs_linear_config.elastic                     */
} rs_linear_opened;

int rs_linear_open(const rs_linear_config *c, rs_linear_opened *o, char *err, size_t errlen);

/* 1 when o's runs would use the elastic contact: the scenario says
 * `contact elastic`, or it says nothing and the model's contacts say
 * `mode elastic` (rs_contact_for_model). */
int rs_linear_runs_elastic(const rs_linear_opened *o);
void rs_linear_close(rs_linear_opened *o);

/* A workspace of o's scenario at speed V (NaN: as the scenario says) with
 * the constraint contact, initialized; free with rs_ws_free. */
int rs_linear_ws_at(const rs_linear_opened *o, double V, rs_ws **ws, char *err, size_t errlen);

/* The linear critical speed of r: the first speed where the least-damped
 * mode's damping ratio becomes <= 0 (all > 0 at the speed before); that
 * mode's damping ratio is interpolated linearly against the mode nearest
 * to its eigenvalue at the speed before (the same mode, not that speed's
 * least-damped one); sets r->v_crit, r->f_crit (NaN when none). */
void rs_linear_critical(rs_linear_result *r);

/* The share of each coordinate in the kinetic energy of the mode whose
 * displacement is q = N (vr + i vi) (vi NULL: a real mode), M the n × n mass
 * matrix (column-major), N n × r: with u = N v,
 *     share_i = Re(conj(u_i) (M u)_i) / (u^H M u),
 * energies in one unit whatever the coordinates' units (kg m² against
 * kg·m²/rad²...), summing to 1; M's coupling terms are split evenly between
 * their two coordinates, so a share can be slightly negative where an
 * inertial coupling opposes the motion.  All zero when u^H M u is not
 * positive.  Then m->dom, m->dom_share: the RS_LINEAR_DOM largest shares
 * (above 1e-3; -1 and 0 for the rest); share n entries, work 4 n. */
void rs_linear_energy_shares(int n, int r, const double *M, const double *N, const double *vr, const double *vi,
                             double *share, double *work, rs_linear_mode *m);

/* "y 62% yaw 31% spin 4%; bodies ws 97% frame 3%" into buf: a mode's
 * dominant coordinates and, when m->share is known, the shares summed per
 * body: the coordinates' names up to their last '.' ("front.ws1.y" is
 * front.ws1's; a name without a dot is the model's top level, "(top)"),
 * the RS_LINEAR_DOM largest (none when every coordinate is one body's).
 * q_names has n_q entries. */
void rs_linear_dominant_text(const rs_linear_mode *m, const char *const *q_names, int n_q, char *buf, size_t len);

#endif /* RS_LINEAR_H */
