/* fmi_check.c — see fmi_check.h. */
#define _POSIX_C_SOURCE 200809L
#include "fmi_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmi_xml.h"

static int fail(char *err, size_t len, int line, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(err, len, "line %d: %s", line, msg);
    return -1;
}

static int child_of(const fmi_xml *x, int i, const char *parent)
{
    return x->e[i].parent >= 0 && !strcmp(x->e[x->e[i].parent].name, parent);
}

static int in(const char *v, const char *const *list)
{
    for (; *list; list++)
        if (!strcmp(v, *list))
            return 1;
    return 0;
}

static const char *const kCausality[] = {"parameter", "calculatedParameter", "input", "output", "local",
                                         "independent", NULL};
static const char *const kVariability[] = {"constant", "fixed", "tunable", "discrete", "continuous", NULL};
static const char *const kInitial[] = {"exact", "approx", "calculated", NULL};
static const char *const kTypes[] = {"Real", "Integer", "Boolean", "String", "Enumeration", NULL};

/* The standard's table of causality (columns) × variability (rows): 1 legal. */
static int legal(const char *c, const char *v)
{
    static const char *const cols[] = {"parameter", "calculatedParameter", "input", "output", "local",
                                       "independent"};
    static const char *const rows[] = {"constant", "fixed", "tunable", "discrete", "continuous"};
    static const int ok[5][6] = {
        /* constant   */ {0, 0, 0, 1, 1, 0},
        /* fixed      */ {1, 1, 0, 0, 1, 0},
        /* tunable    */ {1, 1, 0, 0, 1, 0},
        /* discrete   */ {0, 0, 1, 1, 1, 0},
        /* continuous */ {0, 0, 1, 1, 1, 1},
    };
    int r = 0, k = 0;
    while (strcmp(rows[r], v))
        r++;
    while (strcmp(cols[k], c))
        k++;
    return ok[r][k];
}

/* The initial values allowed for (causality, variability), and the default
 * (the standard's second table); "" where initial must not be given. */
static const char *initial_allowed(const char *c, const char *v, const char **dflt)
{
    const int cons = !strcmp(v, "constant"), fixtun = !strcmp(v, "fixed") || !strcmp(v, "tunable");
    if (!strcmp(c, "parameter"))
        return *dflt = "exact", "exact";
    if (!strcmp(c, "calculatedParameter"))
        return *dflt = "calculated", "approx calculated";
    if (!strcmp(c, "input") || !strcmp(c, "independent"))
        return *dflt = "", "";
    if (cons)
        return *dflt = "exact", "exact";
    if (!strcmp(c, "local") && fixtun)
        return *dflt = "calculated", "approx calculated";
    return *dflt = "calculated", "exact approx calculated";
}

