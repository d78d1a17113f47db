/* Inside libdlsched_mpi: a call's context on its private duplicate of the caller's
 * communicator, errors in dls_error records, and the agreement by which every rank returns
 * the status and message of the lowest rank that failed. The MPI library is built on the
 * public API of libdlsched only (its private symbols are not exported). */
#ifndef DLSCHED_MPI_IMPL_H
#define DLSCHED_MPI_IMPL_H

#include <dlsched/mpi.h>

/* Tags on the private communicator. */
enum { DLS__MPI_TAG_ABORT = 1, DLS__MPI_TAG_DATA = 2 };

typedef struct dls__mpi {
    MPI_Comm comm;                       /* the duplicate (MPI_COMM_NULL: none yet) */
    int rank, size;
    const char *fn;                      /* the public function, for messages */
    char host[MPI_MAX_PROCESSOR_NAME + 1];
} dls__mpi;

/* Duplicates comm (errors returned, not fatal) and reads rank, size and host. Collective.
 * On failure err is filled, and nothing is left to free. */
dls_status dls__mpi_open(dls__mpi *c, MPI_Comm comm, const char *fn,
                                        dls_error *err);
/* Frees the duplicate (collective). */
void dls__mpi_close(dls__mpi *c);

/* Fills err (may be NULL) with status and "FN: message"; returns status. */
dls_status dls__mpi_fail(dls_error *err, dls_status status, const char *fn,
                                        const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* DLS_ENOMEM with "FN: out of memory": the one out-of-memory failure of the MPI layer. */
dls_status dls__mpi_oom(dls_error *err, const char *fn);
/* An MPI call's failure as DLS_EIO naming the call and MPI's message. */
dls_status dls__mpi_failed(dls_error *err, const char *fn, const char *call,
                                          int code);

/* The agreement: every rank passes its own status (and its error when it failed; induced
 * = 1 when it only stopped because another rank failed). The lowest rank among the real
 * failures (else among the induced ones) wins: every rank gets its status, and its
 * message prefixed with "FN: rank R (HOST): " unless it is already about the
 * communicator. Returns DLS_OK when every rank succeeded. */
dls_status dls__mpi_agree(dls__mpi *c, dls_status st, int induced,
                                         const dls_error *mine, dls_error *err);

/* Whether v is the same on every rank of c: 1 yes, 0 no, -1 an MPI failure (its code in
 * *rc). Collective. */
int dls__mpi_same(dls__mpi *c, unsigned long long v, int *rc);

/* Seconds on MPI_Wtime when global is set, else on the node's monotonic clock (one for
 * every process of the node; MPI_Wtime when the system has none). */
double dls__mpi_clock(int global);

/* FNV-1a over bytes, for comparing and logging parameters. */
unsigned long long dls__mpi_hash(const void *data, size_t len,
                                                unsigned long long h);
#define DLS__MPI_HASH_SEED 14695981039346656037ull

#endif /* DLSCHED_MPI_IMPL_H */
