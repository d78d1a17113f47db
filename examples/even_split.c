/* even_split: the simplest scheduler there is, an even split of the load over every
 * processor, written the way any tool can write a plan for `dlsched verify` and
 * `dlsched validate` to check: a CSV table, one row per processor in send order. Uses only
 * the public API (to read the platform's processor names).
 *
 *   cc even_split.c $(pkg-config --cflags --libs dlsched) -o even_split
 *   ./even_split examples/star_cluster.json 1e6 plan.csv            # name,load
 *   ./even_split examples/striped_mm.json 300 plan.csv matrix       # name,elements
 *   ./even_split examples/star_cluster.json 8 plan.json weighted w.txt ordered
 *   dlsched validate --scheduler \
 *       './even_split {platform} {load} {output} {kind} {weights} {ordered}'
 *
 * KIND is schedule (default: loads, any real numbers), partition or matrix (whole elements
 * or rows: the remainder goes one each to the first processors), or weighted: the elements
 * of WEIGHTS (numbers, white space or a JSON array) dealt so that each processor holds about
 * the same weight, written as the JSON of `dlsched partition --weights --json` with its
 * "assignment": ORDERED cuts the sequence into contiguous chunks in platform order, else
 * the heaviest element goes first to the lightest processor. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dlsched.h>

/* A name as a CSV field: quoted, its quotes doubled (names may hold commas and quotes). */
static void put_name(FILE *f, const char *name)
{
    fputc('"', f);
    for (const char *p = name; *p; p++) {
        if (*p == '"')
            fputc('"', f);
        fputc(*p, f);
    }
    fputc('"', f);
}

/* A name as a JSON string. */
static void put_json_name(FILE *f, const char *name)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

/* The weights of a file: numbers separated by white space, commas or brackets (so a JSON
 * array too); '#' starts a comment. NULL on failure (after a message). */
static double *read_weights(const char *path, size_t *n)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        perror(path);
        return NULL;
    }
    size_t cap = 64;
    double *w = malloc(cap * sizeof *w);
    char tok[128];
    int c;
    *n = 0;
    while (w != NULL && (c = fgetc(f)) != EOF) {
        if (c == '#') {
            while ((c = fgetc(f)) != EOF && c != '\n')
                ;
            continue;
        }
        if (strchr(" \t\r\n,[]", c) != NULL)
            continue;
        size_t t = 0;
        while (c != EOF && strchr(" \t\r\n,[]#", c) == NULL && t + 1 < sizeof tok) {
            tok[t++] = (char)c;
            c = fgetc(f);
        }
        tok[t] = '\0';
        if (c != EOF)
            ungetc(c, f);
        char *end;
        double v = strtod(tok, &end);
        if (*end != '\0' || !(v > 0) || !isfinite(v)) {
            fprintf(stderr, "%s: \"%s\" is not a weight > 0\n", path, tok);
            free(w);
            w = NULL;
            break;
        }
        if (*n == cap) {
            double *g = realloc(w, 2 * cap * sizeof *w);
            if (g == NULL) {
                free(w);
                w = NULL;
                break;
            }
            w = g;
            cap *= 2;
        }
        w[(*n)++] = v;
    }
    fclose(f);
    return w;
}

/* Weighted elements dealt evenly by weight over the p processors: owner[e]. Ordered:
 * element e goes to the processor whose share [k W / p, (k + 1) W / p) holds the middle of
 * its weight; else the heaviest element first, each to the lightest processor so far. */
static void deal(const double *w, size_t n, size_t p, int ordered, size_t *owner, double *held)
{
    double total = 0;
    for (size_t e = 0; e < n; e++)
        total += w[e];
    for (size_t i = 0; i < p; i++)
        held[i] = 0;
    double before = 0;
    for (size_t e = 0; e < n && ordered; e++) {
        size_t k = (size_t)((before + w[e] / 2) / total * (double)p);
        owner[e] = k < p ? k : p - 1;
        before += w[e];
    }
    for (size_t done = 0; done < n && !ordered; done++) {
        size_t heaviest = 0, lightest = 0;
        for (size_t e = 0; e < n; e++) /* quadratic: an example, for small sets */
            if (owner[e] == SIZE_MAX && (owner[heaviest] != SIZE_MAX || w[e] > w[heaviest]))
                heaviest = e;
        for (size_t i = 1; i < p; i++)
            if (held[i] < held[lightest])
                lightest = i;
        owner[heaviest] = lightest;
        held[lightest] += w[heaviest];
    }
    for (size_t i = 0; i < p && ordered; i++)
        held[i] = 0;
    for (size_t e = 0; e < n && ordered; e++)
        held[owner[e]] += w[e];
}

