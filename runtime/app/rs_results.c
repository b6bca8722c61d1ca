/* rs_results.c — see rs_results.h. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rs_contact_ops.h"
#include "rs_csv.h"
#include "rs_error.h"
#include "rs_file.h"
#include "rs_results.h"
#include "rs_results_h5.h"
#include "rs_results_mat.h"
#include "rs_temp.h"
#include "rs_track_rel.h"

struct rs_results {
    const rs_results_backend *be;
    void *h;                /* the backend's file                      */
    int ncol;
    int status;             /* the first write error                   */
    long rows;
    double last_t;
    unsigned flags;
    char *path, *tmp;       /* asked for; written (== path in place)   */
    double *row;            /* 1 + ncol: time, values                  */
    rs_var *vars;           /* ncol, when bound to a workspace         */
    int need_outputs, need_energy, need_power;
    double *outputs;        /* n_out of the bound model                */
    int *trel;              /* ncol: body * RS_TREL_COUNT + quantity of a
                               track-relative column, -1 for the others */
    rs_track_rel *tr;       /* when a column is track-relative         */
    int *xcol;              /* ncol: index into xvals of an extra column, -1 */
    const double *xvals;    /* rs_results_extra.values                 */
    char *units_csv;        /* CSV with a unit known: the units file's text */
};

/* ------------------------------------------------------------ names */

static int make_temp(const char *path, char **out, char *err, size_t errlen);

static const char *extension(const char *path)
{
    const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
    return dot && (!slash || dot > slash + 1) ? dot : NULL;
}

static const rs_results_backend *backend_of(const char *path)
{
    const char *ext = extension(path);
    if (ext && strcasecmp(ext, ".mat") == 0)
        return rs_mat_backend();
    if (ext && (strcasecmp(ext, ".h5") == 0 || strcasecmp(ext, ".hdf5") == 0))
        return rs_h5_backend();
    return rs_csv_backend();
}

/* "STEM.<infix>EXT" for "STEM.EXT" ("PATH.<infix>" without an extension). */
static void infix_path(const char *path, const char *infix, char *buf, size_t len)
{
    const char *ext = extension(path);
    const int stem = ext ? (int)(ext - path) : (int)strlen(path);
    snprintf(buf, len, "%.*s.%s%s", stem, path, infix, ext ? ext : "");
}

void rs_results_partial_path(const char *path, char *buf, size_t len) { infix_path(path, "partial", buf, len); }
void rs_results_units_path(const char *path, char *buf, size_t len) { infix_path(path, "units", buf, len); }

/* The text of a units file: the header row, then the units row (NULL when
 * no unit is known or out of memory). */
static char *units_text(int ncol1, const char *const *names, const char *const *units)
{
    size_t len = 1;
    int known = 0;
    for (int j = 0; j < ncol1; j++) {
        len += strlen(names[j]) + strlen(units[j]) + 2;
        known |= j > 0 && units[j][0];
    }
    char *text = known ? malloc(len) : NULL;
    if (!text)
        return NULL;
    size_t k = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int j = 0; j < ncol1; j++)
            k += (size_t)snprintf(text + k, len - k, "%s%s", pass ? units[j] : names[j], j + 1 < ncol1 ? "," : "\n");
    return text;
}

/* Writes the units file for the CSV `final` (through a temporary file and
 * a rename, as the table); RS_OK or RS_E_IO with the message. */
static int write_units(const rs_results *r, const char *final, char *err, size_t errlen)
{
    char path[4200], *tmp = NULL;
    rs_results_units_path(final, path, sizeof path);
    int st = make_temp(path, &tmp, err, errlen);
    if (st)
        return st;
    FILE *f = fopen(tmp, "w");
    int ok = f && fputs(r->units_csv, f) >= 0;
    if (f && fclose(f) != 0)
        ok = 0;
    if (!ok || rename(tmp, path) != 0) {
        st = rs_fail(err, errlen, RS_E_IO, "cannot write the units of '%s' to '%s': %s", final, path,
                     strerror(errno));
        unlink(tmp);
    }
    rs_temp_forget(tmp);
    free(tmp);
    return st;
}

