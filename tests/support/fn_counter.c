/* fn_counter.c — see fn_counter.h. */
#include "fn_counter.h"

long rs_fn_calls[RS_FN_COUNTER_MAX];
static rs_fn orig[RS_FN_COUNTER_MAX];

_Static_assert(RS_FN_COUNT <= RS_FN_COUNTER_MAX, "add wrappers to fn_counter.c");

#define WRAP(i)                                                     \
    static int wrap##i(const double *const *in, double *const *out) \
    {                                                               \
        rs_fn_calls[i]++;                                           \
        return orig[i](in, out);                                    \
    }
WRAP(0) WRAP(1) WRAP(2) WRAP(3) WRAP(4) WRAP(5) WRAP(6) WRAP(7)
WRAP(8) WRAP(9) WRAP(10) WRAP(11) WRAP(12) WRAP(13) WRAP(14) WRAP(15)
WRAP(16) WRAP(17) WRAP(18) WRAP(19) WRAP(20) WRAP(21) WRAP(22) WRAP(23)
WRAP(24) WRAP(25) WRAP(26) WRAP(27) WRAP(28) WRAP(29) WRAP(30) WRAP(31)
static const rs_fn wraps[RS_FN_COUNTER_MAX] = {
    wrap0,  wrap1,  wrap2,  wrap3,  wrap4,  wrap5,  wrap6,  wrap7,  wrap8,  wrap9,  wrap10,
    wrap11, wrap12, wrap13, wrap14, wrap15, wrap16, wrap17, wrap18, wrap19, wrap20, wrap21,
    wrap22, wrap23, wrap24, wrap25, wrap26, wrap27, wrap28, wrap29, wrap30, wrap31};

void rs_fn_counter_wrap(rs_model *counted)
{
    for (int i = 0; i < RS_FN_COUNT; i++)
        if ((orig[i] = counted->fn[i].fn))
            counted->fn[i].fn = wraps[i];
}
