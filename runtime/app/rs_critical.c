/*
 * rs_critical.c — critical-speed search by parallel bisection over sweeps.
 * See rs_critical.h.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_dirs.h"
#include "rs_error.h"
#include "rs_file.h"
#include "rs_critical.h"
#include "rs_driver.h"
#include "rs_closest.h"
#include "rs_scenario.h"
#include "rs_status.h"
#include "rs_sweep.h"
#include "rs_ws.h"

void rs_critical_config_default(rs_critical_config *c)
{
    memset(c, 0, sizeof *c);
    rs_sweep_config_default(&c->run);
    c->tol = 0.005;
    c->max_rounds = 10;
    c->offset = 0.002;
}

void rs_critical_result_free(rs_critical_result *r)
{
    if (!r)
        return;
    free(r->pts);
    r->pts = NULL;
    r->n = 0;
}

/* ---------------------------------------------------------------- names */

int rs_critical_contact_lateral(const rs_model *m, int c, int k)
{
    const char *nm = k == 0 ? m->contacts[c].name : m->contacts[c].wheel_body;
    if (!nm)
        return -1;
    const char *dot = strrchr(nm, '.');
    const size_t n = dot ? (size_t)(dot - nm) : 0;
    char want[256];
    if (n + 3 > sizeof want)
        return -1;
    snprintf(want, sizeof want, "%.*s%sy", (int)n, nm, n ? "." : "");
    for (int i = 0; i < m->n_q; i++)
        if (strcmp(m->q_names[i], want) == 0)
            return i;
    return -1;
}

int rs_critical_default_lateral(const rs_model *m, char *why, size_t len)
{
    for (int c = 0; c < m->n_contact; c++) {
        for (int k = 0; k < 2; k++) {
            const int i = rs_critical_contact_lateral(m, c, k);
            if (i >= 0) {
                if (why)
                    snprintf(why, len, "the first wheelset's lateral coordinate (contact '%s')", m->contacts[c].name);
                return i;
            }
        }
    }
    for (int i = 0; i < m->n_q; i++) {
        const char *q = m->q_names[i];
        const size_t n = strlen(q);
        if (strcmp(q, "y") == 0 || (n > 2 && strcmp(q + n - 2, ".y") == 0)) {
            if (why)
                snprintf(why, len, "the first coordinate named y or <body>.y (%s)",
                         m->n_contact ? "no contact's wheelset has one" : "the model has no wheel-rail contact");
            return i;
        }
    }
    return -1;
}

#define MAX_SET 64

typedef struct crit_names {
    int n_fwd, n_spin;
    const char *fwd[MAX_SET];   /* coordinate names (the model's strings) */
    const char *spin[MAX_SET];
    const char *lateral;
} crit_names;

/* A coordinate of the model by name, with a suggestion when unknown. */
static int find_coord(const rs_model *m, const char *name, const char *what, const char **out, char *err,
                      size_t errlen)
{
    for (int i = 0; i < m->n_q; i++)
        if (strcmp(m->q_names[i], name) == 0) {
            *out = m->q_names[i];
            return RS_OK;
        }
    const char *best = rs_closest_name(name, m->q_names, m->n_q);
    char list[1024];
    size_t k = 0;
    list[0] = '\0';
    for (int i = 0; i < m->n_q && k + 80 < sizeof list; i++)
        k += (size_t)snprintf(list + k, sizeof list - k, "%s%s", i ? ", " : "", m->q_names[i]);
    return rs_fail(err, errlen, RS_E_NOTFOUND,
                   "%s '%s' is not a coordinate of model '%s'%s%s%s; its coordinates: %s", what, name, m->name,
                   best ? " (did you mean '" : "", best ? best : "", best ? "'?)" : "", list);
}