/* A new empty file "DIR/.NAME.tmp.PID.N" beside path, created here (O_EXCL:
 * never another run's); its name in *out (malloc'd). */
static int make_temp(const char *path, char **out, char *err, size_t errlen)
{
    static atomic_uint counter;
    const char *slash = strrchr(path, '/');
    const int dirlen = slash ? (int)(slash - path + 1) : 0;
    const size_t len = strlen(path) + 64;
    char *tmp = malloc(len);
    if (!tmp)
        return rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
    for (int tries = 0; tries < 100; tries++) {
        snprintf(tmp, len, "%.*s.%s.tmp.%ld.%u", dirlen, path, path + dirlen, (long)getpid(),
                 atomic_fetch_add(&counter, 1u));
        /* registered before it exists: a SIGINT/TERM/HUP of the command
         * removes it (rs_temp.h; best effort: a full registry only loses
         * that) — an interrupted run leaves no file behind */
        (void)rs_temp_add(tmp, NULL, 0);
        const int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd < 0)
            rs_temp_forget(tmp);
        if (fd >= 0) {
            close(fd);
            *out = tmp;
            return RS_OK;
        }
        if (errno != EEXIST) {
            const int why = errno;
            free(tmp);
            return rs_fail(err, errlen, RS_E_IO, "cannot write '%s': %s", path, rs_file_why(why));
        }
    }
    free(tmp);
    return rs_fail(err, errlen, RS_E_IO, "cannot write '%s': no free temporary name beside it", path);
}

/* ------------------------------------------------------------ units */

const char *rs_results_contact_unit(int k)
{
    static const char *const contact_u[RS_CONTACT_VAR_COUNT] = {"1", "1", "1/m", "N", "N", "N", "1", "1"};
    static const char *const patch_u[RS_PATCH_VAR_COUNT] = {"m", "m", "rad", "m", "N", "1", "1",
                                                            "1/m", "N", "N", "N m", "m", "m"};
    if (k < 0 || k >= RS_CONTACT_VAR_STRIDE)
        return "";
    return k < RS_CONTACT_VAR_COUNT ? contact_u[k] : patch_u[(k - RS_CONTACT_VAR_COUNT) % RS_PATCH_VAR_COUNT];
}

const char *rs_results_unit(const rs_model *m, rs_var v, char *buf, size_t len)
{
    const char *u = "";
    int per_second = 0;
    switch (v.kind) {
    case RS_VAR_TIME: u = "s"; break;
    case RS_VAR_QD: per_second = 1; /* fall through */
    case RS_VAR_Q: u = m->q_units ? m->q_units[v.index] : ""; break;
    case RS_VAR_SD: per_second = 1; /* fall through */
    case RS_VAR_S: u = m->s_units ? m->s_units[v.index] : ""; break;
    case RS_VAR_P: u = m->p_units ? m->p_units[v.index] : ""; break;
    case RS_VAR_U: u = m->u_units ? m->u_units[v.index] : ""; break;
    case RS_VAR_OUTPUT: u = m->output_units ? m->output_units[v.index] : ""; break;
    case RS_VAR_LAMBDA: u = ""; break;   /* a constraint's force or moment: not known */
    case RS_VAR_CONTACT: {
        u = rs_results_contact_unit(v.index % RS_CONTACT_VAR_STRIDE);
        break;
    }
    case RS_VAR_STAT: u = "1"; break;
    case RS_VAR_ENERGY: u = v.index < RS_ENERGY_VAR_POWER ? "J" : "W"; break;
    }
    if (!u)
        u = "";
    if (!per_second || !u[0])
        snprintf(buf, len, "%s", u);
    else if (strcmp(u, "1") == 0 || strcmp(u, "-") == 0)
        snprintf(buf, len, "1/s");
    else if (strchr(u, '/'))
        snprintf(buf, len, "%s s^-1", u);   /* "m/s/s" would be ambiguous */
    else
        snprintf(buf, len, "%s/s", u);
    return buf;
}

