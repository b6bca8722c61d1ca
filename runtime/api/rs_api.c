/*
 * rs_api.c — the embedding API of railsym.h over the runtime: a loaded
 * model folder, its bound scenario and one workspace per instance.
 *
 * The opening follows rs_driver_simulate's sequence (scenario, binding,
 * options, contact implementation, workspace, apply, equilibrium; the part
 * after the binding is rs_instance.h's, shared with the FMU) and the run
 * starts (rs_ws_init) at the first step or read, where `railsym run`
 * writes its first row, so the same steps give the same numbers.
 *
 * An index (railsym_find) is the quantity's rs_var packed as
 * kind << KIND_SHIFT | index, with one kind of our own for the
 * track-relative columns (rs_track_rel.h): reading it costs no lookup.
 *
 * No global state: everything an instance uses is in its struct.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "railsym.h"
#include "rs_api_paths.h"
#include "rs_closest.h"
#include "rs_driver.h"
#include "rs_error.h"
#include "rs_fmi2_vars.h"
#include "rs_instance.h"
#include "rs_load.h"
#include "rs_results.h"
#include "rs_scenario.h"
#include "rs_track_rel.h"

/* The public codes are the runtime's. */
_Static_assert(RAILSYM_OK == RS_OK && RAILSYM_E_ARG == RS_E_ARG && RAILSYM_E_NOMEM == RS_E_NOMEM &&
                   RAILSYM_E_UNSUPPORTED == RS_E_UNSUPPORTED && RAILSYM_E_NOTFOUND == RS_E_NOTFOUND &&
                   RAILSYM_E_LOAD == RS_E_LOAD,
               "railsym.h's status codes must be rs_status.h's");

#define API_MAGIC 0x52534150u /* "RSAP" */
#define STATE_MAGIC 0x52534153u /* "RSAS" */
#define KIND_SHIFT 24
#define KIND_TREL 31 /* after every rs_var_kind */

struct railsym {
    unsigned magic;
    rs_loaded *h;
    const rs_model *m;
    rs_instance in;          /* binding, workspace, plugins, inputs set through railsym_set (u_val, u_set),
                                user outputs at the current state (out) */
    rs_track_rel *tr;        /* opened at the first track-relative read */
    int started;             /* rs_ws_init done                     */
    int have_out, have_energy, have_power, have_trel;   /* evaluated at this state */
    int derail_go_on;
    char **default_cols;     /* the default columns (malloc'd), when the scenario has none */
    const char *const *cols;
    int ncol;
    double t_end;
    char contact_dir[4096];
    char event[512];         /* the last contact event that stopped a step */
    char err[2048];
};

/* The saved state: this header, the inputs set, then the workspace's copy. */
typedef struct saved_head {
    unsigned magic;
    int started;
    size_t n_u;
} saved_head;

int railsym_api_version(void) { return RAILSYM_API_VERSION; }

const char *railsym_status_text(int status) { return rs_status_str(status); }

void railsym_options_init(railsym_options *opt)
{
    if (!opt)
        return;
    memset(opt, 0, sizeof *opt);
    opt->size = sizeof *opt;
    opt->use_default_scenario = 1;
    opt->loader = RAILSYM_LOADER_TCC;
}

static int usable(const railsym *s) { return s && s->magic == API_MAGIC; }

const char *railsym_error(const railsym *sim) { return usable(sim) ? sim->err : "not a railsym instance"; }

const char *railsym_model_name(const railsym *sim) { return usable(sim) ? sim->m->name : ""; }

/* Evaluated quantities are of one state: a step, a set or a restore
 * forgets them. */
static void state_changed(railsym *s) { s->have_out = s->have_energy = s->have_power = s->have_trel = 0; }

/* A derailment stops the step unless the scenario says `derailment
 * continue` (as `railsym run`); the event is kept for the message. */
static int api_event(void *ctx, const rs_contact_event *e)
{
    railsym *s = ctx;
    if (e->kind != RS_EVENT_DERAILMENT || s->derail_go_on)
        return 0;
    snprintf(s->event, sizeof s->event,
             "t = %.4f s: contact '%s' derailed (Y/Q %.3f, Nadal's limit %.3f); write 'derailment continue' in "
             "the scenario to go on",
             e->t, s->m->contacts[e->contact].name, e->Y_Q, e->limit);
    return 1;
}

