/*
 * test_train_file.c — train files (rs_train_file): the shipped example
 * parses to the train it describes; each kind of mistake gives
 * "file:line: message" with the fix; the runner writes the CSV it
 * documents, identical byte for byte with 1 and 3 threads, with coupler
 * forces that match F × (mass behind)/M once a traction force is steady.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rs_train_contact.h"
#include "rs_train_file.h"
#include "rs_test.h"
#include "rt_fixtures.h"

static rs_train_spec *parse_ok(const char *text)
{
    rs_train_spec *s;
    char err[512];
    ck_assert_msg(rs_train_spec_parse(text, "t.train", &s, err, sizeof err) == RS_OK, "%s", err);
    return s;
}

static void parse_err(const char *text, const char *expect)
{
    rs_train_spec *s = (rs_train_spec *)1;
    char err[512] = "";
    ck_assert_int_eq(rs_train_spec_parse(text, "t.train", &s, err, sizeof err), RS_E_ARG);
    ck_assert_ptr_null(s);
    ck_assert_msg(strstr(err, expect) != NULL, "message '%s' lacks '%s'", err, expect);
}

/* The index of NAME in a model's name list (-1: absent, which fails the
 * caller's lookups loudly through ck_assert below). */
static int name_index(const char *const *names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    ck_abort_msg("no name '%s'", name);
    return -1;
}

