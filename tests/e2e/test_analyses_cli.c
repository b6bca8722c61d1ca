/*
 * test_analyses_cli.c — the analysis commands end to end, with the built
 * command ($RAILSYM_BIN, else ./build/railsym; run from the repository root):
 *  - `railsym irregularity`: the same seed writes the same bytes, another
 *    seed other bytes; the tables are read by the track reader: a run of
 *    generated/wheelset_cone on a track whose vertical and cross-level
 *    irregularities are such tables succeeds, and the wheelset's height
 *    follows them (max |z| over 0.5 mm and over 5 times that on the plain
 *    straight);
 *  - `railsym psd` on that run's results writes its CSV (one row per bin)
 *    and plot;
 *  - the `use:` line a generated table's header gives (vertical, and gauge
 *    from an FRA spectrum) works as written: a track file made of it runs
 *    generated/wheelset_cone for 1 s;
 *  - `railsym comfort` on a CSV of sinusoids writes the 12 blocks of 60 s
 *    and prints N_MV; unknown columns are named with the closest one; with
 *    --y and --z alone (no N_MV) it writes Sperling's Wz per 5 s block and
 *    its plot: every block of these whole-period sinusoids has the record's
 *    Wz, the hand values 0.896 (20³ · 0.8 · 2² / 2)^0.1 = 2.307 (lateral,
 *    0.2 m/s² at 2 Hz) and 0.896 (40³ · 0.325 · 5² / 5)^0.1 = 2.845;
 *  - `railsym track-shift` on a CSV of ΣY = 5 kN + 12 kN sin(2π 2 t) (also
 *    given as R.Y - L.Y, two wheels' columns) prints
 *    the hand rms 9.849 kN and the limits 83.33 kN (70.83 kN freight);
 *    its output files are named by the column's short, safe name
 *    (f_R.Y_minus_L.Y, f_front.ws1 for a wheelset's two wheels, f_a_b_y
 *    for the column "a/b y").
 */
#define _GNU_SOURCE
#include <check.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rs_test.h"

static char bin[PATH_MAX], dir[64];

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
    char cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    const int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static void setup(void)
{
    const char *b = getenv("RAILSYM_BIN");
    ck_assert_ptr_nonnull(realpath(b && *b ? b : "./build/railsym", bin));
    snprintf(dir, sizeof dir, "/tmp/rs_analysesXXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void) { sh("rm -rf %s", dir); }

static int lines(const char *path)
{
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    int n = 0, c;
    while ((c = fgetc(f)) != EOF) n += c == '\n';
    fclose(f);
    return n;
}

/* max |column k| of a results CSV */
static double max_abs(const char *path, int k)
{
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    char line[4096];
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    double m = 0;
    while (fgets(line, sizeof line, f)) {
        char *p = line;
        for (int i = 0; i < k; i++) p = strchr(p, ',') + 1;
        m = fmax(m, fabs(strtod(p, NULL)));
    }
    fclose(f);
    return m;
}

START_TEST(irregularity_reproducible)
{
    /* one file name in three folders: the header's use line names the file */
    const char *gen = "mkdir -p %s/%s && %s irregularity --spectrum fra5 --kind lateral --length 300 --seed %d "
                      "-o %s/%s/a.csv --no-plot >/dev/null";
    ck_assert_int_eq(sh(gen, dir, "1", bin, 11, dir, "1"), 0);
    ck_assert_int_eq(sh(gen, dir, "2", bin, 11, dir, "2"), 0);
    ck_assert_int_eq(sh(gen, dir, "3", bin, 12, dir, "3"), 0);
    ck_assert_int_eq(sh("cmp -s %s/1/a.csv %s/2/a.csv", dir, dir), 0);
    ck_assert_int_ne(sh("cmp -s %s/1/a.csv %s/3/a.csv", dir, dir), 0);
    char path[128];
    snprintf(path, sizeof path, "%s/1/a.csv", dir);
    ck_assert_int_eq(lines(path), 2 + 1 + 1200);   /* two comments, the header, 300 m / 0.25 m */
    ck_assert_int_eq(sh("%s irregularity --spectrum erri-low --kind gauge --length 300 -o %s/g.csv 2>%s/err.txt",
                        bin, dir, dir), 1);
    ck_assert_int_eq(sh("grep -q 'ERRI B176 publishes no gauge spectrum' %s/err.txt", dir), 0);
}
END_TEST

static const char *TRACK =
    "railsym-track 1\n"
    "name irregular\n"
    "gauge 1.435\n"
    "inclination 1:40\n"
    "origin x -10 y 0 z 0 heading 0 s -10\n"
    "straight 400\n"
    "%s";
static const char *IRREG =
    "irregularity vertical table vert.csv linear from 0 to 380 taper 10\n"
    "irregularity cant table cross.csv linear from 0 to 380 taper 10\n";
static const char *SCENARIO =
    "duration 3\nstep 1e-4\noutput 0.002\nmethod imex\ntrack \"%s/%s\"\n"
    "initial x_dot = 10\ninitial spin_dot = 22.22222222222222\ncolumns x y z roll yaw\n";

static void write_file(const char *name, const char *fmt, const char *a, const char *b)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, fmt, a, b);
    fclose(f);
}

