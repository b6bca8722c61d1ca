/*
 * rs_sweep.c — running the variants of a sweep, recording their results in
 * the output folder, scheduling heaviest first.  See rs_sweep.h.
 *
 * Every result in memory is loaded from the folder's files (load_variant),
 * both after a variant runs and when a re-run finds it finished, so the
 * summary depends only on the files, never on how or where a variant ran.
 */
#define _GNU_SOURCE   /* flock, dirent d_name handling */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rs_clock.h"
#include "rs_dirs.h"
#include "rs_error.h"
#include "rs_file.h"
#include "rs_driver.h"
#include "rs_cores.h"
#include "rs_pool.h"
#include "rs_closest.h"
#include "rs_scenario.h"
#include "rs_speed.h"
#include "rs_status.h"
#include "rs_sweep.h"
#include "rs_temp.h"
#include "rs_sweep_spec_impl.h"
#include "rs_sweep_lines.h"
#include "rs_sweep_train.h"
#include "rs_train_file.h"   /* RS_TRAIN_DERAILED_MSG */


/* How a varied name reaches a variant's run. */
enum var_how {
    HOW_INITIAL = 0,   /* `initial NAME = V` (a coordinate or velocity)        */
    HOW_PARAM,         /* `param NAME = V`                                     */
    HOW_FILE,          /* `NAME "PATH"` (track, wheel_profile, rail_profile)   */
    HOW_SPEED,         /* the forward speed: forward and spin velocities       */
    HOW_TRAIN          /* a train file's `set NAME = V` (rs_sweep_train.c)     */
};

struct rs_sweep {
    const rs_sweep_config *c;
    const rs_sweep_spec *s;
    rs_loaded *h;
    const rs_model *m;
    rs_load_cache *trains;     /* a train sweep's compiled vehicles, loaded once */
    rs_scenario base;          /* default.scn with the user's scenario over it */
    int n, nv, nf, width;
    unsigned char *how;        /* nv: how each variable is applied (var_how) */

    pthread_mutex_t mu;        /* guards everything below                    */
    unsigned char *state;      /* n: RS_VAR_*                                */
    double *fig;               /* n × nf                                     */
    char **msg;                /* n: failure message or NULL                 */
    double *est;               /* n: model size × steps                      */
    double *cost;              /* n: measured wall time (0: not measured)    */
    double *pred;              /* n: predicted cost from the nearest finished */
    double *dist;              /* n: distance to that variant (INFINITY: none) */
    double *norm;              /* n × nv: values scaled to [0, 1]            */
    double sum_cost, sum_est;  /* over measured variants: the cost rate       */
    int started, skipped;
    int threads;               /* per train variant (rs_sweep_threads)       */
    int lock_fd;
    double last_summary;
};

void rs_sweep_config_default(rs_sweep_config *c)
{
    memset(c, 0, sizeof *c);
    c->loader = RS_LOAD_TCC;
    c->use_default_scenario = 1;
    c->jobs = 1;
    c->threads = 1;
    c->method = -1;
}

int rs_sweep_threads(const rs_sweep_config *c, int *cores)
{
    int usable = 1;
    const int want = rs_cores_cap(c->threads, &usable);
    if (cores)
        *cores = usable;
    const int jobs = c->jobs < 1 ? 1 : c->jobs < usable ? c->jobs : usable;
    const int share = usable / jobs > 1 ? usable / jobs : 1;
    return want < share ? want : share;
}

/* Writes `text` to path atomically: a temporary name in the same folder,
 * fsync-free (a crash may lose the file, never leave a partial one under
 * its name), then rename. */
static int write_atomic(const char *path, const char *text, size_t len)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    (void)rs_temp_add(tmp, NULL, 0);   /* a signal meanwhile removes it (rs_temp.h) */
    FILE *f = fopen(tmp, "wb");
    int st = f ? 0 : -1;
    if (f) {
        const int bad = fwrite(text, 1, len, f) != len;
        if (fclose(f) != 0 || bad || rename(tmp, path) != 0) {
            unlink(tmp);
            st = -1;
        }
    }
    rs_temp_forget(tmp);
    return st;
}

static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static void var_path(const rs_sweep *sw, int i, const char *suffix, char *buf, size_t len)
{
    snprintf(buf, len, "%s/v%0*d%s", sw->c->out_dir, sw->width, i + 1, suffix);
}

void rs_sweep_temp_path(const rs_sweep *sw, int i, int worker, char *buf, size_t len)
{
    snprintf(buf, len, "%s/.v%0*d.tmp.%ld.%d.csv", sw->c->out_dir, sw->width, i + 1, (long)getpid(), worker);
    /* a signal before rs_sweep_commit removes it (rs_temp.h; best effort) */
    (void)rs_temp_add(buf, NULL, 0);
}

/* ---------------------------------------------------------------- open */

static const char *kind_word(rs_var_kind k)
{
    switch (k) {
    case RS_VAR_TIME: return "time";
    case RS_VAR_S: case RS_VAR_SD: return "an auxiliary coordinate";
    case RS_VAR_U: return "an input (give it in the scenario)";
    case RS_VAR_LAMBDA: return "a multiplier";
    case RS_VAR_OUTPUT: return "an output";
    case RS_VAR_CONTACT: return "a contact quantity";
    case RS_VAR_STAT: return "a step statistic";
    case RS_VAR_ENERGY: return "an energy or power term";
    default: return "not variable";
    }
}

/* The sweep variable `speed` (variable j): the running speed V, written as
 * the scenario line `speed V` into each variant's scenario (rs_speed.h: the
 * forward velocities V, the spins rolling without slip, the bodies placed
 * on a curve), over the base scenario's `initial` lines. */
