/*
 * rs_driver.c — see rs_driver.h.
 *
 * The run uses rs_run with an output interval of one step, so its callback
 * sees every step: it writes a CSV row every `every` steps (and at the end)
 * and prints progress.  The callback is cheap (a counter and one clock read)
 * next to a step.  A real-time run steps in its own loop (run_paced: the
 * same steps and callbacks as rs_run) so that each rs_step is timed alone
 * and each deadline is waited for with an absolute sleep (rs_rt.h).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rs_equilibrium.h"
#include "rs_error.h"
#include "rs_file.h"
#include "rs_progress.h"
#include "rs_contact.h"
#include "rs_creep_bound.h"
#include "rs_results.h"
#include "rs_driver.h"
#include "rs_elastic.h"
#include "rs_stress_run.h"
#include "rs_thermal_run.h"
#include "rs_plugin_load.h"

void rs_run_config_default(rs_run_config *c)
{
    memset(c, 0, sizeof *c);
    c->loader = RS_LOAD_TCC;
    c->use_default_scenario = 1;
    c->method = -1;
    c->progress = -1;
    c->progress_after = 2.0;
    c->progress_every = 1.0;
    c->rt_cpu = -1;
    c->rt_cpu_time = 1;
}

/* KEY's string value in DIR/model.json (rs_load_json_string). */
static int string_from_json(const char *dir, const char *key, int (*ok)(char), char *buf, size_t len)
{
    return rs_load_json_string(dir, key, ok, buf, len);
}

/* A path character the compiler writes unescaped (no quote, backslash or
 * control character). */
static int path_char(char ch) { return ch != '\\' && (unsigned char)ch >= 0x20; }

int rs_driver_contact_dir(const char *dir, char *buf, size_t len)
{
    char root[2048];
    if (!dir || !string_from_json(dir, "contact_root", path_char, root, sizeof root))
        return 0;
    return (size_t)snprintf(buf, len, "%s/%s", dir, root) < len;
}

char *rs_driver_model_name(const char *dir, char *buf, size_t len) { return rs_load_model_name(dir, buf, len); }

/* The first contact file the model's table names that a scenario does not
 * replace ("" when none). */
static const char *first_table_file(const rs_model *m, const rs_options *opt)
{
    for (int i = 0; i < m->n_contact; i++)
        for (int k = 0; k < RS_SPLINE_COUNT; k++) {
            const char *f = m->contacts[i].spline[k].file;
            const char *over = k == RS_SPLINE_WHEEL ? opt->wheel_profile
                               : k == RS_SPLINE_RAIL ? opt->rail_profile
                                                     : opt->track_file;
            if (f && f[0] && f[0] != '/' && !(over && over[0]))
                return f;
        }
    return "";
}

/* The contact table's file names are relative to the folder `railsym
 * compile` ran in (the project's root, usually), which model.json records
 * as seen from the model folder ("contact_root").  Writes DIR/contact_root
 * into buf and returns 1 when the first table file is there.  Folders of an
 * older compiler (no contact_root), or moved away from their tree, are
 * found as before: the working directory, then the model folder upwards
 * (DIR/.., DIR/../.., ...), returning 1 when such a folder has the file. */
static int find_contact_dir(const rs_model *m, const rs_options *opt, const char *model_dir, char *buf,
                            size_t len)
{
    const char *file = first_table_file(m, opt);
    if (!file[0])
        return 0;
    char probe[8192];
    if (rs_driver_contact_dir(model_dir, buf, len)) {
        snprintf(probe, sizeof probe, "%s/%s", buf, file);
        if (access(probe, R_OK) == 0)
            return 1;
    }
    if (access(file, R_OK) == 0)
        return 0;
    size_t k = (size_t)snprintf(buf, len, "%s", model_dir);
    for (int up = 0; up < 32 && k + 4 < len; up++) {
        k += (size_t)snprintf(buf + k, len - k, "/..");
        snprintf(probe, sizeof probe, "%s/%s", buf, file);
        if (access(probe, R_OK) == 0)
            return 1;
        if (access(buf, F_OK) != 0)   /* climbed past the root's reach */
            break;
    }
    return 0;
}

