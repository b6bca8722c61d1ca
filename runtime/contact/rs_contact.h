/*
 * rs_contact.h — runtime state of the wheel-rail contacts of one workspace
 * (DESIGN.md "Wheel-rail contact" and "Integration"; the contract with the
 * generated functions is docs/contact_element.md; the algorithm is in
 * docs/runtime.md "Wheel-rail contact").
 *
 * Created by rs_ws_create when the model has n_contact > 0: it loads the
 * profiles and tracks the contact table names (a file named by several
 * contacts is loaded once), keeps one segment hint per spline, fills the five
 * coefficient input slots of each spline from the segment holding the
 * current value of the selecting s coordinate, and holds the scratch of the
 * contact-point Newton and of the creep matrix C^K_qq = D blockdiag(C_i/V_i) N
 * (D = ∂δ/∂f, N = ∂ν/∂q̇), whose structural pattern is computed once here.
 * Nothing here allocates after rs_contact_create.
 */
#ifndef RS_CONTACT_H
#define RS_CONTACT_H

#include <stddef.h>

#include "rs_contact_ck.h"
#include "rs_model.h"
#include "rs_profile.h"
#include "rs_track.h"
#include "rs_ws.h"

struct rs_contact_ws { /* typedef in rs_contact_ops.h */
    int nc, nq;
    const rs_model *model;
    /* splines: sp[6 i + k] (NULL: file "" — the default straight level track,
     * cylindrical wheel, flat rail are written instead) and their hints */
    const rs_spline **sp;
    int *hint;
    /* Spline j = 6 i + k: seg_v[j] the segment whose 5 coefficients
     * v[5 j ..] holds (-1: none yet), u_ok[j] = 1 while u's slots of the
     * spline hold v's, so that a fill evaluates a spline only when its
     * segment changed and writes u only where needed.  u_dirty = 1 (set
     * wherever u may be written from outside: rs_ws_inputs' callback,
     * rs_ws_u, rs_ws_set_u) clears every u_ok at the next fill. */
    int *seg_v, *u_ok;
    double *v;
    int u_dirty;
    /* NULL, or the linear analysis's small rail displacements
     * (rs_contact_move_rails): 4 per spline j (s_c, e0, e1, e2), the
     * polynomial e0 + e1 (s − s_c) + e2 (s − s_c)²/2 added to every segment
     * a fill writes, so the move survives the segments a Newton crosses. */
    const double *rail_move;
    rs_profile *prof;  int n_prof;   /* owned, loaded once per file name */
    rs_track *trk;     int n_trk;

    /* outputs of the contact functions */
    double *phid, *phids, *phidq, *betad;       /* 4nc, 16nc, nnz, 4nc  */
    double *nu, *V, *radii, *Dv, *Nv;           /* creep outputs        */
    double *Cb;        /* 9 nc: C_i / V_eff,i (row-major 3×3 per contact) */
    double *nu_t;      /* 3 nc: ν − N q̇, then Cb ν_t                     */
    double *a, *b;     /* nc: Hertz semi-axes of the last creep update    */
    double *f;         /* 3 nc: creep forces of the last step (on wheel)  */
    double *xi;        /* 3 nc: creepages ξ_x, ξ_y, φ of the last step    */

    /* C^K_qq pattern (n_q × n_q CSC) and values */
    rs_pattern ck;
    int *ck_colptr, *ck_rowind;
    double *CKv;
    int *pos;          /* n_q scratch: row -> position in a CK column     */
    rs_ck_plan ckp;    /* C^K contact by contact (RS_FAST_CK)             */
    double *geom;      /* 2 nc: RS_FN_WHEEL's r0 and h_r (the gauge check)  */
    int gauge_checked; /* rs_contact_check_gauge ran (at initialization)  */
};

/* Profiles and tracks already in memory, for targets without a file system
 * (rs_options.contact_data of rs_wheel_rail_contact()).  Each stands for the
 * file name the model's contact table gives (rs_contact_spline.file, as
 * written there, or the replacement of rs_options.wheel_profile /
 * rail_profile / track_file); a spline whose file is found here uses it
 * instead of reading the file.  Borrowed: they must outlive every workspace
 * created with them, and are never freed by it. */
typedef struct rs_contact_source {
    const char *file;              /* the name the table (or option) gives    */
    const rs_profile *profile;     /* for wheel and rail splines, or NULL     */
    const rs_track *track;         /* for the track splines, or NULL          */
} rs_contact_source;