static int check_speed(rs_sweep *sw, int j, char *err, size_t errlen)
{
    const rs_model *m = sw->m;
    char why[512];
    if (!rs_speed_check(m, why, sizeof why))
        return rs_fail(err, errlen, RS_E_ARG,
                       "cannot vary 'speed': model '%s' has no coordinate named 'x' or '<body>.x'; vary "
                       "the forward velocity by name (<coordinate>_dot)", m->name);
    if (why[0])
        return rs_fail(err, errlen, RS_E_ARG, "cannot vary 'speed': %s", why);
    /* a velocity the speed sets cannot be varied as well */
    for (int k = 0; k < sw->nv; k++) {
        const char *other = rs_sweep_spec_var(sw->s, k);
        rs_var v;
        if (rs_model_find(m, other, &v) == RS_OK && v.kind == RS_VAR_QD && rs_speed_sets(m, v.index))
            return rs_fail(err, errlen, RS_E_ARG, "'speed' sets '%s', which is varied too: vary one of them",
                           other);
    }
    sw->how[j] = HOW_SPEED;
    return RS_OK;
}

/* Checks a varied name against the model: parameter or initial state. */
static int check_var(rs_sweep *sw, int j, char *err, size_t errlen)
{
    const char *name = rs_sweep_spec_var(sw->s, j);
    const rs_model *m = sw->m;
    rs_var v;
    if (rs_sweep_spec_is_file(sw->s, j)) {
        if (m->n_contact == 0)
            return rs_fail(err, errlen, RS_E_ARG,
                           "cannot vary '%s': it replaces the wheel-rail contacts' files, and model "
                           "'%s' has no contacts", name, m->name);
        sw->how[j] = HOW_FILE;
        return RS_OK;
    }
    if (strcmp(name, "speed") == 0 && rs_model_find(m, name, &v) != RS_OK)
        return check_speed(sw, j, err, errlen);
    if (rs_model_find(m, name, &v) == RS_OK) {
        if (v.kind == RS_VAR_P) {
            sw->how[j] = HOW_PARAM;
            return RS_OK;
        }
        if (v.kind == RS_VAR_Q || v.kind == RS_VAR_QD) {
            sw->how[j] = HOW_INITIAL;
            return RS_OK;
        }
        return rs_fail(err, errlen, RS_E_ARG,
                       "cannot vary '%s': it is %s; a sweep varies parameters, coordinates and "
                       "velocities (<coordinate>_dot)", name, kind_word(v.kind));
    }
    /* candidates: parameters, coordinates, velocities */
    const int nc = m->n_p + 2 * m->n_q;
    char **cand = calloc((size_t)nc + 1, sizeof *cand);
    char *list = calloc(1, 4096);
    if (!cand || !list) {
        free(cand);
        free(list);
        return RS_E_NOMEM;
    }
    int k = 0;
    for (int i = 0; i < m->n_p; i++)
        cand[k++] = strdup(m->p_names[i]);
    for (int i = 0; i < m->n_q; i++) {
        cand[k++] = strdup(m->q_names[i]);
        size_t len = strlen(m->q_names[i]) + 5;
        if ((cand[k] = malloc(len)))
            snprintf(cand[k], len, "%s_dot", m->q_names[i]);
        k++;
    }
    size_t used = 0;
    for (int i = 0; i < k && used + 64 < 4096; i++)
        if (cand[i])
            used += (size_t)snprintf(list + used, 4096 - used, "%s%s", i ? ", " : "", cand[i]);
    const char *best = rs_closest_name(name, (const char *const *)cand, k);
    char hint[300] = "";
    if (best)
        snprintf(hint, sizeof hint, " (did you mean '%s'?)", best);
    rs_fail(err, errlen, RS_E_NOTFOUND,
            "unknown name '%s' to vary%s; model '%s' has: %s", name, hint, m->name, list);
    for (int i = 0; i < k; i++)
        free(cand[i]);
    free(cand);
    free(list);
    return RS_E_NOTFOUND;
}

/* Checks that every figure's column is among the results' columns. */
static int check_figures(rs_sweep *sw, char *err, size_t errlen)
{
    if (!sw->nf)
        return RS_OK;
    rs_binding *b = NULL;
    int st = rs_scenario_bind(&sw->base, sw->m, &b, err, errlen);
    if (st)
        return st;
    int ncol;
    const char *const *cols = rs_binding_columns(b, &ncol);
    const rs_model *m = sw->m;
    for (int f = 0; f < sw->nf && !st; f++) {
        const char *want = sw->s->fig[f].column;
        int found = strcmp(want, "time") == 0;
        if (ncol > 0) {
            for (int i = 0; i < ncol && !found; i++)
                found = strcmp(cols[i], want) == 0;
        } else {
            /* the default columns: coordinates, velocities, multipliers, outputs */
            rs_var v;
            found = found || (rs_model_find(m, want, &v) == RS_OK &&
                              (v.kind == RS_VAR_Q || v.kind == RS_VAR_QD || v.kind == RS_VAR_LAMBDA ||
                               v.kind == RS_VAR_OUTPUT));
        }
        if (!found) {
            rs_var v;
            if (rs_model_find(m, want, &v) == RS_OK)
                st = rs_fail(err, errlen, RS_E_NOTFOUND,
                             "figure '%s': column '%s' is not among the results: add "
                             "it to the scenario's 'columns' line", sw->s->fig[f].name, want);
            else
                st = rs_fail(err, errlen, RS_E_NOTFOUND, "figure '%s': model '%s' has no quantity named '%s'",
                             sw->s->fig[f].name, m->name, want);
        }
    }
    rs_binding_free(&b);
    return st;
}

