/*
 * rs_train_file.c — see rs_train_file.h; the format is docs/trains.md.
 *
 * One pass over the lines with a small state machine (top level, a
 * vehicle block, its traction table, a coupler block, the order block).
 * Types are kept in growing arrays while parsing; the train is expanded
 * from the order block at the end.  Every message starts "file:line: ".
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "rs_clock.h"
#include "rs_cores.h"
#include "rs_driver.h"
#include "rs_error.h"
#include "rs_file.h"
#include "rs_plugin_load.h"
#include "rs_progress.h"
#include "rs_results.h"
#include "rs_closest.h"
#include "rs_scenario.h"
#include "rs_train_file.h"
#include "rs_train_natural.h"
#include "rs_train_contact.h"
#include "rs_train_model.h"

enum { NAME_MAX_LEN = 48, MAX_TOK = 16, MAX_VEHICLES = 100000 };

/* What a compiled vehicle type holds besides its parameters: contact
 * options, initial values and their flags (2 n_q + n_p bytes after the
 * struct).  It lives in the same allocation as the parameters (vtype.p,
 * then the spec's model_params), after n_p + 1 + 2 n_q doubles (parameters,
 * q0, q̇0), 3 n_contact (each contact's E, nu and mu; co's *_each point
 * there) and n_z (the initial internal states). */
typedef struct mext {
    rs_train_wheel_contact_opts co;
    char dir[1024], track[1024];
    int outputs;           /* contact_outputs: some contact quantity in the CSV */
    unsigned char outq[RS_TRAIN_CONTACT_QCOUNT]; /* which (rs_train_contact_quantity) */
    int states;            /* state_outputs: the internal states in the CSV */
    unsigned char set[];   /* q set (n_q), q̇ set (n_q), then parameter set (n_p) */
} mext;

/* Where the initial internal states and the mext start in a compiled
 * type's allocation, in doubles. */
static size_t z0_offset(const rs_model *m)
{
    return (size_t)m->n_p + 1 + 2 * (size_t)m->n_q + 3 * (size_t)m->n_contact;
}
static size_t mext_offset(const rs_model *m) { return z0_offset(m) + (size_t)m->n_z; }

typedef struct vtype {
    char name[NAME_MAX_LEN];
    rs_wagon w;
    double *p;         /* a compiled type's parameters (w.model_p), then q0,
                          q̇0, then an mext; NULL: built-in */
    double *q0, *qd0;
    mext *x;
    double *tt, *tf;   /* traction table */
    int tn, tcap;
    int line;
} vtype;

typedef struct ctype {
    char name[NAME_MAX_LEN];
    rs_coupler c;
    int line;
} ctype;

typedef struct oentry {
    int type, count, coupler;   /* coupler: type index or -1 (the default) */
    int line;
} oentry;

typedef struct parser {
    const char *file;
    char *err;
    size_t errlen;
    vtype *vt;
    int nvt, capvt;
    ctype *ct;
    int nct, capct;
    oentry *oe;
    int noe, capoe;
    int default_coupler;   /* index into ct */
    int have_order, order_line;
    int seen[32];          /* line of each top-level setting, 0: not given */
    int given[32];         /* the same, 'set SETTING = V' lines included */
    rs_train_spec *spec;
    rs_load_cache *cache;  /* the caller's, or NULL: the spec's own, made
                              at the first compiled vehicle type */
    int state;             /* ST_*: the block the reader is in           */
    int cur;               /* the type of the open vehicle/coupler block */
    int block_line;        /* where the open block started               */
} parser;

/* The message at line L of the file being read; gives ST back. */
#define PERR(P, L, ST, ...) rs_fail_at((P)->err, (P)->errlen, (ST), (P)->file, (L), __VA_ARGS__)

/* ------------------------------------------------------------ tables of names */

typedef struct pdesc {
    const char *name;
    size_t off;
} pdesc;

static const pdesc wagon_params[] = {
    {"m_body", offsetof(rs_wagon, m_body)},       {"i_pitch", offsetof(rs_wagon, i_pitch)},
    {"m_bogie", offsetof(rs_wagon, m_bogie)},     {"a", offsetof(rs_wagon, a)},
    {"k_s", offsetof(rs_wagon, k_s)},             {"c_s", offsetof(rs_wagon, c_s)},
    {"c_hertz", offsetof(rs_wagon, c_hertz)},     {"c_contact", offsetof(rs_wagon, c_contact)},
    {"l_front", offsetof(rs_wagon, l_front)},     {"l_rear", offsetof(rs_wagon, l_rear)},
    {"h_coupler", offsetof(rs_wagon, h_coupler)}, {"r0", offsetof(rs_wagon, r0)},
    {"r1", offsetof(rs_wagon, r1)},               {"v_s", offsetof(rs_wagon, v_s)},
    {"g", offsetof(rs_wagon, g)},                 {"traction", offsetof(rs_wagon, traction)},
};
static const pdesc coupler_params[] = {
    {"k", offsetof(rs_coupler, k)},         {"c", offsetof(rs_coupler, c)},
    {"length", offsetof(rs_coupler, length)}, {"slack", offsetof(rs_coupler, slack)},
    {"buffer_gap", offsetof(rs_coupler, buffer_gap)}, {"k_buffer", offsetof(rs_coupler, k_buffer)},
};
#define NWP ((int)(sizeof wagon_params / sizeof wagon_params[0]))
#define NCP ((int)(sizeof coupler_params / sizeof coupler_params[0]))

static const char *const settings[] = {"duration",  "step",       "output",      "speed",     "solver",
                                       "tolerance", "iterations", "corrections", "rebalance", "restart",
                                       "formulation", "vehicle",  "coupler",     "couplers",  "order", "set"};
enum { S_DURATION, S_STEP, S_OUTPUT, S_SPEED, S_SOLVER, S_TOLERANCE, S_ITERATIONS, S_CORRECTIONS, S_REBALANCE,
       S_RESTART, S_FORMULATION, S_VEHICLE, S_COUPLER, S_COUPLERS, S_ORDER, S_SET, S_COUNT };

/* ------------------------------------------------------------ helpers */

static int grow(void **arr, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return 0;
    int nc = *cap ? 2 * *cap : 8;
    while (nc < need)
        nc *= 2;
    void *p = realloc(*arr, (size_t)nc * size);
    if (!p)
        return -1;
    memset((char *)p + (size_t)*cap * size, 0, (size_t)(nc - *cap) * size);
    *arr = p;
    *cap = nc;
    return 0;
}

/* Splits a line into words: '#' ends it, '=' separates like a blank. */
static int tokenize(char *line, char **tok)
{
    int n = 0;
    char *h = strchr(line, '#');
    if (h)
        *h = '\0';
    for (char *p = line; *p; p++)
        if (*p == '=' || *p == '\t' || *p == '\r')
            *p = ' ';
    char *p = line;
    for (;;) {
        while (*p == ' ')
            p++;
        if (!*p)
            return n;
        if (n == MAX_TOK)
            return -1;
        tok[n++] = p;
        while (*p && *p != ' ')
            p++;
        if (*p)
            *p++ = '\0';
    }
}

static int number(parser *P, int line, const char *tok, const char *what, double *v)
{
    char *end;
    errno = 0;
    const double x = strtod(tok, &end);
    if (end == tok || *end != '\0' || errno == ERANGE || !isfinite(x))
        return PERR(P, line, -1, "'%s' is not a number: write e.g. '%s 1e-3'", tok, what);
    *v = x;
    return 0;
}

static int integer(parser *P, int line, const char *tok, const char *what, long lo, long hi, long *v)
{
    char *end;
    errno = 0;
    const long x = strtol(tok, &end, 10);
    if (end == tok || *end != '\0' || errno == ERANGE || x < lo || x > hi)
        return PERR(P, line, -1,
                    "'%s' is not a whole number in %ld..%ld: write e.g. '%s %ld'", tok, lo, hi, what, lo);
    *v = x;
    return 0;
}

static void suggest(char *buf, size_t len, const char *word, const char *const *cand, int n)
{
    const char *c = rs_closest_name(word, cand, n);
    if (c)
        snprintf(buf, len, " (did you mean '%s'?)", c);
    else
        buf[0] = '\0';
}

static int valid_name(const char *s)
{
    if (!*s || strlen(s) >= NAME_MAX_LEN - 8)
        return 0;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
            return 0;
    return !(*s >= '0' && *s <= '9');
}

static int find_vtype(const parser *P, const char *name)
{
    for (int i = 0; i < P->nvt; i++)
        if (strcmp(P->vt[i].name, name) == 0)
            return i;
    return -1;
}

static int find_ctype(const parser *P, const char *name)
{
    for (int i = 0; i < P->nct; i++)
        if (strcmp(P->ct[i].name, name) == 0)
            return i;
    return -1;
}

static void list_names(char *buf, size_t len, const char *const *names, int n)
{
    size_t w = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && w + 2 < len; i++) {
        const int k = snprintf(buf + w, len - w, "%s%s", i ? ", " : "", names[i]);
        if (k < 0)
            break;
        w += (size_t)k;
    }
}

/* ------------------------------------------------------------ blocks */

static int add_vtype(parser *P, const char *name, const rs_wagon *w, int line)
{
    if (grow((void **)&P->vt, &P->capvt, P->nvt + 1, sizeof *P->vt))
        return -1;
    vtype *t = &P->vt[P->nvt++];
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name);
    t->w = *w;
    t->line = line;
    return 0;
}

static int add_ctype(parser *P, const char *name, const rs_coupler *c, int line)
{
    if (grow((void **)&P->ct, &P->capct, P->nct + 1, sizeof *P->ct))
        return -1;
    ctype *t = &P->ct[P->nct++];
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name);
    t->c = *c;
    t->line = line;
    return 0;
}

/* NAME = VALUE inside a vehicle or coupler block. */
/* Train-side parameters of a compiled vehicle type (the rest of rs_wagon
 * belongs to the built-in model). */