/* A weighted plan, as `dlsched partition --weights --json` writes it. */
static int weighted_plan(const dls_platform *platform, const char *wpath, int ordered,
                         FILE *out)
{
    size_t n, p = dls_platform_count(platform);
    double *w = read_weights(wpath, &n);
    if (w == NULL)
        return 2;
    size_t *owner = malloc((n ? n : 1) * sizeof *owner);
    double *held = malloc(p * sizeof *held);
    size_t *count = calloc(p, sizeof *count);
    if (owner == NULL || held == NULL || count == NULL) {
        fprintf(stderr, "out of memory\n");
        free(w);
        free(owner);
        free(held);
        free(count);
        return 1;
    }
    for (size_t e = 0; e < n; e++)
        owner[e] = SIZE_MAX;
    deal(w, n, p, ordered, owner, held);
    fprintf(out, "{\"elements\": %zu, \"assignment\": [", n);
    for (size_t e = 0; e < n; e++) {
        fprintf(out, "%s%zu", e ? ", " : "", owner[e]);
        count[owner[e]]++;
    }
    fprintf(out, "],\n \"processors\": [");
    for (size_t i = 0; i < p; i++) {
        fprintf(out, "%s\n  {\"name\": ", i ? "," : "");
        put_json_name(out, dls_platform_name(platform, i));
        fprintf(out, ", \"elements\": %zu, \"weight\": %.17g}", count[i], held[i]);
    }
    fprintf(out, "]}\n");
    free(w);
    free(owner);
    free(held);
    free(count);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 4 || argc > 7) {
        fprintf(stderr, "usage: %s PLATFORM LOAD OUTPUT [schedule|partition|matrix|weighted "
                "[WEIGHTS [ordered|unordered]]]\n", argv[0]);
        return 2;
    }
    const char *kind = argc >= 5 ? argv[4] : "schedule";
    if (strcmp(kind, "weighted") == 0 && (argc < 6 || argv[5][0] == '\0')) {
        fprintf(stderr, "%s: weighted: give the weights file\n", argv[0]);
        return 2;
    }
    int whole = strcmp(kind, "schedule") != 0;
    char *end;
    double load = strtod(argv[2], &end);
    if (*end != '\0' || !(load > 0) || !isfinite(load) || (whole && load != floor(load))) {
        fprintf(stderr, "%s: the load must be a number > 0 (whole for %s): %s\n", argv[0],
                kind, argv[2]);
        return 2;
    }
    dls_error err;
    dls_platform *platform;
    if (dls_platform_read_file(argv[1], &platform, &err) != DLS_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 2;
    }
    FILE *out = strcmp(argv[3], "-") == 0 ? stdout : fopen(argv[3], "w");
    if (out == NULL) {
        perror(argv[3]);
        dls_platform_free(platform);
        return 1;
    }
    size_t n = dls_platform_count(platform);
    if (strcmp(kind, "weighted") == 0) {
        int rc = weighted_plan(platform, argv[5], argc == 7 && strcmp(argv[6], "ordered") == 0,
                               out);
        if (out != stdout && fclose(out) != 0)
            rc = 1;
        dls_platform_free(platform);
        return rc;
    }
    fprintf(out, "name,%s\n", whole ? "elements" : "load");
    double each = whole ? floor(load / (double)n) : load / (double)n;
    double rest = whole ? load - each * (double)n : 0;
    for (size_t i = 0; i < n; i++) {
        put_name(out, dls_platform_name(platform, i));
        if (whole)
            fprintf(out, ",%.0f\n", each + ((double)i < rest ? 1 : 0));
        else
            fprintf(out, ",%.17g\n", each);
    }
    int rc = ferror(out) ? 1 : 0;
    if (out != stdout && fclose(out) != 0)
        rc = 1;
    dls_platform_free(platform);
    return rc;
}