static int read_scenarios(rs_sweep *sw, char *err, size_t errlen)
{
    const rs_sweep_config *c = sw->c;
    return rs_scenario_load(c->model_dir, c->use_default_scenario, c->scenario, c->set_text, &sw->base, err, errlen);
}

int rs_sweep_open(rs_sweep **out, const rs_sweep_config *c, const rs_sweep_spec *s, char *err, size_t errlen)
{
    *out = NULL;
    if (!c || !s || (!c->model_dir && !c->train_file))
        return rs_fail(err, errlen, RS_E_ARG,
                       "rs_sweep_open: configuration, specification or model folder missing");
    const int n = rs_sweep_spec_count(s);
    if (n < 1)
        return rs_fail(err, errlen, RS_E_ARG, "too many variants (the grid has more than 100 million points)");
    rs_sweep *sw = calloc(1, sizeof *sw);
    if (!sw)
        return RS_E_NOMEM;
    pthread_mutex_init(&sw->mu, NULL);
    sw->c = c;
    sw->s = s;
    sw->n = n;
    sw->nv = rs_sweep_spec_nvars(s);
    sw->nf = rs_sweep_spec_nfigures(s);
    sw->lock_fd = -1;
    sw->threads = rs_sweep_threads(c, NULL);
    sw->width = 4;
    for (int k = n; k >= 10000; k /= 10)
        sw->width++;
    rs_scenario_init(&sw->base);
    const size_t un = (size_t)n;
    sw->how = calloc((size_t)sw->nv + 1, 1);
    sw->state = calloc(un, 1);
    sw->fig = calloc(un * (size_t)sw->nf + 1, sizeof *sw->fig);
    sw->msg = calloc(un, sizeof *sw->msg);
    sw->est = calloc(un, sizeof *sw->est);
    sw->cost = calloc(un, sizeof *sw->cost);
    sw->pred = calloc(un, sizeof *sw->pred);
    sw->dist = calloc(un, sizeof *sw->dist);
    sw->norm = calloc(un * (size_t)sw->nv + 1, sizeof *sw->norm);
    int st = RS_E_NOMEM;
    if (!sw->how || !sw->state || !sw->fig || !sw->msg || !sw->est || !sw->cost || !sw->pred || !sw->dist ||
        !sw->norm) {
        rs_fail(err, errlen, RS_E_NOMEM, "out of memory for %d variants", n);
        goto fail;
    }
    double train_est = 0;
    if (c->train_file) {
        const rs_load_options lo = {.include_dir = c->include_dir};   /* NULL fields: the loader's defaults */
        if (!(sw->trains = rs_load_cache_create(c->loader, &lo))) {
            st = rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
            goto fail;
        }
        if ((st = rs_sweep_train_check(c->train_file, sw->trains, s, &train_est, err, errlen)))
            goto fail;
        const int loads = rs_load_cache_loads(sw->trains);
        if (loads && !c->quiet) {
            rs_logf(&c->log, RS_LOG_LINE, "%d compiled vehicle model%s loaded (%s), shared by every variant", loads,
                    loads == 1 ? "" : "s", c->loader == RS_LOAD_DLOPEN ? "dlopen" : "libtcc");
        }
        for (int j = 0; j < sw->nv; j++)
            sw->how[j] = HOW_TRAIN;
        for (int i = 0; i < n; i++) {
            sw->est[i] = train_est;
            sw->dist[i] = INFINITY;
        }
        goto norm;
    }
    if ((st = read_scenarios(sw, err, errlen)))
        goto fail;
    char name[256], msg[1024];
    rs_load_options lo;
    rs_load_options_default(&lo);
    if (c->include_dir)
        lo.include_dir = c->include_dir;
    lo.model_name = rs_driver_model_name(c->model_dir, name, sizeof name);
    if (c->model) {
        sw->m = c->model;
    } else if (!(sw->h = rs_load_ex(c->model_dir, c->loader, &lo, msg, sizeof msg))) {
        st = rs_fail(err, errlen, RS_E_LOAD, "cannot load model folder '%s': %s", c->model_dir, msg);
        goto fail;
    } else {
        sw->m = rs_loaded_model(sw->h);
    }
    for (int j = 0; j < sw->nv; j++)
        if ((st = check_var(sw, j, err, errlen)))
            goto fail;
    if ((st = check_figures(sw, err, errlen)))
        goto fail;

    /* Cost estimate: the work of one step grows with the model's sizes
     * (the sparse system and the outputs), times the number of steps. */
    const rs_model *m = sw->m;
    const double size = (double)(m->M_pattern.colptr[m->n_q] + 2 * (m->n_phi ? m->phi_q_pattern.colptr[m->n_q] : 0) +
                                 m->n_q + m->n_phi + m->n_out + 1);
    const double steps = ceil(rs_scenario_duration(&sw->base) / rs_scenario_step(&sw->base));
    for (int i = 0; i < n; i++) {
        sw->est[i] = size * steps;
        sw->dist[i] = INFINITY;
    }
norm:;
    double *vals = calloc((size_t)sw->nv + 1, sizeof *vals);
    double *lo_v = calloc((size_t)sw->nv + 1, sizeof *lo_v);
    double *hi_v = calloc((size_t)sw->nv + 1, sizeof *hi_v);
    if (!vals || !lo_v || !hi_v) {
        free(vals);
        free(lo_v);
        free(hi_v);
        st = RS_E_NOMEM;
        goto fail;
    }
    for (int i = 0; i < n; i++) {
        rs_sweep_spec_values(s, i, vals);
        for (int j = 0; j < sw->nv; j++) {
            sw->norm[(size_t)i * (size_t)sw->nv + (size_t)j] = vals[j];
            if (i == 0 || vals[j] < lo_v[j]) lo_v[j] = vals[j];
            if (i == 0 || vals[j] > hi_v[j]) hi_v[j] = vals[j];
        }
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < sw->nv; j++) {
            double *x = &sw->norm[(size_t)i * (size_t)sw->nv + (size_t)j];
            *x = hi_v[j] > lo_v[j] ? (*x - lo_v[j]) / (hi_v[j] - lo_v[j]) : 0.0;
        }
    free(vals);
    free(lo_v);
    free(hi_v);
    *out = sw;
    return RS_OK;
fail:
    rs_sweep_close(&sw);
    return st;
}