/* ------------------------------------------------------------ open */

static void results_free(rs_results *r)
{
    if (r->tmp && !(r->flags & RS_RESULTS_IN_PLACE))
        rs_temp_forget(r->tmp);   /* renamed or removed by now */
    free(r->path);
    free(r->tmp);
    free(r->row);
    free(r->vars);
    free(r->outputs);
    free(r->trel);
    free(r->xcol);
    rs_track_rel_free(&r->tr);
    free(r->units_csv);
    free(r);
}

int rs_results_open(rs_results **out, const char *path, int ncol, const char *const *names,
                    const char *const *units, unsigned flags, char *err, size_t errlen)
{
    *out = NULL;
    if (!path || !path[0] || ncol < 0 || (ncol > 0 && !names))
        return rs_fail(err, errlen, RS_E_ARG, "rs_results_open: bad arguments");
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
        return rs_fail(err, errlen, RS_E_IO, "cannot write '%s': %s", path, rs_file_why(EISDIR));
    rs_results *r = calloc(1, sizeof *r);
    const char **all_names = calloc((size_t)ncol + 1, sizeof *all_names);
    const char **all_units = calloc((size_t)ncol + 1, sizeof *all_units);
    int st = RS_E_NOMEM;
    if (!r || !all_names || !all_units || !(r->row = calloc((size_t)ncol + 1, sizeof(double))) ||
        !(r->path = strdup(path))) {
        rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
        goto fail;
    }
    r->be = backend_of(path);
    r->ncol = ncol;
    r->flags = flags;
    r->last_t = NAN;
    all_names[0] = "time";
    all_units[0] = "s";
    for (int i = 0; i < ncol; i++) {
        all_names[i + 1] = names[i];
        all_units[i + 1] = units && units[i] ? units[i] : "";
    }
    if (flags & RS_RESULTS_IN_PLACE) {
        if (!(r->tmp = strdup(path))) {
            rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
            goto fail;
        }
    } else if ((st = make_temp(path, &r->tmp, err, errlen))) {
        goto fail;
    }
    char msg[1024];
    r->h = r->be->open(r->tmp, ncol + 1, all_names, all_units, &st, msg, sizeof msg);
    if (!r->h) {
        /* the backend names the temporary file; the user knows the path */
        rs_fail(err, errlen, st, "cannot write '%s'%s%s: %s", path, r->be == rs_csv_backend() ? "" : " as ",
                r->be == rs_csv_backend() ? "" : r->be->format, msg);
        if (!(flags & RS_RESULTS_IN_PLACE))
            unlink(r->tmp);
        goto fail;
    }
    if (r->be == rs_csv_backend() && !(flags & RS_RESULTS_IN_PLACE))
        r->units_csv = units_text(ncol + 1, all_names, all_units);   /* NULL: none known, no file */
    free(all_names);
    free(all_units);
    *out = r;
    return RS_OK;
fail:
    free(all_names);
    free(all_units);
    if (r)
        results_free(r);
    return st;
}

char **rs_results_default_columns(const rs_model *m, int *n)
{
    const int ncol = 2 * m->n_q + m->n_phi + m->n_out;
    char **names = calloc((size_t)ncol + 1, sizeof *names);
    if (!names)
        return NULL;
    int k = 0, bad = 0;
    for (int pass = 0; pass < 4; pass++) {
        const int count = pass < 2 ? m->n_q : pass == 2 ? m->n_phi : m->n_out;
        for (int i = 0; i < count; i++) {
            const char *base = pass < 2 ? m->q_names[i] : pass == 2 ? m->phi_names[i] : m->output_names[i];
            const char *pre = pass == 2 ? "lambda_" : "", *post = pass == 1 ? "_dot" : "";
            const size_t len = strlen(pre) + strlen(base) + strlen(post) + 1;
            if ((names[k] = malloc(len)))
                snprintf(names[k], len, "%s%s%s", pre, base, post);
            bad |= !names[k++];
        }
    }
    if (bad) {
        for (int i = 0; i < k; i++)
            free(names[i]);
        free(names);
        return NULL;
    }
    *n = ncol;
    return names;
}

