/*
 * rs_temp.h — temporary files and folders that nothing leaves behind.
 *
 * Two halves:
 *   - a registry of the paths a process has created (or is about to create)
 *     and will remove itself when done.  A program that installs handlers
 *     for SIGINT, SIGTERM and SIGHUP (the railsym command, cli/signals.cpp)
 *     calls rs_temp_cleanup_now() from them: it only calls unlink and rmdir
 *     on paths copied into the registry beforehand, so it is
 *     async-signal-safe.  The library never installs a handler itself.
 *   - temporary folders named PREFIX-[HOST-]PID-XXXXXX: creating one first
 *     removes, in the same folder, those of the same PREFIX (and HOST) whose
 *     PID no longer runs — what a SIGKILL, a crash or a power cut left.
 *
 * Registering is thread-safe.  A registered folder is removed by the handler
 * only if everything in it was registered too (rmdir of an empty folder):
 * register each file before creating it (removing a path that does not
 * exist yet is harmless).
 */
#ifndef RS_TEMP_H
#define RS_TEMP_H

#include <stddef.h>

/* How many paths the registry holds at once, and their longest length. */
#define RS_TEMP_SLOTS 64
#define RS_TEMP_PATH_MAX 1024

/* Registers `path` for removal by rs_temp_cleanup_now.  RS_OK, or RS_E_NOMEM
 * when the registry is full, RS_E_ARG for a path of RS_TEMP_PATH_MAX bytes
 * or more (a message in err either way). */
int rs_temp_add(const char *path, char *err, size_t errlen);

/* Forgets `path` (once the program removed or renamed it); no effect for a
 * path not registered. */
void rs_temp_forget(const char *path);

/* Registers a child process that works in a registered folder (the C
 * compiler of the dlopen loader): on a signal it, and the process group it
 * leads if it was started as one, gets the same signal and is
 * waited for, so that it removes its own temporary files (gcc's cc*.s) and
 * writes nothing into a folder being removed.  At most RS_TEMP_CHILDREN at
 * once; 0, or -1 when full (the child then simply is not forwarded to). */
#define RS_TEMP_CHILDREN 16
int rs_temp_add_child(long pid);
void rs_temp_forget_child(long pid);

/* Sends `sig` (when > 0) to the registered children and waits for each, and
 * the members of its process group, up to 2 s (then SIGKILL); then removes
 * every registered path: files and scratch folders' entries first, then
 * folders from the deepest.  Async-signal-safe (kill, waitpid, nanosleep,
 * open, getdents64, unlinkat, unlink, rmdir); the registry keeps the paths (the process is about to
 * end).  For signal handlers and for tests. */
void rs_temp_cleanup_now(int sig);

/* Creates the folder PARENT/PREFIX-PID-XXXXXX (with_host: PREFIX-HOST-PID-
 * XXXXXX, for folders on a file system several machines may share) with
 * mkdtemp, registers it, and writes its path to out.  First removes the
 * stale ones (rs_temp_remove_stale).  PARENT NULL or "" is $TMPDIR, else
 * /tmp.  RS_OK, or RS_E_IO with the reason in err. */
int rs_temp_dir(const char *parent, const char *prefix, int with_host, char *out, size_t outlen, char *err,
                size_t errlen);

/* A scratch folder: rs_temp_dir(NULL, prefix, 0, ...) whose entries are
 * removed with it by rs_temp_cleanup_now even though nobody registered them
 * (one level: plain files).  For a child program's own temporary files whose
 * names the program cannot know (the C compiler's cc*.s and cc*.o: its TMPDIR
 * is pointed here).  RS_OK, or RS_E_IO / RS_E_NOMEM with the reason in err. */
int rs_temp_scratch_dir(const char *prefix, char *out, size_t outlen, char *err, size_t errlen);

/* Removes a scratch folder's entries and the folder, and forgets it. */
void rs_temp_scratch_remove(const char *path);

/* Removes, with their content, the entries of `parent` named exactly
 * PREFIX-[HOST-]PID-XXXXXX (6 letters or digits; HOST this machine's name)
 * whose process PID no longer exists (kill(PID, 0) fails with ESRCH).
 * Nothing else is touched: another prefix, another host, a living process,
 * a name that does not fit.  Returns how many were removed. */
int rs_temp_remove_stale(const char *parent, const char *prefix, int with_host);

/* This machine's name as used in temporary names ("host" when unknown;
 * characters other than letters, digits, '.', '_' become '_'). */
void rs_temp_host(char *out, size_t outlen);

/* 1 when no process `pid` exists (kill(pid, 0) fails with ESRCH), else 0. */
int rs_temp_pid_dead(long pid);

#endif /* RS_TEMP_H */
