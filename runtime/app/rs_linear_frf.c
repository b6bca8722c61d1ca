/* rs_linear_frf.c — see rs_linear_frf.h: the track inputs' derivatives by
 * central differences of the contacts' track splines, and the complex
 * solves per frequency. */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_closest.h"
#include "rs_contact.h"
#include "rs_contact_ops.h"
#include "rs_error.h"
#include "rs_linear_frf.h"
#include "rs_linear_impl.h"
#include "rs_linear_lapack.h"
#include "rs_linear_point.h"
#include "rs_track.h"

#define PI 3.14159265358979323846
/* the rail's displacement per contact: along h, vertical, cant θ; each as
 * value, slope, curvature at the contact point */
enum { KIND_H, KIND_Z, KIND_THETA, NKIND, NORDER = 3 };
#define NA (NKIND * NORDER) /* inputs per contact */
/* cant base of a contact without a track file (the default straight level
 * track): standard gauge's, as the track reader's default (docs/contact.md) */
#define DEFAULT_CANT_BASE 1.5

const char *rs_frf_input_name(int k)
{
    static const char *const names[RS_FRF_NIN] = {"lateral", "vertical", "cross_level", "gauge"};
    return k >= 0 && k < RS_FRF_NIN ? names[k] : NULL;
}

void rs_linear_frf_free(rs_linear_frf *r)
{
    if (!r)
        return;
    free(r->f);
    free(r->out_q);
    free(r->re);
    free(r->im);
    free(r->row_re);
    free(r->row_im);
    free(r->pt_label);
    free(r->s_contact);
    memset(r, 0, sizeof *r);
}

/* What the hook computes at the steady state. */
typedef struct inputs {
    int nc, m;          /* contacts, m = NA nc columns                     */
    double *Fa;         /* n × m: ∂(D f − φ_qᵀλ0)/∂α                        */
    double *Pa;         /* n_phi × m: ∂φ/∂α                                  */
    double *s_c;        /* nc: the contacts' track abscissae                */
    double *base;       /* nc: their tracks' cant base [m]                  */
    int *side;          /* nc: +1 left rail, −1 right                       */
} inputs;

static void inputs_free(inputs *in)
{
    free(in->Fa);
    free(in->Pa);
    free(in->s_c);
    free(in->base);
    free(in->side);
}

/* The track splines a kind moves, with their weights: along h = (−t_y, t_x)
 * for KIND_H (t the plan tangent at the contact), z, θ. */
static int kind_splines(int kind, const double h[2], int sp[2], double w[2])
{
    if (kind == KIND_H) {
        sp[0] = RS_SPLINE_TRACK_X, w[0] = h[0];
        sp[1] = RS_SPLINE_TRACK_Y, w[1] = h[1];
        return 2;
    }
    sp[0] = kind == KIND_Z ? RS_SPLINE_TRACK_Z : RS_SPLINE_CANT, w[0] = 1;
    return 1;
}

/* The rail of contact i moved by eps in input (kind, p), through the
 * contact's spline fill (rs_contact_move_rails: the move then holds in
 * whatever segment the contact-point Newton visits); the contact points
 * re-solved with it.  mv: 24 nc doubles, zero outside this call. */
static int move_rail(rs_linear_ctx *L, double *mv, int i, int kind, int p, double eps, const double h[2],
                     double s_c)
{
    int sp[2];
    double w[2];
    const int ns = kind_splines(kind, h, sp, w);
    for (int k = 0; k < ns; k++) {
        double *e = mv + 4 * (6 * i + sp[k]);
        e[0] = s_c;
        e[1 + p] = w[k] * eps;
    }
    rs_contact_move_rails(L->ws->ct, mv);
    L->ws->cops->fill(L->ws->ct, -1, L->ws->s, L->ws->u);
    return rs_linear_resolve(L);
}