void rs_sweep_close(rs_sweep **psw)
{
    if (!psw || !*psw)
        return;
    rs_sweep *sw = *psw;
    if (sw->lock_fd >= 0)
        close(sw->lock_fd);   /* releases the flock */
    if (sw->msg)
        for (int i = 0; i < sw->n; i++)
            free(sw->msg[i]);
    free(sw->msg);
    free(sw->how);
    free(sw->state);
    free(sw->fig);
    free(sw->est);
    free(sw->cost);
    free(sw->pred);
    free(sw->dist);
    free(sw->norm);
    rs_scenario_free(&sw->base);
    rs_unload(&sw->h);
    rs_load_cache_free(&sw->trains);
    pthread_mutex_destroy(&sw->mu);
    free(sw);
    *psw = NULL;
}

/* ---------------------------------------------------------------- attach */

/* The text of variants.csv: the variant numbers and their values. */
static char *variants_text(const rs_sweep *sw, size_t *len)
{
    size_t cap = 256 + (size_t)sw->n * (size_t)(12 + 26 * sw->nv);
    for (int j = 0; j < sw->nv; j++)
        cap += strlen(rs_sweep_spec_var(sw->s, j)) + 1;
    for (int k = 0; k < sw->s->n_texts; k++)   /* a path in every variant, at worst */
        cap += (size_t)sw->n * (strlen(sw->s->texts[k]) + 3);
    char *t = malloc(cap);
    double *v = calloc((size_t)sw->nv + 1, sizeof *v);
    if (!t || !v) {
        free(t);
        free(v);
        return NULL;
    }
    size_t k = (size_t)snprintf(t, cap, "variant");
    for (int j = 0; j < sw->nv; j++)
        k += (size_t)snprintf(t + k, cap - k, ",%s", rs_sweep_spec_var(sw->s, j));
    t[k++] = '\n';
    for (int i = 0; i < sw->n; i++) {
        rs_sweep_spec_values(sw->s, i, v);
        k += (size_t)snprintf(t + k, cap - k, "%d", i + 1);
        for (int j = 0; j < sw->nv; j++) {
            t[k++] = ',';
            k += rs_sweep_spec_format(sw->s, j, v[j], t + k, cap - k);
        }
        t[k++] = '\n';
    }
    t[k] = '\0';
    free(v);
    *len = k;
    return t;
}

static void log_events(const rs_sweep *sw, int i, const char *events);

/* Loads variant i's result from the folder (caller holds the lock or is
 * alone): vNNNN.csv -> ok with its figures (or failed if they cannot be
 * computed); vNNNN.failed -> failed with its message; else pending. */
static void load_variant(rs_sweep *sw, int i)
{
    char path[4096], why[1024];
    size_t len;
    free(sw->msg[i]);
    sw->msg[i] = NULL;
    var_path(sw, i, ".csv", path, sizeof path);
    char *text;
    if (rs_read_file(path, 0, 0, &text, &len) == 0) {
        if (rs_sweep_figures_of_csv(sw->s, text, len, &sw->fig[(size_t)i * (size_t)sw->nf], why, sizeof why) == RS_OK) {
            sw->state[i] = RS_VAR_OK;
        } else {
            sw->state[i] = RS_VAR_FAILED;
            sw->msg[i] = strdup(why);
        }
        free(text);
        return;
    }
    var_path(sw, i, ".failed", path, sizeof path);
    if (rs_read_file(path, 0, 0, &text, &len) == 0) {
        while (len && (text[len - 1] == '\n' || text[len - 1] == '\r'))
            text[--len] = '\0';
        sw->state[i] = RS_VAR_FAILED;
        sw->msg[i] = text;
        return;
    }
    sw->state[i] = RS_VAR_PENDING;
}

