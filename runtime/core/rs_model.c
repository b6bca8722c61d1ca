/*
 * rs_model.c — checks of a model descriptor and name look-up.
 *
 * Validation is the always-on check at the public entry (rs_ws_create and
 * the loaders): it says which field is wrong, so a stale generated folder or
 * a hand-written descriptor fails with a message instead of a crash.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "rs_error.h"
#include "rs_ws.h"

/* Function names for messages, by id (the ABI's one list). */
static const char *const fname[RS_FN_COUNT] = RS_FN_NAMES;

const char *rs_fn_name(int id)
{
    return id >= 0 && id < RS_FN_COUNT ? fname[id] : "?";
}

/* "model 'NAME': message", status RS_E_MODEL. */
static int fail(char *err, size_t errlen, const char *name, const char *fmt, ...) RS_PRINTF(4, 5);
static int fail(char *err, size_t errlen, const char *name, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return rs_fail(err, errlen, RS_E_MODEL, "model '%s': %s", name ? name : "?", msg);
}

/* CSC pattern of nrow × ncol, rows strictly increasing in each column. */
static int check_pattern(const rs_pattern *pat, int nrow, int ncol,
                         const char *mname, const char *pname, char *err, size_t errlen)
{
    if (pat->nrow != nrow || pat->ncol != ncol)
        return fail(err, errlen, mname, "%s is %d x %d, expected %d x %d", pname,
                    pat->nrow, pat->ncol, nrow, ncol);
    if (ncol == 0 || (nrow == 0 && !pat->colptr))
        return RS_OK; /* empty: no constraints need no pattern arrays */
    if (!pat->colptr || pat->colptr[0] != 0)
        return fail(err, errlen, mname, "%s: colptr missing or colptr[0] != 0", pname);
    if (pat->colptr[ncol] > 0 && !pat->rowind)
        return fail(err, errlen, mname, "%s: rowind missing", pname);
    for (int j = 0; j < ncol; j++) {
        if (pat->colptr[j + 1] < pat->colptr[j])
            return fail(err, errlen, mname, "%s: colptr decreases at column %d", pname, j);
        for (int k = pat->colptr[j]; k < pat->colptr[j + 1]; k++) {
            int r = pat->rowind[k];
            if (r < 0 || r >= nrow || (k > pat->colptr[j] && r <= pat->rowind[k - 1]))
                return fail(err, errlen, mname,
                            "%s: row index %d of column %d out of range or not increasing", pname, r, j);
        }
    }
    return RS_OK;
}

static int check_names(const char *const *names, int n, const char *mname,
                       const char *kind, char *err, size_t errlen)
{
    if (n > 0 && !names)
        return fail(err, errlen, mname, "%d %s but no names", n, kind);
    for (int i = 0; i < n; i++)
        if (!names[i] || !names[i][0])
            return fail(err, errlen, mname, "%s name %d missing", kind, i);
    return RS_OK;
}

/* A units array: NULL, or n strings ("" where unknown, never NULL). */
static int check_units(const char *const *units, int n, const char *mname, const char *field,
                       char *err, size_t errlen)
{
    for (int i = 0; units && i < n; i++)
        if (!units[i])
            return fail(err, errlen, mname, "%s[%d] is NULL (\"\" for an unknown unit)", field, i);
    return RS_OK;
}

/* The combined functions (RS_FN_STEP, _PROJ, _NEWTON, _STEP_CACHED,
 * _STEP_ELASTIC): every out[k]'s length, since the runtime hands each its
 * own array (step_elastic's wheel Jacobian: the length of wheel_jac_pattern,
 * so it needs RS_FN_WHEEL). */
