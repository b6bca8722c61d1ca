/*
 * rs_stress_spec.c — the `stress` statement of a scenario (docs/coupled.md):
 *
 *   stress NAME body B from X Y Z to X Y Z section circle R|rect W H
 *          [elements N] [young E] [poisson NU] [density RHO] [damping MU]
 *          [velocity OUT] [omega OUT] [gravity OUT|none]
 *          fix S ... [load OUT|reaction CONSTRAINT at S ...] [point NAME at S [fibre Y Z] ...]
 *
 * The output names are bound to the model later (rs_stress_run.h); here
 * only the words and numbers are checked.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_error.h"
#include "rs_status.h"
#include "rs_stress.h"

#define USAGE                                                                                                   \
    "e.g. 'stress link body arm from 0 0 0 to 0.5 0 0 section circle 0.02 fix 0 load F_tip at 0.5 point root " \
    "at 0 fibre 0 0.02' (docs/coupled.md)"

void rs_stress_spec_default(rs_stress_spec *s)
{
    memset(s, 0, sizeof *s);
    s->elements = 20;
    s->section = -1;          /* required */
    s->young = 2.1e11;        /* steel */
    s->poisson = 0.3;
    s->density = 7850;
    s->damping = NAN;         /* 2 ω₁: critical for the first bending mode */
    s->from[0] = s->to[0] = NAN;
}

static int number(const char *tok, double *x)
{
    char *end;
    *x = strtod(tok, &end);
    return end != tok && *end == '\0' && isfinite(*x);
}

/* A name usable in a column: letters, digits, '_' and '.', not empty. */
static int copy_name(char *dst, const char *src, const rs_stress_spec *s, const char *what, char *err,
                     size_t errlen)
{
    if (strlen(src) >= RS_STRESS_NAME)
        return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line, "stress: %s name '%s' is longer than %d characters",
                          what, src, RS_STRESS_NAME - 1);
    for (const char *c = src; *c; c++)
        if (!(*c == '_' || *c == '.' || (*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z') ||
              (*c >= 'A' && *c <= 'Z')))
            return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line,
                              "stress: %s name '%s': use letters, digits and '_'", what, src);
    strcpy(dst, src);
    return RS_OK;
}

static const char *const kKeys[] = {"body",    "from",    "to",     "section",  "elements", "young",  "poisson",
                                    "density", "damping", "velocity", "omega",  "gravity",  "fix",    "load",
                                    "point",   "member"};
enum { K_BODY, K_FROM, K_TO, K_SECTION, K_ELEMENTS, K_YOUNG, K_POISSON, K_DENSITY, K_DAMPING, K_VELOCITY,
       K_OMEGA, K_GRAVITY, K_FIX, K_LOAD, K_POINT, K_MEMBER, N_KEYS };

static int need(int i, int nv, int n, const rs_stress_spec *s, const char *key, const char *what, char *err,
                size_t errlen)
{
    if (i + nv >= n)
        return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line, "stress: '%s' needs %s", key, what);
    return RS_OK;
}

static int numbers(const char *const *tok, int k, double *x, const rs_stress_spec *s, const char *key, char *err,
                   size_t errlen)
{
    for (int c = 0; c < k; c++)
        if (!number(tok[c], &x[c]))
            return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line, "stress: %s '%s' is not a number", key,
                              tok[c]);
    return RS_OK;
}

/* A position: S along the axis (member -1), or MEMBER:S along a frame's
 * member declared before it. */
static int position(const char *tok, const rs_stress_spec *s, const char *key, int *member, double *x, char *err,
                    size_t errlen)
{
    const char *colon = strchr(tok, ':');
    *member = -1;
    if (!colon)
        return numbers(&tok, 1, x, s, key, err, errlen);
    const size_t n = (size_t)(colon - tok);
    for (int m = 0; m < s->n_member; m++)
        if (strlen(s->member[m].name) == n && strncmp(s->member[m].name, tok, n) == 0)
            *member = m;
    if (*member < 0)
        return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line,
                          "stress: %s at '%s': no member '%.*s' declared before it; write 'member %.*s from X Y Z "
                          "to X Y Z' earlier in the statement",
                          key, tok, (int)n, tok, (int)n, tok);
    const char *num = colon + 1;
    return numbers(&num, 1, x, s, key, err, errlen);
}

