/*
 * rs_linear_frf.h — frequency responses from track inputs to the
 * accelerations of a model's coordinates (`railsym linear --frf`,
 * docs/linear.md "Frequency responses").
 *
 * At the steady state that rs_linear.h linearizes (speed V, contact points
 * solved, linear Kalker creep), the rail under each contact i is displaced by
 * a small irregularity α_i(s) that the contact feels through its track
 * splines: a lateral shift along the track's horizontal normal h, a vertical
 * shift, or a rotation θ of the cross-section (cant).  With α_i's value, slope
 * and curvature at the contact point as nine inputs per contact,
 *
 *   M Δq̈ + C Δq̇ + K Δq = F_α α − φ_qᵀ Δλ,     φ_q Δq + Φ_α α = 0,
 *
 * F_α = ∂(D f − φ_qᵀ λ0)/∂α and Φ_α = ∂φ/∂α by central differences of the
 * spline coefficients (contact points re-solved, creep blocks held).  The
 * constraints: Δq = N x + P α, N the eigen analysis's null-space basis and
 * P α the particular solution [M φ_qᵀ; φ_q 0][P α; μ] = [0; −Φ_α α].  An
 * irregularity a e^{iωt} met by the leading contact (largest track
 * abscissa s_lead) reaches contact i τ_i = (s_lead − s_i)/V later, so
 *
 *   α_i = w_i e^{−iωτ_i} (1, iω/V, (iω/V)²) a      (value, slope, curvature)
 *
 * with w_i the input's weight on that contact: 1 for lateral alignment
 * (both rails along h) and vertical level (both rails up), 1/cant_base in
 * θ for cross level (a, in metres, left rail minus right: sin θ = a/base),
 * and ±1/2 along h for gauge (each rail moves out by a/2).  Then
 *
 *   (−ω² Mr + iω Cr + Kr) x = Nᵀ [F_α − (−ω² M + iω C + K) P] α(ω)
 *
 * (LAPACK zgesv) and the response is H(ω) = −ω² (N x + P α) per metre of a:
 * m/s² per m on a translation, rad/s² per m on a rotation.  A material
 * point's is J H with J its velocity Jacobian (rs_linear_point.h: why no
 * convective term varies), any other linear combination of q̈ likewise.
 *
 * Assumed: the linear analysis's (constraint contact, linear Kalker with the
 * creep blocks of the steady state), small amplitudes, constant speed, a
 * straight or constant track under the vehicle.
 */
#ifndef RS_LINEAR_FRF_H
#define RS_LINEAR_FRF_H

#include <stddef.h>

#include "rs_linear.h"

enum { RS_FRF_LATERAL, RS_FRF_VERTICAL, RS_FRF_CROSS_LEVEL, RS_FRF_GAUGE, RS_FRF_NIN };

/* "lateral", "vertical", "cross_level", "gauge" (NULL out of range). */
const char *rs_frf_input_name(int k);

typedef struct rs_linear_frf {
    double speed;             /* V [m/s]                                       */
    int n_f, n_out, n_in;
    double *f;                /* n_f frequencies [Hz]                          */
    int in[RS_FRF_NIN];       /* the inputs the contacts respond to (n_in)     */
    int *out_q;               /* n_out coordinate indices                      */
    double *re, *im;          /* H at [(k n_out + o) n_in + j]: the
                                 acceleration of out_q[o] per m of input in[j]
                                 at f[k]                                       */
    int n_row;                /* linear combinations of the accelerations
                                 (points: 3 rows each, rs_linear_point.h)      */
    double *row_re, *row_im;  /* H at [(k n_row + o) n_in + j]: rows[o] · Δq̈   */
    int n_pt;                 /* points (rs_linear_frf_run): rows 3p..3p+2 are
                                 point p's ground x, y, z                      */
    char (*pt_label)[128];    /* n_pt: the points as given (',' as ';')       */
    int nc;                   /* contacts                                      */
    double *s_contact;        /* nc: their track abscissae s_i at q0 [m]       */
    double s_lead;            /* the largest: the input's phase reference      */
    char model[128];
} rs_linear_frf;

void rs_linear_frf_free(rs_linear_frf *r);

/* The responses of ws at its current state (after rs_ws_init, with the
 * speed V > 0 applied): at the n_f frequencies f (> 0, Hz) for the n_out
 * coordinates out_q.  A model without wheel-rail contacts is refused. */
int rs_linear_frf_at(rs_ws *ws, double V, const double *f, int n_f, const int *out_q, int n_out, rs_linear_frf *r,
                     char *err, size_t errlen);
/* The same, and n_row responses rows[o] · Δq̈ (rows: n_row × n_q,
 * row-major; a point's velocity Jacobian, say): r->row_re, r->row_im;
 * n_out may be 0 when n_row > 0. */
int rs_linear_frf_at_rows(rs_ws *ws, double V, const double *f, int n_f, const int *out_q, int n_out,
                          const double *rows, int n_row, rs_linear_frf *r, char *err, size_t errlen);

typedef struct rs_linear_frf_config {
    rs_linear_config lin;     /* model, scenario, --set; the speed is v_lo
                                 (n_speeds must be 1)                          */
    double f_lo, f_hi;        /* Hz, 0 < f_lo <= f_hi                           */
    int n_f;                  /* frequencies, logarithmically spaced (>= 1)    */
    const char *const *outputs; /* coordinate names, or a prefix P naming every
                                   "P.…" coordinate; NULL: every coordinate
                                   (none when points are given)              */
    int n_outputs;
    const char *const *points;  /* material points, rs_linear_point_parse's
                                   BODY[:x,y,z] or NAME; their accelerations'
                                   ground components                         */
    int n_points;
} rs_linear_frf_config;

/* Loads, binds, applies the speed, selects the outputs and computes. */
int rs_linear_frf_run(const rs_linear_frf_config *c, rs_linear_frf *r, char *err, size_t errlen);

#endif /* RS_LINEAR_FRF_H */
