/* rs_track_rel.c — see rs_track_rel.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_contact.h"
#include "rs_error.h"
#include "rs_track_rel.h"

static const char *const kSuffix[RS_TREL_COUNT] = {"s_track",    "y_track",     "z_track",
                                                   "roll_track", "pitch_track", "yaw_track"};

const char *rs_track_rel_suffix(int k) { return k >= 0 && k < RS_TREL_COUNT ? kSuffix[k] : ""; }

/* The body index of contact i: the rank of its wheel_body among the
 * distinct names of contacts 0..i. */
static int body_of(const rs_model *m, int i)
{
    int b = 0;
    for (int j = 0; j < i; j++) {
        int first = 1;
        for (int k = 0; k < j && first; k++)
            first = strcmp(m->contacts[k].wheel_body, m->contacts[j].wheel_body) != 0;
        if (!first)
            continue;
        if (strcmp(m->contacts[j].wheel_body, m->contacts[i].wheel_body) == 0)
            return b;
        b++;
    }
    return b;
}

int rs_track_rel_n_wheel_bodies(const rs_model *m)
{
    int n = 0;
    for (int i = 0; i < m->n_contact; i++)
        if (body_of(m, i) == n)
            n++;
    return n;
}

static int is_wheel_body(const rs_model *m, const char *name)
{
    for (int i = 0; i < m->n_contact; i++)
        if (strcmp(m->contacts[i].wheel_body, name) == 0)
            return 1;
    return 0;
}

/* The row in body_names (RS_FN_BODY_POSE) of body b >= the wheel bodies'
 * count nw: the (b − nw)-th body that carries no wheels; -1 past the end. */
static int pose_row(const rs_model *m, int b, int nw)
{
    int k = nw;
    for (int i = 0; i < m->n_body; i++) {
        if (is_wheel_body(m, m->body_names[i]))
            continue;
        if (k++ == b)
            return i;
    }
    return -1;
}

int rs_track_rel_n_bodies(const rs_model *m)
{
    int n = rs_track_rel_n_wheel_bodies(m);
    for (int i = 0; i < m->n_body; i++)
        n += !is_wheel_body(m, m->body_names[i]);
    return n;
}

const char *rs_track_rel_body(const rs_model *m, int b)
{
    for (int i = 0; i < m->n_contact; i++)
        if (body_of(m, i) == b)
            return m->contacts[i].wheel_body;
    const int r = b >= 0 ? pose_row(m, b, rs_track_rel_n_wheel_bodies(m)) : -1;
    return r >= 0 ? m->body_names[r] : "";
}

int rs_track_rel_find(const rs_model *m, const char *name, int *body, int *k)
{
    if (!m || !name)
        return RS_E_NOTFOUND;
    const char *dot = strrchr(name, '.');
    if (!dot)
        return RS_E_NOTFOUND;
    int q = -1;
    for (int j = 0; j < RS_TREL_COUNT; j++)
        if (strcmp(dot + 1, kSuffix[j]) == 0)
            q = j;
    if (q < 0)
        return RS_E_NOTFOUND;
    const size_t len = (size_t)(dot - name);
    const int nb = rs_track_rel_n_bodies(m);
    for (int b = 0; b < nb; b++) {
        const char *bn = rs_track_rel_body(m, b);
        if (strlen(bn) == len && strncmp(bn, name, len) == 0) {
            *body = b;
            *k = q;
            return RS_OK;
        }
    }
    return RS_E_NOTFOUND;
}

struct rs_track_rel {
    const rs_model *m;
    rs_track own;              /* loaded here (has_track == 1)            */
    const rs_track *track;     /* own, a caller's in-memory one, or NULL  */
    int nb, nw;                /* bodies; the first nw carry wheels       */
    int *body;                 /* n_contact: body of each contact         */
    int *row;                  /* nb: body_names row (-1: a wheel body)   */
    double *out[4];            /* RS_FN_WHEEL's outputs                   */
    double *pose;              /* RS_FN_BODY_POSE's output, 12 n_body     */
    double *centre;            /* 3 nb                                    */
    double *val;               /* RS_TREL_COUNT nb                        */
    double *radius;            /* nb                                      */
    double *s;                 /* nb: last arc length (Newton's start)    */
    int *have_s, *hint;        /* nb                                      */
    int phint;                 /* hint of rs_track_rel_point              */
};