static const char *const model_side[] = {"l_front", "l_rear", "h_coupler", "r0", "r1", "v_s", "g", "traction"};
static const char *const model_side_meaning[] = {
    "the front coupling point's distance", "the rear coupling point's distance", "the coupling height",
    "the rolling resistance's constant part", "the rolling resistance per speed",
    "the rolling resistance's smoothing speed", "the rolling resistance's gravity", "the constant traction force"};
#define NMS ((int)(sizeof model_side / sizeof model_side[0]))

/* Which names a compiled vehicle's line may mean: both (no prefix), or the
 * one its prefix says ('model.NAME', 'train.NAME').  A name that is both a
 * model's parameter or coordinate and a train-side parameter must carry the
 * prefix: neither silently wins. */
enum { SCOPE_ANY, SCOPE_MODEL, SCOPE_TRAIN };

static int model_side_index(const char *name)
{
    for (int i = 0; i < NMS; i++)
        if (strcmp(name, model_side[i]) == 0)
            return i;
    return -1;
}
static int is_model_side(const char *name) { return model_side_index(name) >= 0; }
static const char *model_side_what(const char *name) { return model_side_meaning[model_side_index(name)]; }

/* x_coord NAME, pitch_coord NAME|none: the ports.  0, or -1 (message
 * written). */
static int port_line(parser *P, int line, char **tok, int n, vtype *t)
{
    const rs_model *m = t->w.model;
    const int pitch = tok[0][0] == 'p';
    if (n != 2)
        return PERR(P, line, -1,
                    "vehicle '%s': write '%s NAME' (a coordinate of model '%s'%s)", t->name, tok[0], m->name,
                    pitch ? ", or 'none'" : "");
    if (pitch && strcmp(tok[1], "none") == 0) {
        t->w.port_pitch = -1;
        return 0;
    }
    int ix = -1;
    char msg[600];
    const char *x_name = pitch ? m->q_names[t->w.port_x >= 0 ? t->w.port_x : 0] : tok[1];
    if (rs_compiled_vehicle_check_model(m, x_name, pitch ? tok[1] : NULL, pitch ? NULL : &ix, pitch ? &ix : NULL,
                                        msg, sizeof msg) != RS_OK) {
        return PERR(P, line, -1, "vehicle '%s': %s", t->name, msg);
    }
    if (pitch)
        t->w.port_pitch = ix;
    else
        t->w.port_x = ix;
    return 0;
}

/* contact elastic|compliant, creep kalker|fastsim|polach: a word from a
 * list into *dst (its index + base).  0, or -1 (message written). */
static int choice_line(parser *P, int line, char **tok, int n, vtype *t, const char *const *words, int nw,
                       const char *what, int base, int *dst)
{
    if (t->w.model->n_contact == 0)
        return PERR(P, line, -1, "vehicle '%s': its model has no wheel-rail contact: '%s' does not apply", t->name,
                    tok[0]);
    char all[160];
    size_t w = 0;
    for (int i = 0; i < nw; i++)
        w += (size_t)snprintf(all + w, sizeof all - w, "%s'%s %s'", i == 0 ? "" : i == nw - 1 ? " or " : ", ",
                              tok[0], words[i]);
    if (n != 2)
        return PERR(P, line, -1, "vehicle '%s': write %s (one word)", t->name, all);
    for (int i = 0; i < nw; i++)
        if (strcmp(tok[1], words[i]) == 0) {
            *dst = base + i;
            return 0;
        }
    char sug[96];
    suggest(sug, sizeof sug, tok[1], words, nw);
    return PERR(P, line, -1, "vehicle '%s': '%s' is not a %s%s: write %s", t->name, tok[1], what, sug, all);
}

/* contact_outputs [QUANTITY...]: alone N, fx, fy; else the quantities named
 * (a single run's contact suffixes, "p*.Q" for every patch, "all"), added
 * to those of earlier lines.  0, or -1 (message written). */
static int outputs_line(parser *P, int line, char **tok, int n, vtype *t)
{
    if (t->w.model->n_contact == 0)
        return PERR(P, line, -1, "vehicle '%s': its model has no wheel-rail contact: no contact outputs", t->name);
    unsigned char *q = t->x->outq;
    t->x->outputs = 1;
    if (n == 1) {
        q[RS_CONTACT_VAR_N] = q[RS_TRAIN_CONTACT_FX] = q[RS_TRAIN_CONTACT_FY] = 1;
        return 0;
    }
    for (int a = 1; a < n; a++) {
        const char *w = tok[a];
        if (strcmp(w, "all") == 0) {
            memset(q, 1, RS_TRAIN_CONTACT_QCOUNT);
            continue;
        }
        int found = 0;
        if (strncmp(w, "p*.", 3) == 0) {   /* the quantity of every patch */
            char one[64];
            for (int j = 1; j <= RS_CONTACT_PATCH_MAX; j++) {
                snprintf(one, sizeof one, "p%d.%s", j, w + 3);
                const int k = rs_train_contact_quantity(one);
                if (k >= 0)
                    q[k] = 1, found = 1;
            }
        } else {
            const int k = rs_train_contact_quantity(w);
            if (k >= 0)
                q[k] = 1, found = 1;
        }
        if (!found)
            return PERR(P, line, -1,
                        "vehicle '%s': '%s' is not a contact quantity: write 'contact_outputs' alone (N, fx, fy), "
                        "or names of N, Q, Y, Y_Q, xi_x, xi_y, spin, patches, fx, fy, p<j>.<quantity> (j = 1 to %d; "
                        "quantities u_w, u_r, alpha, pen, N, xi_x, xi_y, spin, fx, fy, mz, a, b), p*.<quantity> "
                        "(every patch) or all",
                        t->name, w, RS_CONTACT_PATCH_MAX);
    }
    return 0;
}

/* climb_time T: how long Y/Q must stay at Nadal's limit to be flange
 * climbing (the elastic contact's events; a scenario's `climb_time`).  0, or
 * -1 (message written). */
static int climb_time_line(parser *P, int line, char **tok, int n, vtype *t)
{
    double v;
    if (n != 2)
        return PERR(P, line, -1, "vehicle '%s': write 'climb_time T' (one time in s, e.g. 'climb_time 0.05')",
                    t->name);
    if (number(P, line, tok[1], tok[0], &v))
        return -1;
    if (!(v >= 0))
        return PERR(P, line, -1,
                    "vehicle '%s': climb_time must be a time >= 0 s (got %s): how long Y/Q must stay at Nadal's "
                    "limit before a flange climb is reported; write e.g. 'climb_time 0.05' (0: every step above "
                    "the limit is a climb)", t->name, tok[1]);
    t->x->co.climb_time = v;
    t->x->co.events_given = 1;
    return 0;
}

/* contact_files FOLDER, track FILE, contact_outputs, contact_damping =
 * VALUE, contact_mu = VALUE, contact MODE, creep LAW, derailment
 * stop|continue, climb_time T, normal point|strips: the contact options.  c: the keyword's
 * index in contact_keys.  0, or -1 (message written). */
static const char *const contact_keys[] = {"contact_files", "track", "contact_outputs", "contact_damping",
                                           "contact_mu", "contact", "creep", "contact_E", "contact_nu",
                                           "derailment", "climb_time", "normal"};
static int contact_line(parser *P, int line, char **tok, int n, vtype *t, int c)
{
    const rs_model *m = t->w.model;
    if (c == 9) {
        static const char *const ends[] = {"stop", "continue"};
        t->x->co.events_given = 1;
        return choice_line(P, line, tok, n, t, ends, 2, "derailment setting (stop: a derailment ends the run, "
                           "the default; continue: it is reported and the run goes on)", 0,
                           &t->x->co.derail_continue);
    }
    if (c == 10) {
        if (m->n_contact == 0)
            return PERR(P, line, -1, "vehicle '%s': its model has no wheel-rail contact: '%s' does not apply",
                        t->name, tok[0]);
        return climb_time_line(P, line, tok, n, t);
    }
    if (c == 5) {
        static const char *const modes[] = {"compliant", "elastic"};
        return choice_line(P, line, tok, n, t, modes, 2, "contact mode (the compliant single-point contact or the "
                           "elastic multi-patch one)", RS_TRAIN_CONTACT_COMPLIANT, &t->x->co.mode);
    }
    if (c == 11) { /* the elastic contact's normal law (a scenario's `normal`) */
        static const char *const laws[] = {"point", "strips"};
        return choice_line(P, line, tok, n, t, laws, 2, "normal law (point: one Hertz force per minimum of the "
                           "gap; strips: the patch's force over its wheel slices, the default)", RS_NORMAL_POINT,
                           &t->x->co.normal);
    }
    if (c == 6) {
        static const char *const laws[] = {"kalker", "fastsim", "polach"};
        return choice_line(P, line, tok, n, t, laws, 3, "creep law", 0, &t->x->co.law);
    }
    if (c <= 1) {
        const int tr = c == 1;
        if (m->n_contact == 0 || n != 2)
            return PERR(P, line, -1, "vehicle '%s': %s", t->name,
                        m->n_contact == 0 ? "its model has no wheel-rail contact: no contact files or track to set"
                                          : tr ? "write 'track FILE' (relative to the train file)"
                                               : "write 'contact_files FOLDER' (the folder the model's profile and "
                                                 "track names are relative to, relative to the train file)");
        char *dst = tr ? t->x->track : t->x->dir;
        const char *slash = strrchr(P->file, '/');
        if (tok[1][0] == '/' || !slash)
            snprintf(dst, sizeof t->x->dir, "%s", tok[1]);
        else
            snprintf(dst, sizeof t->x->dir, "%.*s/%s", (int)(slash - P->file), P->file, tok[1]);
        if (tr)
            t->x->co.track = t->x->track;
        else
            t->x->co.dir = t->x->dir;
        return 0;
    }
    if (c == 2)
        return outputs_line(P, line, tok, n, t);
    double v;
    if (m->n_contact == 0)
        return PERR(P, line, -1,
                    "vehicle '%s': its model has no wheel-rail contact: '%s' does not apply", t->name,
                    tok[0]);
    const int each = c == 4 || c >= 7;   /* friction and material: per contact too */
    if (n != 2 && !(each && n == 3))
        return PERR(P, line, -1, "vehicle '%s': write '%s = VALUE' (one value)%s", t->name, tok[0],
                    each ? ", or 'NAME CONTACT = VALUE' for the contacts CONTACT names ('*' matches any "
                           "characters)" : "");
    if (number(P, line, tok[n - 1], tok[0], &v))
        return -1;
    if (c == 7 ? !(v > 0 && v < 1e15) : c == 8 ? !(v >= 0 && v < 0.5) : c == 4 ? !(v >= 0 && v <= 10) : !(v >= 0))
        return PERR(P, line, -1, "vehicle '%s': %s = %g: %s", t->name, tok[0], v,
                    c == 7 ? "Young's modulus must be > 0 Pa (steel: 2.1e11)"
                    : c == 8 ? "the Poisson ratio must be in [0, 0.5) (steel: 0.28)"
                    : c == 4 ? "friction must be a coefficient from 0 to 10" : "it must be >= 0");
    rs_train_wheel_contact_opts *co = &t->x->co;
    double *common = c == 3 ? &co->c_damp : c == 4 ? &co->mu : c == 7 ? &co->E : &co->nu;
    if (n == 2) {
        *common = v;
        return 0;
    }
    double *dst = (double *)(c == 4 ? co->mu_each : c == 7 ? co->E_each : co->nu_each);
    int hits = 0;
    for (int i = 0; i < m->n_contact; i++)
        if (fnmatch(tok[1], m->contacts[i].name, 0) == 0) {
            dst[i] = v;
            hits++;
        }
    if (hits == 0) {
        const char *names[64];
        const int nn = m->n_contact < 64 ? m->n_contact : 64;
        for (int i = 0; i < nn; i++)
            names[i] = m->contacts[i].name;
        char sug[96], all[512];
        suggest(sug, sizeof sug, tok[1], names, nn);
        list_names(all, sizeof all, names, nn);
        return PERR(P, line, -1, "vehicle '%s': model '%s' has no contact '%s'%s; its contacts: %s ('*' matches any "
                    "characters: '%s *.left = ...')", t->name, m->name, tok[1], sug, all, tok[0]);
    }
    return 0;
}

