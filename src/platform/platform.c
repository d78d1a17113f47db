/* The platform object: processors with their models, limits and links. */
#include <config.h>

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "core/pages.h"
#include "model/model_impl.h"
#include "platform/platform_impl.h"

dls_platform *dls__platform_new(void)
{
    dls_platform *p = calloc(1, sizeof(dls_platform));
    if (p != NULL)
        p->format = DLS_PLATFORM_FORMAT;
    return p;
}

int dls_platform_format(const dls_platform *platform)
{
    return platform != NULL ? platform->format : 0;
}

dls_status dls_platform_create(dls_platform **out, dls_error *err)
{
    if (out == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_platform_create", "NULL argument");
    dls_platform *p = dls__platform_new();
    if (p == NULL)
        return dls__oom(err, "dls_platform_create");
    *out = p;
    return DLS_OK;
}

static void proc_clear(dls__proc *p)
{
    if (!(p->stored & DLS__STORED_NAME))
        free(p->name);
    if (!(p->stored & DLS__STORED_MODEL))
        dls_model_free(p->model);
}

/* ---------------------------------------------------------------------------------- */
/* The store (see struct dls_platform): blocks that double from DLS__STORE_FIRST bytes up
 * to one huge page (core/pages.h); those of that size are aligned to it and mapped in bulk,
 * so that the kernel may back each with one huge page, and a store holds at most one
 * partly used. Objects larger than DLS__STORE_OBJECT_MAX (a model of many points) get
 * allocations of their own, so that no block is wasted on one. */
#define DLS__STORE_FIRST ((size_t)64 << 10)
#define DLS__STORE_MAX DLS__HUGE_PAGE
#define DLS__STORE_OBJECT_MAX (DLS__STORE_FIRST / 4) /* fits in any block, with its head */

struct dls__block {
    dls__block *next;
    size_t total, used; /* bytes: of the block, and of its data in use */
    max_align_t data[];
};

/* A block of `total` bytes, NULL when out of memory. */
static dls__block *block_new(size_t total)
{
    void *mem = NULL;
    if (total < DLS__STORE_MAX)
        mem = malloc(total);
    else if (posix_memalign(&mem, DLS__STORE_MAX, total) != 0)
        mem = NULL;
    if (mem == NULL)
        return NULL;
    if (total >= DLS__STORE_MAX)
        dls__prefault(mem, total, 1); /* filled before the next one is taken */
    dls__block *b = mem;
    b->total = total;
    b->used = 0;
    return b;
}

/* `bytes` bytes aligned to align (a power of two, at most that of max_align_t) from the
 * store, NULL when out of memory. */
static void *store_alloc(dls_platform *p, size_t bytes, size_t align)
{
    DLS__ASSERT(bytes <= DLS__STORE_OBJECT_MAX);
    DLS__ASSERT(align > 0 && (align & (align - 1)) == 0 && align <= _Alignof(max_align_t));
    const size_t head = offsetof(dls__block, data);
    dls__block *b = p->store;
    size_t at = b ? (b->used + align - 1) & ~(align - 1) : 0;
    if (b == NULL || head + at + bytes > b->total) {
        size_t total = b == NULL ? DLS__STORE_FIRST
                                 : b->total < DLS__STORE_MAX ? 2 * b->total : b->total;
        dls__block *nb = block_new(total);
        if (nb == NULL)
            return NULL;
        nb->next = b;
        p->store = b = nb;
        at = 0;
        DLS__ASSERT(head + bytes <= b->total);
    }
    b->used = at + bytes;
    return (unsigned char *)b->data + at;
}

void dls_platform_free(dls_platform *platform)
{
    if (platform == NULL)
        return;
    for (size_t i = 0; i < platform->n; i++)
        proc_clear(&platform->procs[i]);
    free(platform->procs);
    free(platform->slots);
    for (dls__block *b = platform->store, *next; b != NULL; b = next) {
        next = b->next;
        free(b);
    }
    free(platform);
}

/* ---------------------------------------------------------------------------------- */
/* Name index: open addressing over processor indices, so that adding p processors and
 * looking names up stays linear in p. A slot keeps 32 bits of the name's hash: probing
 * past other names reads the index only, and a rebuild moves slots without hashing or
 * reading a name again. */

/* FNV-1a, 64 bits: its published offset basis and prime. */
#define FNV_OFFSET_BASIS 1469598103934665603ull
#define FNV_PRIME 1099511628211ull
/* The smallest index (a power of two): a few processors never rebuild it. */
#define DLS__NAME_INDEX_MIN_SLOTS 16

/* Processor indices fit a slot's 32 bits, DLS__FREE_SLOT apart (reserve_one refuses more). */
_Static_assert(DLS_PLATFORM_MAX_PROCESSORS < DLS__FREE_SLOT, "processor indices fit 32 bits");

/* The tag of a name: FNV-1a folded to 32 bits (its high half mixed into the low one, which
 * places the name). */
static uint32_t name_tag(const char *s)
{
    uint64_t h = FNV_OFFSET_BASIS;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= FNV_PRIME;
    }
    return (uint32_t)(h ^ (h >> 32));
}

