/*
 * test_embedded_build.c — the embedded path, proved on a shipped example:
 * generated/four_bar/ (as `railsym compile` wrote it) plus the folder
 * runtime/core/ built by the plain system C compiler into an executable, with
 * the main of docs/examples/embedded_main.c (docs/abi.md's example).  No C++,
 * no GiNaC, no libtcc: the generated files and the core are compiled as strict
 * C99 (-std=c99 -pedantic) with only abi/ and runtime/core/ on the include
 * path, and the program links only -lklu -lm.  Its output (the state after 300 IMEX and 300 RK4
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

/* The runtime an embedded program needs (docs/runtime.md, "Embedded use"):
 * the core folder, whole. */
static const char *const EMBED_CORE_SRCS = "runtime/core/*.c";
/* rs_load_static alone: no libtcc, no libdl (rs_load_static.c). */
static const char *const EMBED_LOADER_SRCS = "runtime/load/rs_load_static.c";
static const char *const EMBED_LOADER_LIBS = "";

/* The embedded user's program is docs/examples/embedded_main.c, the example
 * docs/abi.md is built around: the four-bar of four_bar.scn, crank pushed,
 * NSTEPS steps of the method given as argv[1] (0 IMEX, 1 RK4), then the
 * state printed with 17 digits.  Built from the file itself, so the
 * documented example cannot rot. */
#define MAIN_C_PATH "docs/examples/embedded_main.c"

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

/* The same run as embedded_main.c, in this process, with the folder loaded by libtcc. */
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
    /* line 1: what the program read from the descriptor (names, units, the
     * model.json hash); line 2: the state */
    ck_assert_msg(strstr(out, "model four_bar: 3 coordinates (th1 [rad], ...), 2 constraints, model.json ") == out,
                  "%s printed: %s", cmd, out);
    const char *state = strchr(out, '\n');
    ck_assert_msg(state != NULL, "%s printed: %s", cmd, out);
    double v[NVALS];
    int n = sscanf(state + 1, "%lg %lg %lg %lg %lg %lg %lg %lg %lg", &v[0], &v[1], &v[2], &v[3], &v[4],
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
    snprintf(path, sizeof path, "cp " MAIN_C_PATH " %s/main.c", dir);
    ck_assert_msg(run(path, out, sizeof out) == 0, "cannot copy " MAIN_C_PATH ": %s", out);

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