/* A compiled vehicle type's lines: x_coord NAME, pitch_coord NAME|none,
 * the contact options, MODEL_PARAM = VALUE, COORD[_dot] = VALUE.
 * 1: handled (0 returned through *rc), 0: not one. */
static int model_line(parser *P, int line, char **tok, int n, int idx, int scope, int *rc)
{
    vtype *t = &P->vt[idx];
    const rs_model *m = t->w.model;
    *rc = -1;
    if (scope == SCOPE_MODEL)
        ;   /* 'model.NAME': a parameter or coordinate only */
    else if (strcmp(tok[0], "x_coord") == 0 || strcmp(tok[0], "pitch_coord") == 0) {
        *rc = port_line(P, line, tok, n, t);
        return 1;
    }
    else
        for (int c = 0; c < (int)(sizeof contact_keys / sizeof contact_keys[0]); c++)
            if (strcmp(tok[0], contact_keys[c]) == 0) {
                *rc = contact_line(P, line, tok, n, t, c);
                return 1;
            }
    if (scope != SCOPE_MODEL && strcmp(tok[0], "state_outputs") == 0) {
        if (m->n_z == 0 || n != 1)
            *rc = PERR(P, line, -1, "vehicle '%s': %s", t->name,
                       m->n_z == 0 ? "its model has no internal states: no state outputs"
                                   : "write 'state_outputs' alone (no value)");
        else
            *rc = (t->x->states = 1, 0);
        return 1;
    }
    int k = -1;
    for (int i = 0; i < m->n_p; i++)
        if (strcmp(tok[0], m->p_names[i]) == 0)
            k = i;
    /* an initial internal state: STATE = VALUE (e.g. air.z = 0.001) */
    for (int i = 0; k < 0 && i < m->n_z; i++)
        if (strcmp(tok[0], m->z_names[i]) == 0) {
            double v;
            if (n != 2)
                return PERR(P, line, 1, "vehicle '%s': write '%s = VALUE' (its initial value)", t->name, tok[0]);
            if (number(P, line, tok[1], tok[0], &v))
                return 1;
            t->p[z0_offset(m) + (size_t)i] = v;
            *rc = 0;
            return 1;
        }
    /* an initial value: COORD = VALUE, COORD_dot = VALUE */
    int qk = -1, dot = 0;
    if (k < 0) {
        const size_t len = strlen(tok[0]);
        dot = len > 4 && strcmp(tok[0] + len - 4, "_dot") == 0;
        for (int i = 0; i < m->n_q; i++)
            if (dot ? strlen(m->q_names[i]) == len - 4 && strncmp(tok[0], m->q_names[i], len - 4) == 0
                    : strcmp(tok[0], m->q_names[i]) == 0)
                qk = i;
    }
    if ((k >= 0 || qk >= 0) && scope == SCOPE_ANY && is_model_side(tok[0]))
        return (*rc = PERR(P, line, -1,
                           "vehicle '%s': '%s' names both a %s of model '%s' and the train side's '%s' (%s): "
                           "write 'model.%s = VALUE' for the model's or 'train.%s = VALUE' for the train's",
                           t->name, tok[0], k >= 0 ? "parameter" : "coordinate", m->name, tok[0],
                           model_side_what(tok[0]), tok[0], tok[0]), 1);
    if (qk >= 0) {
        double v;
        if (n != 2)
            return PERR(P, line, 1, "vehicle '%s': write '%s = VALUE' (its initial %s)", t->name, tok[0],
                        dot ? "velocity" : "value");
        if (number(P, line, tok[1], tok[0], &v))
            return 1;
        (dot ? t->qd0 : t->q0)[qk] = v;
        t->x->set[(dot ? m->n_q : 0) + qk] = 1;
        *rc = 0;
        return 1;
    }
    if (k < 0) {
        if (scope == SCOPE_ANY && is_model_side(tok[0]))
            return 0;   /* a train-side parameter: set_param's */
        if (m->n_contact && strcmp(tok[0], "theta") == 0)
            return PERR(P, line, 1,
                        "vehicle '%s': 'theta' sets where a single run's step linearizes the elastic contact "
                        "(a scenario's 'theta'); a train's step (Park's) takes the contact's stiffness and "
                        "damping at the step's end, as theta 1 does: remove the line", t->name);
        char sug[96], all[512], ms[200];
        suggest(sug, sizeof sug, tok[0], m->p_names, m->n_p);
        if (!sug[0])   /* a misspelt coordinate */
            suggest(sug, sizeof sug, tok[0], m->q_names, m->n_q);
        list_names(all, sizeof all, m->p_names, m->n_p);
        list_names(ms, sizeof ms, model_side, NMS);
        char qs[512], zs[320] = "";
        list_names(qs, sizeof qs, m->q_names, m->n_q);
        if (m->n_z > 0) {
            char zl[200];
            list_names(zl, sizeof zl, m->z_names, m->n_z);
            snprintf(zs, sizeof zs, "; internal states (initial values NAME = VALUE): %s", zl);
        }
        return PERR(P, line, 1,
                    "vehicle '%s': '%s' is not a parameter or coordinate of model '%s'%s; its parameters: %s; "
                    "coordinates (initial values NAME = VALUE, NAME_dot = VALUE): %s%s; train-side: %s, x_coord, "
                    "pitch_coord%s%s", t->name, tok[0], m->name, sug, all, qs, zs, ms,
                    m->n_contact ? ", contact_files, track, contact_damping, contact_mu, contact_E, contact_nu, contact_outputs, "
                                   "contact, creep, normal, derailment, climb_time" : "", m->n_z ? ", state_outputs" : "");
    }
    double v;
    if (n != 2)
        return PERR(P, line, 1, "vehicle '%s': write '%s = VALUE' (one value)", t->name, tok[0]);
    if (number(P, line, tok[1], tok[0], &v))
        return 1;
    t->p[k] = v;
    t->x->set[2 * m->n_q + k] = 1;   /* set: a dependent parameter keeps it, the others follow */
    *rc = 0;
    return 1;
}

static int set_param(parser *P, int line, char **tok, int n, int is_vehicle, int idx)
{
    const pdesc *tab = is_vehicle ? wagon_params : coupler_params;
    const int nt = is_vehicle ? NWP : NCP;
    const char *kind = is_vehicle ? "vehicle" : "coupler";
    const char *tname = is_vehicle ? P->vt[idx].name : P->ct[idx].name;
    if (is_vehicle && P->vt[idx].w.model) {
        int rc, scope = SCOPE_ANY;
        if (strncmp(tok[0], "model.", 6) == 0 || strncmp(tok[0], "train.", 6) == 0) {
            scope = tok[0][0] == 'm' ? SCOPE_MODEL : SCOPE_TRAIN;
            tok[0] += 6;
            if (scope == SCOPE_TRAIN && !is_model_side(tok[0])) {
                char sug[96], ms[200];
                suggest(sug, sizeof sug, tok[0], model_side, NMS);
                list_names(ms, sizeof ms, model_side, NMS);
                return PERR(P, line, -1, "vehicle '%s': 'train.%s' is no train-side parameter%s; they are: %s",
                            tname, tok[0], sug, ms);
            }
        }
        if (scope != SCOPE_TRAIN && model_line(P, line, tok, n, idx, scope, &rc))
            return rc;
    }
    int k = -1;
    for (int i = 0; i < nt; i++)
        if (strcmp(tok[0], tab[i].name) == 0)
            k = i;
    if (k < 0) {
        const char *names[32];
        for (int i = 0; i < nt; i++)
            names[i] = tab[i].name;
        char sug[96], all[512];
        suggest(sug, sizeof sug, tok[0], names, nt);
        list_names(all, sizeof all, names, nt);
        return PERR(P, line, -1,
                    "%s '%s': unknown parameter '%s'%s; parameters: %s", kind, tname, tok[0], sug, all);
    }
    if (n != 2)
        return PERR(P, line, -1, "%s '%s': write '%s = VALUE' (one value)", kind, tname, tok[0]);
    double v;
    if (number(P, line, tok[1], tok[0], &v))
        return -1;
    char msg[256];
    if (is_vehicle) {
        rs_wagon w = P->vt[idx].w;
        *(double *)((char *)&w + tab[k].off) = v;
        if (rs_wagon_check(&w, tname, msg, sizeof msg) != RS_OK)
            return PERR(P, line, -1, "%s", msg);
        P->vt[idx].w = w;
    } else {
        rs_coupler c = P->ct[idx].c;
        *(double *)((char *)&c + tab[k].off) = v;
        if (rs_coupler_check(&c, tname, msg, sizeof msg) != RS_OK)
            return PERR(P, line, -1, "%s", msg);
        P->ct[idx].c = c;
    }
    return 0;
}

