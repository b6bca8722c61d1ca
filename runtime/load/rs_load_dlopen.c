/*
 * rs_load_dlopen.c — compile a model folder with the system C compiler into
 * a shared object and open it.
 *
 * The compiler runs through posix_spawnp with an argument vector (no shell,
 * so paths need no quoting); its stdout and stderr go to a log file whose
 * text is returned in err when compilation fails.
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rs_error.h"
#include "rs_load_impl.h"
#include "rs_so_cache.h"
#include "rs_status.h"
#include "rs_temp.h"

extern char **environ;

#define MAX_FLAGS 64

/* Appends up to errlen bytes of the compiler log to err. */
static void append_log(const char *log, char *err, size_t errlen)
{
    FILE *f = fopen(log, "r");
    if (!f)
        return;
    size_t used = strlen(err);
    if (used + 2 < errlen) {
        err[used++] = '\n';
        size_t got = fread(err + used, 1, errlen - used - 1, f);
        err[used + got] = '\0';
    }
    fclose(f);
}

/* The environment with TMPDIR=scratch in place of the program's own (envp has
 * room for every entry of environ plus two; tmpdir holds "TMPDIR=..."). */
static void environ_with_tmpdir(char **envp, char *tmpdir, size_t len, const char *scratch)
{
    snprintf(tmpdir, len, "TMPDIR=%s", scratch);
    size_t k = 0;
    for (char **e = environ; *e; e++)
        if (strncmp(*e, "TMPDIR=", 7) != 0)
            envp[k++] = *e;
    envp[k++] = tmpdir;
    envp[k] = NULL;
}

/* Runs the compiler command argv (its output to log) with TMPDIR in a
 * scratch folder of ours, removed afterwards with whatever it holds: a signal
 * can stop the compiler between the moment its driver cleans up and the
 * moment cc1 or as creates a file (their cc*.s, cc*.o), which nothing would
 * then remove. */
static int spawn_compiler(char **argv, const char *const *files, int n, const rs_load_options *o,
                          const char *log, char *err, size_t errlen)
{
    char scratch[RS_TEMP_PATH_MAX], tmpdir[RS_TEMP_PATH_MAX + 8];
    int st = rs_temp_scratch_dir("railsym-cc", scratch, sizeof scratch, err, errlen);
    if (st != RS_OK)
        return st;
    size_t nenv = 0;
    while (environ[nenv])
        nenv++;
    char **envp = calloc(nenv + 2, sizeof *envp);
    if (!envp) {
        rs_temp_scratch_remove(scratch);
        return rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
    }
    environ_with_tmpdir(envp, tmpdir, sizeof tmpdir, scratch);

    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    /* Its own process group, so that the command's signal handler can stop
     * the compiler with the programs it runs (cc1, as) and wait for them all
     * before it empties the scratch folder (rs_temp_add_child). */
    /* The signals that stop the command are held back from the spawn until
     * the child is registered, so none finds it unregistered; the child
     * starts with the mask the program had. */
    sigset_t stop, old;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &stop, &old);
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
    posix_spawnattr_setpgroup(&at, 0);
    posix_spawnattr_setsigmask(&at, &old);
    pid_t pid;
    int rc = posix_spawnp(&pid, o->cc, &fa, &at, argv, envp);
    posix_spawnattr_destroy(&at);
    posix_spawn_file_actions_destroy(&fa);
    if (rc == 0)
        rs_temp_add_child((long)pid);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    free(envp);
    if (rc != 0) {
        rs_temp_scratch_remove(scratch);
        return rs_fail(err, errlen, RS_E_LOAD, "cannot run the C compiler '%s': %s", o->cc, strerror(rc));
    }
    /* on a signal meanwhile, the command's handler stops it (rs_temp.h) */
    /* forgotten before it is reaped, so its PID is never reused meanwhile */
    siginfo_t info;
    while (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT) < 0 && errno == EINTR)
        ;
    rs_temp_forget_child((long)pid);
    int wst = 0;
    while (waitpid(pid, &wst, 0) < 0)
        ;
    rs_temp_scratch_remove(scratch);
    if (!WIFEXITED(wst) || WEXITSTATUS(wst) != 0) {
        rs_fail(err, errlen, RS_E_LOAD, "C compiler '%s' failed (exit %d) on %s%s:", o->cc,
                WIFEXITED(wst) ? WEXITSTATUS(wst) : -1, files[0], n > 1 ? " ..." : "");
        append_log(log, err, errlen);
        return RS_E_LOAD;
    }
    return RS_OK;
}

/* Compiles files into the shared object so (spawn_compiler). */
static int run_compiler(const char *const *files, int n, const rs_load_options *o,
                        const char *so, const char *log, char *err, size_t errlen)
{
    char flags[1024];
    snprintf(flags, sizeof flags, "%s", o->cflags);
    const size_t max_argv = (size_t)n + MAX_FLAGS + 10;
    char **argv = calloc(max_argv, sizeof *argv);
    if (!argv)
        return rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
    size_t a = 0;
    argv[a++] = (char *)o->cc;
    for (char *save = NULL, *tok = strtok_r(flags, " \t\n", &save); tok;
         tok = strtok_r(NULL, " \t\n", &save)) {
        if (a >= MAX_FLAGS) {
            free(argv);
            return rs_fail(err, errlen, RS_E_ARG, "too many compiler flags (more than %d)", MAX_FLAGS);
        }
        argv[a++] = tok;
    }
    argv[a++] = "-shared";
    argv[a++] = "-I";
    argv[a++] = (char *)o->include_dir;
    argv[a++] = "-o";
    argv[a++] = (char *)so;
    for (int i = 0; i < n; i++)
        argv[a++] = (char *)files[i];
    argv[a++] = "-lm";
    argv[a] = NULL;
    const int st = spawn_compiler(argv, files, n, o, log, err, errlen);
    free(argv);
    return st;
}

