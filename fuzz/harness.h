/* What the fuzz targets share. Each target is one file that defines dls_fuzz_one(); it is
 * linked either with libfuzzer.c (the libFuzzer entry points, clang builds configured with
 * --enable-fuzzing) or with replay.c (a plain program that `make check` runs over the
 * target's corpus and regression inputs), so that both run exactly the same code.
 *
 * The targets see the public headers and the tool's tool.h, nothing of src/. */
#ifndef DLSCHED_FUZZ_HARNESS_H
#define DLSCHED_FUZZ_HARNESS_H

#include <stddef.h>
#include <stdint.h>

/* Runs one input; returns 0 (libFuzzer's convention). A property that does not hold is
 * reported through FUZZ_CHECK, which aborts. Defined by each target. */
int dls_fuzz_one(const uint8_t *data, size_t size);

/* The target's name ("platform", "cli", ...), defined by each target. */
extern const char dls_fuzz_target[];

/* Once, before the first input: creates the private temporary directory (removed at exit)
 * and the sink of the tool's output. Exits with a message when it cannot. */
void dls_fuzz_init(void);

/* The path of `name` inside the private directory; `name` is a plain file name. */
const char *dls_fuzz_path(const char *name, char *buf, size_t size);

/* Writes `size` bytes into the file `name` of the private directory; 0, or -1 (then the
 * input is not run: the disk, not the code under test, failed). */
int dls_fuzz_write(const char *name, const void *data, size_t size);

/* Removes every file of the private directory, so that no input sees what an earlier one
 * wrote (the runs stay reproducible one input at a time). */
void dls_fuzz_clean(void);

/* Runs the dlsched program's dispatcher on argv (argv[0] is the program's name) with its
 * standard output and standard error sent to the sink, and returns its exit status.
 * DLS_FUZZ_VERBOSE=1 in the environment prints argv and leaves the output on the terminal,
 * to study an input. */
int dls_fuzz_tool(int argc, char **argv);

/* The same with the standard output written to the file `out_name` of the private
 * directory (standard error still to the sink), so that a target can read it back. */
int dls_fuzz_tool_out(int argc, char **argv, const char *out_name);

/* Reports a broken property and aborts: the fuzzer saves the input as a crash. */
void dls_fuzz_fail(const char *file, int line, const char *what)
    __attribute__((noreturn));
#define FUZZ_CHECK(cond)                                                                     \
    do {                                                                                     \
        if (!(cond))                                                                         \
            dls_fuzz_fail(__FILE__, __LINE__, #cond);                                        \
    } while (0)

/* Seconds one input may take, here and in CI (libFuzzer's -timeout). */
#define DLS_FUZZ_TIMEOUT_S 10

#endif /* DLSCHED_FUZZ_HARNESS_H */
