/* rs_scenario_load.c — the scenario a run uses: the model folder's
 * default.scn, the user's scenario file over it, the command line's
 * statements over both (rs_scenario.h).  One place for the order, so runs,
 * sweeps and the critical-speed search agree. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rs_error.h"
#include "rs_scenario.h"

/* The first of top's `stress` components that *s (overlaid as far as it
 * went) does not hold: the one that did not fit; NULL when none. */
static const rs_stress_spec *stress_left_out(const rs_scenario *s, const rs_scenario *top)
{
    for (int i = 0; i < top->stress; i++) {
        int held = 0;
        for (int j = 0; j < s->stress && !held; j++)
            held = strcmp(s->stress_spec[j].name, top->stress_spec[i].name) == 0;
        if (!held)
            return &top->stress_spec[i];
    }
    return NULL;
}

/* Parses one layer (a file, or text named `label`) and lays it over *s.
 * Too many `stress` components over the layers: the line of this layer
 * that did not fit, the limit and what to change. */
static int overlay_layer(rs_scenario *s, const char *path, const char *text, const char *label, char *err,
                         size_t errlen)
{
    rs_scenario top;
    rs_scenario_init(&top);
    int st = path ? rs_scenario_read(path, &top, err, errlen)
                  : rs_scenario_parse(text, strlen(text), label, &top, err, errlen);
    if (!st && (st = rs_scenario_overlay(s, &top))) {
        const rs_stress_spec *sp = st == RS_E_UNSUPPORTED ? stress_left_out(s, &top) : NULL;
        if (sp)
            rs_fail_at(err, errlen, st, path ? path : label, sp->line,
                       "stress %s: more than %d 'stress' components in one run, counting those of the layers "
                       "under this one (the model folder's default.scn, the scenario file): remove a 'stress' "
                       "line, or name it as the component it should replace (docs/coupled.md)",
                       sp->name, RS_STRESS_MODELS);
        else
            rs_fail(err, errlen, st, "%s", RS_SCENARIO_OVERLAY_MSG(st));
    }
    rs_scenario_free(&top);
    return st;
}

int rs_scenario_load(const char *model_dir, int use_default, const char *file, const char *set_text,
                     rs_scenario *s, char *err, size_t errlen)
{
    int st = RS_OK;
    if (use_default && model_dir) {
        const size_t len = strlen(model_dir) + sizeof "/default.scn";
        char *path = malloc(len);
        if (!path)
            return rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
        snprintf(path, len, "%s/default.scn", model_dir);
        struct stat sb;
        if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode))
            st = overlay_layer(s, path, NULL, NULL, err, errlen);
        free(path);
    }
    if (!st && file)
        st = overlay_layer(s, file, NULL, NULL, err, errlen);
    if (!st && set_text && *set_text)
        st = overlay_layer(s, NULL, set_text, "--set", err, errlen);
    return st;
}
