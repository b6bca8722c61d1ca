/*
 * test_install.c — `make install` (scripts/install.sh) and the embedded
 * user's path through it:
 *
 *   - staged: DESTDIR=TMP/stage PREFIX=/opt/railsym puts bin/railsym, the
 *     libraries, include/railsym/ (abi/, runtime/core/, runtime/contact/
 *     headers) and lib/pkgconfig/railsym.pc under TMP/stage/opt/railsym, and
 *     the .pc names /opt/railsym, never the staging folder (the C API's
 *     librailsym.a and railsym.h too: tests/e2e/test_api_install.c);
 *   - installed: PREFIX=TMP/prefix, then a small program running
 *     generated/four_bar (the shipped model's files, as `railsym compile`
 *     wrote them) is built with nothing but
 *         cc -std=c99 main.c FILES $(pkg-config --cflags --libs railsym)
 *     (FILES: the .c files of generated/four_bar/)
 *     (PKG_CONFIG_PATH pointing at the prefix's railsym.pc), so it links the
 *     installed librailsym_core.a; its state after 300 IMEX steps equals the
 *     same run loaded in this process by libtcc to 1e-12;
 *   - the installed railsym runs (--version).
 *
 * The script is run directly, not through make: make would rebuild the
 * build it installs when called with other flags than the build's (the
 * sanitizer pass runs this test on build-asan/).
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rs_runtime.h"
#include "rs_test.h"

#define MODEL "four_bar"
#define NSTEPS 300
#define NVALS 9 /* t, q (3), q̇ (3), λ (2) */
#define STR_(x) #x
#define STR(x) STR_(x)

/* The embedded program: the four-bar with its crank pushed, NSTEPS IMEX
 * steps, the state printed with 17 digits. */
static const char *const MAIN_C =
    "#include <stdio.h>\n"
    "#include \"rs_ws.h\"\n"
    "const rs_model *four_bar_model(void);\n"
    "int main(void)\n"
    "{\n"
    "    char err[256];\n"
    "    rs_options o;\n"
    "    rs_options_default(&o);\n"
    "    o.method = RS_IMEX_EULER;\n"
    "    o.proj_tol = 1e-10;\n"
    "    rs_ws *ws;\n"
    "    if (rs_ws_create(four_bar_model(), &o, &ws, err, sizeof err)) {\n"
    "        fprintf(stderr, \"%s\\n\", err);\n"
    "        return 1;\n"
    "    }\n"
    "    if (rs_ws_set_q(ws, \"th1\", 1.0) || rs_ws_set_q(ws, \"th2\", -0.43041149015824987) ||\n"
    "        rs_ws_set_q(ws, \"th3\", -2.109978196204275) || rs_ws_set_qd(ws, \"th1_dot\", 2.0))\n"
    "        return 1;\n"
    "    for (int i = 0; i < " STR(NSTEPS) "; i++)\n"
    "        if (rs_step(ws)) { fprintf(stderr, \"%s\\n\", rs_ws_error(ws)); return 1; }\n"
    "    const double *q = rs_ws_q(ws), *qd = rs_ws_qd(ws), *l = rs_ws_lambda(ws);\n"
    "    printf(\"%.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\\n\", rs_ws_time(ws),\n"
    "           q[0], q[1], q[2], qd[0], qd[1], qd[2], l[0], l[1]);\n"
    "    rs_ws_free(&ws);\n"
    "    return 0;\n"
    "}\n";

static char tmp[64];

static const char *build_dir(void)
{
    const char *b = getenv("RAILSYM_BUILD_DIR");
    return b && *b ? b : "build";
}

/* Runs CMD through the shell, its stdout and stderr into OUT; returns its
 * exit status as system() does. */
static int run(const char *cmd, char *out, size_t len)
{
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    size_t got = fread(out, 1, len - 1, p);
    out[got] = '\0';
    char sink[512];
    while (fread(sink, 1, sizeof sink, p) > 0) /* never block the child */
        ;
    return pclose(p);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "%s not installed", path);
    static char buf[1 << 14];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void setup(void)
{
    strcpy(tmp, "/tmp/rs_install_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmp));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (system(cmd) != 0)
        fprintf(stderr, "test_install: could not remove %s\n", tmp);
}

static void assert_installed(const char *root, const char *rel, unsigned mode)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    struct stat st;
    ck_assert_msg(stat(path, &st) == 0, "%s not installed", path);
    ck_assert_msg((unsigned)(st.st_mode & 0777) == mode, "%s: mode %o, expected %o", path,
                  (unsigned)(st.st_mode & 0777), (unsigned)mode);
}

