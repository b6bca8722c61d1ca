/*
 * rs_temp.c — see rs_temp.h.
 *
 * The registry is a fixed table (no allocation, so registering cannot fail
 * half-way and the handler never meets a pointer being freed): a slot's path
 * is written under the lock, then published by an atomic store of its state;
 * the handler reads only published slots and calls only unlink and rmdir,
 * which POSIX lists as async-signal-safe.
 */
#define _GNU_SOURCE /* getdents64: a folder's entries without malloc (opendir allocates) */
#include "rs_temp.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rs_error.h"
#include "rs_status.h"

static struct {
    atomic_int used;    /* 1: path holds a registered path */
    atomic_int scratch; /* 1: a folder whose unregistered entries are removed too (rs_temp_scratch_dir) */
    char path[RS_TEMP_PATH_MAX];
} slots[RS_TEMP_SLOTS];
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;

int rs_temp_add(const char *path, char *err, size_t errlen)
{
    const size_t n = strlen(path);
    if (n >= RS_TEMP_PATH_MAX)
        return rs_fail(err, errlen, RS_E_ARG,
                       "the temporary path '%.60s...' is %zu bytes long, over %d: set TMPDIR to a shorter folder",
                       path, n, RS_TEMP_PATH_MAX - 1);
    pthread_mutex_lock(&slots_lock);
    for (int i = 0; i < RS_TEMP_SLOTS; i++) {
        if (atomic_load(&slots[i].used))
            continue;
        memcpy(slots[i].path, path, n + 1);
        atomic_store(&slots[i].scratch, 0);
        atomic_store(&slots[i].used, 1);
        pthread_mutex_unlock(&slots_lock);
        return RS_OK;
    }
    pthread_mutex_unlock(&slots_lock);
    return rs_fail(err, errlen, RS_E_NOMEM,
                   "more than %d temporary files at once: the registry that removes them on a signal is full",
                   RS_TEMP_SLOTS);
}

/* The slot registered last for path, or -1; the caller holds slots_lock. */
static int slot_of(const char *path)
{
    for (int i = RS_TEMP_SLOTS - 1; i >= 0; i--)
        if (atomic_load(&slots[i].used) && strcmp(slots[i].path, path) == 0)
            return i;
    return -1;
}

void rs_temp_forget(const char *path)
{
    pthread_mutex_lock(&slots_lock);
    const int i = slot_of(path);
    if (i >= 0)
        atomic_store(&slots[i].used, 0);
    pthread_mutex_unlock(&slots_lock);
}

static atomic_long children[RS_TEMP_CHILDREN];

int rs_temp_add_child(long pid)
{
    for (int i = 0; i < RS_TEMP_CHILDREN; i++) {
        long zero = 0;
        if (atomic_compare_exchange_strong(&children[i], &zero, pid))
            return 0;
    }
    return -1;
}

void rs_temp_forget_child(long pid)
{
    for (int i = 0; i < RS_TEMP_CHILDREN; i++) {
        long p = pid;
        if (atomic_compare_exchange_strong(&children[i], &p, 0))
            return;
    }
}

/* The child and its process group get sig and up to 2 s to end (then SIGKILL).
 * waitpid reaps the child unless the program's own waitpid did first (ECHILD:
 * it is gone anyway).  The group is waited for too: gcc's driver removes its
 * temporary files and dies at once, while cc1 or as, in the same group, may
 * still be creating theirs (a file made after the driver's clean-up outlives
 * both); kill(-pid, 0) fails with ESRCH once no member is left. */
static void stop_child(pid_t pid, int sig)
{
    kill(-pid, sig); /* its process group (rs_load_dlopen.c makes one), */
    kill(pid, sig);  /* or itself when it has none */
    const struct timespec tick = {0, 10 * 1000 * 1000};
    int reaped = 0;
    for (int i = 0; i < 200; i++) {
        if (!reaped) {
            const pid_t r = waitpid(pid, NULL, WNOHANG);
            reaped = r == pid || (r < 0 && errno != EINTR);
        }
        if (reaped && kill(-pid, 0) < 0 && errno == ESRCH)
            return;
        nanosleep(&tick, NULL);
    }
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
    if (!reaped)
        waitpid(pid, NULL, 0);
    for (int i = 0; i < 50 && !(kill(-pid, 0) < 0 && errno == ESRCH); i++)
        nanosleep(&tick, NULL); /* members killed: only their reaping by init is left */
}

/* Removes the plain entries of folder `path` (one level), with system calls
 * only (open, getdents64, unlinkat, close): async-signal-safe, no malloc.
 * Bounded: at most 64 reads of the folder. */
static void empty_folder(const char *path)
{
    const int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return;
    char buf[4096] __attribute__((aligned(8)));
    for (int reads = 0; reads < 64; reads++) {
        const ssize_t n = getdents64(fd, buf, sizeof buf);
        if (n <= 0)
            break;
        for (ssize_t off = 0; off < n;) {
            const struct dirent64 *e = (const struct dirent64 *)(buf + off);
            off += e->d_reclen;
            if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
                unlinkat(fd, e->d_name, 0);
        }
    }
    close(fd);
}