/* The rails as the tracks have them again: every spline slot rewritten. */
static void restore_rails(rs_linear_ctx *L, double *mv, const double *s0)
{
    rs_ws *ws = L->ws;
    memset(mv, 0, 24 * (size_t)L->nc * sizeof *mv);
    memcpy(ws->s, s0, (size_t)L->m->n_s * sizeof *s0);
    rs_contact_move_rails(ws->ct, NULL);
    ws->cops->fill(ws->ct, -1, ws->s, ws->u);
}

/* The hook of rs_linear_system_at_ex: F_α and Φ_α. */
static int track_inputs(rs_linear_ctx *L, const rs_linear_system *sys, void *user, char *err, size_t errlen)
{
    inputs *in = user;
    rs_ws *ws = L->ws;
    const rs_model *m = L->m;
    const int n = L->n, nphi = L->nphi, nc = L->nc, ma = NA * nc;
    in->nc = nc;
    in->m = ma;
    in->Fa = calloc((size_t)n * ma + 1, sizeof(double));
    in->Pa = calloc((size_t)nphi * ma + 1, sizeof(double));
    in->s_c = calloc((size_t)nc + 1, sizeof(double));
    in->base = calloc((size_t)nc + 1, sizeof(double));
    in->side = calloc((size_t)nc + 1, sizeof(int));
    double *s0 = malloc(((size_t)m->n_s + 1) * sizeof *s0);
    double *g = malloc(2 * ((size_t)n + 1) * sizeof *g), *F = malloc(((size_t)n + 1) * sizeof *F);
    double *phi = malloc(2 * ((size_t)nphi + 1) * sizeof *phi);
    double *mv = calloc(24 * (size_t)nc + 1, sizeof *mv);
    int st = RS_OK;
    if (!in->Fa || !in->Pa || !in->s_c || !in->base || !in->side || !s0 || !g || !F || !phi || !mv) {
        st = rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
        goto done;
    }
    memcpy(s0, ws->s, (size_t)m->n_s * sizeof *s0);
    for (int i = 0; i < nc && !st; i++) {
        const rs_contact *ct = &m->contacts[i];
        const rs_track *trk = rs_contact_track(ws->ct, i);
        const double s_c = ws->s[ct->spline[RS_SPLINE_TRACK_X].s_slot];
        in->s_c[i] = s_c;
        in->base[i] = trk && trk->cant_base > 0 ? trk->cant_base : DEFAULT_CANT_BASE;
        in->side[i] = ct->side;
        /* the plan tangent at the contact, from the slots' cubics */
        double t[2];
        for (int k = 0; k < 2; k++) {
            const int *slot = ct->spline[RS_SPLINE_TRACK_X + k].u_slot;
            const double *u = ws->u, x = s_c - u[slot[4]];
            t[k] = (3 * u[slot[0]] * x + 2 * u[slot[1]]) * x + u[slot[2]];
        }
        const double tn = hypot(t[0], t[1]);
        if (!(tn > 0)) {
            st = rs_fail(err, errlen, RS_E_VALUE, "model '%s': contact '%s': the track has no plan tangent at "
                         "s = %g m", m->name, ct->name, s_c);
            break;
        }
        const double h[2] = {-t[1] / tn, t[0] / tn};
        for (int kind = 0; kind < NKIND && !st; kind++)
            for (int p = 0; p < NORDER && !st; p++) {
                const int col = NA * i + NORDER * kind + p;
                for (int side = 0; side < 2 && !st; side++) {
                    const double eps = side ? -RS_LINEAR_FD_H : RS_LINEAR_FD_H;
                    double *gs = g + (size_t)side * n, *ph = phi + (size_t)side * nphi;
                    memcpy(ws->s, s0, (size_t)m->n_s * sizeof *s0);
                    if ((st = move_rail(L, mv, i, kind, p, eps, h, s_c)) ||
                        (st = rs_linear_creep_force(L, F, NULL)) ||
                        (st = rs_linear_phiq_t_lambda(L, sys->lambda0, gs)) ||
                        (nphi > 0 && (st = rs_ws_call(ws, RS_FN_PHI, ph, NULL))))
                        rs_fail(err, errlen, st, "model '%s': contact '%s': moving the rail: %s", m->name,
                                ct->name, rs_ws_error(ws));
                    for (int k = 0; k < n && !st; k++)
                        gs[k] = F[k] - gs[k];     /* D f − φ_qᵀ λ0 */
                    restore_rails(L, mv, s0);
                }
                for (int k = 0; k < n && !st; k++)
                    in->Fa[(size_t)col * n + k] = (g[k] - g[n + k]) / (2 * RS_LINEAR_FD_H);
                for (int k = 0; k < nphi && !st; k++)
                    in->Pa[(size_t)col * nphi + k] = (phi[k] - phi[nphi + k]) / (2 * RS_LINEAR_FD_H);
            }
    }
done:
    free(s0);
    free(g);
    free(F);
    free(phi);
    free(mv);
    return st;
}