/* The contact whose normal multiplier is row `row` of φ when ws runs the
 * elastic contact, which holds no normal constraint (such a column would be
 * NaN from start to end); -1 otherwise. */
static int elastic_multiplier_contact(rs_ws *ws, int row)
{
    const rs_model *m = rs_ws_model(ws);
    const rs_options *o = rs_ws_options(ws);
    if (!o->contact || !o->contact->elastic)
        return -1;
    return rs_model_contact_of_row(m, row);
}

/* Such a column asked for: refused, naming the contact's force. */
static int elastic_has_no_multiplier(rs_ws *ws, int row, const char *name, int col, char *err, size_t errlen)
{
    const int k = elastic_multiplier_contact(ws, row);
    if (k < 0)
        return RS_OK;
    const char *c = rs_ws_model(ws)->contacts[k].name;
    return rs_fail(err, errlen, RS_E_ARG,
                   "column %d '%s' is the constraint contact's normal multiplier; the elastic contact holds no "
                   "normal constraint: its normal force is '%s.N' (per patch '%s.p1.N', ...) and its wheel load "
                   "'%s.Q'", col + 1, name, c, c, c);
}

static void free_names(char **names, int n)
{
    for (int i = 0; names && i < n; i++)
        free(names[i]);
    free(names);
}

/* The default columns under the elastic contact: without the contacts'
 * multipliers ('<contact>.N' has the force). */
static void drop_elastic_multipliers(rs_ws *ws, char **names, int *n)
{
    int kept = 0;
    for (int i = 0; i < *n; i++) {
        rs_var v;
        if (rs_model_find(rs_ws_model(ws), names[i], &v) == RS_OK && v.kind == RS_VAR_LAMBDA &&
            elastic_multiplier_contact(ws, v.index) >= 0)
            free(names[i]);
        else
            names[kept++] = names[i];
    }
    *n = kept;
}

int rs_results_open_ws(rs_results **out, const char *path, rs_ws *ws, int ncol, const char *const *names,
                       unsigned flags, char *err, size_t errlen)
{
    return rs_results_open_ws_extra(out, path, ws, ncol, names, NULL, flags, err, errlen);
}

