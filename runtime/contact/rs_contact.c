/*
 * rs_contact.c — contact state of a workspace: loading profiles and tracks,
 * filling the spline input slots, the 4×4 solve, the creep block (Hertz +
 * Kalker over the regularized speed) and C^K_qq = D blockdiag(C_i/V_i) N.
 * See rs_contact.h; the step that uses these is rs_contact_step.c.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "rs_contact.h"
#include "rs_error.h"
#include "rs_hertz.h"
#include "rs_kalker.h"
#include "rs_wr_geometry.h"
#include "rs_ws_impl.h"

int rs_contact_ck_pattern(const rs_pattern *D, const rs_pattern *N, int *colptr, int *rowind,
                          int cap, int *nnz, int *mark)
{
    const int n = N->ncol;
    int p = 0;
    for (int r = 0; r < n; r++)
        mark[r] = -1;
    for (int j = 0; j < n; j++) {
        colptr[j] = p;
        /* rows of column j: D's columns 3i..3i+2 of every contact i that
         * row r of N (in column j) belongs to; the 3×3 block is full. */
        for (int kk = N->colptr[j]; kk < N->colptr[j + 1]; kk++) {
            int i = N->rowind[kk] / 3;
            for (int k = 0; k < 3; k++)
                for (int d = D->colptr[3 * i + k]; d < D->colptr[3 * i + k + 1]; d++)
                    mark[D->rowind[d]] = j;
        }
        for (int r = 0; r < n; r++) /* increasing rows; O(n²) once */
            if (mark[r] == j) {
                if (rowind) {
                    if (p >= cap)
                        return -1;
                    rowind[p] = r;
                }
                p++;
            }
    }
    colptr[n] = p;
    *nnz = p;
    return 0;
}

/* Joins dir and name into buf. */
static void join(char *buf, size_t len, const char *dir, const char *name)
{
    if (dir && dir[0] && name[0] != '/')
        snprintf(buf, len, "%s/%s", dir, name);
    else
        snprintf(buf, len, "%s", name);
}

/* The file of spline k of contact i: the model's, or the replacement the
 * options give (only where the model has a file: a cylinder stays one). */
const char *rs_contact_spline_file(const rs_model *m, const rs_options *opt, int i, int k)
{
    const char *file = m->contacts[i].spline[k].file;
    const char *side = m->contacts[i].side > 0 ? opt->rail_profile_left : opt->rail_profile_right;
    const char *over = k == RS_SPLINE_WHEEL  ? opt->wheel_profile
                       : k == RS_SPLINE_RAIL ? (side && side[0] ? side : opt->rail_profile)
                                             : opt->track_file;
    return file && file[0] && over && over[0] ? over : file;
}

/* The in-memory spline of `file` for spline kind k (RS_SPLINE_*) from the
 * caller's sources: the profile's, or the track's spline of that kind. */
static const rs_spline *source_spline(const rs_contact_sources *src, const char *file, int k)
{
    if (!src)
        return NULL;
    for (int i = 0; i < src->n; i++) {
        const rs_contact_source *e = &src->items[i];
        if (!e->file || strcmp(e->file, file) != 0)
            continue;
        if (k >= RS_SPLINE_TRACK_X && e->track)
            return &e->track->f[k - RS_SPLINE_TRACK_X];
        if (k < RS_SPLINE_TRACK_X && e->profile)
            return &e->profile->spline;
    }
    return NULL;
}

/* rs_model_validate does not check the contact table's slots: do it here,
 * since the step writes through them. */