/* The folder of the ABI headers for the loaders (railsym_options.abi_dir). */
static const char *abi_dir(const railsym_options *o)
{
    if (o->abi_dir && o->abi_dir[0])
        return o->abi_dir;
    const char *e = getenv("RAILSYM_ABI_DIR");
    if (e && e[0])
        return e;
    const char *inst = rs_api_installed_abi_dir();
    if (inst && inst[0]) {
        char probe[4200];
        snprintf(probe, sizeof probe, "%s/rs_model.h", inst);
        if (access(probe, R_OK) == 0)
            return inst;
    }
    return RS_ABI_INCLUDE_DIR;
}

static int setup(railsym *s, const char *dir, const railsym_options *o, char *err, size_t errlen)
{
    char name[256], msg[1536];
    rs_scenario scn;
    rs_scenario_init(&scn);
    int st = rs_scenario_load(dir, o->use_default_scenario, o->scenario, o->set_text, &scn, err, errlen);
    if (st) {
        rs_scenario_free(&scn);
        return st;
    }
    rs_load_options lo;
    rs_load_options_default(&lo);
    lo.include_dir = abi_dir(o);
    lo.model_name = rs_driver_model_name(dir, name, sizeof name);
    if (!(s->h = rs_load_ex(dir, o->loader == RAILSYM_LOADER_DLOPEN ? RS_LOAD_DLOPEN : RS_LOAD_TCC, &lo, msg,
                            sizeof msg))) {
        rs_scenario_free(&scn);
        return rs_fail(err, errlen, RS_E_LOAD, "cannot load model folder '%s': %s", dir, msg);
    }
    const rs_model *m = s->m = rs_loaded_model(s->h);
    rs_binding *b = NULL;
    st = rs_scenario_bind(&scn, m, &b, err, errlen);
    rs_scenario_free(&scn);
    if (st)
        return st;

    s->derail_go_on = rs_binding_derail_continue(b);
    rs_instance_config c = {NULL, NULL, NULL, api_event, s};
    if (m->n_contact && rs_driver_contact_dir(dir, s->contact_dir, sizeof s->contact_dir))
        c.default_contact_dir = s->contact_dir;
    if ((st = rs_instance_create(&s->in, m, b, &c, err, errlen)))
        return st;
    if ((st = rs_instance_equilibrium(&s->in, msg, sizeof msg)))
        return rs_fail_model(err, errlen, st, m->name, NULL, msg);
    s->cols = rs_binding_columns(s->in.b, &s->ncol);
    if (!s->cols) {
        if (!(s->default_cols = rs_results_default_columns(m, &s->ncol)))
            return rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
        s->cols = (const char *const *)s->default_cols;
    }
    s->t_end = rs_ws_time(s->in.ws) + rs_binding_duration(s->in.b);
    return RS_OK;
}

int railsym_open(const char *model_dir, const railsym_options *opt, railsym **sim, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    if (!sim)
        return rs_fail(err, errlen, RS_E_ARG, "railsym_open: sim is NULL");
    *sim = NULL;
    if (!model_dir || !model_dir[0])
        return rs_fail(err, errlen, RS_E_ARG, "railsym_open: no model folder given");
    railsym_options o;
    railsym_options_init(&o);
    if (opt) {
        /* an older program's smaller structure: its fields, our defaults
         * for the rest */
        if (opt->size < offsetof(railsym_options, scenario) || opt->size > sizeof o)
            return rs_fail(err, errlen, RS_E_ARG,
                           "railsym_open: options of size %zu: fill them with railsym_options_init (this "
                           "library: %zu bytes)",
                           opt->size, sizeof o);
        memcpy(&o, opt, opt->size);
        o.size = sizeof o;
    }
    railsym *s = calloc(1, sizeof *s);
    if (!s)
        return rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
    s->magic = API_MAGIC;
    const int st = setup(s, model_dir, &o, err, errlen);
    if (st) {
        railsym_close(s);
        return st;
    }
    *sim = s;
    return RAILSYM_OK;
}

void railsym_close(railsym *sim)
{
    if (!usable(sim))
        return;
    rs_track_rel_free(&sim->tr);
    rs_instance_free(&sim->in);
    rs_unload(&sim->h);   /* after every workspace of its model */
    if (sim->default_cols) {
        for (int i = 0; i < sim->ncol; i++)
            free(sim->default_cols[i]);
        free(sim->default_cols);
    }
    sim->magic = 0;
    free(sim);
}