int rs_sweep_attach(rs_sweep *sw, char *err, size_t errlen)
{
    const char *dir = sw->c->out_dir;
    if (!dir || !*dir)
        return rs_fail(err, errlen, RS_E_ARG, "no output folder given");
    if (rs_make_dirs(dir) != 0)
        return rs_fail(err, errlen, RS_E_IO, "cannot create the output folder '%s': %s", dir, strerror(errno));
    char path[4096];
    snprintf(path, sizeof path, "%s/sweep.lock", dir);
    if ((sw->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666)) < 0)
        return rs_fail(err, errlen, RS_E_IO,
                       "cannot write in the output folder '%s': %s", dir, strerror(errno));
    if (flock(sw->lock_fd, LOCK_EX | LOCK_NB) != 0)
        return rs_fail(err, errlen, RS_E_IO,
                       "another sweep is running in '%s' (it holds sweep.lock): wait for it, or choose "
                       "another output folder", dir);
    /* Temporary files of an interrupted run: never a complete result. */
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)))
            if (strstr(e->d_name, ".tmp.") && (e->d_name[0] == 'v' || strncmp(e->d_name, ".v", 2) == 0 ||
                                               strncmp(e->d_name, "summary.csv", 11) == 0)) {
                snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
                unlink(path);
            }
        closedir(d);
    }
    size_t len, old_len;
    char *text = variants_text(sw, &len);
    if (!text)
        return RS_E_NOMEM;
    snprintf(path, sizeof path, "%s/variants.csv", dir);
    char *old;
    rs_read_file(path, 0, 0, &old, &old_len);
    int st = RS_OK;
    if (old) {
        if (old_len != len || memcmp(old, text, len) != 0) {
            st = rs_fail(err, errlen, RS_E_ARG,
                         "'%s' holds another sweep (its variants.csv lists other variants): choose another "
                         "output folder, or remove that one to start again", dir);
        }
    } else if (write_atomic(path, text, len) != 0) {
        st = rs_fail(err, errlen, RS_E_IO, "cannot write '%s': %s", path, strerror(errno));
    }
    free(old);
    free(text);
    if (st)
        return st;
    for (int i = 0; i < sw->n; i++) {
        load_variant(sw, i);
        if (sw->state[i] == RS_VAR_FAILED && sw->c->retry_failed)
            sw->state[i] = RS_VAR_PENDING;
        if (sw->state[i] != RS_VAR_PENDING) {
            sw->skipped++;
            /* a finished variant's lines (its events), as when it ran:
             * they are results, and a resumed sweep's log has them all */
            var_path(sw, i, ".events", path, sizeof path);
            if (rs_read_file(path, 0, 0, &text, &len) == 0) {
                log_events(sw, i, text);
                free(text);
            }
        }
    }
    return RS_OK;
}

/* ---------------------------------------------------------------- run */

/* Replaces every occurrence of `from` in s (in place, within cap). */
static void replace_all(char *s, size_t cap, const char *from, const char *to)
{
    const size_t fl = strlen(from), tl = strlen(to);
    if (!fl)
        return;
    char *p = s;
    while ((p = strstr(p, from))) {
        const size_t rest = strlen(p + fl);
        if ((size_t)(p - s) + tl + rest + 1 > cap)
            return;
        memmove(p + tl, p + fl, rest + 1);
        memcpy(p, to, tl);
        p += tl;
    }
}

/* A run that stopped at a derailment, as its scenario asked (`derailment
 * stop`, the default), failed no method: its message says so first, in a
 * train variant's words (RS_TRAIN_DERAILED_MSG), so that the summary marks
 * it `derailed` from vNNNN.failed alone (derailed() below), in place of
 * the driver's "model 'M': simulation failed (RS_E_DERAILED): ". */
static void derailed_message(const rs_model *m, char *msg, size_t cap)
{
    char was[400];
    snprintf(was, sizeof was, "model '%s': simulation failed (%s): ", m->name, rs_status_name(RS_E_DERAILED));
    const size_t wl = strlen(was), pl = strlen(RS_TRAIN_DERAILED_MSG);
    const char *rest = strncmp(msg, was, wl) == 0 ? msg + wl : msg;
    size_t rl = strlen(rest);
    if (cap <= pl)
        return;
    if (pl + rl + 1 > cap)   /* the words first, whatever the end loses */
        rl = cap - pl - 1;
    memmove(msg + pl, rest, rl);
    msg[pl + rl] = '\0';
    memcpy(msg, RS_TRAIN_DERAILED_MSG, pl);
}

