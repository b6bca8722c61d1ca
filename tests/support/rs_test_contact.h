/*
 * rs_test_contact.h — the constraint contact's tangency conditions φ^d
 * evaluated from the generated function at a workspace's state, for the
 * runs that check the contact points stay on both surfaces
 * (test_rt_contact, test_rt_wheelset, test_rt_bogie).  It reads the
 * workspace's insides (rs_ws_impl.h).
 */
#ifndef RS_TEST_CONTACT_H
#define RS_TEST_CONTACT_H

#include <check.h>
#include <math.h>

#include "rs_ws_impl.h"

/* The largest |φ^d| (4 per contact) of ws at its time and state. */
static inline double rs_test_phi_d_max(rs_ws *ws)
{
    const rs_model *m = rs_ws_model(ws);
    double out[64];
    double *o[RS_FN_MAX_OUT] = {out};
    ck_assert_int_le(4 * m->n_contact, 64);
    rs_ws_bind(ws, rs_ws_time(ws), ws->q, ws->qd);
    ck_assert_int_eq(m->fn[RS_FN_PHI_D].fn(ws->in, o), 0);
    double r = 0;
    for (int k = 0; k < 4 * m->n_contact; k++)
        r = fmax(r, fabs(out[k]));
    return r;
}

#endif /* RS_TEST_CONTACT_H */
