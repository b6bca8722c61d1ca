/*
 * rs_climb.c — the sustained flange-climbing criterion (rs_climb.h).
 */
#include "rs_climb.h"

int rs_climb_update(const rs_climb_state *s, double yq, double limit, int exceed, int derail, double dt,
                    double t_min, rs_climb_state *next)
{
    const int was = s->climbing;
    const double above = exceed ? s->above + dt : 0;
    /* the count is a sum of step sizes: a relative tolerance so that
     * t_min / Δt steps reach t_min despite rounding */
    /* a derailment is a climb completed: reported (first) at the latest
     * with it, whatever Y/Q then */
    const int held = exceed && above >= t_min * (1 - 1e-9), climb = held || derail;
    next->above = above;
    next->climbing = climb || (was && yq >= 0.9 * limit);
    return !climb || was ? RS_CLIMB_NONE : held ? RS_CLIMB_HELD : RS_CLIMB_BY_DERAILMENT;
}