static int resolve_names(const rs_critical_config *c, const rs_model *m, crit_names *nm, char *err, size_t errlen)
{
    memset(nm, 0, sizeof *nm);
    int st;
    if (c->forward) {
        if (c->n_forward > MAX_SET)
            return rs_fail(err, errlen, RS_E_ARG, "at most %d forward coordinates", MAX_SET);
        for (int j = 0; j < c->n_forward; j++)
            if ((st = find_coord(m, c->forward[j], "forward coordinate", &nm->fwd[nm->n_fwd++], err, errlen)))
                return st;
    } else {
        int idx[MAX_SET], spin_idx[MAX_SET], n_spin;
        rs_model_speed_coords(m, idx, &nm->n_fwd, spin_idx, &n_spin, MAX_SET);
        for (int j = 0; j < nm->n_fwd; j++)
            nm->fwd[j] = m->q_names[idx[j]];
        if (!nm->n_fwd)
            return rs_fail(err, errlen, RS_E_NOTFOUND,
                           "model '%s' has no coordinate named 'x' or '<body>.x' to set the forward speed "
                           "of: name it with --forward COORDINATE", m->name);
    }
    if (c->spin) {
        if (c->n_spin > MAX_SET)
            return rs_fail(err, errlen, RS_E_ARG, "at most %d spin coordinates", MAX_SET);
        for (int j = 0; j < c->n_spin; j++)
            if ((st = find_coord(m, c->spin[j], "spin coordinate", &nm->spin[nm->n_spin++], err, errlen)))
                return st;
    } else {
        int fwd_idx[MAX_SET], idx[MAX_SET], n_fwd;
        rs_model_speed_coords(m, fwd_idx, &n_fwd, idx, &nm->n_spin, MAX_SET);
        for (int j = 0; j < nm->n_spin; j++)
            nm->spin[j] = m->q_names[idx[j]];
    }
    if (c->lateral) {
        if ((st = find_coord(m, c->lateral, "lateral coordinate", &nm->lateral, err, errlen)))
            return st;
    } else {
        char why[300];
        const int i = rs_critical_default_lateral(m, why, sizeof why);
        if (i >= 0) {
            nm->lateral = m->q_names[i];
            if (!c->run.quiet)
                rs_logf(&c->run.log, RS_LOG_LINE, "model '%s': the hunting motion is measured on '%s', %s; "
                        "--lateral names another", m->name, nm->lateral, why);
        }
        if (!nm->lateral)
            return rs_fail(err, errlen, RS_E_NOTFOUND,
                           "model '%s' has no coordinate named 'y' or '<body>.y' to disturb and measure: "
                           "name it with --lateral COORDINATE", m->name);
    }
    for (int j = 0; j < nm->n_fwd; j++)
        for (int k = 0; k < nm->n_spin; k++)
            if (nm->fwd[j] == nm->spin[k])
                return rs_fail(err, errlen, RS_E_ARG,
                               "'%s' is both a forward and a spin coordinate", nm->fwd[j]);
    for (int j = 0; j < nm->n_fwd + nm->n_spin; j++) {
        const char *q = j < nm->n_fwd ? nm->fwd[j] : nm->spin[j - nm->n_fwd];
        for (int k = 0; k < j; k++)
            if (q == (k < nm->n_fwd ? nm->fwd[k] : nm->spin[k - nm->n_fwd]))
                return rs_fail(err, errlen, RS_E_ARG, "coordinate '%s' is named twice", q);
    }
    return RS_OK;
}

/* A scenario `equilibrium` that solves for the lateral coordinate would
 * solve every run's disturbance away (the runs would then measure the
 * growth of rounding noise): refused, saying what to write. */