static int check_contact_table(const rs_model *m, char *err, size_t errlen)
{
    for (int i = 0; i < m->n_contact; i++) {
        const rs_contact *ct = &m->contacts[i];
        int ok = ct->name && ct->wheel_body && ct->phi_row >= 0 && ct->phi_row < m->n_phi;
        for (int k = 0; k < 4; k++)
            ok = ok && ct->s_slot[k] >= 0 && ct->s_slot[k] < m->n_s;
        for (int k = 0; k < 3; k++)
            ok = ok && ct->force_slot[k] >= 0 && ct->force_slot[k] < m->n_u;
        for (int k = 0; k < RS_SPLINE_COUNT; k++) {
            ok = ok && ct->spline[k].s_slot >= 0 && ct->spline[k].s_slot < m->n_s;
            for (int j = 0; j < 5; j++)
                ok = ok && ct->spline[k].u_slot[j] >= 0 && ct->spline[k].u_slot[j] < m->n_u;
        }
        if (!ok)
            return rs_fail(err, errlen, RS_E_MODEL,
                           "model '%s': contact %d ('%s') has a slot or phi_row out of range: "
                           "regenerate the model",
                           m->name, i, ct->name ? ct->name : "?");
    }
    if (m->fn[RS_FN_CREEP].n_out < 5)
        return rs_fail(err, errlen, RS_E_MODEL, "model '%s': the creep function must write 5 outputs", m->name);
    return RS_OK;
}

/* The per-contact arrays (sized by the model's patterns).  0, or -1 when
 * out of memory. */
static int alloc_arrays(rs_contact_ws *c, const rs_model *m, const rs_allocator *a)
{
    const int nc = c->nc, nq = c->nq;
    const int nnzPQ = m->phi_d_q_pattern.colptr[nq];
    const int nnzD = m->ddelta_df_pattern.colptr[3 * nc];
    const int nnzN = m->dnu_dqd_pattern.colptr[nq];
    c->sp = rs_alloc(a, (size_t)(6 * nc), sizeof *c->sp);
    c->hint = rs_alloc(a, (size_t)(6 * nc), sizeof(int));
    c->seg_v = rs_alloc(a, (size_t)(6 * nc), sizeof(int));
    c->u_ok = rs_alloc(a, (size_t)(6 * nc), sizeof(int));
    c->v = rs_alloc(a, (size_t)(30 * nc), sizeof(double));
    c->prof = rs_alloc(a, (size_t)(2 * nc), sizeof(rs_profile));
    c->trk = rs_alloc(a, (size_t)nc, sizeof(rs_track));
    c->phid = rs_alloc(a, (size_t)(4 * nc), sizeof(double));
    c->phids = rs_alloc(a, (size_t)(16 * nc), sizeof(double));
    c->phidq = rs_alloc(a, (size_t)nnzPQ, sizeof(double));
    c->betad = rs_alloc(a, (size_t)(4 * nc), sizeof(double));
    c->nu = rs_alloc(a, (size_t)(3 * nc), sizeof(double));
    c->V = rs_alloc(a, (size_t)nc, sizeof(double));
    c->radii = rs_alloc(a, (size_t)(3 * nc), sizeof(double));
    c->Dv = rs_alloc(a, (size_t)nnzD, sizeof(double));
    c->Nv = rs_alloc(a, (size_t)nnzN, sizeof(double));
    c->Cb = rs_alloc(a, (size_t)(9 * nc), sizeof(double));
    c->nu_t = rs_alloc(a, (size_t)(3 * nc), sizeof(double));
    c->a = rs_alloc(a, (size_t)nc, sizeof(double));
    c->b = rs_alloc(a, (size_t)nc, sizeof(double));
    c->f = rs_alloc(a, (size_t)(3 * nc), sizeof(double));
    c->xi = rs_alloc(a, (size_t)(3 * nc), sizeof(double));
    c->ck_colptr = rs_alloc(a, (size_t)nq + 1, sizeof(int));
    c->pos = rs_alloc(a, (size_t)nq, sizeof(int));
    c->geom = rs_alloc(a, (size_t)(2 * nc), sizeof(double));
    return c->geom && c->sp && c->hint && c->seg_v && c->u_ok && c->v && c->prof && c->trk && c->phid && c->phids &&
                   c->phidq && c->betad && c->nu && c->V && c->radii && c->Dv && c->Nv && c->Cb && c->nu_t &&
                   c->a && c->b && c->f && c->xi && c->ck_colptr && c->pos
               ? 0
               : -1;
}

/* The pattern of C^K_qq (count, then fill) and its contact-by-contact
 * plan. */
