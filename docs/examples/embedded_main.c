/*
 * embedded_main.c — the embedded example of docs/abi.md: a model compiled by
 * `railsym compile` (here generated/four_bar/) run by the runtime's core,
 * built with a plain C compiler, no loader, no file read:
 *
 *   cc -std=c99 -I abi -c generated/four_bar/four_bar.c generated/four_bar/four_bar_model.c
 *   cc -std=c99 -I abi -I runtime/core -c runtime/core/rs_[a-z_]*.c docs/examples/embedded_main.c
 *   cc -o sim four_bar.o four_bar_model.o rs_[a-z_]*.o embedded_main.o -lklu -lm
 *   ./sim 0        (IMEX Euler; 1: RK4)
 *
 * It starts from the four-bar of vehicles/examples/four_bar.scn (crank
 * pushed), takes 300 steps of 1 ms and prints a line about the model,
 * then t, q, q̇ and λ with 17 digits.  tests/e2e/test_embedded_build.c builds and runs this very file
 * (also with -DUSE_LOAD_STATIC, through rs_load_static) and compares its
 * output with the same run loaded in process by libtcc, so it cannot rot.
 */
#include <stdio.h>
#include <stdlib.h>

#include "rs_ws.h"
#ifdef USE_LOAD_STATIC
#include "rs_load.h"
#endif

/* The model's descriptor function, in generated/four_bar/four_bar_model.c. */
const rs_model *four_bar_model(void);

int main(int argc, char **argv)
{
    char err[256];
#ifdef USE_LOAD_STATIC
    rs_loaded *h = rs_load_static(four_bar_model, err, sizeof err);
    if (!h) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    const rs_model *m = rs_loaded_model(h);
#else
    const rs_model *m = four_bar_model();
#endif

    /* The descriptor says what the model is: sizes, names, units, the
     * initial state the .vdl gives, and the hash of its model.json. */
    printf("model %s: %d coordinates (%s [%s], ...), %d constraints, model.json %016llx\n",
            m->name, m->n_q, m->q_names[0], m->q_units ? m->q_units[0] : "", m->n_phi, m->content_hash);

    rs_options o;
    rs_options_default(&o);
    o.method = argc > 1 && atoi(argv[1]) ? RS_RK4 : RS_IMEX_EULER;
    o.proj_tol = 1e-10;
    rs_ws *ws;
    if (rs_ws_create(m, &o, &ws, err, sizeof err) != RS_OK) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    /* Start from the initial state the description gives (the descriptor's
     * q0, q̇0), then set the scenario's values by name (a consistent state:
     * the loop closes). */
    for (int i = 0; i < m->n_q; i++) {
        rs_ws_q(ws)[i] = m->q0 ? m->q0[i] : 0.0;
        rs_ws_qd(ws)[i] = m->qd0 ? m->qd0[i] : 0.0;
    }
    if (rs_ws_set_q(ws, "th1", 1.0) || rs_ws_set_q(ws, "th2", -0.43041149015824987) ||
        rs_ws_set_q(ws, "th3", -2.109978196204275) || rs_ws_set_qd(ws, "th1_dot", 2.0))
        return 1;
    for (int i = 0; i < 300; i++)
        if (rs_step(ws) != RS_OK) {
            fprintf(stderr, "%s\n", rs_ws_error(ws));
            return 1;
        }
    const double *q = rs_ws_q(ws), *qd = rs_ws_qd(ws), *l = rs_ws_lambda(ws);
    printf("%.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", rs_ws_time(ws), q[0], q[1], q[2],
           qd[0], qd[1], qd[2], l[0], l[1]);
    rs_ws_free(&ws);
#ifdef USE_LOAD_STATIC
    rs_unload(&h);
#endif
    return 0;
}
