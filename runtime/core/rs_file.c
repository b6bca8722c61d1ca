/*
 * rs_file.c — see rs_file.h.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rs_error.h"
#include "rs_file.h"
#include "rs_status.h"

int rs_read_file(const char *path, size_t max, size_t room, char **text, size_t *len)
{
    *text = NULL;
    if (len)
        *len = 0;
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f)
        return path && errno ? errno : ENOENT;
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);   /* a folder opens, then every read fails with EISDIR */
        return EISDIR;
    }
    size_t cap = 4096 + room, n = 0;
    char *buf = malloc(cap);
    int err = buf ? 0 : ENOMEM;
    while (!err) {
        n += fread(buf + n, 1, cap - n - 1 - room, f);
        if (ferror(f)) {
            err = EIO;
        } else if (max && n > max) {
            err = EFBIG;
        } else if (n < cap - 1 - room) {
            break;   /* end of file: the buffer was not filled */
        } else {
            char *nb = realloc(buf, cap *= 2);
            if (!nb)
                err = ENOMEM;
            else
                buf = nb;
        }
    }
    fclose(f);
    if (err) {
        free(buf);
        return err;
    }
    buf[n] = '\0';
    *text = buf;
    if (len)
        *len = n;
    return 0;
}

const char *rs_file_why(int why)
{
    return why == EISDIR ? "it is a directory" : strerror(why);
}

const char *rs_file_why_at(const char *path, int why)
{
    if (why == EISDIR && path) {
        char p[4096];
        struct stat st;
        const int n = snprintf(p, sizeof p, "%s/model.json", path);
        if (n > 0 && (size_t)n < sizeof p && stat(p, &st) == 0)
            return "it is a compiled model folder (it has model.json), not a file";
    }
    return rs_file_why(why);
}

