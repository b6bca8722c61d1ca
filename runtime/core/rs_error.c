/*
 * rs_error.c — see rs_error.h.
 */
#include <stdio.h>
#include <string.h>

#include "rs_error.h"

int rs_failv(char *err, size_t errlen, int status, const char *fmt, va_list ap)
{
    if (err && errlen)
        vsnprintf(err, errlen, fmt, ap);
    return status;
}

int rs_fail(char *err, size_t errlen, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rs_failv(err, errlen, status, fmt, ap);
    va_end(ap);
    return status;
}

int rs_fail_atv(char *err, size_t errlen, int status, const char *file, int line, const char *fmt,
                va_list ap)
{
    if (!err || !errlen)
        return status;
    int k = 0;
    if (file)
        k = line > 0 ? snprintf(err, errlen, "%s:%d: ", file, line) : snprintf(err, errlen, "%s: ", file);
    if (k < 0 || (size_t)k >= errlen)
        return status;   /* the location alone fills the buffer: it is what is kept */
    vsnprintf(err + k, errlen - (size_t)k, fmt, ap);
    return status;
}

int rs_fail_at(char *err, size_t errlen, int status, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rs_fail_atv(err, errlen, status, file, line, fmt, ap);
    va_end(ap);
    return status;
}

int rs_fail_model(char *err, size_t errlen, int status, const char *name, const char *ctx, const char *msg)
{
    if (!err || !errlen)
        return status;
    char pfx[300];
    const int k = snprintf(pfx, sizeof pfx, "model '%s'", name ? name : "?");
    const size_t n = k > 0 && (size_t)k < sizeof pfx ? (size_t)k : 0;
    const int has_ctx = ctx && *ctx;
    if (!ctx)
        ctx = "";
    if (!msg)
        msg = "";
    if (n && strncmp(msg, pfx, n) == 0 && msg[n] == ':' && msg[n + 1] == ' ')
        return rs_fail(err, errlen, status, "%s%s: %s", pfx, ctx, msg + n + 2);
    if (n && strncmp(msg, pfx, n) == 0 && msg[n] == ' ')
        return has_ctx ? rs_fail(err, errlen, status, "%s%s: the model%s", pfx, ctx, msg + n)
                       : rs_fail(err, errlen, status, "%s", msg);
    if (n && !has_ctx && strstr(msg, pfx))
        return rs_fail(err, errlen, status, "%s", msg);
    return rs_fail(err, errlen, status, "%s%s: %s", pfx, ctx, msg);
}
