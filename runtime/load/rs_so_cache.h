/*
 * rs_so_cache.h — private to the loaders: the folder where RS_LOAD_DLOPEN
 * keeps built models, and their content key (rs_so_cache.c).
 */
#ifndef RS_SO_CACHE_H
#define RS_SO_CACHE_H

#include <stddef.h>

/* FNV-1a 64 over what the object depends on: the .c files' names (not
 * their folder) and bytes, the ABI headers in include_dir, the compiler's
 * resolved path, size and time stamp, the flags, and the CPU when the flags
 * say native. */
unsigned long long rs_so_cache_key(const char *const *files, int n, const char *symbol, const char *cc,
                                   const char *cflags, const char *include_dir);

/* The cache folder, created (0700) if missing, into buf: `given` when
 * non-empty, else $RAILSYM_CACHE_DIR, else $XDG_CACHE_HOME/railsym, else
 * $HOME/.cache/railsym.  RS_OK or an error with the message in err. */
int rs_so_cache_dir(const char *given, char *buf, size_t len, char *err, size_t errlen);

#endif /* RS_SO_CACHE_H */
