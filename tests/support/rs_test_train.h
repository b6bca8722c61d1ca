/*
 * rs_test_train.h — checks shared by the train tests (test_train_*.c).
 */
#ifndef RS_TEST_TRAIN_H
#define RS_TEST_TRAIN_H

#include <stdio.h>
#include <string.h>

#include <check.h>

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

#endif /* RS_TEST_TRAIN_H */