int rs_sweep_run_variant(rs_sweep *sw, int i, const double *values, const char *path, rs_variant_result *r)
{
    memset(r, 0, sizeof *r);
    double *own = NULL;
    if (!values) {
        if (!(own = calloc((size_t)sw->nv + 1, sizeof *own)))
            return r->status = RS_E_NOMEM;
        rs_sweep_spec_values(sw->s, i, own);
        values = own;
    }
    if (sw->c->train_file) {
        const double t0 = rs_now_s();
        int st = rs_sweep_train_variant(sw->c->train_file, sw->trains, sw->s, values, path, sw->threads, &r->steps,
                                        r->message, sizeof r->message, r->events, sizeof r->events);
        r->wall_s = rs_now_s() - t0;
        char final[64];
        snprintf(final, sizeof final, "v%0*d.partial.csv", sw->width, i + 1);
        replace_all(r->message, sizeof r->message, path, final);
        free(own);
        return r->status = st;
    }
    /* The variant's scenario: its values as param/initial lines, over the base. */
    size_t cap = 64;
    for (int j = 0; j < sw->nv; j++) {
        const char *file = rs_sweep_spec_file(sw->s, j, values[j]);
        cap += strlen(rs_sweep_spec_var(sw->s, j)) + 40 + (file ? strlen(file) : 0);
    }
    char *text = malloc(cap);
    rs_scenario top, scn;
    rs_scenario_init(&top);
    rs_scenario_init(&scn);
    int st = RS_E_NOMEM;
    if (text) {
        size_t k = 0;
        for (int j = 0; j < sw->nv; j++) {
            const char *file = rs_sweep_spec_file(sw->s, j, values[j]);
            if (sw->how[j] == HOW_FILE && !file) {   /* an index no spec made (MPI message) */
                st = rs_fail(r->message, sizeof r->message, RS_E_ARG, "variant %d: no file number %.17g for '%s'",
                             i + 1, values[j], rs_sweep_spec_var(sw->s, j));
                break;
            }
            if (sw->how[j] == HOW_FILE) {
                k += (size_t)snprintf(text + k, cap - k, "%s \"%s\"\n", rs_sweep_spec_var(sw->s, j), file);
            } else if (sw->how[j] == HOW_SPEED) {
                k += (size_t)snprintf(text + k, cap - k, "speed %.17g\n", values[j]);
            } else
                k += (size_t)snprintf(text + k, cap - k, "%s %s = %.17g\n", sw->how[j] == HOW_PARAM ? "param" : "initial",
                                      rs_sweep_spec_var(sw->s, j), values[j]);
        }
        char label[64];
        snprintf(label, sizeof label, "variant %d", i + 1);
        if (!r->message[0])
            st = rs_scenario_parse(text, strlen(text), label, &top, r->message, sizeof r->message);
        int ost;
        if (!st && ((ost = rs_scenario_overlay(&scn, &sw->base)) || (ost = rs_scenario_overlay(&scn, &top))))
            st = rs_fail(r->message, sizeof r->message, ost, "%s", RS_SCENARIO_OVERLAY_MSG(ost));
    }
    if (!st) {
        rs_run_config rc;
        rs_run_config_default(&rc);
        rc.model_dir = sw->c->model_dir;
        rc.out = path;
        rc.out_in_place = 1;   /* rs_sweep_commit renames */
        rc.method = sw->c->method;
        rc.progress = 0;
        /* the lines a quiet `railsym run` prints (its elastic contacts'
         * events), printed with the variant's number when it is recorded */
        rs_sweep_lines lines;
        rc.log = rs_sweep_lines_start(&lines, r->events, sizeof r->events);
        rs_run_report rep;
        const double t0 = rs_now_s();
        st = rs_driver_simulate(sw->m, &scn, &rc, &rep, r->message, sizeof r->message);
        r->wall_s = rs_now_s() - t0;
        r->steps = rep.steps;
        rs_sweep_lines_end(&lines);
        if (st == RS_E_DERAILED)
            derailed_message(sw->m, r->message, sizeof r->message);
        /* The message names where the partial results will be, not the
         * temporary file, so it is the same wherever the variant ran. */
        char final[64];
        snprintf(final, sizeof final, "v%0*d.partial.csv", sw->width, i + 1);
        replace_all(r->message, sizeof r->message, path, final);
    }
    if (st == RS_STOPPED)
        st = RS_E_IO;
    rs_scenario_free(&top);
    rs_scenario_free(&scn);
    free(text);
    free(own);
    return r->status = st;
}

/* ---------------------------------------------------------------- schedule */

static double predicted(const rs_sweep *sw, int i)
{
    if (isfinite(sw->dist[i]))
        return sw->pred[i];
    const double rate = sw->sum_est > 0 ? sw->sum_cost / sw->sum_est : 1.0;
    return sw->est[i] * rate;
}

int rs_sweep_next(rs_sweep *sw)
{
    pthread_mutex_lock(&sw->mu);
    int best = -1;
    if (!sw->c->max_variants || sw->started < sw->c->max_variants) {
        double best_cost = 0;
        for (int i = 0; i < sw->n; i++) {
            if (sw->state[i] != RS_VAR_PENDING)
                continue;
            const double p = predicted(sw, i);
            if (best < 0 || p > best_cost) {
                best = i;
                best_cost = p;
            }
        }
        if (best >= 0) {
            sw->state[best] = RS_VAR_RUNNING;
            sw->started++;
        }
    }
    pthread_mutex_unlock(&sw->mu);
    return best;
}

/* Refines the predictions of pending variants with the measured cost of
 * variant d: each takes the cost of its nearest measured neighbour, scaled
 * by the ratio of the size estimates. */
static void refine(rs_sweep *sw, int d, double cost)
{
    if (!(cost > 0))
        return;
    sw->cost[d] = cost;
    sw->sum_cost += cost;
    sw->sum_est += sw->est[d];
    const double *xd = &sw->norm[(size_t)d * (size_t)sw->nv];
    for (int i = 0; i < sw->n; i++) {
        if (sw->state[i] != RS_VAR_PENDING)
            continue;
        const double *xi = &sw->norm[(size_t)i * (size_t)sw->nv];
        double dd = 0;
        for (int j = 0; j < sw->nv; j++)
            dd += (xi[j] - xd[j]) * (xi[j] - xd[j]);
        if (dd < sw->dist[i]) {
            sw->dist[i] = dd;
            sw->pred[i] = cost * sw->est[i] / sw->est[d];
        }
    }
}

/* 1 when variant i failed by a derailment it was to stop at (its message,
 * from vNNNN.failed, says so first: rs_train_run, derailed_message). */
static int derailed(const rs_sweep *sw, int i)
{
    return sw->state[i] == RS_VAR_FAILED && sw->msg[i] &&
           strncmp(sw->msg[i], RS_TRAIN_DERAILED_MSG, strlen(RS_TRAIN_DERAILED_MSG)) == 0;
}

/* The variant's log: its run's lines (the flange climbs and derailments
 * of its elastic contacts, a train's or a single model's), each prefixed "vNNNN: " and printed even when quiet, as a
 * quiet `railsym run` prints them (they are results), all at once under the
 * lock, so each variant's lines stay together and are the same on any
 * number of threads; then its outcome. */
/* A variant's lines (rs_variant_result.events, or vNNNN.events of one
 * found finished), each prefixed "vNNNN: ". */
static void log_events(const rs_sweep *sw, int i, const char *events)
{
    for (const char *p = events; *p;) {
        const char *end = strchr(p, '\n');
        const int len = end ? (int)(end - p) : (int)strlen(p);
        rs_logf(&sw->c->log, RS_LOG_LINE, "v%0*d: %.*s", sw->width, i + 1, len, p);
        p += len + (end != NULL);
    }
}