static int check_combined(const rs_model *m, int nnzM, int nnzG, char *err, size_t errlen)
{
    const int nc = m->n_contact, nq = m->n_q, nphi = m->n_phi;
    const int nDq = nc > 0 ? m->phi_d_q_pattern.colptr[nq] : 0;
    const int nDf = nc > 0 ? m->ddelta_df_pattern.colptr[3 * nc] : 0;
    const int nNq = nc > 0 ? m->dnu_dqd_pattern.colptr[nq] : 0;
    const int step[9] = {nnzM, nq, nnzG, nphi, 3 * nc, nc, 3 * nc, nDf, nNq};
    const int cached = m->fn[RS_FN_STEP_CACHED].fn != NULL;
    const int K = cached && m->fn[RS_FN_PROJ].fn && m->fn[RS_FN_PROJ].n_out == 8 ?
                      m->fn[RS_FN_PROJ].out_len[7] : 0;
    const int proj[8] = {4 * nc, nphi, nnzG, nphi, 16 * nc, nDq, 4 * nc, K};
    const int newton[2] = {4 * nc, 16 * nc};
    const int nJw = nc > 0 && m->fn[RS_FN_WHEEL].fn ? m->wheel_jac_pattern.colptr[nq] : -1;
    const int step_elastic[6] = {nnzM, nq, 12 * nc, 6 * nc, nJw, 2 * nc};
    const struct {
        int id, n;
        const int *len;
    } c[5] = {{RS_FN_STEP, nc > 0 ? 9 : nphi > 0 ? 4 : 2, step},
              {RS_FN_PROJ, cached ? 8 : 7, proj},
              {RS_FN_NEWTON, 2, newton},
              {RS_FN_STEP_CACHED, 9, step},
              {RS_FN_STEP_ELASTIC, 6, step_elastic}};
    if (cached && (K < 1 || !m->fn[RS_FN_STEP].fn))
        return fail(err, errlen, m->name,
                    "combined function step_cached without step, or without proj's cache output");
    if (m->fn[RS_FN_STEP_ELASTIC].fn && nJw < 0)
        return fail(err, errlen, m->name,
                    "combined function step_elastic without the wheel function (RS_FN_WHEEL)");
    for (int i = 0; i < 5; i++) {
        const rs_func *fn = &m->fn[c[i].id];
        if (!fn->fn)
            continue;
        int ok = fn->n_out == c[i].n && (c[i].id == RS_FN_STEP || nc > 0);
        for (int k = 0; ok && k < c[i].n; k++)
            ok = fn->out_len[k] == c[i].len[k];
        if (!ok)
            return fail(err, errlen, m->name, "combined function %s: %d output(s) or a length differ "
                        "from the model's sizes (expected %d outputs)", fname[c[i].id], fn->n_out, c[i].n);
    }
    return RS_OK;
}