static int build_ck(rs_contact_ws *c, const rs_model *m, const rs_allocator *a, char *err, size_t errlen)
{
    int nnz = 0;
    rs_contact_ck_pattern(&m->ddelta_df_pattern, &m->dnu_dqd_pattern, c->ck_colptr, NULL, 0,
                          &nnz, c->pos);
    c->ck_rowind = rs_alloc(a, (size_t)nnz, sizeof(int));
    c->CKv = rs_alloc(a, (size_t)nnz, sizeof(double));
    if (!c->ck_rowind || !c->CKv)
        return rs_fail(err, errlen, RS_E_NOMEM, "rs_ws_create: out of memory");
    rs_contact_ck_pattern(&m->ddelta_df_pattern, &m->dnu_dqd_pattern, c->ck_colptr,
                          c->ck_rowind, nnz, &nnz, c->pos);
    int st = rs_ck_plan_create(&c->ckp, &m->ddelta_df_pattern, &m->dnu_dqd_pattern, c->nc,
                               c->ck_colptr, c->ck_rowind, a);
    if (st)
        return rs_fail(err, errlen, st, "rs_ws_create: %s",
                       st == RS_E_NOMEM ? "out of memory" : "C^K_qq plan: pattern mismatch");
    c->ck.nrow = c->ck.ncol = c->nq;
    c->ck.colptr = c->ck_colptr;
    c->ck.rowind = c->ck_rowind;
    return RS_OK;
}

/* The spline of an earlier contact or kind (before spline k of contact i)
 * loaded from the same file, or NULL: profiles and tracks apart, a track's
 * spline of the same kind as k. */
static const rs_spline *loaded_before(const rs_contact_ws *c, const rs_model *m, const rs_options *opt, int i,
                                      int k, const char *file)
{
    const int is_track = k >= RS_SPLINE_TRACK_X, tk = is_track ? k - RS_SPLINE_TRACK_X : 0;
    for (int i2 = 0; i2 <= i; i2++)
        for (int k2 = 0; k2 < RS_SPLINE_COUNT; k2++) {
            if ((i2 == i && k2 >= k) || (k2 >= RS_SPLINE_TRACK_X) != is_track)
                continue;
            const char *f2 = rs_contact_spline_file(m, opt, i2, k2);
            const rs_spline *s2 = c->sp[6 * i2 + k2];
            if (s2 && f2 && !strcmp(f2, file))
                return is_track ? s2 - (k2 - RS_SPLINE_TRACK_X) + tk : s2;
        }
    return NULL;
}

/* The profile file whose spline s is (NULL: a track's, or one the caller
 * has in memory). */
static const rs_profile *profile_of(const rs_contact_ws *c, const rs_spline *s)
{
    for (int j = 0; j < c->n_prof; j++)
        if (&c->prof[j].spline == s)
            return &c->prof[j];
    return NULL;
}

