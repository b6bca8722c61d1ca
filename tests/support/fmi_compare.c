/*
 * fmi_compare.c — see fmi_compare.h.
 */
#define _POSIX_C_SOURCE 200809L
#include "fmi_compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int fmi_run_argv(char *const argv[])
{
    fflush(stdout);
    const pid_t pid = fork();
    if (pid == 0) {
        execvp(argv[0], argv);
        _exit(127);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) < 0)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

const char *fmi_railsym(void)
{
    const char *b = getenv("RAILSYM_BIN");
    return b && *b ? b : "./build/railsym";
}

#if defined(__SANITIZE_ADDRESS__)
#define FMI_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FMI_SANITIZED 1
#endif
#endif

void fmi_sanitize_fmus(void)
{
#ifdef FMI_SANITIZED
    setenv("RAILSYM_FMU_CFLAGS", "-g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all",
           0);
#endif
}

int fmi_railsym_run(const char *model_dir, const char *scn, const char *out)
{
    char *argv[] = {(char *)fmi_railsym(), "run", (char *)model_dir, "--scenario", (char *)scn, "--out", (char *)out,
                    "--quiet", NULL};
    return fmi_run_argv(argv);
}

int fmi_csv_read(const char *path, fmi_csv *c, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    FILE *f = fopen(path, "r");
    char line[8192];
    if (!f || !fgets(line, sizeof line, f)) {
        snprintf(err, errlen, "cannot read %s", path);
        if (f)
            fclose(f);
        return -1;
    }
    line[strcspn(line, "\r\n")] = '\0';
    for (char *tok = strtok(line, ","); tok; tok = strtok(NULL, ",")) {
        if (c->ncol == FMI_CSV_MAXCOL) {
            snprintf(err, errlen, "%s: more than %d columns", path, FMI_CSV_MAXCOL);
            fclose(f);
            return -1;
        }
        snprintf(c->names[c->ncol++], 64, "%s", tok);
    }
    int cap = 0;
    while (fgets(line, sizeof line, f)) {
        if (c->nrow == cap) {
            cap = cap ? 2 * cap : 1024;
            double *v = realloc(c->v, (size_t)cap * (size_t)c->ncol * sizeof(double));
            if (!v) {
                fclose(f);
                snprintf(err, errlen, "out of memory");
                return -1;
            }
            c->v = v;
        }
        char *p = line;
        for (int k = 0; k < c->ncol; k++) {
            c->v[c->nrow * c->ncol + k] = strtod(p, &p);
            if (*p == ',')
                p++;
        }
        c->nrow++;
    }
    fclose(f);
    return 0;
}

int fmi_compare_rows(fmi_fmu *f, void *c, const fmi_csv *ref, int row_from, int row_to, double tol, double *worst,
                     char *err, size_t errlen)
{
    fmi2ValueReference vr[FMI_CSV_MAXCOL];
    double val[FMI_CSV_MAXCOL];
    *worst = 0;
    for (int k = 0; k < ref->ncol; k++) {
        const long r = fmi_vr(f, ref->names[k]);
        if (r < 0) {
            snprintf(err, errlen, "the FMU has no variable '%s'", ref->names[k]);
            return -1;
        }
        vr[k] = (fmi2ValueReference)r;
    }
    for (int i = row_from; i <= row_to; i++) {
        const double *want = &ref->v[i * ref->ncol];
        if (i > row_from) {
            const double *prev = &ref->v[(i - 1) * ref->ncol];
            if (f->do_step(c, prev[0], want[0] - prev[0], fmi2True) != fmi2OK) {
                snprintf(err, errlen, "fmi2DoStep at t = %g: %s", prev[0], f->last_log);
                return -1;
            }
        }
        if (f->get_real(c, vr, (size_t)ref->ncol, val) != fmi2OK) {
            snprintf(err, errlen, "fmi2GetReal at t = %g: %s", want[0], f->last_log);
            return -1;
        }
        for (int k = 0; k < ref->ncol; k++) {
            if (isnan(val[k]) && isnan(want[k]))
                continue;
            const double d = fabs(val[k] - want[k]) / fmax(1.0, fabs(want[k]));
            if (!(d <= tol)) {
                snprintf(err, errlen, "row %d (t = %g), column %s: FMU %.17g, railsym run %.17g", i, want[0],
                         ref->names[k], val[k], want[k]);
                return -1;
            }
            if (d > *worst)
                *worst = d;
        }
    }
    return 0;
}