START_TEST(track_reads_tables)
{
    ck_assert_int_eq(sh("cd %s && %s irregularity --spectrum erri-low --kind vertical --length 400 --start -10 "
                        "--wavelengths 10:70 --seed 7 -o vert.csv --no-plot >/dev/null", dir, bin), 0);
    ck_assert_int_eq(sh("cd %s && %s irregularity --spectrum erri-low --kind cross-level --length 400 --start -10 "
                        "--wavelengths 10:70 --seed 9 -o cross.csv --no-plot >/dev/null", dir, bin), 0);
    write_file("irr.trk", TRACK, IRREG, "");
    write_file("flat.trk", TRACK, "", "");
    write_file("irr.scn", SCENARIO, dir, "irr.trk");
    write_file("flat.scn", SCENARIO, dir, "flat.trk");
    RS_REQUIRE_MODEL("wheelset_cone");
    ck_assert_int_eq(sh("%s run generated/wheelset_cone --scenario %s/irr.scn --out %s/irr.csv -q", bin, dir, dir), 0);
    ck_assert_int_eq(sh("%s run generated/wheelset_cone --scenario %s/flat.scn --out %s/flat.csv -q", bin, dir, dir),
                     0);
    char irr[128], flat[128];
    snprintf(irr, sizeof irr, "%s/irr.csv", dir);
    snprintf(flat, sizeof flat, "%s/flat.csv", dir);
    const double zi = max_abs(irr, 3), zf = max_abs(flat, 3);
    printf("max |z| on the irregular track %.3g m, on the plain one %.3g m\n", zi, zf);
    ck_assert_msg(zi > 5e-4 && zi > 5 * zf, "max |z|: irregular %g m, plain %g m", zi, zf);
    /* the PSD of the run's z: 1501 rows -> segments of 128 -> 65 bins + header */
    ck_assert_int_eq(sh("%s psd %s z --out %s/z >/dev/null", bin, irr, dir), 0);
    char p[128];
    snprintf(p, sizeof p, "%s/z_psd.csv", dir);
    ck_assert_int_eq(lines(p), 1 + 65);
    ck_assert_int_eq(sh("test -s %s/z_psd.png", dir), 0);
    ck_assert_int_eq(sh("%s psd %s zz 2>%s/err.txt", bin, irr, dir), 1);
    ck_assert_int_eq(sh("grep -q \"no column 'zz' (did you mean 'z'?)\" %s/err.txt", dir), 0);
}
END_TEST

/* The `use:` line of a generated table's header, its " (docs/contact.md)" cut. */
static void use_line(const char *csv, char *out, size_t n)
{
    char path[128], line[512];
    snprintf(path, sizeof path, "%s/%s", dir, csv);
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    out[0] = '\0';
    while (fgets(line, sizeof line, f) && line[0] == '#') {
        char *u = strstr(line, "use: ");
        char *e = u ? strstr(u, " (docs/contact.md)") : NULL;
        if (u && e) {
            *e = '\0';
            snprintf(out, n, "%s\n", u + 5);
        }
    }
    fclose(f);
    ck_assert_msg(out[0], "%s has no 'use:' line", csv);
}

