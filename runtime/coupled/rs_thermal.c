/*
 * rs_thermal.c — the grid and the explicit sub-step of rs_thermal.h.
 *
 * Finite volumes on the Cartesian grid: between two body cells a face
 * conducts G = k A / d (the 7-point Laplacian times the cell volume); a
 * face towards air (outside the tube, or past the grid's end) convects
 * h A (T_amb − T).  Each flux is computed once per cell and face with the
 * same operands on both sides, so what leaves one cell enters the other to
 * rounding: the energy balance holds per sub-step.  Forward Euler is
 * stable (and keeps every T between its neighbours' extremes) for
 * h ≤ C / Σ G, the per-cell diagonal-dominance bound: dt_stable.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rs_alloc.h"
#include "rs_error.h"
#include "rs_status.h"
#include "rs_thermal.h"

struct rs_thermal_slab {
    rs_thermal_grid g;
    int k0, k1;
    double t_amb;
    int heat;
    double q_cell;          /* W per body cell for a power of 1 W            */
    unsigned char *in;      /* nx·ny: 1 for a body cell (the same every plane) */
    unsigned char *nb;      /* nx·ny: NB_* bits, which in-plane neighbours are body */
    double *t, *tn;         /* (k1 − k0 + 2) planes: halo, own planes, halo   */
};

enum { NB_XM = 1, NB_XP = 2, NB_YM = 4, NB_YP = 8 };

static int in_tube(const rs_thermal_spec *s, int i, int j)
{
    const double dx = 2 * s->radius / s->nx, dy = 2 * s->radius / s->ny;
    const double x = -s->radius + (i + 0.5) * dx, y = -s->radius + (j + 0.5) * dy;
    const double r = sqrt(x * x + y * y);
    return r <= s->radius && r >= s->bore;
}

static int body(const unsigned char *in, int nx, int ny, int i, int j)
{
    return i >= 0 && j >= 0 && i < nx && j < ny && in[(size_t)j * nx + i];
}

int rs_thermal_grid_make(const rs_thermal_spec *s, rs_thermal_grid *g, char *err, size_t errlen)
{
    int st = rs_thermal_spec_check(s, err, errlen);
    if (st)
        return st;
    memset(g, 0, sizeof *g);
    g->nx = s->nx;
    g->ny = s->ny;
    g->nz = s->nz;
    g->dx = 2 * s->radius / s->nx;
    g->dy = 2 * s->radius / s->ny;
    g->dz = s->length / s->nz;
    g->cap = s->density * s->heat_capacity * g->dx * g->dy * g->dz;
    g->gx = s->conductivity * g->dy * g->dz / g->dx;
    g->gy = s->conductivity * g->dx * g->dz / g->dy;
    g->gz = s->conductivity * g->dx * g->dy / g->dz;
    g->hx = s->convection * g->dy * g->dz;
    g->hy = s->convection * g->dx * g->dz;
    g->hz = s->convection * g->dx * g->dy;
    double gmax = 0, side_area = 0;
    for (int j = 0; j < s->ny; j++) {
        for (int i = 0; i < s->nx; i++) {
            if (!in_tube(s, i, j))
                continue;
            g->cells_plane++;
            int nbx = 0, nby = 0;
            for (int d = -1; d <= 1; d += 2) {
                nbx += in_tube(s, i + d, j) && i + d >= 0 && i + d < s->nx;
                nby += in_tube(s, i, j + d) && j + d >= 0 && j + d < s->ny;
            }
            side_area += (2 - nbx) * g->dy * g->dz + (2 - nby) * g->dx * g->dz;
            /* the worst plane: an end (one z face convects) or, with one
             * plane, both ends */
            const double gz_nb = s->nz == 1 ? 2 * g->hz : g->gz + g->hz;
            const double sum = nbx * g->gx + (2 - nbx) * g->hx + nby * g->gy + (2 - nby) * g->hy +
                               (s->nz >= 3 ? fmax(gz_nb, 2 * g->gz) : gz_nb);
            if (sum > gmax)
                gmax = sum;
        }
    }
    if (g->cells_plane == 0) {
        return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line,
                          "thermal: no cell of the %dx%d grid has its centre in the tube %g <= r <= %g m: "
                          "use a finer grid or a thinner bore",
                          s->nx, s->ny, s->bore, s->radius);
    }
    g->cells = g->cells_plane * s->nz;
    g->volume = (double)g->cells * g->dx * g->dy * g->dz;
    g->area = side_area * s->nz + 2.0 * (double)g->cells_plane * g->dx * g->dy;
    g->dt_stable = gmax > 0 ? g->cap / gmax : INFINITY;
    return RS_OK;
}