int rs_results_open_ws_extra(rs_results **out, const char *path, rs_ws *ws, int ncol, const char *const *names,
                             const rs_results_extra *extra, unsigned flags, char *err, size_t errlen)
{
    *out = NULL;
    if (!ws)
        return rs_fail(err, errlen, RS_E_ARG, "rs_results_open_ws: workspace is NULL");
    const rs_model *m = rs_ws_model(ws);
    char **defaults = NULL;
    if (!names) {
        if (!(defaults = rs_results_default_columns(m, &ncol)))
            return rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
        /* and every extra column after the model's */
        char **more = extra && extra->n ? realloc(defaults, ((size_t)ncol + (size_t)extra->n) * sizeof *more) : defaults;
        if (!more) {
            free_names(defaults, ncol);
            return rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
        }
        defaults = more;
        drop_elastic_multipliers(ws, defaults, &ncol);
        for (int j = 0; extra && j < extra->n; j++)
            if (!(defaults[ncol++] = strdup(extra->names[j]))) {
                free_names(defaults, ncol - 1);
                return rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
            }
        names = (const char *const *)defaults;
    }
    int st = RS_E_NOMEM;
    rs_var *vars = calloc((size_t)ncol + 1, sizeof *vars);
    char *unit_text = calloc((size_t)ncol + 1, 64);
    const char **units = calloc((size_t)ncol + 1, sizeof *units);
    double *outputs = calloc((size_t)m->n_out + 1, sizeof *outputs);
    int *trel = calloc((size_t)ncol + 1, sizeof *trel);
    int *xcol = calloc((size_t)ncol + 1, sizeof *xcol);
    if (!vars || !unit_text || !units || !outputs || !trel || !xcol) {
        rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
        goto done;
    }
    int need_outputs = 0, need_energy = 0, need_power = 0, need_trel = 0;
    for (int i = 0; i < ncol; i++) {
        int tb, tk;
        trel[i] = -1;
        xcol[i] = -1;
        for (int j = 0; extra && j < extra->n && xcol[i] < 0; j++)
            if (strcmp(names[i], extra->names[j]) == 0)
                xcol[i] = j;
        if (xcol[i] >= 0) {   /* the caller's value (rs_results_extra) */
            vars[i].kind = RS_VAR_TIME;   /* not read */
            units[i] = extra->units ? extra->units[xcol[i]] : NULL;
            continue;
        }
        if (rs_model_find(m, names[i], &vars[i]) != RS_OK && rs_track_rel_find(m, names[i], &tb, &tk) == RS_OK) {
            /* "<body>.<q>_track": computed here (rs_track_rel.h) */
            trel[i] = tb * RS_TREL_COUNT + tk;
            vars[i].kind = RS_VAR_TIME;   /* not read */
            units[i] = tk <= RS_TREL_Z ? "m" : "rad";
            need_trel = 1;
            continue;
        }
        if (rs_model_find(m, names[i], &vars[i]) != RS_OK) {
            st = rs_fail(err, errlen, RS_E_NOTFOUND, "model '%s' has no quantity named '%s' (column %d)", m->name,
                         names[i], i + 1);
            goto done;
        }
        if (vars[i].kind == RS_VAR_LAMBDA && (st = elastic_has_no_multiplier(ws, vars[i].index, names[i], i, err,
                                                                             errlen)) != RS_OK)
            goto done;
        units[i] = rs_results_unit(m, vars[i], unit_text + 64 * (size_t)i, 64);
        need_outputs |= vars[i].kind == RS_VAR_OUTPUT;
        need_energy |= vars[i].kind == RS_VAR_ENERGY && vars[i].index < RS_ENERGY_VAR_POWER;
        need_power |= vars[i].kind == RS_VAR_ENERGY && vars[i].index >= RS_ENERGY_VAR_POWER;
    }
    rs_track_rel *tr = NULL;   /* opened before the file: a failure leaves no file */
    if (need_trel && (st = rs_track_rel_open(ws, &tr, err, errlen)))
        goto done;
    if ((st = rs_results_open(out, path, ncol, names, units, flags, err, errlen))) {
        rs_track_rel_free(&tr);
        goto done;
    }
    (*out)->tr = tr;
    (*out)->vars = vars;
    (*out)->outputs = outputs;
    (*out)->trel = trel;
    (*out)->xcol = xcol;
    (*out)->xvals = extra ? extra->values : NULL;
    xcol = NULL;
    vars = NULL;
    outputs = NULL;
    trel = NULL;
    (*out)->need_outputs = need_outputs;
    (*out)->need_energy = need_energy;
    (*out)->need_power = need_power;
done:
    free_names(defaults, ncol);
    free(vars);
    free(unit_text);
    free(units);
    free(outputs);
    free(trel);
    free(xcol);
    return st;
}

/* ------------------------------------------------------------ rows */

int rs_results_row(rs_results *r, double t, const double *values)
{
    if (!r)
        return RS_E_ARG;
    if (r->status)
        return r->status;
    r->row[0] = t;
    if (r->ncol)
        memcpy(r->row + 1, values, (size_t)r->ncol * sizeof(double));
    const int st = r->be->row(r->h, r->row);
    if (st)
        return r->status = st;
    r->rows++;
    r->last_t = t;
    return RS_OK;
}