/* ---------------------------------------------------------------- names */

static int pack(int kind, int index) { return kind << KIND_SHIFT | index; }

/* The closest known name to `name` among the model's names and the
 * columns, or NULL. */
static const char *closest(const railsym *s, const char *name)
{
    const rs_model *m = s->m;
    const struct {
        const char *const *names;
        int n;
    } lists[] = {{m->q_names, m->n_q}, {m->p_names, m->n_p}, {m->u_names, m->n_u},
                 {m->output_names, m->n_out}, {s->cols, s->ncol}};
    const char *best = NULL;
    size_t best_d = (size_t)-1;
    for (size_t k = 0; k < sizeof lists / sizeof lists[0]; k++) {
        const char *c = lists[k].n > 0 ? rs_closest_name(name, lists[k].names, lists[k].n) : NULL;
        if (c && rs_edit_distance(name, c) < best_d) {
            best = c;
            best_d = rs_edit_distance(name, c);
        }
    }
    return best;
}

int railsym_find(railsym *sim, const char *name)
{
    if (!usable(sim))
        return RS_E_ARG;
    if (!name)
        return rs_fail(sim->err, sizeof sim->err, RS_E_ARG, "railsym_find: name is NULL");
    rs_var v;
    if (rs_model_find(sim->m, name, &v) == RS_OK)
        return pack((int)v.kind, v.index);
    int body, k;
    if (rs_track_rel_find(sim->m, name, &body, &k) == RS_OK)
        return pack(KIND_TREL, body * RS_TREL_COUNT + k);
    const char *c = closest(sim, name);
    return rs_fail(sim->err, sizeof sim->err, RS_E_NOTFOUND, "model '%s' has no quantity named '%s'%s%s%s",
                   sim->m->name, name, c ? " (did you mean '" : "", c ? c : "", c ? "'?)" : "");
}

int railsym_column_count(const railsym *sim) { return usable(sim) ? sim->ncol : 0; }

const char *railsym_column_name(const railsym *sim, int i)
{
    return usable(sim) && i >= 0 && i < sim->ncol ? sim->cols[i] : NULL;
}

/* The index's quantity, checked against the model's sizes. */
static int unpack(railsym *s, int index, rs_var *v)
{
    const rs_model *m = s->m;
    const int kind = index >= 0 ? index >> KIND_SHIFT : -1, i = index & ((1 << KIND_SHIFT) - 1);
    int n = -1;
    switch (kind) {
    case RS_VAR_TIME: n = 1; break;
    case RS_VAR_Q: case RS_VAR_QD: n = m->n_q; break;
    case RS_VAR_S: case RS_VAR_SD: n = m->n_s; break;
    case RS_VAR_P: n = m->n_p; break;
    case RS_VAR_U: n = m->n_u; break;
    case RS_VAR_LAMBDA: n = m->n_phi; break;
    case RS_VAR_OUTPUT: n = m->n_out; break;
    case RS_VAR_CONTACT: n = RS_CONTACT_VAR_STRIDE * m->n_contact; break;
    case RS_VAR_STAT: n = RS_STAT_VAR_COUNT; break;
    case RS_VAR_ENERGY: n = RS_ENERGY_VAR_COUNT; break;
    case KIND_TREL: n = RS_TREL_COUNT * rs_track_rel_n_bodies(m); break;
    default: break;
    }
    if (i >= n)
        return rs_fail(s->err, sizeof s->err, RS_E_ARG,
                       "index %d is not a quantity of model '%s': take indices from railsym_find", index, m->name);
    v->kind = (rs_var_kind)kind;
    v->index = i;
    return RS_OK;
}

/* ---------------------------------------------------------------- values */

/* The run starts where `railsym run` writes its first row. */
static int start(railsym *s)
{
    if (s->started)
        return RS_OK;
    const int st = rs_ws_init(s->in.ws);
    if (st)
        return rs_fail(s->err, sizeof s->err, st, "model '%s': initial state: %s", s->m->name, rs_ws_error(s->in.ws));
    s->started = 1;
    state_changed(s);
    return RS_OK;
}

/* The name of a settable quantity, for messages. */
static const char *var_name(const rs_model *m, rs_var v)
{
    switch (v.kind) {
    case RS_VAR_Q: case RS_VAR_QD: return m->q_names[v.index];
    case RS_VAR_P: return m->p_names[v.index];
    case RS_VAR_U: return m->u_names[v.index];
    default: return "?";
    }
}

