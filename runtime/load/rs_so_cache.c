/*
 * rs_so_cache.c — where RS_LOAD_DLOPEN keeps the shared objects it built,
 * and the key that says whether one can be reused (rs_so_cache.h).
 *
 * Building a model with the system compiler costs seconds to a minute (the
 * FEVE 3000 at -O3); a run that finds the object for the same generated C,
 * ABI headers, compiler, flags and — with -march=native — CPU opens it at
 * once.  Objects are written under a temporary name and renamed into place,
 * so concurrent runs and killed builds never leave a half object under a
 * final name.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rs_error.h"
#include "rs_so_cache.h"
#include "rs_status.h"

#define FNV_OFFSET 1469598103934665603ULL
#define FNV_PRIME 1099511628211ULL

static unsigned long long mix(unsigned long long h, const void *bytes, size_t n)
{
    const unsigned char *p = bytes;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * FNV_PRIME;
    return h;
}

static unsigned long long mix_str(unsigned long long h, const char *s)
{
    return mix(h, s, strlen(s) + 1);   /* the NUL separates fields */
}

/* The bytes of a file (its name is the caller's to add); a missing file
 * adds a marker. */
static unsigned long long mix_file(unsigned long long h, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return mix_str(h, "<missing>");
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        h = mix(h, buf, n);
    fclose(f);
    return h;
}

/* The compiler's identity: its resolved path, size and modification time
 * (an upgraded compiler is another file). */
static unsigned long long mix_compiler(unsigned long long h, const char *cc)
{
    char path[4096];
    struct stat sb;
    int found = 0;
    if (strchr(cc, '/')) {
        snprintf(path, sizeof path, "%s", cc);
        found = stat(path, &sb) == 0;
    } else {
        const char *env = getenv("PATH");
        char dirs[8192];
        snprintf(dirs, sizeof dirs, "%s", env ? env : "/usr/bin:/bin");
        for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
            snprintf(path, sizeof path, "%s/%s", *d ? d : ".", cc);
            found = stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
        }
    }
    h = mix_str(h, found ? path : cc);
    if (found) {
        const long long id[3] = {(long long)sb.st_size, (long long)sb.st_mtime, (long long)sb.st_ino};
        h = mix(h, id, sizeof id);
    }
    return h;
}

/* With -march=native or -mtune=native the object fits this CPU only: its
 * model name and feature flags join the key (a cache folder shared by
 * machines keeps one object per kind of CPU). */
static unsigned long long mix_cpu(unsigned long long h, const char *cflags)
{
    if (!strstr(cflags, "=native"))
        return h;
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return mix_str(h, "<no cpuinfo>");
    char line[8192];
    int seen = 0;
    while (seen < 2 && fgets(line, sizeof line, f))
        if (strncmp(line, "model name", 10) == 0 || strncmp(line, "flags", 5) == 0) {
            h = mix_str(h, line);
            seen++;
        }
    fclose(f);
    return h;
}

unsigned long long rs_so_cache_key(const char *const *files, int n, const char *symbol, const char *cc,
                                   const char *cflags, const char *include_dir)
{
    unsigned long long h = FNV_OFFSET;
    h = mix_str(h, "railsym-so-1");   /* the layout of this key */
    h = mix_str(h, symbol);
    for (int i = 0; i < n; i++) {
        const char *base = strrchr(files[i], '/');
        h = mix_str(h, base ? base + 1 : files[i]);   /* the folder's place does not matter */
        h = mix_file(h, files[i]);
    }
    static const char *const headers[] = {"rs_abi.h", "rs_model.h"};
    for (int i = 0; i < 2; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", include_dir, headers[i]);
        h = mix_str(h, headers[i]);
        h = mix_file(h, path);
    }
    h = mix_compiler(h, cc);
    h = mix_str(h, cflags);
    return mix_cpu(h, cflags);
}

/* mkdir -p for the cache folder (0700: the user's own). */
static int make_dirs(char *path)
{
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            const int r = mkdir(path, 0700);
            *p = '/';
            if (r != 0 && errno != EEXIST)
                return -1;
        }
    return mkdir(path, 0700) == 0 || errno == EEXIST ? 0 : -1;
}

int rs_so_cache_dir(const char *given, char *buf, size_t len, char *err, size_t errlen)
{
    const char *env = getenv("RAILSYM_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int w;
    if (given && given[0])
        w = snprintf(buf, len, "%s", given);
    else if (env && env[0])
        w = snprintf(buf, len, "%s", env);
    else if (xdg && xdg[0] == '/')
        w = snprintf(buf, len, "%s/railsym", xdg);
    else if (home && home[0])
        w = snprintf(buf, len, "%s/.cache/railsym", home);
    else
        return rs_fail(err, errlen, RS_E_IO,
                       "no cache folder for built models: set RAILSYM_CACHE_DIR (or HOME, XDG_CACHE_HOME)");
    if (w < 0 || (size_t)w >= len)
        return rs_fail(err, errlen, RS_E_ARG, "the cache folder's name is too long");
    if (make_dirs(buf) != 0)
        return rs_fail(err, errlen, RS_E_IO, "cannot create the cache folder %s: %s (set RAILSYM_CACHE_DIR)", buf,
                       strerror(errno));
    return RS_OK;
}