static void log_variant(rs_sweep *sw, int i, const rs_variant_result *r)
{
    log_events(sw, i, r->events);
    if (sw->c->quiet)
        return;
    int done = 0;
    for (int k = 0; k < sw->n; k++)
        done += sw->state[k] == RS_VAR_OK || sw->state[k] == RS_VAR_FAILED;
    if (sw->state[i] == RS_VAR_OK)
        rs_logf(&sw->c->log, RS_LOG_LINE, "v%0*d ok in %.3g s (%d of %d done)", sw->width, i + 1, r->wall_s, done,
                sw->n);
    else
        rs_logf(&sw->c->log, RS_LOG_LINE, "v%0*d %s in %.3g s (%d of %d done): %s", sw->width, i + 1,
                derailed(sw, i) ? "DERAILED" : "FAILED", r->wall_s, done, sw->n, sw->msg[i] ? sw->msg[i] : "");
}

int rs_sweep_commit(rs_sweep *sw, int i, const char *tmp, const rs_variant_result *r, char *err, size_t errlen)
{
    char csv[4096], failed[4096], partial[4096], events[4096];
    var_path(sw, i, ".csv", csv, sizeof csv);
    var_path(sw, i, ".failed", failed, sizeof failed);
    var_path(sw, i, ".partial.csv", partial, sizeof partial);
    var_path(sw, i, ".events", events, sizeof events);
    int st = RS_OK;
    /* the run's lines before its result: a variant found finished has
     * them, so a resumed sweep prints them again (rs_sweep_attach) */
    if (r->events[0] ? write_atomic(events, r->events, strlen(r->events)) != 0
                     : unlink(events) != 0 && errno != ENOENT) {
        st = rs_fail(err, errlen, RS_E_IO, "cannot write '%s': %s", events, strerror(errno));
        unlink(tmp);   /* recorded as not run, below */
    } else if (r->status == RS_OK) {
        if (rename(tmp, csv) != 0) {
            st = rs_fail(err, errlen, RS_E_IO, "cannot rename '%s' to '%s': %s", tmp, csv, strerror(errno));
        } else {
            unlink(failed);
            unlink(partial);
        }
    } else {
        /* The partial results first, the marker last: a file vNNNN.failed
         * always comes with whatever partial results there were. */
        if (file_exists(tmp) && rename(tmp, partial) != 0)
            unlink(tmp);
        char line[sizeof r->message + 2];
        size_t k = 0;
        for (const char *p = r->message; *p && k + 2 < sizeof line; p++)
            line[k++] = (*p == '\n' || *p == '\r') ? ' ' : *p;
        if (!k) {
            snprintf(line, sizeof line, "%s", rs_status_str(r->status));
            k = strlen(line);
        }
        line[k++] = '\n';
        if (write_atomic(failed, line, k) != 0) {
            st = rs_fail(err, errlen, RS_E_IO, "cannot write '%s': %s", failed, strerror(errno));
        }
    }
    pthread_mutex_lock(&sw->mu);
    if (st == RS_OK) {
        load_variant(sw, i);
        refine(sw, i, r->wall_s);
        log_variant(sw, i, r);
    } else {
        sw->state[i] = RS_VAR_PENDING;
    }
    pthread_mutex_unlock(&sw->mu);
    rs_temp_forget(tmp);   /* renamed or removed by now */
    return st;
}

/* ---------------------------------------------------------------- summary */

static void put_csv_text(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
    }
    fputc('"', f);
}

int rs_sweep_write_summary(rs_sweep *sw, char *err, size_t errlen)
{
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/summary.csv", sw->c->out_dir);
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    /* the lock covers the whole write: one writer of the temporary file */
    pthread_mutex_lock(&sw->mu);
    (void)rs_temp_add(tmp, NULL, 0);   /* a signal meanwhile removes it (rs_temp.h) */
    double *v = calloc((size_t)sw->nv + 1, sizeof *v);
    FILE *f = v ? fopen(tmp, "w") : NULL;
    if (!f) {
        rs_temp_forget(tmp);
        pthread_mutex_unlock(&sw->mu);
        free(v);
        return rs_fail(err, errlen, RS_E_IO, "cannot write '%s': %s", tmp, strerror(errno));
    }
    fputs("variant,status", f);
    for (int j = 0; j < sw->nv; j++)
        fprintf(f, ",%s", rs_sweep_spec_var(sw->s, j));
    for (int k = 0; k < sw->nf; k++)
        fprintf(f, ",%s", rs_sweep_spec_figure_name(sw->s, k));
    fputs(",message\n", f);
    for (int i = 0; i < sw->n; i++) {
        const int state = sw->state[i];
        fprintf(f, "%d,%s", i + 1,
                state == RS_VAR_OK ? "ok" : derailed(sw, i) ? "derailed" : state == RS_VAR_FAILED ? "failed" : "pending");
        rs_sweep_spec_values(sw->s, i, v);
        for (int j = 0; j < sw->nv; j++) {
            char field[4200];
            rs_sweep_spec_format(sw->s, j, v[j], field, sizeof field);
            fprintf(f, ",%s", field);
        }
        for (int k = 0; k < sw->nf; k++) {
            if (state == RS_VAR_OK)
                fprintf(f, ",%.17g", sw->fig[(size_t)i * (size_t)sw->nf + (size_t)k]);
            else
                fputc(',', f);
        }
        fputc(',', f);
        if (sw->msg[i])
            put_csv_text(f, sw->msg[i]);
        fputc('\n', f);
    }
    free(v);
    const int bad = ferror(f);
    int st = RS_OK;
    if (fclose(f) != 0 || bad || rename(tmp, path) != 0) {
        unlink(tmp);
        st = rs_fail(err, errlen, RS_E_IO, "cannot write '%s'", path);
    }
    rs_temp_forget(tmp);
    pthread_mutex_unlock(&sw->mu);
    return st;
}

