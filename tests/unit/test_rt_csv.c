/*
 * test_rt_csv.c — results CSV (rs_results.h): header of names with time
 * first, one row per output interval, each row on disk (in the temporary
 * file beside the path) as soon as it is written, the path itself only once
 * the table is closed complete; unknown column names rejected with the name.
 */
#include <check.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_fixtures.h"
#include "rs_test.h"

static char PATH[64];

/* Lines of the file `path`. */
static int count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    int n = 0, c;
    while ((c = fgetc(f)) != EOF)
        n += c == '\n';
    fclose(f);
    return n;
}

static int check_flushed(rs_ws *ws, void *ctx)
{
    /* header + the rows written so far are already in the file */
    static int rows;
    if (rs_ws_time(ws) == 0)
        rows = 0;
    ck_assert_int_eq(rs_results_output(ws, ctx), 0);
    rows++;
    /* the rows go to the one temporary file "/tmp/.NAME.tmp.PID.N"; the
     * path asked for does not exist until the table is complete */
    char pattern[128];
    snprintf(pattern, sizeof pattern, "/tmp/.%s.tmp.*", PATH + 5);
    glob_t g;
    ck_assert_int_eq(glob(pattern, 0, NULL, &g), 0);
    ck_assert_int_eq((int)g.gl_pathc, 1);
    ck_assert_int_eq(count_lines(g.gl_pathv[0]), 1 + rows);
    globfree(&g);
    ck_assert_int_ne(access(PATH, F_OK), 0);
    return 0;
}

START_TEST(test_columns_and_flush)
{
    rs_ws *ws = rt_ws_new(rt_pendulum_model(), RS_RK4, 1e-3, 1e-6);
    rs_ws_q(ws)[0] = 1.0;
    const char *cols[] = {"theta", "theta_dot", "x", "L"};
    rs_results *csv = NULL;
    char err[200];
    ck_assert_int_eq(rs_results_open_ws(&csv, PATH, ws, 4, cols, 0, err, sizeof err), RS_OK);
    ck_assert_int_eq(rs_run(ws, 0.1, 0.01, check_flushed, csv), RS_OK);
    ck_assert_int_eq(rs_results_close(&csv, 1, NULL, 0, err, sizeof err), RS_OK);
    ck_assert_ptr_null(csv);

    FILE *f = fopen(PATH, "r");
    char line[512];
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_str_eq(line, "time,theta,theta_dot,x,L\n");
    int rows = 0;
    double t, th, thd, x, L;
    while (fscanf(f, "%lg,%lg,%lg,%lg,%lg", &t, &th, &thd, &x, &L) == 5) {
        ck_assert(fabs(t - 0.01 * rows) < 1e-12);
        ck_assert(fabs(x - sin(th)) < 1e-15); /* output evaluated at the row's state */
        ck_assert(L == 1.0);
        ck_assert(fabs(th - rt_pendulum_exact(t, 1.0, 9.81, 1.0)) < 1e-9);
        rows++;
    }
    fclose(f);
    ck_assert_int_eq(rows, 11);
    remove(PATH);
    rs_ws_free(&ws);
}
END_TEST

START_TEST(test_unknown_column)
{
    rs_ws *ws = rt_ws_new(rt_pendulum_model(), RS_RK4, 1e-3, 1e-6);
    const char *cols[] = {"theta", "thetta"};
    rs_results *csv = NULL;
    char err[200];
    ck_assert_int_eq(rs_results_open_ws(&csv, PATH, ws, 2, cols, 0, err, sizeof err), RS_E_NOTFOUND);
    ck_assert_ptr_null(csv);
    ck_assert_ptr_nonnull(strstr(err, "'thetta'"));
    ck_assert_int_eq(rs_results_open_ws(&csv, "/nonexistent/dir/x.csv", ws, 1, cols, 0, err, sizeof err),
                     RS_E_IO);
    ck_assert_str_eq(err, "cannot write '/nonexistent/dir/x.csv': No such file or directory");
    rs_ws_free(&ws);
}
END_TEST

START_TEST(test_plain_table)
{
    const char *names[] = {"a", "b"};
    rs_results *csv = NULL;
    char err[200];
    ck_assert_int_eq(rs_results_open(&csv, PATH, 2, names, NULL, 0, err, sizeof err), RS_OK);
    const double v[2] = {0.1, -2.5e-300};
    ck_assert_int_eq(rs_results_row(csv, 1.0 / 3.0, v), RS_OK);
    ck_assert_int_eq(rs_results_close(&csv, 1, NULL, 0, err, sizeof err), RS_OK);
    FILE *f = fopen(PATH, "r");
    char line[256];
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    double t, a, b;
    ck_assert_int_eq(fscanf(f, "%lg,%lg,%lg", &t, &a, &b), 3);
    ck_assert(t == 1.0 / 3.0 && a == 0.1 && b == -2.5e-300); /* exact round trip */
    fclose(f);
    remove(PATH);
}
END_TEST

int main(void)
{
    snprintf(PATH, sizeof PATH, "/tmp/rt_csv_test_%ld.csv", (long)getpid());
    Suite *s = suite_create("rt_csv");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_columns_and_flush);
    tcase_add_test(tc, test_unknown_column);
    tcase_add_test(tc, test_plain_table);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
