/*
 * rs_bifurcation.c — bifurcation diagram, loss of stability and ramp-down
 * from in-process constant-speed runs.  See rs_bifurcation.h.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_bifurcation.h"
#include "rs_closest.h"
#include "rs_contact.h"
#include "rs_critical.h"
#include "rs_dirs.h"
#include "rs_driver.h"
#include "rs_elastic.h"
#include "rs_equilibrium.h"
#include "rs_error.h"
#include "rs_flangeway.h"
#include "rs_plugin_load.h"
#include "rs_scenario.h"
#include "rs_speed.h"
#include "rs_status.h"
#include "rs_ws.h"

#define MAX_FWD 64

void rs_bifurcation_config_default(rs_bifurcation_config *c)
{
    memset(c, 0, sizeof *c);
    c->use_default_scenario = 1;
    c->method = -1;
    c->n_speeds = 5;
    c->small = 0.0005;
    c->large = 0;   /* from the flangeway clearance: choose_large */
    c->tol = 0.002;
    c->max_refine = 10;
    c->ramp_rate = 0.5;
    c->die_fraction = 0.1;
    c->ramp = 1;
    c->two_steps = 1;
    rs_lc_options_default(&c->lc);
}

void rs_bifurcation_result_free(rs_bifurcation_result *r)
{
    if (!r)
        return;
    free(r->pts);
    r->pts = NULL;
    r->n = 0;
}

typedef struct bf {
    const rs_bifurcation_config *c;
    const rs_model *m;
    rs_binding *b;
    rs_plugin_set *plugins;  /* the model's user plugins (docs/plugins.md), or NULL */
    int lat, fwd[MAX_FWD], n_fwd;
    double duration;
    char contact_dir[4096];
    rs_bifurcation_result *r;
    int cap;
    int constraint;          /* the runs use the constraint contact          */
    double large;            /* the large disturbance (m): choose_large      */
    int n_lost;              /* runs of it stopped where a wheel lost its point */
    char refine_fail[700];   /* why a refinement or the half step stopped     */
    char ramp_fail[400];     /* why the ramp-down's start failed             */
} bf;

/* Puts the vehicle on its rails at the disturbance: the static equilibrium
 * (rs_equilibrium.h) of the scenario's `equilibrium` coordinates (its
 * default set when it names none), L held at the disturbance.  The elastic
 * contact always needs it: its wheels carry their load by overlapping the
 * rails, and a wheelset moved sideways climbs its profiles (by 0.8 mm at
 * 10 mm on a 1:13 cone), so the scenario's height, set for one lateral
 * position, would start it pressed hundreds of µm into a rail (MN of
 * normal force, the wheelset thrown off) or hanging above it.  The
 * constraint contact finds its height by projection; it is settled only
 * when the scenario asks. */
static int settle(bf *x, rs_ws *ws, int elastic, char *msg, size_t msglen)
{
    const int *eq;
    int neq;
    const int asked = rs_binding_equilibrium(x->b, &eq, &neq);
    if (!asked && !elastic)
        return RS_OK;
    int *idx = malloc((size_t)x->m->n_q * sizeof *idx);
    if (!idx)
        return rs_fail(msg, msglen, RS_E_NOMEM, "out of memory");
    int n = 0;
    if (asked && neq > 0) {
        for (int i = 0; i < neq; i++)
            if (eq[i] != x->lat)
                idx[n++] = eq[i];
    } else {
        const int nd = rs_equilibrium_default_coords(x->m, idx);
        for (int i = 0; i < nd; i++)
            if (idx[i] != x->lat)
                idx[n++] = idx[i];
    }
    int st = RS_OK;
    if (n > 0) {
        rs_equilibrium_opts eo = {idx, n, 0, 0, NULL, 0};
        st = rs_equilibrium(ws, &eo, NULL, msg, msglen);
    }
    free(idx);
    return st;
}

/* The run options at step dt: the scenario's, its contact mode. */
/* A derailment ends a run whatever the scenario's `derailment` says: a
 * wheel off its rail is no limit cycle (the run is "failed" and says why;
 * without this the elastic contact's event was only counted and a bogie
 * ran on metres beside the track). */
static int stop_at_derailment(void *ctx, const rs_contact_event *e)
{
    (void)ctx;
    return e->kind == RS_EVENT_DERAILMENT;
}

static int run_options(bf *x, double dt, rs_options *opt, char *err, size_t errlen)
{
    rs_options_default(opt);
    rs_binding_options(x->b, opt);
    if (!opt->contact_dir && x->contact_dir[0])
        opt->contact_dir = x->contact_dir;
    if (x->c->method >= 0)
        opt->method = (rs_method)x->c->method;
    opt->dt = dt;
    opt->plugins = rs_plugin_set_tables(x->plugins);
    opt->contact_event = stop_at_derailment;
    opt->contact_event_ctx = NULL;
    const int mode = rs_binding_contact_mode(x->b);
    opt->contact = mode == RS_CONTACT_MODE_ELASTIC      ? rs_elastic_contact()
                   : mode == RS_CONTACT_MODE_CONSTRAINT ? rs_wheel_rail_contact()
                                                        : rs_contact_for_model(x->m);
    x->constraint = x->m->n_contact > 0 && opt->contact && opt->contact != rs_elastic_contact();
    if (!opt->contact)
        return rs_fail(err, errlen, RS_E_UNSUPPORTED,
                       "model '%s': its contacts mix modes: choose one in the scenario ('contact elastic' or "
                       "'contact constraint')", x->m->name);
    return RS_OK;
}

