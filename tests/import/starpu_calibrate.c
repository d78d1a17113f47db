/* Calibrates a history-based StarPU performance model for tests/import/starpu.sh: one CPU
 * codelet over a vector of doubles, run at several sizes, so that StarPU writes the model
 * file `$STARPU_HOME/.starpu/sampling/codelets/45/SYMBOL.HOST` that `dlsched import starpu`
 * then reads.
 *
 *     starpu_calibrate SYMBOL
 *
 * The sizes (in elements; StarPU's sizes are the bytes of the task's data, 8 per element):
 * 2048 to 65536, doubling, RUNS times each; LONE_TWICE twice and LONE_ONCE once. StarPU does
 * not count the first run of a size in a history-based model (it is "very often quite bogus"),
 * so LONE_TWICE gets an entry of one sample and LONE_ONCE one of none (mean 0): the entries
 * an import has to drop. StarPU may also leave out runs it finds too far from the mean
 * (STARPU_HISTORY_MAX_ERROR), so the other counts are at most RUNS - 1.
 *
 * Exit status: 0 when the tasks ran, 77 when StarPU cannot start here (no worker, for
 * example: the suite then skips), 2 for bad usage, 1 when a task could not be submitted. */
#include <starpu.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RUNS = 12, SMALLEST = 2048, LARGEST = 65536, LONE_TWICE = 131072, LONE_ONCE = 262144 };

/* v[i] <- v[i] * 1.0001 + 1: memory-bound, and long enough to be timed at these sizes. */
static void scale_cpu(void *buffers[], void *arg)
{
    (void)arg;
    size_t n = STARPU_VECTOR_GET_NX(buffers[0]);
    double *v = (double *)STARPU_VECTOR_GET_PTR(buffers[0]);
    for (size_t i = 0; i < n; i++)
        v[i] = v[i] * 1.0001 + 1;
}

static struct starpu_perfmodel model = {.type = STARPU_HISTORY_BASED};

static struct starpu_codelet codelet = {
    .cpu_funcs = {scale_cpu},
    .cpu_funcs_name = {"scale_cpu"},
    .nbuffers = 1,
    .modes = {STARPU_RW},
    .model = &model,
};

/* Runs the codelet `runs` times on a vector of n doubles, one task after the other (each
 * unregister waits for its task). Returns 0, or -1 when a task could not be submitted. */
static int run_size(size_t n, int runs)
{
    double *v = calloc(n, sizeof *v);
    if (v == NULL) {
        fprintf(stderr, "starpu_calibrate: out of memory for %zu doubles\n", n);
        return -1;
    }
    for (int r = 0; r < runs; r++) {
        starpu_data_handle_t h;
        starpu_vector_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)v, (uint32_t)n, sizeof *v);
        int ret = starpu_task_insert(&codelet, STARPU_RW, h, 0);
        starpu_data_unregister(h);
        if (ret != 0) {
            fprintf(stderr, "starpu_calibrate: starpu_task_insert: %s\n", strerror(-ret));
            free(v);
            return -1;
        }
    }
    free(v);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2 || argv[1][0] == '\0' || strchr(argv[1], '/') != NULL) {
        fprintf(stderr, "usage: starpu_calibrate SYMBOL\n");
        return 2;
    }
    model.symbol = argv[1];
    int ret = starpu_init(NULL);
    if (ret != 0) {
        fprintf(stderr, "starpu_calibrate: starpu_init: %s: StarPU cannot run here\n",
                strerror(-ret));
        return 77;
    }
    int status = 0;
    for (size_t n = SMALLEST; n <= LARGEST && status == 0; n *= 2)
        status = run_size(n, RUNS);
    if (status == 0)
        status = run_size(LONE_TWICE, 2);
    if (status == 0)
        status = run_size(LONE_ONCE, 1);
    starpu_task_wait_for_all();
    /* the model file is written here */
    starpu_shutdown();
    return status == 0 ? 0 : 1;
}
