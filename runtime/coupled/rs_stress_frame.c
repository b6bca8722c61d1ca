/*
 * rs_stress_frame.c — see rs_stress_frame.h.
 */
#include <math.h>
#include <string.h>

#include "rs_alloc.h"
#include "rs_error.h"
#include "rs_status.h"
#include "rs_stress_frame.h"

struct rs_stress_frame {
    rs_stress_spec spec;
    rs_stress_beam b;                    /* the summary                      */
    rs_stress_beam mb[RS_STRESS_MAX];    /* each member: axes, h, section     */
    int moff[RS_STRESS_MAX + 1];         /* member m's nodes: mnode[moff[m] + k], its elements from moff[m] - m */
    int n_nodes, n_el;
    int *mnode;                          /* Σ (N_m + 1): a member's node k → the frame's node */
    int *el_i, *el_j, *el_m;             /* n_el: end nodes and member of each element */
    double *x;                           /* 3 per node: position, body frame */
    double *u, *v, *f, *g, *minv, *mass; /* 6 per node, body base           */
    unsigned char *fixed;
    int load_node[RS_STRESS_MAX];
    int point_el[RS_STRESS_MAX];         /* the frame's element of each point */
};

static double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void cross3(const double *a, const double *b, double *c)
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* A node's 6 values from the body's base into member axes, and back. */
static void to_local6(const rs_stress_beam *b, const double *ub, double *ul)
{
    for (int k = 0; k < 3; k++) {
        ul[k] = dot3(b->axes[k], ub);
        ul[3 + k] = dot3(b->axes[k], ub + 3);
    }
}

static void to_body6(const rs_stress_beam *b, const double *ul, double *ub)
{
    for (int c = 0; c < 3; c++) {
        ub[c] = b->axes[0][c] * ul[0] + b->axes[1][c] * ul[1] + b->axes[2][c] * ul[2];
        ub[3 + c] = b->axes[0][c] * ul[3] + b->axes[1][c] * ul[4] + b->axes[2][c] * ul[5];
    }
}

/* Element e's end forces in the body's base from its nodes' values. */
static void element_body(const rs_stress_frame *fr, int e, const double *ui, const double *uj, double *fi, double *fj)
{
    const rs_stress_beam *b = &fr->mb[fr->el_m[e]];
    double uil[6], ujl[6], fil[6], fjl[6];
    to_local6(b, ui, uil);
    to_local6(b, uj, ujl);
    rs_stress_element_forces(b, uil, ujl, fil, fjl);
    to_body6(b, fil, fi);
    to_body6(b, fjl, fj);
}

static int member_node(const rs_stress_frame *fr, int m, double s)
{
    const int k = rs_stress_node_at(&fr->mb[m], s);
    return k < 0 ? -1 : fr->mnode[fr->moff[m] + k];
}

/* ω_max² bound: Gershgorin's row sums of D⁻¹ M^−½ K M^−½ D over the
 * assembled rows, rotations scaled by σ = 10^(k/10), the least over k (as
 * the chain's omega_max2_bound, rs_stress.c). */
