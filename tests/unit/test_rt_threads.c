/*
 * test_rt_threads.c — one shared model descriptor, two workspaces stepping
 * at once in two threads: each trajectory is bit-identical to the same run
 * done alone (no hidden shared state in the runtime or the model).
 */
#include <check.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "rt_fixtures.h"
#include "rs_test.h"

#define NSTEPS 3000

typedef struct job {
    const rs_model *model;
    rs_method method;
    double th1;          /* initial crank angle */
    double traj[NSTEPS][3];
    int status;
} job;

static void *run_job(void *arg)
{
    job *j = arg;
    rs_ws *ws = rt_ws_new(j->model, j->method, 1e-3, 1e-8);
    rt_fourbar_assemble(rs_ws_p(ws), j->th1, rs_ws_q(ws));
    rs_ws_qd(ws)[0] = 1.0;
    j->status = rs_ws_init(ws);
    for (int i = 0; i < NSTEPS && j->status == RS_OK; i++) {
        j->status = rs_step(ws);
        memcpy(j->traj[i], rs_ws_q(ws), sizeof j->traj[i]);
    }
    rs_ws_free(&ws);
    return NULL;
}

static void check_method(rs_method method)
{
    static job alone[2], together[2];
    for (int k = 0; k < 2; k++) {
        alone[k] = (job){rt_fourbar_model(), method, 0.5 + k, {{0}}, 0};
        together[k] = alone[k];
        run_job(&alone[k]);
        ck_assert_int_eq(alone[k].status, RS_OK);
    }
    pthread_t th[2];
    for (int k = 0; k < 2; k++)
        ck_assert_int_eq(pthread_create(&th[k], NULL, run_job, &together[k]), 0);
    for (int k = 0; k < 2; k++)
        ck_assert_int_eq(pthread_join(th[k], NULL), 0);
    for (int k = 0; k < 2; k++) {
        ck_assert_int_eq(together[k].status, RS_OK);
        ck_assert_msg(memcmp(alone[k].traj, together[k].traj, sizeof alone[k].traj) == 0,
                      "thread %d differs from the single-thread run", k);
    }
    /* and the two runs are really different simulations */
    ck_assert(memcmp(alone[0].traj, alone[1].traj, sizeof alone[0].traj) != 0);
}

START_TEST(test_two_threads_imex) { check_method(RS_IMEX_EULER); }
END_TEST

START_TEST(test_two_threads_rk4) { check_method(RS_RK4); }
END_TEST

int main(void)
{
    Suite *s = suite_create("rt_threads");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_two_threads_imex);
    tcase_add_test(tc, test_two_threads_rk4);
    suite_add_tcase(s, tc);
    return rs_test_run(s);
}
