/* rs_speed.c — see rs_speed.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <stdlib.h>

#include "rs_contact_ops.h"
#include "rs_error.h"
#include "rs_speed.h"
#include "rs_track_rel.h"

#define MAX_COORDS 64
/* Below this the track counts as straight along ground x (m, rad, 1/m):
 * rounding of the fitted splines, far below any alignment. */
#define STRAIGHT_TOL 1e-9
/* A placed wheel body further than this from where it was put (m, rad)
 * means the model's coordinates are not what `speed` takes them for. */
#define PLACE_TOL 1e-6

/* Index of coordinate `<prefix><last>` (prefix of plen characters), or -1. */
static int find_q(const rs_model *m, const char *prefix, size_t plen, const char *last)
{
    const size_t ll = strlen(last);
    for (int i = 0; i < m->n_q; i++) {
        const char *n = m->q_names[i];
        if (strlen(n) == plen + ll && strncmp(n, prefix, plen) == 0 && strcmp(n + plen, last) == 0)
            return i;
    }
    return -1;
}

/* The wheel body of a coordinate prefix: `<prefix><name>` with no '.' in
 * name (the wheelset "wheelset" of prefix "", "front.ws" of "front."); -1. */
static int wheel_body(const rs_model *m, const char *prefix, size_t plen)
{
    const int nb = rs_track_rel_n_wheel_bodies(m);
    for (int b = 0; b < nb; b++) {
        const char *bn = rs_track_rel_body(m, b);
        if (strncmp(bn, prefix, plen) == 0 && bn[plen] && !strchr(bn + plen, '.'))
            return b;
    }
    return -1;
}

static int param_r0(const rs_model *m)
{
    for (int i = 0; i < m->n_p; i++)
        if (strcmp(m->p_names[i], "r0") == 0)
            return i;
    return -1;
}

int rs_speed_check(const rs_model *m, char *why, size_t len)
{
    int fwd[MAX_COORDS], spin[MAX_COORDS], n_fwd, n_spin;
    rs_model_speed_coords(m, fwd, &n_fwd, spin, &n_spin, MAX_COORDS);
    why[0] = '\0';
    if (n_fwd == 0)
        snprintf(why, len,
                 "model '%s' has no forward coordinate (named 'x' or '<body>.x'), whose velocity 'speed' sets: "
                 "give the velocities with 'initial NAME_dot = V' instead", m->name);
    else if (n_spin > 0 && !m->fn[RS_FN_WHEEL].fn && param_r0(m) < 0)
        snprintf(why, len,
                 "model '%s' has spin coordinates ('%s') but neither a wheel function nor a parameter 'r0' "
                 "giving the rolling radius: give the spin velocities with 'initial %s_dot = V / r0' instead",
                 m->name, m->q_names[spin[0]], m->q_names[spin[0]]);
    return n_fwd;
}

int rs_speed_sets(const rs_model *m, int i)
{
    int fwd[MAX_COORDS], spin[MAX_COORDS], n_fwd, n_spin;
    rs_model_speed_coords(m, fwd, &n_fwd, spin, &n_spin, MAX_COORDS);
    for (int k = 0; k < n_fwd; k++)
        if (fwd[k] == i)
            return 1;
    for (int k = 0; k < n_spin; k++)
        if (spin[k] == i)
            return 1;
    return 0;
}

/* One body `speed` moves: its coordinates (-1: none), its wheel body, its
 * place on the track and its offsets from it. */
typedef struct body {
    int x, y, z, roll, pitch, yaw, wb;
    const char *name;          /* its forward coordinate's name */
    rs_track_point tp;
    double psi;                /* heading at tp */
    double y0, yaw0, roll0, pitch0, yd0, h;
} body;

static double dist_to(double a, double b) { return fabs(a - b); }

