/* Benchmark of multi-installment processing: the closed-form simulation against the number
 * of chunks and of processors, against a plain step-by-step event loop, and the sweep.
 *
 * Goals, as ratios measured in the same run on a shared machine:
 * - the simulation does not depend on the number of chunks: 2 x 10^10 chunks (the paper's
 *   Fig. 10, V = 10^11, delta = 5) take at most 3 times as long as 10^3 chunks;
 * - at p = 10^5 processors a simulation takes at most 20 times one pass evaluating every
 *   processor's model once (it evaluates each model twice, computes two chunks' times per
 *   processor, and fills the result's nine per-processor arrays, 7 MB of fresh memory);
 * - the closed form agrees within 1e-12 with a step-by-step loop over 10^8 chunks whose
 *   clock is summed with compensation (without it, the loop itself drifts by 6e-10).
 * Every timing is the fastest of several repetitions.
 *
 * usage: bench_installment [--processors P] [--repeat R]
 */
#include "benchutil.h"

/* Keeps the timed pass over the models from being optimised away. */
static volatile double sink_out;

/* p processors with two memory levels of the paper's magnitudes (in core 1e-3 s per unit
 * within a factor 3, out of core 10 to 100 times slower from a swap point near 1e8). */
static dls_platform *make_platform(size_t p, int identical)
{
    dls_platform *pl = bench_platform_new();
    dls_error err;
    for (size_t i = 0; i < p; i++) {
        double b0 = identical ? 1e-3 : 1e-3 * (0.33 + 2.7 * bench_unif());
        double b1 = identical ? 0.1 : b0 * (10 + 90 * bench_unif());
        double swap = identical ? 1e8 : 1e8 * (0.5 + bench_unif());
        double a[2] = {0, (b0 - b1) * swap}, b[2] = {b0, b1};
        dls_model *m;
        char name[32];
        snprintf(name, sizeof name, "n%zu", i);
        bench_check(dls_model_create_time_lines(2, a, b, &m, &err), &err);
        bench_add(pl, name, m, identical ? 1e-3 : 1e-3 * (0.5 + bench_unif()),
                         identical ? 9.99e-5 : 1e-6 * (0.5 + bench_unif()));
    }
    return pl;
}

typedef struct run {
    const dls_platform *pl;
    double V, delta;
    double makespan;
} run;

static double time_simulate(run *r, int repeat)
{
    bench_timer t = BENCH_TIMER;
    for (int k = 0; k < repeat; k++) {
        dls_error err;
        dls_installment *s;
        bench_start(&t);
        bench_check(dls_installment_simulate(r->pl, r->V, r->delta, NULL, &s, &err), &err);
        bench_stop(&t);
        r->makespan = dls_installment_makespan(s);
        dls_installment_free(s);
    }
    return t.best;
}

/* The event loop the closed form replaces: every chunk in turn. */
static double step_by_step(const dls_platform *pl, double V, double delta)
{
    size_t p = dls_platform_count(pl);
    double *free_at = calloc(p, sizeof *free_at), clock = 0, carry = 0, makespan = 0;
    uint64_t N = (uint64_t)ceil(V / delta);
    for (uint64_t j = 0; j < N; j++) {
        size_t i = (size_t)(j % p);
        double x = j + 1 < N ? delta : V - (double)(N - 1) * delta, S, C;
        dls_platform_link(pl, i, &S, &C);
        /* Kahan summation: 10^8 plain additions would drift by about 1e-9 */
        double y = S + C * x - carry, t = clock + y;
        carry = (t - clock) - y;
        clock = t;
        double end = fmax(clock, free_at[i]) + dls_model_time(dls_platform_model(pl, i), x);
        free_at[i] = end;
        makespan = fmax(makespan, end);
    }
    free(free_at);
    return makespan;
}

