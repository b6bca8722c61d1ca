/*
 * rs_log.h — the one way the runtime's log lines travel (progress lines,
 * warnings, summaries of long runs).
 *
 * The library never prints: it formats a line and hands it to the caller's
 * sink, a callback with a context.  The line carries no command prefix and
 * no newline; the caller decides where lines go and how they look (the
 * `railsym` command writes them on stderr as "railsym run: <line>",
 * cli/cli.hpp's cli::LogSink; a test collects them).  A sink whose fn is
 * NULL drops every line, so {0} is "silent".
 *
 * Error messages of a failed call go into the caller's (err, errlen)
 * buffer, returned with the status (rs_error.h): a log line is what a successful run
 * has to say on the way.
 */
#ifndef RS_LOG_H
#define RS_LOG_H

#include <stddef.h>

typedef enum rs_log_kind {
    RS_LOG_LINE = 0,       /* one line: the sink adds its prefix and the newline */
    RS_LOG_PROGRESS = 1,   /* a line the next one replaces (a terminal rewrites
                              it in place; a file keeps each)                    */
    RS_LOG_RAW = 2         /* text passed through as is (a report of several
                              lines with their newlines): no prefix              */
} rs_log_kind;

typedef struct rs_log {
    void (*fn)(void *ctx, rs_log_kind kind, const char *text);
    void *ctx;
} rs_log;

/* Longest line rs_logf formats (longer ones are cut). */
#define RS_LOG_LINE_MAX 1024

/* Formats one line and hands it to log->fn (log NULL or fn NULL: nothing). */
void rs_logf(const rs_log *log, rs_log_kind kind, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Hands `text` to the sink unformatted (any length). */
void rs_log_text(const rs_log *log, rs_log_kind kind, const char *text);

#endif /* RS_LOG_H */