/* The bodies without wheels: where their reference point is above the
 * rails is hidden in the model's point definitions, so they cannot be put
 * at "their height along n̂" as wheel bodies are.  Instead their ground x,
 * y, z are moved, coordinate by coordinate, to the minimum of the potential
 * energy with everything else held (Gauss-Seidel sweeps; one evaluation
 * triple per coordinate is exact where the suspension is linear, as V is
 * then quadratic in a translation).  shift[3 k + j] gets the total change
 * of body k's x, y, z.  Without an energy function nothing moves. */
static int relax(rs_ws *ws, const body *g, int ng, double *shift)
{
    const rs_model *m = rs_ws_model(ws);
    double *q = rs_ws_q(ws);
    memset(shift, 0, 3 * (size_t)ng * sizeof *shift);
    if (!m->fn[RS_FN_ENERGY].fn)
        return RS_OK;
    const double h = 1e-3;   /* m: the curvature of V over ±1 mm is far above rounding */
    for (int sweep = 0; sweep < 100; sweep++) {
        double moved = 0;
        for (int k = 0; k < ng; k++) {
            const int idx[3] = {g[k].x, g[k].y, g[k].z};
            for (int j = 0; j < 3 && g[k].wb < 0; j++) {
                if (idx[j] < 0)
                    continue;
                const double q0 = q[idx[j]];
                double V[3];
                for (int e = 0; e < 3; e++) {
                    q[idx[j]] = q0 + (e - 1) * h;
                    int st = rs_ws_energy(ws, NULL, &V[e]);
                    if (st) {
                        q[idx[j]] = q0;
                        return st;
                    }
                }
                q[idx[j]] = q0;
                const double d2 = (V[2] - 2 * V[1] + V[0]) / (h * h), d1 = (V[2] - V[0]) / (2 * h);
                if (!(d2 > 0))
                    continue;   /* no spring holds it along this axis */
                q[idx[j]] = q0 - d1 / d2;
                shift[3 * k + j] -= d1 / d2;
                moved = fmax(moved, fabs(d1 / d2));
            }
        }
        if (moved < 1e-12)
            break;
    }
    return RS_OK;
}

/* Every body's arc length inside the track's range: beyond it the track
 * is its end cubic extrapolated, where a body cannot be put on it; asked
 * when a wheel body did not land, so that the message names that cause
 * (a body just beyond a straight end lands, and runs as before).  RS_OK,
 * or RS_E_VALUE naming the body furthest off, its s, the end it is beyond
 * and the fix. */
static int on_track(const rs_model *m, rs_track_rel *tr, const body *g, int ng, char *err, size_t errlen)
{
    const rs_track *t = rs_track_rel_track(tr);
    if (!t)
        return RS_OK;
    const double tol = 1e-9;   /* m: rounding of s = s_begin + x − x(s_begin) */
    int worst = -1;            /* the body furthest off: the fix must move that far */
    double off = tol;
    for (int k = 0; k < ng; k++) {
        const double d = fmax(t->s_begin - g[k].tp.s, g[k].tp.s - t->s_end);
        if (d > off) {
            off = d;
            worst = k;
        }
    }
    if (worst >= 0) {
        const body *b = &g[worst];
        const double s = b->tp.s;
        const int before = s < t->s_begin;
        char who[200];
        if (b->wb >= 0)
            snprintf(who, sizeof who, "wheel body '%s' (coordinate '%s')", rs_track_rel_body(m, b->wb), b->name);
        else
            snprintf(who, sizeof who, "the body of coordinate '%s'", b->name);
        return rs_fail(err, errlen, RS_E_VALUE,
                       "'speed' would put %s at s = %.6g m, %.6g m %s of track '%s' (s = %.6g .. %.6g m, %s): "
                       "the track does not reach that body.  %s",
                       who, s, before ? t->s_begin - s : s - t->s_end, before ? "before the start" : "past the end",
                       t->name, t->s_begin, t->s_end, t->file[0] ? t->file : "<track>",
                       before ? "Start the track earlier (a longer first element and `origin ... s S` with a "
                                "smaller S), or move every body of the vehicle forward with 'initial <body>.x' "
                                "lines"
                              : "Lengthen the track, or move every body of the vehicle back with 'initial "
                                "<body>.x' lines");
    }
    return RS_OK;
}