/* The contact of the wheelset whose lateral coordinate L is (its name's
 * or wheel body's prefix + ".y", rs_critical_contact_lateral), else the
 * first contact; -1 without. */
static int lateral_contact(const bf *x)
{
    const rs_model *m = x->m;
    for (int c = 0; c < m->n_contact; c++)
        for (int k = 0; k < 2; k++)
            if (rs_critical_contact_lateral(m, c, k) == x->lat)
                return c;
    return m->n_contact > 0 ? 0 : -1;
}

/* The large disturbance: c->large, else RS_BIF_LARGE_SHARE of the flangeway
 * clearance of L's wheelset (rs_flangeway.h), else 10 mm; said in the log.
 * Beyond the clearance the wheel is held pressed into its flange, where no
 * equilibrium may exist: every large run failed with the old fixed 10 mm
 * on S1002/60E1 (6.3 mm). */
#define RS_BIF_LARGE_SHARE 0.8
static int choose_large(bf *x, char *err, size_t errlen)
{
    const rs_bifurcation_config *c = x->c;
    x->r->flangeway = NAN;
    if (c->large > 0) {
        x->large = c->large;
        return RS_OK;
    }
    x->large = 0.01;
    const int ci = lateral_contact(x);
    char why[1200] = "";
    if (ci < 0) {
        snprintf(why, sizeof why, "the model has no wheel-rail contact to measure a flangeway on");
    } else {
        rs_options opt;
        rs_ws *ws = NULL;
        char msg[1024];
        int st = run_options(x, x->r->dt, &opt, err, errlen);
        if (st)
            return st;
        if ((st = rs_ws_create(x->m, &opt, &ws, msg, sizeof msg)) ||
            (st = rs_binding_apply(x->b, ws, msg, sizeof msg))) {
            rs_ws_free(&ws);
            return rs_fail_model(err, errlen, st, x->m->name, NULL, msg);
        }
        rs_flangeway f;
        if (rs_flangeway_clearance(ws, &opt, ci, &f, msg, sizeof msg) == RS_OK && f.flange) {
            x->large = RS_BIF_LARGE_SHARE * f.y;
            x->r->flangeway = f.y;
            x->r->flange = 1;
            snprintf(why, sizeof why, "%.0f %% of the flangeway clearance of contact '%s', %.3g mm (the rigid "
                     "wheelset's shift at which its contact angle reaches 45 deg, on the flange; wheel taping lines "
                     "at +-%.6g m, rails at +-%.6g m, r0 %.4g m: rs_wr_geometry, as railsym contact-geometry)",
                     100 * RS_BIF_LARGE_SHARE, x->m->contacts[ci].name, 1e3 * f.y, f.b0, f.h_r, f.r0);
        } else if (f.y > 0) {
            /* no flange (a plain cone): nothing bounds the motion but the
             * tables, far out (51 mm on the 1:40 cone); 10 mm, inside them */
            if (RS_BIF_LARGE_SHARE * f.y < x->large)
                x->large = RS_BIF_LARGE_SHARE * f.y;
            snprintf(why, sizeof why, "the wheel of contact '%s' has no flange (its rigid contact leaves the profile "
                     "tables at a shift of %.3g mm before reaching 45 deg): 10 mm, at most %.0f %% of that",
                     x->m->contacts[ci].name, 1e3 * f.y, 100 * RS_BIF_LARGE_SHARE);
        } else {
            snprintf(why, sizeof why, "no flangeway clearance: %s", msg);
        }
        rs_ws_free(&ws);
    }
    if (!c->quiet)
        rs_logf(&c->log, RS_LOG_LINE, "large disturbance: %.4g mm, %s; --large overrides", 1e3 * x->large, why);
    return RS_OK;
}

/* A workspace at time 0: the scenario, L = offset (the vehicle settled on
 * its rails there), running speed V. */
static int make_ws(bf *x, double dt, double offset, double V, rs_ws **ws, char *err, size_t errlen)
{
    rs_options opt;
    int st = run_options(x, dt, &opt, err, errlen);
    if (st)
        return st;
    char msg[2048];
    st = rs_ws_create(x->m, &opt, ws, msg, sizeof msg);
    if (st)
        return rs_fail_model(err, errlen, st, x->m->name, NULL, msg);
    if ((st = rs_binding_apply(x->b, *ws, msg, sizeof msg)) || (st = rs_ws_set_dt(*ws, dt))) {
        rs_ws_free(ws);
        return rs_fail_model(err, errlen, st, x->m->name, NULL, msg);
    }
    rs_ws_q(*ws)[x->lat] = offset;
    if ((st = settle(x, *ws, opt.contact == rs_elastic_contact(), msg, sizeof msg))) {
        rs_ws_free(ws);
        return rs_fail(err, errlen, st, "model '%s', %s = %g m: %s%s", x->m->name, x->m->q_names[x->lat], offset,
                       msg, offset == x->large ? " (the large disturbance, --large: one beyond the flangeway "
                       "clearance holds the wheel pressed into its flange, where no equilibrium may exist; try a "
                       "smaller one, or leave --large out: 80 % of the clearance)" : "");
    }
    if ((st = rs_speed_apply(*ws, V, msg, sizeof msg))) {
        rs_ws_free(ws);
        char at[64];
        snprintf(at, sizeof at, " at %g m/s", V);
        return rs_fail_model(err, errlen, st, x->m->name, at, msg);
    }
    if ((st = rs_ws_init(*ws))) {
        rs_fail(err, errlen, st, "model '%s' at %g m/s, %s = %g m: initial state: %s", x->m->name, V,
                x->m->q_names[x->lat], offset, rs_ws_error(*ws));
        rs_ws_free(ws);
        return st;
    }
    return RS_OK;
}

