/* dls_mpi_balance and dls_mpi_move: one balancer step taken alike on every rank from the
 * times of all, and the 1-D block move plan carried out with nonblocking transfers. */
#include <config.h>

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_impl.h"

/* What every rank's balancer must hold alike before a step: n and the current shares. */
static unsigned long long balance_hash(const dls_balance *b)
{
    uint64_t n = dls_balance_total(b);
    unsigned long long h = dls__mpi_hash(&n, sizeof n, DLS__MPI_HASH_SEED);
    return dls__mpi_hash(dls_balance_shares(b), dls_balance_count(b) * sizeof(uint64_t), h);
}

/* This rank's own arguments, as dls_balance_step() would judge its time. */
static dls_status balance_check(const dls__mpi *c, const dls_balance *b, double t,
                                const uint64_t *my_share, const uint64_t *my_first,
                                dls_error *mine)
{
    const char *fn = c->fn;
    if (b == NULL || my_share == NULL || my_first == NULL)
        return dls__mpi_fail(mine, DLS_EINVAL, fn, "NULL %s",
                             b == NULL ? "balance" : my_share == NULL ? "my_share" : "my_first");
    if (dls_balance_count(b) != (size_t)c->size)
        return dls__mpi_fail(mine, DLS_EINVAL, fn, "the balancer has %zu processors and the "
                             "communicator %d ranks (processor i is rank i)",
                             dls_balance_count(b), c->size);
    uint64_t share = dls_balance_shares(b)[c->rank];
    if (isnan(t) || isinf(t) || t < 0)
        return dls__mpi_fail(mine, DLS_EINVAL, fn, "my_time %g s is not a time (finite, "
                             ">= 0)", t);
    if (share > 0 && t == 0)
        return dls__mpi_fail(mine, DLS_EINVAL, fn, "my_time is 0 s for a share of %llu "
                             "elements", (unsigned long long)share);
    if (share == 0 && t != 0)
        return dls__mpi_fail(mine, DLS_EINVAL, fn, "my_time is %g s for a share of 0 "
                             "elements (a rank without work passes 0)", t);
    return DLS_OK;
}

dls_status dls_mpi_balance(MPI_Comm comm, dls_balance *balance, double my_time,
                           uint64_t *my_share, uint64_t *my_first, dls_error *err)
{
    const char *fn = "dls_mpi_balance";
    dls__mpi c;
    dls_status st = dls__mpi_open(&c, comm, fn, err);
    if (st != DLS_OK)
        return st;
    dls_error mine;
    memset(&mine, 0, sizeof mine);
    st = balance_check(&c, balance, my_time, my_share, my_first, &mine);
    st = dls__mpi_agree(&c, st, 0, &mine, err);
    int rc = MPI_SUCCESS, same = 0;
    if (st == DLS_OK) {
        same = dls__mpi_same(&c, balance_hash(balance), &rc);
        if (same < 0)
            st = dls__mpi_failed(err, fn, "MPI_Allreduce", rc);
        else if (!same)
            st = dls__mpi_fail(err, DLS_EINVAL, fn, "the ranks' balancers differ (another n "
                               "or other shares: create them alike and step them together)");
    }
    double *times = NULL;
    if (st == DLS_OK) {
        times = malloc((size_t)c.size * sizeof *times);
        st = times == NULL ? dls__mpi_oom(&mine, fn) : DLS_OK;
        st = dls__mpi_agree(&c, st, 0, &mine, err);
    }
    if (st == DLS_OK) {
        rc = MPI_Allgather(&my_time, 1, MPI_DOUBLE, times, 1, MPI_DOUBLE, c.comm);
        if (rc != MPI_SUCCESS)
            st = dls__mpi_failed(err, fn, "MPI_Allgather", rc);
    }
    if (st == DLS_OK) {
        /* the same state and the same times: every rank's step gives the same shares, or
         * the same refusal (only running out of memory can differ between ranks) */
        st = dls_balance_step(balance, (size_t)c.size, NULL, times, &mine);
        st = dls__mpi_agree(&c, st, 0, &mine, err);
    }
    if (st == DLS_OK) {
        *my_share = dls_balance_shares(balance)[c.rank];
        *my_first = dls_balance_first(balance)[c.rank];
    }
    free(times);
    dls__mpi_close(&c);
    return st;
}

/* ---------------------------------------------------------------------------------- */

/* This rank's old and new blocks [first, first + count) under the plan. */
typedef struct move_blocks {
    uint64_t old_first, old_count, new_first, new_count;
} move_blocks;

/* The plan's transfers from and to this rank must lie in its old and new blocks, and
 * with the elements it keeps fill both exactly: counts before that are not the plan's
 * own (agreed on every rank, summing right) would otherwise read and write outside the
 * buffers. */