/* ------------------------------------------------------------ parse */

enum { ST_TOP, ST_VEHICLE, ST_TABLE, ST_COUPLER, ST_ORDER };

static void free_parser(parser *P)
{
    for (int i = 0; i < P->nvt; i++) {
        free(P->vt[i].tt);
        free(P->vt[i].tf);
        free(P->vt[i].p);
    }
    free(P->vt);
    free(P->ct);
    free(P->oe);
}

void rs_train_spec_free(rs_train_spec **ps)
{
    if (!ps || !*ps)
        return;
    rs_train_spec *s = *ps;
    for (int i = 0; i < s->nmodels; i++)
        free(s->model_params[i]);
    free(s->model_params);
    for (int i = 0; i < s->nplugin_sets; i++)   /* after every vehicle using them */
        rs_plugin_set_close(&s->plugin_sets[i]);
    free(s->plugin_sets);
    rs_load_cache_free(&s->own_cache);
    free(s->veh);
    free(s->vname);
    free(s->cpl);
    free(s->cname);
    free(s->tables);
    free(s->contact_out);
    free(s->contact_q);
    free(s->state_out);
    free(s->vline);
    free(s);
    *ps = NULL;
}

static int expand(parser *P, rs_train_spec *S)
{
    long nv = 0;
    for (int i = 0; i < P->noe; i++)
        nv += P->oe[i].count;
    if (nv < 1) {
        if (P->have_order)
            return PERR(P, P->order_line, RS_E_ARG,
                        "the order block lists no vehicles: add lines 'TYPE [COUNT]' before 'end'");
        return rs_fail_at(P->err, P->errlen, RS_E_ARG, P->file, 0,
                          "no 'order' block: add one listing the vehicles front first, e.g. lines 'order', 'loco', "
                          "'wagon 40', 'end'");
    }
    if (nv > MAX_VEHICLES)
        return PERR(P, P->order_line, RS_E_ARG,
                    "the train has %ld vehicles; at most %d are supported", nv, MAX_VEHICLES);
    size_t ntab = 0;
    for (int i = 0; i < P->noe; i++)
        ntab += 2 * (size_t)P->vt[P->oe[i].type].tn;
    S->nv = (int)nv;
    S->veh = calloc((size_t)nv, sizeof *S->veh);
    S->vname = calloc((size_t)nv, sizeof *S->vname);
    S->cpl = calloc((size_t)nv, sizeof *S->cpl);
    S->cname = calloc((size_t)nv, sizeof *S->cname);
    S->tables = calloc(ntab + 1, sizeof(double));
    S->contact_out = calloc((size_t)nv, 1);
    S->contact_q = calloc((size_t)nv * RS_TRAIN_CONTACT_QCOUNT, 1);
    S->state_out = calloc((size_t)nv, 1);
    S->vline = calloc((size_t)nv, sizeof *S->vline);
    int *used = calloc((size_t)P->nvt + 1, sizeof(int));
    if (!S->veh || !S->vname || !S->cpl || !S->cname || !S->tables || !S->contact_out || !S->contact_q || !S->state_out ||
        !S->vline || !used) {
        free(used);
        return RS_E_NOMEM;
    }
    double *tab = S->tables;
    int v = 0;
    for (int i = 0; i < P->noe; i++) {
        const oentry *o = &P->oe[i];
        vtype *t = &P->vt[o->type];
        const double *tt = NULL, *tf = NULL;
        if (t->tn > 0) {   /* one copy per order line, shared by its vehicles */
            memcpy(tab, t->tt, (size_t)t->tn * sizeof(double));
            memcpy(tab + t->tn, t->tf, (size_t)t->tn * sizeof(double));
            tt = tab;
            tf = tab + t->tn;
            tab += 2 * t->tn;
        }
        const size_t len = strlen(t->name);
        const int digit_end = len > 0 && t->name[len - 1] >= '0' && t->name[len - 1] <= '9';
        for (int k = 0; k < o->count; k++, v++) {
            S->veh[v] = t->w;
            S->veh[v].traction_n = t->tn;
            S->veh[v].traction_t = tt;
            S->veh[v].traction_f = tf;
            S->contact_out[v] = t->x && t->x->outputs;
            if (S->contact_out[v])
                memcpy(S->contact_q + (size_t)v * RS_TRAIN_CONTACT_QCOUNT, t->x->outq, RS_TRAIN_CONTACT_QCOUNT);
            S->state_out[v] = t->x && t->x->states;
            S->vline[v] = t->line;
            snprintf(S->vname[v], sizeof S->vname[v], "%s%s%d", t->name, digit_end ? "_" : "", ++used[o->type]);
            if (v + 1 < nv) {
                /* the coupler behind this vehicle */
                const int ci = o->coupler >= 0 ? o->coupler : P->default_coupler;
                S->cpl[v] = P->ct[ci].c;
                snprintf(S->cname[v], sizeof S->cname[v], "c%d", v + 1);
            }
        }
    }
    free(used);
    return RS_OK;
}

/* The settings a train file may leave out. */
static void spec_defaults(rs_train_spec *S)
{
    S->duration = 10.0;
    S->step = 1e-3;
    S->output = 1e-2;
    S->speed = 0.0;
    S->solver = RS_KRYLOV_AUTO;
    S->tolerance = 1e-8;
    S->iterations = 200;
    S->restart = 30;
    S->corrections = 1;
    S->rebalance = 200;
    S->natural = 0;
    S->natural_method = -2;   /* no solver given */
}

/* The types every file may use without defining them: wagon, loco (vehicle
 * types 0 and 1) and the default coupler (coupler type 0). */
static int add_builtin_types(parser *P)
{
    rs_wagon w;
    rs_coupler c;
    rs_wagon_default(&w);
    if (add_vtype(P, "wagon", &w, 0))
        return RS_E_NOMEM;
    rs_loco_default(&w);
    if (add_vtype(P, "loco", &w, 0))
        return RS_E_NOMEM;
    rs_coupler_default(&c);
    if (add_ctype(P, "default", &c, 0))
        return RS_E_NOMEM;
    P->default_coupler = 0;
    return RS_OK;
}

/* "unknown KIND type 'word'; types: ..." with a suggestion. */
static int unknown_type(parser *P, int L, const char *word, int is_vehicle)
{
    const char *names[256];
    const int total = is_vehicle ? P->nvt : P->nct, nn = total < 256 ? total : 256;
    for (int i = 0; i < nn; i++)
        names[i] = is_vehicle ? P->vt[i].name : P->ct[i].name;
    char sug[96], all[512];
    suggest(sug, sizeof sug, word, names, nn);
    list_names(all, sizeof all, names, nn);
    if (is_vehicle)
        return PERR(P, L, RS_E_ARG, "unknown vehicle type '%s'%s; types: %s (define others with 'vehicle NAME' "
                    "... 'end' before 'order')", word, sug, all);
    return PERR(P, L, RS_E_ARG, "unknown coupler type '%s'%s; types: %s", word, sug, all);
}

/* A line of a 'traction table' ... 'end' block: TIME FORCE. */
static int table_line(parser *P, int L, char **tok, int n, int is_end)
{
    vtype *t = &P->vt[P->cur];
    if (is_end) {
        if (t->tn < 1)
            return PERR(P, L, RS_E_ARG,
                        "vehicle '%s': the traction table has no rows: add rows 'TIME FORCE'", t->name);
        P->state = ST_VEHICLE;
        return RS_OK;
    }
    double tv, fv;
    if (n != 2)
        return PERR(P, L, RS_E_ARG,
                    "vehicle '%s': a traction table row is 'TIME FORCE' (s, N); close the table with 'end'",
                    t->name);
    if (number(P, L, tok[0], "0.5", &tv) || number(P, L, tok[1], "2e5", &fv))
        return RS_E_ARG;
    if (t->tn > 0 && !(tv > t->tt[t->tn - 1]))
        return PERR(P, L, RS_E_ARG,
                    "vehicle '%s': traction table times must increase (%g after %g)", t->name, tv,
                    t->tt[t->tn - 1]);
    int cap = t->tcap;
    if (grow((void **)&t->tt, &cap, t->tn + 1, sizeof(double)) ||
        grow((void **)&t->tf, &t->tcap, t->tn + 1, sizeof(double)))
        return RS_E_NOMEM;
    t->tt[t->tn] = tv;
    t->tf[t->tn++] = fv;
    return RS_OK;
}

/* A line of a 'vehicle' or 'coupler' block: PARAM = VALUE (and, for a
 * vehicle, 'traction table'), or its 'end'. */
static int type_block_line(parser *P, int L, char **tok, int n, int is_end)
{
    const int is_vehicle = P->state == ST_VEHICLE;
    const vtype *t = is_vehicle ? &P->vt[P->cur] : NULL;
    if (is_end) {
        if (is_vehicle && t->w.model && t->w.port_x < 0)
            return PERR(P, L, RS_E_ARG,
                        "vehicle '%s': model '%s' has no coordinate 'x': name its longitudinal one with "
                        "'x_coord NAME' before 'end'", t->name, t->w.model->name);
        P->state = ST_TOP;
        return RS_OK;
    }
    if (is_vehicle && strcmp(tok[0], "traction") == 0 && n == 2 && strcmp(tok[1], "table") == 0) {
        if (t->tn > 0)
            return PERR(P, L, RS_E_ARG, "vehicle '%s': the traction table is given twice: keep one", t->name);
        P->state = ST_TABLE;
        return RS_OK;
    }
    return set_param(P, L, tok, n, is_vehicle, P->cur) ? RS_E_ARG : RS_OK;
}

