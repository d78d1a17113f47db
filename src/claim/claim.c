/* The claim object: a schedule or partition written by some tool, per processor. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claim/claim_impl.h"
#include "core/names.h"
#include "dlsched/installment.h"
#include "dlsched/partition.h"

DLS__ENUM_NAMES(dls_claim_kind, dls_claim_kind, DLS_CLAIM_KIND_MAP)

dls_status dls_claim_create(const dls_platform *platform, dls_claim_kind kind, dls_claim **out,
                            dls_error *err)
{
    if (platform == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_claim_create", "NULL argument");
    if (kind != DLS_CLAIM_SCHEDULE && kind != DLS_CLAIM_PARTITION &&
        kind != DLS_CLAIM_INSTALLMENTS)
        return dls__fail(err, DLS_EINVAL, "dls_claim_create", "kind %d is not a dls_claim_kind",
                         (int)kind);
    size_t n = dls_platform_count(platform);
    dls_claim *c = calloc(1, sizeof *c);
    if (c == NULL)
        return dls__oom(err, "dls_claim_create");
    c->platform = platform;
    c->n = n;
    c->kind = kind;
    c->total = c->makespan = c->chunk = NAN;
    size_t k = n ? n : 1;
    c->load = calloc(k, sizeof *c->load);
    c->send_start = malloc(k * sizeof(double));
    c->send_end = malloc(k * sizeof(double));
    c->compute_start = malloc(k * sizeof(double));
    c->finish = malloc(k * sizeof(double));
    if (!c->load || !c->send_start || !c->send_end || !c->compute_start || !c->finish) {
        dls_claim_free(c);
        return dls__oom(err, "dls_claim_create");
    }
    for (size_t i = 0; i < n; i++)
        c->send_start[i] = c->send_end[i] = c->compute_start[i] = c->finish[i] = NAN;
    *out = c;
    return DLS_OK;
}

void dls_claim_free(dls_claim *c)
{
    if (c == NULL)
        return;
    free(c->load);
    free(c->send_start);
    free(c->send_end);
    free(c->compute_start);
    free(c->finish);
    free(c->order);
    free(c->owner);
    free(c->first);
    free(c->count);
    free(c);
}

/* A time given (finite) or not (NaN); infinities are refused. */
static int time_ok(double t) { return isnan(t) || isfinite(t); }

/* A number given for processor i (NaN: none) outside the input domain (0 or a magnitude
 * in [DLS_DOMAIN_MIN, DLS_DOMAIN_MAX]): DLS_EINVAL naming the processor and the value. */
static dls_status in_domain(const dls_claim *c, size_t i, const char *what, double v,
                            dls_error *err)
{
    char text[160];
    if (isnan(v) || !dls__domain_value(v, what, text, sizeof text))
        return DLS_OK;
    return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, "dls_claim_set", "processor \"%s\": %s",
                        dls_platform_name(c->platform, i), text);
}

dls_status dls_claim_set(dls_claim *c, size_t i, double load, double send_start,
                         double send_end, double compute_start, double finish, dls_error *err)
{
    if (c == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_claim_set", "NULL claim");
    if (i >= c->n)
        return dls__fail(err, DLS_EINVAL, "dls_claim_set", "processor %zu of a platform of %zu",
                         i, c->n);
    if (!isfinite(load))
        return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, "dls_claim_set", "processor \"%s\": "
                            "the load must be a finite number, not %g",
                            dls_platform_name(c->platform, i), load);
    if (!time_ok(send_start) || !time_ok(send_end) || !time_ok(compute_start) ||
        !time_ok(finish))
        return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, "dls_claim_set", "processor \"%s\": "
                            "a time must be a finite number, or NaN when not given",
                            dls_platform_name(c->platform, i));
    if (c->kind != DLS_CLAIM_SCHEDULE &&
        (!isnan(send_start) || !isnan(send_end) || !isnan(compute_start)))
        return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, "dls_claim_set", "processor \"%s\": "
                            "a %s claim gives no send or compute start times: they must be "
                            "NaN", dls_platform_name(c->platform, i), dls_claim_kind_name(c->kind));
    const char *what = c->kind == DLS_CLAIM_PARTITION ? "number of elements" : "load";
    dls_status st = in_domain(c, i, what, load, err);
    if (st == DLS_OK)
        st = in_domain(c, i, "send start", send_start, err);
    if (st == DLS_OK)
        st = in_domain(c, i, "send end", send_end, err);
    if (st == DLS_OK)
        st = in_domain(c, i, "compute start", compute_start, err);
    if (st == DLS_OK)
        st = in_domain(c, i, "finish", finish, err);
    if (st != DLS_OK)
        return st;
    c->load[i] = load;
    c->send_start[i] = send_start;
    c->send_end[i] = send_end;
    c->compute_start[i] = compute_start;
    c->finish[i] = finish;
    return DLS_OK;
}

