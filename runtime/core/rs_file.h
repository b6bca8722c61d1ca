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

/* The same for `path`: for a folder that holds model.json (a compiled model
 * given where a file is expected), "it is a compiled model folder (it has
 * model.json), not a file". */
const char *rs_file_why_at(const char *path, int why);

/* The check every reader of a text file makes on all `len` bytes it read
 * (a parser that stopped at the first NUL would silently ignore the rest):
 * RS_OK, or RS_E_SYNTAX with "FILE:LINE: a NUL byte at column C: the file is
 * binary or corrupt" in err (lines and columns from 1). */
int rs_text_check(const char *text, size_t len, const char *file, char *err, size_t errlen);

/* The kinds of railsym input files, for telling one given in place of
 * another ("a profile given as a track"). */
enum rs_file_kind {
    RS_KIND_UNKNOWN = 0, /* nothing decisive: the reader's own checks speak */
    RS_KIND_SCENARIO,
    RS_KIND_TRAIN,
    RS_KIND_PROFILE,
    RS_KIND_TRACK,
    RS_KIND_VDL,
    RS_KIND_CSV
};

/* "scenario", "train", "profile", "track", "vehicle description (.vdl)",
 * "CSV table", "unknown". */
const char *rs_file_kind_name(int kind);

/* What `text` looks like, in one pass over the first word of each line
 * (blank lines and '#' comments skipped): the header of the first line
 * ("railsym-profile", "railsym-track"), else the first line whose keyword
 * only one kind has (`body`, `coord` ... a .vdl; `vehicle`, `order` ... a
 * train; `initial`, `input`, `columns`, `method` ... a scenario), else a
 * first line of comma-separated fields (a CSV table).  `prefer`'s own
 * keywords end the scan with that kind.  *line and first (optional) get the
 * deciding line's number (from 1) and text. */
int rs_file_kind_of(const char *text, size_t len, int prefer, int *line, char *first, size_t firstlen);

/* The check every reader makes after rs_text_check: RS_OK when the text
 * could be of kind `expected`, else RS_E_SYNTAX with "FILE:LINE: the file
 * looks like a KIND file (first line 'TEXT'), not a EXPECTED file; FIX" in
 * err ("line N" instead of "first line" when lines of no decisive keyword
 * come first). */
int rs_kind_check(const char *text, size_t len, const char *file, int expected, char *err, size_t errlen);

#endif /* RS_FILE_H */