/* Y = A X (A rows × inner, X inner × cols; column-major). */
static void matmul(int rows, int inner, int cols, const double *A, const double *X, double *Y)
{
    for (int c = 0; c < cols; c++)
        for (int i = 0; i < rows; i++) {
            double s = 0;
            for (int k = 0; k < inner; k++)
                s += A[(size_t)k * rows + i] * X[(size_t)c * inner + k];
            Y[(size_t)c * rows + i] = s;
        }
}

/* Y = Nᵀ X (N n × r, X n × cols). */
static void matmul_t(int n, int r, int cols, const double *N, const double *X, double *Y)
{
    for (int c = 0; c < cols; c++)
        for (int i = 0; i < r; i++) {
            double s = 0;
            for (int k = 0; k < n; k++)
                s += N[(size_t)i * n + k] * X[(size_t)c * n + k];
            Y[(size_t)c * r + i] = s;
        }
}

/* The particular solution P (n × m): [M φ_qᵀ; φ_q 0][P; μ] = [0; −Φ_α]. */
static int particular(const rs_linear_system *sys, const inputs *in, double *P)
{
    const int n = sys->n, nphi = sys->nphi, na = n + nphi, ma = in->m;
    memset(P, 0, (size_t)n * ma * sizeof *P);
    if (nphi == 0)
        return RS_OK;
    double *A = calloc((size_t)na * na, sizeof *A), *B = calloc((size_t)na * ma + 1, sizeof *B);
    int *ipiv = malloc((size_t)na * sizeof *ipiv), info = 0;
    int st = RS_E_NOMEM;
    if (A && B && ipiv) {
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                A[(size_t)j * na + i] = sys->M[(size_t)j * n + i];
        for (int j = 0; j < n; j++)
            for (int r = 0; r < nphi; r++) {
                const double v = sys->G[(size_t)j * nphi + r];
                A[(size_t)j * na + n + r] = v;
                A[(size_t)(n + r) * na + j] = v;
            }
        for (int c = 0; c < ma; c++)
            for (int r = 0; r < nphi; r++)
                B[(size_t)c * na + n + r] = -in->Pa[(size_t)c * nphi + r];
        dgesv_(&na, &ma, A, &na, ipiv, B, &na, &info);
        st = info == 0 ? RS_OK : RS_E_SINGULAR;
        for (int c = 0; c < ma && !st; c++)
            memcpy(P + (size_t)c * n, B + (size_t)c * na, (size_t)n * sizeof *P);
    }
    free(A);
    free(B);
    free(ipiv);
    return st;
}

/* α of input kind t at ω for contact i, column j of its NA (see the header). */
static double complex alpha(int t, const inputs *in, int i, int col, double w, double V, double s_lead)
{
    const int kind = col / NORDER, p = col % NORDER;
    double wt = 0;
    if (t == RS_FRF_LATERAL && kind == KIND_H)
        wt = 1;
    else if (t == RS_FRF_VERTICAL && kind == KIND_Z)
        wt = 1;
    else if (t == RS_FRF_CROSS_LEVEL && kind == KIND_THETA)
        wt = 1 / in->base[i];
    else if (t == RS_FRF_GAUGE && kind == KIND_H)
        wt = 0.5 * in->side[i];
    if (wt == 0)
        return 0;
    double complex a = wt * cexp(-I * w * (s_lead - in->s_c[i]) / V);
    for (int k = 0; k < p; k++)
        a *= I * w / V;
    return a;
}

