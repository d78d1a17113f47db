/* Benchmark of reading a large platform file (issue 13, item 4: `dlsched check` of a star
 * platform of 10^6 processors in at most 3 s and 600 MB). A platform of N processors is
 * written with the recipe of tests/bench/gen_star.sh (two memory levels as time lines, a
 * link, a limit one processor in seven; its numbers from the benchmarks' xorshift
 * generator), or a given file is taken as it is. Then, each in a process of its own and the
 * fastest of --runs runs kept:
 *   - dls_platform_read_file() alone;
 *   - jansson's tree of the same file (json_load_file with the flags the former reader
 *     gave json_loadb): what the former reader cost before it even walked the tree;
 *   - `dlsched check FILE > /dev/null`, the whole command, with the tool given by --tool;
 * each with its CPU time (user + system) and the peak resident size of its process.
 * Goal, for the whole command: at most 3 microseconds and 600 bytes a processor (3 s and
 * 600 MB at 10^6), once the cost of checking a file of one processor (starting the
 * process: libraries, OpenBLAS's threads) is taken off. Without --tool the goal is not
 * checked. Wall times on a shared machine vary with its load: they are printed with the
 * load average, and the CPU times beside them are the steadier figures.
 *
 * usage: bench_reader [--processors N] [--seed S] [--runs R] [--tool DLSCHED] [--no-jansson]
 *                     [FILE]
 *   make bench: 10^5 processors; 10^6 (135 MB, the size):
 *   ./tests/bench/bench_reader --processors 1000000 --tool ./tool/dlsched
 */
#include <fcntl.h>
#include <jansson.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "benchutil.h"

/* The goal of issue 13, per processor. */
#define GOAL_SECONDS_PER_PROC 3e-6
#define GOAL_BYTES_PER_PROC 600.0
/* The default size: make bench stays quick. */
#define DEFAULT_PROCESSORS 100000

typedef struct figures {
    double wall;  /* seconds: the fastest run */
    double cpu;   /* seconds of user and system time: the smallest */
    double peak;  /* bytes of resident memory at the peak: the largest */
    size_t count; /* processors read (in-process measures) */
} figures;

/* Writes a star platform of n processors to path with the recipe of gen_star.sh. */
static void write_star(const char *path, size_t n)
{
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        perror(path);
        exit(2);
    }
    fprintf(f, "{\"processors\": [\n");
    for (size_t i = 0; i < n; i++) {
        double b1 = bench_logu(3e-4, 3e-3), b2 = b1 * bench_logu(5, 20);
        double swap = bench_logu(3e5, 3e6);
        fprintf(f, "  {\"name\": \"node%07zu\", \"time\": [[0, %.6g], [%.6g, %.6g]], ", i, b1,
                (b1 - b2) * swap, b2);
        fprintf(f, "\"link\": {\"startup\": %.6g, \"rate\": %.6g}", bench_logu(3e-4, 3e-3),
                bench_logu(3e-7, 3e-6));
        if (i % 7 == 3)
            fprintf(f, ", \"limit\": %.6g", bench_logu(1e6, 1e7));
        fprintf(f, "}%s\n", i + 1 < n ? "," : "");
    }
    fprintf(f, "]}\n");
    if (fclose(f) != 0) {
        perror(path);
        exit(2);
    }
}

/* A temporary file name ending in .json, created empty; exits on failure. */
static void temp_json(char *path, size_t size)
{
    const char *dir = getenv("TMPDIR");
    snprintf(path, size, "%s/dlsched-bench-XXXXXX.json", dir && *dir ? dir : "/tmp");
    int fd = mkstemps(path, 5);
    if (fd < 0) {
        perror(path);
        exit(2);
    }
    close(fd);
}

static double seconds(struct timeval t)
{
    return (double)t.tv_sec + 1e-6 * (double)t.tv_usec;
}

/* Waits for child; returns its exit status (-1 when it did not exit) and fills cpu and
 * peak from its resource usage. */
static int reap(pid_t child, double *cpu, double *peak)
{
    int status = 0;
    struct rusage u;
    if (wait4(child, &status, 0, &u) != child)
        return -1;
    *cpu = seconds(u.ru_utime) + seconds(u.ru_stime);
    *peak = 1024.0 * (double)u.ru_maxrss; /* Linux: kilobytes */
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* What a run measures: a read in a process of its own (the library's, jansson's tree), or
 * the whole command. */
enum { READ_LIBRARY, READ_JANSSON, CHECK };

/* One run of a read in a child process: its wall time and processors come back through a
 * pipe, its CPU time and peak from the kernel. Exits on failure. */
static figures run_read(const char *path, int how)
{
    int p[2];
    if (pipe(p) != 0)
        exit(2);
    fflush(stdout);
    pid_t child = fork();
    if (child < 0)
        exit(2);
    if (child == 0) {
        close(p[0]);
        double t = bench_now(), wall;
        size_t count = 0;
        if (how == READ_LIBRARY) {
            dls_platform *pl;
            dls_error err;
            dls_status st = dls_platform_read_file(path, &pl, &err);
            wall = bench_now() - t;
            if (st != DLS_OK) {
                fprintf(stderr, "%s\n", err.message);
                _exit(2);
            }
            count = dls_platform_count(pl);
        } else {
            json_error_t je;
            json_t *root =
                json_load_file(path, JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, &je);
            wall = bench_now() - t;
            if (root == NULL) {
                fprintf(stderr, "%s:%d:%d: %s\n", path, je.line, je.column, je.text);
                _exit(2);
            }
            count = json_array_size(json_object_get(root, "processors"));
        }
        char line[64];
        int n = snprintf(line, sizeof line, "%.9f %zu\n", wall, count);
        ssize_t w = write(p[1], line, (size_t)n);
        _exit(w == n ? 0 : 2);
    }
    close(p[1]);
    char line[64] = "";
    ssize_t n = read(p[0], line, sizeof line - 1);
    close(p[0]);
    figures f = {0, 0, 0, 0};
    if (reap(child, &f.cpu, &f.peak) != 0 || n <= 0 ||
        sscanf(line, "%lf %zu", &f.wall, &f.count) != 2) {
        fprintf(stderr, "bench_reader: could not read %s\n", path);
        exit(2);
    }
    return f;
}

/* One run of `tool check path > /dev/null`. Exits on failure. */
static figures run_check(const char *tool, const char *path)
{
    fflush(stdout);
    double t = bench_now();
    pid_t child = fork();
    if (child < 0)
        exit(2);
    if (child == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null < 0 || dup2(null, STDOUT_FILENO) < 0)
            _exit(2);
        execl(tool, tool, "check", path, (char *)NULL);
        _exit(127);
    }
    figures f = {0, 0, 0, 0};
    int st = reap(child, &f.cpu, &f.peak);
    f.wall = bench_now() - t;
    if (st != 0) {
        fprintf(stderr, "bench_reader: %s check %s failed (status %d)\n", tool, path, st);
        exit(2);
    }
    return f;
}

