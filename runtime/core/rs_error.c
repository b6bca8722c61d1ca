/*
 * rs_error.c — see rs_error.h.
 */
#include <stdio.h>

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