long rs_thermal_substeps(const rs_thermal_grid *g, double dt)
{
    if (!(dt > 0))
        return 0;
    const double n = ceil(dt / g->dt_stable);
    return n < 1 ? 1 : (long)n;
}

int rs_thermal_slab_create(const rs_thermal_spec *s, int k0, int k1, rs_thermal_slab **out, char *err,
                           size_t errlen)
{
    *out = NULL;
    rs_thermal_grid g;
    int st = rs_thermal_grid_make(s, &g, err, errlen);
    if (st)
        return st;
    if (k0 < 0 || k1 > s->nz || k0 >= k1)
        return rs_fail(err, errlen, RS_E_ARG, "thermal slab: planes %d..%d outside the grid's 0..%d", k0, k1 - 1,
                       s->nz - 1);
    rs_thermal_slab *sl = rs_alloc(NULL, 1, sizeof *sl);
    const size_t nxy = (size_t)s->nx * s->ny, np = (size_t)(k1 - k0 + 2);
    if (!sl || !(sl->in = rs_alloc(NULL, nxy, 1)) || !(sl->nb = rs_alloc(NULL, nxy, 1)) || !(sl->t = rs_alloc(NULL, nxy * np, sizeof(double))) ||
        !(sl->tn = rs_alloc(NULL, nxy * np, sizeof(double)))) {
        rs_thermal_slab_free(&sl);
        return rs_fail(err, errlen, RS_E_NOMEM, "thermal: out of memory for a %dx%dx%d slab", s->nx, s->ny,
                       k1 - k0);
    }
    sl->g = g;
    sl->k0 = k0;
    sl->k1 = k1;
    sl->t_amb = s->ambient;
    sl->heat = s->heat;
    sl->q_cell = s->heat == RS_THERMAL_HEAT_END ? 1.0 / (double)g.cells_plane : 1.0 / (double)g.cells;
    for (int j = 0; j < s->ny; j++)
        for (int i = 0; i < s->nx; i++)
            sl->in[(size_t)j * s->nx + i] = (unsigned char)in_tube(s, i, j);
    /* the neighbours once, not per sub-step */
    for (int j = 0; j < s->ny; j++)
        for (int i = 0; i < s->nx; i++)
            sl->nb[(size_t)j * s->nx + i] =
                (unsigned char)((body(sl->in, s->nx, s->ny, i - 1, j) ? NB_XM : 0) |
                                (body(sl->in, s->nx, s->ny, i + 1, j) ? NB_XP : 0) |
                                (body(sl->in, s->nx, s->ny, i, j - 1) ? NB_YM : 0) |
                                (body(sl->in, s->nx, s->ny, i, j + 1) ? NB_YP : 0));
    for (size_t c = 0; c < nxy * np; c++)
        sl->t[c] = sl->tn[c] = s->initial;
    *out = sl;
    return RS_OK;
}

void rs_thermal_slab_free(rs_thermal_slab **sl)
{
    if (!sl || !*sl)
        return;
    rs_free(NULL, (*sl)->in);
    rs_free(NULL, (*sl)->nb);
    rs_free(NULL, (*sl)->t);
    rs_free(NULL, (*sl)->tn);
    rs_free(NULL, *sl);
    *sl = NULL;
}