int rs_model_validate(const rs_model *m, char *err, size_t errlen)
{
    int st;
    if (!m)
        return fail(err, errlen, NULL, "descriptor is NULL");
    if (m->magic != RS_MODEL_MAGIC)
        return fail(err, errlen, NULL, "bad magic: not an rs_model descriptor");
    if (m->version != RS_MODEL_VERSION)
        return fail(err, errlen, m->name, "descriptor version %u, runtime expects %u: regenerate the model",
                    m->version, (unsigned)RS_MODEL_VERSION);
    if (!m->name || !m->name[0])
        return fail(err, errlen, NULL, "model has no name");
    if (m->n_q < 1 || m->n_s < 0 || m->n_p < 0 || m->n_u < 0 || m->n_const < 0 ||
        m->n_phi < 0 || m->n_out < 0)
        return fail(err, errlen, m->name, "negative size, or no coordinate");
    if ((st = check_names(m->q_names, m->n_q, m->name, "coordinates", err, errlen)) ||
        (st = check_names(m->s_names, m->n_s, m->name, "auxiliary coordinates", err, errlen)) ||
        (st = check_names(m->p_names, m->n_p, m->name, "parameters", err, errlen)) ||
        (st = check_names(m->u_names, m->n_u, m->name, "inputs", err, errlen)) ||
        (st = check_names(m->phi_names, m->n_phi, m->name, "constraints", err, errlen)) ||
        (st = check_names(m->output_names, m->n_out, m->name, "outputs", err, errlen)))
        return st;
    if (m->n_p > 0 && !m->p_default)
        return fail(err, errlen, m->name, "parameters without default values");
    /* internal states: each in its own input slot, named as that input */
    if (m->n_z < 0 || (m->n_z > 0 && (!m->z_slot || !m->z_names)))
        return fail(err, errlen, m->name, "internal states (n_z, z_slot, z_names) incomplete");
    for (int i = 0; i < m->n_z; i++) {
        const int u = m->z_slot[i];
        if (u < 0 || u >= m->n_u || rs_model_z_of_u(m, u) != i || !m->z_names[i] ||
            strcmp(m->z_names[i], m->u_names[u]) != 0 || (m->z0 && !isfinite(m->z0[i])))
            return fail(err, errlen, m->name,
                        "internal state %d: its input slot, name or initial value is invalid", i);
    }
    if ((st = check_units(m->z_units, m->n_z, m->name, "z_units", err, errlen)))
        return st;
    if (m->n_plugin < 0 || (m->n_plugin > 0 && (!m->plugins || !m->fn[RS_FN_OUTPUTS].fn)))
        return fail(err, errlen, m->name, "plugin forces (n_plugin, plugins, the outputs function) incomplete");
    for (int i = 0; i < m->n_plugin; i++) {
        const rs_model_plugin *g = &m->plugins[i];
        int ok = g->name && g->library && g->n_param >= 0 && (g->n_param == 0 || g->param) && g->n_state >= 0 &&
                 g->out_x >= 0 && g->out_x < m->n_out && g->out_v >= 0 && g->out_v < m->n_out;
        for (int k = 0; k < 5; k++)
            ok = ok && g->u_slot[k] >= 0 && g->u_slot[k] < m->n_u;
        if (!ok)
            return fail(err, errlen, m->name, "plugin force %d: its name, library, params, input slots or outputs "
                        "are invalid", i);
    }
    /* the initial state (optional: NULL is all zero) must be numbers */
    for (int i = 0; i < m->n_q; i++)
        if ((m->q0 && !isfinite(m->q0[i])) || (m->qd0 && !isfinite(m->qd0[i])))
            return fail(err, errlen, m->name, "initial state of coordinate %d (q0 or qd0) is not finite", i);
    /* units (optional: NULL is all unknown): one string per symbol */
    if ((st = check_units(m->q_units, m->n_q, m->name, "q_units", err, errlen)) ||
        (st = check_units(m->s_units, m->n_s, m->name, "s_units", err, errlen)) ||
        (st = check_units(m->p_units, m->n_p, m->name, "p_units", err, errlen)) ||
        (st = check_units(m->u_units, m->n_u, m->name, "u_units", err, errlen)) ||
        (st = check_units(m->output_units, m->n_out, m->name, "output_units", err, errlen)))
        return st;
    if ((st = check_pattern(&m->M_pattern, m->n_q, m->n_q, m->name, "M_pattern", err, errlen)) ||
        (st = check_pattern(&m->phi_q_pattern, m->n_phi, m->n_q, m->name, "phi_q_pattern",
                            err, errlen)))
        return st;

    /* Length of out[0] each function must write; -1: function optional. */
    const int nnzM = m->M_pattern.colptr[m->n_q];
    const int nnzG = m->n_phi > 0 ? m->phi_q_pattern.colptr[m->n_q] : 0;
    if (m->n_contact < 0 || (m->n_contact > 0 && !m->contacts))
        return fail(err, errlen, m->name, "contact table missing");
    const int nc = m->n_contact;
    if (nc > 0 &&
        ((st = check_pattern(&m->phi_d_q_pattern, 4 * nc, m->n_q, m->name, "phi_d_q_pattern", err, errlen)) ||
         (st = check_pattern(&m->ddelta_df_pattern, m->n_q, 3 * nc, m->name, "ddelta_df_pattern", err, errlen)) ||
         (st = check_pattern(&m->dnu_dqd_pattern, 3 * nc, m->n_q, m->name, "dnu_dqd_pattern", err, errlen))))
        return st;
    const int has_wheel = nc > 0 && m->fn[RS_FN_WHEEL].fn != NULL;
    if (has_wheel &&
        (st = check_pattern(&m->wheel_jac_pattern, 6 * nc, m->n_q, m->name, "wheel_jac_pattern", err, errlen)))
        return st;
    for (int i = 0; i < nc; i++)
        if (m->contacts[i].elastic != 0 && m->contacts[i].elastic != 1)
            return fail(err, errlen, m->name, "a contact's elastic flag is neither 0 nor 1");
    const int has_jac = m->fn[RS_FN_DELTA_JAC].fn != NULL;
    if (has_jac &&
        ((st = check_pattern(&m->K_pattern, m->n_q, m->n_q, m->name, "K_pattern", err, errlen)) ||
         (st = check_pattern(&m->C_pattern, m->n_q, m->n_q, m->name, "C_pattern", err, errlen))))
        return st;
    const int need[RS_FN_COUNT] = {
        [RS_FN_M] = nnzM, [RS_FN_DELTA] = m->n_q, [RS_FN_PHI] = m->n_phi,
        [RS_FN_PHI_Q] = nnzG, [RS_FN_BETA] = m->n_phi, [RS_FN_GAMMA] = m->n_phi,
        [RS_FN_ENERGY] = 1, [RS_FN_OUTPUTS] = m->n_out, [RS_FN_CONSTANTS] = m->n_const,
        [RS_FN_DELTA_NK] = m->n_q, [RS_FN_PHI_D] = 4 * nc,
        [RS_FN_PHI_D_Q] = nc > 0 ? m->phi_d_q_pattern.colptr[m->n_q] : 0,
        [RS_FN_PHI_D_S] = 16 * nc, [RS_FN_BETA_D] = 4 * nc, [RS_FN_CREEP] = 3 * nc,
        [RS_FN_DELTA_JAC] = has_jac ? m->K_pattern.colptr[m->n_q] : 0,
        [RS_FN_STEP] = nnzM, [RS_FN_PROJ] = 4 * nc, [RS_FN_NEWTON] = 4 * nc,
        [RS_FN_POWER] = RS_POWER_COUNT, [RS_FN_STEP_CACHED] = nnzM, [RS_FN_WHEEL] = 12 * nc,
        [RS_FN_STEP_ELASTIC] = nnzM, [RS_FN_PARAMS] = m->n_p, [RS_FN_ZDOT] = m->n_z,
        [RS_FN_INERTIA] = rs_model_inertia_count(m), [RS_FN_BODY_POSE] = 12 * m->n_body};
    const int required[RS_FN_COUNT] = {
        [RS_FN_M] = 1, [RS_FN_DELTA] = 1, [RS_FN_PHI] = m->n_phi > 0,
        [RS_FN_PHI_Q] = m->n_phi > 0, [RS_FN_BETA] = m->n_phi > 0,
        [RS_FN_GAMMA] = m->n_phi > 0, [RS_FN_OUTPUTS] = m->n_out > 0,
        [RS_FN_CONSTANTS] = m->n_const > 0, [RS_FN_DELTA_NK] = nc > 0, [RS_FN_PHI_D] = nc > 0,
        [RS_FN_PHI_D_Q] = nc > 0, [RS_FN_PHI_D_S] = nc > 0, [RS_FN_BETA_D] = nc > 0,
        [RS_FN_CREEP] = nc > 0, [RS_FN_ZDOT] = m->n_z > 0, [RS_FN_BODY_POSE] = m->n_body > 0};
    for (int f = 0; f < RS_FN_COUNT; f++) {
        const rs_func *fn = &m->fn[f];
        if (!fn->fn) {
            if (required[f])
                return fail(err, errlen, m->name, "function %s is required but missing", fname[f]);
            continue;
        }
        if (fn->n_out < 1 || fn->n_out > RS_FN_MAX_OUT || !fn->out_len || fn->out_len[0] != need[f] ||
            (f == RS_FN_ENERGY && (fn->n_out < 2 || fn->out_len[1] != 1)) ||
            (f == RS_FN_DELTA_JAC && (fn->n_out < 2 || fn->out_len[1] != m->C_pattern.colptr[m->n_q])) ||
            (f == RS_FN_ZDOT && (fn->n_out != 2 || fn->out_len[1] != m->n_z)) ||
            (f == RS_FN_WHEEL && (fn->n_out != 4 || fn->out_len[1] != 6 * nc ||
                                  fn->out_len[2] != m->wheel_jac_pattern.colptr[m->n_q] ||
                                  fn->out_len[3] != 2 * nc)) ||
            (f == RS_FN_INERTIA && (fn->n_out != 2 || fn->out_len[1] != 6 * need[f])))
            return fail(err, errlen, m->name,
                        "function %s writes %d output(s), out[0] of length %d; expected length %d%s",
                        fname[f], fn->n_out, fn->out_len && fn->n_out > 0 ? fn->out_len[0] : -1,
                        need[f], f == RS_FN_ENERGY ? " and out[1] of length 1" : "");
    }
    if (m->n_body < 0 || (m->n_body > 0 && !m->body_names))
        return fail(err, errlen, m->name, "n_body is %d with body_names %s", m->n_body,
                    m->body_names ? "set" : "NULL");
    for (int i = 0; i < m->n_body; i++)
        if (!m->body_names[i])
            return fail(err, errlen, m->name, "body_names[%d] is NULL", i);
    if (m->fn[RS_FN_INERTIA].fn) {
        if (!m->inertia_bodies)
            return fail(err, errlen, m->name, "function %s is present but inertia_bodies is NULL", fname[RS_FN_INERTIA]);
        for (int i = 0; i < need[RS_FN_INERTIA]; i++)
            if (!m->inertia_bodies[i])
                return fail(err, errlen, m->name, "inertia_bodies[%d] is NULL", i);
            else if (m->inertia_unchecked && m->inertia_unchecked[i] != 0 && m->inertia_unchecked[i] != 1)
                return fail(err, errlen, m->name, "inertia_unchecked[%d] is %d; expected 0 or 1", i,
                            m->inertia_unchecked[i]);
    }
    return check_combined(m, nnzM, nnzG, err, errlen);
}

