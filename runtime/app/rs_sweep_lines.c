/*
 * rs_sweep_lines.c — a sweep variant's log lines (rs_sweep_lines.h).
 */
#include <stdio.h>
#include <string.h>

#include "rs_sweep_lines.h"

static void keep_line(void *ctx, rs_log_kind kind, const char *text)
{
    rs_sweep_lines *x = ctx;
    if (kind != RS_LOG_LINE)
        return;
    /* room for this line and for the count of those left out */
    const size_t len = strlen(text);
    if (x->left_out || x->used + len + 1 + 64 >= x->cap) {
        x->left_out++;
        return;
    }
    memcpy(x->buf + x->used, text, len);
    x->used += len;
    x->buf[x->used++] = '\n';
    x->buf[x->used] = '\0';
}

rs_log rs_sweep_lines_start(rs_sweep_lines *x, char *buf, size_t cap)
{
    x->buf = buf;
    x->cap = buf ? cap : 0;
    x->used = 0;
    x->left_out = 0;
    if (x->cap)
        buf[0] = '\0';
    return (rs_log){keep_line, x};
}

void rs_sweep_lines_end(rs_sweep_lines *x)
{
    if (x->left_out && x->cap)
        snprintf(x->buf + x->used, x->cap - x->used, "... and %d more line%s\n", x->left_out,
                 x->left_out == 1 ? "" : "s");
}
