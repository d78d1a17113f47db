#!/usr/bin/env python3
"""Writes the C source of dlsched._dlsched, the cffi (API mode) extension of the binding.

The declarations cffi needs come from the public headers themselves, through the C
preprocessor, so that the binding cannot drift from the library: a changed signature
changes the cdef, and the C compiler then checks every call against the real header.

    python3 build_ffi.py --include DIR [--cpp CMD] [--mpi] OUTPUT.c
"""
import argparse
import os
import re
import shlex
import subprocess
import sys

import cffi

# The headers bound, in the order of include/dlsched.h (simgrid.h and mpi.h aside: the
# first needs SimGrid to do anything, the second is the separate _dlsched_mpi module).
HEADERS = ["version.h", "common.h", "model.h", "platform.h", "partition.h",
           "balance.h", "schedule.h", "kernel.h", "bench.h", "lu.h", "crosscheck.h",
           "plot.h", "installment.h", "import.h", "verify.h"]

# Integer and floating macros worth having in Python (dlsched.lib.NAME).
INT_MACRO = re.compile(r"^#define\s+(DLS_[A-Z0-9_]+)\s+\(?\s*(?:\(size_t\)\s*)?"
                       r"(\d+)[uUlL]*(?:\s*<<\s*\d+)?\s*\)?\s*$")
FLOAT_MACRO = re.compile(r"^#define\s+(DLS_[A-Z0-9_]+)\s+([0-9.]+[eE][-+]?\d+|\d+\.\d*)\s*$")

# C helpers of the binding itself (HELPERS_SOURCE): loops over processors that would cost
# a Python call each.
HELPERS_CDEF = """
dls_status dlspy_platform_from_arrays(size_t n, const double *speeds, size_t k,
    const double *sizes, const double *limits, const double *startup, const double *rate,
    const char *names, dls_platform **out, dls_error *err);
dls_status dlspy_installment_events(const dls_installment *s, uint64_t n, int64_t *proc,
    int64_t *round, double *out, dls_error *err);
dls_status dlspy_claim_set_all(dls_claim *claim, size_t p, const double *loads,
    const double *times, dls_error *err);
"""