/* A line of the 'order' block: TYPE [COUNT] [coupler CTYPE], or its 'end'. */
static int order_line(parser *P, int L, char **tok, int n, int is_end)
{
    if (is_end) {
        P->state = ST_TOP;
        return RS_OK;
    }
    const int ti = find_vtype(P, tok[0]);
    if (ti < 0)
        return unknown_type(P, L, tok[0], 1);
    long count = 1;
    int k = 1, cpl = -1;
    if (k < n && strcmp(tok[k], "coupler") != 0) {
        if (integer(P, L, tok[k], tok[0], 1, MAX_VEHICLES, &count))
            return RS_E_ARG;
        k++;
    }
    if (k < n) {
        if (strcmp(tok[k], "coupler") != 0 || k + 2 != n)
            return PERR(P, L, RS_E_ARG,
                        "an order line is 'TYPE [COUNT] [coupler CTYPE]', e.g. 'wagon 40 coupler heavy'");
        cpl = find_ctype(P, tok[k + 1]);
        if (cpl < 0)
            return unknown_type(P, L, tok[k + 1], 0);
    }
    if (grow((void **)&P->oe, &P->capoe, P->noe + 1, sizeof *P->oe))
        return RS_E_NOMEM;
    P->oe[P->noe++] = (oentry){ti, (int)count, cpl, L};
    return RS_OK;
}

/* 'set TYPE.PARAM = VALUE' (done here: *setting = -1) or 'set SETTING =
 * VALUE' (rewritten in tok/n as the plain statement 'SETTING VALUE' and
 * its index in *setting): a value given over the file's (sweep variants;
 * what-ifs without editing the blocks). */
static int set_line(parser *P, int L, char **tok, int *n, int *setting)
{
    const char *dot = *n == 3 ? strchr(tok[1], '.') : NULL;
    *setting = -1;
    if (*n != 3)
        return PERR(P, L, RS_E_ARG,
                    "write 'set TYPE.PARAM = VALUE' (a vehicle or coupler type's parameter) or 'set "
                    "SETTING = VALUE' (duration, step, output, speed, solver, tolerance, iterations, corrections, "
                    "rebalance, restart, formulation)");
    if (dot) {
        char tname[NAME_MAX_LEN];
        const size_t tl = (size_t)(dot - tok[1]);
        snprintf(tname, sizeof tname, "%.*s", (int)(tl < sizeof tname ? tl : sizeof tname - 1), tok[1]);
        const int vi = find_vtype(P, tname), ci = vi < 0 ? find_ctype(P, tname) : -1;
        if (vi < 0 && ci < 0)
            return PERR(P, L, RS_E_ARG,
                        "set: '%s' is no vehicle or coupler type defined before this line", tname);
        char *ptok[2] = {(char *)dot + 1, tok[2]};
        return set_param(P, L, ptok, 2, vi >= 0, vi >= 0 ? vi : ci) ? RS_E_ARG : RS_OK;
    }
    for (int i = 0; i <= S_FORMULATION; i++)
        if (strcmp(tok[1], settings[i]) == 0)
            *setting = i;
    if (*setting < 0)
        return PERR(P, L, RS_E_ARG,
                    "set: '%s' is not a setting (duration, step, output, speed, solver, tolerance, "
                    "iterations, corrections, rebalance, restart, formulation) nor TYPE.PARAM", tok[1]);
    tok[0] = tok[1];
    tok[1] = tok[2];
    *n = 2;
    return RS_OK;
}

/* A top-level setting s other than vehicle/coupler: duration ... restart,
 * solver, couplers, order. */
static int setting_line(parser *P, int L, char **tok, int n, int s)
{
    rs_train_spec *S = P->spec;
    if (s <= S_SPEED || s == S_TOLERANCE) {
        double v;
        if (n != 2)
            return PERR(P, L, RS_E_ARG, "write '%s VALUE' (one number)", tok[0]);
        if (number(P, L, tok[1], tok[0], &v))
            return RS_E_ARG;
        const int ok = s == S_SPEED ? 1 : s == S_OUTPUT ? v >= 0.0 : v > 0.0;
        if (!ok)
            return PERR(P, L, RS_E_ARG, "'%s' must be %s (got %g)", tok[0], s == S_OUTPUT ? ">= 0" : "> 0", v);
        double *dst[] = {&S->duration, &S->step, &S->output, &S->speed};
        if (s == S_TOLERANCE)
            S->tolerance = v;
        else
            *dst[s] = v;
        return RS_OK;
    }
    if (s == S_ITERATIONS || s == S_CORRECTIONS || s == S_REBALANCE || s == S_RESTART) {
        long v;
        if (n != 2)
            return PERR(P, L, RS_E_ARG, "write '%s N' (one whole number)", tok[0]);
        const long lo = s == S_CORRECTIONS || s == S_RESTART ? 1 : 0,
                   hi = s == S_CORRECTIONS ? 20 : s == S_RESTART ? RS_KRYLOV_MAX_RESTART : 1000000;
        if (integer(P, L, tok[1], tok[0], lo, hi, &v))
            return RS_E_ARG;
        if (s == S_ITERATIONS)
            S->iterations = (int)v;
        else if (s == S_CORRECTIONS)
            S->corrections = (int)v;
        else if (s == S_RESTART)
            S->restart = (int)v;
        else
            S->rebalance = (int)v;
        return RS_OK;
    }
    if (s == S_SOLVER) {
        /* the last three are methods of 'formulation natural' only (checked
         * at the end: the formulation may come later); 'cg' is Park's
         * Krylov solver or, in the natural formulation, RS_LTRAIN_CG */
        static const char *const solvers[] = {"auto",       "cg",     "bicgstab", "gmres",
                                              "artificial", "direct", "hmm",      "resolved"};
        int known = -1;
        for (int i = 0; n == 2 && i < 8; i++)
            known = strcmp(tok[1], solvers[i]) == 0 ? i : known;
        if (known < 0) {
            char what[160] = "", hint[96] = "";
            if (n == 2) {   /* a word, but not a solver's name */
                suggest(hint, sizeof hint, tok[1], solvers, 8);
                snprintf(what, sizeof what, "unknown solver '%.40s'%s: ", tok[1], hint);
            }
            return PERR(P, L, RS_E_ARG,
                        "%swrite 'solver auto', 'solver cg', 'solver bicgstab', 'solver gmres' or 'solver artificial' "
                        "(with 'formulation natural': 'solver artificial', 'direct', 'cg', 'hmm' or 'resolved')",
                        what);
        }
        static const int natural[] = {-1, RS_LTRAIN_CG, -1, -1, RS_LTRAIN_ARTIFICIAL,   /* -1: a Krylov solver */ RS_LTRAIN_DIRECT, RS_LTRAIN_HMM,
                                      RS_LTRAIN_RESOLVED};
        S->natural_method = natural[known];
        S->solver = strcmp(tok[1], "cg") == 0           ? RS_KRYLOV_CG
                    : strcmp(tok[1], "bicgstab") == 0   ? RS_KRYLOV_BICGSTAB
                    : strcmp(tok[1], "gmres") == 0      ? RS_KRYLOV_GMRES
                    : strcmp(tok[1], "artificial") == 0 ? RS_KRYLOV_ARTIFICIAL
                                                        : RS_KRYLOV_AUTO;
        return RS_OK;
    }
    if (s == S_FORMULATION) {
        if (n != 2 || (strcmp(tok[1], "park") != 0 && strcmp(tok[1], "natural") != 0))
            return PERR(P, L, RS_E_ARG,
                        "write 'formulation park' (the vehicles' own coordinates, the Park step: the default) or "
                        "'formulation natural' (one coordinate per vehicle, seed 002's methods: docs/massive.md)");
        S->natural = strcmp(tok[1], "natural") == 0;
        return RS_OK;
    }
    if (s == S_COUPLERS) {
        if (n != 2)
            return PERR(P, L, RS_E_ARG,
                        "write 'couplers CTYPE' (the coupler type used where the order does not say)");
        const int ci = find_ctype(P, tok[1]);
        if (ci < 0)
            return PERR(P, L, RS_E_ARG,
                        "unknown coupler type '%s': define it first with 'coupler %s' ... 'end'", tok[1], tok[1]);
        P->default_coupler = ci;
        return RS_OK;
    }
    /* S_ORDER */
    if (n != 1)
        return PERR(P, L, RS_E_ARG,
                    "'order' stands alone; list the vehicles on the following lines, then 'end'");
    P->have_order = 1;
    P->order_line = L;
    P->block_line = L;
    P->state = ST_ORDER;
    return RS_OK;
}

/* 'vehicle NAME model FOLDER': loads the compiled model (FOLDER relative to
 * the train file) through the parser's cache and makes *base a vehicle of
 * it, with its parameters, initial values and contact options in one
 * allocation (*mp, owned by the caller until the type takes it). */
/* 1 when FOLDER (as the train file would resolve it) is a compiled model
 * folder: 'model wagon' beside a folder 'wagon' is ambiguous. */
static int is_model_folder(const parser *P, const char *folder)
{
    char path[1100];
    const char *slash = strrchr(P->file, '/');
    if (slash)
        snprintf(path, sizeof path, "%.*s/%s/model.json", (int)(slash - P->file), P->file, folder);
    else
        snprintf(path, sizeof path, "%s/model.json", folder);
    struct stat sb;
    return stat(path, &sb) == 0;
}

