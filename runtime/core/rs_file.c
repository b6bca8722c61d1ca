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
