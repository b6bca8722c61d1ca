/*
 * test_results_files.c — `railsym run --out` as CSV, MAT and HDF5
 * (docs/results.md), and result files that are whole or plainly unfinished:
 *
 *  - the MAT file (read with libmatio) and the HDF5 file (read with libhdf5)
 *    of a run hold bit for bit the doubles of the CSV of the same run (17
 *    significant digits round-trip), 3001 rows (past the HDF5 writer's
 *    1024-row blocks and the MAT buffer's doublings), with the column names
 *    and the units the model carries (th rad, th_dot rad/s, height m, time
 *    s); h5dump reads the HDF5 file; Octave loads the MAT file when it is
 *    installed (else the test says it skipped that part);
 *  - a train run writes HDF5 too, with its units (m, m/s, N);
 *  - a full disk (the file-size limit, SIGXFSZ ignored, as in
 *    test_compile_disk_full): exit status 1, no X.EXT (an earlier run's is
 *    removed too), the rows as X.partial.csv ending with a whole row, the
 *    message's "up to t = T s" the last row's time; MAT and HDF5 alike
 *    leave no X.EXT; no temporary file is left;
 *  - two runs writing the same CSV at once leave one whole file, one run's;
 *  - `railsym plot` refuses a CSV whose last row is cut (fewer fields, or
 *    no newline), naming the file and the line;
 *  - a CSV's units go to NAME.units.csv beside it, and `railsym plot`
 *    labels its axes and curves with them (the gnuplot script, caught by a
 *    stand-in gnuplot through RAILSYM_GNUPLOT, is read back); "[SI]"
 *    without a units file, or with one of other columns (and a warning).
 *
 * The command is $RAILSYM_BIN, else ./build/railsym; tests run from the
 * repository root.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hdf5.h>
#include <matio.h>

#include "rs_test.h"

static const char *railsym_bin(void)
{
    const char *b = getenv("RAILSYM_BIN");
    return b && *b ? b : "./build/railsym";
}

static char dir[64];

static void setup(void)
{
    strcpy(dir, "/tmp/rs_results_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* Runs a shell command; its stdout and stderr into out; the exit status. */
static int sh(const char *cmd, char *out, size_t len)
{
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    size_t n = fread(out, 1, len - 1, p);
    out[n] = '\0';
    const int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A pendulum scenario of `duration` s, a row every `output` s, into
 * dir/NAME.scn (path in scn). */
static void scenario(char *scn, size_t len, const char *name, double duration, double output)
{
    snprintf(scn, len, "%s/%s.scn", dir, name);
    FILE *f = fopen(scn, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "duration %g\nstep 1e-3\noutput %g\nmethod rk4\ninitial th = 2.5\ncolumns th th_dot height\n",
            duration, output);
    fclose(f);
}

/* `railsym run generated/pendulum --scenario SCN --out OUT` with the shell
 * prefix `pre` ("" or limits); the exit status, messages in msg. */
static int run_to(const char *pre, const char *scn, const char *out, char *msg, size_t len)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s %s run generated/pendulum --scenario %s --out %s --quiet 2>&1", pre,
             railsym_bin(), scn, out);
    return sh(cmd, msg, len);
}

/* A results CSV: header names (up to 8) and rows (malloc'd, row-major).
 * Every line must end with a newline and have the header's fields. */
typedef struct table {
    int ncol, nrow;
    char names[8][32];
    double *v;
} table;

static void read_table(const char *path, table *t)
{
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    char line[4096];
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    t->ncol = 0;
    for (char *s = strtok(line, ",\n"); s && t->ncol < 8; s = strtok(NULL, ",\n"))
        snprintf(t->names[t->ncol++], sizeof t->names[0], "%s", s);
    size_t cap = 1024;
    t->v = malloc(cap * (size_t)t->ncol * sizeof *t->v);
    t->nrow = 0;
    while (fgets(line, sizeof line, f)) {
        ck_assert_msg(line[strlen(line) - 1] == '\n', "%s: row %d is cut: %s", path, t->nrow + 1, line);
        if ((size_t)t->nrow == cap)
            t->v = realloc(t->v, (cap *= 2) * (size_t)t->ncol * sizeof *t->v);
        char *s = line;
        for (int j = 0; j < t->ncol; j++) {
            char *end;
            t->v[(size_t)t->nrow * (size_t)t->ncol + (size_t)j] = strtod(s, &end);
            ck_assert_msg(end != s && *end == (j + 1 < t->ncol ? ',' : '\n'), "%s: row %d field %d: %s", path,
                          t->nrow + 1, j + 1, line);
            s = end + 1;
        }
        t->nrow++;
    }
    fclose(f);
}