/* Steps ws for `steps` steps, the forward velocities held at V(t) =
 * V0 − rate · (t − t0), the extrema of L into p.  A failed step returns its
 * status with the message in msg.  With die > 0 it stops at the first
 * extremum below die (*v_die: the speed at the extremum before). */
static int advance(bf *x, rs_ws *ws, long steps, double V0, double rate, rs_peaks *p, double die, double *v_die,
                   char *msg, size_t msglen)
{
    double *q = rs_ws_q(ws), *qd = rs_ws_qd(ws);
    const double t0 = rs_ws_time(ws);
    double v_prev = V0;
    for (long i = 0; i < steps; i++) {
        const int st = rs_step(ws);
        if (st) {
            snprintf(msg, msglen, "%s", rs_ws_error(ws));
            return st;
        }
        const double t = rs_ws_time(ws), V = V0 - rate * (t - t0);
        for (int k = 0; k < x->n_fwd; k++)
            qd[x->fwd[k]] = V;
        const int n0 = p->n;
        if (rs_peaks_add(p, t, q[x->lat]))
            return RS_E_NOMEM;
        if (die > 0 && p->n > n0) {
            if (fabs(p->a[p->n - 1]) < die) {
                *v_die = v_prev;
                return RS_OK;
            }
            v_prev = V;
        }
    }
    return RS_OK;
}

/* A run that grew from its disturbance onto a limit cycle: its end state
 * keeps its peaks (a flange-bounded hunting motion), at an amplitude at
 * least RS_BIF_GREW times the disturbance.  Its end state's rate (≈ 0)
 * says nothing about the growth before; it has lost stability as surely as
 * a run still growing.  (Noise-level limit cycles stay near the
 * disturbance: 0.48..0.51 mm from 0.5 mm on the 1:40 cone.) */
#define RS_BIF_GREW 2.0
static int grew_to_cycle(const rs_bifurcation_point *p)
{
    return p->lc.cls == RS_LC_LIMIT_CYCLE && p->lc.amp > RS_BIF_GREW * p->offset;
}

void rs_bifurcation_describe(const rs_bifurcation_point *p, double change_tol, char *buf, size_t len)
{
    const rs_lc *c = &p->lc;
    int n = 0;
    if (c->cls == RS_LC_LIMIT_CYCLE && (grew_to_cycle(p) || c->amp * RS_BIF_GREW < p->offset))
        n = snprintf(buf, len, "%s from %.3g mm onto a limit cycle of amplitude %.4g mm, %.4g Hz (its peaks steady "
                     "within %.3g %% per period)", grew_to_cycle(p) ? "grew" : "shrank", 1e3 * p->offset,
                     1e3 * c->amp, c->freq, 100 * change_tol);
    else if (c->cls == RS_LC_LIMIT_CYCLE)
        n = snprintf(buf, len, "stayed on a limit cycle of amplitude %.4g mm, %.4g Hz, from %.3g mm (its peaks "
                     "steady within %.3g %% per period)", 1e3 * c->amp, c->freq, 1e3 * p->offset, 100 * change_tol);
    else if (c->cls == RS_LC_GROWING)
        n = snprintf(buf, len, "grows (rate %+.4g ± %.2g 1/s, %+.2f %% per period, %.4g Hz, amplitude %.4g mm at "
                     "the end)", c->rate, c->rate_se, 100 * c->change, c->freq, 1e3 * c->amp);
    else if (c->cls == RS_LC_DECAYING && isfinite(c->rate))
        n = snprintf(buf, len, "decays (rate %+.4g ± %.2g 1/s, %+.2f %% per period, %.4g Hz)", c->rate, c->rate_se,
                     100 * c->change, c->freq);
    else if (c->cls == RS_LC_DECAYING)
        n = snprintf(buf, len, "decays to nothing");
    else if (!isfinite(c->rate) && p->stuck)
        n = snprintf(buf, len, "has no verdict (no oscillation to fit, yet it ends at %.4g mm from the centre, "
                     "started at %.3g mm: held off-centre, not decayed)", 1e3 * p->l_end, 1e3 * p->offset);
    else if (!isfinite(c->rate))
        n = snprintf(buf, len, "has no verdict (too few peaks to fit)");
    else
        n = snprintf(buf, len, "is unclear (peaks scattered more than they trend: rate %+.4g ± %.2g 1/s, "
                     "amplitude %.4g mm, %.4g Hz)", c->rate, c->rate_se, 1e3 * c->amp, c->freq);
    if (p->failed && n >= 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, "; the run failed at t = %.4g s: %s", p->t_fail, p->message);
}

/* A disturbance reduced RS_BIF_DIED-fold has died away: what is left of L
 * is the settled state's own residual (the equilibrium's forces resolved
 * to ~1e-2 N leave the coach's wheelset wandering by 0.2–1.3 µm), whose
 * extrema scatter.  The coach with the strip law at 60 m/s took its 6 mm
 * start down to 2.7 µm by mid-run, and the window's fit over those last
 * peaks and that residual read "unclear" (rate −1.1 ± 1.2 1/s).  So a
 * run's noise floor is the larger of amp_floor and its disturbance over
 * RS_BIF_DIED. */
#define RS_BIF_DIED 1e3
static rs_lc_options run_floor(const rs_lc_options *o, double offset)
{
    rs_lc_options r = *o;
    r.amp_floor = fmax(r.amp_floor, fabs(offset) / RS_BIF_DIED);
    return r;
}

