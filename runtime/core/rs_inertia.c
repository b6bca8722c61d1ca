/* rs_inertia.c — see rs_inertia.h. */
#include "rs_inertia.h"

#include <math.h>
#include <string.h>
#include <stdio.h>

#include "rs_abi.h"
#include "rs_error.h"
#include "rs_status.h"

void rs_principal_moments(const double c[6], double ev[3])
{
    double a[3][3] = {{c[0], c[3], c[4]}, {c[3], c[1], c[5]}, {c[4], c[5], c[2]}};
    const double scale = fabs(c[0]) + fabs(c[1]) + fabs(c[2]) + fabs(c[3]) + fabs(c[4]) + fabs(c[5]);
    for (int sweep = 0; sweep < 50; sweep++) {
        const double off = fabs(a[0][1]) + fabs(a[0][2]) + fabs(a[1][2]);
        if (!(off > 1e-15 * scale))
            break;
        for (int p = 0; p < 2; p++)
            for (int q = p + 1; q < 3; q++) {
                if (a[p][q] == 0.0)
                    continue;
                /* the rotation in the (p, q) plane that zeroes a[p][q] */
                const double theta = 0.5 * (a[q][q] - a[p][p]) / a[p][q];
                const double t = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
                const double cs = 1.0 / sqrt(t * t + 1.0), sn = t * cs;
                for (int k = 0; k < 3; k++) { /* A ← A R */
                    const double akp = a[k][p], akq = a[k][q];
                    a[k][p] = cs * akp - sn * akq;
                    a[k][q] = sn * akp + cs * akq;
                }
                for (int k = 0; k < 3; k++) { /* A ← Rᵀ A */
                    const double apk = a[p][k], aqk = a[q][k];
                    a[p][k] = cs * apk - sn * aqk;
                    a[q][k] = sn * apk + cs * aqk;
                }
            }
    }
    ev[0] = a[0][0];
    ev[1] = a[1][1];
    ev[2] = a[2][2];
    for (int i = 0; i < 2; i++) /* ascending */
        for (int j = 0; j < 2 - i; j++)
            if (ev[j] > ev[j + 1]) {
                const double x = ev[j];
                ev[j] = ev[j + 1];
                ev[j + 1] = x;
            }
}

int rs_inertia_problem(double mass, const double c[6], char *why, size_t n)
{
    if (!isfinite(mass) || !(mass > 0)) {
        snprintf(why, n, "its mass is %g kg: a body's mass must be positive and finite", mass);
        return 1;
    }
    double scale = 0;
    for (int i = 0; i < 6; i++) {
        if (!isfinite(c[i])) {
            snprintf(why, n, "its inertia tensor has a component that is not finite");
            return 1;
        }
        scale = fmax(scale, fabs(c[i]));
    }
    double ev[3];
    rs_principal_moments(c, ev);
    const double tol = 1e-9 * scale;
    if (ev[0] < -tol) {
        snprintf(why, n,
                 "its inertia tensor has a negative principal moment (principal moments %g, %g, %g kg m^2): "
                 "no body has one",
                 ev[0], ev[1], ev[2]);
        return 1;
    }
    if (ev[2] > ev[0] + ev[1] + tol) {
        snprintf(why, n,
                 "its inertia tensor breaks the triangle inequality (principal moments %g, %g, %g kg m^2; "
                 "%g > %g + %g): no body has it, since each principal moment is at most the sum of the other two",
                 ev[0], ev[1], ev[2], ev[2], ev[0], ev[1]);
        return 2;
    }
    return 0;
}

/* RS_FN_INERTIA's outputs for in[RS_IN_P] into buf (masses, then tensors). */
static int inertia_eval(const rs_model *m, const double *const in[], double *buf, char *err, size_t errlen)
{
    const int nb = rs_model_inertia_count(m);
    double *out[RS_FN_MAX_OUT] = {buf, buf + nb};
    if (m->fn[RS_FN_INERTIA].fn(in, out) != RS_ABI_OK)
        return rs_fail(err, errlen, RS_E_MODELFN, "model '%s': its inertia function failed", m->name);
    return RS_OK;
}

/* The verdict on buf (inertia_eval's layout). */
static int inertia_verdict(const rs_model *m, const double *buf, char *err, size_t errlen)
{
    const int nb = rs_model_inertia_count(m);
    for (int b = 0; b < nb; b++) {
        char why[256];
        const int r = rs_inertia_problem(buf[b], buf + nb + 6 * b, why, sizeof why);
        /* inertia_unchecked excuses the triangle inequality only (r == 2) */
        if (r == 2 && m->inertia_unchecked && m->inertia_unchecked[b])
            continue;
        if (r)
            return rs_fail(err, errlen, RS_E_VALUE,
                           "body '%s': %s; check the parameters that make it (a scenario's 'param' lines, a "
                           "sweep's values, a train file's, the description's defaults)%s",
                           m->inertia_bodies[b], why,
                           r == 2 ? ", or, to keep published values that break it, add inertia_unchecked "
                                    "\"REASON\" to the body in the description"
                                  : "");
    }
    return RS_OK;
}

int rs_inertia_check_model(const rs_model *m, const double *const in[], double *buf, char *err, size_t errlen)
{
    if (rs_model_inertia_count(m) == 0)
        return RS_OK;
    const int st = inertia_eval(m, in, buf, err, errlen);
    return st ? st : inertia_verdict(m, buf, err, errlen);
}

int rs_inertia_check_model_changed(const rs_model *m, const double *const in[], double *buf, double *passed,
                                   int *passed_valid, char *err, size_t errlen)
{
    const int nb = rs_model_inertia_count(m);
    if (nb == 0)
        return RS_OK;
    int st = inertia_eval(m, in, buf, err, errlen);
    if (st)
        return st;
    const size_t bytes = 7 * (size_t)nb * sizeof *buf;
    if (*passed_valid && memcmp(buf, passed, bytes) == 0)
        return RS_OK;
    if ((st = inertia_verdict(m, buf, err, errlen)))
        return st;
    memcpy(passed, buf, bytes);
    *passed_valid = 1;
    return RS_OK;
}