static double omega_max2_bound(const rs_stress_frame *fr, double *rows)
{
    double ke[RS_STRESS_MAX][12][12];
    for (int m = 0; m < fr->spec.n_member; m++)
        for (int c = 0; c < 12; c++) {
            double ue[12] = {0}, uel[12], fel[12], fe[12];
            ue[c] = 1;
            to_local6(&fr->mb[m], ue, uel);
            to_local6(&fr->mb[m], ue + 6, uel + 6);
            rs_stress_element_forces(&fr->mb[m], uel, uel + 6, fel, fel + 6);
            to_body6(&fr->mb[m], fel, fe);
            to_body6(&fr->mb[m], fel + 6, fe + 6);
            for (int r = 0; r < 12; r++)
                ke[m][r][c] = fe[r];
        }
    double best = INFINITY;
    for (int k = -40; k <= 40; k++) {
        const double sg = pow(10, k / 10.0);
        memset(rows, 0, 6 * (size_t)fr->n_nodes * sizeof *rows);
        for (int e = 0; e < fr->n_el; e++) {
            const int nodes[2] = {fr->el_i[e], fr->el_j[e]};
            for (int side = 0; side < 2; side++)
                for (int r = 0; r < 6; r++) {
                    const int i = nodes[side];
                    double sum = 0;
                    for (int c = 0; c < 12; c++) {
                        const int nc = nodes[c / 6], dc = c % 6;
                        const double scale = (dc >= 3 ? sg : 1) / (r >= 3 ? sg : 1);
                        sum += fabs(ke[fr->el_m[e]][6 * side + r][c]) * scale /
                               sqrt(fr->mass[6 * i + r] * fr->mass[6 * nc + dc]);
                    }
                    rows[6 * i + r] += sum;
                }
        }
        double worst = 0;
        for (int i = 0; i < 6 * fr->n_nodes; i++)
            worst = fmax(worst, rows[i]);
        best = fmin(best, worst);
    }
    return best;
}

/* Union-find's root, for the connectivity check. */
static int root(int *up, int i)
{
    while (up[i] != i)
        i = up[i] = up[up[i]];
    return i;
}