/* Whether the contacts respond to input t: some column it uses moves a
 * force or a constraint by more than 1e-9 of the largest. */
static int responds(int t, const inputs *in, int n, int nphi)
{
    double fmax = 0, pmax = 0;
    for (size_t k = 0; k < (size_t)n * in->m; k++)
        fmax = fmax > fabs(in->Fa[k]) ? fmax : fabs(in->Fa[k]);
    for (size_t k = 0; k < (size_t)nphi * in->m; k++)
        pmax = pmax > fabs(in->Pa[k]) ? pmax : fabs(in->Pa[k]);
    int left = 0, right = 0;
    for (int i = 0; i < in->nc; i++)
        left |= in->side[i] > 0, right |= in->side[i] < 0;
    if (t == RS_FRF_GAUGE && !(left && right))
        return 0;
    for (int i = 0; i < in->nc; i++)
        for (int c = 0; c < NA; c++) {
            if (alpha(t, in, i, c, 1, 1, in->s_c[i]) == 0)
                continue;
            const int col = NA * i + c;
            for (int k = 0; k < n; k++)
                if (fabs(in->Fa[(size_t)col * n + k]) > 1e-9 * fmax)
                    return 1;
            for (int k = 0; k < nphi; k++)
                if (fabs(in->Pa[(size_t)col * nphi + k]) > 1e-9 * pmax)
                    return 1;
        }
    return 0;
}

int rs_linear_frf_at(rs_ws *ws, double V, const double *f, int n_f, const int *out_q, int n_out, rs_linear_frf *r,
                     char *err, size_t errlen)
{
    return rs_linear_frf_at_rows(ws, V, f, n_f, out_q, n_out, NULL, 0, r, err, errlen);
}

