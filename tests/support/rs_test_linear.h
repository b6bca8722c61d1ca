/*
 * rs_test_linear.h — the linear model of a compiled vehicle at speed V as
 * the tests of `railsym linear` open it (rs_linear_open, rs_linear_ws_at),
 * and the least-damped mode of a workspace's linearization.  For the
 * checks of eigenvalues against runs (test_linear, test_linear_constraint,
 * test_linear_elastic), of the linear critical speed (test_linear_z) and of
 * the linear system itself (test_linear_fd).
 * A header like rs_test_decay.h: a .c in tests/support is linked into
 * every C test program, and would pull the linear analysis into each.
 */
#ifndef RS_TEST_LINEAR_H
#define RS_TEST_LINEAR_H

#include <check.h>

#include "rs_linear.h"

/* Opens model_dir with the scenario lines set (NULL: none), the elastic
 * contact's linearization if elastic, into *o (quiet), and returns its
 * workspace at the linearized state at V.  The caller frees both
 * (rs_ws_free, rs_linear_close). */
static inline rs_ws *rs_test_linear_ws(rs_linear_opened *o, const char *model_dir, const char *set, int elastic,
                                       double V)
{
    char err[4000];
    rs_linear_config c;
    rs_linear_config_default(&c);
    c.model_dir = model_dir;
    c.set_text = set;
    c.elastic = elastic;
    c.quiet = 1;
    ck_assert_msg(rs_linear_open(&c, o, err, sizeof err) == 0, "%s", err);
    rs_ws *ws = NULL;
    ck_assert_msg(rs_linear_ws_at(o, V, &ws, err, sizeof err) == 0, "%s", err);
    return ws;
}

/* The least-damped mode of ws's linearization at its state: its damped
 * frequency [Hz] into *f, its damping ratio into *zeta; there must be one. */
static inline void rs_test_least_mode(rs_ws *ws, double *f, double *zeta)
{
    char err[4000];
    rs_linear_modes md;
    ck_assert_msg(rs_linear_modes_at(ws, &md, err, sizeof err) == 0, "%s", err);
    ck_assert_int_ge(md.least, 0);
    *f = md.mode[md.least].freq;
    *zeta = md.mode[md.least].zeta;
    rs_linear_modes_free(&md);
}

/* rs_test_linear_ws, then its least-damped mode at V into *f, *zeta. */
static inline rs_ws *rs_test_linear_least(rs_linear_opened *o, const char *model_dir, const char *set, int elastic,
                                          double V, double *f, double *zeta)
{
    rs_ws *ws = rs_test_linear_ws(o, model_dir, set, elastic, V);
    rs_test_least_mode(ws, f, zeta);
    return ws;
}

#endif /* RS_TEST_LINEAR_H */