/* Builds the members, joins their nodes and checks the topology. */
static int build(rs_stress_frame *fr, char *err, size_t errlen)
{
    const rs_stress_spec *s = &fr->spec;
    int st, total = 0;
    double extent = 0;
    for (int m = 0; m < s->n_member; m++) {
        rs_stress_spec cs = *s;   /* member m as a chain: its axes, spacing and section */
        cs.n_member = 0;
        memcpy(cs.from, s->member[m].from, sizeof cs.from);
        memcpy(cs.to, s->member[m].to, sizeof cs.to);
        cs.elements = rs_stress_member_elements(s, m);
        cs.n_fix = 1;
        cs.fix[0] = 0;
        cs.n_load = cs.n_point = 0;
        if ((st = rs_stress_beam_make(&cs, &fr->mb[m], err, errlen)))
            return st;
        fr->moff[m] = total;
        total += cs.elements + 1;
        for (int c = 0; c < 3; c++)
            extent = fmax(extent, fmax(fabs(s->member[m].from[c]), fabs(s->member[m].to[c])));
    }
    fr->moff[s->n_member] = total;
    fr->n_el = total - s->n_member;
    const size_t nt = (size_t)total;
    if (!(fr->mnode = rs_alloc(NULL, nt, sizeof(int))) || !(fr->x = rs_alloc(NULL, 3 * nt, sizeof(double))) ||
        !(fr->el_i = rs_alloc(NULL, nt, sizeof(int))) || !(fr->el_j = rs_alloc(NULL, nt, sizeof(int))) ||
        !(fr->el_m = rs_alloc(NULL, nt, sizeof(int))))
        return rs_fail(err, errlen, RS_E_NOMEM, "stress %s: out of memory", s->name);
    const double tol = 1e-9 * (1 + extent);
    for (int m = 0; m < s->n_member; m++) {
        const rs_stress_beam *b = &fr->mb[m];
        const int N = rs_stress_member_elements(s, m);
        for (int k = 0; k <= N; k++) {
            double p[3];
            for (int c = 0; c < 3; c++)
                p[c] = s->member[m].from[c] + k * b->h * b->axes[0][c];
            int node = -1;
            for (int i = 0; i < fr->n_nodes && node < 0; i++) {
                const double d[3] = {p[0] - fr->x[3 * i], p[1] - fr->x[3 * i + 1], p[2] - fr->x[3 * i + 2]};
                if (sqrt(dot3(d, d)) <= tol)
                    node = i;
            }
            if (node < 0) {
                node = fr->n_nodes++;
                memcpy(fr->x + 3 * node, p, sizeof p);
            }
            fr->mnode[fr->moff[m] + k] = node;
            if (k > 0) {
                const int e = fr->moff[m] - m + k - 1;
                fr->el_i[e] = fr->mnode[fr->moff[m] + k - 1];
                fr->el_j[e] = node;
                fr->el_m[e] = m;
                if (fr->el_i[e] == node)
                    return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line,
                                      "stress %s: member %s's elements are shorter than the joints' tolerance",
                                      s->name, s->member[m].name);
            }
        }
    }
    /* a member's end on another member between its nodes */
    for (int m = 0; m < s->n_member; m++)
        for (int end = 0; end < 2; end++) {
            const double *p = end ? s->member[m].to : s->member[m].from;
            const int pn = fr->mnode[fr->moff[m] + (end ? rs_stress_member_elements(s, m) : 0)];
            for (int q = 0; q < s->n_member; q++) {
                if (q == m)
                    continue;
                const rs_stress_beam *b = &fr->mb[q];
                double d[3], t;
                for (int c = 0; c < 3; c++)
                    d[c] = p[c] - s->member[q].from[c];
                t = dot3(d, b->axes[0]);
                double off[3];
                for (int c = 0; c < 3; c++)
                    off[c] = d[c] - t * b->axes[0][c];
                if (!(t > tol && t < b->length - tol && sqrt(dot3(off, off)) <= tol))
                    continue;
                int joined = 0;
                for (int k = fr->moff[q]; k < fr->moff[q + 1]; k++)
                    joined |= fr->mnode[k] == pn;
                if (!joined)
                    return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line,
                                      "stress %s: member %s's end lies on member %s at %g m, between its nodes (%g m "
                                      "apart): choose %s's 'elements' so that a node lies there",
                                      s->name, s->member[m].name, s->member[q].name, t, b->h, s->member[q].name);
            }
        }
    /* every member joined to the first */
    int *up = rs_alloc(NULL, (size_t)fr->n_nodes, sizeof(int));
    if (!up)
        return rs_fail(err, errlen, RS_E_NOMEM, "stress %s: out of memory", s->name);
    for (int i = 0; i < fr->n_nodes; i++)
        up[i] = i;
    for (int e = 0; e < fr->n_el; e++)
        up[root(up, fr->el_i[e])] = root(up, fr->el_j[e]);
    st = RS_OK;
    const int r0 = root(up, fr->mnode[0]);
    for (int m = 1; m < s->n_member && !st; m++)
        if (root(up, fr->mnode[fr->moff[m]]) != r0)
            st = rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line,
                            "stress %s: member %s is not joined to member %s (members join where their nodes "
                            "coincide): move its ends onto nodes of the others",
                            s->name, s->member[m].name, s->member[0].name);
    rs_free(NULL, up);
    return st;
}