static const char *const want_names[4] = {"time", "th", "th_dot", "height"};
static const char *const want_units[4] = {"s", "rad", "rad/s", "m"};

/* The text of cell j of a 1 × n cell of char (MAT). */
static void cell_text(matvar_t *cell, int j, char *buf, size_t len)
{
    matvar_t *c = Mat_VarGetCell(cell, j);
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(c->class_type, MAT_C_CHAR);
    const size_t n = c->dims[0] * c->dims[1];
    ck_assert_uint_lt(n, len);
    memcpy(buf, c->data, n);
    buf[n] = '\0';
}

static void check_mat(const char *path, const table *t)
{
    mat_t *mat = Mat_Open(path, MAT_ACC_RDONLY);
    ck_assert_msg(mat != NULL, "libmatio cannot open %s", path);
    ck_assert_int_eq(Mat_GetVersion(mat), MAT_FT_MAT5);
    matvar_t *data = Mat_VarRead(mat, "data"), *names = Mat_VarRead(mat, "names"), *units = Mat_VarRead(mat, "units");
    ck_assert(data && names && units);
    ck_assert_int_eq(data->class_type, MAT_C_DOUBLE);
    ck_assert_int_eq(data->rank, 2);
    ck_assert_uint_eq(data->dims[0], (size_t)t->nrow);
    ck_assert_uint_eq(data->dims[1], (size_t)t->ncol);
    const double *d = data->data;
    long differ = 0;
    for (int i = 0; i < t->nrow; i++)
        for (int j = 0; j < t->ncol; j++)
            differ += memcmp(&d[(size_t)j * (size_t)t->nrow + (size_t)i], &t->v[(size_t)i * (size_t)t->ncol + (size_t)j],
                             sizeof(double)) != 0;
    ck_assert_msg(differ == 0, "%ld values of %s differ from the CSV's", differ, path);
    ck_assert_uint_eq(names->dims[1], 4);
    for (int j = 0; j < 4; j++) {
        char buf[64];
        cell_text(names, j, buf, sizeof buf);
        ck_assert_str_eq(buf, want_names[j]);
        cell_text(units, j, buf, sizeof buf);
        ck_assert_str_eq(buf, want_units[j]);
    }
    Mat_VarFree(data);
    Mat_VarFree(names);
    Mat_VarFree(units);
    Mat_Close(mat);
}

/* The string attribute `name` of obj (fixed length). */
static void string_attr(hid_t obj, const char *name, char *buf, size_t len)
{
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    ck_assert_msg(a >= 0, "no attribute '%s'", name);
    hid_t type = H5Aget_type(a);
    ck_assert_int_eq(H5Tget_class(type), H5T_STRING);
    ck_assert_uint_lt(H5Tget_size(type), len);
    memset(buf, 0, len);
    ck_assert_int_ge(H5Aread(a, type, buf), 0);
    H5Tclose(type);
    H5Aclose(a);
}

/* The variable-length string array attribute `name` of obj: n entries
 * compared with want[]. */
static void strings_attr(hid_t obj, const char *name, const char *const *want, int n)
{
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    ck_assert_msg(a >= 0, "no attribute '%s'", name);
    hid_t space = H5Aget_space(a);
    hsize_t dim = 0;
    ck_assert_int_eq(H5Sget_simple_extent_dims(space, &dim, NULL), 1);
    ck_assert_uint_eq(dim, (hsize_t)n);
    hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, H5T_VARIABLE);
    char *got[16] = {0};
    ck_assert_int_ge(H5Aread(a, type, got), 0);
    for (int j = 0; j < n; j++)
        ck_assert_str_eq(got[j], want[j]);
    H5Dvlen_reclaim(type, space, H5P_DEFAULT, got);
    H5Tclose(type);
    H5Sclose(space);
    H5Aclose(a);
}