int railsym_set_index(railsym *sim, int index, double value)
{
    if (!usable(sim))
        return RS_E_ARG;
    rs_var v;
    int st = unpack(sim, index, &v);
    if (st)
        return st;
    const rs_model *m = sim->m;
    if (v.kind != RS_VAR_P && v.kind != RS_VAR_U && v.kind != RS_VAR_Q && v.kind != RS_VAR_QD)
        return rs_fail(sim->err, sizeof sim->err, RS_E_ARG,
                       "railsym_set: index %d is a result of the model, which cannot be set: only parameters, "
                       "inputs, coordinates and velocities can",
                       index);
    if (!isfinite(value))
        return rs_fail(sim->err, sizeof sim->err, RS_E_ARG, "railsym_set: '%s%s' = %g is not a finite number",
                       var_name(m, v), v.kind == RS_VAR_QD ? "_dot" : "", value);
    switch (v.kind) {
    case RS_VAR_P:
        if ((st = rs_ws_set_param_index(sim->in.ws, v.index, value)))
            return rs_fail(sim->err, sizeof sim->err, st, "parameter '%s' = %g refused: %s", m->p_names[v.index],
                           value, rs_ws_error(sim->in.ws));
        break;
    case RS_VAR_U:
        if (!rs_fmi2_user_input(m, v.index))
            return rs_fail(sim->err, sizeof sim->err, RS_E_ARG,
                           "input '%s' is filled by a wheel-rail contact (a spline coefficient or a creep force) "
                           "and cannot be set",
                           m->u_names[v.index]);
        sim->in.u_val[v.index] = value;
        sim->in.u_set[v.index] = 1;
        rs_ws_u(sim->in.ws)[v.index] = value;   /* seen before the next step too */
        break;
    case RS_VAR_Q: rs_ws_q(sim->in.ws)[v.index] = value; break;
    default: rs_ws_qd(sim->in.ws)[v.index] = value; break;
    }
    state_changed(sim);
    return RS_OK;
}

int railsym_set(railsym *sim, const char *name, double value)
{
    const int i = railsym_find(sim, name);
    return i < 0 ? i : railsym_set_index(sim, i, value);
}

int railsym_get_index(railsym *sim, int index, double *value)
{
    if (!usable(sim))
        return RS_E_ARG;
    if (!value)
        return rs_fail(sim->err, sizeof sim->err, RS_E_ARG, "railsym_get: value is NULL");
    rs_var v;
    int st = unpack(sim, index, &v);
    if (!st)
        st = start(sim);
    if (st)
        return st;
    if (v.kind == RS_VAR_OUTPUT && !sim->have_out) {
        if ((st = rs_ws_outputs(sim->in.ws, sim->in.out)))
            return rs_fail(sim->err, sizeof sim->err, st, "outputs: %s", rs_ws_error(sim->in.ws));
        sim->have_out = 1;
    }
    if (v.kind == RS_VAR_ENERGY) {
        const int power = v.index >= RS_ENERGY_VAR_POWER;
        if (!rs_energy_var_name(sim->m, v.index)[0])
            return rs_fail(sim->err, sizeof sim->err, RS_E_UNSUPPORTED, "model '%s' has no %s function", sim->m->name,
                           power ? "power" : "energy");
        if (!(power ? sim->have_power : sim->have_energy)) {
            if ((st = power ? rs_ws_power(sim->in.ws, NULL) : rs_ws_energy(sim->in.ws, NULL, NULL)))
                return rs_fail(sim->err, sizeof sim->err, st, "%s: %s", power ? "power" : "energy",
                               rs_ws_error(sim->in.ws));
            *(power ? &sim->have_power : &sim->have_energy) = 1;
        }
    }
    if ((int)v.kind == KIND_TREL) {
        char msg[1024];
        if (!sim->tr && (st = rs_track_rel_open(sim->in.ws, &sim->tr, msg, sizeof msg)))
            return rs_fail(sim->err, sizeof sim->err, st, "%s", msg);
        if (!sim->have_trel) {
            if ((st = rs_track_rel_update(sim->tr, sim->in.ws)))
                return rs_fail(sim->err, sizeof sim->err, st, "track-relative quantities: %s", rs_ws_error(sim->in.ws));
            sim->have_trel = 1;
        }
        *value = rs_track_rel_value(sim->tr, v.index / RS_TREL_COUNT, v.index % RS_TREL_COUNT);
        return RS_OK;
    }
    *value = rs_ws_value(sim->in.ws, v, sim->in.out);
    return RS_OK;
}