static dls_status move_fits(const dls__mpi *c, const dls_move_plan *plan,
                            const move_blocks *mb, dls_error *mine)
{
    size_t nm = 0, me = (size_t)c->rank;
    const dls_move *mv = dls_move_plan_moves(plan, &nm);
    uint64_t lo = mb->old_first > mb->new_first ? mb->old_first : mb->new_first;
    uint64_t oe = mb->old_first + mb->old_count, ne = mb->new_first + mb->new_count;
    uint64_t kept = (oe < ne ? oe : ne) > lo ? (oe < ne ? oe : ne) - lo : 0;
    uint64_t sent = 0, got = 0;
    for (size_t k = 0; k < nm; k++) {
        if (mv[k].from != me && mv[k].to != me)
            continue;
        int send = mv[k].from == me;
        uint64_t f = send ? mb->old_first : mb->new_first;
        uint64_t e = send ? oe : ne;
        if (mv[k].first < f || mv[k].count > e - f || mv[k].first - f > e - f - mv[k].count)
            return dls__mpi_fail(mine, DLS_EINVAL, c->fn, "the plan moves elements [%llu, "
                                 "%llu) %s this rank, outside its %s block [%llu, %llu): the "
                                 "counts before are not the plan's",
                                 (unsigned long long)mv[k].first,
                                 (unsigned long long)(mv[k].first + mv[k].count),
                                 send ? "from" : "to", send ? "old" : "new",
                                 (unsigned long long)f, (unsigned long long)e);
        *(send ? &sent : &got) += mv[k].count;
    }
    if (kept + sent != mb->old_count || kept + got != mb->new_count)
        return dls__mpi_fail(mine, DLS_EINVAL, c->fn, "the plan's transfers of this rank do "
                             "not fill its blocks (%llu elements before, %llu after): the "
                             "counts before are not the plan's",
                             (unsigned long long)mb->old_count,
                             (unsigned long long)mb->new_count);
    return DLS_OK;
}

static dls_status move_check(const dls__mpi *c, const dls_move_plan *plan,
                             const uint64_t *before, const void *old_buf, void *new_buf,
                             size_t eb, move_blocks *mb, dls_error *mine)
{
    const char *fn = c->fn;
    if (plan == NULL || before == NULL)
        return dls__mpi_fail(mine, DLS_EINVAL, fn, "NULL %s", plan == NULL ? "plan" : "before");
    if (eb == 0)
        return dls__mpi_fail(mine, DLS_EINVAL, fn, "element_bytes is 0");
    if (dls_move_plan_count(plan) != (size_t)c->size)
        return dls__mpi_fail(mine, DLS_EINVAL, fn, "the plan has %zu processors and the "
                             "communicator %d ranks", dls_move_plan_count(plan), c->size);
    const int64_t *chg = dls_move_plan_changes(plan);
    uint64_t at_old = 0, at_new = 0;
    for (int r = 0; r < c->size; r++) {
        if (chg[r] < 0 && (uint64_t)(-chg[r]) > before[r])
            return dls__mpi_fail(mine, DLS_EINVAL, fn, "rank %d holds %llu elements before "
                                 "and the plan takes %lld from it", r,
                                 (unsigned long long)before[r], (long long)-chg[r]);
        uint64_t after = before[r] + (uint64_t)chg[r];
        if ((chg[r] > 0 && after < before[r]) || before[r] > UINT64_MAX - at_old ||
            after > UINT64_MAX - at_new)
            return dls__mpi_fail(mine, DLS_ERANGE, fn, "the counts before (rank %d: %llu "
                                 "elements) overflow 64 bits", r,
                                 (unsigned long long)before[r]);
        if (r == c->rank)
            *mb = (move_blocks){at_old, before[r], at_new, after};
        at_old += before[r];
        at_new += after;
    }
    if (mb->old_count > 0 && old_buf == NULL)
        return dls__mpi_fail(mine, DLS_EINVAL, fn, "NULL old_buf for %llu elements",
                             (unsigned long long)mb->old_count);
    if (mb->new_count > 0 && new_buf == NULL)
        return dls__mpi_fail(mine, DLS_EINVAL, fn, "NULL new_buf for %llu elements",
                             (unsigned long long)mb->new_count);
    if (mb->old_count > SIZE_MAX / eb || mb->new_count > SIZE_MAX / eb)
        return dls__mpi_fail(mine, DLS_ERANGE, fn, "the blocks exceed the address space");
    return move_fits(c, plan, mb, mine);
}

/* What every rank must pass alike: the plan's transfers, the counts before and the size
 * of an element. */
static unsigned long long move_hash(const dls_move_plan *plan, const uint64_t *before,
                                    size_t p, size_t eb)
{
    size_t nm = 0;
    const dls_move *mv = dls_move_plan_moves(plan, &nm);
    unsigned long long h = dls__mpi_hash(&eb, sizeof eb, DLS__MPI_HASH_SEED);
    h = dls__mpi_hash(before, p * sizeof *before, h);
    for (size_t k = 0; k < nm; k++) {
        uint64_t v[4] = {mv[k].from, mv[k].to, mv[k].first, mv[k].count};
        h = dls__mpi_hash(v, sizeof v, h);
    }
    return h;
}

