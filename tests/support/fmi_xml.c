/* fmi_xml.c — see fmi_xml.h. */
#include "fmi_xml.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *err, size_t len, int line, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(err, len, "line %d: %s", line, msg);
    return -1;
}

/* A copy of [s, s + n) with the predefined entities decoded. */
static char *decoded(const char *s, size_t n)
{
    char *o = malloc(n + 1);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        static const struct { const char *ent; char c; } ents[] = {
            {"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'}, {"&quot;", '"'}, {"&apos;", '\''}};
        int done = 0;
        for (size_t e = 0; s[i] == '&' && e < 5; e++) {
            const size_t el = strlen(ents[e].ent);
            if (i + el <= n && strncmp(s + i, ents[e].ent, el) == 0) {
                o[k++] = ents[e].c;
                i += el - 1;
                done = 1;
                break;
            }
        }
        if (!done)
            o[k++] = s[i];
    }
    o[k] = '\0';
    return o;
}

static int is_name(char c) { return isalnum((unsigned char)c) || c == '_' || c == ':' || c == '-' || c == '.'; }

int fmi_xml_parse(const char *p, fmi_xml *x, char *err, size_t errlen)
{
    memset(x, 0, sizeof *x);
    int cap = 0, line = 1, stack[64], depth = 0, roots = 0;
    while (*p) {
        if (*p != '<') {
            line += *p == '\n';
            p++;
            continue;
        }
        if (!strncmp(p, "<?", 2) || !strncmp(p, "<!--", 4)) {
            const char *end = strstr(p, p[1] == '?' ? "?>" : "-->");
            if (!end)
                return fail(err, errlen, line, "unterminated %s", p[1] == '?' ? "declaration" : "comment");
            for (; p < end; p++)
                line += *p == '\n';
            p = end + (end[0] == '?' ? 2 : 3);
            continue;
        }
        if (p[1] == '/') {   /* end tag */
            const char *n = p + 2, *q = n;
            while (is_name(*q))
                q++;
            if (!depth || strlen(x->e[stack[depth - 1]].name) != (size_t)(q - n) ||
                strncmp(x->e[stack[depth - 1]].name, n, (size_t)(q - n)))
                return fail(err, errlen, line, "end tag '%.*s' does not close the open element", (int)(q - n), n);
            depth--;
            p = strchr(q, '>');
            if (!p)
                return fail(err, errlen, line, "unterminated end tag");
            p++;
            continue;
        }
        const char *n = p + 1, *q = n;
        while (is_name(*q))
            q++;
        if (q == n)
            return fail(err, errlen, line, "'<' without an element name");
        if (x->n == cap) {
            cap = cap ? 2 * cap : 64;
            x->e = realloc(x->e, (size_t)cap * sizeof *x->e);
        }
        fmi_xml_elem *e = &x->e[x->n];
        memset(e, 0, sizeof *e);
        e->name = decoded(n, (size_t)(q - n));
        e->parent = depth ? stack[depth - 1] : -1;
        e->line = line;
        roots += depth == 0;
        const int me = x->n++;
        p = q;
        for (;;) {
            while (isspace((unsigned char)*p))
                line += *p++ == '\n';
            if (*p == '>' || (p[0] == '/' && p[1] == '>'))
                break;
            const char *an = p;
            while (is_name(*p))
                p++;
            if (p == an)
                return fail(err, errlen, line, "bad character '%c' in element '%s'", *p ? *p : '0', e->name);
            const char *ae = p;
            while (isspace((unsigned char)*p))
                p++;
            if (*p != '=')
                return fail(err, errlen, line, "attribute '%.*s' has no value", (int)(ae - an), an);
            p++;
            while (isspace((unsigned char)*p))
                p++;
            const char quote = *p;
            if (quote != '"' && quote != '\'')
                return fail(err, errlen, line, "attribute '%.*s': value not quoted", (int)(ae - an), an);
            const char *v = ++p, *ve = strchr(v, quote);
            if (!ve)
                return fail(err, errlen, line, "unterminated attribute value");
            if (e->n_attr == FMI_XML_MAX_ATTR)
                return fail(err, errlen, line, "too many attributes in '%s'", e->name);
            e->attr_name[e->n_attr] = decoded(an, (size_t)(ae - an));
            e->attr_value[e->n_attr++] = decoded(v, (size_t)(ve - v));
            for (; p < ve; p++)
                line += *p == '\n';
            p = ve + 1;
        }
        if (*p == '/') {
            p += 2;
        } else {
            if (depth == 64)
                return fail(err, errlen, line, "elements nested too deep");
            stack[depth++] = me;
            p++;
        }
    }
    if (depth)
        return fail(err, errlen, line, "element '%s' is not closed", x->e[stack[depth - 1]].name);
    if (roots != 1)
        return fail(err, errlen, line, "%d root elements (one expected)", roots);
    return 0;
}

int fmi_xml_read(const char *path, fmi_xml *x, char *err, size_t errlen)
{
    memset(x, 0, sizeof *x);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot read '%s'", path);
        return -1;
    }
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)n + 1);
    const size_t got = fread(text, 1, (size_t)n, f);
    fclose(f);
    text[got] = '\0';
    const int st = fmi_xml_parse(text, x, err, errlen);
    free(text);
    return st;
}

void fmi_xml_free(fmi_xml *x)
{
    for (int i = 0; i < x->n; i++) {
        free(x->e[i].name);
        for (int k = 0; k < x->e[i].n_attr; k++) {
            free(x->e[i].attr_name[k]);
            free(x->e[i].attr_value[k]);
        }
    }
    free(x->e);
    memset(x, 0, sizeof *x);
}

const char *fmi_xml_attr(const fmi_xml *x, int i, const char *name)
{
    for (int k = 0; k < x->e[i].n_attr; k++)
        if (!strcmp(x->e[i].attr_name[k], name))
            return x->e[i].attr_value[k];
    return NULL;
}
