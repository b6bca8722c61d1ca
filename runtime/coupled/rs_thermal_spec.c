/*
 * rs_thermal_spec.c — the `thermal` statement of a scenario (docs/coupled.md):
 *
 *   thermal PARAM power OUTPUT beta B [temperature PARAM2] [grid NX NY NZ]
 *           [length L] [radius R] [bore R_IN] [density RHO]
 *           [heat_capacity CP] [conductivity K] [convection H]
 *           [ambient T] [initial T] [t_ref T] [heat volume|end]
 *
 * The names are bound to the model later (rs_thermal_couple.h); here only
 * the words and numbers are checked.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "rs_error.h"
#include "rs_status.h"
#include "rs_thermal.h"

void rs_thermal_spec_default(rs_thermal_spec *s)
{
    memset(s, 0, sizeof *s);
    s->nx = s->ny = 12;
    s->nz = 40;
    s->length = 0.4;          /* m: a yaw damper's body */
    s->radius = 0.035;
    s->bore = 0.025;
    s->density = 7850;        /* steel */
    s->heat_capacity = 460;
    s->conductivity = 50;
    s->convection = 20;       /* W/(m² K): air moving past a bogie, order of magnitude */
    s->ambient = 20;
    s->initial = NAN;         /* the ambient temperature */
    s->beta = NAN;            /* required */
    s->t_ref = 20;
    s->heat = RS_THERMAL_HEAT_VOLUME;
}

static int number(const char *tok, double *x)
{
    char *end;
    *x = strtod(tok, &end);
    return end != tok && *end == '\0' && isfinite(*x);
}

static const char *const kKeys[] = {"power", "temperature", "grid", "length", "radius", "bore", "density",
                                    "heat_capacity", "conductivity", "convection", "ambient", "initial",
                                    "beta", "t_ref", "heat"};
#define N_KEYS ((int)(sizeof kKeys / sizeof kKeys[0]))
#define USAGE "e.g. 'thermal c_yaw power p_yaw beta 0.01 grid 12 12 40' (docs/coupled.md)"

static int copy_name(char *dst, const char *src, const char *file, int line, const char *what, char *err,
                     size_t errlen)
{
    if (strlen(src) >= RS_THERMAL_NAME)
        return rs_fail_at(err, errlen, RS_E_ARG, file, line, "thermal: %s name '%s' is longer than %d characters",
                          what, src, RS_THERMAL_NAME - 1);
    strcpy(dst, src);
    return RS_OK;
}

