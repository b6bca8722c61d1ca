/* fmi_import.c — see fmi_import.h. */
#define _POSIX_C_SOURCE 200809L
#include "fmi_import.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fmi_xml.h"

static void logger(fmi2ComponentEnvironment env, fmi2String instance, fmi2Status status, fmi2String category,
                   fmi2String message, ...)
{
    fmi_fmu *f = env;
    char text[1800];
    va_list ap;
    va_start(ap, message);
    vsnprintf(text, sizeof text, message, ap);
    va_end(ap);
    snprintf(f->last_log, sizeof f->last_log, "%s [%s, status %d]: %s", instance, category, (int)status, text);
    f->n_log++;
}

static int run(char *const argv[])
{
    const pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout))
            _exit(127);
        execvp(argv[0], argv);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int fmi_open(const char *path, fmi_fmu *f, char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    snprintf(f->dir, sizeof f->dir, "/tmp/fmi-import-XXXXXX");
    if (!mkdtemp(f->dir)) {
        snprintf(err, errlen, "mkdtemp failed");
        return -1;
    }
    char *argv[] = {"unzip", "-q", "-o", (char *)path, "-d", f->dir, NULL};
    if (run(argv) != 0) {
        snprintf(err, errlen, "unzip of '%s' failed", path);
        return -1;
    }
    char md[700];
    snprintf(md, sizeof md, "%s/modelDescription.xml", f->dir);
    fmi_xml x;
    if (fmi_xml_read(md, &x, err, errlen)) {
        fmi_xml_free(&x);
        return -1;
    }
    const char *g = fmi_xml_attr(&x, 0, "guid");
    snprintf(f->guid, sizeof f->guid, "%s", g ? g : "");
    for (int i = 0; i < x.n; i++) {
        if (!strcmp(x.e[i].name, "CoSimulation"))
            snprintf(f->id, sizeof f->id, "%s", fmi_xml_attr(&x, i, "modelIdentifier"));
        if (!strcmp(x.e[i].name, "ScalarVariable")) {
            f->var_name = realloc(f->var_name, (size_t)(f->n_vars + 1) * sizeof *f->var_name);
            f->var_vr = realloc(f->var_vr, (size_t)(f->n_vars + 1) * sizeof *f->var_vr);
            f->var_name[f->n_vars] = strdup(fmi_xml_attr(&x, i, "name"));
            f->var_vr[f->n_vars++] = (unsigned)strtoul(fmi_xml_attr(&x, i, "valueReference"), NULL, 10);
        }
    }
    fmi_xml_free(&x);
    char so[900];
    snprintf(so, sizeof so, "%s/binaries/linux64/%s.so", f->dir, f->id);
    if (!(f->so = dlopen(so, RTLD_NOW | RTLD_LOCAL))) {
        snprintf(err, errlen, "dlopen '%s': %s", so, dlerror());
        return -1;
    }
#define RESOLVE(field, sym)                                                        \
    if (!(*(void **)&f->field = dlsym(f->so, sym))) {                              \
        snprintf(err, errlen, "'%s' has no function %s", so, sym);                 \
        return -1;                                                                 \
    }
    RESOLVE(instantiate, "fmi2Instantiate")
    RESOLVE(free_instance, "fmi2FreeInstance")
    RESOLVE(setup_experiment, "fmi2SetupExperiment")
    RESOLVE(enter_init, "fmi2EnterInitializationMode")
    RESOLVE(exit_init, "fmi2ExitInitializationMode")
    RESOLVE(terminate, "fmi2Terminate")
    RESOLVE(get_real, "fmi2GetReal")
    RESOLVE(set_real, "fmi2SetReal")
    RESOLVE(do_step, "fmi2DoStep")
    RESOLVE(get_state, "fmi2GetFMUstate")
    RESOLVE(set_state, "fmi2SetFMUstate")
    RESOLVE(free_state, "fmi2FreeFMUstate")
    RESOLVE(state_size, "fmi2SerializedFMUstateSize")
    RESOLVE(serialize, "fmi2SerializeFMUstate")
    RESOLVE(deserialize, "fmi2DeSerializeFMUstate")
#undef RESOLVE
    f->cb.logger = logger;
    f->cb.allocateMemory = calloc;
    f->cb.freeMemory = free;
    f->cb.componentEnvironment = f;
    return 0;
}

void fmi_close(fmi_fmu *f)
{
    if (f->so)
        dlclose(f->so);
    for (int i = 0; i < f->n_vars; i++)
        free(f->var_name[i]);
    free(f->var_name);
    free(f->var_vr);
    if (f->dir[0]) {
        char *argv[] = {"rm", "-rf", f->dir, NULL};
        run(argv);
    }
    memset(f, 0, sizeof *f);
}

fmi2Component fmi_instantiate(fmi_fmu *f, const char *name)
{
    char uri[700];
    snprintf(uri, sizeof uri, "file://%s/resources", f->dir);
    return f->instantiate(name, fmi2CoSimulation, f->guid, uri, &f->cb, fmi2False, fmi2False);
}

long fmi_vr(const fmi_fmu *f, const char *name)
{
    for (int i = 0; i < f->n_vars; i++)
        if (!strcmp(f->var_name[i], name))
            return f->var_vr[i];
    return -1;
}

fmi2Component fmi_start(fmi_fmu *f, const char *name, int n, const char *const *pnames, const double *pvalues)
{
    fmi2Component c = fmi_instantiate(f, name);
    if (!c)
        return NULL;
    int ok = f->setup_experiment(c, fmi2False, 0, 0, fmi2False, 0) == fmi2OK;
    for (int i = 0; ok && i < n; i++) {
        const long vr = fmi_vr(f, pnames[i]);
        const fmi2ValueReference r = (fmi2ValueReference)vr;
        ok = vr >= 0 && f->set_real(c, &r, 1, &pvalues[i]) == fmi2OK;
    }
    ok = ok && f->enter_init(c) == fmi2OK && f->exit_init(c) == fmi2OK;
    if (!ok) {
        f->free_instance(c);
        return NULL;
    }
    return c;
}