/* The profile and track files: each distinct name loaded once. */
static int load_files(rs_contact_ws *c, const rs_model *m, const rs_options *opt, char *err, size_t errlen)
{
    /* those the caller has in memory are taken from there */
    const rs_contact_sources *sources = opt->contact_data;
    char path[1024], msg[400];
    for (int i = 0; i < c->nc; i++) {
        const rs_contact *ct = &m->contacts[i];
        for (int k = 0; k < RS_SPLINE_COUNT; k++) {
            const char *file = rs_contact_spline_file(m, opt, i, k);
            const int replaced = file != ct->spline[k].file;
            int is_track = k >= RS_SPLINE_TRACK_X;
            int tk = is_track ? k - RS_SPLINE_TRACK_X : 0;
            if (!file || !file[0])
                continue;
            const rs_spline *found = loaded_before(c, m, opt, i, k, file);
            if (!found)
                found = source_spline(sources, file, k);
            if (!found && sources && sources->no_files)
                return rs_fail(err, errlen, RS_E_IO,
                               "contact '%s': '%s' is not among the in-memory profiles and tracks "
                               "(rs_contact_sources, no_files set)",
                               ct->name, file);
            if (!found) {
                join(path, sizeof path, replaced ? NULL : opt->contact_dir, file);
                int r;
                if (is_track) {
                    rs_track *t = &c->trk[c->n_trk];
                    r = rs_track_load(t, path, msg, sizeof msg);
                    if (r == RS_OK) {
                        c->n_trk++;
                        found = &t->f[tk];
                    }
                } else {
                    rs_profile *p = &c->prof[c->n_prof];
                    r = rs_profile_load(p, path, msg, sizeof msg);
                    if (r == RS_OK) {
                        c->n_prof++;
                        found = &p->spline;
                    }
                }
                if (!found) {
                    const size_t ml = strlen(msg);
                    snprintf(msg + ml, sizeof msg - ml, "%s",
                             replaced ? " (the scenario's replacement file)"
                                      : " (file names in the contact table are relative to "
                                        "rs_options.contact_dir or the working directory)");
                    return rs_fail(err, errlen, RS_E_IO, "contact '%s': cannot load '%s': %s",
                                   ct->name, path, msg);
                }
            }
            /* a wheel file as the rail (or the reverse) would give a
             * contact-point search that fails far from the cause */
            const rs_profile *pf = is_track ? NULL : profile_of(c, found);
            const int want = k == RS_SPLINE_WHEEL ? RS_PROFILE_WHEEL : RS_PROFILE_RAIL;
            if (pf && pf->kind != want)
                return rs_fail(err, errlen, RS_E_VALUE,
                               "contact '%s': '%s' is a %s profile ('kind %s' in the file) but is given as its "
                               "%s profile%s: name a 'kind %s' file there",
                               ct->name, file, want == RS_PROFILE_WHEEL ? "rail" : "wheel",
                               want == RS_PROFILE_WHEEL ? "rail" : "wheel",
                               want == RS_PROFILE_WHEEL ? "wheel" : "rail",
                               replaced ? " (the scenario's replacement file)" : "",
                               want == RS_PROFILE_WHEEL ? "wheel" : "rail");
            c->sp[6 * i + k] = found;
        }
    }
    return RS_OK;
}

int rs_contact_create(const rs_model *m, const rs_options *opt, const rs_allocator *a,
                      rs_contact_ws **out, char *err, size_t errlen)
{
    *out = NULL;
    int st = check_contact_table(m, err, errlen);
    if (st != RS_OK)
        return st;
    if (opt->contact_law != 0)
        return rs_fail(err, errlen, RS_E_UNSUPPORTED,
                       "model '%s': the constraint contact has Kalker's linear law only (saturated "
                       "with a friction coefficient); FASTSIM and Polach need the elastic contact "
                       "(scenario 'contact elastic', rs_elastic_contact())",
                       m->name);
    if (opt->contact_normal != RS_NORMAL_DEFAULT)
        return rs_fail(err, errlen, RS_E_UNSUPPORTED,
                       "model '%s': the constraint contact holds one point per wheel on its rail; the %s "
                       "normal law (scenario 'normal %s', rs_options.contact_normal) belongs to the elastic "
                       "contact (scenario 'contact elastic', rs_elastic_contact())",
                       m->name, opt->contact_normal == RS_NORMAL_POINT ? "point" : "strip",
                       opt->contact_normal == RS_NORMAL_POINT ? "point" : "strips");
    rs_contact_ws *c = rs_alloc(a, 1, sizeof *c);
    if (!c)
        return rs_fail(err, errlen, RS_E_NOMEM, "rs_ws_create: out of memory");
    c->nc = m->n_contact;
    c->nq = m->n_q;
    c->model = m;
    c->u_dirty = 1;
    *out = c;   /* the caller frees it, whatever fails below */
    if (alloc_arrays(c, m, a))
        return rs_fail(err, errlen, RS_E_NOMEM, "rs_ws_create: out of memory");
    if ((st = build_ck(c, m, a, err, errlen)) || (st = load_files(c, m, opt, err, errlen)))
        return st;
    /* A track with a gauge irregularity gives each rail its own reference
     * line (rs_track.h): the contact's x, y, z track splines become its
     * rail's, on the same knots; θ stays the track's f_θ (rs_contact_track
     * finds the track from it). */
    for (int i = 0; i < c->nc; i++) {
        const rs_track *t = rs_contact_track(c, i);
        if (t && t->has_gauge)
            for (int k = 0; k < 3; k++)
                c->sp[6 * i + RS_SPLINE_TRACK_X + k] = &t->rail[m->contacts[i].side > 0 ? 0 : 1][k];
    }
    /* the fill's cache: no segment yet; a spline without a file has one
     * constant segment (the straight level track has f_x = s) */
    for (int j = 0; j < 6 * c->nc; j++) {
        c->seg_v[j] = c->sp[j] ? -1 : 0;
        for (int l = 0; l < 5; l++)
            c->v[5 * j + l] = !c->sp[j] && j % 6 == RS_SPLINE_TRACK_X && l == 2 ? 1.0 : 0.0;
    }
    return RS_OK;
}

