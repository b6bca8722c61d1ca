/*
 * rs_stress.c — the beam chain and its explicit sub-step (rs_stress.h).
 *
 * Per element (length h, local axes) four independent problems: the axial
 * bar (u1, EA), torsion (r1, G Jt), bending in the e1–e2 plane (u2 and its
 * slope r3, E I3) and in the e1–e3 plane (u3 and its slope −r2, E I2), each
 * with its textbook stiffness (the bending ones the cubic Hermite element).
 * The element's end forces are computed from both end nodes' values by one
 * function, so a node's force is the same sum whichever rank computes it.
 *
 * Time: central differences with mass-proportional damping taken at the
 * half steps,
 *     v⁺ = ((1 − μh/2) v⁻ + h M⁻¹ (f + g(u))) / (1 + μh/2),   u += h v⁺,
 * stable for h ≤ 2/ω_max whatever μ ≥ 0; ω_max² is bounded by Gershgorin's
 * row sums of M^−½ K M^−½ with the rotations scaled (omega_max2_bound;
 * assembled from the element end forces of unit displacements, so the
 * bound reads the same stiffness the step uses).
 */
#include <math.h>
#include <string.h>

#include "rs_alloc.h"
#include "rs_error.h"
#include "rs_status.h"
#include "rs_stress.h"

#define PI 3.14159265358979323846   /* M_PI is not C11 */

struct rs_stress_slab {
    rs_stress_beam b;
    rs_stress_spec spec;
    int i0, i1;
    /* per node, (i1 − i0 + 2) of them: halo below, own nodes, halo above */
    double *u, *v, *f, *minv;   /* 6 each                                    */
    unsigned char *fixed;
    int load_node[RS_STRESS_MAX];
    int point_el[RS_STRESS_MAX];
};

static double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void cross3(const double *a, const double *b, double *c)
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* x in the local axes of a vector given in the body's base. */
static void to_local(const rs_stress_beam *b, const double *x, double *loc)
{
    for (int k = 0; k < 3; k++)
        loc[k] = dot3(b->axes[k], x);
}

/* One element's internal end forces −K_e (ui, uj): into fi, fj (6 each). */
void rs_stress_element_forces(const rs_stress_beam *b, const double *ui, const double *uj, double *fi, double *fj)
{
    const double h = b->h, E = b->young;
    const double N = E * b->area / h * (uj[0] - ui[0]);
    const double T = b->shear * b->jt / h * (uj[3] - ui[3]);
    fi[0] = N;
    fj[0] = -N;
    fi[3] = T;
    fj[3] = -T;
    /* bending: d = (w_i, θ_i, w_j, θ_j), f = −k d with the Hermite k */
    for (int plane = 0; plane < 2; plane++) {
        const int w = plane == 0 ? 1 : 2, r = plane == 0 ? 5 : 4;
        const double sg = plane == 0 ? 1.0 : -1.0;   /* slope w' = r3, resp. −r2 */
        const double EI = E * (plane == 0 ? b->i3 : b->i2), c = EI / (h * h * h);
        const double wi = ui[w], ti = sg * ui[r], wj = uj[w], tj = sg * uj[r];
        const double f0 = -c * (12 * wi + 6 * h * ti - 12 * wj + 6 * h * tj);
        const double f1 = -c * (6 * h * wi + 4 * h * h * ti - 6 * h * wj + 2 * h * h * tj);
        const double f2 = -c * (-12 * wi - 6 * h * ti + 12 * wj - 6 * h * tj);
        const double f3 = -c * (6 * h * wi + 2 * h * h * ti - 6 * h * wj + 4 * h * h * tj);
        fi[w] = f0;
        fi[r] = sg * f1;
        fj[w] = f2;
        fj[r] = sg * f3;
    }
}

/* Lumped mass of node i's dof d: ρ A ℓ, ρ ℓ (Ip, I2, I3); ℓ its share of length. */
static double node_mass(const rs_stress_beam *b, int i, int d)
{
    const double l = (i == 0 || i == b->n_nodes - 1) ? b->h / 2 : b->h;
    const double rl = b->density * l;
    return d < 3 ? rl * b->area : rl * (d == 3 ? b->ip : d == 4 ? b->i2 : b->i3);
}

/* An upper bound of ω_max², the largest eigenvalue of M⁻¹K: Gershgorin's
 * row sums of D⁻¹ M^−½ K M^−½ D (the same eigenvalues for any positive
 * diagonal D), D = 1 for displacements and σ for rotations, the least over
 * σ = 10^(k/10), k = −40 … 40 (a few per cent fewer sub-steps than σ = 1:
 * the rotations' rows weigh the tiny rotary inertias).  Still safe, and
 * about √3 above the true limit where bending dominates (elements shorter
 * than the section's radius of gyration: the displacement rows count
 * 48 EI/h³ where the chain's highest bending mode has 16 EI/h³).  Every
 * element is the same, so one element's stiffness (its end forces for unit
 * displacements) serves all, and only the rows near the ends differ from
 * an interior node's. */