typedef struct rs_contact_sources {
    const rs_contact_source *items;
    int n;
    int no_files;  /* 1: a file not among items is an error (RS_E_IO naming
                      the contact and the name), never read from disk      */
} rs_contact_sources;

/* Loads the files (or takes them from opt->contact_data, rs_contact_sources)
 * and sizes everything for model m (n_contact > 0).  Paths in the table are
 * relative to opt->contact_dir (NULL/"": working directory).  Returns RS_OK
 * or an error with a message naming the contact and the file. */
int rs_contact_create(const rs_model *m, const rs_options *opt, const rs_allocator *a,
                      rs_contact_ws **out, char *err, size_t errlen);
void rs_contact_free(rs_contact_ws **c, const rs_allocator *a);

/* Fills the 5 coefficient u slots of every spline of contact i (or of all
 * contacts when i < 0) from the segment holding s[s_slot], starting from the
 * hint; a spline whose segment is the one its slots already hold (seg_u,
 * unless u_dirty) is skipped.  Whoever writes u's spline slots other than
 * through this function must set c->u_dirty = 1. */
void rs_contact_fill(rs_contact_ws *c, int i, const double *s, double *u);

/* Solves the 4×4 system A x = b in place (A row-major, destroyed; b becomes
 * x) by LU with partial pivoting.  Returns 0, or -1 if a pivot is below
 * 1e-300 or not finite. */
int rs_contact_solve4(double A[16], double b[4]);

/* Creep matrix of one contact over the regularized reference speed:
 *   N_h = max(N, 0); Hertz ellipse from the radii (R_x^w, R_y^w, ∞, R_y^r)
 *   and N_h; Kalker's C(a/b, ν) → Cm (rs_kalker_creep_matrix);
 *   Cb = Cm / V_eff, V_eff = sqrt(V² + vmin²).
 * N_h = 0 gives a = b = 0 and Cb = 0.  Returns 0, or a negative rs_hertz /
 * rs_kalker code. */
int rs_contact_creep_block(double N, const double radii[3], double V, double E, double nu,
                           double vmin, double Cb[9], double *a, double *b);

/* C^K values (in the order of c->ck) from c->Dv, c->Cb, c->Nv. */
void rs_contact_ck_values(rs_contact_ws *c);

/* Builds the structural pattern of D blockdiag(3×3) N from the CSC patterns
 * D (n × 3nc) and N (3nc × n) into colptr (n+1) / rowind (*nnz entries, at
 * most cap); mark: n ints of scratch.  Returns 0, or -1 if cap is too small
 * (rowind may then be NULL to only count into *nnz). */
int rs_contact_ck_pattern(const rs_pattern *D, const rs_pattern *N, int *colptr, int *rowind,
                          int cap, int *nnz, int *mark);

/* ---- used by the step (rs_contact_step.c; ws internals) ---------------- */
struct rs_ws;

/* Newton on φ^d(q, s) = 0 for s at (t, ws->q): per contact
 * φ^d_s,i Δs_i = −φ^d_i, splines refilled after each update, at most
 * proj_maxiter iterations to contact_tol; counts in rs_stats.contact_iters. */
int rs_contact_solve_s(struct rs_ws *ws, double t);

/* Global search for contact i's point at the bound (t, q) when Newton
 * failed (rs_contact_search.c): follows rows 0–2 of φ^d over a grid of u_w
 * spanning the wheel table, brackets the sign changes of row 3, polishes
 * each with Newton and keeps the root of smallest gap φ^n.  Returns 0 with
 * s set to it, or -1 with s unchanged.  Counts in rs_stats.contact_searches. */
int rs_contact_search(struct rs_ws *ws, int i);

/* The abscissa range [lo, hi] of spline k (RS_SPLINE_*) of contact i's
 * table; 0 when it has none (default cylinder, flat rail). */
int rs_contact_table_range(const rs_contact_ws *c, int i, int k, double *lo, double *hi);

/* The file of spline k (RS_SPLINE_*) of contact i: the model's contact
 * table's, or the replacement the options give (a wheel or rail profile,
 * a track); "" or NULL where the model names none. */
const char *rs_contact_spline_file(const rs_model *m, const rs_options *opt, int i, int k);

/* ṡ from φ^d_s ṡ = β^d − φ^d_q q̇ at (t, ws->q, ws->qd). */
int rs_contact_solve_sd(struct rs_ws *ws, double t);