/* Puts processor i, whose name has tag `tag`, into the index; mask is its size less one. */
static void index_put(dls__slot *slots, size_t mask, uint32_t i, uint32_t tag)
{
    size_t k = tag & mask;
    while (slots[k].proc != DLS__FREE_SLOT)
        k = (k + 1) & mask;
    slots[k].proc = i;
    slots[k].tag = tag;
}

/* An index of nslots free slots (a power of two, for n processors at load <= 1/2). */
static void index_clear(dls__slot *slots, size_t nslots, size_t n)
{
    DLS__ASSERT((nslots & (nslots - 1)) == 0); /* a mask picks the slot */
    DLS__ASSERT(2 * n <= nslots); /* load <= 1/2: free slots remain, so probing ends */
    (void)n;
    memset(slots, 0xff, nslots * sizeof *slots); /* every proc DLS__FREE_SLOT */
}

/* Rebuilds the index with room for at least `need` names at load <= 1/2. */
static int index_rebuild(dls_platform *p, size_t need)
{
    size_t nslots = DLS__NAME_INDEX_MIN_SLOTS;
    while (nslots < 2 * need)
        nslots *= 2;
    dls__slot *slots = malloc(nslots * sizeof *slots);
    if (slots == NULL)
        return -1;
    dls__prefault(slots, nslots * sizeof *slots, 1); /* written whole below */
    index_clear(slots, nslots, p->n);
    for (size_t k = 0; k < p->nslots; k++) /* the slots move by their tags */
        if (p->slots[k].proc != DLS__FREE_SLOT)
            index_put(slots, nslots - 1, p->slots[k].proc, p->slots[k].tag);
    free(p->slots);
    p->slots = slots;
    p->nslots = nslots;
    return 0;
}

int dls_platform_find(const dls_platform *platform, const char *name, size_t *index)
{
    long i = dls__platform_find(platform, name);
    if (i < 0)
        return 0;
    if (index != NULL)
        *index = (size_t)i;
    return 1;
}

/* The slot of the index that holds the processor called name (tag `tag`), *found = 1; or
 * the free slot where that processor would go, *found = 0. The index must exist. */
static size_t probe(const dls_platform *p, const char *name, uint32_t tag, int *found)
{
    DLS__ASSERT(p->nslots > 0);
    size_t mask = p->nslots - 1, k = tag & mask;
    for (; p->slots[k].proc != DLS__FREE_SLOT; k = (k + 1) & mask)
        if (p->slots[k].tag == tag && strcmp(p->procs[p->slots[k].proc].name, name) == 0) {
            *found = 1;
            return k;
        }
    *found = 0;
    return k;
}

long dls__platform_find(const dls_platform *platform, const char *name)
{
    if (platform == NULL || name == NULL || platform->nslots == 0)
        return -1;
    int found;
    size_t k = probe(platform, name, name_tag(name), &found);
    return found ? (long)platform->slots[k].proc : -1;
}

/* Room for one more processor, in the array and in the index (rebuilt beyond a load of
 * 1/2): 0, or -1 when out of memory (or past the indices a slot holds, which the limits
 * on processors never reach), the platform unchanged but for capacities. */
static int reserve_one(dls_platform *p)
{
    if (p->n >= DLS__FREE_SLOT - 1)
        return -1;
    dls__proc *procs = dls__grow(p->procs, &p->cap, p->n + 1, sizeof *procs);
    if (procs == NULL)
        return -1;
    p->procs = procs;
    /* the array's pages are mapped DLS__PREFAULT_MIN bytes at a time as processors reach
     * them (its capacity, up to twice its size, is not); no huge pages, since it grows */
    const size_t step = DLS__PREFAULT_MIN, elem = sizeof *procs;
    size_t end = (p->n + 1) * elem, edge = end / step * step;
    if (edge > p->n * elem) /* the new processor crosses a multiple of step */
        dls__prefault((unsigned char *)procs + edge,
                      p->cap * elem - edge < step ? p->cap * elem - edge : step, 0);
    if (2 * (p->n + 1) > p->nslots && index_rebuild(p, 2 * (p->n + 1)) != 0)
        return -1;
    return 0;
}