/* One constant-speed run at step dt: its point (kept in r->pts when keep). */
static int const_run(bf *x, double dt, double V, double offset, int branch, int keep, rs_bifurcation_point *pt,
                     char *err, size_t errlen)
{
    memset(pt, 0, sizeof *pt);
    pt->v = V;
    pt->offset = offset;
    pt->branch = branch;
    rs_ws *ws = NULL;
    int st = make_ws(x, dt, offset, V, &ws, err, errlen);
    if (st)
        return st;
    rs_peaks p;
    rs_peaks_init(&p);
    const long steps = lround(x->duration / dt);
    double dummy;
    st = advance(x, ws, steps, V, 0, &p, 0, &dummy, pt->message, sizeof pt->message);
    double t_end = x->duration;
    if (st && st != RS_E_NOMEM) {
        pt->failed = 1;
        pt->status = st;
        pt->t_fail = t_end = rs_ws_time(ws);
        /* the single-point contact's limit, not the vehicle's: a wheel on
         * tread and flange at once lifts one point off (RS_E_LIFTOFF) or
         * runs its point off the profile tables */
        if (x->constraint && (st == RS_E_LIFTOFF || strstr(pt->message, "no contact point on the")))
            x->n_lost++;
        st = RS_OK;
    }
    const rs_lc_options lo = run_floor(&x->c->lc, offset);
    if (!st)
        st = rs_lc_classify(&p, 0, t_end, &lo, &pt->lc);
    pt->l_end = rs_ws_q(ws)[x->lat];
    rs_peaks_free(&p);
    rs_ws_free(&ws);
    if (st)
        return rs_fail(err, errlen, st, "out of memory");
    /* "decays to nothing" needs the nothing: too few extrema to fit while L
     * still sits at half the disturbance or more is a motion that never
     * oscillated back (the elastic bogie's 5 mm start at 80 m/s ended at
     * one side), not a decay */
    if (!pt->failed && pt->lc.cls == RS_LC_DECAYING && !isfinite(pt->lc.rate) &&
        fabs(pt->l_end) >= 0.5 * fabs(offset)) {
        pt->stuck = 1;
        pt->lc.cls = RS_LC_UNCLEAR;
    }
    /* a failed run grew until the contact gave up, or stopped before any
     * verdict: never "decaying" */
    if (pt->failed && pt->lc.cls != RS_LC_GROWING)
        pt->lc.cls = RS_LC_UNCLEAR;
    if (!x->c->quiet) {
        char words[600];
        rs_bifurcation_describe(pt, x->c->lc.change_tol, words, sizeof words);
        rs_logf(&x->c->log, RS_LOG_LINE, "dt %g s, %8.4g m/s, %s = %g mm: %s: %s", dt, V, x->m->q_names[x->lat],
                1e3 * offset, rs_lc_name(pt->lc.cls), words);
    }
    if (keep) {
        rs_bifurcation_result *r = x->r;
        if (r->n == x->cap) {
            const int cap = x->cap ? 2 * x->cap : 32;
            rs_bifurcation_point *np = realloc(r->pts, (size_t)cap * sizeof *np);
            if (!np)
                return rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
            r->pts = np;
            x->cap = cap;
        }
        r->pts[r->n++] = *pt;
    }
    return RS_OK;
}

/* σ for the bracket search: the fitted rate; a run that decayed to nothing
 * (no rate) counts as −∞, one that grew onto a limit cycle as +∞ (the
 * bracket is then halved).  A failed run has none (NaN): whatever it did
 * before failing, a run stopped by a lift-off, a lost contact point or a
 * solver is no evidence of the vehicle's stability, and never a bracket's
 * end (issue 22: a bisection once reported a speed whose "unstable" end
 * was a run that failed at t = 0.024 s). */
static double sigma_of(const rs_bifurcation_point *p)
{
    if (p->failed)
        return NAN;
    if (grew_to_cycle(p))
        return INFINITY;
    if (isfinite(p->lc.rate))
        return p->lc.rate;
    return p->lc.cls == RS_LC_DECAYING ? -INFINITY : INFINITY;
}

/* Regula falsi (Illinois) on σ inside [lo, hi] (σ_lo < 0 < σ_hi) at step
 * dt.  *v: the zero of the final bracket's line; *f its frequency. */
static int refine(bf *x, double dt, rs_bifurcation_point lo, rs_bifurcation_point hi, int keep, double *v,
                  double *f, char *err, size_t errlen)
{
    double slo = sigma_of(&lo), shi = sigma_of(&hi);
    double wlo = 1, whi = 1;   /* Illinois: halve the σ of an end kept twice */
    int side = 0;
    for (int it = 0; it < x->c->max_refine && hi.v - lo.v > x->c->tol * hi.v; it++) {
        double vm;
        if (isfinite(slo) && isfinite(shi))
            vm = lo.v - wlo * slo * (hi.v - lo.v) / (whi * shi - wlo * slo);
        else
            vm = 0.5 * (lo.v + hi.v);
        const double margin = 0.02 * (hi.v - lo.v);
        if (vm < lo.v + margin)
            vm = lo.v + margin;
        if (vm > hi.v - margin)
            vm = hi.v - margin;
        rs_bifurcation_point pm;
        int st = const_run(x, dt, vm, x->c->small, 0, keep, &pm, err, errlen);
        if (st)
            return st;
        const double sm = sigma_of(&pm);
        if (pm.failed) {
            /* stop here: the bracket so far stands, and the summary says why */
            if (!x->refine_fail[0])
                snprintf(x->refine_fail, sizeof x->refine_fail, "the refinement stopped at %.6g m/s (dt %g s), whose "
                         "run failed at t = %.4g s (%.300s): the answer is the bracket's so far, %.6g..%.6g m/s", vm,
                         dt, pm.t_fail, pm.message, lo.v, hi.v);
            break;
        }
        if (sm < 0) {
            lo = pm;
            slo = sm;
            wlo = 1;
            if (side == -1)
                whi *= 0.5;
            side = -1;
        } else {
            hi = pm;
            shi = sm;
            whi = 1;
            if (side == 1)
                wlo *= 0.5;
            side = 1;
        }
    }
    if (isfinite(slo) && isfinite(shi) && shi > slo) {
        const double w = -slo / (shi - slo);
        *v = lo.v + w * (hi.v - lo.v);
        *f = isfinite(lo.lc.freq) && isfinite(hi.lc.freq) ? lo.lc.freq + w * (hi.lc.freq - lo.lc.freq)
                                                          : hi.lc.freq;
    } else {
        *v = 0.5 * (lo.v + hi.v);
        *f = hi.lc.freq;
    }
    return RS_OK;
}