void rs_temp_cleanup_now(int sig)
{
    const int saved = errno; /* a handler must leave errno as it found it */
    if (sig > 0)
        for (int i = 0; i < RS_TEMP_CHILDREN; i++) {
            const long pid = atomic_load(&children[i]);
            if (pid > 0)
                stop_child((pid_t)pid, sig);
        }
    for (int i = 0; i < RS_TEMP_SLOTS; i++)
        if (atomic_load(&slots[i].used)) {
            if (atomic_load(&slots[i].scratch))
                empty_folder(slots[i].path);
            unlink(slots[i].path); /* a folder fails here (EISDIR/EPERM) and goes below */
        }
    /* Folders in folders: each pass removes the innermost empty ones; at
     * most one pass per slot, so the loop is bounded. */
    for (int pass = 0; pass < RS_TEMP_SLOTS; pass++) {
        int removed = 0;
        for (int i = 0; i < RS_TEMP_SLOTS; i++)
            if (atomic_load(&slots[i].used) && rmdir(slots[i].path) == 0)
                removed++;
        if (!removed)
            break;
    }
    errno = saved;
}

void rs_temp_host(char *out, size_t outlen)
{
    char h[256];
    if (gethostname(h, sizeof h) != 0 || !h[0])
        snprintf(h, sizeof h, "host");
    h[sizeof h - 1] = '\0';
    /* '-' separates the fields of the name, so it cannot be in HOST. */
    for (char *c = h; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '.' && *c != '_')
            *c = '_';
    snprintf(out, outlen, "%s", h);
}

int rs_temp_pid_dead(long pid)
{
    if (pid <= 1 || (pid_t)pid != pid)
        return 0;
    return kill((pid_t)pid, 0) == -1 && errno == ESRCH;
}

/* The PID of a name PREFIX-[HOST-]PID-XXXXXX, or -1 when the name does not
 * fit that pattern exactly. */
static long stale_pid(const char *name, const char *head)
{
    const size_t hl = strlen(head);
    if (strncmp(name, head, hl) != 0)
        return -1;
    const char *p = name + hl, *d = p;
    while (isdigit((unsigned char)*d))
        d++;
    if (d == p || d - p > 10 || *d != '-')
        return -1;
    for (int k = 1; k <= 6; k++)
        if (!isalnum((unsigned char)d[k]))
            return -1;
    if (d[7] != '\0')
        return -1;
    return strtol(p, NULL, 10);
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (flag == FTW_DP)
        rmdir(path);
    else
        unlink(path);
    return 0;
}

int rs_temp_remove_stale(const char *parent, const char *prefix, int with_host)
{
    char head[512], host[256] = "";
    if (with_host)
        rs_temp_host(host, sizeof host);
    snprintf(head, sizeof head, "%s-%s%s", prefix, host, with_host ? "-" : "");
    DIR *d = opendir(parent);
    if (!d)
        return 0;
    int removed = 0;
    const long self = (long)getpid();
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const long pid = stale_pid(e->d_name, head);
        if (pid < 0 || pid == self || !rs_temp_pid_dead(pid))
            continue;
        char path[RS_TEMP_PATH_MAX + 256];
        snprintf(path, sizeof path, "%s/%s", parent, e->d_name);
        struct stat st;
        if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode))
            continue; /* ours are folders; a file of that name is not ours */
        /* FTW_PHYS: a link inside is removed, never followed. */
        nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
        removed++;
    }
    closedir(d);
    return removed;
}

int rs_temp_dir(const char *parent, const char *prefix, int with_host, char *out, size_t outlen, char *err,
                size_t errlen)
{
    if (!parent || !parent[0])
        parent = getenv("TMPDIR");
    if (!parent || !parent[0])
        parent = "/tmp";
    rs_temp_remove_stale(parent, prefix, with_host);
    char host[256] = "";
    if (with_host)
        rs_temp_host(host, sizeof host);
    const int n = snprintf(out, outlen, "%s/%s-%s%s%ld-XXXXXX", parent, prefix, host, with_host ? "-" : "",
                           (long)getpid());
    if (n < 0 || (size_t)n >= outlen || (size_t)n >= RS_TEMP_PATH_MAX)
        return rs_fail(err, errlen, RS_E_IO, "the temporary folder name under '%s' is too long: set TMPDIR to a shorter folder",
                       parent);
    if (!mkdtemp(out)) {
        const int why = errno;
        return rs_fail(err, errlen, RS_E_IO, "cannot create a temporary folder in '%s': %s (set TMPDIR to a writable folder)",
                       parent, strerror(why));
    }
    const int st = rs_temp_add(out, err, errlen);
    if (st != RS_OK)
        rmdir(out);
    return st;
}

int rs_temp_scratch_dir(const char *prefix, char *out, size_t outlen, char *err, size_t errlen)
{
    const int st = rs_temp_dir(NULL, prefix, 0, out, outlen, err, errlen);
    if (st != RS_OK)
        return st;
    pthread_mutex_lock(&slots_lock);
    const int i = slot_of(out);
    if (i >= 0)
        atomic_store(&slots[i].scratch, 1);
    pthread_mutex_unlock(&slots_lock);
    return RS_OK;
}

void rs_temp_scratch_remove(const char *path)
{
    empty_folder(path);
    rmdir(path);
    rs_temp_forget(path);
}
