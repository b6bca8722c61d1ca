/*
 * test_contact_geometry_cli.c — `railsym contact-geometry` end to end: runs
 * the built command ($RAILSYM_BIN, else ./build/railsym; from the repository
 * root) on shipped profiles and checks the CSV files (header, a row), the
 * conicity of a cone, plots, and the messages for bad input.
 */
#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rs_test.h"

#define OUT_MAX 65536
static char out[OUT_MAX], err[OUT_MAX];
static char dir[64];

static const char *bin(void)
{
    const char *b = getenv("RAILSYM_BIN");
    return (b && *b) ? b : "./build/railsym";
}

static void slurp(const char *path, char *buf)
{
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, OUT_MAX - 1, f) : 0;
    buf[n] = '\0';
    if (f) fclose(f);
}

/* Runs railsym with args (NULL-terminated); returns the exit status. */
static int run(const char *const *args)
{
    char po[128], pe[128];
    snprintf(po, sizeof po, "%s/stdout", dir);
    snprintf(pe, sizeof pe, "%s/stderr", dir);
    const pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        const int fo = open(po, O_WRONLY | O_CREAT | O_TRUNC, 0600), fe = open(pe, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(fo, 1);
        dup2(fe, 2);
        const char *argv[32];
        int n = 0;
        argv[n++] = bin();
        for (int i = 0; args[i] && n < 31; i++) argv[n++] = args[i];
        argv[n] = NULL;
        execv(bin(), (char *const *)argv);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    slurp(po, out);
    slurp(pe, err);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/rs_cg_cli_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
}

/* The two runs' geometry and conicity CSV files (prefixes pa, pb) are the
 * same, byte for byte. */
static void same_csv_files(const char *pa, const char *pb)
{
    static char a[OUT_MAX], b[OUT_MAX];
    char path[192];
    const char *kind[2] = {"geometry", "conicity"};
    for (int k = 0; k < 2; k++) {
        snprintf(path, sizeof path, "%s_%s.csv", pa, kind[k]);
        slurp(path, a);
        snprintf(path, sizeof path, "%s_%s.csv", pb, kind[k]);
        slurp(path, b);
        ck_assert_msg(strlen(a) > 100 && strcmp(a, b) == 0, "%s differs:\n%.400s\n---\n%.400s", kind[k], a, b);
    }
}

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

START_TEST(s1002_on_60e1_writes_csv)
{
    char prefix[128], path[160];
    snprintf(prefix, sizeof prefix, "%s/s1002", dir);
    const int st = run(ARGS("contact-geometry", "vehicles/profiles/s1002.prf", "vehicles/profiles/60e1_1in40.prf",
                            "--shift", "-0.008:0.008:81", "--amplitudes", "0.001:0.006:6", "--out", prefix));
    ck_assert_msg(st == 0, "exit %d: %s", st, err);
    ck_assert_msg(strstr(out, "amplitude  3.00 mm: tan ge ="), "stdout: %s", out);
    static char csv[OUT_MAX];
    snprintf(path, sizeof path, "%s_geometry.csv", prefix);
    slurp(path, csv);
    ck_assert_msg(strncmp(csv, "y_m,dr_m,roll_rad,z_m,left_wheel_y_m,left_rail_y_m,left_radius_m,left_angle_rad,"
                               "left_points,left2_wheel_y_m,left2_rail_y_m,right_wheel_y_m,right_rail_y_m,"
                               "right_radius_m,right_angle_rad,right_points,right2_wheel_y_m,right2_rail_y_m\n",
                          strlen("y_m,dr_m,roll_rad")) == 0, "header: %.300s", csv);
    /* 1 header + 81 rows; the row of y = 0: dr 0, the contact on the tread */
    int rows = 0;
    for (const char *p = csv; *p; p++) rows += *p == '\n';
    ck_assert_int_eq(rows, 82);
    const char *mid = strstr(csv, "\n0,");
    ck_assert_msg(mid != NULL, "no row at y = 0");
    double y, dr, roll, z, uw, ur, r, a;
    int npt;
    ck_assert_int_eq(sscanf(mid + 1, "%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%d", &y, &dr, &roll, &z, &uw, &ur, &r, &a, &npt), 9);
    ck_assert_msg(fabs(dr) < 1e-12 && fabs(roll) < 1e-12 && npt >= 1, "centred row: dr %g roll %g points %d", dr, roll, npt);
    ck_assert_msg(fabs(r - 0.46 - 0.0) < 2e-3 && z > 0.45 && z < 0.47, "radius %g, z %g", r, z);
    snprintf(path, sizeof path, "%s_conicity.csv", prefix);
    slurp(path, csv);
    ck_assert_msg(strncmp(csv, "amplitude_m,tan_ge_en15302,tan_ge_harmonic,wavelength_m\n", 56) == 0, "%s", csv);
    /* no temporary file left */
    char cmd[256];
    snprintf(cmd, sizeof cmd, "ls '%s' | grep -q tmp", dir);
    ck_assert_int_ne(system(cmd), 0);
}
END_TEST

START_TEST(cone_conicity_and_plots)
{
    char prefix[128], path[160];
    snprintf(prefix, sizeof prefix, "%s/cone", dir);
    const int st = run(ARGS("contact-geometry", "vehicles/profiles/cone_1in40.prf", "vehicles/profiles/arc_r300.prf",
                            "--gauge-point", "-0.0225", "--shift", "-0.005:0.005:101", "--amplitudes",
                            "0.001:0.005:5", "--out", prefix, "--plot"));
    ck_assert_msg(st == 0, "exit %d: %s", st, err);
    static char csv[OUT_MAX];
    snprintf(path, sizeof path, "%s_conicity.csv", prefix);
    slurp(path, csv);
    /* every amplitude: 1/40 times the roll term 1 + g (R + r0) / l
     * (docs/contact_geometry.md), both methods */
    const double e0 = 0.74 - 0.3 * sin(atan(1.0 / 40));   /* the contact's |Y| when centred */
    const double lam = (1.0 / 40) * (1 + (1.0 / 40) * (0.3 + 0.46) / e0);
    const char *p = strchr(csv, '\n') + 1;
    int n = 0;
    double A, te, th, L;
    while (sscanf(p, "%lf,%lf,%lf,%lf", &A, &te, &th, &L) == 4) {
        ck_assert_msg(fabs(te / lam - 1) < 2e-3 && fabs(th / lam - 1) < 2e-3, "A %g: %g %g (want %g)", A, te, th, lam);
        /* Klingel: L = 2 pi sqrt(e0 r0 / tan ge) */
        ck_assert_msg(fabs(L / (2 * 3.14159265358979 * sqrt(e0 * 0.46 / te)) - 1) < 1e-6, "wavelength %g", L);
        n++;
        p = strchr(p, '\n') + 1;
    }
    ck_assert_int_eq(n, 5);
    if (access("/usr/bin/gnuplot", X_OK) == 0 || getenv("RAILSYM_GNUPLOT")) {
        const char *png[] = {"dr", "angles", "jump", "conicity"};
        for (int i = 0; i < 4; i++) {
            struct stat sb;
            snprintf(path, sizeof path, "%s_%s.png", prefix, png[i]);
            ck_assert_msg(stat(path, &sb) == 0 && sb.st_size > 1000, "%s missing", path);
        }
    }
}
END_TEST

START_TEST(bad_input_messages)
{
    char prefix[128], fold[128];
    snprintf(prefix, sizeof prefix, "%s/bad", dir);
    /* rail too narrow for the flange */
    int st = run(ARGS("contact-geometry", "vehicles/profiles/s1002.prf", "vehicles/profiles/arc_r300.prf",
                      "--gauge-point", "-0.02", "--out", prefix));
    ck_assert_int_eq(st, 1);
    ck_assert_msg(strstr(err, "railsym contact-geometry: vehicles/profiles/arc_r300.prf: ") &&
                  strstr(err, "too narrow for the flange") && strstr(err, "extend"), "%s", err);
    /* profiles that never touch */
    st = run(ARGS("contact-geometry", "vehicles/profiles/s1002.prf", "vehicles/profiles/60e1_1in40.prf", "--gauge",
                  "2.5", "--out", prefix));
    ck_assert_int_eq(st, 1);
    ck_assert_msg(strstr(err, "s1002.prf on vehicles/profiles/60e1_1in40.prf") && strstr(err, "never touches") &&
                  strstr(err, "--gauge"), "%s", err);
    /* a wheel profile that folds back */
    snprintf(fold, sizeof fold, "%s/fold.prf", dir);
    FILE *f = fopen(fold, "w");
    ck_assert_ptr_nonnull(f);
    fputs("railsym-profile 1\nname fold\nkind wheel\nunits m\n-0.07 0.02\n-0.06 0.01\n-0.065 0.005\n0 0\n0.05 -0.001\n", f);
    fclose(f);
    st = run(ARGS("contact-geometry", fold, "vehicles/profiles/60e1_1in40.prf", "--out", prefix));
    ck_assert_int_eq(st, 1);
    ck_assert_msg(strstr(err, "fold.prf:7:") && strstr(err, "folds back"), "%s", err);
    /* no gauge point */
    st = run(ARGS("contact-geometry", "vehicles/profiles/cone_1in40.prf", "vehicles/profiles/arc_r300.prf", "--out",
                  prefix));
    ck_assert_int_eq(st, 1);
    ck_assert_msg(strstr(err, "arc_r300.prf: ") && strstr(err, "--gauge-point"), "%s", err);
    /* inclination on an inclined file */
    st = run(ARGS("contact-geometry", "vehicles/profiles/s1002.prf", "vehicles/profiles/60e1_1in40.prf",
                  "--inclination", "1:40", "--out", prefix));
    ck_assert_int_eq(st, 1);
    ck_assert_msg(strstr(err, "carries an inclination"), "%s", err);
    /* bad usage */
    st = run(ARGS("contact-geometry", "vehicles/profiles/s1002.prf", "vehicles/profiles/60e1_1in40.prf",
                  "--amplitudes", "0.001:0.02:5", "--out", prefix));
    ck_assert_int_eq(st, 2);
    ck_assert_msg(strstr(err, "widen --shift"), "%s", err);
    /* nothing written by the failures */
    char path[160];
    snprintf(path, sizeof path, "%s_geometry.csv", prefix);
    ck_assert_int_ne(access(path, F_OK), 0);
}
END_TEST

/* --model generated/feve3000 against the same pair with options derived by
 * hand from the description (vehicles/feve3000/feve3000.vdl: wheel centres
 * h_wheel = 0.535 m from the wheelset centre, rails h_rail = 0.535 m from the
 * track's, r0 = 0.5 m; cone_1in13_flange.prf's first row y = -0.048958953076
 * m, so B = 2 (0.535 - 0.048958953076); the rails placed by --gauge 1.07
 * with the gauge point at the rail's origin): the same CSV files, byte for
 * byte.  The model's own gauge line: 2 (0.535 + y_gauge) with the 14-mm
 * point 26.27 mm in from the crown (docs/contact_geometry.md), 1.017 m. */
START_TEST(model_as_hand_options)
{
    char pm[128], ph[128], bflange[64];
    snprintf(pm, sizeof pm, "%s/model", dir);
    snprintf(ph, sizeof ph, "%s/hand", dir);
    int st = run(ARGS("contact-geometry", "--model", "generated/feve3000", "--out", pm));
    ck_assert_msg(st == 0, "exit %d: %s", st, err);
    ck_assert_msg(strstr(out, "model generated/feve3000, wheelset 'front.wf.ws' (contacts front.wf.left, "
                              "front.wf.right): wheel centres 1.07 m apart, rail offset 0.535 m") &&
                  strstr(out, "cone_1in13_flange on arc_r160_corner: gauge 1.017 m, flange back 0.9721 m, r0 0.5 m, "
                              "gauge point at rail y -26.27 mm") &&
                  strstr(out, "201 shifts from -0.01 to 0.01 m") && !strstr(out, "stops"),
                  "stdout: %s", out);
    snprintf(bflange, sizeof bflange, "%.17g", 2 * (0.535 - 0.048958953076));
    st = run(ARGS("contact-geometry", "vehicles/profiles/cone_1in13_flange.prf", "vehicles/profiles/arc_r160_corner.prf",
                  "--flange-back", bflange, "--gauge", "1.07", "--gauge-point", "0", "--radius", "0.5", "--out", ph));
    ck_assert_msg(st == 0, "exit %d: %s", st, err);
    same_csv_files(pm, ph);
    /* explicit options win over the model's */
    st = run(ARGS("contact-geometry", "--model", "generated/feve3000", "--radius", "0.45", "--gauge", "1.02",
                  "--out", pm));
    ck_assert_msg(st == 0, "exit %d: %s", st, err);
    ck_assert_msg(strstr(out, "gauge 1.02 m, flange back 0.9721 m, r0 0.45 m"), "stdout: %s", out);
    /* profiles and --model together */
    st = run(ARGS("contact-geometry", "vehicles/profiles/cone_1in13_flange.prf", "--model", "generated/feve3000"));
    ck_assert_int_eq(st, 2);
    st = run(ARGS("contact-geometry", "--model", "vehicles/profiles", "--out", pm));
    ck_assert_int_eq(st, 1);
    ck_assert_msg(strstr(err, "vehicles/profiles"), "%s", err);
}
END_TEST

/* Unlike sides: --wheel-right / --rail-right naming the left's very files
 * by another path (so they are loaded and placed as a second pair) give the
 * symmetric run's CSV files byte for byte; a 1:20 rail on the right is
 * reported as such, with dr(0) != 0 (the library's closed-form and mirror
 * checks are in test_contact_geometry).  --wheelset picks a model's pair
 * (the full body name or the part's), an unknown or ambiguous one lists the
 * model's wheelsets, and goes only with --model. */
START_TEST(unlike_sides_and_wheelset)
{
    char ps[128], pu[128], path[192];
    snprintf(ps, sizeof ps, "%s/sym", dir);
    snprintf(pu, sizeof pu, "%s/two", dir);
    int st = run(ARGS("contact-geometry", "vehicles/profiles/s1002.prf", "vehicles/profiles/60e1_1in40.prf", "--out", ps));
    ck_assert_msg(st == 0, "exit %d: %s", st, err);
    st = run(ARGS("contact-geometry", "vehicles/profiles/s1002.prf", "vehicles/profiles/60e1_1in40.prf", "--wheel-right",
                  "./vehicles/profiles/s1002.prf", "--rail-right", "./vehicles/profiles/60e1_1in40.prf", "--out", pu));
    ck_assert_msg(st == 0, "exit %d: %s", st, err);
    ck_assert_msg(strstr(out, "left S1002 on 60E1_1in40, right S1002 on 60E1_1in40"), "stdout: %s", out);
    same_csv_files(ps, pu);
    st = run(ARGS("contact-geometry", "vehicles/profiles/s1002.prf", "vehicles/profiles/60e1_1in40.prf", "--rail-right",
                  "vehicles/profiles/60e1_1in20.prf", "--out", pu));
    ck_assert_msg(st == 0, "exit %d: %s", st, err);
    ck_assert_msg(strstr(out, "left S1002 on 60E1_1in40, right S1002 on 60E1_1in20") &&
                      strstr(out, "centred, right: contact at wheel y") && strstr(out, "centred: dr = "),
                  "stdout: %s", out);
    static char a[OUT_MAX];
    snprintf(path, sizeof path, "%s_geometry.csv", pu);
    slurp(path, a);
    const char *mid = strstr(a, "\n0,");
    double dr = 0;
    ck_assert_msg(mid && sscanf(mid + 1, "0,%lf", &dr) == 1 && fabs(dr) > 1e-5, "centred dr %g", dr);
    /* --wheelset */
    st = run(ARGS("contact-geometry", "--model", "generated/coach", "--wheelset", "rear.ws2", "--out", pu));
    ck_assert_msg(st == 0, "exit %d: %s", st, err);
    ck_assert_msg(strstr(out, "wheelset 'rear.ws2.ws' (contacts rear.ws2.left, rear.ws2.right)"), "stdout: %s", out);
    st = run(ARGS("contact-geometry", "--model", "generated/coach", "--wheelset", "rear", "--out", pu));
    ck_assert_int_eq(st, 1);
    ck_assert_msg(strstr(err, "'rear' names more than one wheelset") && strstr(err, "'front.ws1.ws', 'front.ws2.ws'"),
                  "%s", err);
    st = run(ARGS("contact-geometry", "--model", "generated/coach", "--wheelset", "nope", "--out", pu));
    ck_assert_int_eq(st, 1);
    ck_assert_msg(strstr(err, "no wheelset 'nope'") && strstr(err, "'rear.ws2.ws'"), "%s", err);
    st = run(ARGS("contact-geometry", "vehicles/profiles/s1002.prf", "vehicles/profiles/60e1_1in40.prf", "--wheelset",
                  "ws"));
    ck_assert_int_eq(st, 2);
    st = run(ARGS("contact-geometry", "--model", "generated/coach", "--rail-right", "vehicles/profiles/60e1_1in20.prf"));
    ck_assert_int_eq(st, 2);
}
END_TEST

/* A model whose right rail is 60E1 1:20 (wheelset.vdl with that rail on its
 * right contact, compiled here): --model takes each side's pair; both rails
 * 0.753035 m out, so the tool's track centre (midway between the gauge
 * points) lies (y_g,r - y_g,l)/2 right of the model's centre line and the
 * model's lateral shift is the tool's y - (y_g,r - y_g,l)/2 with y_g each
 * rail's gauge point (as printed; the printed offset to their rounding). */
START_TEST(model_with_unlike_rails)
{
    char cwd[4096], vdl[160], gen[160], pm[160], line[8192];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    snprintf(vdl, sizeof vdl, "%s/w2.vdl", dir);
    snprintf(gen, sizeof gen, "%s/gen", dir);
    snprintf(pm, sizeof pm, "%s/m", dir);
    FILE *in = fopen("vehicles/examples/wheelset.vdl", "r"), *o = fopen(vdl, "w");
    ck_assert_msg(in && o, "cannot copy wheelset.vdl");
    while (fgets(line, sizeof line, in)) {
        char buf[16384];
        size_t k = 0;
        for (const char *p = line; *p && k + 4200 < sizeof buf;) {   /* paths made absolute */
            if (strncmp(p, "\"../", 4) == 0) {
                k += (size_t)snprintf(buf + k, sizeof buf - k, "\"%s/vehicles/", cwd);
                p += 4;
            } else {
                buf[k++] = *p++;
            }
        }
        buf[k] = 0;
        char *r = strncmp(buf, "contact right", 13) == 0 ? strstr(buf, "60e1_1in40") : NULL;
        if (r) memcpy(r, "60e1_1in20", 10);
        fputs(buf, o);
    }
    fclose(in);
    fclose(o);
    int st = run(ARGS("compile", vdl, "-o", gen));
    ck_assert_msg(st == 0, "compile: exit %d: %s", st, err);
    st = run(ARGS("contact-geometry", "--model", gen, "--out", pm));
    ck_assert_msg(st == 0, "exit %d: %s", st, err);
    ck_assert_msg(strstr(out, "left S1002 on 60E1_1in40, right S1002 on 60E1_1in20"), "stdout: %s", out);
    const char *gp = strstr(out, "gauge points at rail y "), *off = strstr(out, "the model's lateral shift = y ");
    double gl = 0, gr = 0, sh = 0;
    ck_assert_msg(gp && sscanf(gp, "gauge points at rail y %lf / %lf mm", &gl, &gr) == 2, "stdout: %s", out);
    ck_assert_msg(off && sscanf(off, "the model's lateral shift = y %lf mm", &sh) == 1, "stdout: %s", out);
    ck_assert_msg(gl < -30 && gr < -30 && fabs(gr - gl) > 0.1, "gauge points %g %g mm", gl, gr);
    ck_assert_msg(fabs(sh + 0.5 * (gr - gl)) < 0.011, "offset %g mm, gauge points %g %g mm", sh, gl, gr);
}
END_TEST

/* The FEVE pair on the nominal metre gauge (--gauge 1.000: rails 8.7 mm
 * further in than the model's): the flange reaches the end of its table at
 * 8.3 mm, so the default +-10 mm range stops at +-8.2 mm and says so (the
 * default amplitudes up to 8 mm still fit); an explicit --shift to 10 mm
 * is the error it was. */
START_TEST(default_range_stops)
{
    char prefix[128];
    snprintf(prefix, sizeof prefix, "%s/stop", dir);
    int st = run(ARGS("contact-geometry", "vehicles/profiles/cone_1in13_flange.prf", "vehicles/profiles/arc_r160_corner.prf",
                      "--flange-back", "0.97208", "--gauge", "1.000", "--radius", "0.5", "--out", prefix));
    ck_assert_msg(st == 0, "exit %d: %s", st, err);
    ck_assert_msg(strstr(out, "165 shifts from -0.0082 to 0.0082 m") &&
                  strstr(out, "the default range (+-10 mm) stops at the last shift before a contact reaches the "
                              "flange-side end of the wheel table: beyond it, the right contact at shift -8.300 mm "
                              "lies at the flange-side end of the wheel table (y = -48.959 mm); the left contact at "
                              "shift 8.300 mm") &&
                  strstr(out, "amplitude  8.00 mm"),
                  "stdout: %s", out);
    static char csv[OUT_MAX];
    char path[160];
    snprintf(path, sizeof path, "%s_geometry.csv", prefix);
    slurp(path, csv);
    int rows = 0;
    for (const char *p = csv; *p; p++) rows += *p == '\n';
    ck_assert_int_eq(rows, 166);
    ck_assert_msg(strncmp(strchr(csv, '\n') + 1, "-0.0082,", 8) == 0, "%.200s", csv);
    st = run(ARGS("contact-geometry", "vehicles/profiles/cone_1in13_flange.prf", "vehicles/profiles/arc_r160_corner.prf",
                  "--flange-back", "0.97208", "--gauge", "1.000", "--radius", "0.5", "--shift", "-0.010:0.010:201",
                  "--out", prefix));
    ck_assert_int_eq(st, 1);
    ck_assert_msg(strstr(err, "flange-side end of the wheel table") && strstr(err, "narrow --shift"), "%s", err);
    /* explicit amplitudes beyond the range that stopped */
    st = run(ARGS("contact-geometry", "vehicles/profiles/cone_1in13_flange.prf", "vehicles/profiles/arc_r160_corner.prf",
                  "--flange-back", "0.97208", "--gauge", "1.000", "--radius", "0.5", "--amplitudes", "0.001:0.009:9",
                  "--out", prefix));
    ck_assert_int_eq(st, 2);
    ck_assert_msg(strstr(err, "the shift range stops at -0.0082 to 0.0082 m") && strstr(err, "lower --amplitudes"),
                  "%s", err);
}
END_TEST

/* A cylindrical wheel (the cone file with z = 0) on R300 heads: dr is 0 at
 * every shift, nothing steers the wheelset back, so every amplitude's
 * wavelength is infinite and tan ge 0 (EN 15302 Annex E, case E4, gives 0
 * on such a flat stretch; tests/physics/test_conicity_en15302.c); the
 * conicity file says 0 and inf, with no warning. */
START_TEST(cylinder_flat_stretch)
{
    char prof[128], prefix[128], path[160], line[256];
    snprintf(prof, sizeof prof, "%s/cyl.prf", dir);
    FILE *in = fopen("vehicles/profiles/cone_1in40.prf", "r"), *o = fopen(prof, "w");
    ck_assert_ptr_nonnull(in);
    ck_assert_ptr_nonnull(o);
    while (fgets(line, sizeof line, in)) {
        double y;
        if (sscanf(line, "%lf", &y) == 1)
            fprintf(o, "%.12f 0\n", y);
        else if (strncmp(line, "name ", 5) == 0)
            fputs("name cyl\n", o);
        else
            fputs(line, o);
    }
    fclose(in);
    fclose(o);
    snprintf(prefix, sizeof prefix, "%s/cyl", dir);
    const int st = run(ARGS("contact-geometry", prof, "vehicles/profiles/arc_r300.prf", "--gauge-point", "0",
                            "--amplitudes", "0.001:0.005:5", "--out", prefix));
    ck_assert_msg(st == 0, "exit %d: %s", st, err);
    ck_assert_msg(strstr(err, "warning") == NULL, "stderr: %s", err);
    static char csv[OUT_MAX];
    snprintf(path, sizeof path, "%s_conicity.csv", prefix);
    slurp(path, csv);
    ck_assert_msg(strstr(csv, "\n0.001,0,0,inf\n") && strstr(csv, "\n0.003,0,0,inf\n") &&
                      strstr(csv, "\n0.005,0,0,inf\n"),
                  "%s", csv);
}
END_TEST

/* An outside engineer's mistakes (session 41; docs/contact.md "Cases tried
 * from outside"): a gauge narrower than the wheelset's flanges (G 1.42 m
 * against S1002's SR = 1.360 + 2 x 0.0325 = 1.425 m) is computed but warned
 * about once, centred on the flange at 70 deg; the flange back not less than
 * the gauge (metre gauge with the default B), a wheel table written towards
 * the track centre (mirrored), and one in decreasing y are refused, each
 * naming its file and the fix. */
START_TEST(outsider_mistakes)
{
    char prefix[128], path[160];
    snprintf(prefix, sizeof prefix, "%s/o", dir);
    int st = run(ARGS("contact-geometry", "vehicles/profiles/s1002.prf", "vehicles/profiles/60e1_1in40.prf", "--gauge",
                      "1.42", "--out", prefix));
    ck_assert_int_eq(st, 0);
    ck_assert_msg(strstr(err, "warning: centred, the left wheel touches its rail at a contact angle of 70.0 deg") &&
                  strstr(err, "wedged") && strstr(err, "--flange-back"), "%s", err);
    /* the default gauge: no such warning */
    st = run(ARGS("contact-geometry", "vehicles/profiles/s1002.prf", "vehicles/profiles/60e1_1in40.prf", "--out",
                  prefix));
    ck_assert_int_eq(st, 0);
    ck_assert_msg(!strstr(err, "wedged"), "%s", err);
    /* metre gauge, the flange back left at its standard-gauge default */
    st = run(ARGS("contact-geometry", "vehicles/profiles/feve_wheel.prf", "vehicles/profiles/feve_rail.prf",
                  "--gauge", "1.0", "--out", prefix));
    ck_assert_int_eq(st, 1);
    ck_assert_msg(strstr(err, "feve_wheel.prf on vehicles/profiles/feve_rail.prf: flange-back spacing 1.36 m is not "
                              "less than the gauge 1 m") && strstr(err, "--flange-back"), "%s", err);
    /* S1002 with y towards the track centre: its flange crest (z 28 mm at
     * y -55 mm in s1002.prf) at y +55 mm */
    static char text[OUT_MAX];
    slurp("vehicles/profiles/s1002.prf", text);
    double yv[1024], zv[1024];
    int n = 0;
    for (char *l = strtok(text, "\n"); l && n < 1024; l = strtok(NULL, "\n"))
        if (sscanf(l, "%lf %lf", &yv[n], &zv[n]) == 2) n++;
    ck_assert_int_gt(n, 100);
    char mir[128], rev[128];
    snprintf(mir, sizeof mir, "%s/mirrored.prf", dir);
    snprintf(rev, sizeof rev, "%s/reversed.prf", dir);
    FILE *fm = fopen(mir, "w"), *fr = fopen(rev, "w");
    ck_assert_ptr_nonnull(fm);
    ck_assert_ptr_nonnull(fr);
    fputs("railsym-profile 1\nname S1002m\nkind wheel\nunits m\n", fm);
    fputs("railsym-profile 1\nname S1002r\nkind wheel\nunits m\n", fr);
    for (int i = n - 1; i >= 0; i--) {
        fprintf(fm, "%.12f %.12f\n", -yv[i], zv[i]);
        fprintf(fr, "%.12f %.12f\n", yv[i], zv[i]);
    }
    fclose(fm);
    fclose(fr);
    st = run(ARGS("contact-geometry", mir, "vehicles/profiles/60e1_1in40.prf", "--out", prefix));
    ck_assert_int_eq(st, 1);
    ck_assert_msg(strstr(err, "mirrored.prf:") && strstr(err, ": wheel S1002m has its flange at the field-side end") &&
                  strstr(err, "z = 28.0 mm at y = 55.0 mm") && strstr(err, "mirror it"), "%s", err);
    st = run(ARGS("contact-geometry", rev, "vehicles/profiles/60e1_1in40.prf", "--out", prefix));
    ck_assert_int_eq(st, 1);
    ck_assert_msg(strstr(err, "reversed.prf:6: ") && strstr(err, "decreasing y") && strstr(err, "reverse their order"),
                  "%s", err);
    /* the refusals wrote nothing: the files are the default gauge's run's */
    snprintf(path, sizeof path, "%s_geometry.csv", prefix);
    ck_assert_int_eq(access(path, F_OK), 0);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("contact_geometry_cli");
    TCase *tc = tcase_create("cli");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, s1002_on_60e1_writes_csv);
    tcase_add_test(tc, cone_conicity_and_plots);
    tcase_add_test(tc, bad_input_messages);
    tcase_add_test(tc, model_as_hand_options);
    tcase_add_test(tc, unlike_sides_and_wheelset);
    tcase_add_test(tc, model_with_unlike_rails);
    tcase_add_test(tc, default_range_stops);
    tcase_add_test(tc, cylinder_flat_stretch);
    tcase_add_test(tc, outsider_mistakes);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(suite)