/* The fastest of runs runs of what (CHECK: with tool): the smallest wall and CPU times, the
 * largest peak. */
static figures best_of(int runs, int what, const char *tool, const char *path)
{
    figures best = {INFINITY, INFINITY, 0, 0};
    for (int r = 0; r < runs; r++) {
        figures f = what == CHECK ? run_check(tool, path) : run_read(path, what);
        best.wall = fmin(best.wall, f.wall);
        best.cpu = fmin(best.cpu, f.cpu);
        best.peak = fmax(best.peak, f.peak);
        best.count = f.count;
    }
    return best;
}

static void row(const char *what, figures f)
{
    printf("%-40s %9.3f %9.3f %10.1f\n", what, f.wall, f.cpu, f.peak / 1e6);
}

int main(int argc, char **argv)
{
    size_t n = DEFAULT_PROCESSORS;
    int runs = 3, no_jansson = 0;
    const char *tool = NULL, *file = NULL;
    const char *usage = "[--processors N] [--seed S] [--runs R] [--tool DLSCHED] "
                        "[--no-jansson] [FILE]";
    const bench_option options[] = {
        {"--processors", BENCH_SIZE, &n},
        {"--seed", BENCH_SEED, NULL},
        {"--runs", BENCH_INT, &runs},
        {"--tool", BENCH_STRING, &tool},
        {"--no-jansson", BENCH_FLAG, &no_jansson},
    };
    bench_options(argc, argv, options, sizeof options / sizeof *options, &file, usage);
    if (runs < 1 || n < 1) {
        fprintf(stderr, "usage: %s %s\n", argv[0], usage);
        return 2;
    }

    char made[4096] = "", one[4096];
    const char *path = file;
    if (path == NULL) {
        temp_json(made, sizeof made);
        double t = bench_now();
        write_star(made, n);
        printf("wrote %zu processors to %s in %.1f s\n", n, made, bench_now() - t);
        path = made;
    }
    FILE *f = fopen(path, "rb");
    if (f == NULL || fseek(f, 0, SEEK_END) != 0) {
        perror(path);
        return 2;
    }
    double bytes = (double)ftell(f);
    fclose(f);
    double load[1] = {NAN};
    if (getloadavg(load, 1) != 1)
        load[0] = NAN;
    printf("%s: %.1f MB; fastest of %d run%s; load average %.2f\n", path, bytes / 1e6, runs,
           runs == 1 ? "" : "s", load[0]);
    printf("%-40s %9s %9s %10s\n", "", "wall (s)", "cpu (s)", "peak (MB)");

    figures rd = best_of(runs, READ_LIBRARY, NULL, path);
    n = rd.count;
    row("dls_platform_read_file", rd);
    if (!no_jansson)
        row("jansson's tree (json_load_file)", best_of(runs, READ_JANSSON, NULL, path));
    int met = 1;
    if (tool != NULL) {
        temp_json(one, sizeof one);
        FILE *o = fopen(one, "w");
        if (o == NULL || fputs("{\"processors\": [{\"name\": \"p\", \"time\": [[0, 1e-3]]}]}\n",
                               o) < 0 || fclose(o) != 0) {
            perror(one);
            return 2;
        }
        figures base = best_of(runs, CHECK, tool, one), all = best_of(runs, CHECK, tool, path);
        unlink(one);
        row("dlsched check, one processor", base);
        row("dlsched check", all);
        double us = 1e6 * (all.wall - base.wall) / (double)n;
        double b = (all.peak - base.peak) / (double)n;
        met = us <= 1e6 * GOAL_SECONDS_PER_PROC && b <= GOAL_BYTES_PER_PROC;
        printf("dlsched check, less one processor's: %.2f us and %.0f bytes a processor "
               "(goal <= %.0f us and %.0f bytes: %.1f s and %.0f MB at 10^6): %s\n", us, b,
               1e6 * GOAL_SECONDS_PER_PROC, GOAL_BYTES_PER_PROC,
               GOAL_SECONDS_PER_PROC * 1e6, GOAL_BYTES_PER_PROC, met ? "met" : "MISSED");
    }
    if (made[0] != '\0')
        unlink(made);
    return met ? 0 : 1;
}