/* Looks name (tag `tag`) up for an append: *dup its processor's index, or -1 and *slot the
 * free slot for it, with room made for one more processor. 0, or -1 when out of memory. */
static int place(dls_platform *p, const char *name, uint32_t tag, size_t *slot, long *dup)
{
    int found = 0;
    size_t k = p->nslots ? probe(p, name, tag, &found) : 0;
    *dup = found ? (long)p->slots[k].proc : -1;
    if (found)
        return 0;
    size_t nslots = p->nslots;
    if (reserve_one(p) != 0)
        return -1;
    if (p->nslots != nslots) /* rebuilt: the free slot moved */
        k = probe(p, name, tag, &found);
    *slot = k;
    return 0;
}

/* Processor p->n, named name (tag `tag`) and modelled by model (both already placed), goes
 * to the array and to free slot k of the index. */
static size_t put(dls_platform *p, size_t k, char *name, uint32_t tag, dls_model *model,
                  unsigned stored)
{
    dls__proc *pr = &p->procs[p->n];
    pr->name = name;
    pr->model = model;
    pr->two_d = dls_model_dimension(model) == 2;
    pr->limit = INFINITY;
    pr->has_link = 0;
    pr->stored = (unsigned char)stored;
    pr->startup = 0;
    pr->rate = 0;
    pr->release = 0;
    pr->ret_frac = pr->ret_startup = pr->ret_rate = 0;
    pr->bytes_per_unit = pr->memory = pr->paging = 0;
    p->slots[k].proc = (uint32_t)p->n;
    p->slots[k].tag = tag;
    return p->n++;
}

/* Length of the UTF-8 character at s (1 to 4), 0 when the bytes are not one in its
 * shortest form, or a surrogate. *cp receives the code point. */
static size_t utf8_char(const unsigned char *s, unsigned long *cp)
{
    unsigned c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
#define CONT(k) (s[k] >= 0x80 && s[k] <= 0xbf)
    if (c >= 0xc2 && c <= 0xdf && CONT(1)) {
        *cp = (c & 0x1fu) << 6 | (s[1] & 0x3fu);
        return 2;
    }
    if (c >= 0xe0 && c <= 0xef && CONT(1) && CONT(2)) {
        *cp = (c & 0x0fu) << 12 | (s[1] & 0x3fu) << 6 | (s[2] & 0x3fu);
        return *cp >= 0x800 && (*cp < 0xd800 || *cp > 0xdfff) ? 3 : 0;
    }
    if (c >= 0xf0 && c <= 0xf4 && CONT(1) && CONT(2) && CONT(3)) {
        *cp = (unsigned long)(c & 0x07u) << 18 | (s[1] & 0x3fu) << 12 | (s[2] & 0x3fu) << 6 |
              (s[3] & 0x3fu);
        return *cp >= 0x10000 && *cp <= 0x10ffff ? 4 : 0;
    }
#undef CONT
    return 0;
}

int dls__check_name(const char *name, char *why, size_t size)
{
    size_t len = strlen(name);
    if (len == 0) {
        snprintf(why, size, "is empty");
        return 1;
    }
    if (len > DLS_PLATFORM_NAME_MAX) {
        snprintf(why, size, "is %zu bytes long, more than the %d a name may have", len,
                 DLS_PLATFORM_NAME_MAX);
        return 1;
    }
    for (size_t at = 0; at < len;) {
        unsigned long cp;
        size_t k = utf8_char((const unsigned char *)name + at, &cp);
        if (k == 0) {
            snprintf(why, size, "is not valid UTF-8 (byte %zu, 0x%02x)", at + 1,
                     (unsigned)(unsigned char)name[at]);
            return 1;
        }
        /* control characters would break the lines of every text written from the name
         * (tables, MathProg data, messages) */
        if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) {
            snprintf(why, size, "has a control character (U+%04lX) at byte %zu: names may hold "
                     "any printable Unicode character", cp, at + 1);
            return 1;
        }
        at += k;
    }
    return 0;
}

