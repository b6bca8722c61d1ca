/*
 * test_load_so_cache.c — RS_LOAD_DLOPEN keeps the object it built in a
 * cache folder keyed by the generated C, the ABI headers, the compiler and
 * the flags (rs_load.h, runtime/load/rs_so_cache.c).  The compiler is a
 * wrapper script that counts its runs before calling cc, so the test sees
 * exactly when a build happens:
 *
 *  - the first load builds, the second opens the cached object (no build)
 *    and gives the same model;
 *  - other flags build again; so does a changed generated C file;
 *  - the same folder copied elsewhere (same content) builds nothing;
 *  - cache_dir "" builds every time and adds nothing to the cache;
 *  - a damaged cached object is built again over;
 *  - no temporary file is left in the cache folder.
 */
#define _GNU_SOURCE
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rs_load.h"
#include "rs_test.h"

#define MODEL "generated/pendulum"

static char tmp[] = "/tmp/rs_so_cacheXXXXXX";
static char cc[512], count_file[512], cache[512];

static int builds(void)
{
    FILE *f = fopen(count_file, "r");
    if (!f)
        return 0;
    int n = 0, ch;
    while ((ch = fgetc(f)) != EOF)
        n += ch == '\n';
    fclose(f);
    return n;
}

/* Entries of the cache folder: objects (*.so) and others (temporaries). */
static void cache_entries(int *objects, int *others)
{
    *objects = *others = 0;
    DIR *d = opendir(cache);
    ck_assert_ptr_nonnull(d);
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        const size_t n = strlen(e->d_name);
        if (e->d_name[0] != '.' && n > 3 && !strcmp(e->d_name + n - 3, ".so"))
            (*objects)++;
        else
            (*others)++;
    }
    closedir(d);
}

static double load(const char *dir, const char *cflags, const char *cache_dir)
{
    rs_load_options o;
    rs_load_options_default(&o);
    o.cc = cc;
    o.cflags = cflags;
    o.cache_dir = cache_dir;
    o.model_name = "pendulum";
    char err[4096];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    rs_loaded *h = rs_load_ex(dir, RS_LOAD_DLOPEN, &o, err, sizeof err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    ck_assert_msg(h != NULL, "%s", err);
    ck_assert_str_eq(rs_loaded_model(h)->name, "pendulum");
    ck_assert_int_gt(rs_loaded_model(h)->n_q, 0);
    rs_unload(&h);
    return (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
}

START_TEST(builds_once_per_content)
{
    ck_assert_ptr_nonnull(mkdtemp(tmp));
    snprintf(cc, sizeof cc, "%s/cc-counting", tmp);
    snprintf(count_file, sizeof count_file, "%s/builds", tmp);
    snprintf(cache, sizeof cache, "%s/cache", tmp);
    FILE *f = fopen(cc, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "#!/bin/sh\necho build >> '%s'\nexec cc \"$@\"\n", count_file);
    fclose(f);
    ck_assert_int_eq(chmod(cc, 0755), 0);
    const char *O2 = RS_CFLAGS_O2, *O1 = "-std=c99 -O1 -fPIC";

    const double first = load(MODEL, O2, cache);
    ck_assert_int_eq(builds(), 1);
    const double second = load(MODEL, O2, cache);
    ck_assert_int_eq(builds(), 1);   /* opened from the cache */
    printf("so cache: first load %.3f s (built), second %.4f s (cached)\n", first, second);
    int objects, others;
    cache_entries(&objects, &others);
    ck_assert_int_eq(objects, 1);
    ck_assert_int_eq(others, 0);

    load(MODEL, O1, cache);   /* other flags */
    ck_assert_int_eq(builds(), 2);

    /* the same folder elsewhere: same key; then a changed C file: a build */
    char copy[600], cmd[2048];
    snprintf(copy, sizeof copy, "%s/pendulum-copy", tmp);
    snprintf(cmd, sizeof cmd, "cp -r %s %s", MODEL, copy);
    ck_assert_int_eq(system(cmd), 0);
    load(copy, O2, cache);
    ck_assert_int_eq(builds(), 2);
    snprintf(cmd, sizeof cmd, "echo '/* changed */' >> %s/pendulum.c", copy);
    ck_assert_int_eq(system(cmd), 0);
    load(copy, O2, cache);
    ck_assert_int_eq(builds(), 3);

    /* no cache: a build each time, nothing added */
    load(MODEL, O2, "");
    load(MODEL, O2, "");
    ck_assert_int_eq(builds(), 5);
    cache_entries(&objects, &others);
    ck_assert_int_eq(objects, 3);
    ck_assert_int_eq(others, 0);

    /* a damaged object (cut to 100 bytes) is built again */
    snprintf(cmd, sizeof cmd, "for f in %s/pendulum_model-*.so; do truncate -s 100 \"$f\"; done", cache);
    ck_assert_int_eq(system(cmd), 0);
    load(MODEL, O2, cache);
    ck_assert_int_eq(builds(), 6);
    load(MODEL, O2, cache);
    ck_assert_int_eq(builds(), 6);
    cache_entries(&objects, &others);
    ck_assert_int_eq(others, 0);

    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* `railsym compile --native` builds the object `railsym run --loader
 * dlopen` then opens: after the compile the cache holds one object, and the
 * run adds none. */
START_TEST(compile_native_fills_the_cache)
{
    char dir[] = "/tmp/rs_so_nativeXXXXXX", cmd[2048];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(cache, sizeof cache, "%s/cache", dir);
    const char *bin = getenv("RAILSYM_BIN");
    bin = bin && *bin ? bin : "./build/railsym";
    snprintf(cmd, sizeof cmd, "RAILSYM_CACHE_DIR=%s %s compile vehicles/examples/pendulum.vdl -o %s/p --native", cache,
             bin, dir);
    ck_assert_int_eq(system(cmd), 0);
    int objects, others;
    cache_entries(&objects, &others);
    ck_assert_int_eq(objects, 1);
    snprintf(cmd, sizeof cmd, "cd %s && ls -l --time-style=+%%s.%%N cache > before.txt", dir);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "RAILSYM_CACHE_DIR=%s %s run %s/p --loader dlopen --out %s/p.csv --quiet", cache, bin, dir,
             dir);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "cd %s && ls -l --time-style=+%%s.%%N cache | cmp -s - before.txt", dir);
    ck_assert_msg(system(cmd) == 0, "the run changed the cache");
    cache_entries(&objects, &others);
    ck_assert_int_eq(objects, 1);
    ck_assert_int_eq(others, 0);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("so_cache");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, builds_once_per_content);
    tcase_add_test(tc, compile_native_fills_the_cache);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