HELPERS_SOURCE = r"""
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Processor i's model: constant (k == 0) or k points of row i. */
static dls_status dlspy_model(size_t i, const double *speeds, size_t k, const double *sizes,
                              dls_model **model, dls_error *err)
{
    if (k == 0)
        return dls_model_create_constant(speeds[i], model, err);
    return dls_model_create_points(k, sizes + i * k, speeds + i * k, NULL, NULL, model, err);
}

/* One processor: its model, name, limit and link; err->processor names it on failure. */
static dls_status dlspy_add(dls_platform *p, size_t i, const char *name, const double *speeds,
                            size_t k, const double *sizes, const double *limits,
                            const double *startup, const double *rate, dls_error *err)
{
    dls_model *model = NULL;
    dls_status st = dlspy_model(i, speeds, k, sizes, &model, err);
    if (st == DLS_OK) {
        st = dls_platform_add(p, name, model, NULL, err);
        dls_model_free(model);
    }
    if (st == DLS_OK && limits != NULL && !isinf(limits[i]))
        st = dls_platform_set_limit(p, i, limits[i], err);
    if (st == DLS_OK && (startup != NULL || rate != NULL))
        st = dls_platform_set_link(p, i, startup ? startup[i] : 0.0, rate ? rate[i] : 0.0, err);
    if (st != DLS_OK && err != NULL)
        err->processor = (long)i;
    return st;
}

/* A platform of n processors from arrays (NULL: none given); names is n NUL-terminated
 * names one after the other, or NULL for p0, p1, ... */
dls_status dlspy_platform_from_arrays(size_t n, const double *speeds, size_t k,
    const double *sizes, const double *limits, const double *startup, const double *rate,
    const char *names, dls_platform **out, dls_error *err)
{
    dls_platform *p = NULL;
    char name[32];
    dls_status st = dls_platform_create(&p, err);
    for (size_t i = 0; st == DLS_OK && i < n; i++) {
        const char *this_name = names;
        if (names != NULL)
            names += strlen(names) + 1;
        else {
            snprintf(name, sizeof name, "p%zu", i);
            this_name = name;
        }
        st = dlspy_add(p, i, this_name, speeds, k, sizes, limits, startup, rate, err);
    }
    if (st != DLS_OK) {
        dls_platform_free(p);
        return st;
    }
    *out = p;
    return DLS_OK;
}

/* The first n chunks of an installments schedule (installments.py's per-chunk arrays):
 * processor and round of each, and 7 rows of n doubles in out: size, send start and end,
 * compute start and end, return start and end (10^7 chunks in C, not 10^7 Python calls). */
dls_status dlspy_installment_events(const dls_installment *s, uint64_t n, int64_t *proc,
    int64_t *round, double *out, dls_error *err)
{
    dls_installment_event ev;
    for (uint64_t k = 0; k < n; k++) {
        dls_status st = dls_installment_event_at(s, k, &ev, err);
        if (st == DLS_OK)
            st = dls_installment_return_at(s, k, out + 5 * n + k, out + 6 * n + k, err);
        if (st != DLS_OK)
            return st;
        proc[k] = (int64_t)ev.processor;
        round[k] = (int64_t)ev.round;
        out[k] = ev.size;
        out[n + k] = ev.send_start;
        out[2 * n + k] = ev.send_end;
        out[3 * n + k] = ev.compute_start;
        out[4 * n + k] = ev.compute_end;
    }
    return DLS_OK;
}

/* What a claim says of each of its p processors (verify.py's claims from arrays): loads[i]
 * and row i of times (p rows of send start, send end, compute start, finish; NULL: none
 * given); err->processor names the one refused. */
dls_status dlspy_claim_set_all(dls_claim *claim, size_t p, const double *loads,
    const double *times, dls_error *err)
{
    for (size_t i = 0; i < p; i++) {
        const double *t = times != NULL ? times + 4 * i : NULL;
        dls_status st = dls_claim_set(claim, i, loads[i], t ? t[0] : NAN, t ? t[1] : NAN,
                                      t ? t[2] : NAN, t ? t[3] : NAN, err);
        if (st != DLS_OK) {
            if (err != NULL)
                err->processor = (long)i;
            return st;
        }
    }
    return DLS_OK;
}
"""

# The MPI module dlsched._dlsched_mpi (--mpi): C helpers that take a pointer to an
# MPI_Comm (mpi4py's MPI._addressof(comm)), so that the cdef never needs MPI's own types,
# whose definitions differ between MPI implementations (a pointer in Open MPI, an int in
# MPICH). The library's types come from dlsched._dlsched (ffi.include): a Balancer's
# dls_balance * passes as it is.
MPI_HELPERS_CDEF = """
dls_status dlspy_mpi_balance(const void *comm, dls_balance *balance, double my_time,
    uint64_t *my_share, uint64_t *my_first, dls_error *err);
dls_status dlspy_mpi_move(const void *comm, const dls_move_plan *plan,
    const uint64_t *before, const void *old_buf, void *new_buf, size_t element_bytes,
    dls_error *err);
dls_status dlspy_mpi_partition(const void *comm, const dls_platform *platform, uint64_t n,
    const dls_partition_params *params, uint64_t *my_count, uint64_t *my_offset,
    uint64_t *counts, dls_error *err);
"""

MPI_HELPERS_SOURCE = r"""
#include <dlsched/mpi.h>

static MPI_Comm dlspy_comm(const void *comm)
{
    return *(const MPI_Comm *)comm;
}

dls_status dlspy_mpi_balance(const void *comm, dls_balance *balance, double my_time,
    uint64_t *my_share, uint64_t *my_first, dls_error *err)
{
    return dls_mpi_balance(dlspy_comm(comm), balance, my_time, my_share, my_first, err);
}

dls_status dlspy_mpi_move(const void *comm, const dls_move_plan *plan,
    const uint64_t *before, const void *old_buf, void *new_buf, size_t element_bytes,
    dls_error *err)
{
    return dls_mpi_move(dlspy_comm(comm), plan, before, old_buf, new_buf, element_bytes, err);
}

dls_status dlspy_mpi_partition(const void *comm, const dls_platform *platform, uint64_t n,
    const dls_partition_params *params, uint64_t *my_count, uint64_t *my_offset,
    uint64_t *counts, dls_error *err)
{
    return dls_mpi_partition(dlspy_comm(comm), platform, n, params, my_count, my_offset,
                             counts, err);
}
"""

