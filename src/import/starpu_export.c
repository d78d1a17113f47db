/* The way back to StarPU: a processor's points as a history-based performance model file,
 * and finding a codelet's model file the way StarPU does. */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/locale.h"
#include "import/import_impl.h"

/* A size in bytes is a whole number in the file (StarPU's %lu): a size whose conversion is
 * off a whole number by more than this, relative to it, is refused rather than rounded. */
#define EXPORT_WHOLE_TOLERANCE 1e-9
/* StarPU's interface id of the vector interface (STARPU_VECTOR_INTERFACE_ID), the same in
 * 1.3 and 1.4: it seeds the footprint of a handle. */
#define SP_VECTOR_INTERFACE_ID 2u
/* The polynomial of StarPU's footprint hash (CRC32C, big-endian form). */
#define SP_CRC32C_POLY_BE 0x1EDC6F41u
/* Candidate files listed at most in the message of an ambiguous symbol. */
#define FIND_LIST_MAX 8

void dls_starpu_export_params_init(dls_starpu_export_params *p)
{
    if (p == NULL)
        return;
    memset(p, 0, sizeof *p);
    p->arch = "cpu0";
    p->ncores = 1;
    p->size_unit = DLS_SIZE_UNIT_BYTES;
    p->element_size = DLS_DEFAULT_ELEMENT_SIZE;
    p->count = DLS_EXPORT_DEFAULT_COUNT;
    p->confidence = DLS_BENCH_DEFAULT_CONFIDENCE;
}

/* StarPU's starpu_hash_crc32c_be(): the CRC of the four bytes of input as they lie in
 * memory (StarPU hashes the integer's bytes in the host's order; we write for hosts of the
 * same order as this one). */
static uint32_t crc32c_be(uint32_t input, uint32_t crc)
{
    unsigned char b[4];
    memcpy(b, &input, sizeof b);
    for (int k = 0; k < 4; k++) {
        crc ^= (uint32_t)b[k] << 24;
        for (int i = 0; i < 8; i++)
            crc = (crc << 1) ^ ((crc & 0x80000000u) ? SP_CRC32C_POLY_BE : 0);
    }
    return crc;
}

/* The footprint StarPU gives a task of one vector of nx elements: the vector's own
 * (crc of nx), seeded by the interface id for the handle, then folded into the task's. */
static uint32_t vector_footprint(uint32_t nx)
{
    uint32_t handle = crc32c_be(crc32c_be(nx, 0), SP_VECTOR_INTERFACE_ID);
    return crc32c_be(handle, 0);
}

/* "cpu0" into a type and an id; -1 when it is not one device as StarPU names it. */
static int parse_arch(const char *arch, long *type, long *devid)
{
    size_t n = 0;
    while (arch[n] >= 'a' && arch[n] <= 'z')
        n++;
    if (n == 0 || arch[n] < '0' || arch[n] > '9')
        return -1;
    *type = dls__starpu_type(arch, n);
    char *end;
    errno = 0;
    long id = strtol(arch + n, &end, 10);
    if (*type < 0 || *end != '\0' || errno == ERANGE || id < 0 || id > INT32_MAX)
        return -1;
    *devid = id;
    return 0;
}

/* The parameters' checks, and the device they name: type and id. */
static dls_status export_params_check(const dls_starpu_export_params *params, const char *fn,
                                      long *type, long *devid, dls_error *err)
{
    dls_status st = DLS__CHECK_RESERVED(params, fn, dls_starpu_export_params, err);
    if (st != DLS_OK)
        return st;
    if (params->arch == NULL || parse_arch(params->arch, type, devid) != 0)
        return dls__fail(err, DLS_EINVAL, fn, "arch \"%s\" is not a device as StarPU names "
                         "them (cpu0, cuda0, opencl1, ...)",
                         params->arch ? params->arch : "(null)");
    if (params->ncores < 1 || params->ncores > INT32_MAX)
        return dls__fail(err, DLS_EINVAL, fn, "ncores must be at least 1");
    if (params->size_unit != DLS_SIZE_UNIT_BYTES && params->size_unit != DLS_SIZE_UNIT_ELEMENTS)
        return dls__fail(err, DLS_EINVAL, fn, "size_unit %d is not a dls_size_unit",
                         (int)params->size_unit);
    if (!(isfinite(params->element_size) && params->element_size > 0))
        return dls__fail(err, DLS_EINVAL, fn, "element_size must be finite and > 0, not %.10g",
                         params->element_size);
    if (params->count < 2)
        return dls__fail(err, DLS_EINVAL, fn, "count must be at least 2 (a deviation needs "
                         "two samples), not %u", params->count);
    if (!(params->confidence > 0 && params->confidence < 1))
        return dls__fail(err, DLS_EINVAL, fn, "confidence must be in (0, 1), not %.10g",
                         params->confidence);
    return DLS_OK;
}

