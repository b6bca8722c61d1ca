/*
 * rs_train_natural.c — the 'formulation natural' runner (see
 * rs_train_natural.h): the spec's vehicles and couplers into rs_ltrain,
 * then the loop of rs_train_run (steps, output rows, progress, the partial
 * file on failure) over it.
 */
#define _POSIX_C_SOURCE 200809L

#include "rs_train_natural.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_clock.h"
#include "rs_cores.h"
#include "rs_error.h"
#include "rs_progress.h"
#include "rs_results.h"

static const char *const method_name[] = {"artificial", "direct", "hmm", "resolved", "cg"};

/* One row: x, v per vehicle, then tension and elongation per coupler
 * (4n − 2 values); values has 2n more for the speeds and tensions. */
static int row(rs_ltrain *lt, double *values)
{
    const int n = rs_ltrain_vehicles(lt);
    double *v = values + 4 * n - 2, *T = v + n;
    const int st = rs_ltrain_eval(lt, v, T, NULL);
    if (st != RS_OK)
        return st;
    const double *s = rs_ltrain_coords(lt);
    for (int i = 0; i < n; i++) {
        values[2 * i] = s[i];
        values[2 * i + 1] = v[i];
    }
    for (int c = 0; c + 1 < n; c++) {
        values[2 * n + 2 * c] = T[c];
        values[2 * n + 2 * c + 1] = s[c] - s[c + 1] - rs_ltrain_distance(lt, c);
    }
    return RS_OK;
}