void rs_track_rel_free(rs_track_rel **tp)
{
    if (!tp || !*tp)
        return;
    rs_track_rel *t = *tp;
    if (t->track == &t->own)
        rs_track_free(&t->own);
    for (int k = 0; k < 4; k++)
        free(t->out[k]);
    free(t->body);
    free(t->row);
    free(t->pose);
    free(t->centre);
    free(t->val);
    free(t->radius);
    free(t->s);
    free(t->have_s);
    free(t->hint);
    free(t);
    *tp = NULL;
}

/* The track contact 0 names, the same for every contact (a model without
 * contacts: rs_options.track_file, if given): loaded into t->own, or
 * borrowed from rs_options.contact_data. */
static int load_track(rs_track_rel *t, const rs_options *opt, char *err, size_t errlen)
{
    const rs_model *m = t->m;
    const char *file = m->n_contact > 0 ? rs_contact_spline_file(m, opt, 0, RS_SPLINE_TRACK_X) : opt->track_file;
    for (int i = 1; i < m->n_contact; i++) {
        const char *fi = rs_contact_spline_file(m, opt, i, RS_SPLINE_TRACK_X);
        if (strcmp(fi ? fi : "", file ? file : "") != 0)
            return rs_fail(err, errlen, RS_E_VALUE,
                           "contacts '%s' and '%s' run on different tracks ('%s', '%s'): track-relative "
                           "results and 'speed' need one track; give the scenario a 'track \"FILE\"' line",
                           m->contacts[0].name, m->contacts[i].name, file ? file : "", fi ? fi : "");
    }
    if (!file || !file[0])
        return RS_OK;   /* the default straight level track */
    const rs_contact_sources *src = opt->contact_data;
    for (int i = 0; src && i < src->n; i++)
        if (src->items[i].track && src->items[i].file && strcmp(src->items[i].file, file) == 0) {
            t->track = src->items[i].track;
            return RS_OK;
        }
    /* as rs_contact_create finds it: the model's names are relative to
     * contact_dir, a scenario's replacement to the working directory */
    const int replaced = m->n_contact == 0 || file != m->contacts[0].spline[RS_SPLINE_TRACK_X].file;
    char path[4096], msg[512];
    if (!replaced && opt->contact_dir && opt->contact_dir[0] && file[0] != '/')
        snprintf(path, sizeof path, "%s/%s", opt->contact_dir, file);
    else
        snprintf(path, sizeof path, "%s", file);
    const int st = rs_track_load(&t->own, path, msg, sizeof msg);
    if (st)
        return rs_fail(err, errlen, st, "track-relative results: cannot load the track '%s': %s", path, msg);
    t->track = &t->own;
    return RS_OK;
}