static int too_many(const rs_stress_spec *s, const char *what, char *err, size_t errlen)
{
    return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line, "stress: more than %d %s", RS_STRESS_MAX, what);
}

int rs_stress_spec_parse(const char *const *tok, int n, const char *file, int line, rs_stress_spec *s, char *err,
                         size_t errlen)
{
    rs_stress_spec_default(s);
    snprintf(s->file, sizeof s->file, "%s", file ? file : "scenario");
    s->line = line;
    if (n < 2 || strcmp(tok[1], "body") == 0)
        return rs_fail_at(err, errlen, RS_E_ARG, s->file, line, "stress: the component's name first; " USAGE);
    int st = copy_name(s->name, tok[1], s, "component", err, errlen);
    int gravity_set = 0, velocity_set = 0, omega_set = 0;
    for (int i = 2; i < n && !st;) {
        const char *key = tok[i];
        int k = 0;
        while (k < N_KEYS && strcmp(key, kKeys[k]) != 0)
            k++;
        if (k == N_KEYS)
            return rs_fail_at(err, errlen, RS_E_ARG, s->file, line,
                              "stress: unknown word '%s'; the words are body, from, to, section, elements, young, "
                              "poisson, density, damping, velocity, omega, gravity, fix, load, point, member",
                              key);
        double x[3];
        switch (k) {
        case K_BODY: case K_VELOCITY: case K_OMEGA: case K_GRAVITY:
            if ((st = need(i, 1, n, s, key, "a name", err, errlen)))
                break;
            if (k == K_GRAVITY && strcmp(tok[i + 1], "none") == 0)
                s->gravity[0] = '\0';
            else
                st = copy_name(k == K_BODY ? s->body : k == K_VELOCITY ? s->velocity : k == K_OMEGA ? s->omega
                                                                                                      : s->gravity,
                               tok[i + 1], s, k == K_BODY ? "body" : "output", err, errlen);
            gravity_set |= k == K_GRAVITY;
            velocity_set |= k == K_VELOCITY;
            omega_set |= k == K_OMEGA;
            i += 2;
            break;
        case K_FROM: case K_TO:
            if ((st = need(i, 3, n, s, key, "three coordinates in the body's frame, m", err, errlen)) ||
                (st = numbers(tok + i + 1, 3, k == K_FROM ? s->from : s->to, s, key, err, errlen)))
                break;
            i += 4;
            break;
        case K_SECTION: {
            if ((st = need(i, 2, n, s, key, "'circle R' or 'rect W H'", err, errlen)))
                break;
            const int rect = strcmp(tok[i + 1], "rect") == 0;
            if (!rect && strcmp(tok[i + 1], "circle") != 0) {
                st = rs_fail_at(err, errlen, RS_E_ARG, s->file, line,
                                "stress: section '%s': write 'section circle R' (solid, radius R) or 'section rect "
                                "W H' (width W along e2, height H along e3), m",
                                tok[i + 1]);
                break;
            }
            if ((rect && (st = need(i, 3, n, s, key, "'rect W H'", err, errlen))) ||
                (st = numbers(tok + i + 2, rect ? 2 : 1, x, s, "section", err, errlen)))
                break;
            s->section = rect ? RS_STRESS_RECT : RS_STRESS_CIRCLE;
            s->sec_a = x[0];
            s->sec_b = rect ? x[1] : x[0];
            i += rect ? 4 : 3;
            break;
        }
        case K_MEMBER: {
            /* member NAME from X Y Z to X Y Z [elements N] */
            const char *form = "a name and its ends: 'member NAME from X Y Z to X Y Z [elements N]'";
            if ((st = need(i, 9, n, s, key, form, err, errlen)))
                break;
            if (strcmp(tok[i + 2], "from") != 0 || strcmp(tok[i + 6], "to") != 0) {
                st = rs_fail_at(err, errlen, RS_E_ARG, s->file, line, "stress: 'member' needs %s", form);
                break;
            }
            if (s->n_member == RS_STRESS_MAX) {
                st = too_many(s, "members", err, errlen);
                break;
            }
            rs_stress_member *M = &s->member[s->n_member++];
            M->elements = 0;   /* the statement's 'elements' */
            if ((st = copy_name(M->name, tok[i + 1], s, "member", err, errlen)) ||
                (st = numbers(tok + i + 3, 3, M->from, s, "member", err, errlen)) ||
                (st = numbers(tok + i + 7, 3, M->to, s, "member", err, errlen)))
                break;
            for (int m = 0; m + 1 < s->n_member; m++)
                if (strcmp(s->member[m].name, M->name) == 0) {
                    st = rs_fail_at(err, errlen, RS_E_ARG, s->file, line, "stress: member '%s' is declared twice",
                                    M->name);
                    break;
                }
            i += 10;
            if (!st && i + 1 < n && strcmp(tok[i], "elements") == 0) {
                if (!number(tok[i + 1], &x[0]) || x[0] != floor(x[0]) || x[0] < 1 || x[0] > 100000) {
                    st = rs_fail_at(err, errlen, RS_E_ARG, s->file, line,
                                    "stress: member %s: elements needs a whole count from 1 to 100000, not '%s'",
                                    M->name, tok[i + 1]);
                    break;
                }
                M->elements = (int)x[0];
                i += 2;
            }
            break;
        }
        case K_FIX:
            if ((st = need(i, 1, n, s, key, "a position", err, errlen)))
                break;
            if (s->n_fix == RS_STRESS_MAX) {
                st = too_many(s, "fixes", err, errlen);
                break;
            }
            if ((st = position(tok[i + 1], s, key, &s->fix_member[s->n_fix], &s->fix[s->n_fix], err, errlen)))
                break;
            s->n_fix++;
            i += 2;
            break;
        case K_ELEMENTS: case K_YOUNG: case K_POISSON: case K_DENSITY: case K_DAMPING:
            if ((st = need(i, 1, n, s, key, "a number", err, errlen)) ||
                (st = numbers(tok + i + 1, 1, x, s, key, err, errlen)))
                break;
            if (k == K_ELEMENTS) {
                if (x[0] != floor(x[0]) || x[0] < 1 || x[0] > 100000) {
                    st = rs_fail_at(err, errlen, RS_E_ARG, s->file, line,
                                    "stress: elements needs a whole count from 1 to 100000, not '%s'", tok[i + 1]);
                    break;
                }
                s->elements = (int)x[0];
            } else {
                *(k == K_YOUNG ? &s->young : k == K_POISSON ? &s->poisson : k == K_DENSITY ? &s->density
                                                                                           : &s->damping) = x[0];
            }
            i += 2;
            break;
        case K_LOAD: case K_POINT: {
            const char *form = k == K_LOAD ? "an output and a position: 'load OUT at S' or 'load reaction "
                                             "CONSTRAINT at S'"
                                           : "a name and a position: 'point NAME at S [fibre Y Z]'";
            /* `load reaction NAME at S`: a constraint's force (an output
             * named reaction stays usable: 'load reaction at S') */
            const int reaction = k == K_LOAD && i + 2 < n && strcmp(tok[i + 1], "reaction") == 0 &&
                                 strcmp(tok[i + 2], "at") != 0;
            i += reaction;
            if ((st = need(i, 3, n, s, key, form, err, errlen)))
                break;
            if (strcmp(tok[i + 2], "at") != 0) {
                st = rs_fail_at(err, errlen, RS_E_ARG, s->file, line, "stress: '%s' needs %s", key, form);
                break;
            }
            int member;
            if ((st = position(tok[i + 3], s, key, &member, x, err, errlen)))
                break;
            if (k == K_LOAD) {
                if (s->n_load == RS_STRESS_MAX) {
                    st = too_many(s, "loads", err, errlen);
                    break;
                }
                rs_stress_load *L = &s->load[s->n_load++];
                L->s = x[0];
                L->reaction = reaction;
                L->member = member;
                st = copy_name(L->output, tok[i + 1], s, reaction ? "constraint" : "output", err, errlen);
                i += 4;
                break;
            }
            if (s->n_point == RS_STRESS_MAX) {
                st = too_many(s, "points", err, errlen);
                break;
            }
            rs_stress_point *P = &s->point[s->n_point++];
            P->s = x[0];
            P->member = member;
            if ((st = copy_name(P->name, tok[i + 1], s, "point", err, errlen)))
                break;
            i += 4;
            if (i < n && strcmp(tok[i], "fibre") == 0) {
                if ((st = need(i, 2, n, s, "fibre", "two offsets 'fibre Y Z' in the section, m", err, errlen)) ||
                    (st = numbers(tok + i + 1, 2, x, s, "fibre", err, errlen)))
                    break;
                P->y = x[0];
                P->z = x[1];
                i += 3;
            }
            break;
        }
        }
    }
    if (st)
        return st;
    if (!s->body[0])
        return rs_fail_at(err, errlen, RS_E_ARG, s->file, line,
                          "stress: which body carries the component? add 'body NAME'; " USAGE);
    /* the frame's motion: outputs named after the body unless given */
    if (!velocity_set)
        snprintf(s->velocity, sizeof s->velocity, "%.*s_v", RS_STRESS_NAME - 3, s->body);
    if (!omega_set)
        snprintf(s->omega, sizeof s->omega, "%.*s_omega", RS_STRESS_NAME - 7, s->body);
    if (!gravity_set)
        snprintf(s->gravity, sizeof s->gravity, "%.*s_g", RS_STRESS_NAME - 3, s->body);
    return rs_stress_spec_check(s, err, errlen);
}