/* Largest message: a count of MPI_BYTE must fit an int. */
#define CHUNK ((size_t)INT_MAX & ~(size_t)4095)

/* Posts this rank's sends and receives (chunked), then copies the kept elements. */
static int move_post(const dls__mpi *c, const dls_move_plan *plan, const move_blocks *mb,
                     const char *old_buf, char *new_buf, size_t eb, MPI_Request **reqs,
                     int *nreq)
{
    size_t nm = 0, total = 0;
    const dls_move *mv = dls_move_plan_moves(plan, &nm);
    size_t me = (size_t)c->rank;
    for (size_t k = 0; k < nm; k++)
        if (mv[k].from == me || mv[k].to == me)
            total += ((size_t)mv[k].count * eb + CHUNK - 1) / CHUNK;
    *reqs = malloc((total > 0 ? total : 1) * sizeof **reqs);
    *nreq = 0;
    if (*reqs == NULL)
        return -1;
    int rc = MPI_SUCCESS;
    for (size_t k = 0; k < nm && rc == MPI_SUCCESS; k++) {
        if (mv[k].from != me && mv[k].to != me)
            continue;
        int send = mv[k].from == me;
        size_t bytes = (size_t)mv[k].count * eb;
        char *at = send ? (char *)old_buf + (size_t)(mv[k].first - mb->old_first) * eb
                        : new_buf + (size_t)(mv[k].first - mb->new_first) * eb;
        int peer = (int)(send ? mv[k].to : mv[k].from);
        /* the chunks of one transfer match in order (MPI does not overtake) */
        for (size_t off = 0; off < bytes && rc == MPI_SUCCESS; off += CHUNK) {
            int len = (int)(bytes - off < CHUNK ? bytes - off : CHUNK);
            rc = send ? MPI_Isend(at + off, len, MPI_BYTE, peer, DLS__MPI_TAG_DATA, c->comm,
                                  &(*reqs)[*nreq])
                      : MPI_Irecv(at + off, len, MPI_BYTE, peer, DLS__MPI_TAG_DATA, c->comm,
                                  &(*reqs)[*nreq]);
            if (rc == MPI_SUCCESS)
                ++*nreq;
        }
    }
    /* the kept elements: the overlap of the old block and the new one */
    uint64_t lo = mb->old_first > mb->new_first ? mb->old_first : mb->new_first;
    uint64_t oe = mb->old_first + mb->old_count, ne = mb->new_first + mb->new_count;
    uint64_t hi = oe < ne ? oe : ne;
    if (hi > lo)
        memmove(new_buf + (size_t)(lo - mb->new_first) * eb,
                old_buf + (size_t)(lo - mb->old_first) * eb, (size_t)(hi - lo) * eb);
    return rc;
}

dls_status dls_mpi_move(MPI_Comm comm, const dls_move_plan *plan, const uint64_t *before,
                        const void *old_buf, void *new_buf, size_t element_bytes,
                        dls_error *err)
{
    const char *fn = "dls_mpi_move";
    dls__mpi c;
    dls_status st = dls__mpi_open(&c, comm, fn, err);
    if (st != DLS_OK)
        return st;
    dls_error mine;
    memset(&mine, 0, sizeof mine);
    move_blocks mb = {0, 0, 0, 0};
    st = move_check(&c, plan, before, old_buf, new_buf, element_bytes, &mb, &mine);
    st = dls__mpi_agree(&c, st, 0, &mine, err);
    int rc = MPI_SUCCESS;
    if (st == DLS_OK) {
        int same = dls__mpi_same(&c, move_hash(plan, before, (size_t)c.size, element_bytes), &rc);
        if (same < 0)
            st = dls__mpi_failed(err, fn, "MPI_Allreduce", rc);
        else if (!same)
            st = dls__mpi_fail(err, DLS_EINVAL, fn, "the ranks pass different plans, counts "
                               "before or element_bytes");
    }
    if (st != DLS_OK) {
        dls__mpi_close(&c);
        return st;
    }
    MPI_Request *reqs = NULL;
    int nreq = 0;
    rc = move_post(&c, plan, &mb, old_buf, new_buf, element_bytes, &reqs, &nreq);
    if (reqs == NULL)
        st = dls__mpi_oom(&mine, fn);
    else if (rc != MPI_SUCCESS)
        st = dls__mpi_failed(&mine, fn, "MPI_Isend/MPI_Irecv", rc);
    /* what was posted completes before anyone returns, failed or not */
    int wrc = nreq > 0 ? MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE) : MPI_SUCCESS;
    if (st == DLS_OK && wrc != MPI_SUCCESS)
        st = dls__mpi_failed(&mine, fn, "MPI_Waitall", wrc);
    free(reqs);
    st = dls__mpi_agree(&c, st, 0, &mine, err);
    dls__mpi_close(&c);
    return st;
}
