/* Fuzz target: the measurement log that `dlsched bench --resume` reads back. The first byte
 * of the input chooses the options; the rest is the log, which the program resumes through
 * its own dispatcher:
 *
 *     dlsched bench --kernel synthetic --resume --log LOG --quiet -o OUT|-
 *                   [--json] [--max-points K] [--noise 0] [--min-size 1e3 --max-size 1e6]
 *
 *   bit 0  --json                 bit 3  --noise 0
 *   bits 1-2  --max-points 5, 8, 16 or the default (40)
 *   bit 4  --min-size 1e3 --max-size 1e6     bit 5  -o - (the platform on standard output)
 *
 * Only the synthetic kernel: its times are simulated from a known speed function, so a run
 * is deterministic and takes milliseconds, where the BLAS kernels measure this machine. The
 * log's first line must be the header of this very measurement (the seeds hold it); the
 * points that follow are what the resumed build takes instead of measuring. */
#include <config.h>

#include "harness.h"

const char dls_fuzz_target[] = "bench_log";

int dls_fuzz_one(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    unsigned bits = data[0];
    dls_fuzz_clean();
    if (dls_fuzz_write("bench.log", data + 1, size - 1) != 0)
        return 0;
    static const char *const max_points[] = {"5", "8", "16", NULL};
    char lpath[1100], opath[1100];
    char *argv[24];
    int argc = 0;
    argv[argc++] = "dlsched";
    argv[argc++] = "bench";
    argv[argc++] = "--kernel";
    argv[argc++] = "synthetic";
    argv[argc++] = "--resume";
    argv[argc++] = "--log";
    argv[argc++] = (char *)dls_fuzz_path("bench.log", lpath, sizeof lpath);
    argv[argc++] = "--quiet";
    argv[argc++] = "-o";
    argv[argc++] = bits & 32 ? "-" : (char *)dls_fuzz_path("platform.json", opath, sizeof opath);
    if (bits & 1)
        argv[argc++] = "--json";
    if (max_points[(bits >> 1) & 3] != NULL) {
        argv[argc++] = "--max-points";
        argv[argc++] = (char *)max_points[(bits >> 1) & 3];
    }
    if (bits & 8) {
        argv[argc++] = "--noise";
        argv[argc++] = "0";
    }
    if (bits & 16) {
        argv[argc++] = "--min-size";
        argv[argc++] = "1e3";
        argv[argc++] = "--max-size";
        argv[argc++] = "1e6";
    }
    argv[argc] = NULL;
    int rc = dls_fuzz_tool(argc, argv);
    /* done, or the log refused (bad input); 3 (the computation failed) means the library
     * could not build a model from points the reader accepted */
    FUZZ_CHECK(rc == 0 || rc == 2);
    return 0;
}