/* The name quoted for a message: escapes for quotes, backslashes, control characters and
 * bytes that are not UTF-8 (\xNN), so that the message stays valid text (JSON reports carry
 * it); cut short past a screenful, never inside a character. */
void dls__quote_name(const char *name, char *out, size_t size)
{
    size_t o = 0;
    const unsigned char *p = (const unsigned char *)name;
    while (*p && o + 16 < size) {
        unsigned long cp;
        size_t k = utf8_char(p, &cp);
        if (k == 0)
            o += (size_t)snprintf(out + o, size - o, "\\x%02x", *p);
        else if (cp == '"' || cp == '\\')
            o += (size_t)snprintf(out + o, size - o, "\\%c", (int)cp);
        else if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f))
            o += (size_t)snprintf(out + o, size - o, "\\u%04lx", cp);
        else {
            memcpy(out + o, p, k);
            o += k;
        }
        p += k ? k : 1;
        if (*p != '\0' && o + 16 >= size)
            o += (size_t)snprintf(out + o, size - o, "...");
    }
    out[o] = '\0';
}

dls_status dls__platform_add_owned(dls_platform *p, const char *name, dls_model *model,
                                   size_t *index, dls_error *err)
{
    if (p == NULL || name == NULL || model == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_platform_add", "NULL argument");
    char why[160];
    if (dls__check_name(name, why, sizeof why) != 0) {
        char q[128];
        dls__quote_name(name, q, sizeof q);
        return dls__fail(err, DLS_EINVAL, "dls_platform_add", "the processor name \"%s\" %s", q,
                         why);
    }
    size_t k;
    long dup;
    uint32_t tag = name_tag(name);
    if (place(p, name, tag, &k, &dup) != 0)
        return dls__oom(err, "dls_platform_add");
    if (dup >= 0)
        return dls__fail_at(err, DLS_EINVAL, 0, 0, dup, "dls_platform_add",
                            "a processor named \"%s\" already exists "
                            "(processor %ld)", name, dup + 1);
    char *copy = strdup(name);
    if (copy == NULL)
        return dls__oom(err, "dls_platform_add");
    size_t i = put(p, k, copy, tag, model, 0);
    if (index)
        *index = i;
    return DLS_OK;
}

dls_status dls__platform_append(dls_platform *p, const char *name, size_t len,
                                const dls_model *model, size_t *index, long *dup,
                                dls_error *err)
{
    DLS__ASSERT(p != NULL && name != NULL && model != NULL && dup != NULL);
    DLS__ASSERT(strlen(name) == len && len <= DLS_PLATFORM_NAME_MAX);
    size_t k;
    uint32_t tag = name_tag(name);
    if (place(p, name, tag, &k, dup) != 0)
        return dls__oom(err, "dls_platform_read");
    if (*dup >= 0)
        return DLS_OK;
    unsigned stored = DLS__STORED_NAME | DLS__STORED_MODEL;
    char *copy = store_alloc(p, len + 1, 1);
    size_t size = dls__model_size(model);
    void *mem = NULL;
    dls_model *m = NULL;
    if (size <= DLS__STORE_OBJECT_MAX) {
        mem = store_alloc(p, size, _Alignof(max_align_t));
        m = mem ? dls__model_copy_to(mem, model) : NULL;
    } else {
        stored = DLS__STORED_NAME;
        if (dls_model_copy(model, &m, NULL) != DLS_OK)
            m = NULL;
    }
    if (copy == NULL || m == NULL) {
        if (!(stored & DLS__STORED_MODEL))
            dls_model_free(m);
        return dls__oom(err, "dls_platform_read");
    }
    memcpy(copy, name, len + 1);
    size_t i = put(p, k, copy, tag, m, stored);
    if (index)
        *index = i;
    return DLS_OK;
}

const dls__limits dls__platform_limits = {DLS_PLATFORM_FILE_MAX, DLS_PLATFORM_MAX_PROCESSORS,
                                          DLS_PLATFORM_MAX_POINTS, DLS_PLATFORM_MAX_LINES,
                                          DLS_PLATFORM_MAX_GRID_CELLS};

void dls__format_bytes(double bytes, char *out, size_t size)
{
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int u = 0;
    while (bytes >= 1024 && u < 6) {
        bytes /= 1024;
        u++;
    }
    snprintf(out, size, u == 0 ? "%.0f %s" : "%.3g %s", bytes, units[u]);
}

int dls__model_over_limit(const dls_model *m, const dls__limits *lim, char *why, size_t size)
{
    switch (m->kind) {
    case DLS_MODEL_POINTS:
        if (m->n <= lim->points)
            return 0;
        snprintf(why, size, "its speed model has %zu points, more than the %zu dlsched takes",
                 m->n, lim->points);
        return 1;
    case DLS_MODEL_TIME_LINES:
        if (m->n <= lim->lines)
            return 0;
        snprintf(why, size, "its time model has %zu lines, more than the %zu dlsched takes",
                 m->n, lim->lines);
        return 1;
    case DLS_MODEL_SPEED2D:
        if (m->n <= lim->grid_cells / m->ny)
            return 0;
        snprintf(why, size, "its 2-D speed grid has %zu x %zu values, more than the %zu "
                 "dlsched takes", m->n, m->ny, lim->grid_cells);
        return 1;
    default:
        return 0;
    }
}

/* The limits of dls_platform_add and dls_platform_set_model; fn names the call. */
static dls_status check_limits(const dls_platform *p, const char *name, const dls_model *model,
                               const dls__limits *lim, int adding, const char *fn,
                               dls_error *err)
{
    char why[160], q[128];
    dls__quote_name(name, q, sizeof q);
    if (adding && p->n >= lim->processors)
        return dls__fail(err, DLS_ELIMIT, fn, "processor \"%s\": the platform already holds "
                         "%zu processors, the most dlsched takes", q, p->n);
    if (dls__model_over_limit(model, lim, why, sizeof why))
        return dls__fail(err, DLS_ELIMIT, fn, "processor \"%s\": %s", q, why);
    dls__problem pb;
    if (dls__domain_model(model, &pb))
        return dls__fail(err, DLS_EINVAL, fn, "processor \"%s\": %s", q, pb.text);
    return DLS_OK;
}

dls_status dls__platform_add_within(dls_platform *platform, const char *name,
                                    const dls_model *model, size_t *index,
                                    const dls__limits *lim, dls_error *err)
{
    dls_model *copy;
    if (platform == NULL || name == NULL || model == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_platform_add", "NULL argument");
    dls_status st = check_limits(platform, name, model, lim, 1, "dls_platform_add", err);
    if (st != DLS_OK)
        return st;
    st = dls_model_copy(model, &copy, err);
    if (st != DLS_OK)
        return st;
    st = dls__platform_add_owned(platform, name, copy, index, err);
    if (st != DLS_OK)
        dls_model_free(copy);
    return st;
}

dls_status dls_platform_add(dls_platform *platform, const char *name, const dls_model *model,
                            size_t *index, dls_error *err)
{
    return dls__platform_add_within(platform, name, model, index, &dls__platform_limits, err);
}

static dls_status bad_index(dls_error *err, const char *fn, const dls_platform *p, size_t i)
{
    if (p == NULL)
        return dls__fail(err, DLS_EINVAL, fn, "NULL platform");
    return dls__fail(err, DLS_EINVAL, fn, "no processor %zu (the platform has %zu)", i, p->n);
}

dls_status dls_platform_set_model(dls_platform *platform, size_t i, const dls_model *model,
                                  dls_error *err)
{
    if (platform == NULL || i >= platform->n)
        return bad_index(err, "dls_platform_set_model", platform, i);
    if (model == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_platform_set_model", "NULL model");
    dls_status st = check_limits(platform, platform->procs[i].name, model,
                                 &dls__platform_limits, 0, "dls_platform_set_model", err);
    if (st != DLS_OK)
        return st;
    dls_model *copy;
    st = dls_model_copy(model, &copy, err);
    if (st != DLS_OK)
        return st;
    if (!(platform->procs[i].stored & DLS__STORED_MODEL))
        dls_model_free(platform->procs[i].model);
    platform->procs[i].stored &= (unsigned char)~DLS__STORED_MODEL; /* the old one stays */
    platform->procs[i].model = copy;
    platform->procs[i].two_d = dls_model_dimension(copy) == 2;
    platform->procs[i].paging = 0; /* the second line it built went with the old model */
    return DLS_OK;
}

dls_status dls_platform_remove(dls_platform *platform, size_t i, dls_error *err)
{
    if (platform == NULL || i >= platform->n)
        return bad_index(err, "dls_platform_remove", platform, i);
    /* Allocate the new index first so a failure leaves the platform as it was. */
    dls__slot *slots = malloc(platform->nslots * sizeof *slots);
    if (slots == NULL)
        return dls__oom(err, "dls_platform_remove");
    proc_clear(&platform->procs[i]);
    memmove(platform->procs + i, platform->procs + i + 1,
            (platform->n - i - 1) * sizeof *platform->procs);
    platform->n--;
    /* the other processors by their tags, those after i one index lower */
    index_clear(slots, platform->nslots, platform->n);
    for (size_t k = 0; k < platform->nslots; k++) {
        uint32_t proc = platform->slots[k].proc;
        if (proc != DLS__FREE_SLOT && proc != i)
            index_put(slots, platform->nslots - 1, proc > i ? proc - 1 : proc,
                      platform->slots[k].tag);
    }
    free(platform->slots);
    platform->slots = slots;
    return DLS_OK;
}

dls_status dls_platform_set_limit(dls_platform *platform, size_t i, double limit, dls_error *err)
{
    if (platform == NULL || i >= platform->n)
        return bad_index(err, "dls_platform_set_limit", platform, i);
    if (!(limit > 0) || isnan(limit))
        return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, "dls_platform_set_limit",
                            "processor \"%s\": the limit must be > 0 "
                            "(or INFINITY for none), not %.10g", platform->procs[i].name, limit);
    char why[200];
    if (dls__domain_limit(limit, why, sizeof why))
        return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, "dls_platform_set_limit",
                            "processor \"%s\": %s",
                            platform->procs[i].name, why);
    platform->procs[i].limit = limit;
    return DLS_OK;
}

dls_status dls_platform_set_link(dls_platform *platform, size_t i, double startup, double rate,
                                 dls_error *err)
{
    if (platform == NULL || i >= platform->n)
        return bad_index(err, "dls_platform_set_link", platform, i);
    if (!isfinite(startup) || startup < 0)
        return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, "dls_platform_set_link",
                            "processor \"%s\": the startup must be a "
                            "finite number >= 0, not %.10g", platform->procs[i].name, startup);
    if (!isfinite(rate) || rate < 0)
        return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, "dls_platform_set_link",
                            "processor \"%s\": the rate must be a finite "
                            "number >= 0, not %.10g", platform->procs[i].name, rate);
    char why[200];
    if (dls__domain_link(startup, rate, why, sizeof why))
        return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, "dls_platform_set_link",
                            "processor \"%s\": %s",
                            platform->procs[i].name, why);
    platform->procs[i].has_link = 1;
    platform->procs[i].startup = startup;
    platform->procs[i].rate = rate;
    return DLS_OK;
}