/* Opens the object and reads the model from its symbol. */
static int open_object(rs_loaded *h, const char *so, const char *file0, const char *symbol, char *err,
                       size_t errlen)
{
    h->dl = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    if (!h->dl)
        return rs_fail(err, errlen, RS_E_LOAD, "dlopen(%s): %s", so, dlerror());
    /* POSIX: a function pointer travels through void * from dlsym. */
    rs_model_fn fn;
    void *sym = dlsym(h->dl, symbol);
    memcpy(&fn, &sym, sizeof fn);
    if (!sym) {
        dlclose(h->dl);
        h->dl = NULL;
        return rs_fail(err, errlen, RS_E_LOAD, "%s: no symbol '%s' (is the model name right?)", file0, symbol);
    }
    h->model = fn();
    return RS_OK;
}

/* The cached object for these files and options: opened when it is there,
 * else built under a temporary name in the cache folder and renamed into
 * place (concurrent builds of the same key each rename a whole object). */
static int load_cached(rs_loaded *h, const char *const *files, int n, const char *symbol, const rs_load_options *o,
                       char *err, size_t errlen)
{
    char dir[4096], so[4400], tmp[4400], log[4400];
    int st = rs_so_cache_dir(o->cache_dir, dir, sizeof dir, err, errlen);
    if (st)
        return st;
    const unsigned long long key = rs_so_cache_key(files, n, symbol, o->cc, o->cflags, o->include_dir);
    snprintf(so, sizeof so, "%s/%s-%016llx.so", dir, symbol, key);
    if (access(so, R_OK) == 0 && open_object(h, so, files[0], symbol, err, errlen) == RS_OK)
        return RS_OK;
    /* missing, or unusable (then built again over it) */
    snprintf(tmp, sizeof tmp, "%s/.%s-%016llx.tmp-%ld.so", dir, symbol, key, (long)getpid());
    snprintf(log, sizeof log, "%s/.%s-%016llx.tmp-%ld.log", dir, symbol, key, (long)getpid());
    if (err && errlen)
        err[0] = '\0';
    /* registered before the compiler makes them: a signal meanwhile removes them */
    if ((st = rs_temp_add(tmp, err, errlen)) || (st = rs_temp_add(log, err, errlen))) {
        rs_temp_forget(tmp);
        return st;
    }
    st = run_compiler(files, n, o, tmp, log, err, errlen);
    unlink(log);
    if (st == RS_OK && rename(tmp, so) != 0)
        st = rs_fail(err, errlen, RS_E_IO, "cannot put the built model into the cache (%s): %s", so,
                     strerror(errno));
    unlink(tmp);
    rs_temp_forget(tmp);
    rs_temp_forget(log);
    return st == RS_OK ? open_object(h, so, files[0], symbol, err, errlen) : st;
}

int rs_load_dlopen_impl(rs_loaded *h, const char *const *files, int n, const char *symbol,
                        const rs_load_options *o, char *err, size_t errlen)
{
    if (!o->keep_dir && !(o->cache_dir && !o->cache_dir[0]))
        return load_cached(h, files, n, symbol, o, err, errlen);
    char dir[4096], so[4200], log[4200];
    int tmp = !o->keep_dir;
    if (tmp) {
        /* $TMPDIR/railsym-load-PID-XXXXXX; those of dead processes go first */
        const int st = rs_temp_dir(NULL, "railsym-load", 0, dir, sizeof dir, err, errlen);
        if (st != RS_OK)
            return st;
    } else {
        snprintf(dir, sizeof dir, "%s", o->keep_dir);
        mkdir(dir, 0755); /* may exist already */
    }
    snprintf(so, sizeof so, "%s/%s.so", dir, symbol);
    snprintf(log, sizeof log, "%s/%s.log", dir, symbol);
    if (tmp) {
        /* registered before the compiler makes them: a signal meanwhile removes them */
        int st = rs_temp_add(so, err, errlen);
        if (st == RS_OK)
            st = rs_temp_add(log, err, errlen);
        if (st != RS_OK) {
            rs_temp_forget(so);
            rmdir(dir);
            rs_temp_forget(dir);
            return st;
        }
    }

    int st = run_compiler(files, n, o, so, log, err, errlen);
    if (st == RS_OK)
        st = open_object(h, so, files[0], symbol, err, errlen);
    if (tmp) {
        /* The mapping stays valid after unlink; nothing is left behind. */
        unlink(so);
        unlink(log);
        rmdir(dir);
        rs_temp_forget(so);
        rs_temp_forget(log);
        rs_temp_forget(dir);
    }
    return st;
}

void rs_unload_dlopen_impl(rs_loaded *h)
{
    dlclose(h->dl);
    h->dl = NULL;
}