int main(int argc, char **argv)
{
    size_t big = 100000;
    int repeat = 5;
    const bench_option opt[] = {{"--processors", BENCH_SIZE, &big},
                                {"--repeat", BENCH_INT, &repeat}};
    bench_options(argc, argv, opt, 2, NULL, "[--processors P] [--repeat R]");
    int missed = 0;
    dls_error err;

    /* 1. independent of the number of chunks */
    dls_platform *paper = make_platform(10, 1);
    run few = {paper, 1e4, 10, 0}, many = {paper, 1e11, 5, 0};
    double t_few = time_simulate(&few, repeat * 20), t_many = time_simulate(&many, repeat * 20);
    printf("paper setting, p = 10: 1e3 chunks %.2f us, 2e10 chunks %.2f us (ratio %.2f, goal "
           "<= 3); makespan %.10g s\n", 1e6 * t_few, 1e6 * t_many, t_many / t_few,
           many.makespan);
    missed |= t_many > 3 * t_few;

    /* 2. against one pass over the models, p = big */
    dls_platform *wide = make_platform(big, 0);
    bench_timer pass = BENCH_TIMER;
    double sink = 0;
    for (int k = 0; k < repeat; k++) {
        bench_start(&pass);
        for (size_t i = 0; i < big; i++)
            sink += dls_model_time(dls_platform_model(wide, i), 1e4);
        bench_stop(&pass);
    }
    double t_pass = pass.best;
    run r = {wide, 1e4 * (double)big * 1000, 1e4, 0};
    double t_sim = time_simulate(&r, repeat);
    sink_out = sink;
    printf("p = %zu: one pass over the models %.3f ms, a simulation of %.3g chunks %.3f ms "
           "(%.1f passes, goal <= 20)\n", big, 1e3 * t_pass, r.V / r.delta, 1e3 * t_sim,
           t_sim / t_pass);
    missed |= t_sim > 20 * t_pass;

    /* 3. against the step-by-step loop */
    run loop = {paper, 5e8, 5, 0};
    double t_closed = time_simulate(&loop, repeat * 20), t0 = bench_now();
    double ref = step_by_step(paper, loop.V, loop.delta), t_loop = bench_now() - t0;
    double diff = fabs(ref - loop.makespan) / ref;
    printf("1e8 chunks: step by step %.3f s, closed form %.2f us; makespans %.12g and %.12g "
           "(relative difference %.2g, goal <= 1e-12)\n", t_loop, 1e6 * t_closed, ref,
           loop.makespan, diff);
    missed |= !(diff <= 1e-12);

    /* 4. the sweep */
    const size_t sizes[] = {10, 1000, 10000};
    for (int k = 0; k < 3; k++) {
        dls_platform *pl = k == 0 ? paper : make_platform(sizes[k], 0);
        double V = k == 0 ? 1e10 : 1e9 * (double)sizes[k];
        bench_timer sweep = BENCH_TIMER;
        dls_installment *s = NULL;
        for (int q = 0; q < (k == 2 ? 1 : repeat); q++) {
            dls_installment_free(s);
            bench_start(&sweep);
            bench_check(dls_installment_sweep(pl, V, NULL, &s, &err), &err);
            bench_stop(&sweep);
        }
        double best = sweep.best;
        dls_installment_sweep_info sw;
        dls_installment_rounds_info eq;
        bench_check(dls_installment_get_sweep_info(s, &sw, &err), &err);
        bench_check(dls_installment_get_rounds_info(s, &eq, &err), &err);
        printf("sweep, p = %zu, V = %g: %.3f ms, %zu sizes simulated, best chunk %.6g, makespan "
               "%.10g s\n", sizes[k], V, 1e3 * best, sw.samples, eq.chunk,
               dls_installment_makespan(s));
        dls_installment_free(s);
        if (k > 0)
            dls_platform_free(pl);
    }
    dls_platform_free(paper);
    dls_platform_free(wide);
    if (missed)
        printf("a goal was missed\n");
    return missed;
}