START_TEST(usage_line_works_as_written)
{
    RS_REQUIRE_MODEL("wheelset_cone");
    ck_assert_int_eq(sh("cd %s && %s irregularity --spectrum erri-low --kind vertical --length 200 -w 10:70 -o v.csv "
                        "--no-plot >/dev/null", dir, bin), 0);
    ck_assert_int_eq(sh("cd %s && %s irregularity --spectrum fra4 --kind gauge --length 200 -w 10:70 --seed 3 -o g.csv "
                        "--no-plot >/dev/null", dir, bin), 0);
    char v[256], g[256], both[600];
    use_line("v.csv", v, sizeof v);
    use_line("g.csv", g, sizeof g);
    /* the taper: the longest wavelength (70 m), at most a tenth of 200 m */
    ck_assert_str_eq(v, "irregularity vertical table v.csv linear taper 20\n");
    ck_assert_str_eq(g, "irregularity gauge table g.csv linear taper 20\n");
    /* as the old header wrote it (no taper), the reader refuses the table */
    write_file("bare.trk", TRACK, "irregularity vertical table v.csv linear\n", "");
    write_file("bare.scn", SCENARIO, dir, "bare.trk");
    ck_assert_int_eq(sh("%s run generated/wheelset_cone --scenario %s/bare.scn --out %s/bare.csv -q 2>%s/err.txt",
                        bin, dir, dir, dir), 1);
    ck_assert_int_eq(sh("grep -q 'add `taper LENGTH`' %s/err.txt", dir), 0);
    snprintf(both, sizeof both, "%s%s", v, g);
    write_file("use.trk", TRACK, both, "");
    write_file("use.scn", SCENARIO, dir, "use.trk");
    ck_assert_int_eq(sh("%s run generated/wheelset_cone --scenario %s/use.scn --set 'duration 1' --out %s/use.csv -q",
                        bin, dir, dir), 0);
    char path[128];
    snprintf(path, sizeof path, "%s/use.csv", dir);
    ck_assert_int_eq(lines(path), 1 + 501);
}
END_TEST

START_TEST(comfort_command)
{
    char path[128];
    snprintf(path, sizeof path, "%s/acc.csv", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "time,ax,ay,az\n");
    for (int i = 0; i < 6000; i++) {
        const double t = i / 100.0;
        fprintf(f, "%.17g,%.17g,%.17g,%.17g\n", t, 0.3 * sin(2 * M_PI * t), 0.2 * sin(4 * M_PI * t),
                0.4 * sin(10 * M_PI * t));
    }
    fclose(f);
    ck_assert_int_eq(sh("%s comfort %s --x ax --y ay --z az > %s/out.txt", bin, path, dir), 0);
    ck_assert_int_eq(sh("grep -q '^EN 12299 N_MV: 2.29[0-9] from 12 blocks' %s/out.txt", dir), 0);
    ck_assert_int_eq(sh("grep -q '^Sperling Wz vertical (az): ' %s/out.txt", dir), 0);
    snprintf(path, sizeof path, "%s/acc_comfort.csv", dir);
    ck_assert_int_eq(lines(path), 1 + 12);
    ck_assert_int_eq(sh("test -s %s/acc_comfort.png", dir), 0);
    ck_assert_int_eq(sh("test -s %s/acc_sperling.csv", dir), 0);

    /* Wz alone: its own CSV and plot, no N_MV file */
    snprintf(path, sizeof path, "%s/acc.csv", dir);
    ck_assert_int_eq(sh("%s comfort %s --y ay --z az --out %s/wz > %s/out2.txt", bin, path, dir, dir), 0);
    ck_assert_int_eq(sh("grep -q '^sperling: .*wz_sperling.csv (12 blocks of 5 s)' %s/out2.txt", dir), 0);
    ck_assert_int_ne(sh("test -e %s/wz_comfort.csv", dir), 0);
    ck_assert_int_eq(sh("test -s %s/wz_sperling.png", dir), 0);
    snprintf(path, sizeof path, "%s/wz_sperling.csv", dir);
    ck_assert_int_eq(lines(path), 1 + 12);
    FILE *w = fopen(path, "r");
    ck_assert_ptr_nonnull(w);
    char line[512];
    ck_assert_ptr_nonnull(fgets(line, sizeof line, w));
    ck_assert_str_eq(line, "t_start_s,wz_y_block,wz_y_record,wz_z_block,wz_z_record\n");
    const double hand_y = 0.896 * pow(8000 * 0.8 * 4 / 2, 0.1), hand_z = 0.896 * pow(64000 * 0.325 * 25 / 5, 0.1);
    for (int b = 0; b < 12; b++) {
        double t, y, yr, z, zr;
        ck_assert_ptr_nonnull(fgets(line, sizeof line, w));
        ck_assert_int_eq(sscanf(line, "%lf,%lf,%lf,%lf,%lf", &t, &y, &yr, &z, &zr), 5);
        ck_assert_double_eq_tol(t, 5.0 * b, 1e-9);
        ck_assert_double_eq_tol(y, yr, 1e-6 * yr);
        ck_assert_double_eq_tol(z, zr, 1e-6 * zr);
        ck_assert_double_eq_tol(yr, hand_y, 1e-3);
        ck_assert_double_eq_tol(zr, hand_z, 1e-3);
    }
    fclose(w);
}
END_TEST