void rs_sweep_counts(rs_sweep *sw, rs_sweep_report *r)
{
    pthread_mutex_lock(&sw->mu);
    r->variants = sw->n;
    r->skipped = sw->skipped;
    r->threads = sw->threads;
    r->ok = r->failed = r->derailed = r->pending = 0;
    for (int i = 0; i < sw->n; i++) {
        r->ok += sw->state[i] == RS_VAR_OK;
        r->failed += sw->state[i] == RS_VAR_FAILED;
        r->derailed += derailed(sw, i);
        r->pending += sw->state[i] == RS_VAR_PENDING || sw->state[i] == RS_VAR_RUNNING;
    }
    pthread_mutex_unlock(&sw->mu);
}

int rs_sweep_count(const rs_sweep *sw) { return sw->n; }
const rs_sweep_spec *rs_sweep_get_spec(const rs_sweep *sw) { return sw->s; }
const rs_sweep_config *rs_sweep_get_config(const rs_sweep *sw) { return sw->c; }
double rs_sweep_estimate(const rs_sweep *sw, int i) { return sw->est[i]; }

int rs_sweep_status(rs_sweep *sw, int i)
{
    pthread_mutex_lock(&sw->mu);
    const int st = sw->state[i];
    pthread_mutex_unlock(&sw->mu);
    return st;
}

double rs_sweep_figure(rs_sweep *sw, int i, int f)
{
    pthread_mutex_lock(&sw->mu);
    const double v = sw->state[i] == RS_VAR_OK ? sw->fig[(size_t)i * (size_t)sw->nf + (size_t)f] : NAN;
    pthread_mutex_unlock(&sw->mu);
    return v;
}

/* ---------------------------------------------------------------- local run */


typedef struct local_ctx {
    rs_sweep *sw;
    pthread_mutex_t mu;
    int failed_io;             /* a result could not be written: stop      */
    char err[1024];
    int ran;
} local_ctx;

static void local_worker(void *vctx, int task, int thread)
{
    (void)task;
    local_ctx *x = vctx;
    rs_sweep *sw = x->sw;
    char tmp[4096], err[1024];
    rs_variant_result *r = malloc(sizeof *r);
    if (!r)
        return;
    for (;;) {
        pthread_mutex_lock(&x->mu);
        const int stop = x->failed_io;
        pthread_mutex_unlock(&x->mu);
        if (stop)
            break;
        const int i = rs_sweep_next(sw);
        if (i < 0)
            break;
        rs_sweep_temp_path(sw, i, thread, tmp, sizeof tmp);
        rs_sweep_run_variant(sw, i, NULL, tmp, r);
        const int st = rs_sweep_commit(sw, i, tmp, r, err, sizeof err);
        pthread_mutex_lock(&x->mu);
        x->ran++;
        if (st && !x->failed_io) {
            x->failed_io = 1;
            rs_fail(x->err, sizeof x->err, st, "%s", err);
        }
        pthread_mutex_unlock(&x->mu);
        /* a summary now and then, so a long sweep shows its progress */
        if (rs_sweep_summary_due(sw, 5.0))
            rs_sweep_write_summary(sw, err, sizeof err);
    }
    free(r);
}

int rs_sweep_run_local(rs_sweep *sw, rs_sweep_report *rep, char *err, size_t errlen)
{
    const int jobs = sw->c->jobs < 1 ? 1 : sw->c->jobs;
    rs_pool *pool = NULL;
    int st = rs_pool_create(&pool, jobs, jobs, err, errlen);
    if (st)
        return st;
    local_ctx x;
    memset(&x, 0, sizeof x);
    x.sw = sw;
    sw->last_summary = rs_now_s();
    pthread_mutex_init(&x.mu, NULL);
    rs_pool_parallel(pool, local_worker, &x);
    pthread_mutex_destroy(&x.mu);
    rs_pool_free(&pool);
    rep->ran += x.ran;
    if (x.failed_io) {
        st = rs_fail(err, errlen, RS_E_IO, "%s", x.err);
    }
    char e2[1024];
    const int st2 = rs_sweep_write_summary(sw, e2, sizeof e2);
    if (st2 && !st) {
        st = rs_fail(err, errlen, st2, "%s", e2);
    }
    rs_sweep_counts(sw, rep);
    return st;
}

int rs_sweep_summary_due(rs_sweep *sw, double every_s)
{
    pthread_mutex_lock(&sw->mu);
    const double t = rs_now_s();
    const int due = t - sw->last_summary > every_s;
    if (due)
        sw->last_summary = t;
    pthread_mutex_unlock(&sw->mu);
    return due;
}

int rs_sweep_run(const rs_sweep_config *c, const rs_sweep_spec *s, rs_sweep_report *report, char *err,
                 size_t errlen)
{
    rs_sweep_report rep_local;
    rs_sweep_report *rep = report ? report : &rep_local;
    memset(rep, 0, sizeof *rep);
    const double t0 = rs_now_s();
    rs_sweep *sw = NULL;
    int st = rs_sweep_open(&sw, c, s, err, errlen);
    if (!st)
        st = rs_sweep_attach(sw, err, errlen);
    if (!st)
        st = rs_sweep_run_local(sw, rep, err, errlen);
    rs_sweep_close(&sw);
    rep->wall_s = rs_now_s() - t0;
    return st;
}
