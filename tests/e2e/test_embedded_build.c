/*
 * test_embedded_build.c — the embedded path, proved on a shipped example:
 * generated/four_bar/ (as `railsym compile` wrote it) plus runtime/ built by
 * the plain system C compiler into an executable, with a small main written
 * here.  No C++, no GiNaC, no libtcc: the generated files are compiled as
 * strict C99 (-std=c99 -pedantic), the runtime's core as C11, and the program
 * links only -lklu -lm.  Its output (the state after 300 IMEX and 300 RK4
 * steps) must equal the same run of the same folder loaded in this process
 * by libtcc to 1e-12.
 *
 * Two programs are built from one main.c:
 *   sim_direct   calls four_bar_model() and rs_ws_create directly: the core
 *                files of EMBED_CORE_SRCS, -lklu -lm, and nothing else (the
 *                test also checks that it references no libtcc or dlopen
 *                symbol);
 *   sim_static   wraps the descriptor with rs_load_static (rs_load.h), as
 *                issue 6 asks: the core files plus rs_load_static.c
 *                (EMBED_LOADER_SRCS), still no libtcc and no libdl.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rs_runtime.h"
#include "rs_contact.h"
#include "rs_test.h"

#define MODEL_DIR "generated/four_bar"
#define NSTEPS 300
#define NVALS 9 /* t, q (3), q̇ (3), λ (2) */
#define STR_(x) #x
#define STR(x) STR_(x)

/* The runtime files an embedded program needs (docs/runtime.md, "Embedded
 * use"): workspace, step, evaluation, KLU and the fixed-order LU, descriptor
 * check, status text. */
static const char *const EMBED_CORE_SRCS = "runtime/core/*.c";
/* rs_load_static alone: no libtcc, no libdl (rs_load_static.c). */
static const char *const EMBED_LOADER_SRCS = "runtime/load/rs_load_static.c";
static const char *const EMBED_LOADER_LIBS = "";

/* The embedded user's program: the four-bar of four_bar.scn, crank pushed,
 * NSTEPS steps of the method given as argv[1] (0 IMEX, 1 RK4), then the
 * state printed with 17 digits. */
static const char *const MAIN_C =
    "#include <stdio.h>\n"
    "#include <stdlib.h>\n"
    "#include \"rs_ws.h\"\n"
    "#ifdef USE_LOAD_STATIC\n"
    "#include \"rs_load.h\"\n"
    "#endif\n"
    "const rs_model *four_bar_model(void);\n"
    "int main(int argc, char **argv)\n"
    "{\n"
    "    char err[256];\n"
    "#ifdef USE_LOAD_STATIC\n"
    "    rs_loaded *h = rs_load_static(four_bar_model, err, sizeof err);\n"
    "    if (!h) { fprintf(stderr, \"%s\\n\", err); return 1; }\n"
    "    const rs_model *m = rs_loaded_model(h);\n"
    "#else\n"
    "    const rs_model *m = four_bar_model();\n"
    "#endif\n"
    "    rs_options o;\n"
    "    rs_options_default(&o);\n"
    "    o.method = argc > 1 && atoi(argv[1]) ? RS_RK4 : RS_IMEX_EULER;\n"
    "    o.proj_tol = 1e-10;\n"
    "    rs_ws *ws;\n"
    "    if (rs_ws_create(m, &o, &ws, err, sizeof err)) { fprintf(stderr, \"%s\\n\", err); return 1; }\n"
    "    if (rs_ws_set_q(ws, \"th1\", 1.0) || rs_ws_set_q(ws, \"th2\", -0.43041149015824987) ||\n"
    "        rs_ws_set_q(ws, \"th3\", -2.109978196204275) || rs_ws_set_qd(ws, \"th1_dot\", 2.0))\n"
    "        return 1;\n"
    "    for (int i = 0; i < " STR(NSTEPS) "; i++)\n"
    "        if (rs_step(ws)) { fprintf(stderr, \"%s\\n\", rs_ws_error(ws)); return 1; }\n"
    "    const double *q = rs_ws_q(ws), *qd = rs_ws_qd(ws), *l = rs_ws_lambda(ws);\n"
    "    printf(\"%.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\\n\", rs_ws_time(ws),\n"
    "           q[0], q[1], q[2], qd[0], qd[1], qd[2], l[0], l[1]);\n"
    "    rs_ws_free(&ws);\n"
    "#ifdef USE_LOAD_STATIC\n"
    "    rs_unload(&h);\n"
    "#endif\n"
    "    return 0;\n"
    "}\n";

/* Runs `cmd` through the shell; its stdout and stderr go into out.
 * Returns the exit status (-1 if it could not run). */
static int run(const char *cmd, char *out, size_t outlen)
{
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    size_t got = fread(out, 1, outlen - 1, p);
    out[got] = '\0';
    /* drain what did not fit, so the child never blocks on a full pipe */
    char sink[512];
    while (fread(sink, 1, sizeof sink, p) > 0)
        ;
    int rc = pclose(p);
    return rc;
}