int rs_stress_frame_create(const rs_stress_spec *s, rs_stress_frame **out, char *err, size_t errlen)
{
    *out = NULL;
    int st = rs_stress_spec_check(s, err, errlen);
    if (st)
        return st;
    if (s->n_member < 1)
        return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line, "stress %s: a frame needs members", s->name);
    rs_stress_frame *fr = rs_alloc(NULL, 1, sizeof *fr);
    if (!fr)
        return rs_fail(err, errlen, RS_E_NOMEM, "stress %s: out of memory", s->name);
    memset(fr, 0, sizeof *fr);
    fr->spec = *s;
    if ((st = build(fr, err, errlen))) {
        rs_stress_frame_free(&fr);
        return st;
    }
    const size_t n6 = 6 * (size_t)fr->n_nodes;
    if (!(fr->u = rs_alloc(NULL, n6, sizeof(double))) || !(fr->v = rs_alloc(NULL, n6, sizeof(double))) ||
        !(fr->f = rs_alloc(NULL, n6, sizeof(double))) || !(fr->g = rs_alloc(NULL, n6, sizeof(double))) ||
        !(fr->minv = rs_alloc(NULL, n6, sizeof(double))) || !(fr->mass = rs_alloc(NULL, n6, sizeof(double))) ||
        !(fr->fixed = rs_alloc(NULL, (size_t)fr->n_nodes, 1))) {
        rs_stress_frame_free(&fr);
        return rs_fail(err, errlen, RS_E_NOMEM, "stress %s: out of memory", s->name);
    }
    memset(fr->u, 0, n6 * sizeof(double));
    memset(fr->v, 0, n6 * sizeof(double));
    memset(fr->f, 0, n6 * sizeof(double));
    memset(fr->mass, 0, n6 * sizeof(double));
    memset(fr->fixed, 0, (size_t)fr->n_nodes);
    /* lumped masses: each element's half at each end; the rotary inertia
     * ρ ℓ (Ip e1e1 + I2 e2e2 + I3 e3e3), its diagonal in the body's base */
    double mass = 0, length = 0, omega1 = INFINITY;
    for (int e = 0; e < fr->n_el; e++) {
        const rs_stress_beam *b = &fr->mb[fr->el_m[e]];
        const double rl = b->density * b->h / 2, Jl[3] = {b->ip, b->i2, b->i3};
        for (int end = 0; end < 2; end++) {
            double *ms = fr->mass + 6 * (end ? fr->el_j[e] : fr->el_i[e]);
            for (int c = 0; c < 3; c++) {
                ms[c] += rl * b->area;
                for (int k = 0; k < 3; k++)
                    ms[3 + c] += rl * Jl[k] * b->axes[k][c] * b->axes[k][c];
            }
        }
    }
    for (int m = 0; m < s->n_member; m++) {
        mass += fr->mb[m].mass;
        length += fr->mb[m].length;
        omega1 = fmin(omega1, fr->mb[m].omega1);
    }
    for (size_t i = 0; i < n6; i++)
        fr->minv[i] = 1 / fr->mass[i];
    for (int k = 0; k < s->n_fix; k++)
        fr->fixed[member_node(fr, s->fix_member[k], s->fix[k])] = 1;
    for (int k = 0; k < s->n_load; k++)
        fr->load_node[k] = member_node(fr, s->load[k].member, s->load[k].s);
    for (int p = 0; p < s->n_point; p++) {
        const int m = s->point[p].member;
        fr->point_el[p] = fr->moff[m] - m + rs_stress_point_element(&fr->mb[m], s->point[p].s);
    }
    rs_stress_beam *b = &fr->b;
    *b = fr->mb[0];
    b->n_nodes = fr->n_nodes;
    b->n_in = RS_STRESS_IN_LOADS + 3 * s->n_load;
    b->length = length;
    b->mass = mass;
    b->omega1 = omega1;
    b->mu = isnan(s->damping) ? 2 * omega1 : s->damping;
    b->h_stable = 2 / sqrt(omega_max2_bound(fr, fr->g));
    *out = fr;
    return RS_OK;
}

void rs_stress_frame_free(rs_stress_frame **f)
{
    if (!f || !*f)
        return;
    rs_stress_frame *fr = *f;
    rs_free(NULL, fr->mnode);
    rs_free(NULL, fr->el_i);
    rs_free(NULL, fr->el_j);
    rs_free(NULL, fr->el_m);
    rs_free(NULL, fr->x);
    rs_free(NULL, fr->u);
    rs_free(NULL, fr->v);
    rs_free(NULL, fr->f);
    rs_free(NULL, fr->g);
    rs_free(NULL, fr->minv);
    rs_free(NULL, fr->mass);
    rs_free(NULL, fr->fixed);
    rs_free(NULL, fr);
    *f = NULL;
}

const rs_stress_beam *rs_stress_frame_summary(const rs_stress_frame *f) { return &f->b; }

int rs_stress_frame_beam(const rs_stress_spec *s, rs_stress_beam *b, char *err, size_t errlen)
{
    rs_stress_frame *f;
    int st = rs_stress_frame_create(s, &f, err, errlen);
    if (st)
        return st;
    *b = f->b;
    rs_stress_frame_free(&f);
    return RS_OK;
}

