/* Benchmark of the memory a platform file costs to read (issue: limits on what one input
 * may cost, and memory linear in the input). For each platform file given (written by
 * tests/bench/gen_star.sh N), in a process of its own so that each peak is its own:
 *   - the file's bytes per processor;
 *   - the heap jansson's tree takes once the text is parsed (json_loadb, as the reader
 *     calls it), per processor and per byte of text;
 *   - the heap the platform itself keeps after dls_platform_read_file() returns;
 *   - the peak resident size of dls_platform_read_file() (getrusage), less the process's
 *     size before it, per processor.
 * Goal: memory linear in the input: the peak per processor of every file within 10% of
 * the first's.
 *
 * usage: bench_memory FILE...        (make bench: 10^4 and 10^5 processors)
 */
#include <jansson.h>
#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "benchutil.h"

#define GOAL_SPREAD 0.10

static long maxrss_kb(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

static double heap_in_use(void)
{
    struct mallinfo2 m = mallinfo2();
    return (double)(m.uordblks + m.hblkhd);
}

/* The file's text, or NULL. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* Measures one file in a child; writes "processors file_bytes tree platform peak" to fd. */
static void measure(const char *path, int fd)
{
    size_t len;
    char *text = slurp(path, &len);
    if (text == NULL)
        _exit(2);
    double h0 = heap_in_use();
    json_error_t je;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, &je);
    if (root == NULL)
        _exit(2);
    double tree = heap_in_use() - h0;
    json_decref(root);
    free(text);
    malloc_trim(0);
    /* the reader's own peak: in a grandchild, which starts from this process's size */
    int p[2];
    if (pipe(p) != 0)
        _exit(2);
    pid_t child = fork();
    if (child == 0) {
        close(p[0]);
        /* a platform of one processor read first: what any read costs once (the reader's
         * code paged in, its parser's fixed buffers) is not counted against the file */
        static const char one[] = "{\"processors\": [{\"name\": \"p\", \"speed\": 1}]}";
        dls_platform *warm;
        dls_error werr;
        bench_check(dls_platform_read_string(one, sizeof one - 1, "warm-up", &warm, &werr),
                    &werr);
        dls_platform_free(warm);
        long before = maxrss_kb();
        double h1 = heap_in_use();
        dls_platform *pl;
        dls_error err;
        bench_check(dls_platform_read_file(path, &pl, &err), &err);
        double kept = heap_in_use() - h1;
        char line[128];
        int n = snprintf(line, sizeof line, "%zu %zu %.0f %.0f %ld\n", dls_platform_count(pl),
                         len, tree, kept, maxrss_kb() - before);
        ssize_t w = write(p[1], line, (size_t)n);
        (void)w;
        _exit(0);
    }
    close(p[1]);
    char line[128];
    ssize_t n = read(p[0], line, sizeof line - 1);
    waitpid(child, NULL, 0);
    if (n <= 0)
        _exit(2);
    ssize_t w = write(fd, line, (size_t)n);
    (void)w;
    _exit(0);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE...   (files written by tests/bench/gen_star.sh N)\n",
                argv[0]);
        return 2;
    }
    printf("%10s %10s %9s | %10s %8s | %10s | %10s %10s\n", "processors", "file (MB)",
           "B/proc", "tree B/proc", "x text", "kept B/proc", "peak (MB)", "peak B/proc");
    double first = 0, spread = 0;
    for (int i = 1; i < argc; i++) {
        int p[2];
        if (pipe(p) != 0)
            return 2;
        pid_t child = fork();
        if (child == 0) {
            close(p[0]);
            measure(argv[i], p[1]);
        }
        close(p[1]);
        char line[128] = "";
        ssize_t n = read(p[0], line, sizeof line - 1);
        int status = 0;
        waitpid(child, &status, 0);
        if (n <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "bench_memory: could not measure %s\n", argv[i]);
            return 2;
        }
        size_t procs, len;
        double tree, kept;
        long peak_kb;
        if (sscanf(line, "%zu %zu %lf %lf %ld", &procs, &len, &tree, &kept, &peak_kb) != 5)
            return 2;
        double per = 1024.0 * (double)peak_kb / (double)procs;
        printf("%10zu %10.1f %9.1f | %10.1f %8.2f | %10.1f | %10.1f %10.1f\n", procs,
               (double)len / 1e6, (double)len / (double)procs, tree / (double)procs,
               tree / (double)len, kept / (double)procs, 1024.0 * (double)peak_kb / 1e6, per);
        if (i == 1)
            first = per;
        else
            spread = fmax(spread, fabs(per - first) / first);
    }
    printf("largest departure of the peak per processor from the first file's: %.1f%% "
           "(goal <= %.0f%%)\n", 100 * spread, 100 * GOAL_SPREAD);
    return spread <= GOAL_SPREAD ? 0 : 1;
}