START_TEST(staged_install)
{
    char cmd[1024], out[4096];
    snprintf(cmd, sizeof cmd, "PREFIX=/opt/railsym DESTDIR='%s/stage' scripts/install.sh '%s' 2>&1",
             tmp, build_dir());
    ck_assert_msg(run(cmd, out, sizeof out) == 0, "%s failed:\n%s", cmd, out);
    char root[256];
    snprintf(root, sizeof root, "%s/stage/opt/railsym", tmp);
    assert_installed(root, "bin/railsym", 0755);
    assert_installed(root, "lib/librailsym.a", 0644);             /* the C API */
    assert_installed(root, "lib/librailsym_core.a", 0644);
    assert_installed(root, "lib/librailsym_rt.a", 0644);
    assert_installed(root, "lib/librailsym_sym.a", 0644);
    assert_installed(root, "include/railsym/rs_model.h", 0644);   /* abi/ */
    assert_installed(root, "include/railsym/rs_abi.h", 0644);
    assert_installed(root, "include/railsym/rs_ws.h", 0644);      /* runtime/core/ */
    assert_installed(root, "include/railsym/rs_klu.h", 0644);
    assert_installed(root, "include/railsym/rs_contact.h", 0644); /* runtime/contact/ */
    assert_installed(root, "include/railsym/railsym.h", 0644);    /* runtime/api/ */
    assert_installed(root, "lib/pkgconfig/railsym.pc", 0644);
    char pc[512];
    snprintf(pc, sizeof pc, "%s/lib/pkgconfig/railsym.pc", root);
    const char *text = slurp(pc);
    ck_assert_msg(strstr(text, "prefix=/opt/railsym\n") == text, "%s", text);
    ck_assert_msg(strstr(text, tmp) == NULL, "the staging folder leaked into the .pc:\n%s", text);
    ck_assert_ptr_nonnull(strstr(text, "Cflags: -I${includedir}/railsym\n"));
    ck_assert_ptr_nonnull(
        strstr(text, "Libs: -L${libdir} -lrailsym -lrailsym_core -ltcc -ldl -lklu -lm -lpthread\n"));

    /* a relative PREFIX is refused */
    snprintf(cmd, sizeof cmd, "PREFIX=opt DESTDIR='%s/stage' scripts/install.sh '%s' 2>&1", tmp,
             build_dir());
    ck_assert_int_ne(run(cmd, out, sizeof out), 0);
    ck_assert_msg(strstr(out, "PREFIX must be an absolute path") != NULL, "%s", out);
}
END_TEST