/* State of one run, seen by the per-step callback. */
typedef struct run_ctx {
    const rs_run_config *c;
    const rs_log *log;
    rs_results *csv;
    long n, every, k, rows;
    double t0, t_end;
    rs_progress pr;
    int csv_failed;
    rs_thermal_run *thermal;   /* the scenario's `thermal` model, NULL: none */
    double dt;
    int coupled_failed;
    char coupled_err[512];
    rs_stress_run *stress;     /* the scenario's `stress` models, NULL: none */
} run_ctx;

static int on_step(rs_ws *ws, void *vctx)
{
    run_ctx *x = vctx;
    const long k = x->k++;
    /* the coupling first: the row shows the grid's temperature at this
     * time and the coefficient of the step that follows */
    if (x->thermal && rs_thermal_run_step(x->thermal, ws, k ? x->dt : 0, x->coupled_err, sizeof x->coupled_err)) {
        x->coupled_failed = 1;
        return 1;
    }
    /* one way: the component's stresses at this time, the vehicle untouched */
    if (x->stress && rs_stress_run_step(x->stress, ws, k ? x->dt : 0, x->coupled_err, sizeof x->coupled_err)) {
        x->coupled_failed = 1;
        return 1;
    }
    if (k % x->every == 0 || k == x->n) {
        if (rs_results_write_ws(x->csv, ws) != RS_OK) {
            x->csv_failed = 1;
            return 1;
        }
        x->rows++;
    }
    rs_progress_tick(&x->pr, rs_ws_time(ws));
    return 0;
}

/* rs_run(ws, t_end, dt, on_step, x) under a real-time loop: the same steps
 * and callbacks, each rs_step timed alone (rs_realtime_begin/end), then an
 * absolute wait for the deadline of the steps done since the last wait:
 * every step, or every output interval when c->rt_pace_output. */
static int run_paced(rs_ws *ws, run_ctx *x, rs_realtime_loop *L)
{
    const long n = x->n, pace = x->c->rt_pace_output ? x->every : 1;
    if (on_step(ws, x))
        return RS_STOPPED;
    rs_realtime_start(L);
    long since = 0;
    for (long i = 1; i <= n; i++) {
        rs_realtime_begin(L);
        int st = rs_step(ws);
        rs_realtime_end(L);
        if (st)
            return st;
        if (on_step(ws, x))
            return RS_STOPPED;
        if (++since == pace || i == n) {
            if ((st = rs_realtime_wait_ticks(L, since)) < 0)
                return st;
            since = 0;
        }
    }
    return RS_OK;
}

/* Appends "what: message" to the report's notes. */
static void add_note(rs_run_report *rep, const char *what, const char *msg)
{
    size_t n = strlen(rep->rt_notes);
    snprintf(rep->rt_notes + n, sizeof rep->rt_notes - n, "%s%s: %s", n ? "; " : "", what, msg);
}

/* The optional system settings of a real-time run.  A refusal is a note
 * (printed as a warning) unless c->rt_strict: then it is the run's error. */
/* The elastic contact's events: one line each; a derailment ends the run
 * unless the scenario says `derailment continue`. */
typedef struct event_ctx {
    const rs_log *log;
    const rs_model *m;
    int go_on;
} event_ctx;