static int load_model_type(parser *P, int L, const char *name, const char *folder, rs_wagon *base,
                           const rs_model **mo, double **mp)
{
    char dir[1024], lerr[2048];
    const char *slash = strrchr(P->file, '/');
    if (folder[0] == '/' || !slash)
        snprintf(dir, sizeof dir, "%s", folder);
    else
        snprintf(dir, sizeof dir, "%.*s/%s", (int)(slash - P->file), P->file, folder);
    if (!P->cache && !(P->cache = P->spec->own_cache = rs_load_cache_create(RS_LOAD_TCC, NULL)))
        return RS_E_NOMEM;
    const rs_model *m = rs_load_cache_get(P->cache, dir, lerr, sizeof lerr);
    if (!m)
        return PERR(P, L, RS_E_ARG,
                    "vehicle '%s': cannot load the compiled model '%s': %s (write 'model wagon', "
                    "'model loco' or the folder `railsym compile` wrote)", name, dir, lerr);
    int ix = -1, ip = -1;
    char msg[600];
    /* ports default to coordinates named x and pitch */
    if (rs_compiled_vehicle_check_model(m, NULL, NULL, NULL, NULL, msg, sizeof msg) == RS_E_MODEL)
        return PERR(P, L, RS_E_ARG, "vehicle '%s': %s", name, msg);
    rs_compiled_vehicle_check_model(m, "x", NULL, &ix, NULL, NULL, 0);
    if (rs_compiled_vehicle_check_model(m, "x", "pitch", NULL, &ip, NULL, 0) != RS_OK)
        ip = -1;
    const size_t nd = mext_offset(m);
    double *p = calloc(1, nd * sizeof(double) + sizeof(mext) + 2 * (size_t)m->n_q + (size_t)m->n_p);
    if (!p)
        return RS_E_NOMEM;
    for (int i = 0; i < m->n_p; i++)
        p[i] = m->p_default[i];
    for (int i = 0; i < m->n_z; i++)
        p[z0_offset(m) + (size_t)i] = m->z0 ? m->z0[i] : 0.0;
    mext *mx = (mext *)(void *)(p + nd);
    rs_train_wheel_contact_opts_default(&mx->co);
    double *each = p + m->n_p + 1 + 2 * m->n_q;   /* per contact: E, nu, mu (NaN: the common value) */
    for (int i = 0; i < 3 * m->n_contact; i++)
        each[i] = NAN;
    mx->co.E_each = each;
    mx->co.nu_each = each + m->n_contact;
    mx->co.mu_each = each + 2 * m->n_contact;
    /* the contact files are where the model folder says (its model.json's
     * contact_root) until 'contact_files FOLDER' names another folder */
    if (m->n_contact && rs_driver_contact_dir(dir, mx->dir, sizeof mx->dir))
        mx->co.dir = mx->dir;
    base->model = m;
    base->model_p = p;
    base->init_q = p + m->n_p + 1;
    base->init_qd = p + m->n_p + 1 + m->n_q;
    base->init_q_set = mx->set;
    base->init_qd_set = mx->set + m->n_q;
    base->model_contact = m->n_contact ? &mx->co : NULL;
    base->model_p_set = mx->set + 2 * m->n_q;
    base->init_z = m->n_z ? p + z0_offset(m) : NULL;
    base->model_plugins = NULL;
    if (m->n_plugin > 0) {   /* the plugins' libraries, open while the spec lives */
        rs_plugin_set *ps = NULL;
        const int st = rs_plugin_set_open(m, &ps, lerr, sizeof lerr);
        if (st != RS_OK) {
            free(p);
            return PERR(P, L, st, "vehicle '%s': %s", name, lerr);
        }
        rs_plugin_set **grown = realloc(P->spec->plugin_sets, ((size_t)P->spec->nplugin_sets + 1) * sizeof *grown);
        if (!grown) {
            rs_plugin_set_close(&ps);
            free(p);
            return RS_E_NOMEM;
        }
        P->spec->plugin_sets = grown;
        P->spec->plugin_sets[P->spec->nplugin_sets++] = ps;
        base->model_plugins = rs_plugin_set_tables(ps);
    }
    base->port_x = ix;
    base->port_pitch = ip;
    *mo = m;
    *mp = p;
    return RS_OK;
}

/* 'vehicle NAME [model wagon|loco|FOLDER]' or 'coupler NAME': opens the
 * type's block, a new type or (a built-in one) redefined. */
static int type_header(parser *P, int L, char **tok, int n, int veh)
{
    if (n < 2 || !valid_name(tok[1]) || (veh && n != 2 && !(n == 4 && strcmp(tok[2], "model") == 0)) ||
        (!veh && n != 2)) {
        return PERR(P, L, RS_E_ARG, veh ?
                    "write 'vehicle NAME [model wagon|loco]' (NAME: letters, digits, '_'), then "
                                "'PARAM = VALUE' lines and 'end'"
                              : "write 'coupler NAME' (NAME: letters, digits, '_'), then 'PARAM = VALUE' lines and "
                                "'end'");
    }
    const int prev = veh ? find_vtype(P, tok[1]) : find_ctype(P, tok[1]);
    if (prev >= 0 && (veh ? P->vt[prev].line : P->ct[prev].line) != 0) {   /* line 0: a built-in type */
        return PERR(P, L, RS_E_ARG,
                    "%s type '%s' is defined twice (first at line %d): rename one", veh ? "vehicle" : "coupler",
                    tok[1], veh ? P->vt[prev].line : P->ct[prev].line);
    }
    P->block_line = L;
    if (!veh) {
        P->state = ST_COUPLER;
        if (prev >= 0) {
            P->ct[prev].line = L;
            P->cur = prev;
            return RS_OK;
        }
        rs_coupler c;
        rs_coupler_default(&c);
        if (add_ctype(P, tok[1], &c, L))
            return RS_E_NOMEM;
        P->cur = P->nct - 1;
        return RS_OK;
    }
    rs_wagon base = P->vt[0].w;   /* built-in wagon */
    const rs_model *m = NULL;
    double *mp = NULL;
    if (n == 4 && strcmp(tok[3], "wagon") && strcmp(tok[3], "loco")) {
        if (prev >= 0)
            return PERR(P, L, RS_E_ARG, "'%s' is a built-in type: give the compiled one another name", tok[1]);
        const int st = load_model_type(P, L, tok[1], tok[3], &base, &m, &mp);
        if (st != RS_OK)
            return st;
    } else if (n == 4) {
        if (is_model_folder(P, tok[3]))
            return PERR(P, L, RS_E_ARG,
                        "'model %s' names the built-in %s, but '%s' beside the train file is a compiled model folder: "
                        "write 'model ./%s' for the folder (or rename the folder)",
                        tok[3], tok[3], tok[3], tok[3]);
        base = strcmp(tok[3], "loco") == 0 ? P->vt[1].w : P->vt[0].w;
    } else if (prev >= 0) {
        base = P->vt[prev].w;   /* 'vehicle loco' changes the built-in loco */
    }
    P->state = ST_VEHICLE;
    if (prev >= 0) {
        P->vt[prev].w = base;
        P->vt[prev].line = L;
        P->cur = prev;
        return RS_OK;
    }
    if (add_vtype(P, tok[1], &base, L)) {
        free(mp);
        return RS_E_NOMEM;
    }
    vtype *t = &P->vt[P->nvt - 1];
    P->cur = P->nvt - 1;
    t->p = mp;
    if (mp) {
        t->q0 = mp + m->n_p + 1;
        t->qd0 = t->q0 + m->n_q;
        t->x = (mext *)(void *)(mp + mext_offset(m));
    }
    return RS_OK;
}

/* A line outside every block: a setting, 'set ...', 'order' or a type's
 * header. */
static int top_line(parser *P, int L, char **tok, int n, int is_end)
{
    if (is_end)
        return PERR(P, L, RS_E_ARG, "'end' without a block: remove it");
    int s = -1;
    for (int i = 0; i < S_COUNT; i++)
        if (strcmp(tok[0], settings[i]) == 0)
            s = i;
    int via_set = 0;
    if (s == S_SET) {
        const int st = set_line(P, L, tok, &n, &s);
        if (st != RS_OK || s < 0)
            return st;
        via_set = 1;
    }
    if (s < 0) {
        char sug[96], all[512];
        suggest(sug, sizeof sug, tok[0], settings, S_COUNT);
        list_names(all, sizeof all, settings, S_COUNT);
        return PERR(P, L, RS_E_ARG, "unknown statement '%s'%s; statements: %s", tok[0], sug, all);
    }
    if (s != S_VEHICLE && s != S_COUPLER && !via_set) {
        if (P->seen[s])
            return PERR(P, L, RS_E_ARG, "'%s' is given twice (first at line %d): keep one", tok[0], P->seen[s]);
        P->seen[s] = L;
    }
    if (s == S_VEHICLE || s == S_COUPLER)
        return type_header(P, L, tok, n, s == S_VEHICLE);
    P->given[s] = L;
    return setting_line(P, L, tok, n, s);
}

/* Reads the text line by line into P (its types, order and the spec's
 * settings). */
static int parse_lines(parser *P, char *buf)
{
    int line = 0, last_line = 0;
    P->state = ST_TOP;
    P->cur = -1;
    for (char *ln = buf; ln; line++) {
        char *nl = strchr(ln, '\n');
        if (nl)
            *nl = '\0';
        char *tok[MAX_TOK];
        int n = tokenize(ln, tok);
        const int L = line + 1;
        ln = nl ? nl + 1 : NULL;
        if (n < 0)
            return PERR(P, L, RS_E_ARG, "too many words on one line (at most %d)", MAX_TOK);
        if (n == 0)
            continue;
        last_line = L;
        const int is_end = strcmp(tok[0], "end") == 0;
        if (is_end && n != 1)
            return PERR(P, L, RS_E_ARG, "'end' stands alone on its line");
        int st;
        switch (P->state) {
        case ST_TABLE:
            st = table_line(P, L, tok, n, is_end);
            break;
        case ST_VEHICLE:
        case ST_COUPLER:
            st = type_block_line(P, L, tok, n, is_end);
            break;
        case ST_ORDER:
            st = order_line(P, L, tok, n, is_end);
            break;
        default:
            st = top_line(P, L, tok, n, is_end);
            break;
        }
        if (st != RS_OK)
            return st;
    }
    if (P->state != ST_TOP) {
        const char *what = P->state == ST_ORDER ? "order block" : P->state == ST_TABLE ? "traction table" :
                           P->state == ST_VEHICLE ? "vehicle block" : "coupler block";
        return PERR(P, last_line, RS_E_ARG,
                    "the %s opened at line %d has no 'end': add a line 'end' after its last line", what,
                    P->block_line);
    }
    return RS_OK;
}

/* The checks that need the whole file: output and duration against the
 * step. */
