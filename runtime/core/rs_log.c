/*
 * rs_log.c — see rs_log.h.
 */
#include <stdarg.h>
#include <stdio.h>

#include "rs_log.h"

void rs_logf(const rs_log *log, rs_log_kind kind, const char *fmt, ...)
{
    if (!log || !log->fn)
        return;   /* silent: not even the formatting is paid */
    char line[RS_LOG_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    log->fn(log->ctx, kind, line);
}

void rs_log_text(const rs_log *log, rs_log_kind kind, const char *text)
{
    if (log && log->fn && text)
        log->fn(log->ctx, kind, text);
}
