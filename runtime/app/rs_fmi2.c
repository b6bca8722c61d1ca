/*
 * rs_fmi2.c — FMI 2.0 Co-Simulation entry points over one workspace
 * (docs/fmi.md).  See rs_fmi2.h.
 *
 * An instance holds everything it uses (no global state), so any number of
 * instances live in one process.  At fmi2Instantiate it reads the scenario
 * the FMU carries (resources/default.scn, then resources/scenario.scn), binds
 * it and creates the workspace with the scenario applied: the scenario's
 * values are the start values; fmi2SetReal of a parameter or input replaces
 * them.  A set input keeps its value until set again (it wins over a table
 * the scenario gives for it).  fmi2DoStep does whole internal steps only.
 * Messages go to the importer's logger; the adapter prints nothing.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_error.h"
#include "rs_fmi2.h"
#include "rs_fmi2_vars.h"
#include "rs_instance.h"

#if defined(__GNUC__)
#define FMI2_EXPORT __attribute__((visibility("default")))
#else
#define FMI2_EXPORT
#endif

enum { PHASE_INSTANTIATED, PHASE_INIT, PHASE_STEP, PHASE_TERMINATED, PHASE_ERROR };

typedef struct fmu {
    fmi2CallbackFunctions cb;
    char name[128];
    int logging;
    int phase;
    const rs_model *m;
    rs_instance in;          /* binding, workspace, plugins from resources/plugins/, inputs set through
                                fmi2SetReal (u_val, u_set) */
    char res[4096];
} fmu;

/* One saved state: the instance's own part, then the workspace's copy.
 * The guid ties it to this FMU: another FMU of the same model may carry
 * other profile or track files, whose spline segments the contact part's
 * hints would not fit. */
typedef struct saved {
    size_t len;              /* bytes after this header */
    int phase;
    int pad;
    char guid[64];
} saved;