void rs_stress_frame_load(rs_stress_frame *fr, const double *in)
{
    const double *a = in + RS_STRESS_IN_ACC, *al = in + RS_STRESS_IN_ALPHA, *w = in + RS_STRESS_IN_OMEGA;
    const double *g = in + RS_STRESS_IN_GRAVITY;
    for (int i = 0; i < fr->n_nodes; i++) {
        double *f = fr->f + 6 * i;
        const double *r = fr->x + 3 * i, *ms = fr->mass + 6 * i;
        /* d'Alembert: m (g − a_O − α × r − ω × (ω × r)) */
        double axr[3], wxr[3], wwr[3];
        cross3(al, r, axr);
        cross3(w, r, wxr);
        cross3(w, wxr, wwr);
        for (int k = 0; k < 3; k++)
            f[k] = ms[k] * (g[k] - a[k] - axr[k] - wwr[k]);
        /* the rotary inertia's: −J α − ω × (J ω) */
        const double Jw[3] = {ms[3] * w[0], ms[4] * w[1], ms[5] * w[2]};
        double wJw[3];
        cross3(w, Jw, wJw);
        for (int k = 0; k < 3; k++)
            f[3 + k] = -ms[3 + k] * al[k] - wJw[k];
    }
    for (int k = 0; k < fr->spec.n_load; k++)   /* the attached elements' forces, body base */
        for (int c = 0; c < 3; c++)
            fr->f[6 * fr->load_node[k] + c] += in[RS_STRESS_IN_LOADS + 3 * k + c];
}

void rs_stress_frame_substep(rs_stress_frame *fr, double h)
{
    const double mu = fr->b.mu, c1 = 1 - mu * h / 2, c2 = 1 + mu * h / 2;
    memset(fr->g, 0, 6 * (size_t)fr->n_nodes * sizeof *fr->g);
    for (int e = 0; e < fr->n_el; e++) {
        const int i = fr->el_i[e], j = fr->el_j[e];
        double fi[6], fj[6];
        element_body(fr, e, fr->u + 6 * i, fr->u + 6 * j, fi, fj);
        for (int d = 0; d < 6; d++) {
            fr->g[6 * i + d] += fi[d];
            fr->g[6 * j + d] += fj[d];
        }
    }
    for (int i = 0; i < fr->n_nodes; i++) {
        if (fr->fixed[i])
            continue;
        double *v = fr->v + 6 * i;
        const double *f = fr->f + 6 * i, *g = fr->g + 6 * i, *minv = fr->minv + 6 * i;
        for (int d = 0; d < 6; d++) {
            v[d] = (c1 * v[d] + h * (f[d] + g[d]) * minv[d]) / c2;
            fr->u[6 * i + d] += h * v[d];   /* the forces above read the old positions */
        }
    }
}

void rs_stress_frame_point_values(const rs_stress_frame *fr, double *sigma)
{
    for (int p = 0; p < fr->spec.n_point; p++) {
        const rs_stress_point *pt = &fr->spec.point[p];
        const int e = fr->point_el[p], m = fr->el_m[e];
        const rs_stress_beam *b = &fr->mb[m];
        double uil[6], ujl[6];
        to_local6(b, fr->u + 6 * fr->el_i[e], uil);
        to_local6(b, fr->u + 6 * fr->el_j[e], ujl);
        const int e_loc = e - (fr->moff[m] - m);
        sigma[p] = rs_stress_fibre_sigma(b, uil, ujl, pt->s / b->h - e_loc, pt->y, pt->z);
    }
}

double rs_stress_frame_displacement(const rs_stress_frame *fr, int member, double s, int dof)
{
    if (member < 0 || member >= fr->spec.n_member || dof < 0 || dof > 5)
        return NAN;
    const int i = member_node(fr, member, s);
    return i < 0 ? NAN : fr->u[6 * i + dof];
}