void rs_contact_event_line(const rs_contact_event *e, const char *who, const char *stop, char *buf, size_t n)
{
    const int derail = e->kind == RS_EVENT_DERAILMENT;
    if (derail && e->off > 0) {
        snprintf(buf, n, "t = %.4f s: %s: derailment, the wheel left its rail: no contact, %.1f mm beyond the "
                 "rail's crown%s", e->t, who, e->off * 1e3, stop);
        return;
    }
    char limit[64] = "no Nadal's limit: friction 0"; /* μ = 0: the limit needs friction (rs_options.h) */
    if (e->limit > 0)
        snprintf(limit, sizeof limit, "Nadal's limit %.3f", e->limit);
    /* a climb is the limit held a while (rs_climb.h): since when; or one
     * that a derailment shows before (then the limit held less than
     * climb_time, or not at all: no "held since", which would say it had) */
    char since[128] = "";
    if (!derail && !e->by_derailment)
        snprintf(since, sizeof since, ", held since t = %.4f s", e->t_start);
    else if (!derail && e->limit > 0 && e->t_start < e->t)
        snprintf(since, sizeof since, ", at or above it since t = %.4f s, less than climb_time: reported with "
                 "the derailment", e->t_start);
    else if (!derail)
        snprintf(since, sizeof since, "%s: reported with the derailment", e->limit > 0 ? ", not reached" : "");
    snprintf(buf, n,
             "t = %.4f s: %s: %s: Y/Q %.3f (%s at the flange angle %.1f deg%s), contact at u_w = %.2f mm%s", e->t,
             who, derail ? "derailment, the contact passed the flange's steepest point" : "flange climbing", e->Y_Q,
             limit, e->alpha * 57.29577951308232, since, e->u_w * 1e3, stop);
}

static int report_event(void *ctx, const rs_contact_event *e)
{
    const event_ctx *x = ctx;
    const int derail = e->kind == RS_EVENT_DERAILMENT;
    const char *stop = derail && !x->go_on ? " (stopping: write 'derailment continue' to go on)" : "";
    char who[300], line[RS_LOG_LINE_MAX];
    snprintf(who, sizeof who, "contact '%s'", x->m->contacts[e->contact].name);
    rs_contact_event_line(e, who, stop, line, sizeof line);
    rs_log_text(x->log, RS_LOG_LINE, line);
    return derail && !x->go_on;
}

static int rt_settings(const rs_run_config *c, rs_run_report *rep, const rs_log *log, int quiet,
                       int *locked, char *err, size_t errlen)
{
    char msg[400];
    int st;
    struct {
        int asked;
        const char *what;
    } items[3] = {{c->rt_lock, "--rt-lock (mlockall)"},
                  {c->rt_cpu >= 0, "--rt-cpu"},
                  {c->rt_fifo > 0, "--rt-fifo (SCHED_FIFO)"}};
    for (int k = 0; k < 3; k++) {
        if (!items[k].asked)
            continue;
        msg[0] = '\0';
        st = k == 0 ? rs_realtime_lock_memory(256 * 1024, msg, sizeof msg)
             : k == 1 ? rs_realtime_pin_cpu(c->rt_cpu, msg, sizeof msg)
                      : rs_realtime_set_fifo(c->rt_fifo, msg, sizeof msg);
        if (st == RS_OK) {
            if (k == 0)
                *locked = 1;
            continue;
        }
        if (c->rt_strict)
            return rs_fail(err, errlen, st, "%s refused: %s", items[k].what, msg);
        add_note(rep, items[k].what, msg);
        if (!quiet)
            rs_logf(log, RS_LOG_LINE, "warning: %s not applied: %s (continuing without it)", items[k].what,
                    msg);
    }
    return RS_OK;
}

/* The figures of a real-time run: summary and RT lines on the log (unless
 * quiet), RT lines into c->rt_report.  Returns RS_OK or RS_E_IO. */
static int rt_output(const rs_run_config *c, const rs_model *m, const rs_run_report *rep, const rs_log *log,
                     int quiet, char *err, size_t errlen)
{
    char text[1024], lines[4096];
    rs_realtime_stats_text(&rep->rt, text, sizeof text);
    rs_realtime_stats_lines(&rep->rt, m->name, lines, sizeof lines);
    if (!quiet) {
        /* the summary's first line is a log line; the rest of it and the RT
         * lines are a report, passed through as they are */
        const char *nl = strchr(text, '\n');
        rs_logf(log, RS_LOG_LINE, "%.*s", nl ? (int)(nl - text) : (int)strlen(text), text);
        if (nl && nl[1])
            rs_log_text(log, RS_LOG_RAW, nl + 1);
        rs_log_text(log, RS_LOG_RAW, lines);
    }
    if (c->rt_report) {
        FILE *f = fopen(c->rt_report, "w");
        int ok = f && fputs(lines, f) >= 0;
        if (f && fclose(f) != 0)
            ok = 0;
        if (!ok)
            return rs_fail(err, errlen, RS_E_IO, "cannot write the real-time report '%s': %s", c->rt_report,
                           strerror(errno));
    }
    return RS_OK;
}