static int check_equilibrium(const rs_critical_config *c, const char *lateral, char *err, size_t errlen)
{
    rs_scenario s;
    rs_scenario_init(&s);
    int st = rs_scenario_load(c->run.model_dir, c->run.use_default_scenario, c->run.scenario, c->run.set_text, &s,
                              err, errlen);
    int solved = !st && s.equilibrium && s.n_equil_coords == 0;   /* the default: all but x and spin */
    for (int i = 0; !st && s.equilibrium && i < s.n_equil_coords; i++)
        solved |= strcmp(s.equil_coords[i].name, lateral) == 0;
    if (solved)
        st = rs_fail_at(err, errlen, RS_E_VALUE, s.equil_at.file ? s.equil_at.file : "scenario", s.equil_at.line,
                        "'equilibrium' solves for '%s', which every run sets to the disturbance (--offset): the "
                        "solve would put it back to rest and the runs would measure noise; list the coordinates "
                        "to solve without it ('equilibrium COORD ...', docs/scenario.md), or use --bifurcation, "
                        "which holds it",
                        lateral);
    rs_scenario_free(&s);
    return st;
}

/* The wheel radius: c->radius, else the parameter r0 (the scenarios' last
 * value, else the model's default). */
static int find_radius(const rs_critical_config *c, const rs_model *m, double *r, char *err, size_t errlen)
{
    if (c->radius > 0) {
        *r = c->radius;
        return RS_OK;
    }
    int ip = -1;
    for (int i = 0; i < m->n_p; i++)
        if (strcmp(m->p_names[i], "r0") == 0)
            ip = i;
    if (ip < 0)
        return rs_fail(err, errlen, RS_E_NOTFOUND,
                       "model '%s' has spin coordinates but no parameter 'r0' (the rolling radius): give "
                       "--radius R", m->name);
    *r = m->p_default[ip];
    rs_scenario s;
    rs_scenario_init(&s);
    int st = rs_scenario_load(c->run.model_dir, c->run.use_default_scenario, c->run.scenario, c->run.set_text, &s,
                              err, errlen);
    for (int k = 0; !st && k < s.n_params; k++)
        if (strcmp(s.params[k].name, "r0") == 0)
            *r = s.params[k].value;
    rs_scenario_free(&s);
    if (st)
        return st;
    if (!(*r > 0) || !isfinite(*r))
        return rs_fail(err, errlen, RS_E_ARG,
                       "the rolling radius r0 = %g is not positive: give --radius R", *r);
    return RS_OK;
}

/* ---------------------------------------------------------------- rounds */

typedef struct crit_state {
    const rs_critical_config *c;
    const rs_model *m;
    crit_names nm;
    double radius;
    rs_critical_point *pts;
    int n, cap;
} crit_state;

static int add_point(crit_state *s, const rs_critical_point *p)
{
    if (s->n == s->cap) {
        const int cap = s->cap ? 2 * s->cap : 32;
        rs_critical_point *np = realloc(s->pts, (size_t)cap * sizeof *np);
        if (!np)
            return RS_E_NOMEM;
        s->pts = np;
        s->cap = cap;
    }
    /* sorted by speed; a speed run twice keeps its first result */
    int k = 0;
    while (k < s->n && s->pts[k].v < p->v)
        k++;
    if (k < s->n && s->pts[k].v == p->v)
        return RS_OK;
    memmove(&s->pts[k + 1], &s->pts[k], (size_t)(s->n - k) * sizeof *s->pts);
    s->pts[k] = *p;
    s->n++;
    return RS_OK;
}

/* Runs the speeds v[0..k) as one sweep in out_dir/roundNN and adds their
 * points. */