static void logf_(const fmu *f, fmi2Status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void logf_(const fmu *f, fmi2Status st, const char *fmt, ...)
{
    if (!f->cb.logger || (st < fmi2Error && !f->logging))
        return;
    char msg[1536];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    f->cb.logger(f->cb.componentEnvironment, f->name, st, st >= fmi2Error ? "logError" : "logInfo", "%s", msg);
}

static void *mem(const fmu *f, size_t n)
{
    return f && f->cb.allocateMemory ? f->cb.allocateMemory(1, n) : calloc(1, n);
}

static void mem_free(const fmu *f, void *p)
{
    if (!p)
        return;
    if (f && f->cb.freeMemory)
        f->cb.freeMemory(p);
    else
        free(p);
}

/* The folder a file: URI names ("file:///a/b", "file:/a/b", "file://host/a/b"),
 * %-escapes decoded, without a trailing '/'.  0 when it is not such a URI. */
static int uri_path(const char *uri, char *out, size_t len)
{
    if (!uri || strncmp(uri, "file:", 5) != 0)
        return 0;
    const char *p = uri + 5;
    if (p[0] == '/' && p[1] == '/') {   /* an authority: skip it (local host only) */
        p += 2;
        while (*p && *p != '/')
            p++;
    }
    size_t k = 0;
    for (; *p && k + 1 < len; p++) {
        if (*p == '%' && p[1] && p[2]) {
            char hex[3] = {p[1], p[2], 0};
            out[k++] = (char)strtol(hex, NULL, 16);
            p += 2;
        } else {
            out[k++] = *p;
        }
    }
    if (*p)
        return 0;
    while (k > 1 && out[k - 1] == '/')
        k--;
    out[k] = '\0';
    return k > 0;
}

/* A flange climb or a derailment (the elastic contact): logged (logInfo, or
 * logError when it stops); a derailment ends the step with fmi2Error unless
 * the scenario says 'derailment continue', as in `railsym run`. */
static int fmu_event(void *ctx, const rs_contact_event *e)
{
    const fmu *f = ctx;
    const int derail = e->kind == RS_EVENT_DERAILMENT, stop = derail && !rs_binding_derail_continue(f->in.b);
    logf_(f, stop ? fmi2Error : fmi2OK, "t = %.4f s: contact '%s': %s: Y/Q %.3f (Nadal's limit %.3f)%s", e->t,
          f->m->contacts[e->contact].name, derail ? "derailment" : "flange climbing", e->Y_Q, e->limit,
          stop ? " (stopping: the scenario's 'derailment continue' goes on)" : "");
    return stop;
}

static void fmu_free(fmu *f)
{
    if (!f)
        return;
    rs_instance_free(&f->in);
    mem_free(f, f);
}

/* Reads the scenario, binds it and creates the workspace with it applied:
 * the contact files and the plugins' libraries are the copies export-fmu
 * put in resources/ (rs_instance_create_fmu, which export-fmu's start
 * values come from too). */
static int fmu_setup(fmu *f, char *err, size_t errlen)
{
    return rs_instance_create_fmu(&f->in, f->m, f->res, fmu_event, f, err, errlen);
}

/* ---------------------------------------------------------------- life cycle */

FMI2_EXPORT const char *fmi2GetTypesPlatform(void) { return "default"; }
FMI2_EXPORT const char *fmi2GetVersion(void) { return "2.0"; }

FMI2_EXPORT fmi2Status fmi2SetDebugLogging(fmi2Component c, fmi2Boolean loggingOn, size_t nCategories,
                                           const fmi2String categories[])
{
    (void)nCategories;
    (void)categories;
    if (!c)
        return fmi2Error;
    ((fmu *)c)->logging = loggingOn != fmi2False;
    return fmi2OK;
}

FMI2_EXPORT fmi2Component fmi2Instantiate(fmi2String instanceName, fmi2Type fmuType, fmi2String fmuGUID,
                                          fmi2String fmuResourceLocation, const fmi2CallbackFunctions *functions,
                                          fmi2Boolean visible, fmi2Boolean loggingOn)
{
    (void)visible;
    fmu tmp;   /* for the messages before the instance exists */
    memset(&tmp, 0, sizeof tmp);
    if (functions)
        tmp.cb = *functions;
    snprintf(tmp.name, sizeof tmp.name, "%s", instanceName ? instanceName : "?");
    tmp.logging = loggingOn != fmi2False;
    if (fmuType != fmi2CoSimulation) {
        logf_(&tmp, fmi2Error, "this FMU is for Co-Simulation only (fmuType %d)", (int)fmuType);
        return NULL;
    }
    if (!fmuGUID || strcmp(fmuGUID, rs_fmi2_guid()) != 0) {
        logf_(&tmp, fmi2Error, "guid '%s' is not this FMU's '%s': use the modelDescription.xml of this FMU",
              fmuGUID ? fmuGUID : "(null)", rs_fmi2_guid());
        return NULL;
    }
    if (!uri_path(fmuResourceLocation, tmp.res, sizeof tmp.res)) {
        logf_(&tmp, fmi2Error, "fmuResourceLocation '%s' is not a file: URI of the FMU's resources folder",
              fmuResourceLocation ? fmuResourceLocation : "(null)");
        return NULL;
    }
    fmu *f = mem(&tmp, sizeof *f);
    if (!f) {
        logf_(&tmp, fmi2Error, "out of memory");
        return NULL;
    }
    memcpy(f, &tmp, sizeof tmp);   /* mem may not zero: tmp was zeroed */
    f->m = rs_fmi2_model();
    f->phase = PHASE_INSTANTIATED;
    char err[2048];
    if (fmu_setup(f, err, sizeof err)) {
        logf_(f, fmi2Error, "%s", err);
        fmu_free(f);
        return NULL;
    }
    logf_(f, fmi2OK, "model '%s', internal step %g s, resources '%s'", f->m->name, f->in.dt, f->res);
    return f;
}

FMI2_EXPORT void fmi2FreeInstance(fmi2Component c) { fmu_free(c); }

FMI2_EXPORT fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean toleranceDefined, fmi2Real tolerance,
                                           fmi2Real startTime, fmi2Boolean stopTimeDefined, fmi2Real stopTime)
{
    (void)toleranceDefined;
    (void)tolerance;
    (void)stopTimeDefined;
    (void)stopTime;
    fmu *f = c;
    if (!f || f->phase != PHASE_INSTANTIATED)
        return fmi2Error;
    if (rs_ws_set_time(f->in.ws, startTime)) {
        logf_(f, fmi2Error, "cannot start at t = %g s", startTime);
        return fmi2Error;
    }
    return fmi2OK;
}

