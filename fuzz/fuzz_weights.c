/* Fuzz target: the weights file of `dlsched partition --weights FILE`. The first byte of the
 * input chooses the options and one of four small platforms; the rest is the weights file,
 * which the program reads and partitions through its own dispatcher:
 *
 *     dlsched partition PLATFORM --weights FILE [--ordered [--reorder]] [--no-limits]
 *                       [--method bisection] [--json] [--elements 3]
 *
 *   bit 0  --ordered             bit 3  --method bisection
 *   bit 1  --reorder (ordered)   bit 4  --json
 *   bit 2  --no-limits           bits 5-6  the platform (constant speeds with a limit,
 *   bit 7  --elements 3                    speed points, time lines, a star cluster)
 */
#include <config.h>

#include <string.h>

#include "harness.h"

const char dls_fuzz_target[] = "weights";

/* Platforms of tests/data/ and examples/: each kind of model partitions differently. */
static const char *const platforms[] = {
    /* tests/data/lu_constant.json: constant speeds, one limit */
    "{\"processors\": [{\"name\": \"a\", \"speed\": 3}, {\"name\": \"b\", \"speed\": 1},\n"
    "  {\"name\": \"c\", \"speed\": 1.5, \"limit\": 13}]}\n",
    /* tests/data/shape_warning.json: speed points that are not shape-safe */
    "{\"processors\": [\n"
    "  {\"name\": \"steep\", \"speed\": {\"points\": [[1, 1], [2, 5], [3, 6]]}},\n"
    "  {\"name\": \"flat\", \"speed\": 3}]}\n",
    /* examples/star_two.json: time lines */
    "{\"processors\": [\n"
    "  {\"name\": \"P1\", \"time\": [[1, 1], [-9, 10]], \"link\": {\"startup\": 1, \"rate\": 1}},\n"
    "  {\"name\": \"P2\", \"time\": [[1, 1], [-9, 10]], \"link\": {\"startup\": 1, \"rate\": 1}}]}\n",
    /* examples/star_cluster.json, shortened: time lines, speed points, limits */
    "{\"processors\": [\n"
    "  {\"name\": \"xeon-a\", \"time\": [[0, 1e-4], [-180, 1e-3]]},\n"
    "  {\"name\": \"epyc\", \"time\": [[0, 4e-5], [-60, 4.4e-4], [-1260, 4.4e-3]], "
    "\"limit\": 8e5},\n"
    "  {\"name\": \"laptop\", \"speed\": {\"points\": [[1e3, 2e3], [5e4, 6e3], [1e5, 5e3], "
    "[2e5, 1.2e3]]}, \"limit\": 3e5}]}\n",
};

int dls_fuzz_one(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    unsigned bits = data[0];
    const char *platform = platforms[(bits >> 5) & 3];
    dls_fuzz_clean();
    if (dls_fuzz_write("platform.json", platform, strlen(platform)) != 0 ||
        dls_fuzz_write("weights", data + 1, size - 1) != 0)
        return 0;
    char ppath[1100], wpath[1100];
    char *argv[16];
    int argc = 0;
    argv[argc++] = "dlsched";
    argv[argc++] = "partition";
    argv[argc++] = (char *)dls_fuzz_path("platform.json", ppath, sizeof ppath);
    argv[argc++] = "--weights";
    argv[argc++] = (char *)dls_fuzz_path("weights", wpath, sizeof wpath);
    if (bits & 1) {
        argv[argc++] = "--ordered";
        if (bits & 2)
            argv[argc++] = "--reorder";
    }
    if (bits & 4)
        argv[argc++] = "--no-limits";
    if (bits & 8) {
        argv[argc++] = "--method";
        argv[argc++] = "bisection";
    }
    if (bits & 16)
        argv[argc++] = "--json";
    if (bits & 128) {
        argv[argc++] = "--elements";
        argv[argc++] = "3";
    }
    argv[argc] = NULL;
    int rc = dls_fuzz_tool(argc, argv);
    /* the program's exit statuses: done, infeasible, bad input; 3 (the computation failed)
     * only for a lack of memory, which these inputs cannot cause */
    FUZZ_CHECK(rc == 0 || rc == 1 || rc == 2);
    return 0;
}