int rs_thermal_spec_parse(const char *const *tok, int n, const char *file, int line, rs_thermal_spec *s,
                          char *err, size_t errlen)
{
    rs_thermal_spec_default(s);
    snprintf(s->file, sizeof s->file, "%s", file ? file : "scenario");
    s->line = line;
    file = s->file;
    if (n < 2 || strcmp(tok[1], "power") == 0)
        return rs_fail_at(err, errlen, RS_E_ARG, file, line, "thermal: the damping parameter first; " USAGE);
    int st = copy_name(s->param, tok[1], file, line, "parameter", err, errlen);
    if (st)
        return st;
    for (int i = 2; i < n;) {
        const char *key = tok[i];
        int k = 0;
        while (k < N_KEYS && strcmp(key, kKeys[k]) != 0)
            k++;
        if (k == N_KEYS)
            return rs_fail_at(err, errlen, RS_E_ARG, file, line,
                              "thermal: unknown word '%s'; the words are power, temperature, grid, length, radius, "
                              "bore, density, heat_capacity, conductivity, convection, ambient, initial, beta, "
                              "t_ref, heat",
                              key);
        const int nv = k == 2 ? 3 : 1;
        if (i + nv >= n)
            return rs_fail_at(err, errlen, RS_E_ARG, file, line, "thermal: '%s' needs %s", key,
                              k == 2 ? "three cell counts, e.g. 'grid 12 12 40'"
                              : k <= 1 ? "a name"
                              : k == 14 ? "'volume' or 'end'" : "a number");
        const char *v = tok[i + 1];
        double x = 0;
        if (k == 0) {
            st = copy_name(s->power, v, file, line, "output", err, errlen);
        } else if (k == 1) {
            st = copy_name(s->temperature, v, file, line, "temperature parameter", err, errlen);
        } else if (k == 14) {
            if (strcmp(v, "volume") == 0) s->heat = RS_THERMAL_HEAT_VOLUME;
            else if (strcmp(v, "end") == 0) s->heat = RS_THERMAL_HEAT_END;
            else
                return rs_fail_at(err, errlen, RS_E_ARG, file, line,
                                  "thermal: heat '%s': write 'heat volume' (every cell) or 'heat end' "
                                  "(through the end z = 0)", v);
        } else if (k == 2) {
            int *cells[3] = {&s->nx, &s->ny, &s->nz};
            for (int c = 0; c < 3; c++) {
                if (!number(tok[i + 1 + c], &x) || x != floor(x) || x < 1 || x > 100000)
                    return rs_fail_at(err, errlen, RS_E_ARG, file, line,
                                      "thermal: grid needs three whole cell counts from 1, not '%s'",
                                      tok[i + 1 + c]);
                *cells[c] = (int)x;
            }
        } else {
            if (!number(v, &x))
                return rs_fail_at(err, errlen, RS_E_ARG, file, line, "thermal: %s '%s' is not a number", key, v);
            double *f[] = {NULL, NULL, NULL, &s->length, &s->radius, &s->bore, &s->density, &s->heat_capacity,
                           &s->conductivity, &s->convection, &s->ambient, &s->initial, &s->beta, &s->t_ref};
            *f[k] = x;
        }
        if (st)
            return st;
        i += 1 + nv;
    }
    if (!s->power[0])
        return rs_fail_at(err, errlen, RS_E_ARG, file, line,
                          "thermal: which model output is the damper's dissipated power? add 'power NAME' "
                          "(an output such as 'output p_yaw = c_yaw*v^2' in the .vdl)");
    if (isnan(s->beta))
        return rs_fail_at(err, errlen, RS_E_ARG, file, line,
                          "thermal: give the coefficient's temperature sensitivity 'beta B' (1/K; c = c_ref "
                          "exp(-B (T - t_ref)); 0: no feedback)");
    if (isnan(s->initial))
        s->initial = s->ambient;
    return rs_thermal_spec_check(s, err, errlen);
}

int rs_thermal_spec_check(const rs_thermal_spec *s, char *err, size_t errlen)
{
    const struct { const char *name; double v; } pos[] = {
        {"length", s->length}, {"radius", s->radius}, {"density", s->density},
        {"heat_capacity", s->heat_capacity}, {"conductivity", s->conductivity}};
    for (size_t i = 0; i < sizeof pos / sizeof pos[0]; i++)
        if (!(pos[i].v > 0) || !isfinite(pos[i].v))
            return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line, "thermal: %s must be positive, not %g",
                              pos[i].name, pos[i].v);
    if (!(s->bore >= 0 && s->bore < s->radius))
        return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line,
                          "thermal: bore %g m must be from 0 (a solid body) up to less than the radius %g m",
                          s->bore, s->radius);
    if (!(s->convection >= 0))
        return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line,
                          "thermal: convection %g W/(m^2 K) must be 0 (insulated) or positive", s->convection);
    if (s->nx < 1 || s->ny < 1 || s->nz < 1)
        return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line, "thermal: grid needs cell counts from 1");
    if ((double)s->nx * s->ny * s->nz > 5e7)
        return rs_fail_at(err, errlen, RS_E_ARG, s->file, s->line,
                          "thermal: grid %dx%dx%d is over 5e7 cells; use a coarser grid", s->nx, s->ny, s->nz);
    return RS_OK;
}