int rs_text_check(const char *text, size_t len, const char *file, char *err, size_t errlen)
{
    const char *nul = text ? memchr(text, '\0', len) : NULL;
    if (!nul)
        return RS_OK;
    int line = 1, col = 1;
    for (const char *p = text; p < nul; p++) {
        if (*p == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    return rs_fail_at(err, errlen, RS_E_SYNTAX, file, line,
                      "a NUL byte at column %d: the file is binary or corrupt", col);
}

const char *rs_file_kind_name(int kind)
{
    switch (kind) {
    case RS_KIND_SCENARIO: return "scenario";
    case RS_KIND_TRAIN: return "train";
    case RS_KIND_PROFILE: return "profile";
    case RS_KIND_TRACK: return "track";
    case RS_KIND_VDL: return "vehicle description (.vdl)";
    case RS_KIND_CSV: return "CSV table";
    default: return "unknown";
    }
}

/* Keywords only one kind of file begins a line with; words two kinds share
 * (duration, step, output, param, track, end) decide nothing. */
static const char *const kVdlWords[] = {"body", "coord", "base", "point", "spring", "bushing", "constraint",
                                        "force", "torque", "gravity", "template", "include", "aux", "wheel",
                                        "rail", NULL};
static const char *const kTrainWords[] = {"vehicle", "order", "solver", "couplers", "coupler", "rebalance",
                                          "corrections", "restart", "contact_files", "contact_outputs", NULL};
/* ("input" is a .vdl statement too) */
static const char *const kScenarioWords[] = {"initial", "columns", "method", "derailment", NULL};

static int word_in(const char *w, size_t n, const char *const *set)
{
    for (; *set; set++)
        if (strlen(*set) == n && strncmp(w, *set, n) == 0)
            return 1;
    return 0;
}

int rs_file_kind_of(const char *text, size_t len, int prefer, int *line, char *first, size_t firstlen)
{
    int ln = 0, meaningful = 0, kind = RS_KIND_UNKNOWN;
    const char *p = text, *end = text ? text + len : NULL, *at = NULL;
    while (p && p < end && kind == RS_KIND_UNKNOWN) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        ln++;
        const char *w = p;
        while (w < eol && (*w == ' ' || *w == '\t' || *w == '\r'))
            w++;
        if (w < eol && *w != '#') {
            const char *we = w;
            while (we < eol && *we != ' ' && *we != '\t' && *we != '\r' && *we != ',' && *we != '#')
                we++;
            const size_t n = (size_t)(we - w);
            at = w;
            if (n == 15 && strncmp(w, "railsym-profile", n) == 0)
                kind = RS_KIND_PROFILE;
            else if (n == 13 && strncmp(w, "railsym-track", n) == 0)
                kind = RS_KIND_TRACK;
            else if (word_in(w, n, kVdlWords))
                kind = RS_KIND_VDL;
            else if (word_in(w, n, kTrainWords))
                kind = RS_KIND_TRAIN;
            else if (word_in(w, n, kScenarioWords))
                kind = RS_KIND_SCENARIO;
            else if (!meaningful && memchr(w, ',', (size_t)(eol - w)) && !memchr(w, '=', (size_t)(eol - w)))
                kind = RS_KIND_CSV; /* "s,value", "0.0,1.5": a table's first row */
            meaningful = 1;
            if (kind != RS_KIND_UNKNOWN && kind == prefer)
                break;
        }
        p = eol + 1;
    }
    if (line)
        *line = kind == RS_KIND_UNKNOWN ? 0 : ln;
    if (first && firstlen) {
        first[0] = '\0';
        if (kind != RS_KIND_UNKNOWN && at) {
            size_t n = 0;
            while (at + n < end && at[n] != '\n' && at[n] != '\r' && at[n] != '#' && n + 1 < firstlen && n < 60)
                n++;
            while (n > 0 && (at[n - 1] == ' ' || at[n - 1] == '\t'))
                n--; /* the line without its comment */
            memcpy(first, at, n);
            first[n] = '\0';
        }
    }
    return kind;
}

/* The kind as a noun with its article, for messages. */
static const char *kind_noun(int kind)
{
    switch (kind) {
    case RS_KIND_SCENARIO: return "a scenario file";
    case RS_KIND_TRAIN: return "a train file";
    case RS_KIND_PROFILE: return "a profile file";
    case RS_KIND_TRACK: return "a track file";
    case RS_KIND_VDL: return "a vehicle description (.vdl)";
    case RS_KIND_CSV: return "a CSV table";
    default: return "an unknown file";
    }
}

/* The number of the first line that is neither blank nor a comment. */
static int first_meaningful(const char *text, size_t len)
{
    int ln = 1;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\n') {
            ln++;
            continue;
        }
        if (text[i] == ' ' || text[i] == '\t' || text[i] == '\r')
            continue;
        if (text[i] != '#')
            return ln;
        while (i < len && text[i] != '\n')
            i++;
        ln++;
    }
    return 0;
}

int rs_kind_check(const char *text, size_t len, const char *file, int expected, char *err, size_t errlen)
{
    int line = 0;
    char first[64];
    const int kind = rs_file_kind_of(text, len, expected, &line, first, sizeof first);
    if (kind == RS_KIND_UNKNOWN || kind == expected)
        return RS_OK;
    const char *fix = "check the file name";
    switch (expected) {
    case RS_KIND_SCENARIO:
        fix = "give a scenario here (.scn: 'duration 10', 'initial q = 0.1' ..., docs/scenario.md)";
        break;
    case RS_KIND_TRAIN:
        fix = "give a train file here (.train: 'vehicle NAME' blocks, docs/trains.md)";
        break;
    case RS_KIND_PROFILE:
        fix = "give a profile here (.prf, first line 'railsym-profile 1', docs/contact.md)";
        break;
    case RS_KIND_TRACK:
        fix = "give a track file here (.trk, first line 'railsym-track 1', docs/contact.md)";
        break;
    default:
        break;
    }
    char where[32];
    if (line == first_meaningful(text, len))
        snprintf(where, sizeof where, "first line");
    else
        snprintf(where, sizeof where, "line %d", line);
    return rs_fail_at(err, errlen, RS_E_SYNTAX, file, line, "the file looks like %s (%s '%s'), not %s; %s",
                      kind_noun(kind), where, first, kind_noun(expected), fix);
}
