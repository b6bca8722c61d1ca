/*
 * api_main.c — the example of docs/api.md: a model folder run through the
 * railsym C API, its results printed as `railsym run` writes them (CSV:
 * time, then the scenario's columns, 17 digits).
 *
 *   cc -o api_main api_main.c $(pkg-config --cflags --libs railsym)
 *   ./api_main generated/pendulum vehicles/examples/pendulum.scn l=1.0 > pendulum.csv
 *
 * equals, number for number,
 *
 *   railsym run generated/pendulum --scenario S.scn --out pendulum.csv
 *
 * where S.scn is pendulum.scn with the line `param l = 1.0` added.
 *
 * Arguments: MODEL_DIR [SCENARIO [NAME=VALUE ...]]; each NAME=VALUE sets a
 * parameter, an input or an initial coordinate before the run starts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <railsym.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s MODEL_DIR [SCENARIO [NAME=VALUE ...]]\n", argv[0]);
        return 2;
    }
    /* the library this program runs with must be the one it was built for */
    if (railsym_api_version() / 1000 != RAILSYM_API_VERSION_MAJOR) {
        fprintf(stderr, "railsym API %d, this program needs %d.x\n", railsym_api_version(),
                RAILSYM_API_VERSION_MAJOR);
        return 1;
    }

    railsym_options opt;
    railsym_options_init(&opt);
    opt.scenario = argc > 2 ? argv[2] : NULL;
    char err[2048];
    railsym *sim;
    if (railsym_open(argv[1], &opt, &sim, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }

    /* NAME=VALUE: set by name, before the first step */
    for (int a = 3; a < argc; a++) {
        char name[256];
        const char *eq = strchr(argv[a], '=');
        if (!eq || (size_t)(eq - argv[a]) >= sizeof name) {
            fprintf(stderr, "'%s' is not NAME=VALUE\n", argv[a]);
            railsym_close(sim);
            return 2;
        }
        memcpy(name, argv[a], (size_t)(eq - argv[a]));
        name[eq - argv[a]] = '\0';
        if (railsym_set(sim, name, strtod(eq + 1, NULL))) {
            fprintf(stderr, "%s\n", railsym_error(sim));
            railsym_close(sim);
            return 1;
        }
    }

    /* the columns once by name, then read by index in the loop */
    const int ncol = railsym_column_count(sim);
    int *col = malloc(sizeof *col * (size_t)(ncol + 1));
    if (!col) {
        railsym_close(sim);
        return 1;
    }
    printf("time");
    for (int c = 0; c < ncol; c++) {
        col[c] = railsym_find(sim, railsym_column_name(sim, c));
        printf(",%s", railsym_column_name(sim, c));
    }
    printf("\n");

    /* `railsym run`'s rows: the start, every output interval, the end */
    const double dt = railsym_step_size(sim);
    const long n = (long)((railsym_end_time(sim) - railsym_time(sim)) / dt + 0.5);
    long every = (long)(railsym_output_interval(sim) / dt + 0.5);
    if (every < 1)
        every = 1;
    int status = 0;
    for (long i = 0; i <= n; i++) {
        if (i > 0 && railsym_step(sim) < 0) {
            fprintf(stderr, "%s\n", railsym_error(sim));
            status = 1;
            break;
        }
        if (i % every != 0 && i != n)
            continue;
        printf("%.17g", railsym_time(sim));
        for (int c = 0; c < ncol; c++) {
            double v;
            if (railsym_get_index(sim, col[c], &v)) {
                fprintf(stderr, "%s\n", railsym_error(sim));
                status = 1;
                break;
            }
            printf(",%.17g", v);
        }
        printf("\n");
    }
    free(col);
    railsym_close(sim);
    return status;
}
