/* What every call of libdlsched_mpi shares: the private communicator, errors, and the
 * agreement on one status and message. */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mpi_impl.h"

dls_status dls__mpi_fail(dls_error *err, dls_status status, const char *fn, const char *fmt,
                         ...)
{
    if (err == NULL)
        return status;
    char text[DLS_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    memset(err, 0, sizeof *err);
    err->status = status;
    err->processor = -1;
    /* the message is cut to the record's size (the precision tells the compiler so) */
    int room = (int)sizeof err->message - 3 - (int)strlen(fn);
    snprintf(err->message, sizeof err->message, "%s: %.*s", fn, room > 0 ? room : 0, text);
    return status;
}

dls_status dls__mpi_oom(dls_error *err, const char *fn)
{
    return dls__mpi_fail(err, DLS_ENOMEM, fn, "out of memory");
}

dls_status dls__mpi_failed(dls_error *err, const char *fn, const char *call, int code)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(code, text, &len) != MPI_SUCCESS)
        snprintf(text, sizeof text, "error %d", code);
    return dls__mpi_fail(err, DLS_EIO, fn, "%s failed: %s", call, text);
}

dls_status dls__mpi_open(dls__mpi *c, MPI_Comm comm, const char *fn, dls_error *err)
{
    int init = 0, fin = 0;
    memset(c, 0, sizeof *c);
    c->comm = MPI_COMM_NULL;
    c->fn = fn;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (!init || fin)
        return dls__mpi_fail(err, DLS_EINVAL, fn, "MPI is %s",
                             fin ? "finalized" : "not initialized (call MPI_Init first)");
    if (comm == MPI_COMM_NULL)
        return dls__mpi_fail(err, DLS_EINVAL, fn, "the communicator is MPI_COMM_NULL");
    int rc = MPI_Comm_dup(comm, &c->comm);
    if (rc != MPI_SUCCESS) {
        c->comm = MPI_COMM_NULL;
        return dls__mpi_failed(err, fn, "MPI_Comm_dup", rc);
    }
    /* failures on the duplicate come back as codes: the caller's handler is not ours to
     * change, this one is */
    MPI_Comm_set_errhandler(c->comm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(c->comm, &c->rank);
    MPI_Comm_size(c->comm, &c->size);
    int len = 0;
    if (MPI_Get_processor_name(c->host, &len) != MPI_SUCCESS || len <= 0)
        snprintf(c->host, sizeof c->host, "unknown");
    c->host[MPI_MAX_PROCESSOR_NAME] = '\0';
    return DLS_OK;
}

void dls__mpi_close(dls__mpi *c)
{
    if (c->comm != MPI_COMM_NULL)
        MPI_Comm_free(&c->comm);
    c->comm = MPI_COMM_NULL;
}

dls_status dls__mpi_agree(dls__mpi *c, dls_status st, int induced, const dls_error *mine,
                          dls_error *err)
{
    /* the key of a failure: real ones before induced ones, then by rank */
    int key = st == DLS_OK ? 2 * c->size : induced ? c->size + c->rank : c->rank;
    int best = 2 * c->size;
    int rc = MPI_Allreduce(&key, &best, 1, MPI_INT, MPI_MIN, c->comm);
    if (rc != MPI_SUCCESS)
        return dls__mpi_failed(err, c->fn, "MPI_Allreduce", rc);
    if (best == 2 * c->size)
        return DLS_OK;
    int who = best % c->size;
    dls_error e;
    memset(&e, 0, sizeof e);
    if (c->rank == who) {
        e.status = st;
        e.processor = c->rank;
        /* the failing call's own message, located on this rank and host (without this
         * function's name twice) */
        const char *m = mine != NULL && mine->message[0] ? mine->message : dls_strerror(st);
        size_t fl = strlen(c->fn);
        if (strncmp(m, c->fn, fl) == 0 && m[fl] == ':' && m[fl + 1] == ' ')
            m += fl + 2;
        snprintf(e.message, sizeof e.message, "%s: rank %d (%.64s): ", c->fn, c->rank, c->host);
        size_t len = strlen(e.message), ml = strlen(m);
        if (ml > sizeof e.message - 1 - len)
            ml = sizeof e.message - 1 - len; /* cut to the record's size */
        memcpy(e.message + len, m, ml);
        e.message[len + ml] = '\0';
    }
    rc = MPI_Bcast(&e, (int)sizeof e, MPI_BYTE, who, c->comm);
    if (rc != MPI_SUCCESS)
        return dls__mpi_failed(err, c->fn, "MPI_Bcast", rc);
    if (err != NULL)
        *err = e;
    return e.status;
}

unsigned long long dls__mpi_hash(const void *data, size_t len, unsigned long long h)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

double dls__mpi_clock(int global)
{
#if defined(_POSIX_MONOTONIC_CLOCK) && _POSIX_MONOTONIC_CLOCK >= 0
    struct timespec ts;
    if (!global && clock_gettime(CLOCK_MONOTONIC, &ts) == 0)
        return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#else
    (void)global;
#endif
    return MPI_Wtime();
}

int dls__mpi_same(dls__mpi *c, unsigned long long v, int *rc)
{
    unsigned long long lo = 0, hi = 0;
    *rc = MPI_Allreduce(&v, &lo, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, c->comm);
    if (*rc == MPI_SUCCESS)
        *rc = MPI_Allreduce(&v, &hi, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, c->comm);
    return *rc != MPI_SUCCESS ? -1 : lo == hi;
}