const rs_thermal_grid *rs_thermal_slab_grid(const rs_thermal_slab *sl) { return &sl->g; }
int rs_thermal_slab_k0(const rs_thermal_slab *sl) { return sl->k0; }
int rs_thermal_slab_k1(const rs_thermal_slab *sl) { return sl->k1; }

double *rs_thermal_slab_plane(rs_thermal_slab *sl, int k)
{
    return sl->t + (size_t)(k - sl->k0 + 1) * sl->g.nx * sl->g.ny;
}

/* A face's flux into the cell: conduction from a body neighbour, else
 * convection from the air (and its loss counted). */
#define FACE(NB_IN, TNB, G, H)                      \
    do {                                            \
        if (NB_IN) {                                \
            acc += (G) * ((TNB) - tc);              \
        } else {                                    \
            const double f = (H) * (tc - t_amb);    \
            acc -= f;                               \
            lost += f;                              \
        }                                           \
    } while (0)

void rs_thermal_substep(rs_thermal_slab *sl, double P, double h, double *loss)
{
    const rs_thermal_grid *g = &sl->g;
    const int nx = g->nx, ny = g->ny, nz = g->nz;
    const size_t nxy = (size_t)nx * ny;
    const double t_amb = sl->t_amb, q = P * sl->q_cell, r = h / g->cap;
    for (int k = sl->k0; k < sl->k1; k++) {
        const double *t = sl->t + (size_t)(k - sl->k0 + 1) * nxy;
        double *tn = sl->tn + (size_t)(k - sl->k0 + 1) * nxy;
        const double *below = t - nxy, *above = t + nxy;
        const int heated = sl->heat == RS_THERMAL_HEAT_VOLUME || k == 0;
        double lost = 0;
        for (int j = 0; j < ny; j++) {
            for (int i = 0; i < nx; i++) {
                const size_t c = (size_t)j * nx + i;
                if (!sl->in[c]) {
                    tn[c] = t_amb;
                    continue;
                }
                const double tc = t[c];
                const unsigned nb = sl->nb[c];
                double acc = 0;
                FACE(nb & NB_XM, t[c - 1], g->gx, g->hx);
                FACE(nb & NB_XP, t[c + 1], g->gx, g->hx);
                FACE(nb & NB_YM, t[c - nx], g->gy, g->hy);
                FACE(nb & NB_YP, t[c + nx], g->gy, g->hy);
                FACE(k > 0, below[c], g->gz, g->hz);
                FACE(k < nz - 1, above[c], g->gz, g->hz);
                if (heated)
                    acc += q;
                tn[c] = tc + r * acc;
            }
        }
        loss[k - sl->k0] += h * lost;
    }
    double *swap = sl->t;
    sl->t = sl->tn;
    sl->tn = swap;
}

void rs_thermal_plane_sums(const rs_thermal_slab *sl, double *sum)
{
    const size_t nxy = (size_t)sl->g.nx * sl->g.ny;
    for (int k = sl->k0; k < sl->k1; k++) {
        const double *t = sl->t + (size_t)(k - sl->k0 + 1) * nxy;
        double s = 0;
        for (size_t c = 0; c < nxy; c++)
            if (sl->in[c])
                s += t[c];
        sum[k - sl->k0] = s;
    }
}

double rs_thermal_cell(const rs_thermal_slab *sl, int i, int j, int k)
{
    if (k < sl->k0 || k >= sl->k1 || i < 0 || j < 0 || i >= sl->g.nx || j >= sl->g.ny ||
        !sl->in[(size_t)j * sl->g.nx + i])
        return NAN;
    return sl->t[(size_t)(k - sl->k0 + 1) * sl->g.nx * sl->g.ny + (size_t)j * sl->g.nx + i];
}