dls_status dls__claim_set_order(dls_claim *c, const size_t *order, size_t m, const char *fn,
                                dls_error *err)
{
    if (m > c->n)
        return dls__fail(err, DLS_EINVAL, fn, "an order of %zu processors on a platform of %zu",
                         m, c->n);
    unsigned char *seen = calloc(c->n ? c->n : 1, 1);
    size_t *copy = malloc((m ? m : 1) * sizeof *copy);
    if (seen == NULL || copy == NULL) {
        free(seen);
        free(copy);
        return dls__oom(err, fn);
    }
    for (size_t k = 0; k < m; k++) {
        if (order[k] >= c->n || seen[order[k]]) {
            dls_status st = order[k] >= c->n
                ? dls__fail(err, DLS_EINVAL, fn, "position %zu: processor %zu of a platform of "
                            "%zu", k, order[k], c->n)
                : dls__fail_at(err, DLS_EINVAL, 0, 0, (long)order[k], fn, "position %zu: "
                               "processor \"%s\" is already in the order", k,
                               dls_platform_name(c->platform, order[k]));
            free(seen);
            free(copy);
            return st;
        }
        seen[order[k]] = 1;
        copy[k] = order[k];
    }
    free(seen);
    free(c->order);
    c->order = copy;
    c->m = m;
    return DLS_OK;
}

dls_status dls_claim_set_order(dls_claim *c, const size_t *order, size_t m, dls_error *err)
{
    if (c == NULL || (order == NULL && m > 0))
        return dls__fail(err, DLS_EINVAL, "dls_claim_set_order", "NULL argument");
    return dls__claim_set_order(c, order, m, "dls_claim_set_order", err);
}

