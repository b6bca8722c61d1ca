/*
 * rs_closest.h — the one "did you mean" helper of the C runtime: the name
 * a misspelt word most plausibly meant, for the messages of every reader
 * (scenarios, train files, sweeps, critical-speed searches, track files).
 *
 * The rule is the command line's (cli/cli.hpp cli::closest_name), so a typo
 * gets the same suggestion whichever layer reads it: the candidate at the
 * smallest edit distance (Levenshtein's, with a swap of two adjacent
 * characters counting 1: "plto" is 1 from "plot"), if that distance is at
 * most max(1, |word|/3); otherwise the one candidate that `word` begins, if
 * exactly one does.  Ties go to the earliest candidate.  No allocation.
 */
#ifndef RS_CLOSEST_H
#define RS_CLOSEST_H

#include <stddef.h>

/* Edit distance as above; names longer than 64 characters are never typos
 * of each other (a large value). */
size_t rs_edit_distance(const char *a, const char *b);

/* The candidate closest to `word` (one of cand[0..n)), or NULL when none
 * is a plausible typo of it. */
const char *rs_closest_name(const char *word, const char *const *cand, int n);

#endif /* RS_CLOSEST_H */