int rs_linear_frf_at_rows(rs_ws *ws, double V, const double *f, int n_f, const int *out_q, int n_out,
                          const double *rows, int n_row, rs_linear_frf *r, char *err, size_t errlen)
{
    const rs_model *m = rs_ws_model(ws);
    memset(r, 0, sizeof *r);
    snprintf(r->model, sizeof r->model, "%s", m->name);
    if (m->n_contact == 0)
        return rs_fail(err, errlen, RS_E_UNSUPPORTED, "model '%s' has no wheel-rail contacts: a track input "
                       "has nothing to act on (frequency responses need a vehicle on rails)", m->name);
    if (!(V > 0) || !isfinite(V))
        return rs_fail(err, errlen, RS_E_ARG, "frequency responses need a running speed V > 0 (got %g m/s): the "
                       "track input reaches each wheel at f = V/wavelength", V);
    if (n_f < 1 || n_out < 0 || n_row < 0 || n_out + n_row < 1 || (n_row > 0 && !rows))
        return rs_fail(err, errlen, RS_E_ARG, "frequency responses: no frequency or no output");
    for (int k = 0; k < n_f; k++)
        if (!(f[k] > 0) || !isfinite(f[k]))
            return rs_fail(err, errlen, RS_E_ARG, "frequency responses: frequency %g Hz: every frequency must "
                           "be > 0", f[k]);
    for (int o = 0; o < n_out; o++)
        if (out_q[o] < 0 || out_q[o] >= m->n_q)
            return rs_fail(err, errlen, RS_E_ARG, "frequency responses: output %d is no coordinate", out_q[o]);
    inputs in = {0};
    rs_linear_system sys;
    int st = rs_linear_system_at_ex(ws, &sys, track_inputs, &in, err, errlen);
    if (st) {
        inputs_free(&in);
        return st;
    }
    const int n = sys.n, rr = sys.r, nphi = sys.nphi, ma = in.m, nc = in.nc;
    r->speed = V;
    r->nc = nc;
    for (int t = 0; t < RS_FRF_NIN; t++)
        if (responds(t, &in, n, nphi))
            r->in[r->n_in++] = t;
    const int ni = r->n_in;
    double *P = malloc(((size_t)n * ma + 1) * sizeof *P);
    double *Mr = malloc(((size_t)rr * rr + 1) * sizeof *Mr), *Cr = malloc(((size_t)rr * rr + 1) * sizeof *Cr);
    double *Kr = malloc(((size_t)rr * rr + 1) * sizeof *Kr), *tmp = malloc(((size_t)n * (rr > ma ? rr : ma) + 1) * sizeof *tmp);
    double *MP = malloc(((size_t)rr * ma + 1) * sizeof *MP), *CP = malloc(((size_t)rr * ma + 1) * sizeof *CP);
    double *KP = malloc(((size_t)rr * ma + 1) * sizeof *KP), *NF = malloc(((size_t)rr * ma + 1) * sizeof *NF);
    double complex *A = malloc(((size_t)rr * rr + 1) * sizeof *A), *X = malloc(((size_t)rr * ni + 1) * sizeof *X);
    double complex *al = malloc(((size_t)ma * ni + 1) * sizeof *al);
    int *ipiv = malloc(((size_t)rr + 1) * sizeof *ipiv);
    /* the internal states: NᵀKz (rr × nz), Zq N, Zv N (nz × rr), Zq P, Zv P
     * (nz × ma), one block */
    const int nz = sys.nz;
    double *zb = malloc(((size_t)nz * (3 * rr + 2 * ma) + 1) * sizeof *zb);
    double *NKz = zb, *ZqN = NKz + (size_t)rr * nz, *ZvN = ZqN + (size_t)nz * rr, *ZqP = ZvN + (size_t)nz * rr;
    double *ZvP = ZqP + (size_t)nz * ma;
    double *NES = NULL; /* rr × ma: Nᵀ E S Φ_α (rs_linear_load.c), or none */
    r->f = malloc((size_t)n_f * sizeof *r->f);
    r->out_q = malloc(((size_t)n_out + 1) * sizeof *r->out_q);
    r->re = calloc((size_t)n_f * n_out * ni + 1, sizeof *r->re);
    r->im = calloc((size_t)n_f * n_out * ni + 1, sizeof *r->im);
    r->s_contact = malloc(((size_t)nc + 1) * sizeof *r->s_contact);
    r->row_re = calloc((size_t)n_f * n_row * ni + 1, sizeof *r->row_re);
    r->row_im = calloc((size_t)n_f * n_row * ni + 1, sizeof *r->row_im);
    double complex *dqa = malloc(((size_t)n + 1) * sizeof *dqa);
    if (!r->row_re || !r->row_im || !dqa ||
        !P || !Mr || !Cr || !Kr || !tmp || !MP || !CP || !KP || !NF || !A || !X || !al || !ipiv || !zb || !r->f ||
        !r->out_q || !r->re || !r->im || !r->s_contact) {
        st = rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
        goto done;
    }
    r->n_f = n_f;
    r->n_out = n_out;
    r->n_row = n_row;
    memcpy(r->f, f, (size_t)n_f * sizeof *f);
    memcpy(r->out_q, out_q, (size_t)n_out * sizeof *out_q);
    memcpy(r->s_contact, in.s_c, (size_t)nc * sizeof *in.s_c);
    r->s_lead = in.s_c[0];
    for (int i = 1; i < nc; i++)
        r->s_lead = fmax(r->s_lead, in.s_c[i]);
    if ((st = particular(&sys, &in, P))) {
        rs_fail(err, errlen, st, "model '%s': the constraints' response to the rails, [M φ_qᵀ; φ_q 0], is "
                "singular (redundant constraints?)", m->name);
        goto done;
    }
    /* the reduced matrices and Nᵀ(M, C, K) P, Nᵀ F_α */
    matmul(n, n, rr, sys.M, sys.N, tmp);
    matmul_t(n, rr, rr, sys.N, tmp, Mr);
    matmul(n, n, rr, sys.C, sys.N, tmp);
    matmul_t(n, rr, rr, sys.N, tmp, Cr);
    matmul(n, n, rr, sys.K, sys.N, tmp);
    matmul_t(n, rr, rr, sys.N, tmp, Kr);
    matmul(n, n, ma, sys.M, P, tmp);
    matmul_t(n, rr, ma, sys.N, tmp, MP);
    matmul(n, n, ma, sys.C, P, tmp);
    matmul_t(n, rr, ma, sys.N, tmp, CP);
    matmul(n, n, ma, sys.K, P, tmp);
    matmul_t(n, rr, ma, sys.N, tmp, KP);
    /* the loads' variation (rs_linear_load.c): Nᵀ T F_α, and Nᵀ E S Φ_α for
     * the term ω² Nᵀ E S Φ_α α of the rails' acceleration */
    if (sys.T) {
        double *TF = malloc(((size_t)n * ma + 1) * sizeof *TF);
        NES = malloc(((size_t)rr * ma + 1) * sizeof *NES);
        if (!TF || !NES) {
            free(TF);
            free(NES);
            st = rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
            goto done;
        }
        matmul(n, n, ma, sys.T, in.Fa, TF);
        matmul_t(n, rr, ma, sys.N, TF, NF);
        matmul(n, nphi, ma, sys.ES, in.Pa, TF);
        matmul_t(n, rr, ma, sys.N, TF, NES);
        free(TF);
    } else {
        matmul_t(n, rr, ma, sys.N, in.Fa, NF);
    }
    if (nz > 0) {
        matmul_t(n, rr, nz, sys.N, sys.Kz, NKz);
        matmul(nz, n, rr, sys.Zq, sys.N, ZqN);
        matmul(nz, n, rr, sys.Zv, sys.N, ZvN);
        matmul(nz, n, ma, sys.Zq, P, ZqP);
        matmul(nz, n, ma, sys.Zv, P, ZvP);
    }
    for (int k = 0; k < n_f; k++) {
        const double w = 2 * PI * f[k], w2 = w * w;
        for (int j = 0; j < ni; j++)
            for (int i = 0; i < nc; i++)
                for (int c = 0; c < NA; c++)
                    al[(size_t)j * ma + NA * i + c] = alpha(r->in[j], &in, i, c, w, V, r->s_lead);
        for (size_t e = 0; e < (size_t)rr * rr; e++)
            A[e] = -w2 * Mr[e] + I * w * Cr[e] + Kr[e];
        /* each state follows q: (iω − b) z = (Zq + iω Zv) q, and its force
         * Kz z adds NᵀKz (iω − b)⁻¹ (Zq + iω Zv) to the stiffness on N x
         * and on P α */
        for (int l = 0; l < nz; l++) {
            const double complex g = 1 / (I * w - sys.Zb[l]);
            for (int c = 0; c < rr; c++) {
                const double complex zc = g * (ZqN[(size_t)c * nz + l] + I * w * ZvN[(size_t)c * nz + l]);
                for (int i = 0; i < rr; i++)
                    A[(size_t)c * rr + i] += NKz[(size_t)l * rr + i] * zc;
            }
        }
        for (int j = 0; j < ni; j++)
            for (int i = 0; i < rr; i++) {
                double complex s = 0;
                for (int c = 0; c < ma; c++) {
                    const size_t e = (size_t)c * rr + i;
                    double complex kz = 0;
                    for (int l = 0; l < nz; l++)
                        kz += NKz[(size_t)l * rr + i] * (ZqP[(size_t)c * nz + l] + I * w * ZvP[(size_t)c * nz + l]) /
                              (I * w - sys.Zb[l]);
                    s += (NF[e] + (NES ? w2 * NES[e] : 0) - (-w2 * MP[e] + I * w * CP[e] + KP[e]) - kz) *
                         al[(size_t)j * ma + c];
                }
                X[(size_t)j * rr + i] = s;
            }
        int info = 0;
        if (rr > 0 && ni > 0)
            zgesv_(&rr, &ni, A, &rr, ipiv, X, &rr, &info);
        if (info != 0) {
            st = rs_fail(err, errlen, RS_E_SINGULAR, "model '%s': at %g Hz the reduced −ω²M + iωC + K is singular "
                         "(LAPACK zgesv info %d): an undamped mode at exactly this frequency?", m->name, f[k], info);
            goto done;
        }
        for (int j = 0; j < ni; j++) {
            /* Δq = N x + P α, every coordinate */
            for (int q = 0; q < n; q++) {
                double complex dq = 0;
                for (int c = 0; c < rr; c++)
                    dq += sys.N[(size_t)c * n + q] * X[(size_t)j * rr + c];
                for (int c = 0; c < ma; c++)
                    dq += P[(size_t)c * n + q] * al[(size_t)j * ma + c];
                dqa[q] = dq;
            }
            for (int o = 0; o < n_out; o++) {
                const double complex acc = -w2 * dqa[out_q[o]];
                const size_t e = ((size_t)k * n_out + o) * ni + j;
                r->re[e] = creal(acc);
                r->im[e] = cimag(acc);
            }
            /* rows · Δq̈: a point's J Δq̈ (rs_linear_point.h says why the
             * convective term's variation is absent) */
            for (int o = 0; o < n_row; o++) {
                double complex acc = 0;
                for (int q = 0; q < n; q++)
                    acc += rows[(size_t)o * n + q] * dqa[q];
                acc *= -w2;
                const size_t e = ((size_t)k * n_row + o) * ni + j;
                r->row_re[e] = creal(acc);
                r->row_im[e] = cimag(acc);
            }
        }
    }
    st = RS_OK;
done:
    free(P);
    free(Mr);
    free(Cr);
    free(Kr);
    free(tmp);
    free(MP);
    free(CP);
    free(KP);
    free(NF);
    free(A);
    free(X);
    free(al);
    free(ipiv);
    free(zb);
    free(NES);
    free(dqa);
    inputs_free(&in);
    rs_linear_system_free(&sys);
    if (st)
        rs_linear_frf_free(r);
    return st;
}