static int run_round(crit_state *s, int round, const double *v, int k, char *err, size_t errlen)
{
    const rs_critical_config *c = s->c;
    const crit_names *nm = &s->nm;
    const int ncol = nm->n_fwd + nm->n_spin + 1;
    char **names = calloc((size_t)ncol, sizeof *names);
    double *vals = calloc((size_t)ncol * (size_t)k, sizeof *vals);
    rs_sweep_spec *spec = NULL;
    rs_sweep *sw = NULL;
    int st = RS_E_NOMEM;
    if (!names || !vals || rs_sweep_spec_create(&spec) != RS_OK)
        goto done;
    for (int j = 0; j < ncol; j++) {
        const char *q = j < nm->n_fwd ? nm->fwd[j] : j < nm->n_fwd + nm->n_spin ? nm->spin[j - nm->n_fwd] : NULL;
        const size_t len = (q ? strlen(q) : strlen(nm->lateral)) + 8;
        if (!(names[j] = malloc(len)))
            goto done;
        if (q)
            snprintf(names[j], len, "%s_dot", q);
        else
            snprintf(names[j], len, "%s", nm->lateral);
    }
    for (int i = 0; i < k; i++)
        for (int j = 0; j < ncol; j++)
            vals[(size_t)i * (size_t)ncol + (size_t)j] =
                j < nm->n_fwd ? v[i] : j < nm->n_fwd + nm->n_spin ? v[i] / s->radius : c->offset;
    char arg[300];
    if ((st = rs_sweep_spec_rows(spec, ncol, (const char *const *)names, k, vals, err, errlen)))
        goto done;
    snprintf(arg, sizeof arg, "rate:%s", nm->lateral);
    if ((st = rs_sweep_spec_figure(spec, arg, err, errlen)))
        goto done;
    snprintf(arg, sizeof arg, "freq:%s", nm->lateral);
    if ((st = rs_sweep_spec_figure(spec, arg, err, errlen)))
        goto done;

    char dir[4096];
    snprintf(dir, sizeof dir, "%s/round%02d", c->out_dir, round);
    rs_sweep_config sc = c->run;
    sc.out_dir = dir;
    sc.model = s->m;
    sc.quiet = 1;
    /* nor the runs' own lines (a derailment's events): the round's line
     * says each run's outcome, a failed one with its message */
    sc.log = (rs_log){0};
    sc.max_variants = 0;
    sc.retry_failed = 0;
    if ((st = rs_sweep_open(&sw, &sc, spec, err, errlen)) || (st = rs_sweep_attach(sw, err, errlen)))
        goto done;
    rs_sweep_report rep;
    memset(&rep, 0, sizeof rep);
    if ((st = rs_sweep_run_local(sw, &rep, err, errlen)))
        goto done;
    for (int i = 0; i < k; i++) {
        rs_critical_point p;
        memset(&p, 0, sizeof p);
        p.v = v[i];
        p.round = round;
        p.rate = rs_sweep_figure(sw, i, 0);
        p.freq = rs_sweep_figure(sw, i, 1);
        const int vs = rs_sweep_status(sw, i);
        if (vs == RS_VAR_FAILED) {
            /* rated on what it computed before failing */
            p.run_failed = 1;
            char path[4200], why[512];
            snprintf(path, sizeof path, "%s/v%04d.partial.csv", dir, i + 1);
            size_t len = 0;
            char *text;
            rs_read_file(path, 0, 0, &text, &len);
            double fig[2] = {NAN, NAN};
            if (text && rs_sweep_figures_of_csv(spec, text, len, fig, why, sizeof why) == RS_OK) {
                p.rate = fig[0];
                p.freq = fig[1];
            }
            free(text);
            snprintf(path, sizeof path, "%s/v%04d.failed", dir, i + 1);
            if (rs_read_file(path, 0, 0, &text, &len) == 0) {
                while (len && (text[len - 1] == '\n' || text[len - 1] == '\r'))
                    text[--len] = '\0';
                snprintf(p.message, sizeof p.message, "%s", text);
                free(text);
            }
        } else if (vs != RS_VAR_OK) {
            st = rs_fail(err, errlen, RS_E_IO, "round %d: the run at %.6g m/s did not finish", round, v[i]);
            goto done;
        }
        if (isnan(p.rate)) {
            if (!p.run_failed) {
                st = rs_fail(err, errlen, RS_E_ARG,
                             "the run at %.6g m/s (%s/v%04d.csv) shows fewer than 4 extrema of '%s': "
                             "lengthen 'duration' in the scenario (several periods of the hunting motion are needed)",
                             v[i], dir, i + 1, nm->lateral);
                goto done;
            }
            p.status = RS_CRITICAL_FAILED;
        } else {
            p.status = p.rate < 0 ? RS_CRITICAL_STABLE : RS_CRITICAL_UNSTABLE;
        }
        if (p.run_failed)
            p.status = RS_CRITICAL_FAILED;   /* rated, but never a bracket's end: bracket() */
        if (!c->run.quiet) {
            rs_logf(&c->run.log, RS_LOG_LINE, "round %d: %10.6g m/s: rate %+.4g 1/s, %.4g Hz: %s%s%s%s", round,
                    p.v, p.rate, p.freq,
                    p.status == RS_CRITICAL_STABLE ? "stable" : p.status == RS_CRITICAL_UNSTABLE ? "unstable" : "failed",
                    p.run_failed ? " (left out of the bracket: " : "", p.run_failed ? p.message : "",
                    p.run_failed ? ")" : "");
        }
        if ((st = add_point(s, &p)))
            goto done;
    }
    st = RS_OK;
done:
    if (st == RS_E_NOMEM && err && !err[0])
        rs_fail(err, errlen, st, "out of memory");
    rs_sweep_close(&sw);
    rs_sweep_spec_free(&spec);
    if (names)
        for (int j = 0; j < ncol; j++)
            free(names[j]);
    free(names);
    free(vals);
    return st;
}