void rs_contact_free(rs_contact_ws **cp, const rs_allocator *a)
{
    if (!cp || !*cp)
        return;
    rs_contact_ws *c = *cp;
    rs_ck_plan_free(&c->ckp, a);
    for (int i = 0; i < c->n_prof; i++)
        rs_profile_free(&c->prof[i]);
    for (int i = 0; i < c->n_trk; i++)
        rs_track_free(&c->trk[i]);
    void *arrays[] = {c->sp, c->hint, c->seg_v, c->u_ok, c->v, c->prof, c->trk, c->phid, c->phids, c->phidq,
                      c->betad, c->nu, c->V, c->radii, c->Dv, c->Nv, c->Cb, c->nu_t, c->a,
                      c->b, c->f, c->xi, c->ck_colptr, c->ck_rowind, c->CKv, c->pos, c->geom};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++)
        rs_free(a, arrays[k]);
    rs_free(a, c);
    *cp = NULL;
}

void rs_contact_fill(rs_contact_ws *c, int i, const double *s, double *u)
{
    if (c->u_dirty) { /* u written from outside: rewrite every spline's slots */
        for (int j = 0; j < 6 * c->nc; j++)
            c->u_ok[j] = 0;
        c->u_dirty = 0;
    }
    const int i0 = i < 0 ? 0 : i, i1 = i < 0 ? c->nc : i + 1;
    for (i = i0; i < i1; i++) {
        const rs_contact *ct = &c->model->contacts[i];
        for (int k = 0; k < RS_SPLINE_COUNT; k++) {
            const int j = 6 * i + k;
            const rs_spline *sp = c->sp[j];
            double *v = c->v + 5 * j;
            if (sp) {
                const double x = s[ct->spline[k].s_slot];
                const int h = c->seg_v[j];
                /* unless v's segment still holds x (then rs_spline_find
                 * would return it: x[h] <= x < x[h + 1] has one answer) */
                if (!(h >= 0 && sp->x[h] <= x && x < sp->x[h + 1])) {
                    const int seg = rs_spline_find(sp, x, &c->hint[j], NULL);
                    if (seg != h) {
                        rs_spline_segment(sp, seg, v);
                        c->seg_v[j] = seg;
                        c->u_ok[j] = 0;
                    }
                }
            }
            if (c->u_ok[j])
                continue;
            const int *slot = ct->spline[k].u_slot;
            for (int l = 0; l < 5; l++) /* slots need not be consecutive */
                u[slot[l]] = v[l];
            if (c->rail_move) { /* the polynomial in the segment's own variable */
                const double *mv = c->rail_move + 4 * j, uc = mv[0] - v[4];
                u[slot[3]] += mv[1] - mv[2] * uc + 0.5 * mv[3] * uc * uc;
                u[slot[2]] += mv[2] - mv[3] * uc;
                u[slot[1]] += 0.5 * mv[3];
            }
            c->u_ok[j] = 1;
        }
    }
}

