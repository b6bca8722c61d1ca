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
 * value for the caller's message: the open's (ENOENT, EACCES, ...), EISDIR
 * (a folder), EIO (a read error), EFBIG (over max), ENOMEM.  *text is NULL on failure. */
int rs_read_file(const char *path, size_t max, size_t room, char **text, size_t *len);

/* Why a file could not be read, for messages: "it is a directory" for
 * EISDIR (rs_read_file's answer for a folder), strerror's text otherwise. */
const char *rs_file_why(int why);

/* The check every reader of a text file makes on all `len` bytes it read
 * (a parser that stopped at the first NUL would silently ignore the rest):
 * RS_OK, or RS_E_SYNTAX with "FILE:LINE: a NUL byte at column C: the file is
 * binary or corrupt" in err (lines and columns from 1). */
int rs_text_check(const char *text, size_t len, const char *file, char *err, size_t errlen);

#endif /* RS_FILE_H */
