/*
 * test_rt_loaders.c — the static, dlopen (gcc -O2 and -O3 -march=native)
 * and libtcc loaders give the same trajectories to 1e-12; loader errors
 * carry the compiler's file:line; and the embedded path: the fixture's
 * folder plus the runtime's core files built by a plain C compiler into an
 * executable (no loader, no libtcc, no C++), whose output matches.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_fixtures.h"
#include "rs_contact.h"
#include "rs_test.h"

#define NSTEPS 500

static const char *const fixtures[3] = {"rt_pendulum", "rt_cartpend", "rt_fourbar"};

static rs_model_fn static_fn(int i)
{
    return i == 0 ? rt_pendulum_model : i == 1 ? rt_cartpend_model : rt_fourbar_model;
}

/* Final and intermediate q after NSTEPS from a fixed state. */
static void trajectory(const rs_model *m, rs_method meth, double *traj)
{
    rs_ws *ws = rt_ws_new(m, meth, 1e-3, 1e-10);
    if (m->n_q == 1)
        rs_ws_q(ws)[0] = 2.0;
    else if (m->n_q == 2) {
        rs_ws_q(ws)[0] = 0.8;
        rs_ws_q(ws)[1] = -0.6;
    } else
        rt_fourbar_assemble(rs_ws_p(ws), 0.6, rs_ws_q(ws));
    rs_ws_qd(ws)[0] = 1.0;
    for (int i = 0; i < NSTEPS; i++) {
        ck_assert_msg(rs_step(ws) == RS_OK, "%s: %s", m->name, rs_ws_error(ws));
        for (int j = 0; j < m->n_q; j++)
            traj[i * 3 + j] = rs_ws_q(ws)[j];
    }
    rs_ws_free(&ws);
}

static void compare_loader(rs_loader kind, const char *cflags)
{
    static double a[NSTEPS * 3], b[NSTEPS * 3];
    for (int f = 0; f < 3; f++) {
        char dir[256], err[2048];
        snprintf(dir, sizeof dir, "%s/%s", RT_MODELS_DIR, fixtures[f]);
        rs_load_options o;
        rs_load_options_default(&o);
        if (cflags)
            o.cflags = cflags;
        rs_loaded *h = rs_load_ex(dir, kind, &o, err, sizeof err);
        ck_assert_msg(h != NULL, "%s: %s", dir, err);
        rs_loaded *s = rs_load_static(static_fn(f), err, sizeof err);
        ck_assert_msg(s != NULL, "%s", err);
        const rs_model *ml = rs_loaded_model(h), *ms = rs_loaded_model(s);
        ck_assert_str_eq(ml->name, ms->name);
        ck_assert_ptr_ne(ml, ms); /* really another copy of the code */
        for (int meth = 0; meth < 2; meth++) {
            memset(a, 0, sizeof a);
            memset(b, 0, sizeof b);
            trajectory(ms, (rs_method)meth, a);
            trajectory(ml, (rs_method)meth, b);
            double d = 0;
            for (int i = 0; i < NSTEPS * 3; i++)
                d = fmax(d, fabs(a[i] - b[i]));
            ck_assert_msg(d <= 1e-12, "%s loader %d flags '%s' method %d: differs by %.3g",
                          ms->name, (int)kind, cflags ? cflags : "", meth, d);
        }
        rs_unload(&h);
        rs_unload(&s);
        ck_assert_ptr_null(h);
    }
}

START_TEST(test_dlopen_o2) { compare_loader(RS_LOAD_DLOPEN, NULL); }
END_TEST
START_TEST(test_dlopen_o3_native) { compare_loader(RS_LOAD_DLOPEN, RS_CFLAGS_O3_NATIVE); }
END_TEST
START_TEST(test_tcc) { compare_loader(RS_LOAD_TCC, NULL); }
END_TEST

