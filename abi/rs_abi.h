/*
 * rs_abi.h — the one calling convention shared by every generated function
 * and the runtime that calls it.  C99, no dependencies; generated code
 * includes it, so an embedded user needs only generated/<model>/ plus this
 * folder.
 *
 * Every generated function has the signature
 *
 *     int NAME(const double *const *in, double *const *out);
 *
 * `in` is indexed by the RS_IN_* slots below (one array per symbol kind,
 * numbered in the order the modeler created the symbols of that kind).  A
 * function reads only the slots it needs; those must be non-NULL.
 * `out` holds one pointer per named output of the function, in the order the
 * function's header comment lists them; a NULL output pointer is skipped.
 * Output arrays must not overlap the input elements the function reads (its
 * input pointers are `restrict`: RS_FN_PROJ writes the step cache, which
 * RS_FN_STEP_CACHED reads from its own slot RS_IN_CACHE, into an array that
 * no input slot of that call points at).  Outputs are
 * written as their values are computed rather than all at the end: no other
 * thread may read an output array while the call runs.
 * Sparse outputs are written as their structurally non-zero values in the
 * order of the compressed-column pattern emitted beside the function.
 * The return value is 0 (RS_ABI_OK).  Generated functions keep no state
 * between calls and write no globals, so any number of threads may call them
 * at once with their own arrays.
 */
#ifndef RS_ABI_H
#define RS_ABI_H

/* Input slots.  RS_IN_T..RS_IN_CONST match railsym::SymKind in
 * modeler/algebra/atoms.hpp, in that order; RS_IN_CACHE is no symbol kind. */
enum rs_in_slot {
    RS_IN_T = 0,   /* time, a pointer to one double                     [s]   */
    RS_IN_Q,       /* generalized coordinates q                               */
    RS_IN_QD,      /* generalized velocities q̇                               */
    RS_IN_QDD,     /* generalized accelerations q̈                            */
    RS_IN_S,       /* auxiliary coordinates s (contact-point parameters)      */
    RS_IN_SD,      /* auxiliary velocities ṡ                                 */
    RS_IN_SDD,     /* auxiliary accelerations s̈                              */
    RS_IN_P,       /* parameters p (numbers set at run time)                  */
    RS_IN_U,       /* inputs u (time-varying values, spline coefficients)     */
    RS_IN_CONST,   /* hoisted constants (atoms of parameters only)            */
    RS_IN_CACHE,   /* the step cache: RS_FN_PROJ's last output, read by
                      RS_FN_STEP_CACHED (rs_model_cache_len doubles)          */
    RS_IN_COUNT
};

#define RS_ABI_OK 0

typedef int (*rs_fn)(const double *const *in, double *const *out);

#endif /* RS_ABI_H */