/* A run whose small disturbance decays for certain: decayed to nothing, or
 * a significant decaying trend. */
static int surely_decays(const rs_bifurcation_point *p)
{
    return !p->failed && p->lc.cls == RS_LC_DECAYING;
}

static int surely_grows(const rs_bifurcation_point *p)
{
    return !p->failed && (p->lc.cls == RS_LC_GROWING || grew_to_cycle(p));
}

/* The ramp-down at step dt: *v the speed where it died out (NaN: did not
 * within the range), *a0 the amplitude at its start; ramp_down.csv when
 * f is not NULL. */
static int ramp_down(bf *x, double dt, double *v, double *a0, FILE *f, char *err, size_t errlen)
{
    const rs_bifurcation_config *c = x->c;
    *v = NAN;
    *a0 = 0;
    rs_ws *ws = NULL;
    int st = make_ws(x, dt, x->large, c->v_hi, &ws, err, errlen);
    if (st)
        return st;
    rs_peaks p;
    rs_peaks_init(&p);
    char msg[512];
    double dummy;
    const long settle = lround(x->duration / dt);
    st = advance(x, ws, settle, c->v_hi, 0, &p, 0, &dummy, msg, sizeof msg);
    if (st) {
        /* the large motion ran out of contact (derailment, lift-off): there
         * is no limit cycle to ramp down from; the diagram shows the run */
        if (!c->quiet)
            rs_logf(&c->log, RS_LOG_LINE, "ramp-down: the large disturbance at %g m/s failed (%s): no limit cycle "
                    "to ramp down from", c->v_hi, msg);
        if (!x->ramp_fail[0])
            snprintf(x->ramp_fail, sizeof x->ramp_fail, "at t = %.4g s (%.300s)", rs_ws_time(ws), msg);
        st = st == RS_E_NOMEM ? rs_fail(err, errlen, st, "out of memory") : RS_OK;
        goto done;
    }
    rs_lc lc;
    const rs_lc_options lo = run_floor(&c->lc, x->large);
    if ((st = rs_lc_classify(&p, 0, x->duration, &lo, &lc)))
        goto done;
    if (lc.cls != RS_LC_LIMIT_CYCLE && lc.cls != RS_LC_GROWING) {
        const double l_end = rs_ws_q(ws)[x->lat];
        const int stuck = lc.cls == RS_LC_DECAYING && !isfinite(lc.rate) && fabs(l_end) >= 0.5 * x->large;
        if (stuck && !x->ramp_fail[0])   /* as const_run: no decay without the nothing */
            snprintf(x->ramp_fail, sizeof x->ramp_fail, "to no oscillation, ending at %.4g mm from the centre",
                     1e3 * l_end);
        if (!c->quiet)
            rs_logf(&c->log, RS_LOG_LINE, "ramp-down: the large disturbance at %g m/s is %s%s: no limit cycle to "
                    "ramp down from", c->v_hi, stuck ? "unclear" : rs_lc_name(lc.cls),
                    stuck ? " (no oscillation, held off-centre)" : "");
        goto done;
    }
    *a0 = lc.amp;
    const int n0 = p.n;
    const double t0 = rs_ws_time(ws);
    const long steps = lround((c->v_hi - c->v_lo) / c->ramp_rate / dt);
    double vd = NAN;
    st = advance(x, ws, steps, c->v_hi, c->ramp_rate, &p, c->die_fraction * lc.amp, &vd, msg, sizeof msg);
    if (st) {
        st = rs_fail(err, errlen, st, "ramp-down (dt %g s): the run failed at t = %.4g s, %.4g m/s: %s", dt,
                     rs_ws_time(ws), c->v_hi - c->ramp_rate * (rs_ws_time(ws) - t0), msg);
        goto done;
    }
    *v = vd;
    if (f) {
        fputs("time,speed,amplitude_mm\n", f);
        for (int k = n0; k < p.n; k++)
            fprintf(f, "%.9g,%.9g,%.9g\n", p.t[k], c->v_hi - c->ramp_rate * (p.t[k] - t0), 1e3 * fabs(p.a[k]));
    }
done:
    rs_peaks_free(&p);
    rs_ws_free(&ws);
    return st;
}

static int open_file(const char *dir, const char *name, FILE **f, char *path, size_t len, char *err, size_t errlen)
{
    snprintf(path, len, "%s/%s", dir, name);
    if (!(*f = fopen(path, "w")))
        return rs_fail(err, errlen, RS_E_IO, "cannot write '%s': %s", path, strerror(errno));
    return RS_OK;
}