/* A temporary model folder holding one file with a syntax error on line 3. */
static void bad_folder(char *dir, size_t len)
{
    snprintf(dir, len, "/tmp/rt_loaders_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[300];
    snprintf(path, sizeof path, "%s/broken.c", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("#include \"rs_model.h\"\nint broken_x(void)\n{ return 1 +; }\n", f);
    fclose(f);
}

static void remove_folder(const char *dir)
{
    char path[300];
    snprintf(path, sizeof path, "%s/broken.c", dir);
    unlink(path);
    rmdir(dir);
}

/* Copies file `name` from folder `from` to folder `to`; returns its bytes
 * (malloc'd, *len set). */
static char *copy_file(const char *from, const char *to, const char *name, size_t *len)
{
    char path[400];
    snprintf(path, sizeof path, "%s/%s", from, name);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "%s is missing: run build/railsym compile", path);
    char *buf = malloc(1 << 20);
    ck_assert_ptr_nonnull(buf);
    *len = fread(buf, 1, 1 << 20, f);
    ck_assert(feof(f));
    fclose(f);
    snprintf(path, sizeof path, "%s/%s", to, name);
    f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(buf, 1, *len, f), *len);
    fclose(f);
    return buf;
}

/* The descriptor of a compiled model carries its initial state, the units
 * the compiler knows and the hash of its model.json; a folder whose
 * model.json is not the one its C was compiled with is refused. */