static int find_in(const char *const *names, int n, const char *name, size_t len)
{
    for (int i = 0; i < n; i++)
        if (strlen(names[i]) == len && strncmp(names[i], name, len) == 0)
            return i;
    return -1;
}

/* 1 when `name` is `last` or ends in ".last". */
static int last_is(const char *name, const char *last)
{
    const size_t n = strlen(name), l = strlen(last);
    if (n == l)
        return strcmp(name, last) == 0;
    return n > l && name[n - l - 1] == '.' && strcmp(name + n - l, last) == 0;
}

void rs_model_speed_coords(const rs_model *m, int *fwd, int *n_fwd, int *spin, int *n_spin, int max)
{
    *n_fwd = *n_spin = 0;
    for (int i = 0; i < m->n_q; i++) {
        if (last_is(m->q_names[i], "x") && *n_fwd < max)
            fwd[(*n_fwd)++] = i;
        else if (last_is(m->q_names[i], "spin") && *n_spin < max)
            spin[(*n_spin)++] = i;
    }
}

const char *rs_energy_var_name(const rs_model *m, int k)
{
    static const char *const name[RS_ENERGY_VAR_COUNT] = {
        "energy.kinetic", "energy.potential", "power.inputs", "power.damping", "power.creep",
        "power.other"};
    if (!m || k < 0 || k >= RS_ENERGY_VAR_COUNT)
        return "";
    return m->fn[k < RS_ENERGY_VAR_POWER ? RS_FN_ENERGY : RS_FN_POWER].fn ? name[k] : "";
}