/* The points of processor i, each of a size in bytes StarPU can hold. */
typedef struct export_points {
    const char *name;
    size_t n;
    const double *size, *speed, *low, *high;
    double to_bytes;
} export_points;

static dls_status export_points_get(const dls_platform *platform, size_t i,
                                    const dls_starpu_export_params *params, const char *fn,
                                    export_points *pt, dls_error *err)
{
    if (i >= dls_platform_count(platform))
        return dls__fail(err, DLS_EINVAL, fn, "processor %zu does not exist (the platform has "
                         "%zu)", i, dls_platform_count(platform));
    pt->name = dls_platform_name(platform, i);
    const char *name = pt->name;
    if (dls_model_get_points(dls_platform_model(platform, i), &pt->n, &pt->size, &pt->speed,
                             &pt->low, &pt->high) != DLS_OK)
        return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, fn, "processor \"%s\" has a %s "
                            "model: StarPU's history holds measured points only", name,
                            dls_model_kind_name(dls_model_get_kind(
                                dls_platform_model(platform, i))));
    pt->to_bytes = params->size_unit == DLS_SIZE_UNIT_ELEMENTS ? params->element_size : 1;
    for (size_t k = 0; k < pt->n; k++) {
        double b = pt->size[k] * pt->to_bytes;
        if (!(b >= 1 && b <= (double)UINT32_MAX * params->element_size &&
              fabs(b - round(b)) <= EXPORT_WHOLE_TOLERANCE * b))
            return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, fn, "processor \"%s\", point "
                                "%zu: size %.17g makes %.17g bytes, not a whole number StarPU "
                                "can hold (give the element size, or sizes in elements)", name,
                                k + 1, pt->size[k], b);
    }
    return DLS_OK;
}

/* The file's head: version, comment, combination, device, the empty regressions. */
static void export_head(dls__buf *b, const export_points *pt,
                        const dls_starpu_export_params *params, long type, long devid)
{
    dls__buf_put(b, "##################\n# Performance Model Version\n%d\n\n",
                 DLS__STARPU_VERSION);
    dls__buf_put(b, "# Written by dlsched %s from processor \"", dls_version());
    /* the name in a comment line: its line ends would end the comment */
    for (const char *q = pt->name; *q; q++)
        dls__buf_add(b, *q == '\n' || *q == '\r' ? " " : q, 1);
    dls__buf_put(b, "\": %zu points, sizes in bytes, times in us, deviations from the "
                 "points' bands read with %u samples at confidence %g\n", pt->n, params->count,
                 params->confidence);
    dls__buf_put(b, "####################\n# COMBs\n# number of combinations\n1\n");
    dls__buf_put(b, "####################\n# COMB_0\n# number of types devices\n1\n");
    dls__buf_put(b, "####################\n# DEV_0\n# device type (CPU - 0, CUDA - 1, OPENCL - "
                 "2, MPI_MS - 5, TCPIP_MS - 6, HIP - 7)\n%ld\n", type);
    dls__buf_put(b, "####################\n# DEV_0\n# device id \n%ld\n", devid);
    dls__buf_put(b, "####################\n# DEV_0\n# number of cores \n%u\n", params->ncores);
    dls__buf_put(b, "##########\n# number of implementations\n1\n");
    dls__buf_put(b, "#####\n# Model for %s_impl0 (Comb0)\n# number of entries\n%zu\n",
                 params->arch, pt->n);
    /* the regressions empty, as StarPU writes them for a history-based model */
    dls__buf_put(b, "# sumlnx\tsumlnx2\t\tsumlny\t\tsumlnxlny\talpha\t\tbeta\t\tn\tminx\t\t"
                 "maxx\n%-15e\t%-15e\t%-15e\t%-15e\t%-15s\t%-15s\t%u\t%-15lu\t%-15lu\n", 0.0, 0.0,
                 0.0, 0.0, "nan", "nan", 0u, 0ul, 0ul);
    dls__buf_put(b, "# a\t\tb\t\tc\n%-15s\t%-15s\t%-15s\n", "nan", "nan", "nan");
    dls__buf_put(b, "# not multiple-regression-base\n0\n");
}