static int check_times(parser *P)
{
    const rs_train_spec *S = P->spec;
    if (S->output > 0.0 && S->output < S->step)
        return PERR(P, P->seen[S_OUTPUT], RS_E_ARG,
                    "'output' (%g s) is shorter than the step (%g s): write 'output 0' for every "
                    "step, or a longer interval", S->output, S->step);
    if (S->duration < S->step)
        return PERR(P, P->seen[S_DURATION] ? P->seen[S_DURATION] : P->seen[S_STEP], RS_E_ARG,
                    "'duration' (%g s) is shorter than one step (%g s)", S->duration, S->step);
    return RS_OK;
}

/* The formulation against the solver and the settings only one of them
 * reads; the natural formulation's defaults where the file leaves them. */
static int check_formulation(parser *P)
{
    rs_train_spec *S = P->spec;
    const int m = S->natural_method;
    if (!S->natural) {
        if (m == RS_LTRAIN_DIRECT || m == RS_LTRAIN_HMM || m == RS_LTRAIN_RESOLVED)
            return PERR(P, P->given[S_SOLVER], RS_E_ARG,
                        "'solver %s' is a method of the natural formulation (one coordinate per vehicle): add "
                        "'formulation natural', or write solver auto, cg, bicgstab, gmres or artificial",
                        m == RS_LTRAIN_DIRECT ? "direct" : m == RS_LTRAIN_HMM ? "hmm" : "resolved");
        return RS_OK;
    }
    if (m == -1)   /* a Krylov solver named */
        return PERR(P, P->given[S_SOLVER], RS_E_ARG,
                    "'formulation natural' (line %d) has no Krylov solver: write 'solver artificial', 'solver "
                    "direct' or 'solver cg' (rigid couplers), 'solver hmm' or 'solver resolved' (stiff couplers)",
                    P->given[S_FORMULATION]);
    static const int park_only[] = {S_CORRECTIONS, S_REBALANCE, S_RESTART};
    for (int i = 0; i < 3; i++)
        if (P->given[park_only[i]])
            return PERR(P, P->given[park_only[i]], RS_E_ARG,
                        "'%s' is a setting of the Park step, which 'formulation natural' (line %d) does not use: "
                        "remove it",
                        settings[park_only[i]], P->given[S_FORMULATION]);
    if (m < 0)   /* none given */
        S->natural_method = RS_LTRAIN_ARTIFICIAL;
    if (!P->given[S_TOLERANCE])
        S->tolerance = 1e-10;
    if (!P->given[S_ITERATIONS])
        S->iterations = 1000000;
    return RS_OK;
}

/* The spec owns the compiled types' parameters from here. */
static int take_model_params(parser *P)
{
    rs_train_spec *S = P->spec;
    int nm = 0;
    for (int i = 0; i < P->nvt; i++)
        nm += P->vt[i].p != NULL;
    S->model_params = calloc((size_t)nm + 1, sizeof *S->model_params);
    if (!S->model_params)
        return RS_E_NOMEM;
    for (int i = 0; i < P->nvt; i++)
        if (P->vt[i].p) {
            S->model_params[S->nmodels++] = P->vt[i].p;
            P->vt[i].p = NULL;
        }
    return RS_OK;
}

int rs_train_spec_parse(const char *text, const char *file, rs_train_spec **out, char *err, size_t errlen)
{
    return rs_train_spec_parse_cached(text, file, NULL, out, err, errlen);
}

int rs_train_spec_parse_cached(const char *text, const char *file, rs_load_cache *cache, rs_train_spec **out,
                               char *err, size_t errlen)
{
    if (out)
        *out = NULL;
    if (!out || !text)
        return rs_fail(err, errlen, RS_E_ARG, "rs_train_spec_parse: no text");
    parser P;
    memset(&P, 0, sizeof P);
    P.file = file ? file : "<train>";
    P.err = err;
    P.errlen = errlen;
    P.cache = cache;
    rs_train_spec *S = calloc(1, sizeof *S);
    char *buf = malloc(strlen(text) + 1);
    int st = RS_E_NOMEM;
    if (S && buf) {
        P.spec = S;
        snprintf(S->file, sizeof S->file, "%s", P.file);
        spec_defaults(S);
        strcpy(buf, text);
        st = add_builtin_types(&P);
    }
    if (st == RS_OK)
        st = parse_lines(&P, buf);
    if (st == RS_OK)
        st = check_times(&P);
    if (st == RS_OK)
        st = check_formulation(&P);
    if (st == RS_OK)
        st = expand(&P, S);
    if (st == RS_OK)
        st = take_model_params(&P);
    free(buf);
    free_parser(&P);
    if (st != RS_OK) {
        if (st == RS_E_NOMEM)
            rs_fail_at(err, errlen, st, P.file, 0, "out of memory while reading the train");
        rs_train_spec_free(&S);
        return st;
    }
    *out = S;
    return RS_OK;
}

int rs_train_spec_read(const char *path, rs_train_spec **out, char *err, size_t errlen)
{
    return rs_train_spec_read_extra(path, NULL, NULL, out, err, errlen);
}

int rs_train_spec_read_extra(const char *path, const char *extra, rs_load_cache *cache, rs_train_spec **out,
                             char *err, size_t errlen)
{
    if (out)
        *out = NULL;
    const size_t extra_len = extra ? strlen(extra) + 1 : 0;
    char *text;
    size_t n;
    const int why = rs_read_file(path, 0, extra_len, &text, &n);
    if (why)
        return rs_fail(err, errlen, why == ENOMEM ? RS_E_NOMEM : RS_E_IO,
                       "cannot read '%s': %s", path ? path : "(null)", rs_file_why_at(path, why));
    int st = rs_text_check(text, n, path, err, errlen);
    if (!st)
        st = rs_kind_check(text, n, path, RS_KIND_TRAIN, err, errlen);
    if (st) {
        free(text);
        return st;
    }
    if (extra) {   /* rs_read_file kept extra_len bytes after the NUL */
        text[n++] = '\n';
        memcpy(text + n, extra, extra_len - 1);
        n += extra_len - 1;
        text[n] = '\0';
    }
    st = rs_train_spec_parse_cached(text, path, cache, out, err, errlen);
    free(text);
    return st;
}

void rs_train_spec_opts(const rs_train_spec *s, rs_park_opts *o)
{
    rs_park_opts_default(o);
    o->h = s->step;
    o->krylov.method = s->solver;
    o->krylov.tol = s->tolerance;
    o->krylov.maxiter = s->iterations;
    o->krylov.restart = s->restart;
    o->corrections = s->corrections;
    o->rebalance = s->rebalance;
}

/* ------------------------------------------------------------ runner */

/* The values of one row (time excluded) into v, in the order of
 * train_columns. */
static int row_values(rs_train *tr, const rs_train_spec *S, double *v)
{
    const int nv = rs_train_nvehicles(tr);
    int k = 0;
    for (int i = 0; i < nv; i++) {
        v[k++] = rs_train_x(tr, i);
        v[k++] = rs_train_v(tr, i);
    }
    for (int c = 0; c + 1 < nv; c++) {
        double e;
        v[k++] = rs_train_coupler(tr, c, &e);
        v[k++] = e;
    }
    for (int i = 0; i < nv; i++) {
        const rs_train_wheel_contact *tc = S->contact_out[i] ? rs_train_contact(tr, i) : NULL;
        const unsigned char *q = S->contact_q + (size_t)i * RS_TRAIN_CONTACT_QCOUNT;
        for (int j = 0; tc && j < rs_train_wheel_contact_count(tc); j++)
            for (int l = 0; l < RS_TRAIN_CONTACT_QCOUNT; l++)
                if (q[l])
                    v[k++] = rs_train_wheel_contact_value(tc, j, l);
    }
    for (int i = 0; i < nv; i++) {
        const double *z = S->state_out[i] ? rs_compiled_vehicle_z(rs_train_compiled(tr, i)) : NULL;
        for (int j = 0; z && j < S->veh[i].model->n_z; j++)
            v[k++] = z[j];
    }
    return k;
}

int rs_train_spec_contact_nq(const rs_train_spec *S, int v)
{
    int n = 0;
    for (int l = 0; S->contact_out[v] && l < RS_TRAIN_CONTACT_QCOUNT; l++)
        n += S->contact_q[(size_t)v * RS_TRAIN_CONTACT_QCOUNT + l] != 0;
    return n;
}

/* The columns of a train's results (time excluded): names (malloc'd, the
 * caller frees each and the array) and units; their count, or -1 when out
 * of memory. */
static int train_columns(rs_train *tr, const rs_train_spec *S, char ***names_out, const char ***units_out)
{
    const int nv = rs_train_nvehicles(tr);
    int n = 4 * nv;
    for (int v = 0; v < nv; v++)
        n += (S->contact_out[v] && rs_train_contact(tr, v)
                  ? rs_train_spec_contact_nq(S, v) * rs_train_wheel_contact_count(rs_train_contact(tr, v))
                  : 0) +
             (S->state_out[v] ? S->veh[v].model->n_z : 0);
    char **names = calloc((size_t)n + 1, sizeof *names);
    const char **units = calloc((size_t)n + 1, sizeof *units);
    int k = 0, bad = !names || !units;
    char buf[512];
#define COLUMN(unit, ...)                                                                                  \
    do {                                                                                                   \
        snprintf(buf, sizeof buf, __VA_ARGS__);                                                            \
        if (!bad) {                                                                                        \
            units[k] = unit;                                                                               \
            bad = !(names[k++] = strdup(buf));                                                             \
        }                                                                                                  \
    } while (0)
    for (int v = 0; v < nv; v++) {
        COLUMN("m", "%s.x", S->vname[v]);
        COLUMN("m/s", "%s.v", S->vname[v]);
    }
    for (int c = 0; c + 1 < nv; c++) {
        COLUMN("N", "%s.force", S->cname[c]);
        COLUMN("m", "%s.elongation", S->cname[c]);
    }
    for (int v = 0; v < nv; v++) {
        const rs_train_wheel_contact *tc = S->contact_out[v] ? rs_train_contact(tr, v) : NULL;
        const unsigned char *q = S->contact_q + (size_t)v * RS_TRAIN_CONTACT_QCOUNT;
        for (int i = 0; tc && i < rs_train_wheel_contact_count(tc); i++) {
            const char *cn = rs_train_wheel_contact_name(tc, i);
            for (int l = 0; l < RS_TRAIN_CONTACT_QCOUNT; l++) {
                char qn[32];
                if (q[l])
                    COLUMN(l >= RS_TRAIN_CONTACT_FX ? "N" : rs_results_contact_unit(l), "%s.%s.%s", S->vname[v], cn,
                           rs_train_contact_quantity_name(l, qn, sizeof qn));
            }
        }
    }
    for (int v = 0; v < nv; v++)   /* internal states: deflections of series springs [m] */
        for (int i = 0; S->state_out[v] && i < S->veh[v].model->n_z; i++)
            COLUMN("m", "%s.%s", S->vname[v], S->veh[v].model->z_names[i]);
#undef COLUMN
    if (bad) {
        for (int i = 0; names && i < k; i++)
            free(names[i]);
        free(names);
        free(units);
        return -1;
    }
    *names_out = names;
    *units_out = units;
    return k;
}

