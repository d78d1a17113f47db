/**
 * @mainpage dlsched: how much work each processor of a heterogeneous platform should get
 *
 * The C library's reference, generated from its headers. Start from dlsched.h, which lists
 * the modules, one header each; every call has its page here and as a man page
 * (`man 3 dls_schedule_solve`, `man 3 dlsched` for the overview). The file formats are
 * `dlsched-platform(5)` and `dlsched-json(5)`, with JSON Schemas in the package's data
 * directory (`share/dlsched/schema`); doc/TUTORIAL.md walks from reading a platform to a
 * verified schedule, and the tool is `dlsched(1)`.
 *
 * Conventions: every fallible call returns a ::dls_status and fills an optional
 * ::dls_error with a message naming the file, line, processor and value; objects are
 * opaque with create and free calls; parameter structs are filled by an init call (NULL
 * means the defaults) and checked on entry; the library never prints, exits or aborts and
 * keeps no global state.
 */
/**
 * @file dlsched.h
 * @brief dlsched: how much work each processor of a heterogeneous platform should get.
 *
 * Include this one header; it pulls in every module:
 * - dlsched/common.h: status codes, error records, version;
 * - dlsched/model.h: performance models of a processor (speed functions, time lines);
 * - dlsched/platform.h: platforms and their JSON files;
 * - dlsched/partition.h: geometric partitioning of sets (equal or weighted elements);
 * - dlsched/schedule.h: divisible-load scheduling on a star network (the LP, with GLPK);
 * - dlsched/kernel.h: what is measured: kernels (the caller's, simulated, OpenBLAS);
 * - dlsched/bench.h: building speed functions by measurement;
 * - dlsched/lu.h: column distributions for parallel LU factorization;
 * - dlsched/crosscheck.h: the LP and the geometric partitioners checking each other;
 * - dlsched/plot.h: speed functions of a platform drawn as SVG;
 * - dlsched/installment.h: multi-installment processing (chunk sizes, exact simulation);
 * - dlsched/import.h: models from StarPU performance files and CSV timings, and back;
 * - dlsched/verify.h: schedules and partitions written by any tool, checked and measured.
 *
 * dlsched/version.h (the version macros) comes with it; dlsched/mpi.h, the optional MPI
 * layer (libdlsched_mpi), is included on its own.
 */
#ifndef DLSCHED_H
#define DLSCHED_H

#include <dlsched/version.h>
#include <dlsched/common.h>
#include <dlsched/model.h>
#include <dlsched/platform.h>
#include <dlsched/partition.h>
#include <dlsched/balance.h>
#include <dlsched/schedule.h>
#include <dlsched/kernel.h>
#include <dlsched/bench.h>
#include <dlsched/lu.h>
#include <dlsched/crosscheck.h>
#include <dlsched/plot.h>
#include <dlsched/installment.h>
#include <dlsched/import.h>
#include <dlsched/verify.h>
#include <dlsched/simgrid.h>

#endif /* DLSCHED_H */