/* Coordinate indices of the names (each a coordinate, or a prefix P of
 * "P.…" coordinates) into idx (n_q at most); their count, or < 0 with the
 * message. */
static int select_outputs(const rs_model *m, const char *const *names, int n_names, int *idx, char *err,
                          size_t errlen)
{
    int k = 0;
    if (!names) {
        for (int q = 0; q < m->n_q; q++)
            idx[k++] = q;
        return k;
    }
    for (int a = 0; a < n_names; a++) {
        const char *w = names[a];
        const size_t len = strlen(w);
        int found = 0;
        for (int q = 0; q < m->n_q; q++) {
            const char *qn = m->q_names[q];
            if (strcmp(qn, w) == 0 || (strncmp(qn, w, len) == 0 && qn[len] == '.')) {
                int dup = 0;
                for (int l = 0; l < k; l++)
                    dup |= idx[l] == q;
                if (!dup)
                    idx[k++] = q;
                found = 1;
            }
        }
        if (!found) {
            const char *near = rs_closest_name(w, m->q_names, m->n_q);
            return rs_fail(err, errlen, RS_E_ARG, "--frf-out '%s': model '%s' has no coordinate '%s' nor any "
                           "'%s.…'%s%s%s; its coordinates: `railsym ops` or model.json \"coords\"", w, m->name, w, w,
                           near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
        }
    }
    return k;
}

int rs_linear_frf_run(const rs_linear_frf_config *c, rs_linear_frf *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    if (!c)
        return rs_fail(err, errlen, RS_E_ARG, "rs_linear_frf_run: no configuration");
    if (c->lin.n_speeds != 1 || !(c->lin.v_lo > 0) || !isfinite(c->lin.v_lo))
        return rs_fail(err, errlen, RS_E_ARG, "--frf needs one running speed V > 0: write --speed V (m/s), "
                       "e.g. --speed 30");
    if (!(c->f_lo > 0) || !(c->f_hi >= c->f_lo) || !isfinite(c->f_hi) || c->n_f < 1 ||
        (c->n_f > 1 && !(c->f_hi > c->f_lo)))
        return rs_fail(err, errlen, RS_E_ARG, "--frf-range %g:%g:%d: write FLO:FHI:N in Hz with 0 < FLO < FHI and "
                       "N >= 2 (N frequencies, logarithmically spaced), e.g. --frf-range 0.5:30:200", c->f_lo,
                       c->f_hi, c->n_f);
    rs_linear_opened o;
    int st = rs_linear_open(&c->lin, &o, err, errlen);
    if (st)
        return st;
    const rs_model *m = o.m;
    if (m->n_contact == 0) { /* before the speed, which such a model may not take either */
        st = rs_fail(err, errlen, RS_E_UNSUPPORTED, "model '%s' has no wheel-rail contacts: a track input has "
                     "nothing to act on (frequency responses need a vehicle on rails)", m->name);
        rs_linear_close(&o);
        return st;
    }
    if (rs_linear_runs_elastic(&o))
        rs_logf(&c->lin.log, RS_LOG_LINE,
                "note: the runs of this scenario use the elastic contact; frequency responses linearize the "
                "constraint contact (one point per wheel, Kalker's linear law: the track inputs enter through "
                "its contact splines; docs/linear.md)");
    double *f = malloc((size_t)c->n_f * sizeof *f);
    int *idx = malloc(((size_t)m->n_q + 1) * sizeof *idx);
    const int npt = c->points ? c->n_points : 0;
    rs_linear_point *pt = calloc((size_t)npt + 1, sizeof *pt);
    double *rows = calloc(3 * (size_t)npt * m->n_q + 1, sizeof *rows);
    rs_ws *ws = NULL;
    if (!f || !idx || !pt || !rows) {
        st = rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
        goto done;
    }
    for (int k = 0; k < c->n_f; k++)
        f[k] = c->n_f == 1 ? c->f_lo : c->f_lo * pow(c->f_hi / c->f_lo, (double)k / (c->n_f - 1));
    const int n_out = npt > 0 && !c->outputs ? 0 : select_outputs(m, c->outputs, c->n_outputs, idx, err, errlen);
    if (n_out < 0) {
        st = n_out;
        goto done;
    }
    for (int k = 0; k < npt; k++)
        if ((st = rs_linear_point_parse(m, c->points[k], &pt[k], err, errlen)))
            goto done;
    if ((st = rs_linear_ws_at(&o, c->lin.v_lo, &ws, err, errlen)))
        goto done;
    /* the points' Jacobians at the steady state the responses linearize */
    for (int k = 0; k < npt; k++)
        if ((st = rs_linear_point_jacobian(ws, &pt[k], rows + 3 * (size_t)k * m->n_q, err, errlen)))
            goto done;
    char msg[1024];
    if ((st = rs_linear_frf_at_rows(ws, c->lin.v_lo, f, c->n_f, idx, n_out, rows, 3 * npt, r, msg, sizeof msg))) {
        rs_fail(err, errlen, st, "%s", msg);
        goto done;
    }
    if (npt > 0 && !(r->pt_label = calloc((size_t)npt, sizeof *r->pt_label))) {
        rs_linear_frf_free(r);
        st = rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
        goto done;
    }
    r->n_pt = npt;
    for (int k = 0; k < npt; k++)
        memcpy(r->pt_label[k], pt[k].label, sizeof pt[k].label);
done:
    rs_ws_free(&ws);
    free(f);
    free(idx);
    free(pt);
    free(rows);
    rs_linear_close(&o);
    return st;
}
