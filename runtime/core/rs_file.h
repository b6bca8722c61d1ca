/*
 * rs_file.h — what every reader of the runtime needs: a whole file into
 * memory.  Not used by the embedded core (rs_ws, rs_step, ... never read
 * files).  The clock that used to live here is rs_clock.h.
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

#endif /* RS_FILE_H */
