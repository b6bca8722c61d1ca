/*
 * rs_stress.h — the stress model of a component (issue 25, seed 004 eq. 2):
 * a straight elastic link in the moving frame of a vehicle body,
 *
 *     M ÿ = g(y) − μ M ẏ + f(ẍ_s, ẋ_s, x_s, t),
 *
 * y the nodes' displacements relative to the body's frame, g the elastic
 * forces between them, μ M ẏ mass-proportional damping, f the external
 * forces: the reactions of force elements attached to the link (model
 * outputs, each step) and the d'Alembert forces of the frame's motion,
 * m_i (g − a_O − α × r_i − ω × (ω × r_i)) per node.  Explicit central
 * differences with sub-steps at the stability limit; docs/coupled.md has
 * the model, its statement and its checks.
 *
 * The discretisation: a chain of n_el three-dimensional Euler–Bernoulli
 * beam elements (six degrees of freedom per node: three displacements,
 * three small rotations), lumped masses and rotary inertias.  Why this and
 * not a 3D lattice or solid elements: a suspension link is slender, and a
 * beam element with cubic (Hermite) bending gives its bending stiffness
 * exactly — a lattice of bars has to be calibrated to it and solid bricks
 * lock in bending unless refined through the thickness — while it keeps
 * what the seed's scheme needs: nodes joined to neighbours only (the chain
 * splits into node ranges with one halo node each side), explicit steps,
 * cost linear in the node count.
 *
 * Local axes: e1 from `from` to `to`; e3 the body's z made normal to e1
 * (the body's x when e1 is within 25° of z); e2 = e3 × e1.  A fibre (y, z)
 * of a section lies at y e2 + z e3 from the axis.
 *
 * A slab (nodes i0 ≤ i < i1) is what one rank holds; rs_stress_substep
 * updates it from its own nodes and one halo node each side, with the same
 * arithmetic in the same order whatever the split: 1, 2 or 3 ranks give
 * the same numbers bit for bit.  Nothing here allocates after
 * rs_stress_slab_create, prints or exits.
 */
#ifndef RS_STRESS_H
#define RS_STRESS_H

#include <stddef.h>

#define RS_STRESS_NAME 64
#define RS_STRESS_MAX 16        /* fixes, loads and points, each */
#define RS_STRESS_MODELS 8      /* `stress` statements (components) in one run */

enum { RS_STRESS_CIRCLE = 0, RS_STRESS_RECT = 1 };

/* A force on the link acting at the axis node at s (m from `from`): a
 * vector output OUTPUT (OUTPUT.x, .y, .z: N, in the body's base), or
 * (reaction) the force the closing constraint OUTPUT exerts on the body,
 * from its multipliers (rs_stress_reaction.h in runtime/app). */
typedef struct rs_stress_load {
    char output[RS_STRESS_NAME];
    double s;
    int reaction;
    int member;                       /* a frame's member the node is on (MEMBER:S) */
} rs_stress_load;

/* A stress point: the fibre (y, z) of the section at s. */
typedef struct rs_stress_point {
    char name[RS_STRESS_NAME];
    double s, y, z;
    int member;                       /* a frame's member (MEMBER:S); -1 on a chain's axis */
} rs_stress_point;

/* A frame's member (`member NAME from X Y Z to X Y Z [elements N]`): a
 * straight chain of elements; members join where their nodes coincide
 * (rs_stress_frame.h). */
typedef struct rs_stress_member {
    char name[RS_STRESS_NAME];
    double from[3], to[3];
    int elements;
} rs_stress_member;

/* A `stress` statement (docs/coupled.md); plain data, copied by value. */
typedef struct rs_stress_spec {
    char name[RS_STRESS_NAME];        /* the columns' prefix                  */
    char body[RS_STRESS_NAME];        /* the body whose frame carries it      */
    char velocity[RS_STRESS_NAME];    /* vector output: v of the frame's origin, body base */
    char omega[RS_STRESS_NAME];       /* vector output: ω of the body, body base */
    char gravity[RS_STRESS_NAME];     /* vector output: g in the body base ("": none) */
    double from[3], to[3];            /* the axis's ends in the body's frame, m */
    int elements;
    int section;                      /* RS_STRESS_CIRCLE (a = R) or RECT (a = width along e2, b = height along e3) */
    double sec_a, sec_b;
    double young, poisson, density;   /* Pa, -, kg/m³                         */
    double damping;                   /* μ, 1/s; NaN: 2 ω₁ of the cantilever estimate */
    int n_fix;
    double fix[RS_STRESS_MAX];        /* s of clamped nodes                   */
    int n_load;
    rs_stress_load load[RS_STRESS_MAX];
    int n_point;
    rs_stress_point point[RS_STRESS_MAX];
    /* a frame (n_member > 0; then no from/to): fixes, loads and points
     * name a member each (fix_member, load.member, point.member) */
    int n_member;
    rs_stress_member member[RS_STRESS_MAX];
    int fix_member[RS_STRESS_MAX];
    char file[256];                   /* where the statement is               */
    int line;
} rs_stress_spec;

