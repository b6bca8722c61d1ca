/*
 * rs_closest.c — see rs_closest.h.
 */
#include <string.h>

#include "rs_closest.h"

#define NAME_MAX_LEN 64

size_t rs_edit_distance(const char *a, const char *b)
{
    const size_t n = strlen(a), m = strlen(b);
    if (n > NAME_MAX_LEN || m > NAME_MAX_LEN)
        return (size_t)-1 / 2;
    /* optimal string alignment: d[i][j] between a[0..i) and b[0..j) */
    size_t d[NAME_MAX_LEN + 1][NAME_MAX_LEN + 1];
    size_t i, j;
    for (i = 0; i <= n; i++)
        d[i][0] = i;
    for (j = 0; j <= m; j++)
        d[0][j] = j;
    for (i = 1; i <= n; i++)
        for (j = 1; j <= m; j++) {
            size_t c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < c)
                c = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < c)
                c = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < c)
                c = d[i - 2][j - 2] + 1;
            d[i][j] = c;
        }
    return d[n][m];
}

const char *rs_closest_name(const char *word, const char *const *cand, int n)
{
    const size_t len = strlen(word), limit = len / 3 > 1 ? len / 3 : 1;
    size_t best_d = (size_t)-1;
    const char *best = NULL, *prefix_of = NULL;
    int n_prefix = 0, i;
    for (i = 0; i < n; i++) {
        const size_t d = rs_edit_distance(word, cand[i]);
        if (d < best_d) {
            best_d = d;
            best = cand[i];
        }
        if (len > 0 && strlen(cand[i]) > len && strncmp(cand[i], word, len) == 0) {
            n_prefix++;
            prefix_of = cand[i];
        }
    }
    if (best && best_d <= limit && best_d > 0)
        return best;
    if (n_prefix == 1)
        return prefix_of;
    return NULL;
}