static void check_h5(const char *path, const table *t)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    ck_assert_msg(f >= 0, "libhdf5 cannot open %s", path);
    strings_attr(f, "columns", want_names, 4);
    strings_attr(f, "units", want_units, 4);
    double *col = malloc((size_t)t->nrow * sizeof *col);
    for (int j = 0; j < t->ncol; j++) {
        hid_t ds = H5Dopen2(f, want_names[j], H5P_DEFAULT);
        ck_assert_msg(ds >= 0, "no dataset '%s'", want_names[j]);
        hid_t space = H5Dget_space(ds);
        hsize_t n = 0;
        ck_assert_int_eq(H5Sget_simple_extent_dims(space, &n, NULL), 1);
        ck_assert_uint_eq(n, (hsize_t)t->nrow);
        ck_assert_int_ge(H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, col), 0);
        long differ = 0;
        for (int i = 0; i < t->nrow; i++)
            differ += memcmp(&col[i], &t->v[(size_t)i * (size_t)t->ncol + (size_t)j], sizeof(double)) != 0;
        ck_assert_msg(differ == 0, "%ld values of %s:/%s differ from the CSV's", differ, path, want_names[j]);
        char unit[64];
        string_attr(ds, "unit", unit, sizeof unit);
        ck_assert_str_eq(unit, want_units[j]);
        H5Sclose(space);
        H5Dclose(ds);
    }
    free(col);
    H5Fclose(f);
}

START_TEST(test_mat_and_h5_hold_the_runs_doubles)
{
    RS_REQUIRE_MODEL("pendulum");
    RS_REQUIRE_PROGRAM(railsym_bin(), "build it: make");
    char scn[128], out[3][128], msg[4096];
    scenario(scn, sizeof scn, "swing", 3.0, 1e-3);
    const char *ext[3] = {"csv", "mat", "h5"};
    for (int k = 0; k < 3; k++) {
        snprintf(out[k], sizeof out[k], "%s/swing.%s", dir, ext[k]);
        ck_assert_msg(run_to("", scn, out[k], msg, sizeof msg) == 0, "%s:\n%s", out[k], msg);
    }
    table t;
    read_table(out[0], &t);
    ck_assert_int_eq(t.ncol, 4);
    ck_assert_int_eq(t.nrow, 3001);
    for (int j = 0; j < 4; j++)
        ck_assert_str_eq(t.names[j], want_names[j]);
    check_mat(out[1], &t);
    check_h5(out[2], &t);
    printf("results: %d rows x %d columns, MAT and HDF5 bit-identical to the CSV\n", t.nrow, t.ncol);

    /* h5dump, the HDF5 project's own reader, reads it: th's unit and values */
    char cmd[512];
    snprintf(cmd, sizeof cmd, "h5dump -a /th/unit %s && h5dump -d /time -s 3000 -c 1 %s", out[2], out[2]);
    ck_assert_msg(sh(cmd, msg, sizeof msg) == 0, "h5dump failed:\n%s", msg);
    ck_assert_msg(strstr(msg, "\"rad\"") && strstr(msg, "(3000): 3"), "h5dump:\n%s", msg);

    /* Octave, when installed, loads the MAT file as documented */
    if (sh("command -v octave", msg, sizeof msg) != 0) {
        printf("results: Octave is not installed: its check of the MAT file is skipped\n");
    } else {
        snprintf(cmd, sizeof cmd,
                 "octave --no-gui --quiet --eval \"load('%s'); printf('%%d %%d %%s %%s %%.17g\\n', size(data,1), "
                 "size(data,2), names{3}, units{3}, data(end,1))\" 2>&1",
                 out[1]);
        ck_assert_msg(sh(cmd, msg, sizeof msg) == 0, "octave:\n%s", msg);
        ck_assert_msg(strstr(msg, "3001 4 th_dot rad/s 3"), "octave:\n%s", msg);
    }
    free(t.v);
}
END_TEST