int rs_track_rel_open(rs_ws *ws, rs_track_rel **out, char *err, size_t errlen)
{
    *out = NULL;
    const rs_model *m = rs_ws_model(ws);
    const int nb = rs_track_rel_n_bodies(m), nw = rs_track_rel_n_wheel_bodies(m);
    if (nb == 0)
        return rs_fail(err, errlen, RS_E_MODEL,
                       "model '%s' lists no bodies (no body pose function RS_FN_BODY_POSE): compile it again "
                       "with this railsym ('railsym compile')", m->name);
    const rs_func *wf = &m->fn[RS_FN_WHEEL];
    if (nw > 0 && (!wf->fn || wf->n_out < 4))
        return rs_fail(err, errlen, RS_E_MODEL,
                       "model '%s' has no wheel function (RS_FN_WHEEL), which track-relative results and "
                       "'speed' read: compile it again with this railsym ('railsym compile')", m->name);
    if (nb > nw && !m->fn[RS_FN_BODY_POSE].fn)   /* rs_model_validate requires it: a hand-made descriptor */
        return rs_fail(err, errlen, RS_E_MODEL, "model '%s' lists bodies but has no body pose function "
                       "(RS_FN_BODY_POSE): compile it again with this railsym ('railsym compile')", m->name);
    rs_track_rel *t = calloc(1, sizeof *t);
    if (!t)
        return rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
    t->m = m;
    t->nb = nb;
    t->nw = nw;
    const size_t n = (size_t)nb, nc = (size_t)m->n_contact;
    int bad = 0;
    for (int k = 0; k < 4 && nw > 0; k++)
        bad |= !(t->out[k] = calloc((size_t)wf->out_len[k] + 1, sizeof(double)));
    t->pose = calloc(12 * (size_t)m->n_body + 1, sizeof(double));
    t->body = calloc(nc + 1, sizeof *t->body);
    t->row = calloc(n, sizeof *t->row);
    t->centre = calloc(3 * n, sizeof(double));
    t->val = calloc(RS_TREL_COUNT * n, sizeof(double));
    t->radius = calloc(n, sizeof(double));
    t->s = calloc(n, sizeof(double));
    t->have_s = calloc(n, sizeof(int));
    t->hint = calloc(n, sizeof(int));
    if (bad || !t->pose || !t->body || !t->row || !t->centre || !t->val || !t->radius || !t->s || !t->have_s ||
        !t->hint) {
        rs_track_rel_free(&t);
        return rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
    }
    for (int i = 0; i < m->n_contact; i++)
        t->body[i] = body_of(m, i);
    for (int b = 0; b < nb; b++) {
        t->row[b] = b < nw ? -1 : pose_row(m, b, nw);
        t->radius[b] = NAN;   /* a wheel body's: set by each update */
    }
    const int st = load_track(t, rs_ws_options(ws), err, errlen);
    if (st) {
        rs_track_rel_free(&t);
        return st;
    }
    *out = t;
    return RS_OK;
}

int rs_track_rel_has_track(const rs_track_rel *t) { return t->track != NULL; }

const rs_track *rs_track_rel_track(const rs_track_rel *t) { return t->track; }

void rs_track_rel_point(rs_track_rel *t, double s, rs_track_point *tp)
{
    if (t->track) {
        rs_track_eval(t->track, s, &t->phint, tp);
        return;
    }
    memset(tp, 0, sizeof *tp);
    tp->s = s;
    tp->pos[0] = s;
    tp->d1[0] = tp->tangent[0] = 1;
    tp->lateral[1] = 1;
    tp->up[2] = 1;
}

double rs_track_rel_arc(rs_track_rel *t, double x)
{
    if (!t->track)
        return x;
    rs_track_point tp;
    rs_track_eval(t->track, t->track->s_begin, &t->phint, &tp);
    return t->track->s_begin + (x - tp.pos[0]);
}

static double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* Wheel body b's centre (the mean of its wheel centres) and the axes e1,
 * e2 of its non-spinning base, from the wheel function's pose; its first
 * wheel's nominal radius. */
static void wheel_body_pose(rs_track_rel *t, int b, double C[3], double e1[3], double e2[3])
{
    const rs_model *m = t->m;
    int n = 0, first = -1;
    C[0] = C[1] = C[2] = 0;
    for (int i = 0; i < m->n_contact; i++) {
        if (t->body[i] != b)
            continue;
        for (int k = 0; k < 3; k++)
            C[k] += t->out[0][12 * i + k];
        if (first < 0)
            first = i;
        n++;
    }
    for (int k = 0; k < 3; k++)
        C[k] /= n;
    /* R_ground_nsw row-major: its columns are the non-spinning axes */
    const double *R = t->out[0] + 12 * first + 3;
    for (int k = 0; k < 3; k++) {
        e1[k] = R[3 * k];
        e2[k] = R[3 * k + 1];
    }
    t->radius[b] = t->out[3][2 * first];
}

/* From the point nearest to C in plan to the cross-section through C,
 * (C − c(s))·t(s) = 0: they differ where the track climbs (a wheelset's
 * centre, h above the rails along the tilted n̂, lies h sin γ behind its
 * plan-nearest point on a grade γ), and the cross-section is where the
 * body's wheels touch the rails and where `speed` puts it.  A few Newton
 * steps from the plan answer, on d/ds[(C − c)·t] = −|c'| + d·t'. */
