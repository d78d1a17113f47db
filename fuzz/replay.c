/* Replays inputs through a fuzz target without libFuzzer: `make check` runs it over the
 * target's corpus (fuzz/corpus/TARGET/) and over every input that once crashed, hung or
 * leaked (fuzz/regressions/TARGET/), in every build (gcc, clang, the sanitizer builds).
 *
 *     replay_TARGET                 the corpus and the regressions of TARGET
 *     replay_TARGET FILE|DIR...     these inputs (a folder: its files, by name)
 *
 * An input that takes more than DLS_FUZZ_TIMEOUT_S seconds fails the run: the alarm stops
 * one that hangs. Exit status 0 when every input ran, 1 otherwise. */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

/* The input being run, for the alarm's message. */
static const char *current;

static void on_alarm(int sig)
{
    (void)sig;
    static const char head[] = "replay: input takes more than the time allowed: ";
    ssize_t ignored = write(2, head, sizeof head - 1);
    ignored = write(2, current, strlen(current));
    ignored = write(2, "\n", 1);
    (void)ignored;
    _exit(1);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct tally {
    size_t inputs, failed;
    double total, slowest;
    char slowest_name[1024];
} tally;

/* Reads the whole file into a buffer of its exact size (so that the sanitizers catch a read
 * past its end); NULL after a message. */
static uint8_t *read_input(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return NULL;
    }
    uint8_t *data = NULL;
    size_t n = 0;
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0 && sb.st_size >= 0) {
        n = (size_t)sb.st_size;
        data = malloc(n ? n : 1);
        if (data != NULL && fread(data, 1, n, f) != n) {
            free(data);
            data = NULL;
        }
    }
    fclose(f);
    if (data == NULL)
        fprintf(stderr, "replay: %s: cannot read\n", path);
    *size = n;
    return data;
}

static void run_file(const char *path, tally *t)
{
    size_t size;
    uint8_t *data = read_input(path, &size);
    if (data == NULL) {
        t->failed++;
        return;
    }
    current = path;
    double t0 = now();
    alarm(DLS_FUZZ_TIMEOUT_S + 1);
    dls_fuzz_one(data, size);
    alarm(0);
    double dt = now() - t0;
    free(data);
    t->inputs++;
    t->total += dt;
    if (dt > t->slowest) {
        t->slowest = dt;
        snprintf(t->slowest_name, sizeof t->slowest_name, "%s", path);
    }
    if (dt > DLS_FUZZ_TIMEOUT_S) {
        fprintf(stderr, "replay: %s took %.1f s, more than %d s\n", path, dt, DLS_FUZZ_TIMEOUT_S);
        t->failed++;
    }
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_input(const struct dirent *e)
{
    return e->d_name[0] != '.';
}

/* A file, or every file of a folder (names starting with '.' excepted). `optional`: a folder
 * that does not exist holds no input. */
static void run_path(const char *path, int optional, tally *t)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        if (optional && errno == ENOENT)
            return;
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        t->failed++;
        return;
    }
    if (!S_ISDIR(sb.st_mode)) {
        run_file(path, t);
        return;
    }
    struct dirent **names;
    int n = scandir(path, &names, is_input, by_name);
    if (n < 0) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        t->failed++;
        return;
    }
    for (int i = 0; i < n; i++) {
        char file[2048];
        snprintf(file, sizeof file, "%s/%s", path, names[i]->d_name);
        if (stat(file, &sb) == 0 && S_ISREG(sb.st_mode))
            run_file(file, t);
        free(names[i]);
    }
    free(names);
}

int main(int argc, char **argv)
{
    dls_fuzz_init();
    signal(SIGALRM, on_alarm);
    tally t;
    memset(&t, 0, sizeof t);
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            run_path(argv[i], 0, &t);
    } else {
        char dir[1024];
        snprintf(dir, sizeof dir, "%s/fuzz/corpus/%s", TOP_SRCDIR, dls_fuzz_target);
        run_path(dir, 0, &t);
        snprintf(dir, sizeof dir, "%s/fuzz/regressions/%s", TOP_SRCDIR, dls_fuzz_target);
        run_path(dir, 1, &t);
    }
    printf("replay_%s: %zu inputs in %.2f s", dls_fuzz_target, t.inputs, t.total);
    if (t.inputs > 0)
        printf(", the slowest %.2f s (%s)", t.slowest, t.slowest_name);
    printf("; %zu failed\n", t.failed);
    return t.failed == 0 && t.inputs > 0 ? 0 : 1;
}