static int close_file(FILE *f, const char *path, char *err, size_t errlen)
{
    const int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return rs_fail(err, errlen, RS_E_IO, "cannot write '%s'", path);
    return RS_OK;
}

/* Appends to the summary. */
static void say(rs_bifurcation_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(rs_bifurcation_result *r, const char *fmt, ...)
{
    const size_t n = strlen(r->summary);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->summary + n, sizeof r->summary - n, fmt, ap);
    va_end(ap);
}

/* The verdict on the small branch when it has no significant crossing. */
static void no_crossing(const bf *x, rs_bifurcation_result *r, const rs_bifurcation_point *sm, int n)
{
    const rs_bifurcation_config *c = x->c;
    if (!surely_decays(&sm[0]) && surely_grows(&sm[0])) {
        char words[600];
        rs_bifurcation_describe(&sm[0], c->lc.change_tol, words, sizeof words);
        say(r, "already unstable at the lowest speed %g m/s: the small disturbance (%s = %g mm) %s; lower the "
            "range's start\n", c->v_lo, r->lateral, 1e3 * c->small, words);
        return;
    }
    say(r, "no loss of stability found in %g..%g m/s", c->v_lo, c->v_hi);
    double amin = INFINITY, amax = 0, vmin = 0, vmax = 0;
    int nlc = 0, nun = 0, nde = 0, nfail = 0, ifail = -1, nstuck = 0;
    for (int i = 0; i < n; i++) {
        if (sm[i].failed) {
            if (!nfail++)
                ifail = i;
        } else if (sm[i].lc.cls == RS_LC_LIMIT_CYCLE) {
            if (!nlc++)
                vmin = sm[i].v;
            vmax = sm[i].v;
            if (sm[i].lc.amp < amin)
                amin = sm[i].lc.amp;
            if (sm[i].lc.amp > amax)
                amax = sm[i].lc.amp;
        } else if (sm[i].stuck) {
            nstuck++;
        } else if (sm[i].lc.cls == RS_LC_UNCLEAR) {
            nun++;
        } else if (sm[i].lc.cls == RS_LC_DECAYING) {
            nde++;
        }
    }
    if (nlc)
        say(r, "; small limit cycles of amplitude %.3g..%.3g mm found at %g..%g m/s (peaks changing by less than "
            "%.3g %% per period: no growth to call a loss of stability)", 1e3 * amin, 1e3 * amax, vmin, vmax,
            100 * c->lc.change_tol);
    if (nun)
        say(r, "; %d run(s) unclear (peaks scattered more than they trend)", nun);
    if (nstuck)
        say(r, "; %d run(s) without an oscillation to fit, still at half their disturbance or more at the end (no "
            "verdict: lengthen the duration)", nstuck);
    if (nfail)
        say(r, "; %d small-disturbance run(s) failed, left out (a failed run is no evidence of growth and ends no "
            "bracket): the first at %g m/s, at t = %.4g s: %.300s", nfail, sm[ifail].v, sm[ifail].t_fail,
            sm[ifail].message);
    if (nde == n)
        say(r, ": every small disturbance decays (raise the range's end)");
    say(r, "\n");
}