/* Defaults (steel); the geometry, the section and the lists are empty. */
void rs_stress_spec_default(rs_stress_spec *s);

/* Parses the tokens of one `stress` statement (tok[0] is "stress"). */
int rs_stress_spec_parse(const char *const *tok, int n, const char *file, int line, rs_stress_spec *s, char *err,
                         size_t errlen);

/* Checks a spec's numbers and that every fix, load and point lies on the
 * axis (loads and fixes at a node).  Errors name the statement's file:line. */
int rs_stress_spec_check(const rs_stress_spec *s, char *err, size_t errlen);

/* The elements of a frame's member m (its own 'elements', else the
 * statement's). */
int rs_stress_member_elements(const rs_stress_spec *s, int m);

/* The point whose result column is `column` ("<name>.sigma_<point>"), else -1. */
int rs_stress_spec_column(const rs_stress_spec *s, const char *column);

/* A column that names the component but none of its points: RS_E_NOTFOUND
 * with a message at file:line listing them; else RS_OK (not its column). */
int rs_stress_spec_unknown_column(const rs_stress_spec *s, const char *column, const char *file, int line,
                                  char *err, size_t errlen);

/* The per-step input vector, n_in = RS_STRESS_IN_LOADS + 3 n_load doubles,
 * every vector in the body's base: a_O, α, ω, g, then each load's force. */
enum { RS_STRESS_IN_ACC = 0, RS_STRESS_IN_ALPHA = 3, RS_STRESS_IN_OMEGA = 6, RS_STRESS_IN_GRAVITY = 9,
       RS_STRESS_IN_LOADS = 12 };

/* What follows from a spec, the same on every rank. */
typedef struct rs_stress_beam {
    int n_nodes, n_in;
    double length, h;                 /* m: axis, element                     */
    double axes[3][3];                /* rows e1, e2, e3 in the body's base   */
    double area, i2, i3, ip, jt;      /* m², m⁴: I2 = ∫z² (about e2), I3 = ∫y², Ip = I2 + I3, Jt torsion */
    double young, shear, density;
    double mu;                        /* 1/s                                  */
    double omega1;                    /* rad/s: the cantilever estimate of the first bending mode */
    double h_stable;                  /* s: 2 / ω_max (Gershgorin bound)      */
    double mass;                      /* kg                                   */
} rs_stress_beam;

int rs_stress_beam_make(const rs_stress_spec *s, rs_stress_beam *b, char *err, size_t errlen);

/* One element's internal end forces −K_e (ui, uj) (6 each, local axes of
 * b: u1 u2 u3 r1 r2 r3) into fi, fj; what a frame's members share. */
void rs_stress_element_forces(const rs_stress_beam *b, const double *ui, const double *uj, double *fi, double *fj);

/* σ (Pa) at ξ ∈ [0, 1] along an element of b with end displacements ui,
 * uj (local axes), at the fibre (y, z). */
double rs_stress_fibre_sigma(const rs_stress_beam *b, const double *ui, const double *uj, double xi, double y,
                             double z);

/* Sub-steps for a step dt: the fewest of size ≤ 0.9 h_stable. */
long rs_stress_substeps(const rs_stress_beam *b, double dt);

/* The node at s (spec's fix and load positions) and the element of a point. */
int rs_stress_node_at(const rs_stress_beam *b, double s);
int rs_stress_point_element(const rs_stress_beam *b, double s);

typedef struct rs_stress_slab rs_stress_slab;

/* One rank's nodes i0 ≤ i < i1 with a halo node each side. */
int rs_stress_slab_create(const rs_stress_spec *s, int i0, int i1, rs_stress_slab **out, char *err,
                          size_t errlen);
void rs_stress_slab_free(rs_stress_slab **sl);
const rs_stress_beam *rs_stress_slab_beam(const rs_stress_slab *sl);
int rs_stress_slab_i0(const rs_stress_slab *sl);
int rs_stress_slab_i1(const rs_stress_slab *sl);

/* The 6 displacements (u1 u2 u3 r1 r2 r3, local axes) of node i: an own
 * node (to send) or a halo node i0 − 1, i1 (to receive). */
double *rs_stress_slab_node(rs_stress_slab *sl, int i);

/* The external forces of the own nodes from the input vector (n_in). */
void rs_stress_slab_load(rs_stress_slab *sl, const double *in);

/* One sub-step of size h; the halo nodes must hold the neighbours' values. */
void rs_stress_substep(rs_stress_slab *sl, double h);

/* σ (Pa) of each point whose element starts at an own node, into
 * sigma[p]; the others are left as they are.  The halo above must be
 * current (exchanged after the last sub-step). */
void rs_stress_point_values(const rs_stress_slab *sl, double *sigma);

/* Displacement dof (0..5) of an own node, local axes (NaN otherwise). */
double rs_stress_displacement(const rs_stress_slab *sl, int i, int dof);

#endif /* RS_STRESS_H */
