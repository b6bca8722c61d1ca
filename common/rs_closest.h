/*
 * rs_closest.h — the one "did you mean" rule of railsym, for every layer:
 * the modeler and the .vdl front end (modeler/algebra/model_error.hpp wraps
 * it for C++), the runtime's readers (scenarios, train files, sweeps,
 * critical-speed searches, track files) and the command line
 * (cli/cli.hpp).  A typo gets the same suggestion whichever layer reads it.
 *
 * The rule: the distance between two names is the optimal-string-alignment
 * edit distance of their lower-case forms (an insertion, a deletion, a
 * change or a swap of two adjacent characters counts 1: "plto" is 1 from
 * "plot", "Mass" 0 from "mass").  The suggestions are the candidates at the
 * smallest distance d, when d <= |word|/3 + 1 and d < |word| (a one-letter
 * name is 1 from every other one-letter name: no suggestion), ties in the
 * candidates' order, each name once, the word itself never.  When no
 * candidate is that close, the one candidate that begins with `word`, if
 * exactly one does.  Names longer than 64 characters are never typos of
 * each other.  No allocation.
 *
 * C99, depends on nothing: common/ is the folder every layer may include.
 */
#ifndef RS_CLOSEST_H
#define RS_CLOSEST_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Edit distance as above (a large value past 64 characters). */
size_t rs_edit_distance(const char *a, const char *b);

/* The suggestions for `word` among cand[0..n): their indices in out[0..k),
 * k <= max, returned. */
int rs_closest_names(const char *word, const char *const *cand, int n, int *out, int max);

/* The first suggestion, or NULL when there is none. */
const char *rs_closest_name(const char *word, const char *const *cand, int n);

#ifdef __cplusplus
}
#endif

#endif /* RS_CLOSEST_H */