int rs_contact_solve4(double A[16], double b[4])
{
    for (int k = 0; k < 4; k++) {
        int p = k;
        for (int r = k + 1; r < 4; r++)
            if (fabs(A[4 * r + k]) > fabs(A[4 * p + k]))
                p = r;
        if (!(fabs(A[4 * p + k]) > 1e-300) || !isfinite(A[4 * p + k]))
            return -1;
        if (p != k) {
            for (int j = 0; j < 4; j++) {
                double t = A[4 * k + j];
                A[4 * k + j] = A[4 * p + j];
                A[4 * p + j] = t;
            }
            double t = b[k];
            b[k] = b[p];
            b[p] = t;
        }
        for (int r = k + 1; r < 4; r++) {
            double l = A[4 * r + k] / A[4 * k + k];
            for (int j = k + 1; j < 4; j++)
                A[4 * r + j] -= l * A[4 * k + j];
            b[r] -= l * b[k];
        }
    }
    for (int k = 3; k >= 0; k--) {
        double x = b[k];
        for (int j = k + 1; j < 4; j++)
            x -= A[4 * k + j] * b[j];
        b[k] = x / A[4 * k + k];
    }
    return 0;
}

int rs_contact_creep_block(double N, const double radii[3], double V, double E, double nu,
                           double vmin, double Cb[9], double *a, double *b)
{
    memset(Cb, 0, 9 * sizeof(double));
    *a = *b = 0;
    const double Nh = N > 0 ? N : 0; /* Hertz needs N >= 0; lift-off is caught by the step */
    if (Nh == 0)
        return 0;
    double A, B, coef[4], Cm[9];
    rs_hertz_curvature_sums(radii[0], radii[1], INFINITY, radii[2], &A, &B);
    rs_hertz_ellipse el;
    int r = rs_hertz_ellipse_compute(Nh, E, nu, A, B, &el);
    if (r != RS_OK)
        return r;
    r = rs_kalker_coeffs(el.a / el.b, nu, coef);
    if (r < 0)
        return r;
    rs_kalker_creep_matrix(el.a, el.b, rs_kalker_shear_modulus(E, nu), coef, Cm);
    const double Veff = sqrt(V * V + vmin * vmin);
    for (int k = 0; k < 9; k++)
        Cb[k] = Cm[k] / Veff;
    *a = el.a;
    *b = el.b;
    return 0;
}

void rs_contact_ck_values(rs_contact_ws *c)
{
    const rs_pattern *D = &c->model->ddelta_df_pattern, *Np = &c->model->dnu_dqd_pattern;
    for (int j = 0; j < c->nq; j++) {
        for (int p = c->ck_colptr[j]; p < c->ck_colptr[j + 1]; p++) {
            c->pos[c->ck_rowind[p]] = p;
            c->CKv[p] = 0;
        }
        for (int kk = Np->colptr[j]; kk < Np->colptr[j + 1]; kk++) {
            const int r = Np->rowind[kk], i = r / 3, l = r % 3;
            for (int k = 0; k < 3; k++) {
                const double w = c->Cb[9 * i + 3 * k + l] * c->Nv[kk];
                if (w == 0)
                    continue;
                for (int d = D->colptr[3 * i + k]; d < D->colptr[3 * i + k + 1]; d++)
                    c->CKv[c->pos[D->rowind[d]]] += w * c->Dv[d];
            }
        }
    }
}