static double omega_max2_bound(const rs_stress_beam *b)
{
    double ke[12][12];   /* ke[r][c]: end force r for unit displacement c */
    for (int c = 0; c < 12; c++) {
        double ue[12] = {0}, fe[12];
        ue[c] = 1;
        rs_stress_element_forces(b, ue, ue + 6, fe, fe + 6);
        for (int r = 0; r < 12; r++)
            ke[r][c] = fe[r];
    }
    const int n = b->n_nodes, rows[7] = {0, 1, 2, n / 2, n - 3, n - 2, n - 1};
    double best = INFINITY;
    for (int k = -40; k <= 40; k++) {
        const double sg = pow(10, k / 10.0);
        double worst = 0;
        for (int q = 0; q < 7; q++) {
            const int i = rows[q];
            if (i < 0 || i >= n)
                continue;
            for (int r = 0; r < 6; r++) {
                double sum = 0;
                for (int e = i - 1; e <= i; e++) {   /* the elements at node i */
                    if (e < 0 || e > n - 2)
                        continue;
                    const int side = i - e;   /* 0: node i is the element's first node */
                    for (int c = 0; c < 12; c++) {
                        const int nc = e + c / 6, dc = c % 6;
                        const double scale = (dc >= 3 ? sg : 1) / (r >= 3 ? sg : 1);
                        sum += fabs(ke[6 * side + r][c]) * scale / sqrt(node_mass(b, i, r) * node_mass(b, nc, dc));
                    }
                }
                worst = fmax(worst, sum);
            }
        }
        best = fmin(best, worst);
    }
    return best;
}

int rs_stress_node_at(const rs_stress_beam *b, double s)
{
    const double k = s / b->h, r = nearbyint(k);
    return fabs(k - r) <= 1e-9 * (1 + fabs(k)) && r >= 0 && r < b->n_nodes ? (int)r : -1;
}

int rs_stress_point_element(const rs_stress_beam *b, double s)
{
    int e = (int)floor(s / b->h);
    if (e < 0)
        e = 0;
    if (e > b->n_nodes - 2)
        e = b->n_nodes - 2;
    return e;
}

int rs_stress_beam_make(const rs_stress_spec *s, rs_stress_beam *b, char *err, size_t errlen)
{
    int st = rs_stress_spec_check(s, err, errlen);
    if (st)
        return st;
    memset(b, 0, sizeof *b);
    double d[3];
    for (int k = 0; k < 3; k++)
        d[k] = s->to[k] - s->from[k];
    b->length = sqrt(dot3(d, d));
    b->n_nodes = s->elements + 1;
    b->n_in = RS_STRESS_IN_LOADS + 3 * s->n_load;
    b->h = b->length / s->elements;
    double *e1 = b->axes[0], *e2 = b->axes[1], *e3 = b->axes[2];
    for (int k = 0; k < 3; k++)
        e1[k] = d[k] / b->length;
    /* e3: the body's z made normal to e1, or its x for an axis near z */
    const double z[3] = {0, 0, 1}, x[3] = {1, 0, 0};
    const double *ref = fabs(e1[2]) < cos(25 * PI / 180) ? z : x;
    const double p = dot3(ref, e1);
    for (int k = 0; k < 3; k++)
        e3[k] = ref[k] - p * e1[k];
    const double n3 = sqrt(dot3(e3, e3));
    for (int k = 0; k < 3; k++)
        e3[k] /= n3;
    cross3(e3, e1, e2);
    if (s->section == RS_STRESS_CIRCLE) {
        const double R = s->sec_a;
        b->area = PI * R * R;
        b->i2 = b->i3 = PI * R * R * R * R / 4;
        b->jt = 2 * b->i2;
    } else {
        const double w = s->sec_a, t = s->sec_b, lo = fmin(w, t), hi = fmax(w, t);
        b->area = w * t;
        b->i2 = w * t * t * t / 12;   /* ∫ z² dA, z along e3 (height t) */
        b->i3 = t * w * w * w / 12;
        /* Saint-Venant torsion of a rectangle (Roark, Table 10.7 case 4) */
        const double q = lo / hi;
        b->jt = hi * lo * lo * lo * (1.0 / 3 - 0.21 * q * (1 - q * q * q * q / 12));
    }
    b->ip = b->i2 + b->i3;
    b->young = s->young;
    b->shear = s->young / (2 * (1 + s->poisson));
    b->density = s->density;
    b->mass = s->density * b->area * b->length;
    /* first bending mode of a cantilever, (1.8751)² √(EI/(ρAL⁴)) */
    b->omega1 = 1.8751 * 1.8751 * sqrt(s->young * fmin(b->i2, b->i3) / (s->density * b->area)) /
                (b->length * b->length);
    b->mu = isnan(s->damping) ? 2 * b->omega1 : s->damping;
    b->h_stable = 2 / sqrt(omega_max2_bound(b));
    return RS_OK;
}