static double distance(const double *a, const double *b)
{
    const double d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

int rs_stress_member_elements(const rs_stress_spec *s, int m)
{
    return s->member[m].elements > 0 ? s->member[m].elements : s->elements;
}

/* A frame's members and the positions on them. */
static int check_frame(const rs_stress_spec *s, char *err, size_t errlen)
{
    if (isfinite(s->from[0]) || isfinite(s->to[0]))
        return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line,
                          "stress: a frame is given by its members: leave out 'from' and 'to', or the 'member's");
    for (int m = 0; m < s->n_member; m++)
        if (!(distance(s->member[m].from, s->member[m].to) > 0))
            return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line,
                              "stress: member %s: 'from' and 'to' are the same point", s->member[m].name);
    for (int k = 0; k < s->n_fix + s->n_load + s->n_point; k++) {
        const int kind = k < s->n_fix ? 0 : k < s->n_fix + s->n_load ? 1 : 2;
        const int m = kind == 0 ? s->fix_member[k] : kind == 1 ? s->load[k - s->n_fix].member
                                                             : s->point[k - s->n_fix - s->n_load].member;
        const double x = kind == 0 ? s->fix[k] : kind == 1 ? s->load[k - s->n_fix].s
                                                         : s->point[k - s->n_fix - s->n_load].s;
        const char *what = kind == 0 ? "fix" : kind == 1 ? "load" : "point";
        if (m < 0 || m >= s->n_member)
            return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line,
                              "stress: %s at %g: in a frame, say on which member: '%s MEMBER:S'", what, x,
                              kind == 2 ? "point NAME at" : kind == 1 ? "load OUT at" : "fix");
        const double L = distance(s->member[m].from, s->member[m].to), h = L / rs_stress_member_elements(s, m);
        const double q = x / h, r = nearbyint(q);
        if (kind < 2 && !(fabs(q - r) <= 1e-9 * (1 + fabs(q)) && r >= 0 && r <= rs_stress_member_elements(s, m)))
            return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line,
                              "stress: %s at %s:%g m is not a node: nodes are %g m apart from 0 to %g m; choose "
                              "the member's 'elements' so that one lies there",
                              what, s->member[m].name, x, h, L);
        if (kind == 2 && !(x >= 0 && x <= L * (1 + 1e-12)))
            return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line,
                              "stress: point '%s' at %s:%g m is off the member (0 to %g m)",
                              s->point[k - s->n_fix - s->n_load].name, s->member[m].name, x, L);
    }
    return RS_OK;
}

