/*
 * rs_thermal.h — the thermal model of a hydraulic damper (issue 25, seed
 * 004 eq. 3): heat conduction u̇ = γ Δu + q in the damper's tube, on a 3D
 * Cartesian finite-difference grid (7-point Laplacian, written as a finite
 * volume so that every face flux leaves one cell and enters another),
 * heated by the damper's dissipated power and cooled by convection to the
 * ambient air at every exposed face; explicit (forward Euler) sub-steps at
 * the stability limit.  docs/coupled.md has the model and its checks.
 *
 * The grid: NX × NY cells across [−R, R]², NZ cells along the axis [0, L].
 * A cell belongs to the body when its centre lies in the tube
 * r_in ≤ √(x² + y²) ≤ R (every cell for NX = NY = 1, a rod); the tube is
 * the same in every z plane.  Why Cartesian and not cylindrical: the
 * 7-point stencil of the seed, no axis singularity, and slabs along z split
 * it for MPI with one plane of halo each side.  The staircase surface is
 * larger than 2πRL: rs_thermal_grid reports the area the model uses.
 *
 * A slab (planes k0 ≤ k < k1) is what one rank holds; rs_thermal_advance
 * updates it from its own planes and one halo plane each side, so the same
 * cell sees the same arithmetic whatever the split: results are
 * bit-identical for 1, 2 or more ranks (the reductions are per plane, then
 * summed in plane order by one caller).  Nothing here allocates after
 * rs_thermal_slab_create, prints or exits.
 */
#ifndef RS_THERMAL_H
#define RS_THERMAL_H

#include <stddef.h>

#define RS_THERMAL_NAME 64

/* Where the damper's heat enters. */
enum { RS_THERMAL_HEAT_VOLUME = 0, /* uniformly in every cell (oil heats the tube through its bore) */
       RS_THERMAL_HEAT_END = 1 };  /* through the end face z = 0 (the rod seal), a flux */

/* A `thermal` statement (docs/coupled.md); plain data, copied by value. */
typedef struct rs_thermal_spec {
    char param[RS_THERMAL_NAME];       /* the damping coefficient fed back      */
    char power[RS_THERMAL_NAME];       /* the model output giving the power, W  */
    char temperature[RS_THERMAL_NAME]; /* a parameter set to the mean T ("": none) */
    int nx, ny, nz;                    /* cells                                 */
    double length, radius, bore;       /* m: L, R, r_in (0: a solid cylinder)   */
    double density, heat_capacity, conductivity;  /* kg/m³, J/(kg K), W/(m K) */
    double convection;                 /* h, W/(m² K)                           */
    double ambient, initial;           /* °C                                    */
    double beta, t_ref;                /* c = c_ref exp(−β (T − t_ref)), 1/K, °C */
    int heat;                          /* RS_THERMAL_HEAT_*                     */
    char file[256];                    /* where the statement is                */
    int line;
} rs_thermal_spec;

/* Defaults (steel, still air, 20 °C); beta NaN: the statement must give it. */
void rs_thermal_spec_default(rs_thermal_spec *s);

/* Parses the tokens of one `thermal` statement (tok[0] is "thermal") into
 * *s; errors name file:line and the fix. */
int rs_thermal_spec_parse(const char *const *tok, int n, const char *file, int line, rs_thermal_spec *s,
                          char *err, size_t errlen);

/* Checks a spec's numbers (positive sizes, bore < radius, at least one cell
 * in the body, ...).  Errors name the statement's file:line. */
int rs_thermal_spec_check(const rs_thermal_spec *s, char *err, size_t errlen);

/* What follows from a spec, the same on every rank. */
typedef struct rs_thermal_grid {
    int nx, ny, nz;
    double dx, dy, dz;
    double cap;            /* ρ c_p dx dy dz: heat capacity of one cell, J/K   */
    double gx, gy, gz;     /* face conductances k A / d, W/K                    */
    double hx, hy, hz;     /* convection conductances h A of an x, y, z face   */
    long cells;            /* cells in the body (all planes)                    */
    long cells_plane;      /* in one plane                                      */
    double volume, area;   /* m³ of the cells, m² of their exposed faces        */
    double dt_stable;      /* s: the explicit limit min C / Σ G                 */
} rs_thermal_grid;

int rs_thermal_grid_make(const rs_thermal_spec *s, rs_thermal_grid *g, char *err, size_t errlen);

/* Sub-steps for a step dt: the fewest of size ≤ dt_stable. */
long rs_thermal_substeps(const rs_thermal_grid *g, double dt);

/* One rank's planes k0 ≤ k < k1 with a halo plane each side. */
typedef struct rs_thermal_slab rs_thermal_slab;

int rs_thermal_slab_create(const rs_thermal_spec *s, int k0, int k1, rs_thermal_slab **out, char *err,
                           size_t errlen);
void rs_thermal_slab_free(rs_thermal_slab **sl);
const rs_thermal_grid *rs_thermal_slab_grid(const rs_thermal_slab *sl);
int rs_thermal_slab_k0(const rs_thermal_slab *sl);
int rs_thermal_slab_k1(const rs_thermal_slab *sl);

/* Halo planes for the exchange: the first and last own planes (to send)
 * and the halo planes below k0 and above k1 − 1 (to receive), nx·ny
 * doubles each. */
double *rs_thermal_slab_plane(rs_thermal_slab *sl, int k);

/* One sub-step of size h with heat power P (W) into the body; the halo
 * planes must hold the neighbours' values (ignored at the grid's ends).
 * Adds each own plane's convective loss h·Σ G_conv (T − T_amb) (J) to
 * loss[k − k0]. */
void rs_thermal_substep(rs_thermal_slab *sl, double P, double h, double *loss);

/* Σ T over the body's cells of each own plane, into sum[k − k0]. */
void rs_thermal_plane_sums(const rs_thermal_slab *sl, double *sum);

/* Temperature of cell (i, j, k) of an own plane (NaN outside the body). */
double rs_thermal_cell(const rs_thermal_slab *sl, int i, int j, int k);

#endif /* RS_THERMAL_H */