dls_status dls_platform_set_release(dls_platform *platform, size_t i, double release,
                                    dls_error *err)
{
    if (platform == NULL || i >= platform->n)
        return bad_index(err, "dls_platform_set_release", platform, i);
    char why[200];
    if (!isfinite(release) || release < 0)
        return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, "dls_platform_set_release",
                            "processor \"%s\": the release time must "
                            "be a finite number >= 0, not %.10g", platform->procs[i].name,
                            release);
    if (dls__domain_value(release, "release time", why, sizeof why))
        return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, "dls_platform_set_release",
                            "processor \"%s\": %s",
                            platform->procs[i].name, why);
    platform->procs[i].release = release;
    return DLS_OK;
}

double dls_platform_release(const dls_platform *platform, size_t i)
{
    return platform && i < platform->n ? platform->procs[i].release : NAN;
}

dls_status dls_platform_set_return(dls_platform *platform, size_t i, double fraction,
                                   double startup, double rate, dls_error *err)
{
    if (platform == NULL || i >= platform->n)
        return bad_index(err, "dls_platform_set_return", platform, i);
    const double v[3] = {fraction, startup, rate};
    static const char *const what[3] = {"return fraction", "return startup", "return rate"};
    for (int k = 0; k < 3; k++) {
        char why[200];
        if (!isfinite(v[k]) || v[k] < 0)
            return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, "dls_platform_set_return",
                                "processor \"%s\": the %s must be a "
                                "finite number >= 0, not %.10g", platform->procs[i].name,
                                what[k], v[k]);
        if (dls__domain_value(v[k], what[k], why, sizeof why))
            return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, "dls_platform_set_return",
                                "processor \"%s\": %s",
                                platform->procs[i].name, why);
    }
    platform->procs[i].ret_frac = fraction;
    platform->procs[i].ret_startup = startup;
    platform->procs[i].ret_rate = rate;
    return DLS_OK;
}

