/* The weights of a set of elements, as `partition --weights`, `verify --weights` and
 * `validate` read them: a JSON array of numbers, or numbers separated by white space ('#'
 * starts a comment); each finite, > 0 and in the domain. The file is read by the one
 * reader of small files (tool/namefile.c): bounded, a stream included, any word length. */
#include <config.h>

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/* Bytes of a word a message quotes. */
#define WORD_QUOTED 64

/* Weight k (1-based) of path, v, at line (0 in JSON): -1 with why when it is not finite,
 * > 0 and in the domain. */
static int check_weight(const char *path, size_t line, size_t k, double v, char *why,
                        size_t size)
{
    char at[32] = "";
    if (line > 0)
        snprintf(at, sizeof at, ":%zu", line);
    if (!(isfinite(v) && v > 0)) {
        snprintf(why, size, "%s%s: weight %zu is %g; weights must be finite and > 0", path, at,
                 k, v);
        return -1;
    }
    if (!tool_in_domain(v, 0)) {
        snprintf(why, size, "%s%s: weight %zu is %g, outside the domain [%g, %g] that dlsched "
                 "computes in", path, at, k, v, DLS_DOMAIN_MIN, DLS_DOMAIN_MAX);
        return -1;
    }
    return 0;
}

/* The weights of a JSON array (text[0..len) starts with it). */
static int read_weights_json(const char *text, size_t len, const char *path, double **out,
                             size_t *count, char *why, size_t size)
{
    json_error_t je;
    json_t *arr = json_loadb(text, len, JSON_DECODE_INT_AS_REAL, &je);
    if (arr == NULL) {
        snprintf(why, size, "%s:%d:%d: malformed JSON: %s", path, je.line, je.column, je.text);
        return -1;
    }
    if (!json_is_array(arr)) {
        snprintf(why, size, "%s: the weights must be a JSON array of numbers", path);
        json_decref(arr);
        return -1;
    }
    size_t n = json_array_size(arr);
    double *w = malloc((n ? n : 1) * sizeof *w);
    if (w == NULL) {
        snprintf(why, size, "%s: out of memory", path);
        json_decref(arr);
        return -1;
    }
    for (size_t k = 0; k < n; k++) {
        json_t *v = json_array_get(arr, k);
        int bad = !json_is_number(v);
        if (bad)
            snprintf(why, size, "%s: weight %zu is not a number", path, k + 1);
        else
            w[k] = json_number_value(v);
        if (bad || check_weight(path, 0, k + 1, w[k], why, size) != 0) {
            json_decref(arr);
            free(w);
            return -1;
        }
    }
    json_decref(arr);
    *out = w;
    *count = n;
    return 0;
}

/* The weights of a text file: numbers separated by white space, '#' to the end of a line
 * a comment. */
static int read_weights_text(tool_text *t, const char *path, double **out, size_t *count,
                             char *why, size_t size)
{
    double *w = NULL;
    size_t cap = 0, n = 0, len;
    char *line;
    while ((line = tool_text_line(t, &len)) != NULL) {
        line[strcspn(line, "#")] = '\0';
        for (char *p = line;;) {
            while (isspace((unsigned char)*p))
                p++;
            if (*p == '\0')
                break;
            char *word = p;
            while (*p != '\0' && !isspace((unsigned char)*p))
                p++;
            char end = *p;
            *p = '\0';
            double v, *g = tool_grow(w, &cap, n + 1, sizeof *w);
            if (g == NULL) {
                snprintf(why, size, "%s: out of memory", path);
                free(w);
                return -1;
            }
            w = g;
            if (tool_number(word, &v) != 0) {
                snprintf(why, size, "%s:%zu: \"%.*s%s\" is not a number", path, t->line,
                         WORD_QUOTED, word, strlen(word) > WORD_QUOTED ? "..." : "");
                free(w);
                return -1;
            }
            if (check_weight(path, t->line, n + 1, v, why, size) != 0) {
                free(w);
                return -1;
            }
            w[n++] = v;
            *p = end;
        }
    }
    if (w == NULL && (w = malloc(sizeof *w)) == NULL) {
        snprintf(why, size, "%s: out of memory", path);
        return -1;
    }
    *out = w;
    *count = n;
    return 0;
}

/* Reads weights: a JSON array, or numbers separated by white space ('#' starts a comment). */
int tool_read_weights(const char *path, double **out, uint64_t *count, char *why, size_t size)
{
    tool_text t;
    if (tool_text_read(path, "weights", &t, why, size) != EXIT_DONE)
        return -1;
    size_t first = t.pos;
    while (first < t.len && isspace((unsigned char)t.text[first]))
        first++;
    double *w = NULL;
    size_t n = 0;
    int rc = first < t.len && t.text[first] == '['
                 ? read_weights_json(t.text + t.pos, t.len - t.pos, path, &w, &n, why, size)
                 : read_weights_text(&t, path, &w, &n, why, size);
    tool_text_free(&t);
    if (rc != 0)
        return -1;
    *out = w;
    *count = n;
    return 0;
}