int rs_stress_spec_check(const rs_stress_spec *s, char *err, size_t errlen)
{
    const int frame = s->n_member > 0;
    if (!frame && (!isfinite(s->from[0]) || !isfinite(s->to[0])))
        return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line,
                          "stress: give the axis's ends 'from X Y Z to X Y Z' (m, in the body's frame), or a "
                          "frame's members 'member NAME from X Y Z to X Y Z'");
    const double L = frame ? 1 : distance(s->from, s->to);
    if (!(L > 0))
        return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line, "stress: 'from' and 'to' are the same point");
    if (s->section < 0)
        return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line,
                          "stress: give the section: 'section circle R' or 'section rect W H' (m)");
    const struct { const char *name; double v; } pos[] = {
        {"section size", s->sec_a}, {"section size", s->sec_b}, {"young", s->young}, {"density", s->density}};
    for (size_t i = 0; i < sizeof pos / sizeof pos[0]; i++)
        if (!(pos[i].v > 0) || !isfinite(pos[i].v))
            return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line, "stress: %s must be positive, not %g",
                              pos[i].name, pos[i].v);
    if (!(s->poisson >= 0 && s->poisson < 0.5))
        return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line, "stress: poisson %g must be from 0 to below 0.5",
                          s->poisson);
    if (!(isnan(s->damping) || s->damping >= 0))
        return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line,
                          "stress: damping %g 1/s must be 0 or positive (leave it out for 2 omega_1)", s->damping);
    if (s->elements < 1 || s->elements > 100000)
        return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line, "stress: elements must be from 1 to 100000");
    if (s->n_fix < 1)
        return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line,
                          "stress: the component needs a clamped node to hold it in the body's frame: add "
                          "'fix S' (S the distance along the axis from 'from', m)");
    if (frame)
        for (int p = 0; p < s->n_point; p++)
            for (int q = 0; q < p; q++)
                if (strcmp(s->point[p].name, s->point[q].name) == 0)
                    return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line, "stress: point '%s' is named twice",
                                      s->point[p].name);
    if (frame)
        return check_frame(s, err, errlen);
    const double h = L / s->elements;
    /* fixes and loads at nodes, points on the axis */
    for (int k = 0; k < s->n_fix + s->n_load; k++) {
        const double x = k < s->n_fix ? s->fix[k] : s->load[k - s->n_fix].s, q = x / h, r = nearbyint(q);
        if (!(fabs(q - r) <= 1e-9 * (1 + fabs(q)) && r >= 0 && r <= s->elements))
            return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line,
                              "stress: %s at %g m is not a node: nodes are %g m apart from 0 to %g m; choose "
                              "'elements' so that one lies there",
                              k < s->n_fix ? "fix" : "load", x, h, L);
    }
    for (int p = 0; p < s->n_point; p++) {
        if (!(s->point[p].s >= 0 && s->point[p].s <= L * (1 + 1e-12)))
            return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line,
                              "stress: point '%s' at %g m is off the axis (0 to %g m)", s->point[p].name,
                              s->point[p].s, L);
        for (int q = 0; q < p; q++)
            if (strcmp(s->point[p].name, s->point[q].name) == 0)
                return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line, "stress: point '%s' is named twice",
                                  s->point[p].name);
    }
    return RS_OK;
}