START_TEST(test_descriptor_state_units_hash)
{
    char dir[64] = "/tmp/rt_loaders_json_XXXXXX", err[512];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    const char *const names[3] = {"pendulum.c", "pendulum_model.c", "model.json"};
    size_t len = 0;
    char *json = NULL;
    for (int i = 0; i < 3; i++) {
        char *b = copy_file("generated/pendulum", dir, names[i], &len);
        if (i == 2)
            json = b;
        else
            free(b);
    }
    rs_load_options o;
    rs_load_options_default(&o);
    o.model_name = "pendulum";
    rs_loaded *h = rs_load_ex(dir, RS_LOAD_TCC, &o, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    const rs_model *m = rs_loaded_model(h);
    ck_assert(m->content_hash == rs_fnv1a64(json, len));
    ck_assert(m->content_hash != 0);
    ck_assert(m->q0 && m->qd0);
    ck_assert(m->q0[0] == 0.3 && m->qd0[0] == 0.0);   /* coord th = 0.3 in pendulum.vdl */
    ck_assert(m->q_units && strcmp(m->q_units[0], "rad") == 0);   /* th is a rotation angle */
    /* m, l, J from the comments "# kg, ...", "# m, ...", "# kg m^2, ..." */
    ck_assert(m->p_units && strcmp(m->p_units[0], "kg") == 0 && strcmp(m->p_units[1], "m") == 0 &&
              strcmp(m->p_units[2], "kg m^2") == 0);
    rs_unload(&h);
    /* one byte more in model.json: refused, naming the file and the fix */
    char path[400];
    snprintf(path, sizeof path, "%s/model.json", dir);
    FILE *f = fopen(path, "ab");
    ck_assert_ptr_nonnull(f);
    fputc(' ', f);
    fclose(f);
    ck_assert_ptr_null(rs_load_ex(dir, RS_LOAD_TCC, &o, err, sizeof err));
    ck_assert_msg(strstr(err, "model.json does not match the model's C") && strstr(err, "railsym compile"),
                  "%s", err);
    free(json);
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
}
END_TEST

START_TEST(test_errors)
{
    char err[2048], dir[64];
    ck_assert_ptr_null(rs_load("/nonexistent/model", RS_LOAD_TCC, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent/model"));
    ck_assert_ptr_null(rs_load("tests/support/rt_models/rt_pendulum", RS_LOAD_STATIC, err,
                               sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "rs_load_static"));

    bad_folder(dir, sizeof dir);
    ck_assert_ptr_null(rs_load(dir, RS_LOAD_TCC, err, sizeof err));
    ck_assert_msg(strstr(err, "broken.c:3") != NULL, "tcc message: %s", err);
    ck_assert_ptr_null(rs_load(dir, RS_LOAD_DLOPEN, err, sizeof err));
    ck_assert_msg(strstr(err, "broken.c:3") != NULL, "cc message: %s", err);
    remove_folder(dir);

    /* right code, wrong model name */
    rs_load_options o;
    rs_load_options_default(&o);
    o.model_name = "nosuch";
    ck_assert_ptr_null(rs_load_ex("tests/support/rt_models/rt_pendulum", RS_LOAD_TCC, &o, err,
                                  sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "nosuch_model"));
    ck_assert_ptr_null(rs_load_ex("tests/support/rt_models/rt_pendulum", RS_LOAD_DLOPEN, &o, err,
                                  sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "nosuch_model"));
    o.model_name = NULL;
    o.cc = "/nonexistent/cc";
    ck_assert_ptr_null(rs_load_ex("tests/support/rt_models/rt_pendulum", RS_LOAD_DLOPEN, &o, err,
                                  sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent/cc"));
}
END_TEST

/* The program an embedded user would write: static descriptor, workspace,
 * steps, print.  Built below from the fixture folder plus runtime core. */
static const char *embedded_main =
    "#include <stdio.h>\n"
    "#include \"rs_ws.h\"\n"
    "const rs_model *rt_fourbar_model(void);\n"
    "int main(void) {\n"
    "  rs_options o; rs_options_default(&o); o.proj_tol = 1e-10;\n"
    "  rs_ws *ws; char err[200];\n"
    "  if (rs_ws_create(rt_fourbar_model(), &o, &ws, err, sizeof err)) { puts(err); return 1; }\n"
    "  double *q = rs_ws_q(ws); q[0] = 0.6; q[1] = 0.9; q[2] = 1.5;\n"
    "  for (int i = 0; i < 200; i++) if (rs_step(ws)) { puts(rs_ws_error(ws)); return 1; }\n"
    "  printf(\"%.17g %.17g %.17g\\n\", q[0], q[1], q[2]);\n"
    "  rs_ws_free(&ws); return 0; }\n";

START_TEST(test_embedded_build)
{
    char dir[64] = "/tmp/rt_embedded_XXXXXX", path[128], cmd[2048], out[256];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/main.c", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(embedded_main, f);
    fclose(f);
    /* the embedded subset of runtime/: no loaders, no CSV */
    snprintf(cmd, sizeof cmd,
             "cc -std=c99 -O2 -Wall -Wextra -Werror -I abi -I runtime/core -o %s/sim %s "
             "tests/support/rt_models/rt_fourbar/rt_fourbar.c runtime/core/*.c "
             "-lklu -lm 2>&1 && %s/sim",
             dir, path, dir);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    size_t got = fread(out, 1, sizeof out - 1, p);
    out[got] = '\0';
    int rc = pclose(p);
    snprintf(path, sizeof path, "%s/sim", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/main.c", dir);
    unlink(path);
    rmdir(dir);
    ck_assert_msg(rc == 0, "embedded build or run failed: %s", out);

    /* the same run in this process */
    rs_options o;
    rs_options_default(&o);
    o.contact = rs_wheel_rail_contact();
    o.proj_tol = 1e-10;
    rs_ws *ws;
    char err[200], expect[256];
    ck_assert_int_eq(rs_ws_create(rt_fourbar_model(), &o, &ws, err, sizeof err), RS_OK);
    double *q = rs_ws_q(ws);
    q[0] = 0.6;
    q[1] = 0.9;
    q[2] = 1.5;
    for (int i = 0; i < 200; i++)
        ck_assert_int_eq(rs_step(ws), RS_OK);
    double e[3], g[3];
    ck_assert_int_eq(sscanf(out, "%lg %lg %lg", &g[0], &g[1], &g[2]), 3);
    memcpy(e, q, sizeof e);
    snprintf(expect, sizeof expect, "%.17g %.17g %.17g", e[0], e[1], e[2]);
    for (int j = 0; j < 3; j++)
        ck_assert_msg(fabs(e[j] - g[j]) <= 1e-12, "embedded %s vs in-process %s", out, expect);
    rs_ws_free(&ws);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("rt_loaders");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_dlopen_o2);
    tcase_add_test(tc, test_dlopen_o3_native);
    tcase_add_test(tc, test_tcc);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_descriptor_state_units_hash);
    tcase_add_test(tc, test_embedded_build);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
