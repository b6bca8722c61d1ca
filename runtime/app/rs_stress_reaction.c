/*
 * rs_stress_reaction.c — see rs_stress_reaction.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_closest.h"
#include "rs_error.h"
#include "rs_status.h"
#include "rs_stress_reaction.h"

enum { N_SAMPLE = 8 };

/* The model's functions at chosen coordinates, everything else as the
 * workspace has it. */
typedef struct probe {
    const rs_model *m;
    const double *in[RS_IN_COUNT];
    double *q, *k, *zero;
    double t;
    double *phi[N_SAMPLE], *pose[N_SAMPLE];   /* per sample: n_phi, 12 n_body */
} probe;

static void probe_free(probe *p)
{
    free(p->q);
    free(p->k);
    free(p->zero);
    for (int i = 0; i < N_SAMPLE; i++) {
        free(p->phi[i]);
        free(p->pose[i]);
    }
}

static size_t at_least_1(int n) { return n > 0 ? (size_t)n : 1; }

/* φ and the poses at N_SAMPLE states: the current one, then q moved by up
 * to ±0.2 (rad or m) per coordinate, a fixed sequence: wrong pairs miss by
 * about that much, a right one fits to rounding. */
static int probe_run(probe *p, rs_ws *ws, const rs_stress_spec *spec, char *err, size_t errlen)
{
    const rs_model *m = p->m = rs_ws_model(ws);
    const int nq = m->n_q, nmax = nq > m->n_s ? nq : m->n_s;
    p->t = rs_ws_time(ws);
    if (!(p->q = calloc(at_least_1(nq), sizeof *p->q)) || !(p->k = calloc(at_least_1(m->n_const), sizeof *p->k)) ||
        !(p->zero = calloc(at_least_1(nmax), sizeof *p->zero)))
        return rs_fail(err, errlen, RS_E_NOMEM, "stress: out of memory");
    for (int i = 0; i < N_SAMPLE; i++)
        if (!(p->phi[i] = calloc(at_least_1(m->n_phi), sizeof(double))) ||
            !(p->pose[i] = calloc(at_least_1(12 * m->n_body), sizeof(double))))
            return rs_fail(err, errlen, RS_E_NOMEM, "stress: out of memory");
    p->in[RS_IN_T] = &p->t;
    p->in[RS_IN_Q] = p->q;
    p->in[RS_IN_QD] = nq ? rs_ws_qd(ws) : p->zero;
    p->in[RS_IN_QDD] = p->zero;
    p->in[RS_IN_S] = m->n_s ? rs_ws_s(ws) : p->zero;
    p->in[RS_IN_SD] = m->n_s ? rs_ws_sd(ws) : p->zero;
    p->in[RS_IN_SDD] = p->zero;
    p->in[RS_IN_P] = m->n_p ? rs_ws_p(ws) : p->zero;
    p->in[RS_IN_U] = m->n_u ? rs_ws_u(ws) : p->zero;
    p->in[RS_IN_CONST] = p->k;
    p->in[RS_IN_CACHE] = p->zero;
    double *ko[1] = {p->k};
    if (m->n_const && (!m->fn[RS_FN_CONSTANTS].fn || m->fn[RS_FN_CONSTANTS].fn(p->in, ko) != RS_ABI_OK))
        return rs_fail_at(err, errlen, RS_E_MODEL, spec->file, spec->line,
                          "stress %s: the model's constants cannot be evaluated", spec->name);
    const double *q0 = rs_ws_q(ws);
    unsigned long long seed = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < N_SAMPLE; i++) {
        for (int j = 0; j < nq; j++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            const double u = (double)(seed >> 11) / 9007199254740992.0;   /* [0, 1) */
            p->q[j] = q0[j] + (i ? 0.4 * u - 0.2 : 0);
        }
        double *po[1] = {p->phi[i]}, *pp[1] = {p->pose[i]};
        if (m->fn[RS_FN_PHI].fn(p->in, po) != RS_ABI_OK || m->fn[RS_FN_BODY_POSE].fn(p->in, pp) != RS_ABI_OK)
            return rs_fail_at(err, errlen, RS_E_MODEL, spec->file, spec->line,
                              "stress %s: the model's constraints or body poses cannot be evaluated", spec->name);
    }
    return RS_OK;
}

/* Solves the 6 × 6 symmetric positive semi-definite a x = b (a ridge
 * keeps the directions the samples do not see at 0). */