START_TEST(test_train_writes_h5)
{
    RS_REQUIRE_PROGRAM(railsym_bin(), "build it: make");
    char train[128], out[128], cmd[512], msg[4096];
    snprintf(train, sizeof train, "%s/short.train", dir);
    snprintf(out, sizeof out, "%s/short.h5", dir);
    /* the freight train of vehicles/trains, for 1 s */
    snprintf(cmd, sizeof cmd, "sed 's/^duration .*/duration 1/' vehicles/trains/freight.train > %s", train);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s run %s --out %s --quiet 2>&1", railsym_bin(), train, out);
    ck_assert_msg(sh(cmd, msg, sizeof msg) == 0, "%s", msg);
    hid_t f = H5Fopen(out, H5F_ACC_RDONLY, H5P_DEFAULT);
    ck_assert(f >= 0);
    const char *const names[5] = {"time", "loco1.x", "loco1.v", "wagon1.x", "wagon1.v"};
    const char *const units[5] = {"s", "m", "m/s", "m", "m/s"};
    char unit[64];
    for (int j = 0; j < 5; j++) {
        hid_t ds = H5Dopen2(f, names[j], H5P_DEFAULT);
        ck_assert_msg(ds >= 0, "no dataset '%s'", names[j]);
        string_attr(ds, "unit", unit, sizeof unit);
        ck_assert_str_eq(unit, units[j]);
        hid_t space = H5Dget_space(ds);
        hsize_t n = 0;
        H5Sget_simple_extent_dims(space, &n, NULL);
        ck_assert_uint_eq(n, 11);   /* t = 0, 0.1, ..., 1 */
        H5Sclose(space);
        H5Dclose(ds);
    }
    hid_t ds = H5Dopen2(f, "c1.force", H5P_DEFAULT);
    ck_assert(ds >= 0);
    string_attr(ds, "unit", unit, sizeof unit);
    ck_assert_str_eq(unit, "N");
    H5Dclose(ds);
    H5Fclose(f);
}
END_TEST

/* The names in dir holding ".tmp.": none may be left. */
static void assert_no_temp(void)
{
    char cmd[256], out[1024];
    snprintf(cmd, sizeof cmd, "ls -A %s | grep '\\.tmp\\.' || true", dir);
    sh(cmd, out, sizeof out);
    ck_assert_msg(out[0] == '\0', "temporary files left: %s", out);
}

START_TEST(test_full_disk_leaves_partial_rows)
{
    RS_REQUIRE_MODEL("pendulum");
    RS_REQUIRE_PROGRAM(railsym_bin(), "build it: make");
    char scn[128], out[128], partial[160], msg[4096];
    scenario(scn, sizeof scn, "long", 10.0, 1e-3);   /* 10001 rows, ~0.8 MB as CSV */
    snprintf(out, sizeof out, "%s/long.csv", dir);
    snprintf(partial, sizeof partial, "%s/long.partial.csv", dir);
    FILE *f = fopen(out, "w");   /* an earlier run's result */
    ck_assert_ptr_nonnull(f);
    fputs("time,th\n0,1\n", f);
    fclose(f);
    const int st = run_to("trap '' XFSZ; ulimit -f 64;", scn, out, msg, sizeof msg);
    ck_assert_msg(st == 1, "exit status %d:\n%s", st, msg);
    ck_assert_msg(strstr(msg, "cannot write '") && strstr(msg, "disk full"), "%s", msg);
    ck_assert_msg(access(out, F_OK) != 0, "%s is left:\n%s", out, msg);
    table t;
    read_table(partial, &t);   /* whole rows only, else it fails */
    ck_assert_int_gt(t.nrow, 100);
    ck_assert_int_lt(t.nrow, 10001);
    const double t_last = t.v[(size_t)(t.nrow - 1) * 4];
    char want[256];
    snprintf(want, sizeof want, "'%s' holds the results up to t = ", partial);
    const char *p = strstr(msg, want);
    ck_assert_msg(p, "no \"%s\" in:\n%s", want, msg);
    const double t_said = atof(p + strlen(want));
    printf("full disk: %d whole rows to t = %.17g s; the message says t = %g s\n", t.nrow, t_last, t_said);
    ck_assert_msg(fabs(t_said - t_last) <= 1e-6 * t_last, "message t = %g s, last row t = %g s", t_said, t_last);
    free(t.v);
    assert_no_temp();

    /* MAT and HDF5: the same failure, no file under the name asked for */
    const char *ext[2] = {"mat", "h5"};
    for (int k = 0; k < 2; k++) {
        snprintf(out, sizeof out, "%s/long.%s", dir, ext[k]);
        const int s2 = run_to("trap '' XFSZ; ulimit -f 64;", scn, out, msg, sizeof msg);
        ck_assert_msg(s2 == 1, "%s: exit status %d:\n%s", out, s2, msg);
        ck_assert_msg(strstr(msg, "cannot write '") && strstr(msg, "disk full") && strstr(msg, ".partial."),
                      "%s", msg);
        ck_assert_msg(access(out, F_OK) != 0, "%s is left", out);
        assert_no_temp();
    }
}
END_TEST