int rs_bifurcation_run(const rs_bifurcation_config *c, rs_bifurcation_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->v_lin[0] = r->v_lin[1] = r->v_lin_x = r->v_lin_err = r->freq_lin = NAN;
    r->v_ramp[0] = r->v_ramp[1] = r->v_ramp_x = r->v_ramp_err = NAN;
    if (err && errlen)
        err[0] = '\0';
    if (!c || !c->model_dir || !c->out_dir || !*c->out_dir)
        return rs_fail(err, errlen, RS_E_ARG, "rs_bifurcation_run: model folder or output folder missing");
    if (!(c->v_lo > 0) || !(c->v_hi > c->v_lo) || !isfinite(c->v_hi) || c->n_speeds < 2 || c->n_speeds > 1000)
        return rs_fail(err, errlen, RS_E_ARG,
                       "the speed range %g:%g is not a range of positive speeds LO < HI, or fewer than 2 speeds",
                       c->v_lo, c->v_hi);
    if (!(c->small > 0) || !(c->large == 0 || c->large > c->small) || !(c->tol > 0) || !(c->ramp_rate > 0) ||
        !(c->die_fraction > 0 && c->die_fraction < 1))
        return rs_fail(err, errlen, RS_E_ARG,
                       "need 0 < small < large disturbance, tolerance > 0, ramp rate > 0, die fraction in (0, 1)");
    bf x;
    memset(&x, 0, sizeof x);
    x.c = c;
    x.r = r;
    rs_loaded *h = NULL;
    rs_scenario s;
    rs_scenario_init(&s);
    int st;
    if (c->model) {
        x.m = c->model;
    } else {
        char name[256], msg[1024];
        rs_load_options lo;
        rs_load_options_default(&lo);
        if (c->include_dir)
            lo.include_dir = c->include_dir;
        lo.model_name = rs_driver_model_name(c->model_dir, name, sizeof name);
        if (!(h = rs_load_ex(c->model_dir, c->loader, &lo, msg, sizeof msg)))
            return rs_fail(err, errlen, RS_E_LOAD, "cannot load model folder '%s': %s", c->model_dir, msg);
        x.m = rs_loaded_model(h);
    }
    if ((st = rs_scenario_load(c->model_dir, c->use_default_scenario, c->scenario, c->set_text, &s, err, errlen)) ||
        (st = rs_scenario_bind(&s, x.m, &x.b, err, errlen)))
        goto done;
    if (!rs_driver_contact_dir(c->model_dir, x.contact_dir, sizeof x.contact_dir))
        x.contact_dir[0] = '\0';
    if ((st = rs_plugin_set_open(x.m, &x.plugins, err, errlen)))
        goto done;
    x.lat = -1;
    if (c->lateral) {
        for (int i = 0; i < x.m->n_q && x.lat < 0; i++)
            if (strcmp(x.m->q_names[i], c->lateral) == 0)
                x.lat = i;
    } else {
        char why[300];
        x.lat = rs_critical_default_lateral(x.m, why, sizeof why);
        if (x.lat >= 0 && !c->quiet)
            rs_logf(&c->log, RS_LOG_LINE, "model '%s': the hunting motion is measured on '%s', %s; --lateral names "
                    "another", x.m->name, x.m->q_names[x.lat], why);
    }
    if (x.lat < 0) {
        const char *best = c->lateral ? rs_closest_name(c->lateral, x.m->q_names, x.m->n_q) : NULL;
        st = rs_fail(err, errlen, RS_E_NOTFOUND, "model '%s' has no coordinate '%s' to disturb and measure%s%s%s",
                     x.m->name, c->lateral ? c->lateral : "y",
                     c->lateral ? "" : " (nor one ending in '.y'): name it with --lateral COORDINATE",
                     best ? " (did you mean '" : "", best ? best : "");
        if (best && err && strlen(err) + 1 < errlen)
            snprintf(err + strlen(err), errlen - strlen(err), "'?)");
        goto done;
    }
    snprintf(r->lateral, sizeof r->lateral, "%s", x.m->q_names[x.lat]);
    {
        int spin[MAX_FWD], n_spin;
        rs_model_speed_coords(x.m, x.fwd, &x.n_fwd, spin, &n_spin, MAX_FWD);
        if (!x.n_fwd) {
            st = rs_fail(err, errlen, RS_E_NOTFOUND,
                         "model '%s' has no forward coordinate ('x' or '<body>.x') to hold the speed of", x.m->name);
            goto done;
        }
    }
    r->dt = rs_binding_step(x.b);
    x.duration = rs_binding_duration(x.b);
    if ((st = choose_large(&x, err, errlen)))
        goto done;
    r->large = x.large;
    if (!(x.large > c->small)) {
        st = rs_fail(err, errlen, RS_E_ARG, "the large disturbance %.4g mm (%s) is not above the small one, %.4g mm: "
                     "give --large and --small", 1e3 * x.large, c->large > 0 ? "--large" : "from the flangeway",
                     1e3 * c->small);
        goto done;
    }
    if (rs_make_dirs(c->out_dir) != 0) {
        st = rs_fail(err, errlen, RS_E_IO, "cannot create the output folder '%s': %s", c->out_dir, strerror(errno));
        goto done;
    }

    /* 1. the diagram at Δt */
    const int n = c->n_speeds;
    rs_bifurcation_point *sm = calloc((size_t)n, sizeof *sm);
    if (!sm) {
        st = rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
        goto done;
    }
    for (int i = 0; i < n && !st; i++) {
        const double v = i == n - 1 ? c->v_hi : c->v_lo + (c->v_hi - c->v_lo) * i / (n - 1);
        rs_bifurcation_point big;
        if (!(st = const_run(&x, r->dt, v, c->small, 0, 1, &sm[i], err, errlen)))
            st = const_run(&x, r->dt, v, x.large, 1, 1, &big, err, errlen);
    }
    /* 2. loss of stability of the small branch, at Δt and Δt/2 */
    /* the lowest grid speed whose small disturbance surely grows, and the
     * nearest speed below it that did not fail: it must surely decay (failed
     * runs between them are left out: no evidence either way) */
    int ihi = -1, ilo = -1;
    for (int i = 1; i < n && !st && ihi < 0; i++)
        if (surely_grows(&sm[i])) {
            int j = i - 1;
            while (j >= 0 && sm[j].failed)
                j--;
            if (j >= 0 && surely_decays(&sm[j])) {
                ihi = i;
                ilo = j;
            } else {
                break;   /* growth above something that does not surely decay */
            }
        }
    if (!st && ihi > 0 && ilo >= 0) {
        r->crossing = 1;
        double f;
        st = refine(&x, r->dt, sm[ilo], sm[ihi], 1, &r->v_lin[0], &r->freq_lin, err, errlen);
        if (!st && c->two_steps) {
            rs_bifurcation_point a, b;
            const double h2 = 0.5 * r->dt;
            int ia = ilo, ib = ihi;
            /* the half step moves the crossing a little: widen by grid steps until it brackets */
            for (int tries = 0; !st && tries < n; tries++) {
                if ((st = const_run(&x, h2, sm[ia].v, c->small, 0, 0, &a, err, errlen)) ||
                    (st = const_run(&x, h2, sm[ib].v, c->small, 0, 0, &b, err, errlen)))
                    break;
                if (sigma_of(&a) < 0 && sigma_of(&b) >= 0)
                    break;
                if (a.failed || b.failed) {
                    const rs_bifurcation_point *p = a.failed ? &a : &b;
                    snprintf(x.refine_fail, sizeof x.refine_fail, "at dt %g s the run at %.6g m/s failed at t = "
                             "%.4g s (%.300s)", h2, p->v, p->t_fail, p->message);
                    break;
                }
                if (sigma_of(&a) >= 0 && ia > 0)
                    ia--;
                else if (sigma_of(&b) < 0 && ib < n - 1)
                    ib++;
                else
                    break;
            }
            if (!st && sigma_of(&a) < 0 && sigma_of(&b) >= 0 &&
                !(st = refine(&x, h2, a, b, 0, &r->v_lin[1], &f, err, errlen))) {
                r->v_lin_x = 2 * r->v_lin[1] - r->v_lin[0];
                r->v_lin_err = fabs(r->v_lin[1] - r->v_lin[0]);
            }
        }
    }
    /* 3. ramp-down */
    if (!st && c->ramp) {
        char path[4200];
        FILE *f = NULL;
        if (!(st = open_file(c->out_dir, "ramp_down.csv", &f, path, sizeof path, err, errlen))) {
            st = ramp_down(&x, r->dt, &r->v_ramp[0], &r->amp_ramp, f, err, errlen);
            const int st2 = close_file(f, path, err, errlen);
            if (!st)
                st = st2;
        }
        if (!st && isfinite(r->v_ramp[0]) && c->two_steps) {
            double a0;
            st = ramp_down(&x, 0.5 * r->dt, &r->v_ramp[1], &a0, NULL, err, errlen);
            if (!st && isfinite(r->v_ramp[1])) {
                r->v_ramp_x = 2 * r->v_ramp[1] - r->v_ramp[0];
                r->v_ramp_err = fabs(r->v_ramp[1] - r->v_ramp[0]);
            }
        }
        r->ramped = isfinite(r->v_ramp[0]);
    }
    /* the verdict */
    if (!st) {
        if (r->crossing) {
            say(r, "loss of stability (small disturbance, %s = %g mm): %.6g m/s at dt %g s", r->lateral,
                1e3 * c->small, r->v_lin[0], r->dt);
            if (isfinite(r->v_lin_x))
                say(r, ", %.6g m/s at dt %g s; extrapolated to dt -> 0: %.6g m/s +- %.3g m/s (%.2g %%, the step's "
                    "error)", r->v_lin[1], 0.5 * r->dt, r->v_lin_x, r->v_lin_err, 100 * r->v_lin_err / r->v_lin_x);
            else if (c->two_steps)
                say(r, "; no answer at dt %g s (%s): the step's error is unknown", 0.5 * r->dt,
                    x.refine_fail[0] ? x.refine_fail : "its runs at the bracket's speeds did not bracket a crossing");
            else
                say(r, " (--one-step: the step's error is not measured)");
            say(r, "; hunting %.4g Hz\n", r->freq_lin);
            if (x.refine_fail[0] && isfinite(r->v_lin_x))
                say(r, "%s\n", x.refine_fail);
        } else {
            no_crossing(&x, r, sm, n);
        }
        if (x.n_lost)
            say(r, "%d run(s) stopped where a wheel lifted off or its contact point left the profile tables: the "
                "constraint contact (one point per wheel) cannot carry a wheel on its tread and its flange at once, "
                "where a hunting wheelset goes at large amplitude; a limit of that contact, not of the vehicle: run "
                "the diagram with elastic contact ('contact elastic' in the scenario or --set 'contact elastic', "
                "docs/contact.md)\n", x.n_lost);
        if (c->ramp) {
            if (r->ramped) {
                say(r, "ramp-down (from the %.3g mm limit cycle at %g m/s, %g m/s per s): the oscillation dies out "
                    "at %.6g m/s at dt %g s", 1e3 * r->amp_ramp, c->v_hi, c->ramp_rate, r->v_ramp[0], r->dt);
                if (isfinite(r->v_ramp_x))
                    say(r, ", %.6g m/s at dt %g s; extrapolated: %.6g m/s +- %.3g m/s", r->v_ramp[1], 0.5 * r->dt,
                        r->v_ramp_x, r->v_ramp_err);
                say(r, "\n");
            } else if (r->amp_ramp > 0) {
                say(r, "ramp-down: the oscillation did not die out down to %g m/s\n", c->v_lo);
            } else if (x.ramp_fail[0]) {
                say(r, "ramp-down: the large disturbance at %g m/s %s %s: no limit cycle to ramp down from\n",
                    c->v_hi, strncmp(x.ramp_fail, "to ", 3) == 0 ? "went" : "failed", x.ramp_fail);
            } else {
                say(r, "ramp-down: the large disturbance at %g m/s does not keep a limit cycle: no ramp-down\n",
                    c->v_hi);
            }
        }
    }
    free(sm);
    /* the diagram's file, whatever was found */
    if (r->n) {
        char path[4200];
        FILE *f = NULL;
        char e2[512];
        int st2 = open_file(c->out_dir, "bifurcation.csv", &f, path, sizeof path, e2, sizeof e2);
        if (!st2) {
            fputs("speed,branch,offset,class,amplitude_mm,rate,rate_se,freq,change,failed\n", f);
            for (int i = 0; i < r->n; i++) {
                const rs_bifurcation_point *p = &r->pts[i];
                fprintf(f, "%.9g,%d,%.6g,%s,%.9g,%.9g,%.6g,%.9g,%.6g,%d\n", p->v, p->branch, p->offset,
                        rs_lc_name(p->lc.cls), 1e3 * p->lc.amp, p->lc.rate, p->lc.rate_se, p->lc.freq, p->lc.change,
                        p->failed);
            }
            st2 = close_file(f, path, e2, sizeof e2);
        }
        if (!st2 && !st && (st2 = open_file(c->out_dir, "summary.txt", &f, path, sizeof path, e2, sizeof e2)) == 0) {
            fputs(r->summary, f);
            st2 = close_file(f, path, e2, sizeof e2);
        }
        if (st2 && !st)
            st = rs_fail(err, errlen, st2, "%s", e2);
    }
done:
    rs_binding_free(&x.b);
    rs_plugin_set_close(&x.plugins); /* every workspace is freed by now */
    rs_scenario_free(&s);
    rs_unload(&h);
    return st;
}