int rs_stress_spec_column(const rs_stress_spec *s, const char *column)
{
    const size_t n = strlen(s->name);
    if (strncmp(column, s->name, n) != 0 || strncmp(column + n, ".sigma_", 7) != 0)
        return -1;
    for (int p = 0; p < s->n_point; p++)
        if (strcmp(column + n + 7, s->point[p].name) == 0)
            return p;
    return -1;
}

int rs_stress_spec_unknown_column(const rs_stress_spec *s, const char *column, const char *file, int line,
                                  char *err, size_t errlen)
{
    const size_t n = strlen(s->name);
    if (strncmp(column, s->name, n) != 0 || column[n] != '.' || rs_stress_spec_column(s, column) >= 0)
        return RS_OK;
    char list[RS_STRESS_MAX * (RS_STRESS_NAME + 2) + 1] = "";
    for (int p = 0; p < s->n_point; p++) {
        strcat(list, p ? ", " : "");
        strcat(list, s->point[p].name);
    }
    return rs_fail_at(err, errlen, RS_E_NOTFOUND, file, line,
                      "unknown column '%s': the columns of stress %s are %s.sigma_POINT, its points %s (line %d)",
                      column, s->name, s->name, s->n_point ? list : "none: add 'point NAME at S'", s->line);
}