int rs_driver_simulate(const rs_model *m, const rs_scenario *scn_in, const rs_run_config *c,
                       rs_run_report *report, char *err, size_t errlen)
{
    rs_run_report rep_local;
    rs_run_report *rep = report ? report : &rep_local;
    memset(rep, 0, sizeof *rep);
    if (err && errlen)
        err[0] = '\0';
    if (!m || !c || !c->out) {
        return rep->status = rs_fail(err, errlen, RS_E_ARG,
                                     "rs_driver_simulate: model, configuration or output path missing");
    }
    rs_scenario empty;
    rs_scenario_init(&empty);
    const rs_scenario *scn = scn_in ? scn_in : &empty;

    rs_binding *b = NULL;
    rs_ws *ws = NULL;
    rs_plugin_set *plugins = NULL;
    rs_results *csv = NULL;
    rs_realtime_loop *rt = NULL;   /* ~55 KB of histograms: on the heap, once */
    rs_thermal_run *thermal = NULL;
    rs_stress_run *stress = NULL;
    rs_realtime_saved saved;
    int have_saved = 0, locked = 0;
    char msg[512];
    int st = rs_scenario_bind(scn, m, &b, err, errlen);
    if (st)
        goto done;
    rs_options opt;
    rs_options_default(&opt);
    rs_binding_options(b, &opt);
    char contact_dir[4096];
    if (!opt.contact_dir && c->model_dir && find_contact_dir(m, &opt, c->model_dir, contact_dir, sizeof contact_dir))
        opt.contact_dir = contact_dir;
    if (c->method >= 0)
        opt.method = (rs_method)c->method;
    /* the driver runs contact models: the mode the scenario or else the
     * description asks for */
    const int mode = rs_binding_contact_mode(b);
    opt.contact = mode == RS_CONTACT_MODE_ELASTIC      ? rs_elastic_contact()
                  : mode == RS_CONTACT_MODE_CONSTRAINT ? rs_wheel_rail_contact()
                                                       : rs_contact_for_model(m);
    if (!opt.contact) {
        st = rs_fail(err, errlen, RS_E_UNSUPPORTED,
                     "model '%s': its contacts mix 'mode elastic' and 'mode constraint'; one mode "
                     "per run is supported: give every contact the same mode, or choose one in the "
                     "scenario ('contact elastic' or 'contact constraint')",
                     m->name);
        goto done;
    }
    if ((st = rs_plugin_set_open(m, &plugins, err, errlen)))   /* user plugin forces: docs/plugins.md */
        goto done;
    opt.plugins = rs_plugin_set_tables(plugins);
    /* Kalker's linear law without friction: said once, before the run
     * (rs_creep_bound.h); a quiet run says it too, as it is about the
     * results, not the progress */
    if (rs_creep_unbounded(m, &opt, msg, sizeof msg))
        rs_log_text(&c->log, RS_LOG_LINE, msg);
    event_ctx ev = {&c->log, m, rs_binding_derail_continue(b)};
    opt.contact_event = report_event;
    opt.contact_event_ctx = &ev;
    if ((st = rs_ws_create(m, &opt, &ws, msg, sizeof msg))) {
        rs_fail_model(err, errlen, st, m->name, NULL, msg);
        goto done;
    }
    if ((st = rs_binding_apply(b, ws, msg, sizeof msg))) {
        rs_fail_model(err, errlen, st, m->name, NULL, msg);
        goto done;
    }
    const int *eq_idx;
    int n_eq;
    if (rs_binding_equilibrium(b, &eq_idx, &n_eq)) {
        /* the static equilibrium, before the first step (docs/scenario.md) */
        /* its iteration lines are progress: none when the run is quiet */
        rs_equilibrium_opts eo = {eq_idx, n_eq, 0, 0, c->progress == 0 ? NULL : &c->log, rs_binding_has_speed(b)};
        char emsg[1200];
        if ((st = rs_equilibrium(ws, &eo, NULL, emsg, sizeof emsg))) {
            rs_fail_model(err, errlen, st, m->name, NULL, emsg);
            goto done;
        }
    }
    if ((st = rs_ws_init(ws))) {
        /* a value the model cannot start from comes from its parameters
         * more often than not: name the scenario lines that set them */
        char plines[600];
        if (rs_binding_param_lines(b, plines, sizeof plines) > 0)
            rs_fail(err, errlen, st, "model '%s': initial state: %s; this run's 'param' lines: %s", m->name,
                    rs_ws_error(ws), plines);
        else
            rs_fail(err, errlen, st, "model '%s': initial state: %s", m->name, rs_ws_error(ws));
        goto done;
    }
    /* before the results open: a misnamed parameter leaves no file */
    if (scn->thermal &&
        (st = rs_thermal_run_create(&scn->thermal_spec, ws, c->thermal_transport, &thermal, err, errlen)))
        goto done;
    if (scn->stress &&
        (st = rs_stress_run_create(scn->stress_spec, scn->stress, ws, c->stress_transport, &stress, err, errlen)))
        goto done;
    int ncol;
    const char *const *cols = rs_binding_columns(b, &ncol);
    if ((st = rs_results_open_ws_extra(&csv, c->out, ws, ncol, cols, stress ? rs_stress_run_columns(stress) : NULL,
                                        c->out_in_place ? RS_RESULTS_IN_PLACE : 0, msg, sizeof msg))) {
        rs_fail(err, errlen, st, "%s", msg);
        goto done;
    }

    run_ctx x;
    memset(&x, 0, sizeof x);
    x.c = c;
    x.log = &c->log;
    x.csv = csv;
    const double dt = rs_binding_step(b);
    x.dt = dt;
    x.thermal = thermal;
    x.stress = stress;
    x.t0 = rs_ws_time(ws);
    x.t_end = x.t0 + rs_binding_duration(b);
    x.n = lround((x.t_end - x.t0) / dt);
    x.every = lround(rs_binding_output(b) / dt);
    if (x.every < 1)
        x.every = 1;
    rs_progress_start(&x.pr, x.log, c->progress, c->progress_after, c->progress_every, x.t0, x.t_end);
    rep->t_start = x.t0;

    if (c->realtime) {
        if (!(rt = malloc(sizeof *rt))) {
            st = rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
            goto done;
        }
        rs_realtime_init(rt, dt, c->rt_cpu_time ? RS_REALTIME_CPU_TIME : 0);
        rs_realtime_save(&saved);
        have_saved = 1;
        if ((st = rt_settings(c, rep, x.log, c->progress == 0, &locked, err, errlen)))
            goto done;
        rs_progress_start(&x.pr, x.log, c->progress, c->progress_after, c->progress_every, x.t0, x.t_end);
        st = run_paced(ws, &x, rt);
    } else {
        st = rs_run(ws, x.t_end, dt, on_step, &x);
    }

    const double wall = rs_progress_wall(&x.pr);
    const rs_stats *stats = rs_ws_stats(ws);
    rep->steps = stats->steps;
    rep->rows = x.rows;
    rep->t_end = rs_ws_time(ws);
    rep->wall_s = wall;
    rep->proj_iters_max = stats->proj_iters_max;
    rs_progress_end(&x.pr, rep->steps, rep->t_end);
    if (stats->contact_unchecked > 0) /* a warning, quiet or not: about the results */
        rs_logf(x.log, RS_LOG_LINE,
                "warning: model '%s': %ld of %ld steps of the elastic contact used all its solves (a wheel meeting "
                "or leaving a patch within the step) and took the last without its check; a smaller 'step' "
                "resolves them (docs/runtime.md \"Elastic contact\")", m->name, stats->contact_unchecked,
                stats->steps);
    /* A run that did not end well leaves its rows under the partial name
     * (rs_results.h); the message says where and up to which time. */
    char where[4200], upto[128];
    rs_results_partial_path(c->out, where, sizeof where);
    if (c->out_in_place)
        snprintf(where, sizeof where, "%s", c->out);
    if (x.rows)
        snprintf(upto, sizeof upto, "the results up to t = %.6g s", rs_results_last_time(csv));
    else
        snprintf(upto, sizeof upto, "no rows");
    if (x.coupled_failed) {
        st = rs_fail(err, errlen, RS_E_NONFINITE, "model '%s': %s at t = %.6g s; '%s' holds %s", m->name,
                     x.coupled_err, rep->t_end, where, upto);
    } else if (x.csv_failed) {
        const int wst = rs_results_status(csv);
        st = rs_fail(err, errlen, wst < 0 ? wst : RS_E_IO,
                     "cannot write '%s' (%s): '%s' holds %s", c->out,
                     wst == RS_E_NOMEM ? "out of memory" : "disk full, file size limit or file removed?", where,
                     upto);
    } else if (st < 0) {
        rs_fail(err, errlen, st, "model '%s': simulation failed (%s): %s; '%s' holds %s", m->name,
                rs_status_name(st), rs_ws_error(ws), where, upto);
    } else if (st == RS_STOPPED) {
        rs_fail(err, errlen, st, "model '%s': run stopped at t = %.6g s; '%s' holds %s", m->name, rep->t_end,
                where, upto);
    }
    if (x.thermal) {
        rs_thermal_run_summary(x.thermal, msg, sizeof msg);
        if (c->progress != 0)
            rs_log_text(&c->log, RS_LOG_LINE, msg);
    }
    for (int i = 0; x.stress && i < rs_stress_run_count(x.stress); i++) {
        rs_stress_run_summary(x.stress, i, msg, sizeof msg);
        if (c->progress != 0)
            rs_log_text(&c->log, RS_LOG_LINE, msg);
    }
    if (rt) {
        rep->realtime = 1;
        rs_realtime_get_stats(rt, &rep->rt);
        int rst = rt_output(c, m, rep, x.log, c->progress == 0, st ? msg : err,
                            st ? sizeof msg : errlen);
        if (rst && !st)
            st = rst;
    }
done:
    rs_thermal_run_free(&thermal);
    rs_stress_run_free(&stress);
    if (have_saved)
        rs_realtime_restore(&saved);
    if (locked)
        rs_realtime_unlock_memory();
    free(rt);
    if (csv) {
        /* complete only when the run reached its end: a failed run's rows
         * go under the partial name, never the name asked for */
        char cmsg[1024], left[4200];
        int cst = rs_results_close(&csv, st == RS_OK, left, sizeof left, cmsg, sizeof cmsg);
        if (cst && !st)
            st = rs_fail(err, errlen, cst, "%s; what was written is in '%s'", cmsg, left[0] ? left : "(nothing)");
    }
    rs_ws_free(&ws);
    rs_plugin_set_close(&plugins); /* after the workspace: its release hooks are in them */
    rs_binding_free(&b);
    return rep->status = st;
}

