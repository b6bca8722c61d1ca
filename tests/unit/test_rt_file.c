/*
 * test_rt_file.c — rs_read_file (runtime/core/rs_file.h), the one whole-file
 * reader of the runtime: every size around its buffer's growth steps comes
 * back byte for byte with a NUL after it and the asked-for room free; an
 * empty file, a missing one, a folder and a file over the limit give the
 * documented errno values.  And the runtime's one clock (rs_clock.h).
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <errno.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rs_clock.h"
#include "rs_dirs.h"
#include "rs_file.h"
#include "rs_status.h"
#include "rs_test.h"

static char dir[] = "/tmp/rs_fileXXXXXX";

static void write_bytes(const char *path, const char *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(data, 1, n, f), n);
    fclose(f);
}

START_TEST(sizes_round_trip)
{
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/f.txt", dir);
    enum { BIG = 3 * 8192 + 7 };
    char *data = malloc(BIG);
    for (int i = 0; i < BIG; i++)
        data[i] = (char)('a' + (i * 7) % 26);
    data[100] = '\0';   /* a NUL inside is kept: the callers check for it */
    static const size_t sizes[] = {0, 1, 4094, 4095, 4096, 4097, 8190, 8191, 8192, 8193, BIG};
    static const size_t rooms[] = {0, 1, 100, 5000};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++)
        for (size_t r = 0; r < sizeof rooms / sizeof *rooms; r++) {
            write_bytes(path, data, sizes[k]);
            char *text = (char *)1;
            size_t len = 12345;
            ck_assert_int_eq(rs_read_file(path, 0, rooms[r], &text, &len), 0);
            ck_assert_uint_eq(len, sizes[k]);
            ck_assert(memcmp(text, data, len) == 0);
            ck_assert_int_eq(text[len], '\0');
            memset(text + len + 1, 'x', rooms[r]);   /* the room is there (ASan checks) */
            free(text);
        }
    /* the limit: at max bytes read, one more refused */
    write_bytes(path, data, 5000);
    char *text;
    size_t len;
    ck_assert_int_eq(rs_read_file(path, 5000, 0, &text, &len), 0);
    free(text);
    ck_assert_int_eq(rs_read_file(path, 4999, 0, &text, &len), EFBIG);
    ck_assert_ptr_null(text);
    ck_assert_uint_eq(len, 0);
    remove(path);
    free(data);
    /* a missing file, a folder, no path */
    ck_assert_int_eq(rs_read_file(path, 0, 0, &text, NULL), ENOENT);
    ck_assert_int_eq(rs_read_file(dir, 0, 0, &text, NULL), EISDIR);
    ck_assert_str_eq(rs_file_why(EISDIR), "it is a directory");
    ck_assert_ptr_null(text);
    ck_assert_int_eq(rs_read_file(NULL, 0, 0, &text, NULL), ENOENT);
    /* rs_text_check: every byte, lines and columns from 1 */
    char msg[128];
    ck_assert_int_eq(rs_text_check("a\nb", 3, "f.txt", msg, sizeof msg), RS_OK);
    ck_assert_int_eq(rs_text_check("a\nbc\0d", 6, "f.txt", msg, sizeof msg), RS_E_SYNTAX);
    ck_assert_str_eq(msg, "f.txt:2: a NUL byte at column 3: the file is binary or corrupt");
    ck_assert_int_eq(rs_text_check("ab", 2, "f.txt", msg, sizeof msg), RS_OK);   /* the NUL after len is not read */
    rmdir(dir);
}
END_TEST

/* rs_make_dirs: nested folders made, an existing one accepted, a file in
 * the way and an empty path refused. */
START_TEST(make_dirs)
{
    char base[] = "/tmp/rt_dirs_XXXXXX", path[320], file[256];
    ck_assert_ptr_nonnull(mkdtemp(base));
    snprintf(path, sizeof path, "%s/a/b/c", base);
    ck_assert_int_eq(rs_make_dirs(path), 0);
    struct stat st;
    ck_assert(stat(path, &st) == 0 && S_ISDIR(st.st_mode));
    ck_assert_int_eq(rs_make_dirs(path), 0);   /* already there */
    snprintf(file, sizeof file, "%s/a/f", base);
    FILE *f = fopen(file, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    ck_assert_int_eq(rs_make_dirs(file), -1);   /* a file, not a folder */
    ck_assert_int_eq(errno, ENOTDIR);
    snprintf(path, sizeof path, "%s/x", file);
    ck_assert_int_eq(rs_make_dirs(path), -1);   /* below a file */
    ck_assert_int_eq(rs_make_dirs(""), -1);
    unlink(file);
    snprintf(path, sizeof path, "rm -r '%s'", base);
    ck_assert_int_eq(system(path), 0);
}
END_TEST

START_TEST(clock_moves_forward)
{
    const double a = rs_now_s();
    nanosleep(&(struct timespec){0, 20000000}, NULL);
    const double b = rs_now_s();
    ck_assert_msg(b - a >= 0.019 && b - a < 5.0, "20 ms measured as %g s", b - a);
    /* seconds and nanoseconds are one clock (rs_clock.h): readings in
     * either unit interleave in order */
    const int64_t n0 = rs_now_ns();
    const double s1 = rs_now_s();
    const int64_t n2 = rs_now_ns();
    ck_assert(1e-9 * (double)n0 <= s1 + 1e-6 && s1 <= 1e-9 * (double)n2 + 1e-6);
    ck_assert(n2 >= n0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("rt_file");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, sizes_round_trip);
    tcase_add_test(tc, clock_moves_forward);
    tcase_add_test(tc, make_dirs);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