/* The history: one entry a point. */
static void export_entries(dls__buf *b, const export_points *pt,
                           const dls_starpu_export_params *params)
{
    double factor = dls__import_band_factor(params->count, params->confidence);
    double cnt = (double)params->count;
    dls__buf_put(b, "# hash\t\tsize\t\tflops\t\tmean (us)\tdev (us)\tsum\t\tsum2\t\tn\n");
    for (size_t k = 0; k < pt->n; k++) {
        double bytes = round(pt->size[k] * pt->to_bytes);
        double mean = pt->size[k] / pt->speed[k] * DLS__STARPU_US_PER_S;
        /* the inverse of the import's rule on the lower edge: low = size / (mean + pi),
         * pi = factor * sd (sample), and StarPU's deviation is the population one */
        double dev = 0;
        if (pt->low && pt->low[k] < pt->speed[k]) {
            double pi = (pt->size[k] / pt->low[k]) * DLS__STARPU_US_PER_S - mean;
            dev = pi / factor * sqrt((cnt - 1) / cnt);
        }
        double nx = round(bytes / params->element_size);
        uint32_t fp = vector_footprint(nx >= 0 && nx <= (double)UINT32_MAX ? (uint32_t)nx : 0);
        dls__buf_put(b, "%08x\t%-15.0f\t%-15e\t%-15.17g\t%-15.17g\t%-15.17g\t%-15.17g\t%u\n",
                     (unsigned)fp, bytes, 0.0, mean, dev, mean * cnt,
                     cnt * (dev * dev + mean * mean), params->count);
    }
    dls__buf_put(b, "\n");
}

dls_status dls__platform_starpu(const dls_platform *platform, size_t i,
                                const dls_starpu_export_params *params, char **out,
                                const char *fn, dls_error *err)
{
    if (platform == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, fn, "NULL argument");
    dls_starpu_export_params defaults;
    if (params == NULL) {
        dls_starpu_export_params_init(&defaults);
        params = &defaults;
    }
    long type = 0, devid = 0;
    export_points pt;
    dls_status st = export_params_check(params, fn, &type, &devid, err);
    if (st == DLS_OK)
        st = export_points_get(platform, i, params, fn, &pt, err);
    if (st != DLS_OK)
        return st;
    dls__c_numeric loc;
    if (dls__c_numeric_enter(&loc) != 0)
        return dls__oom(err, fn);
    dls__buf b = DLS__BUF_INIT;
    export_head(&b, &pt, params, type, devid);
    export_entries(&b, &pt, params);
    dls__c_numeric_leave(&loc);
    char *text = dls__buf_take(&b);
    if (text == NULL)
        return dls__oom(err, fn);
    *out = text;
    return DLS_OK;
}

/* ---------------------------------------------------------------------------------- */
/* Finding a symbol's file                                                            */

typedef struct found {
    char **path;
    size_t n, cap;
} found;

static int add_found(found *f, const char *dir, const char *file)
{
    if (f->n == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 4;
        char **g = realloc(f->path, cap * sizeof *g);
        if (g == NULL)
            return -1;
        f->path = g;
        f->cap = cap;
    }
    dls__buf b = DLS__BUF_INIT;
    dls__buf_put(&b, "%s%s", dir, file);
    char *p = dls__buf_take(&b);
    if (p == NULL)
        return -1;
    f->path[f->n++] = p;
    return 0;
}

static int is_regular(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The candidates for symbol in dir (ending in '/'); -1 when out of memory. */
static int candidates(const char *dir, const char *symbol, found *f)
{
    if (strchr(symbol, '.')) {
        dls__buf b = DLS__BUF_INIT;
        dls__buf_put(&b, "%s%s", dir, symbol);
        char *p = dls__buf_take(&b);
        if (p == NULL)
            return -1;
        int ok = is_regular(p);
        free(p);
        return ok ? add_found(f, dir, symbol) : 0;
    }
    DIR *d = opendir(dir);
    if (d == NULL)
        return 0;
    size_t len = strlen(symbol);
    size_t first = f->n;
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, symbol, len) != 0 || e->d_name[len] != '.' ||
            e->d_name[len + 1] == '\0')
            continue;
        dls__buf b = DLS__BUF_INIT;
        dls__buf_put(&b, "%s%s", dir, e->d_name);
        char *p = dls__buf_take(&b);
        if (p == NULL) {
            rc = -1;
            break;
        }
        int ok = is_regular(p);
        free(p);
        if (ok && add_found(f, dir, e->d_name) != 0) {
            rc = -1;
            break;
        }
    }
    closedir(d);
    /* readdir's order is the file system's: sorted, the answer does not depend on it */
    if (f->n - first > 1) /* (none found: path may still be NULL, which qsort may not take) */
        qsort(f->path + first, f->n - first, sizeof *f->path, by_name);
    return rc;
}