int rs_train_natural_run(const rs_train_natural_job *S, rs_train_natural_report *rep, char *err, size_t errlen)
{
    const rs_train_natural_job *cfg = S;   /* the run's side of the job */
    rs_train_natural_report r;
    memset(&r, 0, sizeof r);
    const int nv = S->nv, ncol = 4 * nv - 2;
    const rs_ltrain_method me = S->method;
    r.threads = rs_cores_cap(cfg->threads, NULL);
    for (int v = 0; v < nv; v++)
        if (S->veh[v].model) {
            *rep = r;
            return rs_fail_at(err, errlen, RS_E_ARG, S->file, 0,
                              "vehicle '%s' is a compiled model, and 'formulation natural' has one coordinate per "
                              "vehicle: use the built-in wagon and loco, or remove 'formulation natural' (the Park "
                              "step takes compiled vehicles)",
                              S->vname[v]);
        }
    const char **vnames = malloc((size_t)nv * sizeof *vnames);
    char **names = calloc((size_t)ncol + 1, sizeof *names);
    const char **units = calloc((size_t)ncol + 1, sizeof *units);
    /* a row, then room for the speeds and the tensions (row()) */
    double *values = malloc(((size_t)ncol + 2 * (size_t)nv + 1) * sizeof *values);
    rs_ltrain *lt = NULL;
    rs_results *res = NULL;
    int st = RS_OK;
    if (!vnames || !names || !units || !values) {
        st = rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
        goto done;
    }
    for (int v = 0; v < nv; v++)
        vnames[v] = S->vname[v];
    rs_ltrain_config lc;
    rs_ltrain_config_default(&lc);
    lc.n = nv;
    lc.veh = S->veh;
    lc.cpl = S->cpl;
    lc.names = vnames;
    lc.method = me;
    lc.threads = r.threads;
    lc.tol = S->tolerance;
    lc.max_iter = S->iterations;
    lc.macro_step = S->step;
    char msg[1024];
    st = rs_ltrain_create(&lt, &lc, msg, sizeof msg);
    if (st != RS_OK) {
        rs_fail_at(err, errlen, st, S->file, 0, "formulation natural, solver %s: %s%s", method_name[me], msg,
                   me == RS_LTRAIN_HMM ? " (in a train file, 'step' is the macro step)" : "");
        goto done;
    }
    rs_ltrain_start(lt, 0.0, 0.0, S->speed);
    int k = 0, bad = 0;
    char buf[200];
    for (int v = 0; v < nv && !bad; v++)
        for (int j = 0; j < 2 && !bad; j++) {
            snprintf(buf, sizeof buf, "%s.%s", S->vname[v], j ? "v" : "x");
            units[k] = j ? "m/s" : "m";
            bad = !(names[k++] = strdup(buf));
        }
    for (int c = 0; c + 1 < nv && !bad; c++)
        for (int j = 0; j < 2 && !bad; j++) {
            snprintf(buf, sizeof buf, "%s.%s", S->cname[c], j ? "elongation" : "force");
            units[k] = j ? "m" : "N";
            bad = !(names[k++] = strdup(buf));
        }
    if (bad) {
        st = rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
        goto done;
    }
    st = rs_results_open(&res, cfg->out, ncol, (const char *const *)names, units,
                         cfg->out_in_place ? RS_RESULTS_IN_PLACE : 0, err, errlen);
    if (st != RS_OK)
        goto done;
    char partial[4200];   /* where a failed run's rows go */
    rs_results_partial_path(cfg->out, partial, sizeof partial);
    if (cfg->out_in_place)
        snprintf(partial, sizeof partial, "%s", cfg->out);
    const long steps = lround(S->duration / S->step);
    const long every = S->output > 0.0 ? (lround(S->output / S->step) > 0 ? lround(S->output / S->step) : 1) : 1;
    r.t_start = r.t_end = rs_ltrain_time(lt);
    if ((st = row(lt, values)) != RS_OK || rs_results_row(res, r.t_start, values) != RS_OK)
        goto row_error;
    r.rows++;
    rs_progress pr;
    rs_progress_start(&pr, &cfg->log, cfg->progress, 2.0, 1.0, r.t_start, r.t_start + (double)steps * S->step);
    for (long s = 1; s <= steps; s++) {
        const double w0 = rs_now_s();
        st = rs_ltrain_step(lt, S->step, msg, sizeof msg);
        r.wall_s += rs_now_s() - w0;
        if (st != RS_OK) {
            rs_progress_end(&pr, r.steps, rs_ltrain_time(lt));
            rs_fail_at(err, errlen, st, S->file, 0,
                       "simulation failed (%s): %s; '%s' holds the results up to t = %.10g s", rs_status_name(st),
                       msg, partial, r.t_end);
            goto done;
        }
        r.steps++;
        rs_progress_tick(&pr, rs_ltrain_time(lt));
        if (s % every == 0 || s == steps) {
            if ((st = row(lt, values)) != RS_OK || rs_results_row(res, rs_ltrain_time(lt), values) != RS_OK) {
                rs_progress_end(&pr, r.steps, rs_ltrain_time(lt));
                goto row_error;
            }
            r.rows++;
            r.t_end = rs_ltrain_time(lt);
        }
    }
    rs_progress_end(&pr, r.steps, rs_ltrain_time(lt));
    r.iters_per_step = r.steps ? (double)rs_ltrain_get_stats(lt).iters / (double)r.steps : 0.0;
    st = RS_OK;
    goto done;
row_error:
    if (st != RS_OK)   /* the output's direct solve */
        st = rs_fail_at(err, errlen, st, S->file, 0, "the coupler forces at t = %.10g s: A is singular",
                        rs_ltrain_time(lt));
    else
        st = rs_fail(err, errlen, rs_results_status(res) == RS_E_NOMEM ? RS_E_NOMEM : RS_E_IO,
                     "cannot write '%s' (disk full or file size limit?): %ld rows written", cfg->out, r.rows);
done:
    if (res) {
        char cmsg[1024], left[4200];
        const int cst = rs_results_close(&res, st == RS_OK, left, sizeof left, cmsg, sizeof cmsg);
        if (cst && st == RS_OK)
            st = rs_fail(err, errlen, cst, "%s; what was written is in '%s'", cmsg, left[0] ? left : "(nothing)");
    }
    for (int i = 0; names && i < ncol; i++)
        free(names[i]);
    free(names);
    free(units);
    free(values);
    free(vnames);
    rs_ltrain_free(&lt);
    *rep = r;
    return st;
}