FMI2_EXPORT fmi2Status fmi2EnterInitializationMode(fmi2Component c)
{
    fmu *f = c;
    if (!f || f->phase != PHASE_INSTANTIATED)
        return fmi2Error;
    f->phase = PHASE_INIT;
    return fmi2OK;
}

FMI2_EXPORT fmi2Status fmi2ExitInitializationMode(fmi2Component c)
{
    fmu *f = c;
    if (!f || f->phase != PHASE_INIT)
        return fmi2Error;
    /* the scenario's static equilibrium, as `railsym run` solves it before
     * its first step: here after the importer's parameters and inputs, so
     * they act on it */
    char msg[1200];
    if (rs_instance_equilibrium(&f->in, msg, sizeof msg)) {
        logf_(f, fmi2Error, "equilibrium: %s", msg);
        f->phase = PHASE_ERROR;
        return fmi2Error;
    }
    if (rs_ws_init(f->in.ws)) {
        logf_(f, fmi2Error, "initial state: %s", rs_ws_error(f->in.ws));
        f->phase = PHASE_ERROR;
        return fmi2Error;
    }
    f->phase = PHASE_STEP;
    return fmi2OK;
}

FMI2_EXPORT fmi2Status fmi2Terminate(fmi2Component c)
{
    fmu *f = c;
    if (!f)
        return fmi2Error;
    f->phase = PHASE_TERMINATED;
    return fmi2OK;
}

FMI2_EXPORT fmi2Status fmi2Reset(fmi2Component c)
{
    fmu *f = c;
    if (!f)
        return fmi2Error;
    rs_instance_free(&f->in);
    char err[2048];
    if (fmu_setup(f, err, sizeof err)) {
        logf_(f, fmi2Error, "%s", err);
        f->phase = PHASE_ERROR;
        return fmi2Error;
    }
    f->phase = PHASE_INSTANTIATED;
    return fmi2OK;
}

/* ---------------------------------------------------------------- values */

FMI2_EXPORT fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Real value[])
{
    fmu *f = c;
    if (!f || !f->in.ws || (nvr && (!vr || !value)))
        return fmi2Error;
    int outputs_done = f->m->n_out == 0;
    const int elastic = rs_fmi2_elastic(f->in.ws);
    for (size_t i = 0; i < nvr; i++) {
        rs_fmi2_var v;
        if (rs_fmi2_var_at(f->m, elastic, (int)vr[i], &v)) {
            logf_(f, fmi2Error, "fmi2GetReal: no variable has valueReference %u", vr[i]);
            return fmi2Error;
        }
        if (v.var.kind == RS_VAR_OUTPUT && !outputs_done) {
            if (rs_ws_outputs(f->in.ws, f->in.out)) {
                logf_(f, fmi2Error, "outputs: %s", rs_ws_error(f->in.ws));
                return fmi2Error;
            }
            outputs_done = 1;
        }
        value[i] = rs_ws_value(f->in.ws, v.var, f->in.out);
    }
    return fmi2OK;
}