START_TEST(test_example_file)
{
    rs_train_spec *s;
    char err[512];
    ck_assert_msg(rs_train_spec_read("vehicles/trains/freight.train", &s, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(s->nv, 41);
    ck_assert_str_eq(s->vname[0], "loco1");
    ck_assert_str_eq(s->vname[1], "wagon1");
    ck_assert_str_eq(s->vname[30], "wagon30");
    ck_assert_str_eq(s->vname[31], "empty1");
    ck_assert_str_eq(s->cname[0], "c1");
    ck_assert_str_eq(s->cname[39], "c40");
    ck_assert_double_eq(s->veh[31].m_body, 18000);
    ck_assert_double_eq(s->veh[31].m_bogie, 4500);   /* from the built-in wagon */
    ck_assert_int_eq(s->veh[0].traction_n, 2);
    ck_assert_double_eq(s->veh[0].traction_f[1], 3e5);
    ck_assert_double_eq(s->cpl[5].slack, 0.025);
    ck_assert_double_eq(s->cpl[5].k_buffer, 5e7);
    ck_assert_double_eq(s->step, 2e-3);
    ck_assert_double_eq(s->duration, 60);
    rs_train_spec_free(&s);
}
END_TEST

START_TEST(test_statements)
{
    rs_train_spec *s = parse_ok("duration = 2\nstep 5e-4\noutput 0\nspeed 12.5\nsolver bicgstab\ntolerance 1e-9\n"
                                "iterations 50\ncorrections 2\nrebalance 0\n"
                                "coupler stiff\n k 5e7\nend\n"
                                "vehicle w2 model loco   # a digit at the end\n m_body = 1e5\nend\n"
                                "order\n loco\n w2 2 coupler stiff\n wagon\nend\n");
    ck_assert_double_eq(s->duration, 2);
    ck_assert_double_eq(s->speed, 12.5);
    ck_assert_int_eq(s->solver, RS_KRYLOV_BICGSTAB);
    ck_assert_int_eq(s->corrections, 2);
    ck_assert_int_eq(s->rebalance, 0);
    ck_assert_int_eq(s->nv, 4);
    ck_assert_str_eq(s->vname[1], "w2_1");
    ck_assert_str_eq(s->vname[2], "w2_2");
    ck_assert_double_eq(s->veh[1].m_bogie, 15000);   /* loco's */
    ck_assert_double_eq(s->cpl[0].k, 2e7);           /* behind the loco: default */
    ck_assert_double_eq(s->cpl[1].k, 5e7);           /* behind each w2 */
    ck_assert_double_eq(s->cpl[2].k, 5e7);
    rs_park_opts o;
    rs_train_spec_opts(s, &o);
    ck_assert_double_eq(o.h, 5e-4);
    ck_assert_double_eq(o.krylov.tol, 1e-9);
    ck_assert_int_eq(o.krylov.restart, 30);
    rs_train_spec_free(&s);
    s = parse_ok("solver gmres\nrestart 12\norder\n loco\n wagon 2\nend\n");
    ck_assert_int_eq(s->solver, RS_KRYLOV_GMRES);
    ck_assert_int_eq(s->restart, 12);
    rs_train_spec_opts(s, &o);
    ck_assert_int_eq(o.krylov.method, RS_KRYLOV_GMRES);
    ck_assert_int_eq(o.krylov.restart, 12);
    rs_train_spec_free(&s);
    /* set: over the blocks and the settings, wherever it stands */
    s = parse_ok("speed 3\ncoupler stiff\n k 5e7\nend\nset stiff.k = 6e7\norder\n loco\n wagon 2 coupler stiff\nend\n"
                 "set wagon.m_body = 5e4\nset speed = 4\nset duration 7\n");
    ck_assert_double_eq(s->speed, 4);
    ck_assert_double_eq(s->duration, 7);
    ck_assert_double_eq(s->veh[1].m_body, 5e4);
    ck_assert_double_eq(s->veh[2].m_body, 5e4);
    ck_assert_double_eq(s->veh[0].m_body, 90000);   /* the loco keeps its own */
    ck_assert_double_eq(s->cpl[1].k, 6e7);
    rs_train_spec_free(&s);
}
END_TEST

START_TEST(test_errors)
{
    parse_err("duraton 5\norder\nwagon\nend\n", "t.train:1: unknown statement 'duraton' (did you mean 'duration'?)");
    parse_err("step 1e-3\nstep 2e-3\n", "t.train:2: 'step' is given twice (first at line 1): keep one");
    parse_err("set wagn.m_body = 1\n", "t.train:1: set: 'wagn' is no vehicle or coupler type defined before this line");
    parse_err("set durr = 1\n", "t.train:1: set: 'durr' is not a setting");
    parse_err("set speed\n", "t.train:1: write 'set TYPE.PARAM = VALUE'");
    parse_err("set wagon.m_body = -1\n", "t.train:1: vehicle 'wagon': m_body = -1 must be > 0");
    parse_err("step 1ms\n", "t.train:1: '1ms' is not a number: write e.g. 'step 1e-3'");
    parse_err("vehicle w\n m_bdy = 3\nend\n", "t.train:2: vehicle 'w': unknown parameter 'm_bdy' (did you mean "
                                              "'m_body'?)");
    parse_err("vehicle w\n m_bogie = -1\nend\n", "t.train:2: vehicle 'w': m_bogie = -1 must be > 0");
    parse_err("coupler c\n slack -0.1\nend\n", "t.train:2: coupler 'c': slack = -0.1 must be >= 0");
    parse_err("order\n wagn 3\nend\n", "t.train:2: unknown vehicle type 'wagn' (did you mean 'wagon'?)");
    parse_err("order\n wagon 3 coupler stif\nend\n", "t.train:2: unknown coupler type 'stif'");
    parse_err("order\n wagon 0\nend\n", "t.train:2: '0' is not a whole number in 1..100000");
    parse_err("vehicle w\n m_body = 3\n", "t.train:2: the vehicle block opened at line 1 has no 'end'");
    parse_err("vehicle l\n traction table\n 0 0\n 1 5\n 1 6\n end\nend\n",
              "t.train:5: vehicle 'l': traction table times must increase (1 after 1)");
    parse_err("duration 1\n", "t.train: no 'order' block: add one");
    parse_err("order\nend\n", "t.train:1: the order block lists no vehicles");
    parse_err("end\n", "t.train:1: 'end' without a block: remove it");
    parse_err("vehicle a\nend\nvehicle a\nend\n", "t.train:3: vehicle type 'a' is defined twice (first at line 1)");
    parse_err("couplers heavy\n", "t.train:1: unknown coupler type 'heavy': define it first");
    parse_err("step 1e-2\noutput 1e-3\norder\nwagon\nend\n", "t.train:2: 'output' (0.001 s) is shorter than the step");
    parse_err("solver minres\n", "t.train:1: unknown solver 'minres' (did you mean 'gmres'?): write 'solver auto', 'solver cg', 'solver bicgstab', 'solver gmres' or 'solver artificial'");
    parse_err("restart 0\n", "t.train:1: '0' is not a whole number in 1..64");
    parse_err("vehicle 3x\nend\n", "t.train:1: write 'vehicle NAME [model wagon|loco]'");
    rs_train_spec *s;
    char err[256];
    ck_assert_int_eq(rs_train_spec_read("no/such/file.train", &s, err, sizeof err), RS_E_IO);
    ck_assert_msg(strstr(err, "cannot read 'no/such/file.train'") != NULL, "%s", err);
    /* a folder, and a NUL byte after the first line: the whole file is read */
    ck_assert_int_eq(rs_train_spec_read("vehicles/trains", &s, err, sizeof err), RS_E_IO);
    ck_assert_str_eq(err, "cannot read 'vehicles/trains': it is a directory");
    /* a compiled model folder, a scenario, a .vdl where a train file is expected */
    ck_assert_int_eq(rs_train_spec_read("generated/pendulum", &s, err, sizeof err), RS_E_IO);
    ck_assert_str_eq(err, "cannot read 'generated/pendulum': it is a compiled model folder (it has model.json), not a file");
    ck_assert_int_eq(rs_train_spec_read("vehicles/examples/pendulum.scn", &s, err, sizeof err), RS_E_SYNTAX);
    ck_assert_str_eq(err, "vehicles/examples/pendulum.scn:7: the file looks like a scenario file (line 7 'method rk4'), "
                          "not a train file; give a train file here (.train: 'vehicle NAME' blocks, docs/trains.md)");
    ck_assert_int_eq(rs_train_spec_read("vehicles/examples/pendulum.vdl", &s, err, sizeof err), RS_E_SYNTAX);
    ck_assert_msg(strstr(err, "pendulum.vdl:9: the file looks like a vehicle description (.vdl) (line 9 'coord th = 0.3'), "
                              "not a train file") == err + strlen("vehicles/examples/"), "%s", err);
    char path[] = "/tmp/train_nul_XXXXXX";
    const int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "duration 1\nstep 0.\0001\n", 22), 22);
    close(fd);
    ck_assert_int_eq(rs_train_spec_read(path, &s, err, sizeof err), RS_E_SYNTAX);
    char want[128];
    snprintf(want, sizeof want, "%s:2: a NUL byte at column 8: the file is binary or corrupt", path);
    ck_assert_str_eq(err, want);
    unlink(path);
}
END_TEST

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    ck_assert_int_eq(fread(b, 1, (size_t)n, f), n);
    b[n] = '\0';
    fclose(f);
    return b;
}