long rs_stress_substeps(const rs_stress_beam *b, double dt)
{
    if (!(dt > 0))
        return 0;
    const double n = ceil(dt / (0.9 * b->h_stable));
    return n < 1 ? 1 : (long)n;
}

int rs_stress_slab_create(const rs_stress_spec *s, int i0, int i1, rs_stress_slab **out, char *err, size_t errlen)
{
    *out = NULL;
    rs_stress_beam b;
    int st = rs_stress_beam_make(s, &b, err, errlen);
    if (st)
        return st;
    if (i0 < 0 || i1 > b.n_nodes || i0 >= i1)
        return rs_fail(err, errlen, RS_E_ARG, "stress slab: nodes %d..%d outside the chain's 0..%d", i0, i1 - 1,
                       b.n_nodes - 1);
    rs_stress_slab *sl = rs_alloc(NULL, 1, sizeof *sl);
    const size_t nn = (size_t)(i1 - i0 + 2);
    if (!sl || !(sl->u = rs_alloc(NULL, 6 * nn, sizeof(double))) || !(sl->v = rs_alloc(NULL, 6 * nn, sizeof(double))) ||
        !(sl->f = rs_alloc(NULL, 6 * nn, sizeof(double))) || !(sl->minv = rs_alloc(NULL, 6 * nn, sizeof(double))) ||
        !(sl->fixed = rs_alloc(NULL, nn, 1))) {
        rs_stress_slab_free(&sl);
        return rs_fail(err, errlen, RS_E_NOMEM, "stress %s: out of memory for %d nodes", s->name, i1 - i0);
    }
    sl->b = b;
    sl->spec = *s;
    sl->i0 = i0;
    sl->i1 = i1;
    for (int i = i0 - 1; i <= i1; i++) {
        if (i < 0 || i >= b.n_nodes)
            continue;
        const size_t li = (size_t)(i - i0 + 1);
        for (int d = 0; d < 6; d++)
            sl->minv[6 * li + d] = 1 / node_mass(&b, i, d);
    }
    for (int k = 0; k < s->n_fix; k++) {
        const int i = rs_stress_node_at(&b, s->fix[k]);
        if (i >= i0 - 1 && i <= i1)
            sl->fixed[i - i0 + 1] = 1;
    }
    for (int k = 0; k < s->n_load; k++)
        sl->load_node[k] = rs_stress_node_at(&b, s->load[k].s);
    for (int k = 0; k < s->n_point; k++)
        sl->point_el[k] = rs_stress_point_element(&b, s->point[k].s);
    *out = sl;
    return RS_OK;
}

void rs_stress_slab_free(rs_stress_slab **sl)
{
    if (!sl || !*sl)
        return;
    rs_free(NULL, (*sl)->u);
    rs_free(NULL, (*sl)->v);
    rs_free(NULL, (*sl)->f);
    rs_free(NULL, (*sl)->minv);
    rs_free(NULL, (*sl)->fixed);
    rs_free(NULL, *sl);
    *sl = NULL;
}

const rs_stress_beam *rs_stress_slab_beam(const rs_stress_slab *sl) { return &sl->b; }
int rs_stress_slab_i0(const rs_stress_slab *sl) { return sl->i0; }
int rs_stress_slab_i1(const rs_stress_slab *sl) { return sl->i1; }

double *rs_stress_slab_node(rs_stress_slab *sl, int i) { return sl->u + 6 * (size_t)(i - sl->i0 + 1); }