# Python callbacks the library calls back into (bench kernels).
CALLBACKS = """
extern "Python" double dls_py_kernel_run(double, double *, void *);
"""


def header_path(includes, name):
    """The first include folder that has dlsched/NAME (version.h is made in the build
    tree, the others are in the source tree)."""
    for folder in includes:
        path = os.path.join(folder, "dlsched", name)
        if os.path.exists(path):
            return path
    raise FileNotFoundError("dlsched/%s in none of %s" % (name, ", ".join(includes)))


def header_text(includes, names):
    """The headers concatenated, without #include lines (the preprocessor must not pull
    in the system's headers, which cffi's parser cannot read)."""
    out = []
    for name in names:
        with open(header_path(includes, name), encoding="utf-8") as f:
            out.extend(line for line in f if not line.lstrip().startswith("#include"))
    return "".join(out)


def macros(text):
    """#define lines for the integer constants and static const doubles for the others."""
    out = []
    for line in text.splitlines():
        m = INT_MACRO.match(line)
        if m:
            out.append("#define %s ..." % m.group(1))
            continue
        m = FLOAT_MACRO.match(line)
        if m:
            out.append("static const double %s;" % m.group(1))
    return "\n".join(out)


def preprocess(cpp, text):
    """Runs the C preprocessor, which expands the X-macro enums, then drops what cffi's
    parser does not read: attributes and the types it already knows."""
    cmd = shlex.split(cpp) + ["-P", "-undef", "-D__STDC__=1", "-DDLS_CFFI=1", "-"]
    res = subprocess.run(cmd, input=text, capture_output=True, text=True, check=True)
    code = res.stdout
    code = re.sub(r"__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)", "", code)
    # A length cffi cannot evaluate (the reserved tails, sized with sizeof) is left to
    # the compiler: in API mode "[...]" takes the header's own value.
    code = re.sub(r"\[([^\]]*[^0-9\s\]][^\]]*)\]", "[...]", code)
    return code


def cdef_text(includes, cpp):
    text = header_text(includes, HEADERS)
    return preprocess(cpp, text) + "\n" + macros(text) + "\n"


def main_ffi(cdef):
    """The FFI of dlsched._dlsched."""
    ffi = cffi.FFI()
    ffi.cdef(cdef)
    ffi.cdef(CALLBACKS)
    ffi.cdef(HELPERS_CDEF)
    ffi.set_source("dlsched._dlsched", "#include <dlsched.h>\n" + HELPERS_SOURCE)
    return ffi


def mpi_ffi(cdef):
    """The FFI of dlsched._dlsched_mpi: the helpers over dlsched._dlsched's types."""
    ffi = cffi.FFI()
    ffi.include(main_ffi(cdef))
    ffi.cdef(MPI_HELPERS_CDEF)
    ffi.set_source("dlsched._dlsched_mpi", "#include <dlsched.h>\n" + MPI_HELPERS_SOURCE)
    return ffi


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--include", required=True, action="append",
                    help="an include/ folder (repeat: the build tree's, the source tree's)")
    ap.add_argument("--cpp", default=os.environ.get("CPP", "cpp"))
    ap.add_argument("--cdef", help="also write the cdef text here (to read it)")
    ap.add_argument("--mpi", action="store_true",
                    help="write dlsched._dlsched_mpi (the MPI helpers) instead")
    ap.add_argument("output")
    args = ap.parse_args(argv)
    cdef = cdef_text(args.include, args.cpp)
    ffi = mpi_ffi(cdef) if args.mpi else main_ffi(cdef)
    if args.cdef:
        with open(args.cdef, "w", encoding="utf-8") as f:
            f.write(cdef)
    tmp = args.output + ".tmp"
    ffi.emit_c_code(tmp)
    os.replace(tmp, args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