dls_status dls_claim_set_total(dls_claim *c, double total, dls_error *err)
{
    if (c == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_claim_set_total", "NULL claim");
    if (!isnan(total) && !(isfinite(total) && total > 0))
        return dls__fail(err, DLS_EINVAL, "dls_claim_set_total", "the total must be a finite "
                         "number > 0 (or NaN), not %g", total);
    if (!isnan(total)) {
        dls_status st = dls__domain_load(total, "dls_claim_set_total", err);
        if (st != DLS_OK)
            return st;
    }
    c->total = total;
    return DLS_OK;
}

dls_status dls_claim_set_makespan(dls_claim *c, double makespan, dls_error *err)
{
    if (c == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_claim_set_makespan", "NULL claim");
    if (!isnan(makespan) && !(isfinite(makespan) && makespan >= 0))
        return dls__fail(err, DLS_EINVAL, "dls_claim_set_makespan", "the makespan must be a "
                         "finite number >= 0 (or NaN), not %g", makespan);
    char text[160];
    if (!isnan(makespan) && dls__domain_value(makespan, "makespan", text, sizeof text))
        return dls__fail(err, DLS_EINVAL, "dls_claim_set_makespan", "%s", text);
    c->makespan = makespan;
    return DLS_OK;
}

dls_status dls_claim_set_chunk(dls_claim *c, double chunk, dls_error *err)
{
    if (c == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_claim_set_chunk", "NULL claim");
    if (c->kind != DLS_CLAIM_INSTALLMENTS)
        return dls__fail(err, DLS_EINVAL, "dls_claim_set_chunk", "a %s claim has no chunk",
                         dls_claim_kind_name(c->kind));
    if (!(isfinite(chunk) && chunk > 0))
        return dls__fail(err, DLS_EINVAL, "dls_claim_set_chunk", "the chunk must be a finite "
                         "number > 0, not %g", chunk);
    char text[160];
    if (dls__domain_value(chunk, "chunk", text, sizeof text))
        return dls__fail(err, DLS_EINVAL, "dls_claim_set_chunk", "%s", text);
    c->chunk = chunk;
    return DLS_OK;
}

/* Replaces the claim's placement (owner or chunks) by the one given. */
static void set_placement(dls_claim *c, size_t *owner, size_t n, uint64_t *first,
                          uint64_t *count)
{
    free(c->owner);
    free(c->first);
    free(c->count);
    c->owner = owner;
    c->n_owner = n;
    c->first = first;
    c->count = count;
    c->weighted = 1;
}

dls_status dls_claim_set_assignment(dls_claim *c, const size_t *owner, size_t n,
                                    dls_error *err)
{
    static const char fn[] = "dls_claim_set_assignment";
    if (c == NULL || (owner == NULL && n > 0))
        return dls__fail(err, DLS_EINVAL, fn, "NULL argument");
    if (c->kind != DLS_CLAIM_PARTITION)
        return dls__fail(err, DLS_EINVAL, fn, "a %s claim places no elements",
                         dls_claim_kind_name(c->kind));
    if ((uint64_t)n > DLS_PARTITION_MAX_ELEMENTS)
        return dls__fail(err, DLS_EINVAL, fn, "%zu elements, beyond %llu", n,
                         DLS_PARTITION_MAX_ELEMENTS);
    for (size_t e = 0; e < n; e++)
        if (owner[e] >= c->n)
            return dls__fail(err, DLS_EINVAL, fn, "element %zu: processor %zu of a platform "
                             "of %zu", e, owner[e], c->n);
    size_t *copy = malloc((n ? n : 1) * sizeof *copy);
    if (copy == NULL)
        return dls__oom(err, fn);
    if (n > 0)
        memcpy(copy, owner, n * sizeof *copy);
    set_placement(c, copy, n, NULL, NULL);
    return DLS_OK;
}

dls_status dls_claim_set_chunks(dls_claim *c, const uint64_t *first, const uint64_t *count,
                                size_t p, dls_error *err)
{
    static const char fn[] = "dls_claim_set_chunks";
    if (c == NULL || first == NULL || count == NULL)
        return dls__fail(err, DLS_EINVAL, fn, "NULL argument");
    if (c->kind != DLS_CLAIM_PARTITION)
        return dls__fail(err, DLS_EINVAL, fn, "a %s claim places no elements",
                         dls_claim_kind_name(c->kind));
    if (p != c->n)
        return dls__fail(err, DLS_EINVAL, fn, "%zu chunks for a platform of %zu processors",
                         p, c->n);
    for (size_t i = 0; i < p; i++)
        if (count[i] > 0 && (first[i] > DLS_PARTITION_MAX_ELEMENTS ||
                             count[i] > DLS_PARTITION_MAX_ELEMENTS - first[i]))
            return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, fn, "processor \"%s\": the "
                                "chunk of %llu elements from %llu reaches past %llu",
                                dls_platform_name(c->platform, i), (unsigned long long)count[i],
                                (unsigned long long)first[i], DLS_PARTITION_MAX_ELEMENTS);
    size_t k = p ? p : 1;
    uint64_t *f = malloc(k * sizeof *f), *n = malloc(k * sizeof *n);
    if (f == NULL || n == NULL) {
        free(f);
        free(n);
        return dls__oom(err, fn);
    }
    for (size_t i = 0; i < p; i++) {
        n[i] = count[i];
        f[i] = count[i] > 0 ? first[i] : 0;
    }
    set_placement(c, NULL, 0, f, n);
    return DLS_OK;
}

dls_claim_kind dls_claim_get_kind(const dls_claim *c) { return c->kind; }

dls_status dls_claim_get(const dls_claim *c, size_t i, double *load, double *send_start,
                         double *send_end, double *compute_start, double *finish)
{
    if (c == NULL || i >= c->n)
        return DLS_EINVAL;
    if (load)
        *load = c->load[i];
    if (send_start)
        *send_start = c->send_start[i];
    if (send_end)
        *send_end = c->send_end[i];
    if (compute_start)
        *compute_start = c->compute_start[i];
    if (finish)
        *finish = c->finish[i];
    return DLS_OK;
}

const size_t *dls_claim_order(const dls_claim *c, size_t *m)
{
    if (m != NULL)
        *m = c != NULL ? c->m : 0;
    return c != NULL && c->m > 0 ? c->order : NULL;
}

double dls_claim_total(const dls_claim *c) { return c != NULL ? c->total : NAN; }
double dls_claim_makespan(const dls_claim *c) { return c != NULL ? c->makespan : NAN; }
double dls_claim_chunk(const dls_claim *c) { return c != NULL ? c->chunk : NAN; }

/* The names before issue 37's renames, kept for one release. */
const size_t *dls_claim_get_order(const dls_claim *c, size_t *m) { return dls_claim_order(c, m); }
double dls_claim_get_total(const dls_claim *c) { return dls_claim_total(c); }
double dls_claim_get_makespan(const dls_claim *c) { return dls_claim_makespan(c); }
double dls_claim_get_chunk(const dls_claim *c) { return dls_claim_chunk(c); }

int dls__claim_check_sums(const dls_claim *c, char *text, size_t size)
{
    long double sum = 0;
    for (size_t i = 0; i < c->n; i++)
        sum += c->load[i];
    double V = (double)sum;
    int part = c->kind == DLS_CLAIM_PARTITION && !c->weighted;
    const char *what = part ? "elements" : c->weighted ? "weights" : "loads";
    char why[160];
    if (dls__domain_value(V, "sum", why, sizeof why)) {
        snprintf(text, size, "the %s sum to %.10g, outside the domain (0 or [%g, %g]) that "
                 "dlsched computes in", what, V, DLS_DOMAIN_MIN, DLS_DOMAIN_MAX);
        return 1;
    }
    if (part && V > (double)DLS_PARTITION_MAX_ELEMENTS) {
        snprintf(text, size, "the elements sum to %.10g, more than 2^53 (%llu, the most a "
                 "partition has)", V, DLS_PARTITION_MAX_ELEMENTS);
        return 1;
    }
    double total = !isnan(c->total) ? c->total : V;
    if (c->kind == DLS_CLAIM_INSTALLMENTS && !isnan(c->chunk) && total > 0 &&
        !(total / c->chunk < (double)DLS_INSTALLMENT_MAX_CHUNKS)) {
        snprintf(text, size, "the chunk %.10g divides the load %.10g into %.6g chunks, more "
                 "than 2^53 (%llu, the most an installment schedule has)", c->chunk, total,
                 total / c->chunk, DLS_INSTALLMENT_MAX_CHUNKS);
        return 2;
    }
    return 0;
}
