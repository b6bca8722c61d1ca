/*
 * rs_contact_ck.h — private: C^K_qq = Σ_i D_i Cb_i N_i contact by contact as
 * small dense products (RS_FAST_CK).
 *
 * D_i = ∂δ/∂f_i (n_q × 3) touches a few rows R_i (the wheelset's and the
 * bodies above it); N_i = ∂ν_i/∂q̇ (3 × n_q) a few columns J_i.  Per contact
 * the step forms w = Cb_i N_i(:, j) for each j in J_i and adds
 * D_i(R_i, :) w — three products summed in registers — to the entries
 * (R_i, j) of C^K through positions found at set-up.  This replaces the
 * per-entry double indirection (row → position in the column) of a general
 * sparse product: the FEVE 3000's 3 500 multiply-adds per step.
 */
#ifndef RS_CONTACT_CK_H
#define RS_CONTACT_CK_H

#include "rs_model.h"
#include "rs_ws.h"

typedef struct rs_ck_plan {
    int nc;
    const rs_pattern *D, *N;
    int *roff;     /* nc + 1: contact i's rows R_i are dense rows
                      roff[i] .. roff[i+1] (nr_i of them)                  */
    int *dpos;     /* nnz(D): entry d of D -> its place in Dd              */
    double *Dd;    /* D_i(R_i, 0..2) column-major, 3 nr_i per contact at
                      3 roff[i]; entries absent from D's pattern stay 0    */
    int *goff;     /* nc + 1: contact i's columns j (groups) goff[i] ..    */
    int *gk0, *gk1;/* per group: its N entries [gk0, gk1) (rows 3i..3i+2)  */
    int *toff;     /* per group: its nr_i positions in tgt start here      */
    int *tgt;      /* positions in C^K's values of (R_i[r], j)             */
    int *tgt_k;    /* the same entries' positions in the system matrix's
                      values (rs_ck_plan_bind; rs_ck_plan_add)             */
    int nt;        /* entries of tgt and tgt_k                              */
    int nnz_ck;
} rs_ck_plan;

/* Sets P up for D (n_q × 3nc), N (3nc × n_q) and C^K's pattern (colptr,
 * rowind: rs_contact_ck_pattern's, which holds every (R_i, J_i) entry).
 * Returns RS_OK, RS_E_NOMEM or RS_E_MODEL (an entry missing from C^K's
 * pattern: not rs_contact_ck_pattern's). */
int rs_ck_plan_create(rs_ck_plan *P, const rs_pattern *D, const rs_pattern *N, int nc,
                      const int *colptr, const int *rowind, const rs_allocator *a);
void rs_ck_plan_free(rs_ck_plan *P, const rs_allocator *a);

/* C^K's values (CKv, in the pattern given to create) from D's values Dv,
 * N's values Nv and the 3 × 3 row-major blocks Cb (9 per contact). */
void rs_ck_plan_values(rs_ck_plan *P, const double *Dv, const double *Nv, const double *Cb,
                       double *CKv);

/* Sets tgt_k from map (C^K's value k -> its position in the system
 * matrix's values: rs_klu_system_extra_map's RS_KLU_EXTRA_CONTACT part).
 * No allocation. */
void rs_ck_plan_bind(rs_ck_plan *P, const int *map);

/* Adds scale·C^K to the system matrix's values Ax (tgt_k's positions) the
 * same way, without forming C^K: the IMEX step's A = M + Δt C^K_qq written
 * straight into K after rs_klu_system_fill, instead of C^K's memset and a second
 * indexed pass (rs_klu_system_add_extra).  Needs rs_ck_plan_bind first. */
void rs_ck_plan_add(const rs_ck_plan *P, const double *Dv, const double *Nv, const double *Cb,
                    double scale, double *Ax);

#endif /* RS_CONTACT_CK_H */