START_TEST(test_run_csv)
{
    char dir[] = "/tmp/rs_train_fileXXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char train[256], out1[256], out3[256];
    snprintf(train, sizeof train, "%s/t.train", dir);
    snprintf(out1, sizeof out1, "%s/t1.csv", dir);
    snprintf(out3, sizeof out3, "%s/t3.csv", dir);
    FILE *f = fopen(train, "w");
    fputs("duration 30\nstep 2e-3\noutput 0.5\n"
          "vehicle loco\n traction 2e5\n r0 0\nend\n"
          "vehicle wagon\n r0 0\nend\n"
          "coupler soft\n c 4e5\nend\ncouplers soft\n"
          "order\n loco\n wagon 4\nend\n",
          f);
    fclose(f);
    rs_train_run_report r1, r3;
    char err[512];
    rs_train_run_cfg cfg = {train, out1, 1, NULL, NULL, 0, {0}, 0};
    ck_assert_msg(rs_train_run(&cfg, &r1, err, sizeof err) == RS_OK, "%s", err);
    cfg.out = out3;
    cfg.threads = 3;
    /* with progress lines from the first step (a log file: one line each) */
    cfg.progress = 1;
    FILE *logf = tmpfile();
    ck_assert_ptr_nonnull(logf);
    cfg.log = rt_log_to(logf);
    ck_assert_msg(rs_train_run(&cfg, &r3, err, sizeof err) == RS_OK, "%s", err);
    rewind(logf);
    char line[300];
    ck_assert_ptr_nonnull(fgets(line, sizeof line, logf));
    ck_assert_msg(strncmp(line, "railsym run: t = ", 17) == 0 && strstr(line, "s of 30 s (") &&
                      strstr(line, "real time, ETA"),
                  "%s", line);
    char last_line[300] = "";
    while (fgets(line, sizeof line, logf))
        snprintf(last_line, sizeof last_line, "%s", line);
    ck_assert_msg(strncmp(last_line, "railsym run: 15000 steps to t = 30 s in ", 40) == 0, "%s", last_line);
    fclose(logf);
    ck_assert_int_eq(r1.steps, 15000);
    ck_assert_int_eq(r1.rows, 61);
    ck_assert_int_eq(r1.nv, 5);
    ck_assert_double_eq_tol(r1.t_end, 30.0, 1e-9);
    char *a = slurp(out1), *b = slurp(out3);
    ck_assert_msg(strcmp(a, b) == 0, "the CSV of 3 threads differs from that of 1");
    /* header */
    const char *hdr = "time,loco1.x,loco1.v,wagon1.x,wagon1.v,wagon2.x,wagon2.v,wagon3.x,wagon3.v,wagon4.x,wagon4.v,"
                      "c1.force,c1.elongation,c2.force,c2.elongation,c3.force,c3.elongation,c4.force,c4.elongation\n";
    ck_assert_msg(strncmp(a, hdr, strlen(hdr)) == 0, "header: %.200s", a);
    /* the last row: coupler k carries F × (mass behind)/M */
    const char *last = a + strlen(a) - 1;
    while (last > a && last[-1] != '\n')
        last--;
    double v[19];
    const char *p = last;
    for (int i = 0; i < 19; i++) {
        char *end;
        v[i] = strtod(p, &end);
        p = end + 1;
    }
    ck_assert_double_eq_tol(v[0], 30.0, 1e-9);
    rs_wagon lo, wa;
    rs_loco_default(&lo);
    rs_wagon_default(&wa);
    const double mw = wa.m_body + 2 * wa.m_bogie, M = lo.m_body + 2 * lo.m_bogie + 4 * mw;
    for (int c = 0; c < 4; c++) {
        const double want = 2e5 * (4 - c) * mw / M;
        ck_assert_msg(fabs(v[11 + 2 * c] / want - 1) < 0.01, "c%d: %g N vs %g N", c + 1, v[11 + 2 * c], want);
    }
    printf("train file: 5 vehicles, 15000 steps, coupler c1 %.1f N (F m_behind/M = %.1f N), Krylov/step %.2f\n",
           v[11], 2e5 * 4 * mw / M, r1.krylov_per_step);
    free(a);
    free(b);
    /* an unwritable output and a bad train say so */
    cfg.out = "/nonexistent-dir/x.csv";
    ck_assert_int_eq(rs_train_run(&cfg, &r1, err, sizeof err), RS_E_IO);
    ck_assert_msg(strstr(err, "cannot write '/nonexistent-dir/x.csv'") != NULL, "%s", err);
    remove(out1);
    remove(out3);
    remove(train);
    rmdir(dir);
}
END_TEST

/* Runs a shell command; its output (stdout and stderr) into out; its exit
 * status. */