FMI2_EXPORT fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                   const fmi2Real value[])
{
    fmu *f = c;
    if (!f || !f->in.ws || (nvr && (!vr || !value)) || f->phase == PHASE_ERROR)
        return fmi2Error;
    char name[256];
    const int elastic = rs_fmi2_elastic(f->in.ws);
    for (size_t i = 0; i < nvr; i++) {
        rs_fmi2_var v;
        if (rs_fmi2_var_at(f->m, elastic, (int)vr[i], &v)) {
            logf_(f, fmi2Error, "fmi2SetReal: no variable has valueReference %u", vr[i]);
            return fmi2Error;
        }
        rs_fmi2_var_name(f->m, &v, name, sizeof name);
        if (v.causality == RS_FMI2_PARAMETER) {
            if (rs_ws_set_param_index(f->in.ws, v.var.index, value[i])) {
                logf_(f, fmi2Error, "fmi2SetReal: parameter '%s' = %g refused", name, value[i]);
                return fmi2Error;
            }
        } else if (v.causality == RS_FMI2_INPUT) {
            f->in.u_val[v.var.index] = value[i];
            f->in.u_set[v.var.index] = 1;
            rs_ws_set_u(f->in.ws, name, value[i]);
        } else {
            logf_(f, fmi2Error, "fmi2SetReal: '%s' (valueReference %u) is an output: only parameters and inputs "
                  "can be set", name, vr[i]);
            return fmi2Error;
        }
    }
    return fmi2OK;
}

/* The model has Real variables only: the other types have none to get or set. */
static fmi2Status no_such(fmu *f, size_t nvr, const char *fn)
{
    if (!f)
        return fmi2Error;
    if (nvr == 0)
        return fmi2OK;
    logf_(f, fmi2Error, "%s: this FMU has Real variables only", fn);
    return fmi2Error;
}

FMI2_EXPORT fmi2Status fmi2GetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                      fmi2Integer value[])
{
    (void)vr, (void)value;
    return no_such(c, nvr, "fmi2GetInteger");
}
FMI2_EXPORT fmi2Status fmi2GetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                      fmi2Boolean value[])
{
    (void)vr, (void)value;
    return no_such(c, nvr, "fmi2GetBoolean");
}
FMI2_EXPORT fmi2Status fmi2GetString(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                     fmi2String value[])
{
    (void)vr, (void)value;
    return no_such(c, nvr, "fmi2GetString");
}
FMI2_EXPORT fmi2Status fmi2SetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                      const fmi2Integer value[])
{
    (void)vr, (void)value;
    return no_such(c, nvr, "fmi2SetInteger");
}
FMI2_EXPORT fmi2Status fmi2SetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                      const fmi2Boolean value[])
{
    (void)vr, (void)value;
    return no_such(c, nvr, "fmi2SetBoolean");
}
FMI2_EXPORT fmi2Status fmi2SetString(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                     const fmi2String value[])
{
    (void)vr, (void)value;
    return no_such(c, nvr, "fmi2SetString");
}

/* ---------------------------------------------------------------- states */

FMI2_EXPORT fmi2Status fmi2GetFMUstate(fmi2Component c, fmi2FMUstate *state)
{
    fmu *f = c;
    if (!f || !state || !f->in.ws)
        return fmi2Error;
    const size_t len = rs_instance_state_size(&f->in);
    if (!len) {
        logf_(f, fmi2Error, "fmi2GetFMUstate: the state of model '%s' cannot be copied (its contact plug-in has "
              "no state copy)", f->m->name);
        return fmi2Error;
    }
    saved *s = *state;
    if (s && s->len != len) {
        mem_free(f, s);
        s = NULL;
    }
    if (!s && !(s = mem(f, sizeof *s + len))) {
        logf_(f, fmi2Error, "fmi2GetFMUstate: out of memory");
        return fmi2Error;
    }
    s->len = len;
    s->phase = f->phase;
    memset(s->guid, 0, sizeof s->guid);
    snprintf(s->guid, sizeof s->guid, "%s", rs_fmi2_guid());
    rs_instance_state_save(&f->in, s + 1, len);
    *state = s;
    return fmi2OK;
}