static int word_in(const char *w, const char *words)
{
    const size_t n = strlen(w);
    for (const char *p = words; (p = strstr(p, w)); p += n)
        if ((p == words || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
            return 1;
    return 0;
}

static int check(const fmi_xml *x, const char *fmu_dir, char *err, size_t len)
{
    const fmi_xml_elem *root = &x->e[0];
    if (strcmp(root->name, "fmiModelDescription"))
        return fail(err, len, root->line, "the root element is '%s', not fmiModelDescription", root->name);
    const char *ver = fmi_xml_attr(x, 0, "fmiVersion");
    if (!ver)
        return fail(err, len, root->line, "fmiModelDescription has no fmiVersion");
    if (strcmp(ver, "2.0"))
        return fail(err, len, root->line, "fmiVersion is '%s', not 2.0", ver);
    for (const char *const *a = (const char *const[]){"modelName", "guid", NULL}; *a; a++)
        if (!fmi_xml_attr(x, 0, *a))
            return fail(err, len, root->line, "fmiModelDescription has no %s", *a);

    int cs = -1, n_vars = 0, n_units = 0;
    for (int i = 1; i < x->n; i++)
        if (!strcmp(x->e[i].name, "CoSimulation") && x->e[i].parent == 0)
            cs = i;
    if (cs < 0)
        return fail(err, len, root->line, "no CoSimulation element: this checker is for Co-Simulation FMUs");
    const char *id = fmi_xml_attr(x, cs, "modelIdentifier");
    if (!id || !*id)
        return fail(err, len, x->e[cs].line, "CoSimulation has no modelIdentifier");
    for (const char *p = id; *p; p++)
        if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (p > id && *p >= '0' && *p <= '9')))
            return fail(err, len, x->e[cs].line, "modelIdentifier '%s' is not a C identifier", id);
    if (fmu_dir) {
        char so[1024];
        snprintf(so, sizeof so, "%s/binaries/linux64/%s.so", fmu_dir, id);
        if (access(so, R_OK))
            return fail(err, len, x->e[cs].line, "modelIdentifier '%s': no binary binaries/linux64/%s.so", id, id);
    }

    /* units */
    const char *units[256];
    for (int i = 1; i < x->n; i++)
        if (!strcmp(x->e[i].name, "Unit") && child_of(x, i, "UnitDefinitions")) {
            const char *u = fmi_xml_attr(x, i, "name");
            if (!u)
                return fail(err, len, x->e[i].line, "Unit has no name");
            for (int k = 0; k < n_units; k++)
                if (!strcmp(units[k], u))
                    return fail(err, len, x->e[i].line, "unit '%s' defined twice", u);
            if (n_units < 256)
                units[n_units++] = u;
        }

    /* variables: ScalarVariable i (1-based index in ModelVariables) */
    int var_elem[4096], n_indep = 0;
    for (int i = 1; i < x->n; i++) {
        if (strcmp(x->e[i].name, "ScalarVariable"))
            continue;
        const int line = x->e[i].line;
        if (!child_of(x, i, "ModelVariables"))
            return fail(err, len, line, "ScalarVariable outside ModelVariables");
        const char *name = fmi_xml_attr(x, i, "name"), *vr = fmi_xml_attr(x, i, "valueReference");
        if (!name)
            return fail(err, len, line, "ScalarVariable has no name");
        if (!vr)
            return fail(err, len, line, "variable '%s' has no valueReference", name);
        const char *c = fmi_xml_attr(x, i, "causality"), *v = fmi_xml_attr(x, i, "variability"),
                   *init = fmi_xml_attr(x, i, "initial");
        if (!c)
            c = "local";
        if (!v)
            v = "continuous";
        if (!in(c, kCausality))
            return fail(err, len, line, "variable '%s': causality '%s' is not one of the standard's", name, c);
        if (!in(v, kVariability))
            return fail(err, len, line, "variable '%s': variability '%s' is not one of the standard's", name, v);
        if (!legal(c, v))
            return fail(err, len, line, "variable '%s': causality '%s' with variability '%s' is not allowed", name,
                        c, v);
        const char *dflt;
        const char *allowed = initial_allowed(c, v, &dflt);
        if (init && !in(init, kInitial))
            return fail(err, len, line, "variable '%s': initial '%s' is not one of the standard's", name, init);
        if (init && !word_in(init, allowed))
            return fail(err, len, line, "variable '%s': initial '%s' is not allowed with causality '%s' and "
                        "variability '%s'", name, init, c, v);
        const char *eff = init ? init : dflt;
        /* the type element: one child */
        int t = -1, n_t = 0;
        for (int k = i + 1; k < x->n && x->e[k].parent >= i; k++)
            if (x->e[k].parent == i) {
                t = k;
                n_t++;
            }
        if (n_t != 1 || !in(x->e[t].name, kTypes))
            return fail(err, len, line, "variable '%s' needs exactly one type element (Real, Integer, ...)", name);
        const char *start = fmi_xml_attr(x, t, "start");
        const int need_start = !strcmp(c, "input") || !strcmp(eff, "exact") || !strcmp(eff, "approx");
        if (need_start && !start)
            return fail(err, len, line, "variable '%s' (causality '%s', initial '%s') needs a start value", name, c,
                        *eff ? eff : "none");
        if (!need_start && start)
            return fail(err, len, line, "variable '%s' (causality '%s', initial '%s') must not have a start value",
                        name, c, *eff ? eff : "none");
        if (!strcmp(c, "independent")) {
            if (strcmp(x->e[t].name, "Real"))
                return fail(err, len, line, "the independent variable '%s' must be Real", name);
            if (++n_indep > 1)
                return fail(err, len, line, "a second independent variable '%s'", name);
        }
        if (!strcmp(v, "continuous") && strcmp(x->e[t].name, "Real"))
            return fail(err, len, line, "continuous variable '%s' must be Real, not %s", name, x->e[t].name);
        const char *unit = fmi_xml_attr(x, t, "unit");
        if (unit) {
            int found = 0;
            for (int k = 0; k < n_units; k++)
                found |= !strcmp(units[k], unit);
            if (!found)
                return fail(err, len, line, "variable '%s': unit '%s' is not in UnitDefinitions", name, unit);
        }
        /* unique name; one valueReference shared by variables of one type
         * makes them aliases, of which at most one has a start value */
        for (int k = 0; k < n_vars; k++) {
            const int j = var_elem[k];
            if (!strcmp(fmi_xml_attr(x, j, "name"), name))
                return fail(err, len, line, "variable name '%s' is used twice (also line %d)", name, x->e[j].line);
            int tj = j + 1;
            while (x->e[tj].parent != j)
                tj++;
            if (!strcmp(fmi_xml_attr(x, j, "valueReference"), vr) && !strcmp(x->e[tj].name, x->e[t].name) && start &&
                fmi_xml_attr(x, tj, "start"))
                return fail(err, len, line, "'%s' and '%s' (line %d) are aliases (both %s, valueReference %s) and both "
                            "have a start value: at most one of an alias set may", name, fmi_xml_attr(x, j, "name"),
                            x->e[j].line, x->e[t].name, vr);
        }
        if (n_vars == 4096)
            return fail(err, len, line, "more than 4096 variables");
        var_elem[n_vars++] = i;
    }

    /* ModelStructure: Outputs lists every output and only outputs;
     * InitialUnknowns every output whose initial is approx or calculated and
     * every calculatedParameter, besides the states and derivatives of
     * Derivatives (locals, not checked here); the lists ordered by index */
    static int listed[4096], listed_init[4096];
    memset(listed, 0, sizeof listed);
    memset(listed_init, 0, sizeof listed_init);
    int last[3] = {0, 0, 0};
    for (int i = 1; i < x->n; i++) {
        if (strcmp(x->e[i].name, "Unknown"))
            continue;
        const char *list = x->e[x->e[i].parent].name;
        const char *idx = fmi_xml_attr(x, i, "index");
        if (!idx)
            return fail(err, len, x->e[i].line, "Unknown has no index");
        const int k = atoi(idx);
        if (k < 1 || k > n_vars)
            return fail(err, len, x->e[i].line, "Unknown index %s is not a variable's (1 to %d)", idx, n_vars);
        const int which = !strcmp(list, "Outputs") ? 0 : !strcmp(list, "InitialUnknowns") ? 1 : 2;
        if (k <= last[which])
            return fail(err, len, x->e[i].line, "%s lists index %d after index %d: the list is ordered by index", list,
                        k, last[which]);
        last[which] = k;
        const char *c = fmi_xml_attr(x, var_elem[k - 1], "causality");
        if (which == 0) {
            if (!c || strcmp(c, "output"))
                return fail(err, len, x->e[i].line, "Outputs lists index %d ('%s'), which is not an output", k,
                            fmi_xml_attr(x, var_elem[k - 1], "name"));
            listed[k - 1] = 1;
        } else if (which == 1) {
            listed_init[k - 1] = 1;
        }
    }
    for (int k = 0; k < n_vars; k++) {
        const int e = var_elem[k];
        const char *c = fmi_xml_attr(x, e, "causality"), *init = fmi_xml_attr(x, e, "initial");
        const char *name = fmi_xml_attr(x, e, "name");
        if (c && !strcmp(c, "output") && !listed[k])
            return fail(err, len, x->e[e].line, "output '%s' (index %d) is missing from ModelStructure/Outputs", name,
                        k + 1);
        const int out_calc = c && !strcmp(c, "output") && (!init || strcmp(init, "exact"));
        const int needed = out_calc || (c && !strcmp(c, "calculatedParameter"));
        if (needed && !listed_init[k])
            return fail(err, len, x->e[e].line,
                        "'%s' (index %d, causality %s, initial %s) is missing from ModelStructure/InitialUnknowns", name,
                        k + 1, c, init ? init : "calculated");
        if (listed_init[k] && !needed && c && strcmp(c, "local"))
            return fail(err, len, x->e[e].line, "InitialUnknowns lists '%s' (index %d), which is not an initial unknown "
                        "(an output with initial approx or calculated, or a calculatedParameter)", name, k + 1);
    }
    return 0;
}

int fmi_check_description(const char *xml_path, const char *fmu_dir, char *err, size_t errlen)
{
    fmi_xml x;
    int st = fmi_xml_read(xml_path, &x, err, errlen);
    if (!st)
        st = check(&x, fmu_dir, err, errlen);
    fmi_xml_free(&x);
    return st;
}
