/*
 * rs_file.h — two helpers every reader and runner of the runtime needs:
 * a whole file into memory, and the monotonic clock in seconds.  Not part
 * of the embedded core (rs_ws, rs_step, ... never read files).
 */
#ifndef RS_FILE_H
#define RS_FILE_H

#include <stddef.h>

/* Reads all of `path` into *text (malloc; the caller frees it): the file's
 * *len bytes, a NUL, then `room` more bytes free for the caller to append.
 * max > 0 refuses a file of more than max bytes.  Returns 0, or an errno
 * value for the caller's message: the open's (ENOENT, EACCES, ...), EIO
 * (a read error), EFBIG (over max), ENOMEM.  *text is NULL on failure. */
int rs_read_file(const char *path, size_t max, size_t room, char **text, size_t *len);

/* CLOCK_MONOTONIC in seconds: for wall times of runs and variants. */
double rs_now_s(void);

#endif /* RS_FILE_H */
