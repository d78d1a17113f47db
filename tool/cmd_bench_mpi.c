/* dlsched bench --mpi: the part of the program that needs MPI (built with MPI only; main()
 * installs it). Every rank measures with dls_mpi_bench; rank 0 writes the platform file,
 * atomically, and says what happened; every rank exits with rank 0's status. */
#include <config.h>

#include <dlsched/mpi.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "tool.h"

/* What rank 0 does with the platform: the file (or standard output) and the summary. */
static int write_cluster(const tool_mpi_bench *job, const dls_platform *pl, json_t *links)
{
    dls_error err;
    dls_error_clear(&err);
    size_t n = dls_platform_count(pl);
    if (job->out != NULL && !tool_is_stdout(job->out)) {
        dls_status st = dls_platform_write_file(pl, job->out, &err);
        if (st != DLS_OK)
            return tool_fail(st, &err);
    } else if (job->out != NULL || !job->json) {
        char *doc = NULL;
        dls_status st = dls_platform_to_string(pl, &doc, &err);
        if (st != DLS_OK)
            return tool_fail(st, &err);
        int rc = tool_write_stdout(doc, "platform");
        if (rc != EXIT_DONE)
            return rc;
    }
    if (job->json) {
        json_t *procs = json_array();
        for (size_t i = 0; i < n; i++)
            json_array_append_new(procs, json_pack("{s:s,s:I,s:o}", "name", dls_platform_name(pl, i),
                                                   "points", (json_int_t)dls_model_count(dls_platform_model(pl, i)),
                                                   "limit", tool_json_number(dls_platform_limit(pl, i))));
        json_t *root = json_pack("{s:I,s:o,s:o}", "ranks", (json_int_t)n, "processors", procs,
                                 "log", tool_json_text(job->log));
        if (root != NULL && links != NULL)
            json_object_set(root, "links", links);
        if (root != NULL && job->out == NULL) {
            /* no -o: the platform in the report, never kept only in the logs */
            char *doc = NULL;
            if (dls_platform_to_string(pl, &doc, &err) == DLS_OK)
                json_object_set_new(root, "platform", json_loads(doc, 0, NULL));
            dls_free(doc);
            tool_note("the platform went to standard output, in the JSON report's "
                      "\"platform\"; -o FILE writes it to a file");
        }
        return tool_print_json(root);
    }
    int to_file = job->out != NULL && !tool_is_stdout(job->out);
    fprintf(stderr, "dlsched: measured %zu %s at once; platform written to %s (logs %s.0 to "
            "%s.%zu)\n", n, tool_plural(n, "rank", "ranks"), to_file ? job->out : "standard output (-o FILE writes it to a file)",
            job->log, job->log, n - 1);
    return EXIT_DONE;
}

/* --no-compute --merge FILE: the platform read before, its links set, written back in
 * place (atomically: the old file stays whole until the new one is). */
static int write_links_into(const tool_mpi_bench *job, const dls_platform *pl, json_t *links)
{
    dls_error err;
    dls_error_clear(&err);
    dls_status st = dls_platform_write_file(pl, job->merge, &err);
    if (st != DLS_OK)
        return tool_fail(st, &err);
    if (job->json)
        return tool_print_json(json_pack("{s:I,s:s,s:O}", "ranks",
                                         (json_int_t)dls_platform_count(pl), "platform",
                                         job->merge, "links", links));
    fprintf(stderr, "dlsched: the links of %zu %s written into %s (%.6g bytes per unit of "
            "load)\n", dls_platform_count(pl),
            tool_plural(dls_platform_count(pl), "rank", "ranks"), job->merge, job->bytes_per_unit);
    return EXIT_DONE;
}