int rs_results_write_ws(rs_results *r, rs_ws *ws)
{
    if (!r || !r->vars || !ws)
        return RS_E_ARG;
    int st;
    if ((r->need_outputs && (st = rs_ws_outputs(ws, r->outputs))) ||
        (r->need_energy && (st = rs_ws_energy(ws, NULL, NULL))) ||
        (r->need_power && (st = rs_ws_power(ws, NULL))) || (r->tr && (st = rs_track_rel_update(r->tr, ws)))) {
        if (!r->status)
            r->status = st;
        return st;
    }
    if (r->status)
        return r->status;
    /* the values go straight into the row after its time */
    for (int i = 0; i < r->ncol; i++)
        r->row[i + 1] = r->xcol[i] >= 0  ? r->xvals[r->xcol[i]]
                        : r->trel[i] >= 0 ? rs_track_rel_value(r->tr, r->trel[i] / RS_TREL_COUNT,
                                                             r->trel[i] % RS_TREL_COUNT)
                                        : rs_ws_value(ws, r->vars[i], r->outputs);
    r->row[0] = rs_ws_time(ws);
    if ((st = r->be->row(r->h, r->row)))
        return r->status = st;
    r->rows++;
    r->last_t = r->row[0];
    return RS_OK;
}

int rs_results_output(rs_ws *ws, void *ctx) { return rs_results_write_ws(ctx, ws) != RS_OK; }

int rs_results_status(const rs_results *r) { return r ? r->status : RS_E_ARG; }
long rs_results_rows(const rs_results *r) { return r ? r->rows : 0; }
double rs_results_last_time(const rs_results *r) { return r ? r->last_t : NAN; }

/* ------------------------------------------------------------ close */

int rs_results_close(rs_results **rp, int complete, char *where, size_t wlen, char *err, size_t errlen)
{
    if (where && wlen)
        where[0] = '\0';
    if (!rp || !*rp)
        return RS_OK;
    rs_results *r = *rp;
    *rp = NULL;
    char msg[1024] = "";
    int st = r->be->close(r->h, r->status != RS_OK, msg, sizeof msg);
    if (r->status) {
        st = r->status;
        rs_fail(err, errlen, st, "cannot write '%s': %s", r->path,
                st == RS_E_NOMEM ? "out of memory" : "disk full or file size limit?");
    } else if (st) {
        rs_fail(err, errlen, st, "cannot write '%s' as %s: %s", r->path, r->be->format, msg);
    }
    const int whole = complete && st == RS_OK;
    if (r->flags & RS_RESULTS_IN_PLACE) {
        if (where && wlen)
            snprintf(where, wlen, "%s", r->path);
        results_free(r);
        return st;
    }
    const size_t plen = strlen(r->path) + 16;
    char *partial = malloc(plen);
    if (!partial) {
        unlink(r->tmp);
        results_free(r);
        return st ? st : rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
    }
    rs_results_partial_path(r->path, partial, plen);
    const char *final = whole ? r->path : partial;
    /* the units first: a table under its name always has its units */
    char msg2[1024];
    const int ust = r->units_csv ? write_units(r, final, msg2, sizeof msg2) : RS_OK;
    if (ust && !st)
        st = rs_fail(err, errlen, ust, "%s", msg2);
    if (rename(r->tmp, final) != 0) {
        const int why = errno;
        unlink(r->tmp);
        if (!st)
            st = rs_fail(err, errlen, RS_E_IO, "cannot rename '%s' to '%s': %s", r->tmp, final, strerror(why));
    } else {
        if (where && wlen)
            snprintf(where, wlen, "%s", final);
        /* what is left at the other name is an earlier run's, with its units */
        const char *other = whole ? partial : r->path;
        char units[4200];
        rs_results_units_path(other, units, sizeof units);
        unlink(other);
        unlink(units);
        if (!r->units_csv) {   /* no units this time: none from an earlier run either */
            rs_results_units_path(final, units, sizeof units);
            unlink(units);
        }
    }
    free(partial);
    results_free(r);
    return st;
}