static void cross_section(rs_track_rel *t, int b, const double C[3], double *s, rs_track_point *tp)
{
    for (int it = 0; it < 8; it++) {
        double d[3];
        for (int k = 0; k < 3; k++)
            d[k] = C[k] - tp->pos[k];
        const double f = dot3(d, tp->tangent), n1 = sqrt(dot3(tp->d1, tp->d1));
        const double dt = (dot3(d, tp->d2) - f * dot3(tp->tangent, tp->d2)) / n1;   /* d·t' */
        const double df = -n1 + dt;
        if (!(fabs(f) > 1e-13) || !(df < 0))
            return;
        const double sn = *s - f / df;
        if (!(sn >= t->track->s_begin && sn <= t->track->s_end))
            return;   /* off the track's ends: the plan answer stays */
        *s = sn;
        rs_track_eval(t->track, sn, &t->hint[b], tp);
    }
}

/* Body b's quantities from its centre C and axes e1 (forward), e2 (left):
 * the track point nearest to C in plan, and C, e1, e2 in its frame. */
static void relate(rs_track_rel *t, int b, const double C[3], const double e1[3], const double e2[3])
{
    double s = t->have_s[b] ? t->s[b] : rs_track_rel_arc(t, C[0]);
    rs_track_point tp;
    if (t->track) {
        /* outside the track s is clamped and the end cubic extrapolated:
         * the values stay defined, the run is not the place to stop */
        const int pr = rs_track_project(t->track, C, s, &t->hint[b], &s);
        if (pr < 0)
            s = rs_track_rel_arc(t, C[0]);
        rs_track_eval(t->track, s, &t->hint[b], &tp);
        if (pr == RS_OK)
            cross_section(t, b, C, &s, &tp);
    } else {
        s = C[0];
        rs_track_rel_point(t, s, &tp);
    }
    t->s[b] = s;
    t->have_s[b] = 1;
    double d[3];
    for (int k = 0; k < 3; k++) {
        d[k] = C[k] - tp.pos[k];
        t->centre[3 * b + k] = C[k];
    }
    double *v = t->val + RS_TREL_COUNT * b;
    v[RS_TREL_S] = s;
    v[RS_TREL_Y] = dot3(d, tp.lateral);
    v[RS_TREL_Z] = dot3(d, tp.up);
    v[RS_TREL_YAW] = atan2(dot3(e1, tp.lateral), dot3(e1, tp.tangent));
    v[RS_TREL_PITCH] = atan2(-dot3(e1, tp.up), dot3(e1, tp.tangent));
    v[RS_TREL_ROLL] = atan2(dot3(e2, tp.up), dot3(e2, tp.lateral));
}

int rs_track_rel_update(rs_track_rel *t, rs_ws *ws)
{
    int st;
    if ((t->nw > 0 && (st = rs_ws_wheels(ws, t->out))) || (t->nb > t->nw && (st = rs_ws_body_pose(ws, t->pose))))
        return st;
    for (int b = 0; b < t->nb; b++) {
        double C[3], e1[3], e2[3];
        if (b < t->nw) {
            wheel_body_pose(t, b, C, e1, e2);
        } else {
            /* the body's centre of mass and base: R_ground_body's columns */
            const double *P = t->pose + 12 * t->row[b], *R = P + 3;
            for (int k = 0; k < 3; k++) {
                C[k] = P[k];
                e1[k] = R[3 * k];
                e2[k] = R[3 * k + 1];
            }
        }
        relate(t, b, C, e1, e2);
    }
    return RS_OK;
}

double rs_track_rel_value(const rs_track_rel *t, int b, int k) { return t->val[RS_TREL_COUNT * b + k]; }
const double *rs_track_rel_centre(const rs_track_rel *t, int b) { return t->centre + 3 * b; }
double rs_track_rel_radius(const rs_track_rel *t, int b) { return t->radius[b]; }