/* The bracket: the lowest unstable speed and the highest stable speed
 * below it.  Returns 1 when both exist.  A failed run is neither: whatever
 * its partial results showed, a run stopped by a lift-off, a lost contact
 * point or a solver is no evidence of the vehicle's stability (issue 22:
 * the bisection once answered "20.459 m/s" with its upper end a run that
 * failed at t = 0.024 s).  *ifail: the lowest failed run above *ilo that
 * lies below *ihi (or anywhere above, without one), -1 none. */
static int bracket(const crit_state *s, int *ilo, int *ihi, int *ifail)
{
    *ilo = *ihi = *ifail = -1;
    for (int k = 0; k < s->n && *ihi < 0; k++) {
        if (s->pts[k].status == RS_CRITICAL_STABLE) {
            *ilo = k;
            *ifail = -1;
        } else if (s->pts[k].status == RS_CRITICAL_UNSTABLE) {
            *ihi = k;
        } else if (*ifail < 0) {
            *ifail = k;
        }
    }
    return *ilo >= 0 && *ihi >= 0;
}

static int write_csv(const crit_state *s, char *err, size_t errlen)
{
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/critical_speed.csv", s->c->out_dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return rs_fail(err, errlen, RS_E_IO, "cannot write '%s': %s", tmp, strerror(errno));
    fputs("speed,rate,freq,status,round\n", f);
    for (int k = 0; k < s->n; k++) {
        const rs_critical_point *p = &s->pts[k];
        fprintf(f, "%.17g,%.17g,%.17g,%s,%d\n", p->v, p->rate, p->freq,
                p->status == RS_CRITICAL_STABLE ? "stable" : p->status == RS_CRITICAL_UNSTABLE ? "unstable" : "failed",
                p->round);
    }
    const int bad = ferror(f);
    if (fclose(f) != 0 || bad || rename(tmp, path) != 0) {
        remove(tmp);
        return rs_fail(err, errlen, RS_E_IO, "cannot write '%s'", path);
    }
    return RS_OK;
}