/* The same run as MAIN_C, in this process, with the folder loaded by libtcc. */
static void reference(rs_method meth, double *v)
{
    char err[4096];
    rs_loaded *h = rs_load(MODEL_DIR, RS_LOAD_TCC, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    o.method = meth;
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

/* Runs the program `exe` with the method, compares with the reference. */
static void compare(const char *exe, rs_method meth, const double *ref)
{
    char cmd[512], out[1024];
    snprintf(cmd, sizeof cmd, "%s %d 2>&1", exe, (int)meth);
    int rc = run(cmd, out, sizeof out);
    ck_assert_msg(rc == 0, "%s failed (%d): %s", cmd, rc, out);
    double v[NVALS];
    int n = sscanf(out, "%lg %lg %lg %lg %lg %lg %lg %lg %lg", &v[0], &v[1], &v[2], &v[3], &v[4],
                   &v[5], &v[6], &v[7], &v[8]);
    ck_assert_msg(n == NVALS, "%s printed: %s", cmd, out);
    double d = 0;
    for (int i = 0; i < NVALS; i++)
        d = fmax(d, fabs(v[i] - ref[i]) / fmax(1.0, fabs(ref[i])));
    fprintf(stderr, "embedded %s, %s: max difference from libtcc in-process %.3g\n", exe,
            meth ? "RK4" : "IMEX", d);
    ck_assert_msg(d <= 1e-12, "%s, method %d: %s differs from the libtcc run by %.3g", exe,
                  (int)meth, out, d);
    ck_assert(fabs(v[0] - NSTEPS * 1e-3) < 1e-12);
}

START_TEST(test_embedded_four_bar)
{
    char dir[64] = "/tmp/rs_embedded_XXXXXX", path[256], cmd[4096], out[16384];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/main.c", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(MAIN_C, f);
    ck_assert_int_eq(fclose(f), 0);

    /* The generated folder and the core folder as strict C99, each file on
     * its own, with only abi/ and runtime/core/ on the include path (the
     * static loader adds runtime/load/); warnings are errors. */
    snprintf(cmd, sizeof cmd,
             "set -e; D=%s; "
             "for f in " MODEL_DIR "/*.c; do "
             "  cc -std=c99 -pedantic -O2 -Wall -Wextra -Werror -I abi -c \"$f\" "
             "     -o \"$D/gen_$(basename \"$f\" .c).o\"; done; "
             "for f in %s; do "
             "  cc -std=c99 -pedantic -O2 -Wall -Wextra -Werror -I abi -I runtime/core -c \"$f\" "
             "     -o \"$D/rt_$(basename \"$f\" .c).o\"; done; "
             "for f in %s; do "
             "  cc -std=c99 -pedantic -O2 -Wall -Wextra -Werror -I abi -I runtime/core -I runtime/load "
             "     -c \"$f\" -o \"$D/rt_$(basename \"$f\" .c).o\"; done; "
             "cc -std=c99 -O2 -Wall -Wextra -Werror -I abi -I runtime/core -c \"$D/main.c\" -o \"$D/main_direct.o\"; "
             "cc -std=c99 -O2 -Wall -Wextra -Werror -I abi -I runtime/core -I runtime/load -DUSE_LOAD_STATIC -c \"$D/main.c\" "
             "   -o \"$D/main_static.o\"; "
             "core=''; for f in %s; do core=\"$core $D/rt_$(basename \"$f\" .c).o\"; done; "
             "ldr=''; for f in %s; do ldr=\"$ldr $D/rt_$(basename \"$f\" .c).o\"; done; "
             "cc -o \"$D/sim_direct\" \"$D/main_direct.o\" \"$D\"/gen_*.o $core -lklu -lm; "
             "cc -o \"$D/sim_static\" \"$D/main_static.o\" \"$D\"/gen_*.o $core $ldr -lklu -lm %s 2>&1",
             dir, EMBED_CORE_SRCS, EMBED_LOADER_SRCS, EMBED_CORE_SRCS, EMBED_LOADER_SRCS,
             EMBED_LOADER_LIBS);
    int rc = run(cmd, out, sizeof out);
    ck_assert_msg(rc == 0, "embedded build failed:\n%s", out);

    /* Both programs really are free of libtcc and dlopen. */
    const char *const exes[] = {"sim_direct", "sim_static"};
    for (int e = 0; e < 2; e++) {
        snprintf(cmd, sizeof cmd, "nm -u %s/%s 2>&1", dir, exes[e]);
        ck_assert_int_eq(run(cmd, out, sizeof out), 0);
        ck_assert_msg(strstr(out, "tcc_") == NULL && strstr(out, "dlopen") == NULL &&
                          strstr(out, "dlsym") == NULL,
                      "%s references loader symbols:\n%s", exes[e], out);
        ck_assert_msg(strstr(out, "klu_") != NULL, "nm output unexpected:\n%s", out);
    }

    for (int meth = 0; meth < 2; meth++) {
        double ref[NVALS];
        reference((rs_method)meth, ref);
        char exe[300];
        snprintf(exe, sizeof exe, "%s/sim_direct", dir);
        compare(exe, (rs_method)meth, ref);
        snprintf(exe, sizeof exe, "%s/sim_static", dir);
        compare(exe, (rs_method)meth, ref);
    }

    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(run(cmd, out, sizeof out), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("embedded_build");
    TCase *tc = tcase_create("four_bar");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_embedded_four_bar);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
