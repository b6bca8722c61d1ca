/*
 * test_model_folder.c — compiled model folders that travel (docs/vdl.md
 * "The compiled folder"): the contact table's file names are stored
 * relative to the working directory of `railsym compile`, never absolute
 * for a relative name in the .vdl, and model.json's "contact_root" says
 * where that directory is as seen from the model folder.  Checked with the
 * built command ($RAILSYM_BIN, else ./build/railsym; run from the
 * repository root):
 *
 *  - a project tree (a .vdl, its profiles and track) compiled inside it,
 *    then moved as a whole, runs from another working directory (/) and
 *    gives the same CSV as before the move;
 *  - compiling from outside the repository (a .vdl given by an absolute
 *    path) writes no absolute file name, and the folder runs from /;
 *  - contact_root is the path from the model folder to where compile ran.
 */
#define _GNU_SOURCE
#include <check.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rs_test.h"
#include "rs_test_files.h"

static char bin[PATH_MAX], root[PATH_MAX];

#define sh rs_test_sh
#define slurp rs_test_read

static void setup(void)
{
    snprintf(bin, sizeof bin, "%s", rs_test_bin());
    ck_assert_ptr_nonnull(getcwd(root, sizeof root));
}

/* A copy of the wheelset_cone example with its files, compiled inside
 * its own tree, moved, and run from /. */
START_TEST(moved_tree_runs)
{
    setup();
    char dir[] = "/tmp/rs_model_folderXXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ck_assert_int_eq(sh("set -e; cd %s; mkdir -p proj/vehicles/examples proj/vehicles/profiles proj/vehicles/tracks; "
                        "cp %s/vehicles/examples/wheelset_cone.vdl proj/vehicles/examples/; "
                        "cp %s/vehicles/profiles/cone_1in40.prf %s/vehicles/profiles/arc_r300.prf "
                        "proj/vehicles/profiles/; cp %s/vehicles/tracks/straight.trk proj/vehicles/tracks/",
                        dir, root, root, root, root), 0);
    ck_assert_int_eq(sh("cd %s/proj && %s compile vehicles/examples/wheelset_cone.vdl -o out/wsc >/dev/null 2>&1",
                        dir, bin), 0);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/proj/out/wsc/model.json", dir);
    char *json = slurp(path);
    ck_assert_msg(strstr(json, "\"contact_root\": \"../..\""), "model.json: %.300s", json);
    ck_assert_msg(strstr(json, "\"file\": \"vehicles/profiles/cone_1in40.prf\""), "model.json lacks the relative "
                  "profile name");
    free(json);
    ck_assert_int_eq(sh("cd / && %s run %s/proj/out/wsc --set 'duration 0.02' --out %s/before.csv --quiet", bin, dir,
                        dir), 0);
    ck_assert_int_eq(sh("mv %s/proj %s/moved", dir, dir), 0);
    ck_assert_int_eq(sh("cd / && %s run %s/moved/out/wsc --set 'duration 0.02' --out %s/after.csv --quiet", bin, dir,
                        dir), 0);
    ck_assert_int_eq(sh("cmp -s %s/before.csv %s/after.csv", dir, dir), 0);
    /* without its tree the folder says which file it misses */
    ck_assert_int_eq(sh("mv %s/moved/vehicles %s/gone", dir, dir), 0);
    ck_assert_int_ne(sh("cd / && %s run %s/moved/out/wsc --set 'duration 0.02' --out %s/x.csv --quiet 2>%s/err.txt",
                        bin, dir, dir, dir), 0);
    snprintf(path, sizeof path, "%s/err.txt", dir);
    char *msg = slurp(path);
    ck_assert_msg(strstr(msg, "cone_1in40.prf"), "message: %s", msg);
    free(msg);
    ck_assert_int_eq(sh("rm -rf %s", dir), 0);
}
END_TEST

/* Compiled from outside the repository, with the .vdl's absolute path. */
START_TEST(compile_from_elsewhere_writes_no_absolute_name)
{
    setup();
    char dir[] = "/tmp/rs_model_folderXXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ck_assert_int_eq(sh("cd %s && %s compile %s/vehicles/examples/wheelset_cone.vdl -o a/b/wsc >/dev/null 2>&1", dir,
                        bin, root), 0);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/a/b/wsc/model.json", dir);
    char *json = slurp(path);
    ck_assert_msg(strstr(json, "\"contact_root\": \"../../..\""), "model.json: %.300s", json);
    ck_assert_msg(!strstr(json, "\"file\": \"/"), "an absolute file name in model.json");
    free(json);
    snprintf(path, sizeof path, "%s/a/b/wsc/wheelset_cone_model.c", dir);
    char *c = slurp(path), quoted[PATH_MAX + 2];
    snprintf(quoted, sizeof quoted, "\"%s", root);
    ck_assert_msg(!strstr(c, quoted), "the descriptor holds the absolute path %s", root);
    free(c);
    ck_assert_int_eq(sh("cd / && %s run %s/a/b/wsc --set 'duration 0.02' --out %s/r.csv --quiet", bin, dir, dir), 0);
    ck_assert_int_eq(sh("rm -rf %s", dir), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("model_folder");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, moved_tree_runs);
    tcase_add_test(tc, compile_from_elsewhere_writes_no_absolute_name);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