dls_status dls_starpu_find(const char *symbol, char **path, dls_error *err)
{
    static const char fn[] = "dls_starpu_find";
    if (symbol == NULL || path == NULL)
        return dls__fail(err, DLS_EINVAL, fn, "NULL argument");
    *path = NULL;
    if (symbol[0] == '\0' || strchr(symbol, '/') || strcmp(symbol, ".") == 0 ||
        strcmp(symbol, "..") == 0)
        return dls__fail(err, DLS_EINVAL, fn, "\"%s\" is not a codelet symbol (a file name "
                         "without '/')", symbol);
    /* the directories, in StarPU's order of precedence */
    dls__buf dirs = DLS__BUF_INIT; /* one a line */
    const char *v;
    char sub[64];
    snprintf(sub, sizeof sub, "/codelets/%d/", DLS__STARPU_VERSION);
    if ((v = getenv("STARPU_PERF_MODEL_DIR")) != NULL && *v)
        dls__buf_put(&dirs, "%s%s\n", v, sub);
    static const char *const homes[] = {"STARPU_HOME", "XDG_CACHE_HOME", "HOME"};
    for (size_t k = 0; k < sizeof homes / sizeof homes[0]; k++)
        if ((v = getenv(homes[k])) != NULL && *v)
            dls__buf_put(&dirs, "%s/.starpu/sampling%s\n", v, sub);
    if ((v = getenv("STARPU_PERF_MODEL_PATH")) != NULL)
        for (const char *q = v; *q;) {
            size_t n = strcspn(q, ":");
            if (n)
                dls__buf_put(&dirs, "%.*s%s\n", (int)n, q, sub);
            q += n + (q[n] == ':');
        }
    char *list = dls__buf_take(&dirs);
    if (list == NULL)
        return dls__oom(err, fn);
    char host[256] = "";
    if ((v = getenv("STARPU_HOSTNAME")) != NULL && *v)
        snprintf(host, sizeof host, "%s", v);
    else if (gethostname(host, sizeof host - 1) != 0)
        host[0] = '\0';
    host[sizeof host - 1] = '\0';
    found f = {NULL, 0, 0};
    dls_status st = DLS_OK;
    const char *chosen_dir = NULL;
    for (char *line = list; *line && st == DLS_OK;) {
        char *nl = strchr(line, '\n');
        *nl = '\0';
        if (candidates(line, symbol, &f) != 0)
            st = dls__oom(err, fn);
        else if (f.n > 0) {
            chosen_dir = line;
            break;
        }
        line = nl + 1;
    }
    if (st == DLS_OK && f.n == 0) {
        /* name the places searched: every line was cut at its end by the search */
        dls__buf where = DLS__BUF_INIT;
        for (const char *line = list; *line; line += strlen(line) + 1)
            dls__buf_put(&where, "%s%s", where.len ? ", " : "", line);
        st = dls__fail(err, DLS_EINVAL, fn, "no model file for codelet \"%s\" in %s%s", symbol,
                       where.s ? where.s : "(no directory: set STARPU_HOME or HOME)",
                       where.s ? " (give the file's path instead)" : "");
        dls__buf_free(&where);
    }
    if (st == DLS_OK) {
        size_t pick = f.n;
        if (f.n == 1) {
            pick = 0;
        } else if (host[0]) {
            for (size_t k = 0; k < f.n; k++) {
                const char *base = f.path[k] + strlen(chosen_dir) + strlen(symbol) + 1;
                if (strcmp(base, host) == 0)
                    pick = k;
            }
        }
        if (pick < f.n) {
            *path = f.path[pick];
            f.path[pick] = NULL;
        } else {
            dls__buf names = DLS__BUF_INIT;
            for (size_t k = 0; k < f.n && k < FIND_LIST_MAX; k++)
                dls__buf_put(&names, "%s%s", k ? ", " : "", f.path[k]);
            st = dls__fail(err, DLS_EINVAL, fn, "codelet \"%s\" has %zu model files, none of "
                           "this host (%s): %s%s; give one's path", symbol, f.n,
                           host[0] ? host : "unknown", names.s ? names.s : "",
                           f.n > FIND_LIST_MAX ? ", ..." : "");
            dls__buf_free(&names);
        }
    }
    for (size_t k = 0; k < f.n; k++)
        free(f.path[k]);
    free(f.path);
    free(list);
    return st;
}