START_TEST(test_concurrent_writers_leave_one_whole_file)
{
    RS_REQUIRE_MODEL("pendulum");
    RS_REQUIRE_PROGRAM(railsym_bin(), "build it: make");
    char a[128], b[128], out[128], cmd[1024], msg[4096];
    scenario(a, sizeof a, "two", 2.0, 1e-3);
    scenario(b, sizeof b, "three", 3.0, 1e-3);
    snprintf(out, sizeof out, "%s/same.csv", dir);
    snprintf(cmd, sizeof cmd,
             "%s run generated/pendulum --scenario %s --out %s --quiet & "
             "%s run generated/pendulum --scenario %s --out %s --quiet & wait",
             railsym_bin(), a, out, railsym_bin(), b, out);
    ck_assert_msg(sh(cmd, msg, sizeof msg) == 0, "%s", msg);
    table t;
    read_table(out, &t);   /* whole rows, the header's fields */
    /* one run's rows, all of them, in order */
    ck_assert_msg(t.nrow == 2001 || t.nrow == 3001, "%d rows", t.nrow);
    for (int i = 0; i < t.nrow; i++)
        ck_assert_msg(fabs(t.v[(size_t)i * 4] - 1e-3 * i) < 1e-9, "row %d at t = %g", i + 1, t.v[(size_t)i * 4]);
    free(t.v);
    assert_no_temp();

    /* two trains (the freight train for 4 s and 6 s) into one CSV: before,
     * the second writer's truncation left blocks of NUL bytes */
    char t4[128], t6[128];
    snprintf(t4, sizeof t4, "%s/t4.train", dir);
    snprintf(t6, sizeof t6, "%s/t6.train", dir);
    snprintf(cmd, sizeof cmd,
             "sed 's/^duration .*/duration 4/' vehicles/trains/freight.train > %s && "
             "sed 's/^duration .*/duration 6/' vehicles/trains/freight.train > %s",
             t4, t6);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(out, sizeof out, "%s/train.csv", dir);
    snprintf(cmd, sizeof cmd, "%s run %s --out %s --quiet & %s run %s --out %s --quiet & wait", railsym_bin(), t4,
             out, railsym_bin(), t6, out);
    ck_assert_msg(sh(cmd, msg, sizeof msg) == 0, "%s", msg);
    FILE *f = fopen(out, "r");
    ck_assert_ptr_nonnull(f);
    int c, lines = 0, nul = 0, last = 0;
    while ((c = fgetc(f)) != EOF) {
        nul += c == 0;
        lines += c == '\n';
        last = c;
    }
    fclose(f);
    ck_assert_int_eq(nul, 0);
    ck_assert_int_eq(last, '\n');
    ck_assert_msg(lines == 1 + 41 || lines == 1 + 61, "%d lines", lines);
    assert_no_temp();
}
END_TEST