int rs_driver_run(const rs_run_config *c, rs_run_report *report, char *err, size_t errlen)
{
    if (report)
        memset(report, 0, sizeof *report);
    if (!c || !c->model_dir || !c->out)
        return rs_fail(err, errlen, RS_E_ARG, "rs_driver_run: model folder or output path missing");
    int st;
    rs_scenario scn;
    rs_scenario_init(&scn);
    rs_loaded *h = NULL;
    char name[256], msg[1024];

    if ((st = rs_scenario_load(c->model_dir, c->use_default_scenario, c->scenario, c->set_text, &scn, err,
                               errlen)))
        goto done;
    rs_load_options lo;
    rs_load_options_default(&lo);
    if (c->include_dir)
        lo.include_dir = c->include_dir;
    lo.model_name = rs_driver_model_name(c->model_dir, name, sizeof name);
    if (!(h = rs_load_ex(c->model_dir, c->loader, &lo, msg, sizeof msg))) {
        st = rs_fail(err, errlen, RS_E_LOAD, "cannot load model folder '%s': %s", c->model_dir, msg);
        goto done;
    }
    st = rs_driver_simulate(rs_loaded_model(h), &scn, c, report, err, errlen);
done:
    rs_unload(&h);
    rs_scenario_free(&scn);
    if (report)
        report->status = st;
    return st;
}
