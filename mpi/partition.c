/* dls_mpi_partition: one partition computed on rank 0, every rank's share broadcast. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "mpi_impl.h"

#define FN "dls_mpi_partition"

/* Which arguments every rank must pass alike: n and a hash of the parameters (NULL or
 * not, then their bytes, the caller's pointers excluded). */
static unsigned long long args_hash(uint64_t n, const dls_partition_params *p)
{
    unsigned long long h = dls__mpi_hash(&n, sizeof n, DLS__MPI_HASH_SEED);
    int given = p != NULL;
    h = dls__mpi_hash(&given, sizeof given, h);
    if (p != NULL) {
        int v[4] = {p->use_limits, p->ordered, p->reorder, (int)p->method};
        h = dls__mpi_hash(v, sizeof v, h);
        h = dls__mpi_hash(&p->max_moves, sizeof p->max_moves, h);
    }
    return h;
}

dls_status dls_mpi_partition(MPI_Comm comm, const dls_platform *platform, uint64_t n,
                             const dls_partition_params *params, uint64_t *my_count,
                             uint64_t *my_offset, uint64_t *counts, dls_error *err)
{
    dls__mpi c;
    dls_status st = dls__mpi_open(&c, comm, FN, err);
    if (st != DLS_OK)
        return st;
    dls_error mine;
    memset(&mine, 0, sizeof mine);
    if (my_count == NULL || my_offset == NULL)
        st = dls__mpi_fail(&mine, DLS_EINVAL, FN, "NULL %s", my_count ? "my_offset" : "my_count");
    else if (params != NULL && (params->weights != NULL || params->metric != NULL))
        st = dls__mpi_fail(&mine, DLS_EINVAL, FN, "weights and metrics are not supported "
                           "across ranks (partition on one rank and send the counts)");
    else if (c.rank == 0 && platform == NULL)
        st = dls__mpi_fail(&mine, DLS_EINVAL, FN, "NULL platform on rank 0");
    else if (c.rank == 0 && dls_platform_count(platform) != (size_t)c.size)
        st = dls__mpi_fail(&mine, DLS_EINVAL, FN, "the platform has %zu processors and the "
                           "communicator %d ranks (processor i is rank i)",
                           dls_platform_count(platform), c.size);
    /* n and the parameters alike everywhere */
    int rc = MPI_SUCCESS;
    int same = dls__mpi_same(&c, args_hash(n, params), &rc);
    if (rc != MPI_SUCCESS && st == DLS_OK)
        st = dls__mpi_failed(&mine, FN, "MPI_Allreduce", rc);
    st = dls__mpi_agree(&c, st, 0, &mine, err);
    if (st == DLS_OK && same == 0)
        st = dls__mpi_fail(err, DLS_EINVAL, FN, "the ranks pass different n or parameters");
    if (st != DLS_OK) {
        dls__mpi_close(&c);
        return st;
    }

    /* rank 0 solves; counts and first elements travel together */
    size_t p = (size_t)c.size;
    uint64_t *buf = calloc(2 * p, sizeof *buf);
    if (buf == NULL)
        st = dls__mpi_oom(&mine, FN);
    if (st == DLS_OK && c.rank == 0) {
        dls_partition *part = NULL;
        st = dls_partition_solve(platform, n, params, &part, &mine);
        if (st == DLS_OK && dls_partition_status(part) == DLS_SOLUTION_INFEASIBLE)
            st = dls__mpi_fail(&mine, DLS_EDATA, FN, "the limits cannot hold %llu elements "
                               "(capacity %.17g): %s", (unsigned long long)n,
                               dls_partition_capacity(part), dls_partition_note(part));
        if (st == DLS_OK) {
            const uint64_t *el = dls_partition_elements(part), *first = dls_partition_first(part);
            uint64_t at = 0;
            for (size_t i = 0; i < p; i++) {
                buf[i] = el[i];
                buf[p + i] = first != NULL ? first[i] : at;
                at += el[i];
            }
        }
        dls_partition_free(part);
    }
    st = dls__mpi_agree(&c, st, 0, &mine, err);
    if (st == DLS_OK) {
        rc = MPI_Bcast(buf, (int)(2 * p), MPI_UINT64_T, 0, c.comm);
        if (rc != MPI_SUCCESS)
            st = dls__mpi_failed(err, FN, "MPI_Bcast", rc);
    }
    if (st == DLS_OK) {
        *my_count = buf[c.rank];
        *my_offset = buf[p + (size_t)c.rank];
        if (counts != NULL)
            memcpy(counts, buf, p * sizeof *counts);
    }
    free(buf);
    dls__mpi_close(&c);
    return st;
}