/* `railsym plot FILE th -o X.png` on a CSV of `text`: exit status and message. */
static int plot(const char *text, char *msg, size_t len)
{
    char csv[128], cmd[512];
    snprintf(csv, sizeof csv, "%s/cut.csv", dir);
    FILE *f = fopen(csv, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s plot %s th -o %s/cut.png 2>&1", railsym_bin(), csv, dir);
    return sh(cmd, msg, len);
}

START_TEST(test_plot_refuses_a_cut_row)
{
    RS_REQUIRE_PROGRAM(railsym_bin(), "build it: make");
    char msg[4096], want[256];
    int st = plot("time,th,th_dot\n0,1,0\n0.01,0.99,-1\n0.02,0.9", msg, sizeof msg);
    ck_assert_msg(st == 1, "exit %d: %s", st, msg);
    snprintf(want, sizeof want, "%s/cut.csv:4: ", dir);
    ck_assert_msg(strstr(msg, want) && strstr(msg, "2 fields") && strstr(msg, "3"), "%s", msg);
    st = plot("time,th,th_dot\n0,1,0\n0.01,0.99,-1\n0.02,0.9,-1.5", msg, sizeof msg);
    ck_assert_msg(st == 1, "exit %d: %s", st, msg);
    ck_assert_msg(strstr(msg, want) && strstr(msg, "no newline"), "%s", msg);
}
END_TEST

/* `railsym plot CSV ARGS` through a stand-in gnuplot that keeps the script
 * as dir/plot.gp (and writes a picture, as gnuplot would); the script's
 * text into gp. */
static void plot_script(const char *csv, const char *args, char *gp, size_t len)
{
    char fake[128], cmd[1024], msg[4096];
    snprintf(fake, sizeof fake, "%s/gnuplot.sh", dir);
    FILE *f = fopen(fake, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "#!/bin/sh\ncp \"$1\" %s/plot.gp\npng=$(sed -n \"s/^set output '\\(.*\\)'\\$/\\1/p\" \"$1\")\n"
               "echo png > \"$png\"\n",
            dir);
    fclose(f);
    ck_assert_int_eq(chmod(fake, 0755), 0);
    snprintf(cmd, sizeof cmd, "RAILSYM_GNUPLOT=%s %s plot %s %s -o %s/p.png 2>&1", fake, railsym_bin(), csv, args, dir);
    ck_assert_msg(sh(cmd, msg, sizeof msg) == 0, "%s:\n%s", cmd, msg);
    snprintf(cmd, sizeof cmd, "cat %s/plot.gp", dir);
    ck_assert_int_eq(sh(cmd, gp, len), 0);
    strncat(gp, msg, len - strlen(gp) - 1);   /* and the warnings */
}

#define HAS(text, what) ck_assert_msg(strstr((text), (what)), "no \"%s\" in:\n%s", (what), (text))

START_TEST(test_plot_labels_name_units)
{
    RS_REQUIRE_MODEL("pendulum");
    RS_REQUIRE_PROGRAM(railsym_bin(), "build it: make");
    char scn[128], csv[128], units[160], msg[4096], gp[8192];
    scenario(scn, sizeof scn, "u", 0.1, 0.01);
    snprintf(csv, sizeof csv, "%s/u.csv", dir);
    ck_assert_msg(run_to("", scn, csv, msg, sizeof msg) == 0, "%s", msg);
    /* the units file: the header, then the units the model carries */
    snprintf(units, sizeof units, "%s/u.units.csv", dir);
    FILE *f = fopen(units, "r");
    ck_assert_ptr_nonnull(f);
    char line[2][256];
    ck_assert(fgets(line[0], sizeof line[0], f) && fgets(line[1], sizeof line[1], f));
    fclose(f);
    ck_assert_str_eq(line[0], "time,th,th_dot,height\n");
    ck_assert_str_eq(line[1], "s,rad,rad/s,m\n");

    plot_script(csv, "th th_dot", gp, sizeof gp);
    HAS(gp, "set xlabel 'time [s]'\n");
    HAS(gp, "set ylabel 'th [rad], th_dot [rad/s]'\n");
    HAS(gp, "title 'th [rad]'");
    HAS(gp, "title 'th_dot [rad/s]'");
    plot_script(csv, "height", gp, sizeof gp);
    HAS(gp, "set ylabel 'height [m]'\n");
    plot_script(csv, "th_dot --x th", gp, sizeof gp);
    HAS(gp, "set xlabel 'th [rad]'\n");
    HAS(gp, "set ylabel 'th_dot [rad/s]'\n");

    /* units file of other columns: not used, and said */
    f = fopen(units, "w");
    ck_assert_ptr_nonnull(f);
    fputs("time,x\ns,m\n", f);
    fclose(f);
    plot_script(csv, "th", gp, sizeof gp);
    HAS(gp, "set ylabel 'th [SI]'\n");
    HAS(gp, "warning: ");
    HAS(gp, "lists other columns");
    /* no units file: the values are SI, the unit is not known */
    unlink(units);
    plot_script(csv, "th th_dot", gp, sizeof gp);
    HAS(gp, "set ylabel 'th, th_dot [SI]'\n");
    HAS(gp, "set xlabel 'time [s]'\n");
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("results_files");
    TCase *tc = tcase_create("files");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 180);
    tcase_add_test(tc, test_mat_and_h5_hold_the_runs_doubles);
    tcase_add_test(tc, test_train_writes_h5);
    tcase_add_test(tc, test_full_disk_leaves_partial_rows);
    tcase_add_test(tc, test_concurrent_writers_leave_one_whole_file);
    tcase_add_test(tc, test_plot_refuses_a_cut_row);
    tcase_add_test(tc, test_plot_labels_name_units);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
