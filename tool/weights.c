/* The weights of a set of elements, as `partition --weights` and `verify --weights` read
 * them: a JSON array of numbers, or numbers separated by white space ('#' starts a
 * comment); each finite and > 0. */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/* Longest word of a weights file in text; a longer one is read as several. */
#define WEIGHT_TOKEN_MAX 128

/* The weights of a JSON array (the file is at its '['). Returns -1 with the message in why. */
static int read_weights_json(FILE *f, const char *path, double **out, size_t *count, char *why,
                             size_t size)
{
    json_error_t je;
    json_t *arr = json_loadf(f, JSON_DECODE_INT_AS_REAL, &je);
    if (arr == NULL) {
        snprintf(why, size, "%s:%d:%d: malformed JSON: %s", path, je.line, je.column, je.text);
        return -1;
    }
    if (!json_is_array(arr)) {
        snprintf(why, size, "%s: the weights must be a JSON array of numbers", path);
        json_decref(arr);
        return -1;
    }
    size_t len = json_array_size(arr);
    double *w = malloc((len ? len : 1) * sizeof *w);
    if (w == NULL) {
        snprintf(why, size, "%s: out of memory", path);
        json_decref(arr);
        return -1;
    }
    for (size_t k = 0; k < len; k++) {
        json_t *v = json_array_get(arr, k);
        if (!json_is_number(v)) {
            snprintf(why, size, "%s: weight %zu is not a number", path, k + 1);
            json_decref(arr);
            free(w);
            return -1;
        }
        w[k] = json_number_value(v);
    }
    json_decref(arr);
    *out = w;
    *count = len;
    return 0;
}

/* The next word of a text file of weights, skipping white space and '#' comments; 0 at the
 * end of the file. *line counts the lines. */
static int next_token(FILE *f, char *tok, size_t size, int *line)
{
    int c;
    for (;;) {
        c = fgetc(f);
        if (c == EOF)
            return 0;
        if (c == '\n') {
            (*line)++;
        } else if (c == '#') {
            while ((c = fgetc(f)) != EOF && c != '\n')
                ;
            (*line)++;
        } else if (!isspace(c)) {
            break;
        }
    }
    size_t t = 0;
    while (c != EOF && !isspace(c) && t + 1 < size) {
        tok[t++] = (char)c;
        c = fgetc(f);
    }
    tok[t] = '\0';
    if (c == '\n')
        ungetc(c, f);
    return 1;
}

/* The weights of a text file: numbers separated by white space. Returns -1 after a
 * message. */
static int read_weights_text(FILE *f, const char *path, double **out, size_t *count, char *why,
                             size_t size)
{
    char tok[WEIGHT_TOKEN_MAX];
    int line = 1;
    double *w = NULL;
    size_t cap = 0, n = 0;
    while (next_token(f, tok, sizeof tok, &line)) {
        char *end;
        double v = strtod(tok, &end);
        if (end == tok || *end != '\0') {
            snprintf(why, size, "%s:%d: \"%s\" is not a number", path, line, tok);
            free(w);
            return -1;
        }
        double *g = tool_grow(w, &cap, n + 1, sizeof *w);
        if (g == NULL) {
            snprintf(why, size, "%s: out of memory", path);
            free(w);
            return -1;
        }
        w = g;
        w[n++] = v;
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
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        snprintf(why, size, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    int c;
    while ((c = fgetc(f)) != EOF && isspace(c))
        ;
    if (c != EOF)
        ungetc(c, f);
    double *w = NULL;
    size_t n = 0;
    int rc = c == '[' ? read_weights_json(f, path, &w, &n, why, size)
                      : read_weights_text(f, path, &w, &n, why, size);
    fclose(f);
    if (rc != 0)
        return -1;
    for (size_t k = 0; k < n; k++)
        if (!isfinite(w[k]) || w[k] <= 0) {
            snprintf(why, size, "%s: weight %zu is %g; weights must be finite and > 0", path, k + 1, w[k]);
            free(w);
            return -1;
        }
    *out = w;
    *count = n;
    return 0;
}