int railsym_get(railsym *sim, const char *name, double *value)
{
    const int i = railsym_find(sim, name);
    return i < 0 ? i : railsym_get_index(sim, i, value);
}

/* ---------------------------------------------------------------- time */

double railsym_time(const railsym *sim) { return usable(sim) ? rs_ws_time(sim->in.ws) : NAN; }
double railsym_step_size(const railsym *sim) { return usable(sim) ? rs_binding_step(sim->in.b) : NAN; }
double railsym_output_interval(const railsym *sim) { return usable(sim) ? rs_binding_output(sim->in.b) : NAN; }
double railsym_end_time(const railsym *sim) { return usable(sim) ? sim->t_end : NAN; }

int railsym_step(railsym *sim)
{
    if (!usable(sim))
        return RS_E_ARG;
    int st = start(sim);
    if (st)
        return st;
    sim->event[0] = '\0';
    st = rs_step(sim->in.ws);
    state_changed(sim);
    if (st < 0)
        return rs_fail(sim->err, sizeof sim->err, st, "model '%s': %s%s%s", sim->m->name, rs_ws_error(sim->in.ws),
                       sim->event[0] ? "; " : "", sim->event);
    return st;
}

int railsym_advance(railsym *sim, double t_end)
{
    if (!usable(sim))
        return RS_E_ARG;
    const double t = rs_ws_time(sim->in.ws), dt = rs_binding_step(sim->in.b);
    if (!isfinite(t_end) || t_end < t - 0.5 * dt)
        return rs_fail(sim->err, sizeof sim->err, RS_E_ARG,
                       "railsym_advance: t_end = %.17g s is not a finite time after the current %.17g s", t_end, t);
    const long n = lround((t_end - t) / dt);   /* rs_run's count */
    for (long i = 0; i < n; i++) {
        const int st = railsym_step(sim);
        if (st < 0)
            return st;
    }
    return RS_OK;
}

/* ---------------------------------------------------------------- state */

size_t railsym_state_size(const railsym *sim)
{
    if (!usable(sim))
        return 0;
    const size_t n = rs_instance_state_size(&sim->in);
    return n ? sizeof(saved_head) + n : 0;
}

int railsym_state_save(railsym *sim, void *buf, size_t len)
{
    if (!usable(sim))
        return RS_E_ARG;
    const size_t need = railsym_state_size(sim);
    if (!need)
        return rs_fail(sim->err, sizeof sim->err, RS_E_UNSUPPORTED,
                       "model '%s': its contact implementation has no state copy, so its state cannot be saved",
                       sim->m->name);
    if (!buf || len < need)
        return rs_fail(sim->err, sizeof sim->err, RS_E_ARG,
                       "railsym_state_save: a buffer of %zu bytes for a state of %zu (railsym_state_size)", len, need);
    const saved_head head = {STATE_MAGIC, sim->started, (size_t)sim->m->n_u};
    memcpy(buf, &head, sizeof head);
    const int st = rs_instance_state_save(&sim->in, (char *)buf + sizeof head, len - sizeof head);
    return st ? rs_fail(sim->err, sizeof sim->err, st, "railsym_state_save: %s", rs_status_str(st)) : RS_OK;
}

int railsym_state_restore(railsym *sim, const void *buf, size_t len)
{
    if (!usable(sim))
        return RS_E_ARG;
    saved_head head;
    if (buf && len >= sizeof head)
        memcpy(&head, buf, sizeof head);
    if (!buf || len < sizeof head || head.magic != STATE_MAGIC || head.n_u != (size_t)sim->m->n_u ||
        rs_instance_state_restore(&sim->in, (const char *)buf + sizeof head, len - sizeof head))
        return rs_fail(sim->err, sizeof sim->err, RS_E_ARG,
                       "railsym_state_restore: these %zu bytes are not a saved state of model '%s' (save it with "
                       "railsym_state_save from an instance of the same model folder and scenario)",
                       len, sim->m->name);
    sim->started = head.started;
    state_changed(sim);
    return RS_OK;
}