static int shell(const char *cmd, char *out, size_t outlen)
{
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    const size_t n = fread(out, 1, outlen - 1, p);
    out[n] = '\0';
    const int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* `railsym run TRAIN.train`: the command line over the same runner. */
static int run_cmd(const char *args, char *out, size_t outlen)
{
    const char *bin = getenv("RAILSYM_BIN");
    char cmd[2400];
    snprintf(cmd, sizeof cmd, "%s run %s 2>&1", bin && *bin ? bin : "build/railsym", args);
    return shell(cmd, out, outlen);
}

START_TEST(test_command_line)
{
    char dir[] = "/tmp/rs_train_cliXXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char train[256], bad[256], csv[256], args[1024], out[4096];
    snprintf(train, sizeof train, "%s/short.train", dir);
    snprintf(bad, sizeof bad, "%s/bad.train", dir);
    snprintf(csv, sizeof csv, "%s/out/short.csv", dir);
    FILE *f = fopen(train, "w");
    fputs("duration 0.5\nstep 1e-3\noutput 0.1\nspeed 3\norder\n loco\n wagon 5\nend\n", f);
    fclose(f);
    f = fopen(bad, "w");
    fputs("duration 1\norder\n wagom 5\nend\n", f);
    fclose(f);
    snprintf(args, sizeof args, "%s --threads 2 --out %s", train, csv);
    ck_assert_msg(run_cmd(args, out, sizeof out) == 0, "%s", out);
    ck_assert_msg(strstr(out, "6 vehicles (30 coordinates), 500 steps") != NULL, "%s", out);
    char *text = slurp(csv);
    ck_assert(strncmp(text, "time,loco1.x,loco1.v,wagon1.x", 29) == 0);
    int rows = 0;
    for (const char *p = text; *p; p++)
        rows += *p == '\n';
    ck_assert_int_eq(rows, 1 + 6);   /* header, t = 0, 0.1, ..., 0.5 */
    free(text);
    snprintf(args, sizeof args, "%s --out %s", bad, csv);
    ck_assert_int_eq(run_cmd(args, out, sizeof out), 1);
    ck_assert_msg(strstr(out, "bad.train:3: unknown vehicle type 'wagom' (did you mean 'wagon'?)") != NULL, "%s",
                  out);
    snprintf(args, sizeof args, "%s --scenario x.scn", train);
    ck_assert_int_eq(run_cmd(args, out, sizeof out), 2);
    ck_assert_msg(strstr(out, "--scenario does not apply to a train") != NULL, "%s", out);
    snprintf(args, sizeof args, "%s --loader gcc", train);
    ck_assert_int_eq(run_cmd(args, out, sizeof out), 2);
    ck_assert_msg(strstr(out, "--loader must be tcc or dlopen") != NULL, "%s", out);
    /* compiled vehicles, run from another folder (the loader finds the
     * runtime's headers next to railsym), built by cc with --loader dlopen */
    char cwd[1024], cmd[2048], compiled[300];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    snprintf(compiled, sizeof compiled, "%s/compiled.train", dir);
    f = fopen(compiled, "w");
    fprintf(f, "duration 0.05\nstep 1e-3\noutput 0.05\nvehicle fw model %s/generated/freight_wagon\nend\n"
               "order\n loco\n fw 2\nend\n", cwd);
    fclose(f);
    const char *bin = getenv("RAILSYM_BIN");
    if (!bin || !*bin)
        bin = "build/railsym";
    char absbin[1200];
    snprintf(absbin, sizeof absbin, "%s%s%s", *bin == '/' ? "" : cwd, *bin == '/' ? "" : "/", bin);
    for (int k = 0; k < 2; k++) {
        snprintf(cmd, sizeof cmd, "cd %s && %s run compiled.train --loader %s --out c.csv 2>&1", dir, absbin,
                 k ? "dlopen" : "tcc");
        ck_assert_msg(shell(cmd, out, sizeof out) == 0, "%s: %s", cmd, out);
        ck_assert_msg(strstr(out, "3 vehicles (27 coordinates), 50 steps") != NULL, "%s", out);
    }
    snprintf(args, sizeof args, "%s/c.csv", dir);
    remove(args);
    remove(compiled);
    remove(csv);
    snprintf(args, sizeof args, "%s/out", dir);
    rmdir(args);
    remove(train);
    remove(bad);
    rmdir(dir);
}
END_TEST

START_TEST(test_compiled_vehicles)
{
    /* the example file: a built-in loco and 20 compiled wagons */
    rs_train_spec *s;
    char err[2048];
    ck_assert_msg(rs_train_spec_read("vehicles/trains/compiled.train", &s, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(s->nv, 21);
    ck_assert_int_eq(s->nmodels, 1);
    ck_assert_ptr_null(s->veh[0].model);
    ck_assert_ptr_nonnull(s->veh[1].model);
    ck_assert_str_eq(s->veh[1].model->name, "freight_wagon");
    ck_assert_str_eq(s->vname[20], "fw20");
    ck_assert_int_eq(s->solver, RS_KRYLOV_GMRES);
    ck_assert_double_eq(s->veh[1].l_front, 7.0);
    ck_assert_double_eq(s->veh[1].h_coupler, -0.9);
    rs_train_spec_free(&s);

    /* a short train from text: model parameters by name, ports, train-side
     * parameters; pulled from rest, coupler forces F m_behind/M */
    s = parse_ok("step 1e-3\n"
                 "vehicle fw model generated/freight_wagon\n m_c = 50000\n train.r0 = 0\n traction = 120000\nend\n"
                 "vehicle fw2 model generated/freight_wagon\n pitch_coord none\n train.r0 = 0\nend\n"
                 "order\n fw\n fw2 3\nend\n");
    ck_assert_int_eq(s->nv, 4);
    /* 'train.r0' set the rolling resistance, not the model's wheel radius r0 */
    ck_assert_double_eq(s->veh[0].r0, 0);
    ck_assert_double_eq(s->veh[0].model_p[name_index(s->veh[0].model->p_names, s->veh[0].model->n_p, "r0")], 0.46);
    ck_assert_int_eq(s->nmodels, 2);
    ck_assert_int_eq(s->veh[1].port_pitch, -1);
    ck_assert_int_ge(s->veh[0].port_pitch, 0);
    rs_park_opts o;
    rs_train_spec_opts(s, &o);
    const char *vn[4] = {s->vname[0], s->vname[1], s->vname[2], s->vname[3]};
    rs_train *tr;
    ck_assert_msg(rs_train_create(&tr, s->nv, s->veh, vn, s->cpl, NULL, &o, err, sizeof err) == RS_OK, "%s", err);
    const double M = rs_train_mass(tr), m1 = rs_train_vehicle_mx(tr, 0), F = 120000;
    ck_assert_double_eq_tol(m1, 50000 + 2 * (2600 + 2 * 1300), 1e-6);   /* m_c took; the rest from the .vdl */
    ck_assert_int_eq(rs_train_start(tr, 0, 0, 0), RS_OK);
    double fmean = 0;
    for (int k = 0; k < 20000; k++) {
        ck_assert_msg(rs_train_step(tr) == RS_OK, "%s", rs_park_error(rs_train_park(tr)));
        if (k >= 10000)
            fmean += rs_train_coupler(tr, 0, NULL) / 10000;
    }
    const double want = F * (M - m1) / M;
    printf("train file: compiled wagons: coupler c1 mean %.1f N (F m_behind/M = %.1f N)\n", fmean, want);
    ck_assert(fabs(fmean - want) < 0.01 * want);
    rs_train_free(&tr);
    rs_train_spec_free(&s);

    /* a name that is both the model's and the train side's takes a prefix;
     * 'model.r0' is the model's wheel radius, 'train.g' the train's gravity */
    s = parse_ok("vehicle fw model generated/freight_wagon\n model.r0 = 0.5\n train.g = 9.8\n model.g = 9.7\nend\n"
                 "order\n fw\nend\n");
    ck_assert_double_eq(s->veh[0].model_p[name_index(s->veh[0].model->p_names, s->veh[0].model->n_p, "r0")], 0.5);
    ck_assert_double_eq(s->veh[0].model_p[name_index(s->veh[0].model->p_names, s->veh[0].model->n_p, "g")], 9.7);
    ck_assert_double_eq(s->veh[0].g, 9.8);
    ck_assert_double_eq(s->veh[0].r0, 0.0015);
    rs_train_spec_free(&s);
    parse_err("vehicle fw model generated/freight_wagon\n r0 = 0\nend\n",
              "t.train:2: vehicle 'fw': 'r0' names both a parameter of model 'freight_wagon' and the train side's "
              "'r0' (the rolling resistance's constant part): write 'model.r0 = VALUE' for the model's or "
              "'train.r0 = VALUE' for the train's");
    parse_err("vehicle fw model generated/freight_wagon\n train.m_c = 1\nend\n",
              "they are: l_front, l_rear, h_coupler, r0, r1, v_s, g, traction");
    parse_err("vehicle fw model generated/freight_wagon\n model.l_front = 1\nend\n",
              "t.train:2: vehicle 'fw': 'l_front' is not a parameter or coordinate of model 'freight_wagon'");

    /* errors */
    parse_err("vehicle fw model no/such/folder\nend\n", "t.train:1: vehicle 'fw': cannot load the compiled model");
    parse_err("vehicle fw model generated/freight_wagon\n m_cc = 1\nend\n",
              "t.train:2: vehicle 'fw': 'm_cc' is not a parameter or coordinate of model 'freight_wagon' (did you "
              "mean 'm_c'?)");
    parse_err("vehicle fw model generated/freight_wagon\n m_body = 1\nend\n",
              "'m_body' is not a parameter or coordinate of model 'freight_wagon'");
    parse_err("vehicle fw model generated/freight_wagon\n x_coord xx\nend\n",
              "t.train:2: vehicle 'fw': model 'freight_wagon' has no coordinate 'xx'; coordinates: x, z, pitch");
    parse_err("vehicle fw model generated/pendulum\nend\n",
              "t.train:2: vehicle 'fw': model 'pendulum' has no coordinate 'x': name its longitudinal one with "
              "'x_coord NAME'");
    parse_err("vehicle fw model generated/four_bar\nend\n", "model 'four_bar' has constraints");
    parse_err("vehicle wagon model generated/freight_wagon\nend\n", "'wagon' is a built-in type");
    /* 'model wagon' beside a compiled folder named wagon: ambiguous, refused; './wagon' is the folder */
    char dir[] = "/tmp/rs_train_shadowXXXXXX", path[256];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/wagon", dir);
    ck_assert_int_eq(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/wagon/model.json", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    snprintf(path, sizeof path, "%s/t.train", dir);
    rs_train_spec *sh = (rs_train_spec *)1;
    char msg[512] = "";
    ck_assert_int_eq(rs_train_spec_parse("vehicle w model wagon\nend\n", path, &sh, msg, sizeof msg), RS_E_ARG);
    ck_assert_ptr_null(sh);
    ck_assert_msg(strstr(msg, "t.train:1: 'model wagon' names the built-in wagon, but 'wagon' beside the train file is "
                              "a compiled model folder: write 'model ./wagon' for the folder") != NULL,
                  "%s", msg);
    /* without the folder, the built-in as before */
    snprintf(path, sizeof path, "rm -rf %s", dir);
    ck_assert_int_eq(system(path), 0);
    sh = parse_ok("vehicle w model wagon\nend\norder\nw\nend\n");
    rs_train_spec_free(&sh);
}
END_TEST

/* Vehicles with wheel-rail contacts: the shipped bogies.train, initial
 * values by coordinate name, the contact statements, their errors, and a
 * short run's CSV with contact columns, the same for 1 and 2 threads. */
START_TEST(test_contact_vehicles)
{
    rs_train_spec *s;
    char err[4096];
    ck_assert_msg(rs_train_spec_read("vehicles/trains/bogies.train", &s, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(s->nv, 11);
    ck_assert_str_eq(s->vname[1], "lead1");
    ck_assert_str_eq(s->veh[1].model->name, "bogie");
    ck_assert_int_eq(s->veh[1].port_pitch, -1);
    ck_assert(s->contact_out[1] && !s->contact_out[2]);
    const rs_model *m = s->veh[1].model;
    int iy = -1;
    for (int i = 0; i < m->n_q; i++)
        if (strcmp(m->q_names[i], "front.y") == 0)
            iy = i;
    ck_assert(iy >= 0 && s->veh[1].init_q_set[iy] && s->veh[1].init_q[iy] == 0.003);
    ck_assert(!s->veh[2].init_q_set[iy]);
    ck_assert_ptr_nonnull(s->veh[1].model_contact);
    ck_assert_str_eq(s->veh[1].model_contact->dir, "vehicles/trains/../..");
    ck_assert_double_eq(s->veh[2].model_contact->c_damp, 1e5);
    rs_train_spec_free(&s);

    s = parse_ok("vehicle b model generated/bogie\n front.y = 0.001\n front.spin_dot = 3\n contact_mu = 0.3\n"
                 " contact_damping = 2e4\n track vehicles/tracks/long_straight.trk\nend\norder\n b 2\nend\n");
    ck_assert_double_eq(s->veh[0].model_contact->mu, 0.3);
    ck_assert_double_eq(s->veh[0].model_contact->c_damp, 2e4);
    ck_assert_str_eq(s->veh[0].model_contact->track, "vehicles/tracks/long_straight.trk");
    ck_assert_double_eq(s->veh[1].init_qd[11], 3.0);   /* front.spin: coordinate 11 */
    rs_train_spec_free(&s);

    /* friction and material per contact: globs over the contact names,
     * NaN (the common value) elsewhere; the common values apart */
    s = parse_ok("vehicle b model generated/bogie\n contact_mu front.* = 0.2\n contact_E *.left = 1.05e11\n"
                 " contact_nu rear.right = 0\n contact_mu = 0.35\n contact_E = 2e11\n contact_nu = 0.3\nend\n"
                 "order\n b\nend\n");
    {
        const rs_train_wheel_contact_opts *co = s->veh[0].model_contact;
        const double mu[4] = {0.2, 0.2, NAN, NAN}, E[4] = {1.05e11, NAN, 1.05e11, NAN}, nu[4] = {NAN, NAN, NAN, 0};
        for (int i = 0; i < 4; i++) {   /* front.left, front.right, rear.left, rear.right */
            ck_assert(isnan(mu[i]) ? isnan(co->mu_each[i]) : co->mu_each[i] == mu[i]);
            ck_assert(isnan(E[i]) ? isnan(co->E_each[i]) : co->E_each[i] == E[i]);
            ck_assert(isnan(nu[i]) ? isnan(co->nu_each[i]) : co->nu_each[i] == nu[i]);
        }
        ck_assert(co->mu == 0.35 && co->E == 2e11 && co->nu == 0.3);
    }
    rs_train_spec_free(&s);
    parse_err("vehicle b model generated/bogie\n contact_E front.lft = 2e11\nend\n",
              "t.train:2: vehicle 'b': model 'bogie' has no contact 'front.lft' (did you mean 'front.left'?); its "
              "contacts: front.left, front.right, rear.left, rear.right");
    parse_err("vehicle b model generated/bogie\n contact_nu = 0.5\nend\n",
              "t.train:2: vehicle 'b': contact_nu = 0.5: the Poisson ratio must be in [0, 0.5) (steel: 0.28)");
    parse_err("vehicle b model generated/bogie\n contact_E * = 0\nend\n",
              "t.train:2: vehicle 'b': contact_E = 0: Young's modulus must be > 0 Pa (steel: 2.1e11)");
    parse_err("vehicle b model generated/bogie\n contact_damping front.left = 1\nend\n",
              "t.train:2: vehicle 'b': write 'contact_damping = VALUE' (one value)");

    parse_err("vehicle b model generated/bogie\n front.yy = 1\nend\n",
              "t.train:2: vehicle 'b': 'front.yy' is not a parameter or coordinate of model 'bogie' (did you mean "
              "'front.y'?)");
    parse_err("vehicle b model generated/bogie\n front.yy = 1\nend\n",
              "coordinates (initial values NAME = VALUE, NAME_dot = VALUE): x, y, z");
    parse_err("vehicle b model generated/bogie\n front.y_dott = 1\nend\n", "'front.y_dott' is not a parameter");
    parse_err("vehicle b model generated/bogie\n front.y 1 2\nend\n",
              "t.train:2: vehicle 'b': write 'front.y = VALUE' (its initial value)");
    parse_err("vehicle b model generated/bogie\n contact_mu = -1\nend\n",
              "t.train:2: vehicle 'b': contact_mu = -1: friction must be a coefficient from 0 to 10");
    parse_err("vehicle b model generated/bogie\n track\nend\n",
              "t.train:2: vehicle 'b': write 'track FILE' (relative to the train file)");
    parse_err("vehicle fw model generated/freight_wagon\n contact_outputs\nend\n",
              "t.train:2: vehicle 'fw': its model has no wheel-rail contact: no contact outputs");
    parse_err("vehicle fw model generated/freight_wagon\n contact_mu = 0.3\nend\n",
              "its model has no wheel-rail contact: 'contact_mu' does not apply");

    /* a run: CSV columns for the contact forces, the same bytes on 1 and 2 threads */
    char dir[] = "/tmp/rs_train_contactXXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char train[256], out1[256], out2[256];
    snprintf(train, sizeof train, "%s/t.train", dir);
    snprintf(out1, sizeof out1, "%s/t1.csv", dir);
    snprintf(out2, sizeof out2, "%s/t2.csv", dir);
    char cwd[1024];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    FILE *f = fopen(train, "w");
    fprintf(f,
            "duration 0.1\nstep 1e-3\noutput 0.05\nspeed 5\nsolver gmres\n"
            "vehicle b model %s/generated/bogie\n contact_files %s\n track %s/vehicles/tracks/long_straight.trk\n"
            " pitch_coord none\n l_front = 2\n l_rear = 2\n front.y = 0.002\n contact_outputs\n traction = 1e4\nend\n"
            "order\n b 3\nend\n",
            cwd, cwd, cwd);
    fclose(f);
    rs_train_run_report r1, r2;
    rs_train_run_cfg cfg = {train, out1, 1, NULL, NULL, 0, {0}, 0};
    ck_assert_msg(rs_train_run(&cfg, &r1, err, sizeof err) == RS_OK, "%s", err);
    cfg.out = out2;
    cfg.threads = 2;
    ck_assert_msg(rs_train_run(&cfg, &r2, err, sizeof err) == RS_OK, "%s", err);
    char *a = slurp(out1), *b = slurp(out2);
    ck_assert_msg(strcmp(a, b) == 0, "the CSV of 2 threads differs from that of 1");
    ck_assert_int_eq(r1.rows, 3);
    ck_assert_msg(strstr(a, ",c2.force,c2.elongation,b1.front.left.N,b1.front.left.fx,b1.front.left.fy,") &&
                      strstr(a, ",b3.rear.right.N,b3.rear.right.fx,b3.rear.right.fy\n"),
                  "header: %.600s", a);
    free(a);
    free(b);
    remove(out1);
    remove(out2);
    /* a model file that is not there: the start says which vehicle and file */
    f = fopen(train, "w");
    fprintf(f, "vehicle b model %s/generated/bogie\n contact_files /nonexistent\nend\norder\n b\nend\n", cwd);
    fclose(f);
    cfg.out = out1;
    ck_assert_int_ne(rs_train_run(&cfg, &r1, err, sizeof err), RS_OK);
    ck_assert_msg(strstr(err, "vehicle 'b1'") && strstr(err, "/nonexistent"), "%s", err);
    printf("train file: contact vehicles: %s\n", err);
    remove(out1);
    remove(train);
    rmdir(dir);
}
END_TEST

/* Compiled vehicle models come from a load cache: a folder named by two
 * vehicle types, twice over, or through another path is loaded once; specs
 * read with the cache share its descriptor and leave it loaded when freed
 * (a sweep's variants); a spec read without one owns its own.  The cache
 * is safe to fill from two threads at once.  Its loader is the user's:
 * dlopen (cc -O3) and libtcc runs of the same train agree to 1e-9. */
static void *get_wagon(void *cache)
{
    char err[2048];
    const rs_model *m = rs_load_cache_get(cache, "generated/freight_wagon", err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    return (void *)m;
}

/* The largest difference between two CSVs of the same shape, each column
 * scaled by its largest magnitude in `a`. */
static double csv_max_rel_diff(const char *a, const char *b)
{
    enum { MAXCOL = 64 };
    double scale[MAXCOL] = {0}, worst = 0;
    a = strchr(a, '\n') + 1;
    b = strchr(b, '\n') + 1;
    for (int pass = 0; pass < 2; pass++) {
        const char *p = a, *q = b;
        for (int col = 0; *p && *q; col = (col + 1) % MAXCOL) {
            char *ep, *eq;
            const double x = strtod(p, &ep), y = strtod(q, &eq);
            ck_assert_msg(ep != p && eq != q, "not a number at '%.40s' / '%.40s'", p, q);
            if (pass == 0)
                scale[col] = fmax(scale[col], fabs(x));
            else if (scale[col] > 0)
                worst = fmax(worst, fabs(x - y) / scale[col]);
            if (*ep == '\n')
                col = -1;
            p = *ep ? ep + 1 : ep;
            q = *eq ? eq + 1 : eq;
        }
        ck_assert_msg(!*p && !*q, "the two CSVs have different lengths");
    }
    return worst;
}

START_TEST(test_model_cache)
{
    static const char text[] = "duration 0.2\nstep 1e-3\noutput 0.1\n"
                               "vehicle fw model generated/freight_wagon\n traction = 1e5\nend\n"
                               "vehicle fw2 model generated/../generated/freight_wagon\n m_c = 60000\nend\n"
                               "order\n fw\n fw2 2\nend\n";
    char err[2048];
    rs_load_cache *cache = rs_load_cache_create(RS_LOAD_TCC, NULL);
    ck_assert_ptr_nonnull(cache);
    rs_train_spec *a, *b, *own;
    ck_assert_msg(rs_train_spec_parse_cached(text, "t.train", cache, &a, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_msg(rs_train_spec_parse_cached(text, "t.train", cache, &b, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(rs_load_cache_loads(cache), 1);
    ck_assert_int_eq(a->nmodels, 2);   /* two types, their own parameters */
    ck_assert_ptr_eq(a->veh[0].model, a->veh[1].model);
    ck_assert_ptr_eq(a->veh[0].model, b->veh[2].model);
    ck_assert_ptr_ne(a->veh[0].model_p, b->veh[0].model_p);
    ck_assert_ptr_null(a->own_cache);
    const rs_model *m = a->veh[0].model;
    rs_train_spec_free(&a);
    rs_train_spec_free(&b);
    ck_assert_str_eq(m->name, "freight_wagon");   /* still loaded: the cache holds it */
    own = parse_ok(text);
    ck_assert_ptr_nonnull(own->own_cache);
    ck_assert_int_eq(rs_load_cache_loads(own->own_cache), 1);
    ck_assert_ptr_ne(own->veh[0].model, m);
    rs_train_spec_free(&own);
    /* a folder that is not there: the loader's message, the cache unchanged */
    ck_assert_ptr_null(rs_load_cache_get(cache, "generated/no_such_model", err, sizeof err));
    ck_assert_msg(strstr(err, "no_such_model") != NULL, "%s", err);
    ck_assert_int_eq(rs_load_cache_loads(cache), 1);
    rs_load_cache_free(&cache);
    ck_assert_ptr_null(cache);

    /* two threads asking for a new folder at once load it once */
    cache = rs_load_cache_create(RS_LOAD_TCC, NULL);
    pthread_t t1, t2;
    void *m1, *m2;
    ck_assert_int_eq(pthread_create(&t1, NULL, get_wagon, cache), 0);
    ck_assert_int_eq(pthread_create(&t2, NULL, get_wagon, cache), 0);
    pthread_join(t1, &m1);
    pthread_join(t2, &m2);
    ck_assert_ptr_eq(m1, m2);
    ck_assert_int_eq(rs_load_cache_loads(cache), 1);
    ck_assert_int_eq(rs_load_cache_kind(cache), RS_LOAD_TCC);

    /* the same train run with libtcc's code and with cc -O3's */
    char dir[] = "/tmp/rs_train_cacheXXXXXX", train[600], out_tcc[600], out_cc[600];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(train, sizeof train, "%s/t.train", dir);
    snprintf(out_tcc, sizeof out_tcc, "%s/tcc.csv", dir);
    snprintf(out_cc, sizeof out_cc, "%s/cc.csv", dir);
    char cwd[1024];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    FILE *f = fopen(train, "w");
    fprintf(f, "duration 0.3\nstep 1e-3\noutput 0.05\nsolver gmres\ntolerance 1e-12\n"
               "vehicle fw model %s/generated/freight_wagon\n traction = 1e5\n train.r0 = 0\nend\n"
               "vehicle fw2 model %s/generated/freight_wagon\n train.r0 = 0\nend\norder\n fw\n fw2 2\nend\n",
            cwd, cwd);
    fclose(f);
    rs_train_run_report r;
    rs_train_run_cfg cfg = {train, out_tcc, 1, NULL, cache, 0, {0}, 0};
    ck_assert_msg(rs_train_run(&cfg, &r, err, sizeof err) == RS_OK, "%s", err);
    rs_load_options lo;
    rs_load_options_default(&lo);
    lo.cflags = RS_CFLAGS_O3_NATIVE;
    rs_load_cache *cc = rs_load_cache_create(RS_LOAD_DLOPEN, &lo);
    ck_assert_ptr_nonnull(cc);
    ck_assert_int_eq(rs_load_cache_kind(cc), RS_LOAD_DLOPEN);
    cfg.out = out_cc;
    cfg.models = cc;
    ck_assert_msg(rs_train_run(&cfg, &r, err, sizeof err) == RS_OK, "%s", err);
    ck_assert_int_eq(rs_load_cache_loads(cc), 1);
    char *x = slurp(out_tcc), *y = slurp(out_cc);
    const double d = csv_max_rel_diff(x, y);
    printf("train file: libtcc and cc -O3 runs of 3 compiled wagons differ by %.3g (of each column's largest value)\n", d);
    ck_assert_msg(d < 1e-9, "libtcc and cc -O3 runs differ by %g", d);
    free(x);
    free(y);
    rs_load_cache_free(&cc);
    rs_load_cache_free(&cache);
    remove(train);
    remove(out_tcc);
    remove(out_cc);
    rmdir(dir);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("train_file");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_example_file);
    tcase_add_test(tc, test_statements);
    tcase_add_test(tc, test_compiled_vehicles);
    tcase_add_test(tc, test_model_cache);
    tcase_add_test(tc, test_contact_vehicles);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_run_csv);
    tcase_add_test(tc, test_command_line);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
