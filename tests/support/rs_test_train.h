/*
 * rs_test_train.h — checks and builders shared by the train tests
 * (test_train_*.c).
 */
#ifndef RS_TEST_TRAIN_H
#define RS_TEST_TRAIN_H

#include <stdio.h>
#include <string.h>

#include <check.h>

#include "rs_park.h"
#include "rs_train.h"
#include "rs_train_contact.h"
#include "rs_train_file.h"

/* The train file `text` (named t.train) is refused with a message that
 * contains `expect`; the message is printed. */
static inline void rs_test_train_parse_bad(const char *text, const char *expect)
{
    rs_train_spec *s = NULL;
    char err[2048];
    ck_assert_int_eq(rs_train_spec_parse(text, "t.train", &s, err, sizeof err), RS_E_ARG);
    ck_assert_msg(strstr(err, expect) != NULL, "message '%s' lacks '%s'", err, expect);
    printf("train file: %s\n", err);
}

/* A one-vehicle train of a compiled model: what rs_test_one_vehicle
 * borrows until rs_train_create has copied it.  Zeros and NULLs: the
 * defaults. */
typedef struct rs_test_vehicle {
    const char *name;                      /* NULL: rs_train's "v0"            */
    int pitch;                             /* 1: ports x and pitch; 0: x alone,
                                              the vehicle 0 long               */
    const rs_train_wheel_contact_opts *contact;
    const double *p;                       /* parameters (NULL: the model's)   */
    const unsigned char *p_set;            /* which of p were given            */
    const double *q0, *qd0;                /* initial values ...               */
    const unsigned char *q_set, *qd_set;   /* ... of these coordinates         */
    double h;                              /* Park's step (0: its default)     */
    double tol;                            /* GMRES's tolerance (0: default)   */
} rs_test_vehicle;

/* Vehicle v of model m (ports "x" and "pitch") alone in a train on Park's
 * step with GMRES (at most 400 iterations), not started. */
static inline rs_train *rs_test_one_vehicle(const rs_model *m, const rs_test_vehicle *v)
{
    rs_wagon w;
    rs_wagon_default(&w);
    w.model = m;
    w.model_p = v->p;
    w.model_p_set = v->p_set;
    w.port_x = -1;
    w.port_pitch = -1;
    for (int i = 0; i < m->n_q; i++) {
        if (strcmp(m->q_names[i], "x") == 0)
            w.port_x = i;
        if (v->pitch && strcmp(m->q_names[i], "pitch") == 0)
            w.port_pitch = i;
    }
    ck_assert_msg(w.port_x >= 0 && (!v->pitch || w.port_pitch >= 0), "model '%s' lacks x or pitch", m->name);
    if (!v->pitch)
        w.l_front = w.l_rear = 0.0;
    w.r0 = 0.0;
    w.model_contact = v->contact;
    w.init_q = v->q0;
    w.init_q_set = v->q_set;
    w.init_qd = v->qd0;
    w.init_qd_set = v->qd_set;
    rs_park_opts o;
    rs_park_opts_default(&o);
    if (v->h > 0)
        o.h = v->h;
    o.krylov.method = RS_KRYLOV_GMRES;
    if (v->tol > 0)
        o.krylov.tol = v->tol;
    o.krylov.maxiter = 400;
    rs_train *tr = NULL;
    char err[1024];
    ck_assert_msg(rs_train_create(&tr, 1, &w, &v->name, NULL, NULL, &o, err, sizeof err) == RS_OK, "%s", err);
    return tr;
}

#endif /* RS_TEST_TRAIN_H */
