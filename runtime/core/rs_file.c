/*
 * rs_file.c — see rs_file.h.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "rs_file.h"

int rs_read_file(const char *path, size_t max, size_t room, char **text, size_t *len)
{
    *text = NULL;
    if (len)
        *len = 0;
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f)
        return path && errno ? errno : ENOENT;
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