/* The elastic contact's events of a train run: one line each, as a single
 * run's (rs_contact_event_line), naming the vehicle; the derailment that
 * stops the run kept for its message. */
typedef struct train_events {
    const rs_log *log;
    rs_train *tr;
    int stopped;               /* 1: `stop` holds the stopping derailment */
    char stop[RS_LOG_LINE_MAX];
} train_events;

static void log_event(void *ctx, int v, const rs_contact_event *e, int stops)
{
    train_events *x = ctx;
    char who[300], line[RS_LOG_LINE_MAX];
    snprintf(who, sizeof who, "vehicle '%s': contact '%s'", rs_train_vehicle_name(x->tr, v),
             rs_train_wheel_contact_name(rs_train_contact(x->tr, v), e->contact));
    rs_contact_event_line(e, who,
                          stops ? " (stopping: write 'derailment continue' in the vehicle's block to go on)" : "",
                          line, sizeof line);
    rs_log_text(x->log, RS_LOG_LINE, line);
    if (stops && !x->stopped) {
        x->stopped = 1;
        rs_contact_event_line(e, who, "", x->stop, sizeof x->stop);
    }
}

int rs_train_run(const rs_train_run_cfg *cfg, rs_train_run_report *rep, char *err, size_t errlen)
{
    rs_train_run_report r;
    memset(&r, 0, sizeof r);
    if (rep)
        *rep = r;
    if (!cfg || !cfg->train_file || !cfg->out || cfg->threads < 1)
        return rs_fail(err, errlen, RS_E_ARG,
                       "rs_train_run: needs a train file, an output file and threads >= 1");
    rs_train_spec *S = NULL;
    int st = rs_train_spec_read_extra(cfg->train_file, cfg->extra, cfg->models, &S, err, errlen);
    if (st != RS_OK)
        return st;
    if (S->natural) {   /* seed 002's methods: rs_train_natural.c */
        const rs_train_natural_job job = {
            .file = S->file, .nv = S->nv, .veh = S->veh, .vname = (const char(*)[64])S->vname, .cpl = S->cpl,
            .cname = (const char(*)[64])S->cname, .method = (rs_ltrain_method)S->natural_method,
            .duration = S->duration, .step = S->step, .output = S->output, .speed = S->speed,
            .tolerance = S->tolerance, .iterations = S->iterations, .out = cfg->out,
            .out_in_place = cfg->out_in_place, .threads = cfg->threads, .progress = cfg->progress, .log = cfg->log};
        rs_train_natural_report nr;
        st = rs_train_natural_run(&job, &nr, err, errlen);
        r = (rs_train_run_report){.nv = S->nv, .n = S->nv, .steps = nr.steps, .rows = nr.rows,
                                  .t_start = nr.t_start, .t_end = nr.t_end, .wall_s = nr.wall_s,
                                  .krylov_per_step = nr.iters_per_step, .threads = nr.threads,
                                  .iterations_of = S->natural_method == RS_LTRAIN_ARTIFICIAL ? "artificial-dynamics"
                                                  : S->natural_method == RS_LTRAIN_CG       ? "conjugate-gradient"
                                                                                              : ""};
        if (rep)
            *rep = r;
        rs_train_spec_free(&S);
        return st;
    }
    rs_park_opts o;
    rs_train_spec_opts(S, &o);
    /* Workers beyond the usable cores only wait for each other's time
     * slices; results are the same bits on any count (rs_park.h). */
    o.threads = rs_cores_cap(cfg->threads, NULL);
    r.threads = o.threads;
    rs_train *tr = NULL;
    const char **vnames = malloc((size_t)S->nv * sizeof *vnames), **cnames = malloc((size_t)S->nv * sizeof *cnames);
    rs_results *res = NULL;
    double *values = NULL;
    int ncol = 0;
    if (!vnames || !cnames) {
        st = rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
        goto done;
    }
    for (int v = 0; v < S->nv; v++) {
        vnames[v] = S->vname[v];
        cnames[v] = S->cname[v];
    }
    char msg[512];
    st = rs_train_create(&tr, S->nv, S->veh, vnames, S->cpl, cnames, &o, msg, sizeof msg);
    if (st != RS_OK) {
        rs_fail_at(err, errlen, st, S->file, 0, "%s", msg);
        goto done;
    }
    train_events events = {&cfg->log, tr, 0, ""};
    rs_train_set_event_fn(tr, log_event, &events);
    st = rs_train_start(tr, 0.0, 0.0, S->speed);
    if (st != RS_OK) {
        /* at the failing vehicle's block: where to give what it lacks */
        const int fv = rs_train_error_vehicle(tr);
        rs_fail_at(err, errlen, st, S->file, fv >= 0 ? S->vline[fv] : 0, "initialization failed: %s",
                   rs_train_error(tr));
        goto done;
    }
    char **names = NULL;
    const char **units = NULL;
    ncol = train_columns(tr, S, &names, &units);
    if (ncol < 0 || !(values = malloc(((size_t)ncol + 1) * sizeof *values))) {
        st = rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
        goto done;
    }
    st = rs_results_open(&res, cfg->out, ncol, (const char *const *)names, units,
                         cfg->out_in_place ? RS_RESULTS_IN_PLACE : 0, err, errlen);
    for (int i = 0; i < ncol; i++)
        free(names[i]);
    free(names);
    free(units);
    if (st != RS_OK)
        goto done;
    char partial[4200];   /* where a failed run's rows go */
    rs_results_partial_path(cfg->out, partial, sizeof partial);
    if (cfg->out_in_place)
        snprintf(partial, sizeof partial, "%s", cfg->out);
    rs_park *pk = rs_train_park(tr);
    r.nv = S->nv;
    r.n = rs_park_n(pk);
    r.t_start = rs_park_t(pk);
    const long steps = lround(S->duration / S->step);
    const long every = S->output > 0.0 ? (lround(S->output / S->step) > 0 ? lround(S->output / S->step) : 1) : 1;
    row_values(tr, S, values);
    if (rs_results_row(res, rs_park_t(pk), values) != RS_OK)
        goto io_error;
    r.rows++;
    r.t_end = r.t_start;
    double wall = 0.0;
    rs_progress pr;
    rs_progress_start(&pr, &cfg->log, cfg->progress, 2.0, 1.0, r.t_start, r.t_start + (double)steps * S->step);
    for (long s = 1; s <= steps; s++) {
        const double w0 = rs_now_s();
        st = rs_train_step(tr);
        wall += rs_now_s() - w0;
        if (st != RS_OK) {
            rs_progress_end(&pr, r.steps, rs_park_t(pk));
            /* a derailment the file asked to stop at is no failure of the
             * method: say so first (sweeps read the words, rs_sweep.c) */
            if (st == RS_E_DERAILED && events.stopped)
                rs_fail_at(err, errlen, st, S->file, 0,
                           RS_TRAIN_DERAILED_MSG "%s; write 'derailment continue' in the vehicle's block to go on; "
                           "'%s' holds the results up to t = %.10g s",
                           events.stop, partial, r.t_end);
            else
                rs_fail_at(err, errlen, st, S->file, 0,
                           "simulation failed (%s): %s; '%s' holds the results up to t = %.10g s",
                           rs_status_name(st), rs_train_error(tr), partial, r.t_end);
            goto done;
        }
        r.steps++;
        rs_progress_tick(&pr, rs_park_t(pk));
        if (s % every == 0 || s == steps) {
            row_values(tr, S, values);
            if (rs_results_row(res, rs_park_t(pk), values) != RS_OK)
                goto io_error;
            r.rows++;
            r.t_end = rs_park_t(pk);
        }
    }
    rs_progress_end(&pr, r.steps, rs_park_t(pk));
    r.wall_s = wall;
    r.krylov_per_step = r.steps ? (double)rs_park_get_stats(pk)->krylov_iters / (double)r.steps : 0.0;
    r.serial_steps = rs_park_get_stats(pk)->serial_steps;
    st = RS_OK;
    goto done;
io_error:
    if (r.rows)
        st = rs_fail(err, errlen, rs_results_status(res) == RS_E_NOMEM ? RS_E_NOMEM : RS_E_IO,
                     "cannot write '%s' (disk full or file size limit?): '%s' holds the results up to t = %.10g s",
                     cfg->out, partial, r.t_end);
    else
        st = rs_fail(err, errlen, rs_results_status(res) == RS_E_NOMEM ? RS_E_NOMEM : RS_E_IO,
                     "cannot write '%s' (disk full or file size limit?): no rows written", cfg->out);
done:
    if (res) {
        /* complete only when the run reached its end (rs_results.h) */
        char cmsg[1024], left[4200];
        const int cst = rs_results_close(&res, st == RS_OK, left, sizeof left, cmsg, sizeof cmsg);
        if (cst && st == RS_OK)
            st = rs_fail(err, errlen, cst, "%s; what was written is in '%s'", cmsg, left[0] ? left : "(nothing)");
    }
    free(values);
    if (rep)
        *rep = r;
    rs_train_free(&tr);
    free(vnames);
    free(cnames);
    rs_train_spec_free(&S);
    return st;
}