int rs_contact_check_gauge(struct rs_ws *ws, const rs_contact_ws *c, const double *geom)
{
    const rs_model *m = ws->model;
    for (int i = 0; i < c->nc; i++) {
        const rs_profile *rail = rs_contact_profile(c, i, RS_SPLINE_RAIL);
        const rs_track *trk = rs_contact_track(c, i);
        if (!rail || !trk || !(trk->gauge > 0))
            continue;
        /* No gauge_point in the file: the gauge point by the 14-mm rule on
         * the profile itself (as contact-geometry measures it), so a track's
         * gauge line is never ignored where the rail can say where it is. */
        double gy = rail->gauge_y;
        if (!rail->has_gauge && rs_wrgeom_gauge_point(rail, 0.014, &gy) != 0)
            continue;
        const double h_r = geom[2 * i + 1], half = h_r + gy;
        if (fabs(half - 0.5 * trk->gauge) > 1e-4)
            return rs_ws_fail(ws, RS_E_VALUE,
                              "contact '%s': the model places the rail's gauge point (profile '%s', "
                              "y = %.4f m) %.4f m from the centre line (rail offset %.6f m), a gauge "
                              "of %.4f m (gauge point %s), but track '%s' says gauge %.4f m (%s:%d): "
                              "set the rail offset to %.6f m, or change the track's gauge line to "
                              "'gauge %.5f'",
                              m->contacts[i].name, rail->name, gy, half, h_r, 2 * half,
                              rail->has_gauge ? "from the profile's gauge_point"
                                              : "14 mm below the top, EN 13848-1",
                              trk->name, trk->gauge, trk->file[0] ? trk->file : "<track>",
                              trk->gauge_line, 0.5 * trk->gauge - gy, 2 * half);
    }
    return RS_OK;
}

/* Every profile spline is the `spline` member of an rs_profile and every
 * track θ spline the `f[RS_TRACK_THETA]` of an rs_track (load_files takes
 * them from nowhere else), so the structure is found from the member. */
const rs_profile *rs_contact_profile(const rs_contact_ws *c, int i, int k)
{
    const rs_spline *sp = c->sp[6 * i + k];
    return sp ? (const rs_profile *)(const void *)((const char *)sp - offsetof(rs_profile, spline)) : NULL;
}

const rs_track *rs_contact_track(const rs_contact_ws *c, int i)
{
    /* from f_θ, which stays the track's own where x, y, z are a rail's */
    const rs_spline *sp = c->sp[6 * i + RS_SPLINE_CANT];
    return sp ? (const rs_track *)(const void *)((const char *)sp - offsetof(rs_track, f[RS_TRACK_THETA]))
              : NULL;
}

static const rs_pattern *ck_pattern(const rs_contact_ws *c)
{
    return &c->ck;
}

void rs_contact_move_rails(rs_contact_ws *c, const double *move)
{
    c->rail_move = move;
    c->u_dirty = 1;
}

static void inputs_changed(rs_contact_ws *c)
{
    c->u_dirty = 1;
}

static void step_outputs(rs_contact_ws *c, double **out)
{
    out[0] = c->nu;
    out[1] = c->V;
    out[2] = c->radii;
    out[3] = c->Dv;
    out[4] = c->Nv;
}

/* rhs −= scale · D (Cb ν_t): the creep of prescribed motion, explicit. */
static void add_explicit_creep(const struct rs_ws *ws, double scale, double *rhs)
{
    const rs_contact_ws *c = ws->ct;
    const rs_pattern *D = &ws->model->ddelta_df_pattern;
    for (int j = 0; j < D->ncol; j++)
        for (int k = D->colptr[j]; k < D->colptr[j + 1]; k++)
            rhs[D->rowind[k]] -= scale * c->Dv[k] * c->nu_t[j];
}

static double value(const struct rs_ws *ws, int i, int k)
{
    if (k == RS_CONTACT_VAR_PATCHES) /* one point per wheel */
        return 1;
    if (k > RS_CONTACT_VAR_PATCHES) /* patch quantities: the elastic contact's */
        return NAN;
    if (k >= RS_CONTACT_VAR_Y)
        return rs_contact_track_force(ws, i, k);
    return ws->ct->xi[3 * i + k];
}

const rs_contact_ops *rs_wheel_rail_contact(void)
{
    static const rs_contact_ops ops = {
        rs_contact_create, rs_contact_free, ck_pattern,         rs_contact_bind_k,
        rs_contact_fill,   inputs_changed,  step_outputs,       rs_contact_solve_s,
        rs_contact_solve_sd, rs_contact_creep, rs_contact_add_ck, add_explicit_creep,
        rs_contact_after_solve, value, 0,
        rs_contact_state_size, rs_contact_state_save, rs_contact_state_restore};
    return &ops;
}