int rs_critical_speed(const rs_critical_config *c, rs_critical_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->v_crit = r->freq_crit = NAN;
    if (err && errlen)
        err[0] = '\0';
    if (!c || !c->run.model_dir || !c->out_dir || !*c->out_dir)
        return rs_fail(err, errlen, RS_E_ARG, "rs_critical_speed: model folder or output folder missing");
    if (!(c->v_lo > 0) || !(c->v_hi > c->v_lo) || !isfinite(c->v_hi))
        return rs_fail(err, errlen, RS_E_ARG,
                       "the speed range %g:%g is not a range of positive speeds LO < HI", c->v_lo, c->v_hi);
    if (!(c->tol > 0) || !(c->max_rounds >= 1) || c->max_rounds > 99 || !isfinite(c->offset) || c->offset == 0)
        return rs_fail(err, errlen, RS_E_ARG,
                       "tolerance must be > 0, rounds in 1..99, and the lateral offset non-zero");
    crit_state s;
    memset(&s, 0, sizeof s);
    s.c = c;
    rs_loaded *h = NULL;
    int st = RS_OK;
    if (c->run.model) {
        s.m = c->run.model;
    } else {
        char name[256], msg[1024];
        rs_load_options lo;
        rs_load_options_default(&lo);
        if (c->run.include_dir)
            lo.include_dir = c->run.include_dir;
        lo.model_name = rs_driver_model_name(c->run.model_dir, name, sizeof name);
        if (!(h = rs_load_ex(c->run.model_dir, c->run.loader, &lo, msg, sizeof msg)))
            return rs_fail(err, errlen, RS_E_LOAD, "cannot load model folder '%s': %s", c->run.model_dir, msg);
        s.m = rs_loaded_model(h);
    }
    if ((st = resolve_names(c, s.m, &s.nm, err, errlen)) || (st = check_equilibrium(c, s.nm.lateral, err, errlen)))
        goto done;
    if (s.nm.n_spin && (st = find_radius(c, s.m, &s.radius, err, errlen)))
        goto done;
    if (rs_make_dirs(c->out_dir) != 0) {
        st = rs_fail(err, errlen, RS_E_IO,
                     "cannot create the output folder '%s': %s", c->out_dir, strerror(errno));
        goto done;
    }
    snprintf(r->lateral, sizeof r->lateral, "%s", s.nm.lateral);
    r->radius = s.nm.n_spin ? s.radius : 0;
    {
        size_t k = 0;
        for (int j = 0; j < s.nm.n_fwd + s.nm.n_spin && k + 100 < sizeof r->set; j++) {
            if (j < s.nm.n_fwd)
                k += (size_t)snprintf(r->set + k, sizeof r->set - k, "%s%s_dot = V", j ? ", " : "", s.nm.fwd[j]);
            else
                k += (size_t)snprintf(r->set + k, sizeof r->set - k, ", %s_dot = V / %.6g", s.nm.spin[j - s.nm.n_fwd],
                                      s.radius);
        }
        if (k + 100 < sizeof r->set)
            snprintf(r->set + k, sizeof r->set - k, ", %s = %.6g", s.nm.lateral, c->offset);
        if (!c->run.quiet) {
            rs_logf(&c->run.log, RS_LOG_LINE, "model '%s': each run at speed V sets %s", s.m->name, r->set);
        }
    }

    const int jobs = c->run.jobs < 1 ? 1 : c->run.jobs;
    int k = jobs < 2 ? 2 : jobs;
    double *v = calloc((size_t)(k > jobs ? k : jobs), sizeof *v);
    if (!v) {
        st = RS_E_NOMEM;
        goto done;
    }
    for (int i = 0; i < k; i++)
        v[i] = i == k - 1 ? c->v_hi : c->v_lo + (c->v_hi - c->v_lo) * i / (k - 1);
    int round = 1;
    int ilo = -1, ihi = -1, ifail = -1;
    for (;; round++) {
        if ((st = run_round(&s, round, v, k, err, errlen)))
            break;
        r->rounds = round;
        if (!bracket(&s, &ilo, &ihi, &ifail)) {
            if (s.pts[0].status == RS_CRITICAL_FAILED) {
                const rs_critical_point *p = &s.pts[0];
                st = rs_fail(err, errlen, RS_E_ARG, "the run at the lowest speed %g m/s failed (%s; a failed run "
                             "is no evidence either way, whatever its rate before, here %+.4g 1/s): lower the "
                             "range's start (--range LO:HI), or use the default method (without --bisection)",
                             p->v, p->message, p->rate);
            } else if (ihi == 0) {
                const rs_critical_point *p = &s.pts[0];
                st = rs_fail(err, errlen, RS_E_ARG,
                             "already unstable at the lowest speed %g m/s (rate %+.4g "
                             "1/s): lower the range's start (--range LO:HI)", p->v, p->rate);
            } else if (ifail >= 0) {
                /* stable below, nothing but failed runs above: no bracket */
                const rs_critical_point *p = &s.pts[ifail];
                st = rs_fail(err, errlen, RS_E_ARG,
                             "no bracket: stable up to %g m/s, and the run at %g m/s failed (%s); a failed run is "
                             "no evidence of instability and never ends a bracket: lower the range's end below "
                             "%g m/s, or use the default method (without --bisection), which classifies every run",
                             s.pts[ilo].v, p->v, p->message, p->v);
            } else {
                const rs_critical_point *p = &s.pts[s.n - 1];
                st = rs_fail(err, errlen, RS_E_ARG,
                             "still stable at the highest speed %g m/s (rate %+.4g 1/s): "
                             "raise the range's end (--range LO:HI)", p->v, p->rate);
            }
            break;
        }
        const double lo = s.pts[ilo].v, hi = s.pts[ihi].v;
        if (hi - lo <= c->tol * hi || round >= c->max_rounds)
            break;
        k = jobs;
        for (int i = 0; i < k; i++)
            v[i] = lo + (hi - lo) * (i + 1) / (k + 1);
    }
    free(v);
    if (s.n) {
        char e2[8600];
        const int st2 = write_csv(&s, e2, sizeof e2);
        if (st2 && !st) {
            st = rs_fail(err, errlen, st2, "%s", e2);
        }
    }
    if (!st) {
        /* A crossing made of noise-level rates is no loss of stability: it
         * needs a run below it whose peaks shrink by more than 1 % per
         * period and one above whose peaks grow by more than that
         * (rs_limit_cycle.h's floor; docs/critical_speed.md). */
        int dec = 0, gro = 0;
        double rmax = 0;
        for (int k = 0; k < s.n; k++) {
            const rs_critical_point *p = &s.pts[k];
            const double c = isfinite(p->rate) && p->freq > 0 ? expm1(p->rate / p->freq) : NAN;
            if (isfinite(p->rate) && fabs(p->rate) > rmax)
                rmax = fabs(p->rate);
            if (k <= ilo && p->status != RS_CRITICAL_FAILED && c < -0.01)
                dec = 1;
            if (k >= ihi && p->status != RS_CRITICAL_FAILED && c > 0.01)
                gro = 1;
        }
        if (!dec || !gro)
            st = rs_fail(err, errlen, RS_E_ARG,
                         "no loss of stability found in %g..%g m/s: the rates (all within +-%.3g 1/s) change the "
                         "peaks by less than 1 %% per period %s the sign change at %g..%g m/s (noise level, or a "
                         "small limit cycle): run with --bifurcation to classify the runs", c->v_lo, c->v_hi, rmax,
                         !dec ? "below" : "above", s.pts[ilo].v, s.pts[ihi].v);
    }
    if (!st) {
        const rs_critical_point *a = &s.pts[ilo], *b = &s.pts[ihi];
        r->lo = a->v;
        r->hi = b->v;
        if (isfinite(a->rate) && isfinite(b->rate) && b->rate > a->rate) {
            const double w = -a->rate / (b->rate - a->rate);
            r->v_crit = a->v + w * (b->v - a->v);
            if (isfinite(a->freq) && isfinite(b->freq))
                r->freq_crit = a->freq + w * (b->freq - a->freq);
            else
                r->freq_crit = a->freq;
        } else {
            r->v_crit = 0.5 * (a->v + b->v);
            r->freq_crit = a->freq;
        }
    }
done:
    r->pts = s.pts;
    r->n = s.n;
    rs_unload(&h);
    return st;
}