FMI2_EXPORT fmi2Status fmi2SetFMUstate(fmi2Component c, fmi2FMUstate state)
{
    fmu *f = c;
    const saved *s = state;
    if (!f || !s || !f->in.ws)
        return fmi2Error;
    if (strncmp(s->guid, rs_fmi2_guid(), sizeof s->guid) != 0) {
        logf_(f, fmi2Error, "fmi2SetFMUstate: the state is one of FMU '%.63s', not of this one ('%s')", s->guid,
              rs_fmi2_guid());
        return fmi2Error;
    }
    if (rs_instance_state_restore(&f->in, s + 1, s->len)) {
        logf_(f, fmi2Error, "fmi2SetFMUstate: the state is not one of this model's");
        return fmi2Error;
    }
    f->phase = s->phase;
    return fmi2OK;
}

FMI2_EXPORT fmi2Status fmi2FreeFMUstate(fmi2Component c, fmi2FMUstate *state)
{
    fmu *f = c;
    if (!f || !state)
        return fmi2Error;
    mem_free(f, *state);
    *state = NULL;
    return fmi2OK;
}

/* A saved state is one flat block without pointers: its bytes are its
 * serialization. */
FMI2_EXPORT fmi2Status fmi2SerializedFMUstateSize(fmi2Component c, fmi2FMUstate state, size_t *size)
{
    const saved *s = state;
    if (!c || !s || !size)
        return fmi2Error;
    *size = sizeof *s + s->len;
    return fmi2OK;
}

FMI2_EXPORT fmi2Status fmi2SerializeFMUstate(fmi2Component c, fmi2FMUstate state, fmi2Byte bytes[], size_t size)
{
    const saved *s = state;
    if (!c || !s || !bytes || size < sizeof *s + s->len)
        return fmi2Error;
    memcpy(bytes, s, sizeof *s + s->len);
    return fmi2OK;
}

FMI2_EXPORT fmi2Status fmi2DeSerializeFMUstate(fmi2Component c, const fmi2Byte bytes[], size_t size,
                                               fmi2FMUstate *state)
{
    fmu *f = c;
    saved head;
    if (!f || !bytes || !state || size < sizeof head)
        return fmi2Error;
    memcpy(&head, bytes, sizeof head);
    if (head.len != size - sizeof head) {
        logf_(f, fmi2Error, "fmi2DeSerializeFMUstate: %zu bytes are not a state of this FMU", size);
        return fmi2Error;
    }
    saved *s = mem(f, size);
    if (!s)
        return fmi2Error;
    memcpy(s, bytes, size);
    *state = s;
    return fmi2OK;
}

FMI2_EXPORT fmi2Status fmi2GetDirectionalDerivative(fmi2Component c, const fmi2ValueReference vUnknown[],
                                                    size_t nUnknown, const fmi2ValueReference vKnown[],
                                                    size_t nKnown, const fmi2Real dvKnown[], fmi2Real dvUnknown[])
{
    (void)vUnknown, (void)nUnknown, (void)vKnown, (void)nKnown, (void)dvKnown, (void)dvUnknown;
    if (c)
        logf_(c, fmi2Error, "fmi2GetDirectionalDerivative is not provided (providesDirectionalDerivative false)");
    return fmi2Error;
}

/* ---------------------------------------------------------------- stepping */

FMI2_EXPORT fmi2Status fmi2SetRealInputDerivatives(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                                   const fmi2Integer order[], const fmi2Real value[])
{
    (void)vr, (void)order, (void)value;
    if (c && nvr)
        logf_(c, fmi2Error, "input derivatives are not supported (canInterpolateInputs false)");
    return c && !nvr ? fmi2OK : fmi2Error;
}