void rs_stress_slab_load(rs_stress_slab *sl, const double *in)
{
    const rs_stress_beam *b = &sl->b;
    double a[3], al[3], w[3], g[3], o[3];
    to_local(b, in + RS_STRESS_IN_ACC, a);
    to_local(b, in + RS_STRESS_IN_ALPHA, al);
    to_local(b, in + RS_STRESS_IN_OMEGA, w);
    to_local(b, in + RS_STRESS_IN_GRAVITY, g);
    to_local(b, sl->spec.from, o);
    for (int i = sl->i0; i < sl->i1; i++) {
        double *f = sl->f + 6 * (size_t)(i - sl->i0 + 1);
        /* d'Alembert: m (g − a_O − α × r − ω × (ω × r)), r = o + s e1 */
        const double r[3] = {o[0] + i * b->h, o[1], o[2]};
        double axr[3], wxr[3], wwr[3];
        cross3(al, r, axr);
        cross3(w, r, wxr);
        cross3(w, wxr, wwr);
        const double m = node_mass(b, i, 0);
        for (int k = 0; k < 3; k++)
            f[k] = m * (g[k] - a[k] - axr[k] - wwr[k]);
        /* the rotary inertia's: −J α − ω × (J ω), J = diag(J1, J2, J3) */
        const double J[3] = {node_mass(b, i, 3), node_mass(b, i, 4), node_mass(b, i, 5)};
        const double Jw[3] = {J[0] * w[0], J[1] * w[1], J[2] * w[2]};
        double wJw[3];
        cross3(w, Jw, wJw);
        for (int k = 0; k < 3; k++)
            f[3 + k] = -J[k] * al[k] - wJw[k];
        /* the forces of the elements attached here, in load order */
        for (int k = 0; k < sl->spec.n_load; k++) {
            if (sl->load_node[k] != i)
                continue;
            double F[3];
            to_local(b, in + RS_STRESS_IN_LOADS + 3 * k, F);
            for (int c = 0; c < 3; c++)
                f[c] += F[c];
        }
    }
}

/* The elastic force on node i: its left element's then its right one's. */
static void node_force(const rs_stress_slab *sl, int i, double *g)
{
    const rs_stress_beam *b = &sl->b;
    const double *u = sl->u + 6 * (size_t)(i - sl->i0 + 1);
    double fi[6], fj[6];
    for (int d = 0; d < 6; d++)
        g[d] = 0;
    if (i > 0) {
        rs_stress_element_forces(b, u - 6, u, fi, fj);
        for (int d = 0; d < 6; d++)
            g[d] += fj[d];
    }
    if (i < b->n_nodes - 1) {
        rs_stress_element_forces(b, u, u + 6, fi, fj);
        for (int d = 0; d < 6; d++)
            g[d] += fi[d];
    }
}

void rs_stress_substep(rs_stress_slab *sl, double h)
{
    const double mu = sl->b.mu, c1 = 1 - mu * h / 2, c2 = 1 + mu * h / 2;
    for (int i = sl->i0; i < sl->i1; i++) {
        const size_t li = (size_t)(i - sl->i0 + 1);
        if (sl->fixed[li])
            continue;
        double g[6];
        node_force(sl, i, g);
        double *v = sl->v + 6 * li;
        const double *f = sl->f + 6 * li, *minv = sl->minv + 6 * li;
        for (int d = 0; d < 6; d++)
            v[d] = (c1 * v[d] + h * (f[d] + g[d]) * minv[d]) / c2;
    }
    /* the positions after every velocity: a node's force read the old ones */
    for (int i = sl->i0; i < sl->i1; i++) {
        const size_t li = (size_t)(i - sl->i0 + 1);
        if (sl->fixed[li])
            continue;
        for (int d = 0; d < 6; d++)
            sl->u[6 * li + d] += h * sl->v[6 * li + d];
    }
}

void rs_stress_point_values(const rs_stress_slab *sl, double *sigma)
{
    const rs_stress_beam *b = &sl->b;
    const double h = b->h;
    for (int p = 0; p < sl->spec.n_point; p++) {
        const int e = sl->point_el[p];
        if (e < sl->i0 || e >= sl->i1)
            continue;
        const rs_stress_point *pt = &sl->spec.point[p];
        const double *ui = sl->u + 6 * (size_t)(e - sl->i0 + 1), *uj = ui + 6;
        sigma[p] = rs_stress_fibre_sigma(b, ui, uj, pt->s / h - e, pt->y, pt->z);
    }
}

double rs_stress_fibre_sigma(const rs_stress_beam *b, const double *ui, const double *uj, double xi, double y,
                             double z)
{
    const double h = b->h;
    /* Hermite second derivatives at ξ: w'' = (N1'' w_i + N2'' θ_i + N3'' w_j + N4'' θ_j) / h² */
    const double n1 = -6 + 12 * xi, n2 = h * (-4 + 6 * xi), n3 = 6 - 12 * xi, n4 = h * (-2 + 6 * xi);
    const double kv = (n1 * ui[1] + n2 * ui[5] + n3 * uj[1] + n4 * uj[5]) / (h * h);
    const double kw = (n1 * ui[2] - n2 * ui[4] + n3 * uj[2] - n4 * uj[4]) / (h * h);
    const double eps = (uj[0] - ui[0]) / h;
    return b->young * (eps - y * kv - z * kw);
}

double rs_stress_displacement(const rs_stress_slab *sl, int i, int dof)
{
    if (i < sl->i0 || i >= sl->i1 || dof < 0 || dof > 5)
        return NAN;
    return sl->u[6 * (size_t)(i - sl->i0 + 1) + dof];
}