/* ΣY = 5 kN + 12 kN sin(2π 2 t) at 25 m/s: rms √(5² + 12²/2) = 9.849 kN in
 * every window; limit (Q0 = 110 kN) 10 + 220/3 = 83.33 kN, its rms 41.67 kN */
START_TEST(track_shift_command)
{
    char path[128];
    snprintf(path, sizeof path, "%s/f.csv", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "time,x,sumY,R.Y,L.Y,front.ws1.right.Y,front.ws1.left.Y,a/b y\n");
    for (int i = 0; i < 6000; i++) {
        const double sn = sin(2 * M_PI * 2 * (i / 200.0));   /* R.Y - L.Y = sumY */
        fprintf(f, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", i / 200.0, 0.125 * i, 5e3 + 12e3 * sn,
                5e3 + 7e3 * sn, -5e3 * sn, 5e3 + 7e3 * sn, -5e3 * sn, 5e3 + 12e3 * sn);
    }
    fclose(f);
    ck_assert_int_eq(sh("%s track-shift %s sumY --wheel-load 110 > %s/out.txt", bin, path, dir), 0);
    ck_assert_int_eq(sh("grep -q '65 windows of 100 m every 10 m, largest rms 9.849 kN' %s/out.txt", dir), 0);
    ck_assert_int_eq(sh("grep -q 'sum Y 83.33 kN, its rms 41.67 kN: within' %s/out.txt", dir), 0);
    ck_assert_int_eq(sh("%s track-shift %s sumY --wheel-load 110 --freight > %s/out.txt", bin, path, dir), 0);
    ck_assert_int_eq(sh("grep -q 'sum Y 70.83 kN' %s/out.txt", dir), 0);
    snprintf(path, sizeof path, "%s/f_sumY_track_shift.csv", dir);
    ck_assert_int_eq(lines(path), 1 + 65);
    /* a wheelset's sum from its wheels' Y columns: R.Y - L.Y is the same signal */
    snprintf(path, sizeof path, "%s/f.csv", dir);
    ck_assert_int_eq(sh("%s track-shift %s R.Y-L.Y --wheel-load 110 --no-plot > %s/out.txt", bin, path, dir), 0);
    ck_assert_int_eq(sh("grep -q \"sum Y 'R.Y-L.Y': 65 windows of 100 m every 10 m, largest rms 9.849 kN\" %s/out.txt", dir),
                     0);
    /* the output files' default names (docs/analyses.md): the columns joined by _minus_ when their names share
     * no start, the shared start (the wheelset) when they do, a '/' or a space made '_' */
    ck_assert_int_eq(sh("grep -q '^windows: %s/f_R.Y_minus_L.Y_track_shift.csv$' %s/out.txt", dir, dir), 0);
    ck_assert_int_eq(sh("%s track-shift %s front.ws1.right.Y-front.ws1.left.Y --wheel-load 110 --no-plot > %s/out.txt",
                        bin, path, dir), 0);
    ck_assert_int_eq(sh("grep -q '^windows: %s/f_front.ws1_track_shift.csv$' %s/out.txt", dir, dir), 0);
    ck_assert_int_eq(sh("grep -q 'largest rms 9.849 kN' %s/out.txt", dir), 0);
    ck_assert_int_eq(sh("%s track-shift %s 'a/b y' --wheel-load 110 --no-plot > %s/out.txt", bin, path, dir), 0);
    ck_assert_int_eq(sh("grep -q '^windows: %s/f_a_b_y_track_shift.csv$' %s/out.txt", dir, dir), 0);
    snprintf(path, sizeof path, "%s/f_a_b_y_track_shift.csv", dir);
    ck_assert_int_eq(lines(path), 1 + 65);
    snprintf(path, sizeof path, "%s/f.csv", dir);
    ck_assert_int_eq(sh("%s track-shift %s R.Y-L.YY --wheel-load 110 --no-plot > %s/out.txt 2>&1", bin, path, dir), 1);
    ck_assert_int_eq(sh("grep -q \"no column 'L.YY'\" %s/out.txt", dir), 0);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("analyses_cli");
    TCase *tc = tcase_create("cli");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, irregularity_reproducible);
    tcase_add_test(tc, track_reads_tables);
    tcase_add_test(tc, usage_line_works_as_written);
    tcase_add_test(tc, comfort_command);
    tcase_add_test(tc, track_shift_command);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