static void solve6(double a[6][6], double b[6], double x[6])
{
    double tr = 0;
    for (int i = 0; i < 6; i++)
        tr += a[i][i];
    for (int i = 0; i < 6; i++)
        a[i][i] += 1e-12 * (tr / 6 + 1e-300);
    for (int c = 0; c < 6; c++) {   /* Gauss without pivoting: a is positive definite now */
        for (int r = c + 1; r < 6; r++) {
            const double f = a[r][c] / a[c][c];
            for (int j = c; j < 6; j++)
                a[r][j] -= f * a[c][j];
            b[r] -= f * b[c];
        }
    }
    for (int r = 5; r >= 0; r--) {
        double s = b[r];
        for (int j = r + 1; j < 6; j++)
            s -= a[r][j] * x[j];
        x[r] = s / a[r][r];
    }
}

/* Does σ φ = (r_Y + R_Y d_Y) − (r_X + R_X d_X) hold over the samples
 * (X, Y bodies, -1 ground)?  d_Y into dy when it does. */
static int fits(const probe *p, const int row[3], int y, int x, double sigma, double dy[3])
{
    static const double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, Z[3] = {0, 0, 0};
    double a[6][6] = {{0}}, b[6] = {0}, d[6];
    double scale = 1e-3;
    for (int pass = 0; pass < 2; pass++) {
        double res = 0;
        for (int i = 0; i < N_SAMPLE; i++) {
            const double *ry = y >= 0 ? p->pose[i] + 12 * y : Z, *Ry = y >= 0 ? p->pose[i] + 12 * y + 3 : I;
            const double *rx = x >= 0 ? p->pose[i] + 12 * x : Z, *Rx = x >= 0 ? p->pose[i] + 12 * x + 3 : I;
            for (int c = 0; c < 3; c++) {
                if (row[c] < 0)
                    continue;
                const double rhs = sigma * p->phi[i][row[c]] - (ry[c] - rx[c]);
                double e[6];
                for (int j = 0; j < 3; j++) {
                    e[j] = Ry[3 * c + j];
                    e[3 + j] = -Rx[3 * c + j];
                }
                if (pass == 0) {
                    scale = fmax(scale, fmax(fabs(rhs), fabs(ry[c] - rx[c])));
                    for (int r = 0; r < 6; r++) {
                        b[r] += e[r] * rhs;
                        for (int j = 0; j < 6; j++)
                            a[r][j] += e[r] * e[j];
                    }
                } else {
                    double s = -rhs;
                    for (int j = 0; j < 6; j++)
                        s += e[j] * d[j];
                    res = fmax(res, fabs(s));
                }
            }
        }
        if (pass == 0)
            solve6(a, b, d);
        else if (!(res <= 1e-9 * scale))
            return 0;
    }
    memcpy(dy, d, 3 * sizeof *dy);
    return 1;
}

static const char *body_name(const rs_model *m, int b) { return b >= 0 ? m->body_names[b] : "ground"; }