/* At the bound state: evaluates the creep function, the creep blocks from
 * the normal forces N_i = −λ[phi_row] of the last solve, the C^K_qq values
 * (c->CKv; with RS_FAST_CK not formed: rs_contact_add_ck adds them to K) and
 * Cb ν_t (ν_t = ν − N q̇, nonzero for prescribed motion) into nu_t. */
int rs_contact_creep(struct rs_ws *ws);

/* The IMEX matrix's A = M + Δt C^K_qq: adds scale·C^K_qq (from the pieces
 * rs_contact_creep left) to the system matrix's values after rs_klu_system_fill,
 * straight (RS_FAST_CK, through positions bound at set-up) or from c->CKv. */
void rs_contact_add_ck(struct rs_ws *ws, double scale);

/* Set-up, once the system matrix exists: the C^K plan's positions in it. */
void rs_contact_bind_k(struct rs_ws *ws);

/* Contact i's force on the wheel in the track's cross-section, after a step:
 * k = RS_CONTACT_VAR_Y, _Q or _Y_Q (rs_ws.h).  With f' the rail profile's
 * slope at u_r (the profile holds the height in the track's canted plane,
 * inclination included), the contact base's normal and lateral tangent lie
 * in that plane along (−σ f', 1) and (1, σ f') / √(1 + f'²) (lateral to the
 * left, up), so  Q = (N + σ f' f_y) / √(1 + f'²)  and
 * Y = (f' N − σ f_y) / √(1 + f'²)  (inwards: −σ times the leftward part).
 * t_x^r is taken along the track (exact on straight track; in curves its
 * tilt is of the order of the rail's offset times the curvature). */
double rs_contact_track_force(const struct rs_ws *ws, int i, int k);

/* After a solve: RS_E_LIFTOFF naming the contact, the time and the position
 * if some N_i = −λ[phi_row] < 0.  Also stores f_i = −Cb_i (N_i q̇ + ν_t,i)
 * (the creep force the step applied) into c->f and the force input slots. */
int rs_contact_after_solve(struct rs_ws *ws, const double *qd_new);

/* The profile of spline k (RS_SPLINE_WHEEL or RS_SPLINE_RAIL) and the track
 * of contact i as loaded (or taken from rs_options.contact_data); NULL where
 * the table names no file (cylindrical wheel, flat rail, straight level
 * track).  Owned by c (or by the caller's sources). */
const rs_profile *rs_contact_profile(const rs_contact_ws *c, int i, int k);
const rs_track *rs_contact_track(const rs_contact_ws *c, int i);

/* Moves the splines' values by small polynomials (the rail_move layout
 * above; NULL: back to the files' splines); the next fill rewrites every
 * slot.  For the linear analysis's track inputs (runtime/app/rs_linear_frf.c);
 * the array stays the caller's and must live while it is set. */
void rs_contact_move_rails(rs_contact_ws *c, const double *move);

/* The track file's gauge against the model's rail placement: for each
 * contact whose track gives a gauge G and whose rail profile a gauge_point
 * (y_g < 0, on the gauge side), the model puts that point at h_r + y_g from
 * the centre line (h_r = the contact's rail offset, geom[2 i + 1] of
 * RS_FN_WHEEL's out[3]); a difference from G/2 above 0.1 mm is an error
 * (RS_E_VALUE, rs_ws_fail) naming the contact, both files, the offset that
 * would match and the gauge the model implies: the model's offsets decide
 * where the rails are, so a track file saying otherwise is not silently
 * ignored.  Contacts without a gauge or gauge point are not checked. */
int rs_contact_check_gauge(struct rs_ws *ws, const rs_contact_ws *c, const double *geom);

/* The state a run carries from step to step (hints, the fill's cache, the
 * last contact outputs, flags): its size in bytes, a copy into buf and
 * back (rs_contact_state.c; the rs_contact_ops state_* entries).  No
 * allocation; restore needs a workspace of the same model and options. */
size_t rs_contact_state_size(const rs_contact_ws *c);
void rs_contact_state_save(const rs_contact_ws *c, void *buf);
void rs_contact_state_restore(rs_contact_ws *c, const void *buf);

/* The wheel-rail contact of this folder as the workspace's plug-in
 * (rs_contact_ops.h): set rs_options.contact to it to run contact models. */
const rs_contact_ops *rs_wheel_rail_contact(void);

#endif /* RS_CONTACT_H */