/* The links: into the platform (rates per unit of load), and said on rank 0. */
static int report_links(const tool_mpi_bench *job, const dls_mpi_link *links, int size,
                        dls_platform *pl, json_t **json_links)
{
    dls_error err;
    dls_error_clear(&err);
    *json_links = json_array();
    for (int r = 0; r < size; r++) {
        const dls_mpi_link *l = &links[r];
        if (pl != NULL && r != 0) {
            dls_status st = dls_platform_set_link(pl, (size_t)r, l->startup,
                                                  l->rate * job->bytes_per_unit, &err);
            if (st != DLS_OK)
                return tool_fail(st, &err);
        }
        json_array_append_new(*json_links,
                              json_pack("{s:i,s:f,s:f,s:f,s:f,s:I,s:b}", "rank", r, "startup",
                                        l->startup, "rate_per_byte", l->rate, "band_low",
                                        l->low, "band_high", l->high, "points",
                                        (json_int_t)l->points, "same_node", l->same_node));
        if (!job->json && r != 0)
            fprintf(stderr, "dlsched: link 0 -> %d: %.4g s + %.4g s/byte (%.3g GB/s), %zu "
                    "message sizes, times within %.3g to %.3g of the line%s\n", r, l->startup,
                    l->rate, l->rate > 0 ? 1e-9 / l->rate : INFINITY, l->points, l->low,
                    l->high, l->same_node ? "; rank 0's node: shared memory (MPI's transport "
                    "within a node), not the network" : "");
    }
    return EXIT_DONE;
}

int tool_bench_mpi_run(const tool_mpi_bench *job)
{
    int init = 0;
    MPI_Initialized(&init);
    if (!init && MPI_Init(NULL, NULL) != MPI_SUCCESS) {
        tool_error("bench: --mpi: MPI_Init failed (run under mpirun or mpiexec)");
        return EXIT_FAILURE_RUN;
    }
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    dls_mpi_bench_params p;
    dls_mpi_bench_params_init(&p);
    p.bench = *job->bench;
    if (rank != 0) {
        /* one progress line, rank 0's */
        p.bench.progress = NULL;
    }
    p.log = job->log;
    p.resume = job->resume;
    dls_platform *pl = NULL;
    dls_error err;
    dls_error_clear(&err);
    dls_status st = DLS_OK;
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (!job->no_compute)
        st = dls_mpi_bench(MPI_COMM_WORLD, job->kernel, &p, &pl, &err);
    else if (job->merge != NULL) {
        /* the platform the links go into, read before anything is measured: a wrong file
         * stops every rank at once */
        if (rank == 0) {
            st = dls_platform_read_file(job->merge, &pl, &err);
            if (st == DLS_OK && dls_platform_count(pl) != (size_t)size) {
                st = err.status = DLS_EINVAL;
                snprintf(err.message, sizeof err.message, "bench: --merge %s: %zu %s "
                         "for %d %s (processor r takes rank r's link)", job->merge,
                         dls_platform_count(pl),
                         tool_plural(dls_platform_count(pl), "processor", "processors"), size,
                         size == 1 ? "rank" : "ranks");
            }
        }
        MPI_Bcast(&st, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    dls_mpi_link *links = NULL;
    if (st == DLS_OK && job->links) {
        dls_mpi_links_params lp;
        dls_mpi_links_params_init(&lp);
        lp.bench.max_size = job->link_max_bytes;
        lp.bench.time_budget = job->bench->time_budget > 0 ? job->bench->time_budget : 0;
        lp.bench.max_points = job->bench->max_points;
        links = calloc((size_t)size, sizeof *links);
        st = links != NULL ? dls_mpi_links(MPI_COMM_WORLD, 0, &lp, links, &err)
                           : DLS_ENOMEM;
    }
    int rc;
    json_t *jl = NULL;
    if (st == DLS_ECANCELED && tool_interrupted)
        rc = EXIT_INTERRUPTED;
    else if (st != DLS_OK)
        rc = rank == 0 ? tool_fail(st, &err) : tool_exit_for(st); /* one message, rank 0's */
    else {
        rc = EXIT_DONE;
        if (job->links && rank == 0)
            rc = report_links(job, links, size, pl, &jl);
        if (rc == EXIT_DONE && rank == 0 && !job->no_compute)
            rc = write_cluster(job, pl, jl);
        else if (rc == EXIT_DONE && rank == 0 && job->merge != NULL)
            rc = write_links_into(job, pl, jl);
        else if (rc == EXIT_DONE && rank == 0 && job->json)
            rc = tool_print_json(json_pack("{s:I,s:O}", "ranks", (json_int_t)size, "links", jl));
    }
    json_decref(jl);
    free(links);
    if (rank == 0 && rc == EXIT_INTERRUPTED)
        tool_error("interrupted: the points measured so far are in the logs %s.RANK; run the "
                   "same command with --resume to continue", job->log);
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    dls_platform_free(pl);
    if (!init)
        MPI_Finalize();
    return rc;
}
