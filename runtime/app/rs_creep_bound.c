/*
 * rs_creep_bound.c — the unbounded-creep check of a run.  See
 * rs_creep_bound.h.
 */
#include "rs_creep_bound.h"

#include <stdio.h>

#include "rs_elastic.h"

int rs_creep_unbounded(const rs_model *m, const rs_options *opt, char *msg, size_t len)
{
    /* the constraint contact has the same linear law; the scenarios that
     * run it are the seed's single-point checks on tread contact, where the
     * linear law is the reference, so only the elastic contact is checked */
    if (!m || !opt || opt->contact != rs_elastic_contact() || !opt->contact_creep || opt->contact_law != 0)
        return 0;
    int n = 0, first = -1;
    for (int i = 0; i < m->n_contact; i++)
        if (!(rs_options_mu(opt, i) > 0)) {
            n++;
            if (first < 0)
                first = i;
        }
    if (n > 0 && msg && len)
        snprintf(msg, len,
                 "warning: model '%s': elastic contact with Kalker's linear creep law and no friction on %d of %d "
                 "contacts (first '%s'): the creep forces are unbounded (in flange contact they can exceed the "
                 "normal force many times); bound them with 'friction MU' (e.g. 'friction 0.3') or use "
                 "'creep fastsim' with 'friction MU'",
                 m->name, n, m->n_contact, m->contacts[first].name);
    return n;
}