FMI2_EXPORT fmi2Status fmi2GetRealOutputDerivatives(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                                    const fmi2Integer order[], fmi2Real value[])
{
    (void)vr, (void)order, (void)value;
    if (c && nvr)
        logf_(c, fmi2Error, "output derivatives are not supported (maxOutputDerivativeOrder 0)");
    return c && !nvr ? fmi2OK : fmi2Error;
}

FMI2_EXPORT fmi2Status fmi2DoStep(fmi2Component c, fmi2Real currentCommunicationPoint,
                                  fmi2Real communicationStepSize, fmi2Boolean noSetFMUStatePriorToCurrentPoint)
{
    (void)noSetFMUStatePriorToCurrentPoint;
    fmu *f = c;
    if (!f)
        return fmi2Error;
    if (f->phase != PHASE_STEP) {
        logf_(f, fmi2Error, "fmi2DoStep: call fmi2ExitInitializationMode first%s",
              f->phase == PHASE_TERMINATED ? " (the instance was terminated)" : "");
        return fmi2Error;
    }
    const double t = rs_ws_time(f->in.ws), h = communicationStepSize, tol = 1e-9 * (1.0 + fabs(t));
    if (fabs(currentCommunicationPoint - t) > tol) {
        logf_(f, fmi2Error, "fmi2DoStep: the communication point %.17g s is not the FMU's time %.17g s",
              currentCommunicationPoint, t);
        return fmi2Error;
    }
    const double ratio = h / f->in.dt;
    const long n = lround(ratio);
    if (!(h > 0) || n < 1 || fabs(ratio - (double)n) > 1e-9 * ratio) {
        logf_(f, fmi2Error,
              "fmi2DoStep: the communication step %.17g s is not a whole number of internal steps of %.17g s "
              "(the scenario's 'step'): use a multiple of it",
              h, f->in.dt);
        return fmi2Error;
    }
    for (long i = 0; i < n; i++) {
        const int st = rs_step(f->in.ws);
        if (st < 0) {
            logf_(f, fmi2Error, "fmi2DoStep: %s", rs_ws_error(f->in.ws));
            return fmi2Error;
        }
    }
    return fmi2OK;
}

FMI2_EXPORT fmi2Status fmi2CancelStep(fmi2Component c)
{
    (void)c;
    return fmi2Error;   /* fmi2DoStep never returns fmi2Pending */
}

FMI2_EXPORT fmi2Status fmi2GetStatus(fmi2Component c, const fmi2StatusKind s, fmi2Status *value)
{
    (void)s;
    if (!c || !value)
        return fmi2Error;
    *value = fmi2OK;
    return fmi2OK;
}

FMI2_EXPORT fmi2Status fmi2GetRealStatus(fmi2Component c, const fmi2StatusKind s, fmi2Real *value)
{
    fmu *f = c;
    if (!f || !value || s != fmi2LastSuccessfulTime || !f->in.ws)
        return fmi2Discard;
    *value = rs_ws_time(f->in.ws);
    return fmi2OK;
}

FMI2_EXPORT fmi2Status fmi2GetIntegerStatus(fmi2Component c, const fmi2StatusKind s, fmi2Integer *value)
{
    (void)c, (void)s, (void)value;
    return fmi2Discard;
}

FMI2_EXPORT fmi2Status fmi2GetBooleanStatus(fmi2Component c, const fmi2StatusKind s, fmi2Boolean *value)
{
    fmu *f = c;
    if (!f || !value || s != fmi2Terminated)
        return fmi2Discard;
    *value = fmi2False;
    return fmi2OK;
}

FMI2_EXPORT fmi2Status fmi2GetStringStatus(fmi2Component c, const fmi2StatusKind s, fmi2String *value)
{
    (void)c, (void)s, (void)value;
    return fmi2Discard;
}