/* On a curve: puts every body on the track (rs_speed.h) and checks the
 * wheel bodies landed there. */
static int place(rs_ws *ws, rs_track_rel *tr, body *g, int ng, double V, char *err, size_t errlen)
{
    const rs_model *m = rs_ws_model(ws);
    double *q = rs_ws_q(ws), *qd = rs_ws_qd(ws);
    /* the bodies without wheels keep, on the curve, the offsets from their
     * suspension's neutral place that they have on straight track */
    double straight[3 * MAX_COORDS], curved[3 * MAX_COORDS];
    int st = relax(ws, g, ng, straight);
    for (int k = 0; k < ng && !st; k++) {
        const int idx[3] = {g[k].x, g[k].y, g[k].z};
        for (int j = 0; j < 3; j++)
            if (idx[j] >= 0)
                q[idx[j]] -= straight[3 * k + j];
    }
    if (st)
        return rs_fail(err, errlen, st, "the potential energy: %s", rs_ws_error(ws));
    for (int k = 0; k < ng; k++) {
        body *b = &g[k];
        if (b->y < 0 || b->yaw < 0)
            return rs_fail(err, errlen, RS_E_VALUE,
                           "the track curves where '%s' is (s = %.6g m), and its body has no %s coordinate to "
                           "follow it (named like '%.*sy' and '%.*syaw'): give the initial state by hand with "
                           "'initial' lines and no 'speed'", b->name, b->tp.s, b->y < 0 ? "lateral" : "yaw",
                           (int)strlen(b->name) - 1, b->name, (int)strlen(b->name) - 1, b->name);
        const double *lat = b->tp.lateral;
        b->y0 = q[b->y];
        b->yaw0 = q[b->yaw];
        b->roll0 = b->roll >= 0 ? q[b->roll] : 0;
        b->pitch0 = b->pitch >= 0 ? q[b->pitch] : 0;
        b->yd0 = qd[b->y];
        b->h = b->wb >= 0 ? rs_track_rel_centre(tr, b->wb)[2] : 0;
        /* The angles that turn the body's base onto the track frame (t, ĉ,
         * n̂).  With a pitch coordinate, Rz(yaw) Ry(pitch) Rx(roll) = [t ĉ n̂]
         * exactly.  Without one (a wheelset: its spin takes the pitch), yaw
         * and roll turn its y axis onto ĉ: on a gradient γ the track frame
         * pitches, and the heading ψ and cant θ alone would leave the body
         * yawed by about γ θ from the track.  Level track: ψ, 0 and θ. */
        const double *tan_ = b->tp.tangent, *up = b->tp.up;
        if (b->pitch >= 0) {
            q[b->yaw] = atan2(tan_[1], tan_[0]) + b->yaw0;
            q[b->pitch] = -asin(fmax(-1.0, fmin(1.0, tan_[2]))) + b->pitch0;
        } else
            q[b->yaw] = atan2(-lat[0], lat[1]) + b->yaw0;
        if (b->roll >= 0) {
            q[b->roll] = (b->pitch >= 0 ? atan2(lat[2], up[2]) : asin(fmax(-1.0, fmin(1.0, lat[2])))) + b->roll0;
            qd[b->roll] += V * b->tp.cant_d1;
        }
        qd[b->x] = V * cos(b->psi) + b->yd0 * lat[0];
        qd[b->y] = V * sin(b->psi) + b->yd0 * lat[1];
        qd[b->yaw] += V * b->tp.curvature;
        if (b->wb < 0) {   /* a first guess: relax() below finds its place */
            q[b->x] = b->tp.pos[0] + b->y0 * lat[0];
            q[b->y] = b->tp.pos[1] + b->y0 * lat[1];
        }
    }
    /* wheel bodies: move the centre (now rotated) onto c + y ĉ + h n̂ */
    st = rs_track_rel_update(tr, ws);
    for (int k = 0; k < ng && !st; k++) {
        const body *b = &g[k];
        if (b->wb < 0)
            continue;
        const double *C = rs_track_rel_centre(tr, b->wb);
        double T[3];
        for (int j = 0; j < 3; j++)
            T[j] = b->tp.pos[j] + b->y0 * b->tp.lateral[j] + b->h * b->tp.up[j];
        q[b->x] += T[0] - C[0];
        q[b->y] += T[1] - C[1];
        if (b->z >= 0)
            q[b->z] += T[2] - C[2];
    }
    if (!st && !(st = relax(ws, g, ng, curved)))
        for (int k = 0; k < ng; k++) {
            const int idx[3] = {g[k].x, g[k].y, g[k].z};
            for (int j = 0; j < 3; j++)
                if (idx[j] >= 0)
                    q[idx[j]] -= straight[3 * k + j];
        }
    if (st || (st = rs_track_rel_update(tr, ws)))
        return rs_fail(err, errlen, st, "placing the bodies on the track: %s", rs_ws_error(ws));
    /* the contact-point Newton starts from s: its rail coordinate s_r where
     * the wheel now is (from 0 it would have a curve's length to cross) */
    for (int i = 0; i < m->n_contact; i++) {
        int wb = -1;
        for (int b = 0; b < rs_track_rel_n_wheel_bodies(m); b++)
            if (strcmp(rs_track_rel_body(m, b), m->contacts[i].wheel_body) == 0)
                wb = b;
        if (wb >= 0 && m->contacts[i].s_slot[2] >= 0 && m->contacts[i].s_slot[2] < m->n_s)
            rs_ws_s(ws)[m->contacts[i].s_slot[2]] = rs_track_rel_value(tr, wb, RS_TREL_S);
    }
    /* every wheel body where it was put: its offsets, or none */
    const int nb = rs_track_rel_n_wheel_bodies(m);
    for (int wb = 0; wb < nb; wb++) {
        double y = 0, yaw = 0, roll = 0;
        int has_roll = 0;
        for (int k = 0; k < ng; k++)
            if (g[k].wb == wb) {
                y = g[k].y0, yaw = g[k].yaw0, roll = g[k].roll0;
                has_roll = g[k].roll >= 0;
            }
        const double ey = dist_to(rs_track_rel_value(tr, wb, RS_TREL_Y), y);
        const double eyaw = dist_to(rs_track_rel_value(tr, wb, RS_TREL_YAW), yaw);
        const double eroll = has_roll ? dist_to(rs_track_rel_value(tr, wb, RS_TREL_ROLL), roll) : 0;
        if (!(ey < PLACE_TOL && eyaw < PLACE_TOL && eroll < PLACE_TOL) && (st = on_track(m, tr, g, ng, err, errlen)))
            return st;
        if (!(ey < PLACE_TOL && eyaw < PLACE_TOL && eroll < PLACE_TOL))
            return rs_fail(err, errlen, RS_E_VALUE,
                           "the track is not straight and level (a curve, cant, gradient or irregularity), and "
                           "wheel body '%s' did not land on it: %.3g m, %.3g rad yaw and "
                           "%.3g rad roll from where 'speed' put it (s = %.6g m).  'speed' places a body whose "
                           "coordinates '<body>.x', '.y', '.yaw', '.roll' are ground coordinates; this model's "
                           "are not (a bogie relative to its car body?): give the initial state by hand with "
                           "'initial' lines and no 'speed'",
                           rs_track_rel_body(m, wb), ey, eyaw, eroll, rs_track_rel_value(tr, wb, RS_TREL_S));
    }
    return RS_OK;
}