static const char *const kContactSuffix[RS_CONTACT_VAR_COUNT] = {"xi_x", "xi_y", "spin", "N",
                                                                 "Y",    "Q",    "Y_Q",  "patches"};

const char *rs_contact_var_suffix(int k) { return k >= 0 && k < RS_CONTACT_VAR_COUNT ? kContactSuffix[k] : ""; }

static const char *const kPatchSuffix[RS_PATCH_VAR_COUNT] = {"u_w",  "u_r",  "alpha", "pen", "N", "xi_x", "xi_y",
                                                             "spin", "fx",   "fy",    "mz",  "a", "b"};

const char *rs_contact_patch_var_suffix(int q) { return q >= 0 && q < RS_PATCH_VAR_COUNT ? kPatchSuffix[q] : ""; }

int rs_model_contact_of_row(const rs_model *m, int row)
{
    for (int k = 0; m && k < m->n_contact; k++)
        if (m->contacts[k].phi_row == row)
            return k;
    return -1;
}

int rs_model_find(const rs_model *m, const char *name, rs_var *var)
{
    if (!m || !name || !var)
        return RS_E_ARG;
    size_t len = strlen(name);
    int i;
    if (strcmp(name, "time") == 0) {
        var->kind = RS_VAR_TIME;
        var->index = 0;
        return RS_OK;
    }
    if ((i = find_in(m->q_names, m->n_q, name, len)) >= 0) {
        var->kind = RS_VAR_Q;
        var->index = i;
        return RS_OK;
    }
    if ((i = find_in(m->s_names, m->n_s, name, len)) >= 0) {
        var->kind = RS_VAR_S;
        var->index = i;
        return RS_OK;
    }
    if (len > 4 && strcmp(name + len - 4, "_dot") == 0) {
        if ((i = find_in(m->q_names, m->n_q, name, len - 4)) >= 0) {
            var->kind = RS_VAR_QD;
            var->index = i;
            return RS_OK;
        }
        if ((i = find_in(m->s_names, m->n_s, name, len - 4)) >= 0) {
            var->kind = RS_VAR_SD;
            var->index = i;
            return RS_OK;
        }
    }
    if (strncmp(name, "lambda_", 7) == 0 &&
        (i = find_in(m->phi_names, m->n_phi, name + 7, len - 7)) >= 0) {
        var->kind = RS_VAR_LAMBDA;
        var->index = i;
        return RS_OK;
    }
    if ((i = find_in(m->output_names, m->n_out, name, len)) >= 0) {
        var->kind = RS_VAR_OUTPUT;
        var->index = i;
        return RS_OK;
    }
    for (int c = 0; c < m->n_contact; c++) {   /* "<contact>.<suffix>" */
        const size_t cl = strlen(m->contacts[c].name);
        if (len <= cl + 1 || strncmp(name, m->contacts[c].name, cl) != 0 || name[cl] != '.')
            continue;
        const char *rest = name + cl + 1;
        var->kind = RS_VAR_CONTACT;
        for (int k = 0; k < RS_CONTACT_VAR_COUNT; k++)
            if (strcmp(rest, kContactSuffix[k]) == 0) {
                var->index = RS_CONTACT_VAR_STRIDE * c + k;
                return RS_OK;
            }
        /* "p<j>.<quantity>" */
        if (rest[0] == 'p' && rest[1] >= '1' && rest[1] < '1' + RS_CONTACT_PATCH_MAX && rest[2] == '.')
            for (int q = 0; q < RS_PATCH_VAR_COUNT; q++)
                if (strcmp(rest + 3, kPatchSuffix[q]) == 0) {
                    var->index = RS_CONTACT_VAR_STRIDE * c + RS_CONTACT_VAR_COUNT +
                                 RS_PATCH_VAR_COUNT * (rest[1] - '1') + q;
                    return RS_OK;
                }
    }
    for (int k = 0; k < RS_ENERGY_VAR_COUNT && len > 0; k++)
        if (strcmp(name, rs_energy_var_name(m, k)) == 0) {
            var->kind = RS_VAR_ENERGY;
            var->index = k;
            return RS_OK;
        }
    if (strcmp(name, "newton_contact") == 0 || strcmp(name, "newton_position") == 0) {
        var->kind = RS_VAR_STAT;
        var->index = name[7] == 'c' ? RS_STAT_VAR_NEWTON_CONTACT : RS_STAT_VAR_NEWTON_POSITION;
        return RS_OK;
    }
    if ((i = find_in(m->p_names, m->n_p, name, len)) >= 0) {
        var->kind = RS_VAR_P;
        var->index = i;
        return RS_OK;
    }
    if ((i = find_in(m->u_names, m->n_u, name, len)) >= 0) {
        var->kind = RS_VAR_U;
        var->index = i;
        return RS_OK;
    }
    return RS_E_NOTFOUND;
}