/* The run of MAIN_C, in this process, with the folder loaded by libtcc. */
static void reference(double *v)
{
    char err[4096];
    rs_loaded *h = rs_load("generated/" MODEL, RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    rs_options o;
    rs_options_default(&o);
    o.method = RS_IMEX_EULER;
    o.proj_tol = 1e-10;
    rs_ws *ws;
    ck_assert_int_eq(rs_ws_create(rs_loaded_model(h), &o, &ws, err, sizeof err), RS_OK);
    ck_assert_int_eq(rs_ws_set_q(ws, "th1", 1.0), RS_OK);
    ck_assert_int_eq(rs_ws_set_q(ws, "th2", -0.43041149015824987), RS_OK);
    ck_assert_int_eq(rs_ws_set_q(ws, "th3", -2.109978196204275), RS_OK);
    ck_assert_int_eq(rs_ws_set_qd(ws, "th1_dot", 2.0), RS_OK);
    for (int i = 0; i < NSTEPS; i++)
        ck_assert_msg(rs_step(ws) == RS_OK, "%s", rs_ws_error(ws));
    const double *q = rs_ws_q(ws), *qd = rs_ws_qd(ws), *l = rs_ws_lambda(ws);
    const double got[NVALS] = {rs_ws_time(ws), q[0], q[1], q[2], qd[0], qd[1], qd[2], l[0], l[1]};
    memcpy(v, got, sizeof got);
    rs_ws_free(&ws);
    rs_unload(&h);
}

START_TEST(embedded_program_through_pkg_config)
{
    RS_REQUIRE_MODEL(MODEL);
    RS_REQUIRE_PROGRAM("/usr/bin/pkg-config", "install it: make deps (Debian package pkg-config)");
    char cmd[2048], out[8192];
    snprintf(cmd, sizeof cmd, "PREFIX='%s/prefix' scripts/install.sh '%s' 2>&1", tmp, build_dir());
    ck_assert_msg(run(cmd, out, sizeof out) == 0, "%s failed:\n%s", cmd, out);

    /* the flags pkg-config gives for the installed tree */
    char flags[1024];
    snprintf(cmd, sizeof cmd,
             "PKG_CONFIG_PATH='%s/prefix/lib/pkgconfig' pkg-config --cflags --libs railsym 2>&1", tmp);
    ck_assert_msg(run(cmd, flags, sizeof flags) == 0, "%s failed: %s", cmd, flags);
    flags[strcspn(flags, "\n")] = '\0';
    char want[256];
    snprintf(want, sizeof want, "-I%s/prefix/include/railsym", tmp);
    ck_assert_msg(strstr(flags, want) != NULL, "pkg-config --cflags: %s", flags);
    ck_assert_msg(strstr(flags, "-lrailsym_core") != NULL, "pkg-config --libs: %s", flags);

    char main_c[128];
    snprintf(main_c, sizeof main_c, "%s/main.c", tmp);
    FILE *f = fopen(main_c, "w");
    ck_assert_ptr_nonnull(f);
    fputs(MAIN_C, f);
    ck_assert_int_eq(fclose(f), 0);
    /* A library of the sanitizer build needs the sanitizers' runtime at
     * link time; the embedded user's build of a normal one does not. */
#if defined(__SANITIZE_ADDRESS__)
    const char *san = "-fsanitize=address,undefined";
#else
    const char *san = "";
#endif
    snprintf(cmd, sizeof cmd,
             "cc -std=c99 -O2 -Wall %s -o '%s/sim' '%s' generated/" MODEL "/*.c %s 2>&1", san, tmp,
             main_c, flags);
    ck_assert_msg(run(cmd, out, sizeof out) == 0, "%s failed:\n%s", cmd, out);

    snprintf(cmd, sizeof cmd, "'%s/sim' 2>&1", tmp);
    ck_assert_msg(run(cmd, out, sizeof out) == 0, "%s failed: %s", cmd, out);
    double v[NVALS], ref[NVALS];
    ck_assert_msg(sscanf(out, "%lg %lg %lg %lg %lg %lg %lg %lg %lg", &v[0], &v[1], &v[2], &v[3],
                         &v[4], &v[5], &v[6], &v[7], &v[8]) == NVALS,
                  "the program printed: %s", out);
    reference(ref);
    double d = 0;
    for (int i = 0; i < NVALS; i++)
        d = fmax(d, fabs(v[i] - ref[i]) / fmax(1.0, fabs(ref[i])));
    fprintf(stderr, "install: embedded four_bar through pkg-config: max difference from libtcc %.3g\n",
            d);
    ck_assert_msg(d <= 1e-12, "%s differs from the libtcc run by %.3g", out, d);
    ck_assert(fabs(v[0] - NSTEPS * 1e-3) < 1e-12);

    /* the installed command runs */
    snprintf(cmd, sizeof cmd, "'%s/prefix/bin/railsym' --version 2>&1", tmp);
    ck_assert_msg(run(cmd, out, sizeof out) == 0, "%s failed: %s", cmd, out);
    ck_assert_msg(strncmp(out, "railsym ", 8) == 0, "%s", out);
}
END_TEST

static Suite *install_suite(void)
{
    Suite *s = suite_create("install");
    TCase *tc = tcase_create("install");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, staged_install);
    tcase_add_test(tc, embedded_program_through_pkg_config);
    suite_add_tcase(s, tc);
    return s;
}

RS_TEST_MAIN(install_suite)
