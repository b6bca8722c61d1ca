/*
 * rs_error.h — the one way the message of a failed call travels.
 *
 * The contract, for every function of the runtime that can fail:
 *   - it returns an rs_status (rs_status.h): RS_OK, a remark (> 0) or an
 *     error (< 0);
 *   - it takes the caller's message buffer as its last two arguments,
 *     `char *err, size_t errlen` (either may be NULL/0: no message wanted);
 *   - on an error it writes exactly one message there, through rs_fail or
 *     rs_fail_at below: formatted, cut to fit, always terminated; a message
 *     says what failed, the offending value and the fix, and carries no
 *     command-line prefix ("railsym run: ") and no newline;
 *   - a caller that adds context (a file name, a vehicle) formats the inner
 *     message into its own buffer first, then calls rs_fail with both.
 * The one exception is the step: rs_step takes no buffer (it runs at every
 * time step and must stay cheap), so the workspace keeps the message of its
 * last failure, rs_ws_error(ws), written with the same functions.
 * Lines that a successful run has to say on the way go to the log sink
 * (rs_log.h), never into this buffer.
 */
#ifndef RS_ERROR_H
#define RS_ERROR_H

#include <stdarg.h>
#include <stddef.h>

#if defined(__GNUC__)
#define RS_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define RS_PRINTF(f, a)
#endif

/* Writes the message into err (when err and errlen) and returns status, so
 * that `return rs_fail(err, errlen, RS_E_ARG, "...", x);` is one line. */
int rs_fail(char *err, size_t errlen, int status, const char *fmt, ...) RS_PRINTF(4, 5);
int rs_failv(char *err, size_t errlen, int status, const char *fmt, va_list ap);

/* The same with the location of an input file first: "FILE:LINE: message"
 * ("FILE: message" when line <= 0, the bare message when file is NULL). */
int rs_fail_at(char *err, size_t errlen, int status, const char *file, int line, const char *fmt, ...)
    RS_PRINTF(6, 7);
int rs_fail_atv(char *err, size_t errlen, int status, const char *file, int line, const char *fmt,
                va_list ap);

/* A call's message with the model it ran on: "model 'NAME'CTX: MSG" (ctx
 * NULL or "" for none, else e.g. " at 20 m/s"), the model named once.  The
 * message of a call on the model (rs_ws_create, a contact's create, a
 * binding) often names it already; wrapping it again gave "model 'X':
 * model 'X': ...".  So: MSG that starts "model 'NAME': " loses that
 * prefix; MSG that starts "model 'NAME' " (a sentence about it: "... has
 * no wheel function") is kept whole, or with CTX said first ("model
 * 'NAME'CTX: the model has no ..."); MSG naming the model further in is
 * kept whole when there is no CTX. */
int rs_fail_model(char *err, size_t errlen, int status, const char *name, const char *ctx, const char *msg);

#endif /* RS_ERROR_H */