int rs_stress_reaction_bind(rs_ws *ws, const rs_stress_spec *spec, int k, rs_stress_reaction *r, char *err,
                            size_t errlen)
{
    const rs_model *m = rs_ws_model(ws);
    const char *name = spec->load[k].output;
    memset(r, 0, sizeof *r);
    /* the constraint's rows: NAME.x, NAME.y, NAME.z */
    int found = 0, other_rows = 0;
    char want[RS_STRESS_NAME + 3];
    for (int c = 0; c < 3; c++) {
        snprintf(want, sizeof want, "%s.%c", name, "xyz"[c]);
        r->row[c] = -1;
        for (int i = 0; i < m->n_phi; i++)
            if (strcmp(m->phi_names[i], want) == 0) {
                r->row[c] = i;
                found++;
            }
    }
    const size_t len = strlen(name);
    for (int i = 0; !found && i < m->n_phi; i++)
        other_rows += strcmp(m->phi_names[i], name) == 0 ||
                      (strncmp(m->phi_names[i], name, len) == 0 && m->phi_names[i][len] == '.');
    if (!found && other_rows)
        return rs_fail_at(err, errlen, RS_E_UNSUPPORTED, spec->file, spec->line,
                          "stress %s: constraint '%s' is not a vector closing constraint (rows %s.x/.y/.z): 'load "
                          "reaction' takes one written 'constraint %s = pos(A, P)' in the .vdl; give another "
                          "force as a vector output with 'load OUTPUT at S'",
                          spec->name, name, name, name);
    if (!found) {
        const char *sug = m->n_phi ? rs_closest_name(want, m->phi_names, m->n_phi) : NULL;
        if (sug) {
            char g[RS_STRESS_NAME + 8];
            snprintf(g, sizeof g, "%s", sug);
            char *dot = strrchr(g, '.');
            if (dot && dot[1] && !dot[2] && strchr("xyz", dot[1]))
                *dot = '\0';
            return rs_fail_at(err, errlen, RS_E_NOTFOUND, spec->file, spec->line,
                              "stress %s: unknown constraint '%s' for a reaction load (did you mean '%s'?)",
                              spec->name, name, g);
        }
        return rs_fail_at(err, errlen, RS_E_NOTFOUND, spec->file, spec->line,
                          "stress %s: the model has no constraint '%s' for a reaction load: close the loop in the "
                          ".vdl with 'constraint %s = pos(A, P)' (A, P points of two bodies)",
                          spec->name, name, name);
    }
    /* the body */
    r->body = -1;
    for (int b = 0; b < m->n_body; b++)
        if (strcmp(m->body_names[b], spec->body) == 0)
            r->body = b;
    if (r->body < 0) {
        const char *sug = m->n_body ? rs_closest_name(spec->body, m->body_names, m->n_body) : NULL;
        return rs_fail_at(err, errlen, RS_E_NOTFOUND, spec->file, spec->line,
                          "stress %s: a reaction load needs 'body' to name a body of the model, not '%s'%s%s%s%s",
                          spec->name, spec->body, sug ? " (did you mean '" : "", sug ? sug : "", sug ? "'?)" : "",
                          m->fn[RS_FN_BODY_POSE].fn ? "" : "; the model has no body poses: compile it again");
    }
    if (!m->fn[RS_FN_PHI].fn || !m->fn[RS_FN_BODY_POSE].fn)   /* a hand-made descriptor without them */
        return rs_fail_at(err, errlen, RS_E_MODEL, spec->file, spec->line,
                          "stress %s: model '%s' has no constraint or body pose functions for a reaction load: "
                          "compile it again with this railsym",
                          spec->name, m->name);
    probe p;
    memset(&p, 0, sizeof p);
    int st = probe_run(&p, ws, spec, err, errlen);
    int hit[2] = {0, 0};
    double at[2][3];
    char other[2][64];
    for (int s = 0; !st && s < 2; s++)
        for (int x = -1; x < m->n_body && !hit[s]; x++)
            if (x != r->body && fits(&p, r->row, r->body, x, s ? -1.0 : 1.0, at[s])) {
                hit[s] = 1;
                snprintf(other[s], sizeof other[s], "%s", body_name(m, x));
            }
    if (!st && hit[0] && hit[1])
        st = rs_fail_at(err, errlen, RS_E_UNSUPPORTED, spec->file, spec->line,
                        "stress %s: constraint '%s' fits both ways round on body %s (%s and %s): its reaction's "
                        "sign is ambiguous; give the force as a vector output with 'load OUTPUT at S'",
                        spec->name, name, spec->body, other[0], other[1]);
    if (!st && !hit[0] && !hit[1]) {
        /* which bodies it does join, for the message */
        int jy = -2, jx = -2;
        for (int y = -1; y < m->n_body && jy == -2; y++)
            for (int x = -1; x < m->n_body && jy == -2; x++)
                if (x != y && fits(&p, r->row, y, x, 1.0, at[0])) {
                    jy = y;
                    jx = x;
                }
        if (jy != -2)
            st = rs_fail_at(err, errlen, RS_E_ARG, spec->file, spec->line,
                            "stress %s: constraint '%s' joins %s and %s, not body %s: a reaction load is the force "
                            "of a constraint on the component's own body (the reaction of %s's joint to its parent "
                            "is the 'fix' support)",
                            spec->name, name, body_name(m, jy), body_name(m, jx), spec->body, spec->body);
        else
            st = rs_fail_at(err, errlen, RS_E_UNSUPPORTED, spec->file, spec->line,
                            "stress %s: constraint '%s' is not the position difference of two points fixed on "
                            "bodies (ground components, 'constraint %s = pos(A, P)'): its reaction on %s is not a "
                            "force at one point; give it as a vector output with 'load OUTPUT at S'",
                            spec->name, name, name, spec->body);
    }
    if (!st) {
        const int s = hit[0] ? 0 : 1;
        r->sign = s ? 1.0 : -1.0;   /* σ = +1: B holds P, bears −λ */
        /* the ridge leaves its trace, ~1e-10 of the lengths, where the
         * samples see a direction weakly: below the fit's own precision, 0 */
        const double big = 1 + fmax(fabs(at[s][0]), fmax(fabs(at[s][1]), fabs(at[s][2])));
        for (int c = 0; c < 3; c++)
            r->at[c] = fabs(at[s][c]) < 1e-8 * big ? 0 : at[s][c];
        memcpy(r->other, other[s], sizeof r->other);   /* both 64, NUL-terminated */
    }
    probe_free(&p);
    return st;
}

void rs_stress_reaction_force(const rs_stress_reaction *r, const double *lambda, const double *pose, double f[3])
{
    const double *R = pose + 12 * r->body + 3;   /* columns: the body's axes in ground */
    double g[3];
    for (int c = 0; c < 3; c++)
        g[c] = r->row[c] >= 0 ? r->sign * lambda[r->row[c]] : 0;
    for (int j = 0; j < 3; j++)
        f[j] = R[j] * g[0] + R[3 + j] * g[1] + R[6 + j] * g[2];
}