/* d ν_x of contact i / d q̇_j from the creep function's ∂ν/∂q̇ (0 where
 * structurally zero). */
static double dnux_dqd(const rs_model *m, const double *vals, int i, int j)
{
    const rs_pattern *P = &m->dnu_dqd_pattern;
    for (int k = P->colptr[j]; k < P->colptr[j + 1]; k++)
        if (P->rowind[k] == 3 * i)
            return vals[k];
    return 0;
}

/* The constraint contact knows where each wheel touches the rail once the
 * contact points are solved: rolling without slip there means the wheel
 * body's mean longitudinal slip velocity Σ ν_x is 0, and ν_x is linear in
 * the spin velocity, so one evaluation gives the spin exactly.  The points
 * are found on a scratch workspace (rs_ws_init of a copy), so that ws keeps
 * the state its own initialization will start from.  spins[k] gets the
 * velocity of spin coordinate spin[k] (left as it is where it has no wheel
 * body).  The nominal radius leaves a slip of (r0 − r)/r0 (a 1e-4 of S1002
 * on 60E1: a jolt of the creep force at the start). */
static int rolling_spins(rs_ws *ws, const int *spin, const int *wbs, int n_spin, double *spins, char *err,
                         size_t errlen)
{
    const rs_model *m = rs_ws_model(ws);
    const rs_options *o = rs_ws_options(ws);
    if (!o->contact || o->contact->elastic || !m->fn[RS_FN_CREEP].fn)
        return RS_OK;   /* the elastic contact: the nominal radius (docs/scenario.md) */
    rs_ws *w2 = NULL;
    char msg[600];
    double *out[RS_FN_MAX_OUT] = {0};
    const rs_func *cf = &m->fn[RS_FN_CREEP];
    int st = rs_ws_create(m, o, &w2, msg, sizeof msg);
    if (st) {
        rs_fail(err, errlen, st, "%s", msg);
        return st;
    }
    for (int i = 0; i < m->n_p && !st; i++)
        st = rs_ws_set_param_index(w2, i, rs_ws_p(ws)[i]);
    memcpy(rs_ws_q(w2), rs_ws_q(ws), (size_t)m->n_q * sizeof(double));
    memcpy(rs_ws_qd(w2), rs_ws_qd(ws), (size_t)m->n_q * sizeof(double));
    memcpy(rs_ws_s(w2), rs_ws_s(ws), (size_t)m->n_s * sizeof(double));
    memcpy(rs_ws_sd(w2), rs_ws_sd(ws), (size_t)m->n_s * sizeof(double));
    memcpy(rs_ws_u(w2), rs_ws_u(ws), (size_t)m->n_u * sizeof(double));
    if (st || (st = rs_ws_set_time(w2, rs_ws_time(ws))) || (st = rs_ws_init(w2))) {
        rs_fail(err, errlen, st, "initial state: %s", rs_ws_error(w2));
        goto done;
    }
    for (int k = 0; k < cf->n_out && k < RS_FN_MAX_OUT; k++)
        if (!(out[k] = calloc((size_t)cf->out_len[k] + 1, sizeof(double)))) {
            st = rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
            goto done;
        }
    if ((st = rs_ws_creep_eval(w2, out))) {
        rs_fail(err, errlen, st, "the contacts' slip velocities: %s", rs_ws_error(w2));
        goto done;
    }
    for (int k = 0; k < n_spin; k++) {
        double a = 0, d = 0;
        for (int i = 0; i < m->n_contact && wbs[k] >= 0; i++)
            if (strcmp(m->contacts[i].wheel_body, rs_track_rel_body(m, wbs[k])) == 0) {
                a += out[0][3 * i];
                d += dnux_dqd(m, out[4], i, spin[k]);
            }
        if (d != 0)
            spins[k] = rs_ws_qd(w2)[spin[k]] - a / d;
    }
done:
    for (int k = 0; k < RS_FN_MAX_OUT; k++)
        free(out[k]);
    rs_ws_free(&w2);
    return st;
}