dls_status dls_platform_get_return(const dls_platform *platform, size_t i, double *fraction,
                                   double *startup, double *rate)
{
    if (platform == NULL || i >= platform->n)
        return DLS_EINVAL;
    if (fraction != NULL)
        *fraction = platform->procs[i].ret_frac;
    if (startup != NULL)
        *startup = platform->procs[i].ret_startup;
    if (rate != NULL)
        *rate = platform->procs[i].ret_rate;
    return DLS_OK;
}

size_t dls_platform_count(const dls_platform *platform)
{
    return platform ? platform->n : 0;
}

const char *dls_platform_name(const dls_platform *platform, size_t i)
{
    return platform && i < platform->n ? platform->procs[i].name : NULL;
}

const dls_model *dls_platform_model(const dls_platform *platform, size_t i)
{
    return platform && i < platform->n ? platform->procs[i].model : NULL;
}

double dls_platform_limit(const dls_platform *platform, size_t i)
{
    return platform && i < platform->n ? platform->procs[i].limit : NAN;
}

int dls_platform_has_link(const dls_platform *platform, size_t i)
{
    return platform && i < platform->n ? platform->procs[i].has_link : 0;
}

dls_status dls_platform_link(const dls_platform *platform, size_t i, double *startup, double *rate)
{
    if (platform == NULL || i >= platform->n)
        return DLS_EINVAL;
    if (startup)
        *startup = platform->procs[i].startup;
    if (rate)
        *rate = platform->procs[i].rate;
    return DLS_OK;
}

