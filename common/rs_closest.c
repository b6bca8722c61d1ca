/*
 * rs_closest.c — see rs_closest.h.
 */
#include <ctype.h>
#include <string.h>

#include "rs_closest.h"

#define NAME_MAX_LEN 64

static int same_char(char a, char b)
{
    return tolower((unsigned char)a) == tolower((unsigned char)b);
}

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
            size_t c = d[i - 1][j - 1] + !same_char(a[i - 1], b[j - 1]);
            if (d[i - 1][j] + 1 < c)
                c = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < c)
                c = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && same_char(a[i - 1], b[j - 2]) && same_char(a[i - 2], b[j - 1]) &&
                d[i - 2][j - 2] + 1 < c)
                c = d[i - 2][j - 2] + 1;
            d[i][j] = c;
        }
    return d[n][m];
}

/* cand[i] equals a candidate already in out[0..k). */
static int listed(const char *const *cand, const int *out, int k, int i)
{
    for (int j = 0; j < k; j++)
        if (strcmp(cand[out[j]], cand[i]) == 0)
            return 1;
    return 0;
}

int rs_closest_names(const char *word, const char *const *cand, int n, int *out, int max)
{
    const size_t len = strlen(word), limit = len / 3 + 1;
    size_t best = limit + 1;
    int k = 0, n_prefix = 0, prefix_of = -1;
    for (int i = 0; i < n; i++) {
        if (strcmp(cand[i], word) == 0)
            continue;
        if (len > 0 && strlen(cand[i]) > len && strncmp(cand[i], word, len) == 0 &&
            (prefix_of < 0 || strcmp(cand[prefix_of], cand[i]) != 0)) {
            n_prefix++;
            prefix_of = i;
        }
        const size_t d = rs_edit_distance(word, cand[i]);
        if (d > limit || (d > 0 && d >= len))
            continue;
        if (d < best) {
            best = d;
            k = 0;
        }
        if (d == best && k < max && !listed(cand, out, k, i))
            out[k++] = i;
    }
    if (k == 0 && n_prefix == 1 && max > 0)
        out[k++] = prefix_of;
    return k;
}

const char *rs_closest_name(const char *word, const char *const *cand, int n)
{
    int i;
    return rs_closest_names(word, cand, n, &i, 1) ? cand[i] : NULL;
}
