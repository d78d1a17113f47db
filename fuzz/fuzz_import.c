/* Fuzz target: the files `dlsched import` reads, StarPU performance models and CSV timings.
 * The first byte of the input chooses the reader and its options; the rest is the file:
 *
 *     dlsched import starpu FILE -o OUT [--keep-few] [--min-samples 1] [--arch cuda0]
 *                           [--size-unit elements] [--json]
 *     dlsched import csv FILE -o OUT [--columns size,time,stddev,count] [--delimiter ;]
 *                           [--json]
 *
 *   bit 0  csv (else starpu)     bit 3  starpu --arch cuda0;  csv --delimiter ;
 *   bit 1  --json                bit 4  starpu --size-unit elements
 *   bit 2  starpu --keep-few;    bit 5  starpu --min-samples 1
 *          csv --columns size,time,stddev,count
 *
 * What an import writes must be a platform that `dlsched check` accepts, and that
 * `dlsched export-model --format csv` writes and `import csv` reads back; the program must
 * exit with one of its documented statuses. */
#include <config.h>

#include <string.h>

#include "harness.h"

const char dls_fuzz_target[] = "import";

int dls_fuzz_one(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    unsigned bits = data[0];
    int csv = bits & 1;
    dls_fuzz_clean();
    if (dls_fuzz_write("model", data + 1, size - 1) != 0)
        return 0;
    char in[1100], out[1100], csvpath[1100], back[1100];
    dls_fuzz_path("model", in, sizeof in);
    dls_fuzz_path("out.json", out, sizeof out);
    dls_fuzz_path("out.csv", csvpath, sizeof csvpath);
    dls_fuzz_path("back.json", back, sizeof back);
    char *argv[20];
    int argc = 0;
    argv[argc++] = "dlsched";
    argv[argc++] = "import";
    argv[argc++] = csv ? "csv" : "starpu";
    argv[argc++] = in;
    argv[argc++] = "-o";
    argv[argc++] = out;
    if (bits & 2)
        argv[argc++] = "--json";
    if (bits & 4) {
        argv[argc++] = csv ? "--columns" : "--keep-few";
        if (csv)
            argv[argc++] = "size,time,stddev,count";
    }
    if (bits & 8) {
        argv[argc++] = csv ? "--delimiter" : "--arch";
        argv[argc++] = csv ? ";" : "cuda0";
    }
    if (!csv && (bits & 16)) {
        argv[argc++] = "--size-unit";
        argv[argc++] = "elements";
    }
    if (!csv && (bits & 32)) {
        argv[argc++] = "--min-samples";
        argv[argc++] = "1";
    }
    argv[argc] = NULL;
    int rc = dls_fuzz_tool(argc, argv);
    /* done, or bad input: nothing else (3 only when memory runs out) */
    FUZZ_CHECK(rc == 0 || rc == 2);
    if (rc != 0)
        return 0;
    char *check[] = {"dlsched", "check", out, NULL};
    FUZZ_CHECK(dls_fuzz_tool(3, check) == 0);
    /* the way back and forth through CSV */
    char *exp[] = {"dlsched", "export-model", out, "--format", "csv", "-o", csvpath, NULL};
    FUZZ_CHECK(dls_fuzz_tool(7, exp) == 0);
    char *imp[] = {"dlsched", "import", "csv", csvpath, "-o", back, NULL};
    FUZZ_CHECK(dls_fuzz_tool(6, imp) == 0);
    return 0;
}
