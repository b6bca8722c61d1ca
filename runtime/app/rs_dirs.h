/*
 * rs_dirs.h — output folders of runs that write several files (sweeps,
 * critical-speed searches).
 */
#ifndef RS_DIRS_H
#define RS_DIRS_H

/* Creates `dir` and its missing parents (mode 0777 less the umask), like
 * `mkdir -p`.  0 when `dir` is a folder afterwards, -1 otherwise (errno
 * says why; a path longer than 4095 characters is refused). */
int rs_make_dirs(const char *dir);

#endif /* RS_DIRS_H */