/* A description kept from the platform file (0: not given) as the getters give it. */
static double described(const dls_platform *platform, size_t i, size_t field)
{
    if (platform == NULL || i >= platform->n)
        return NAN;
    const dls__proc *p = &platform->procs[i];
    double v = field == 0 ? p->bytes_per_unit : field == 1 ? p->memory : p->paging;
    return v > 0 ? v : NAN;
}

double dls_platform_bytes_per_unit(const dls_platform *platform, size_t i)
{
    return described(platform, i, 0);
}

double dls_platform_memory(const dls_platform *platform, size_t i)
{
    return described(platform, i, 1);
}

double dls_platform_paging(const dls_platform *platform, size_t i)
{
    return described(platform, i, 2);
}

double dls_platform_paging_point(const dls_platform *platform, size_t i)
{
    double pg = described(platform, i, 2);
    if (isnan(pg))
        return NAN;
    return platform->procs[i].memory / platform->procs[i].bytes_per_unit;
}

dls_status dls_platform_copy(const dls_platform *platform, dls_platform **out, dls_error *err)
{
    if (platform == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_platform_copy", "NULL argument");
    dls_platform *c = dls__platform_new();
    if (c == NULL)
        return dls__oom(err, "dls_platform_copy");
    for (size_t i = 0; i < platform->n; i++) {
        const dls__proc *pr = &platform->procs[i];
        dls_status st = dls_platform_add(c, pr->name, pr->model, NULL, err);
        if (st != DLS_OK) {
            dls_platform_free(c);
            return st;
        }
        c->procs[i].limit = pr->limit;
        c->procs[i].has_link = pr->has_link;
        c->procs[i].startup = pr->startup;
        c->procs[i].rate = pr->rate;
        c->procs[i].release = pr->release;
        c->procs[i].ret_frac = pr->ret_frac;
        c->procs[i].ret_startup = pr->ret_startup;
        c->procs[i].ret_rate = pr->ret_rate;
        c->procs[i].bytes_per_unit = pr->bytes_per_unit;
        c->procs[i].memory = pr->memory;
        c->procs[i].paging = pr->paging;
    }
    c->format = platform->format;
    *out = c;
    return DLS_OK;
}

int dls_platform_equal(const dls_platform *a, const dls_platform *b)
{
    if (a == NULL || b == NULL)
        return a == b;
    if (a->n != b->n)
        return 0;
    for (size_t i = 0; i < a->n; i++) {
        const dls__proc *x = &a->procs[i], *y = &b->procs[i];
        if (strcmp(x->name, y->name) != 0 || !dls_model_equal(x->model, y->model) ||
            x->limit != y->limit || x->has_link != y->has_link || x->startup != y->startup ||
            x->rate != y->rate || x->release != y->release || x->ret_frac != y->ret_frac ||
            x->ret_startup != y->ret_startup || x->ret_rate != y->ret_rate)
            return 0;
    }
    return 1;
}

/* ---------------------------------------------------------------------------------- */
/* Unusual values                                                                     */

typedef struct unusual {
    size_t count;
    char first[400];
} unusual;

static void note_unusual(unusual *u, const char *fmt, ...) DLS__PRINTF(2, 3);

static void note_unusual(unusual *u, const char *fmt, ...)
{
    if (u->count++ > 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(u->first, sizeof u->first, fmt, ap);
    va_end(ap);
}

static void time_unusual(unusual *u, double t, const char *what)
{
    if (fabs(t) > DLS_UNUSUAL_TIME)
        note_unusual(u, "%s of %.6g s (more than %g s)", what, t, DLS_UNUSUAL_TIME);
}

static void slope_unusual(unusual *u, double b, const char *what)
{
    if (b > DLS_UNUSUAL_SLOPE_MAX)
        note_unusual(u, "%s of %.6g s per unit (more than %g)", what, b, DLS_UNUSUAL_SLOPE_MAX);
    else if (b > 0 && b < DLS_UNUSUAL_SLOPE_MIN)
        note_unusual(u, "%s of %.6g s per unit (less than %g)", what, b, DLS_UNUSUAL_SLOPE_MIN);
}

static void speed_unusual(unusual *u, double v, const char *what)
{
    if (v < DLS_UNUSUAL_SPEED_MIN || v > DLS_UNUSUAL_SPEED_MAX)
        note_unusual(u, "%s of %.6g units per second (outside [%g, %g])", what, v,
                     DLS_UNUSUAL_SPEED_MIN, DLS_UNUSUAL_SPEED_MAX);
}

/* A processor of a first-format file with the name and model `dlsched bench` gave its
 * built-in kernels ("HOST-gemm-rows", "HOST-lu-update", measured points): written when
 * their 1-D speeds counted operations, not the size's unit. */
static int old_bench(const dls_platform *platform, const dls__proc *p)
{
    static const char *const kernels[] = {"-gemm-rows", "-lu-update"};
    if (platform->format >= 2 || p->model->kind != DLS_MODEL_POINTS)
        return 0;
    size_t n = strlen(p->name);
    for (size_t k = 0; k < 2; k++) {
        size_t kn = strlen(kernels[k]);
        if (n > kn && strcmp(p->name + n - kn, kernels[k]) == 0)
            return 1;
    }
    return 0;
}

size_t dls_platform_unusual(const dls_platform *platform, size_t i, char *text, size_t size)
{
    if (text != NULL && size > 0)
        text[0] = '\0';
    if (platform == NULL || i >= platform->n)
        return 0;
    const dls__proc *p = &platform->procs[i];
    const dls_model *m = p->model;
    unusual u = {0, ""};
    switch (m->kind) {
    case DLS_MODEL_CONSTANT:
        speed_unusual(&u, m->constant, "a speed");
        break;
    case DLS_MODEL_POINTS:
        for (size_t k = 0; k < m->n; k++)
            speed_unusual(&u, m->speed[k], "a measured speed");
        break;
    case DLS_MODEL_SPEED2D:
        for (size_t k = 0; k < m->n * m->ny; k++)
            speed_unusual(&u, m->gv[k], "a 2-D speed");
        break;
    case DLS_MODEL_TIME_LINES:
        for (size_t l = 0; l < m->n; l++) {
            /* a memory level's intercept is minus its slope's rise times its swap point:
             * large and negative on a large range, which is no sign of a mistake */
            if (m->a[l] > 0)
                time_unusual(&u, m->a[l], "an intercept");
            slope_unusual(&u, m->b[l], "a slope");
        }
        break;
    }
    if (p->has_link) {
        time_unusual(&u, p->startup, "a link startup");
        slope_unusual(&u, p->rate, "a link rate");
    }
    if (old_bench(platform, p))
        note_unusual(&u, "speeds measured by an older `dlsched bench` (a file without "
                     "\"version\"), which counted the kernel's operations (n1 n^2 "
                     "multiply-adds, x y block updates) instead of rows or block columns: its "
                     "times come out n^2 or x times too short; measure it again");
    if (u.count > 0 && text != NULL && size > 0)
        snprintf(text, size, "%s%s", u.first,
                 u.count > 1 ? ", and more of the kind" : "");
    return u.count;
}