int rs_speed_apply(rs_ws *ws, double V, char *err, size_t errlen)
{
    const rs_model *m = rs_ws_model(ws);
    char why[512];
    if (!(V >= 0) || !isfinite(V))
        return rs_fail(err, errlen, RS_E_VALUE, "speed must be a finite number >= 0 m/s (got %g)", V);
    rs_speed_check(m, why, sizeof why);
    if (why[0])
        return rs_fail(err, errlen, RS_E_VALUE, "%s", why);
    int fwd[MAX_COORDS], spin[MAX_COORDS], n_fwd, n_spin;
    rs_model_speed_coords(m, fwd, &n_fwd, spin, &n_spin, MAX_COORDS);
    rs_track_rel *tr = NULL;
    int st = RS_OK;
    if (m->n_contact > 0) {
        if ((st = rs_track_rel_open(ws, &tr, err, errlen)))
            return st;
        if ((st = rs_track_rel_update(tr, ws))) {
            st = rs_fail(err, errlen, st, "the wheels' positions: %s", rs_ws_error(ws));
            goto done;
        }
    }
    double *qd = rs_ws_qd(ws);
    const int ir0 = param_r0(m);
    for (int k = 0; k < n_spin; k++) {
        const char *n = m->q_names[spin[k]];
        const size_t plen = strlen(n) - strlen("spin");
        const int wb = tr ? wheel_body(m, n, plen) : -1;
        const double r = wb >= 0 ? rs_track_rel_radius(tr, wb) : ir0 >= 0 ? rs_ws_p(ws)[ir0] : NAN;
        if (!(r > 0) || !isfinite(r)) {
            st = rs_fail(err, errlen, RS_E_VALUE,
                         "the rolling radius of '%s' is %g m (%s): it must be positive to give the spin velocity "
                         "V / r0", n, r,
                         wb >= 0 ? "its wheels' nominal radius" : ir0 >= 0 ? "the parameter r0"
                                                                             : "no wheel body, no parameter r0");
            goto done;
        }
        qd[spin[k]] = V / r;
    }
    body g[MAX_COORDS];
    int straight = 1;
    for (int k = 0; k < n_fwd; k++) {
        const char *n = m->q_names[fwd[k]];
        const size_t plen = strlen(n) - 1;
        body *b = &g[k];
        memset(b, 0, sizeof *b);
        b->name = n;
        b->x = fwd[k];
        b->y = find_q(m, n, plen, "y");
        b->z = find_q(m, n, plen, "z");
        b->roll = find_q(m, n, plen, "roll");
        b->yaw = find_q(m, n, plen, "yaw");
        b->pitch = find_q(m, n, plen, "pitch");
        b->wb = tr ? wheel_body(m, n, plen) : -1;
        qd[b->x] = V;
        if (!tr)
            continue;
        const double X = b->wb >= 0 ? rs_track_rel_centre(tr, b->wb)[0] : rs_ws_q(ws)[b->x];
        rs_track_rel_point(tr, rs_track_rel_arc(tr, X), &b->tp);
        b->psi = atan2(b->tp.tangent[1], b->tp.tangent[0]);
        straight = straight && fabs(b->tp.pos[1]) < STRAIGHT_TOL && fabs(b->psi) < STRAIGHT_TOL &&
                   fabs(b->tp.cant) < STRAIGHT_TOL && fabs(b->tp.curvature) < STRAIGHT_TOL &&
                   fabs(b->tp.cant_d1) < STRAIGHT_TOL && fabs(b->tp.pos[2]) < STRAIGHT_TOL &&
                   fabs(b->tp.tangent[2]) < STRAIGHT_TOL;
    }
    if (tr && !straight && (st = place(ws, tr, g, n_fwd, V, err, errlen)))
        goto done;
    if (tr && n_spin > 0) {
        double spins[MAX_COORDS];
        int wbs[MAX_COORDS];
        for (int k = 0; k < n_spin; k++) {
            const char *n = m->q_names[spin[k]];
            wbs[k] = wheel_body(m, n, strlen(n) - strlen("spin"));
            spins[k] = qd[spin[k]];
        }
        if ((st = rolling_spins(ws, spin, wbs, n_spin, spins, err, errlen)))
            goto done;
        for (int k = 0; k < n_spin; k++)
            qd[spin[k]] = spins[k];
    }
done:
    rs_track_rel_free(&tr);
    return st;
}
