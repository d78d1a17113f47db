/* What a program that links dlsched keeps of its own state: its locale (exports read the
 * same under a decimal-comma locale, and glpsol reads them back), its GLPK (hooks,
 * problems and terminal switch survive every call that uses GLPK), and its threads
 * (solves, partitions and SVG writers give the serial results from several threads). */
#include <config.h>

#include <glpk.h>
#include <pthread.h>
#include <setjmp.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

static const dls_export_format formats[] = {DLS_EXPORT_LP, DLS_EXPORT_MPS, DLS_EXPORT_GLPK,
                                            DLS_EXPORT_MATHPROG};
static const char *const format_names[] = {"lp", "mps", "glpk", "mathprog"};
#define NFORMATS (sizeof formats / sizeof formats[0])

/* The export's LP solved by glpsol (GLPSOL from configure); NAN when it cannot. */
static double glpsol_objective(const char *file, dls_export_format f, const char *dir)
{
    char cmd[4096], sol[512];
    if (snprintf(sol, sizeof sol, "%s/sol.txt", dir) >= (int)sizeof sol)
        return NAN;
    const char *how = f == DLS_EXPORT_LP    ? "--lp"
                      : f == DLS_EXPORT_MPS ? "--freemps"
                      : f == DLS_EXPORT_GLPK ? "--glp"
                                             : NULL;
    int len;
    if (how != NULL)
        len = snprintf(cmd, sizeof cmd, "'%s' %s '%s' -w '%s' >/dev/null 2>&1", GLPSOL, how,
                       file, sol);
    else
        len = snprintf(cmd, sizeof cmd, "'%s' -m '%s/lp/star.mod' -d '%s' -w '%s' >/dev/null 2>&1",
                       GLPSOL, TOP_SRCDIR, file, sol);
    if (len < 0 || len >= (int)sizeof cmd || system(cmd) != 0)
        return NAN;
    FILE *in = fopen(sol, "r");
    char line[512];
    double obj = NAN;
    while (in && fgets(line, sizeof line, in))
        if (line[0] == 's' && line[1] == ' ') {
            /* "s bas ROWS COLS PST DST OBJ" */
            char *last = strrchr(line, ' ');
            /* glpsol writes '.', whatever the locale this test switched to */
            locale_t c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
            locale_t was = uselocale(c);
            obj = last ? strtod(last + 1, NULL) : NAN;
            uselocale(was);
            freelocale(c);
            break;
        }
    if (in)
        fclose(in);
    return obj;
}

/* Under a decimal-comma locale, every export is byte for byte the one written under "C",
 * and glpsol reads it back to the paper's makespan. */
TEST(test_exports_under_a_comma_locale)
{
    dls_error err;
    dls_platform *pl = test_example("star_cluster.json");
    dls_schedule_params par;
    dls_schedule_params_init(&par);
    par.drop_unused = 0; /* the paper's LP: what the exports state */
    dls_schedule *s;
    assert_ok(dls_schedule_solve(pl, 1e6, &par, &s, &err), &err);
    double paper = dls_schedule_paper_makespan(s);
    dls_schedule_free(s);
    char *in_c[NFORMATS];
    for (size_t f = 0; f < NFORMATS; f++)
        assert_ok(dls_schedule_lp_to_string(pl, 1e6, &par, formats[f], &in_c[f], &err), &err);

    const char *comma = test_decimal_comma_locale();
    if (comma == NULL) {
        for (size_t f = 0; f < NFORMATS; f++)
            dls_free(in_c[f]);
        dls_platform_free(pl);
        skip(); /* no locale with a decimal comma, and none could be built */
        return;
    }
    setlocale(LC_ALL, comma);
    char probe[16];
    snprintf(probe, sizeof probe, "%g", 0.5);
    assert_string_equal(probe, "0,5"); /* the locale is in force */
    char dir[] = "/tmp/dlsched-host.XXXXXX";
    assert_non_null(mkdtemp(dir));
    for (size_t f = 0; f < NFORMATS; f++) {
        char *text;
        assert_ok(dls_schedule_lp_to_string(pl, 1e6, &par, formats[f], &text, &err), &err);
        assert_string_equal(text, in_c[f]);
        dls_free(text);
        char path[512];
        snprintf(path, sizeof path, "%s/star.%s", dir, format_names[f]);
        assert_ok(dls_schedule_lp_write_file(pl, 1e6, &par, formats[f], path, &err), &err);
        char *back = test_read_text(path);
        assert_string_equal(back, in_c[f]);
        free(back);
        double obj = glpsol_objective(path, formats[f], dir);
        printf("# %s written under %s: glpsol finds %.17g, dlsched %.17g\n", format_names[f],
               comma, obj, paper);
        assert_true(test_close(obj, paper, 1e-9, 0));
        unlink(path);
    }
    setlocale(LC_ALL, "C");
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    for (size_t f = 0; f < NFORMATS; f++)
        dls_free(in_c[f]);
    dls_platform_free(pl);
}

/* ---------------------------------------------------------------------------------- */
/* The host's GLPK */

typedef struct host_glpk {
    int printed;      /* lines the host's terminal hook saw */
    jmp_buf back;     /* where the host's error hook returns to */
    int errors;
} host_glpk;

static int host_term(void *info, const char *s)
{
    host_glpk *h = info;
    (void)s;
    h->printed++;
    return 1;
}

static void host_error(void *info)
{
    host_glpk *h = info;
    h->errors++;
    longjmp(h->back, 1);
}

/* Every dlsched call that uses GLPK (the LP, its GLPK-written exports, the MIP, a GLPK
 * failure inside dlsched) leaves the calling thread's GLPK as it was: the hooks still
 * called, the terminal switch as set, the problem objects alive. */
TEST(test_glpk_of_the_host_survives)
{
    static host_glpk h; /* static: read after a longjmp */
    memset(&h, 0, sizeof h);
    glp_term_hook(host_term, &h);
    glp_error_hook(host_error, &h);
    int old_out = glp_term_out(GLP_ON);
    glp_prob *mine = glp_create_prob();
    glp_add_rows(mine, 3);

    dls_error err;
    dls_platform *pl = test_example("star_cluster.json");
    dls_schedule *s;
    assert_ok(dls_schedule_solve(pl, 1e6, NULL, &s, &err), &err);
    dls_schedule_free(s);
    char *text;
    assert_ok(dls_schedule_lp_to_string(pl, 1e6, NULL, DLS_EXPORT_LP, &text, &err), &err);
    dls_free(text);
    dls_platform *small = test_example("star_two.json");
    dls_mip_params mp;
    dls_mip_params_init(&mp);
    assert_ok(dls_schedule_solve_integer(small, 20, NULL, &mp, &s, &err), &err);
    dls_schedule_free(s);
    dls_platform_free(small);
    dls_platform_free(pl);
    assert_int_equal(h.printed, 0); /* dlsched's GLPK printed nothing through our hook */

    /* the host's GLPK is as it was */
    assert_int_equal(glp_get_num_rows(mine), 3);
    assert_int_equal(glp_term_out(GLP_ON), GLP_ON);
    glp_printf("the host prints\n");
    assert_int_equal(h.printed, 1);
    if (setjmp(h.back) == 0)
        glp_set_col_bnds(mine, 99, GLP_LO, 0, 0); /* no column 99: GLPK's error */
    assert_int_equal(h.errors, 1);
    /* after an internal error GLPK's environment must go (GLPK's rule), the host's own */
    glp_free_env();
    (void)old_out;
}

/* ---------------------------------------------------------------------------------- */
/* Threads */

typedef struct outputs {
    double makespan, partition_makespan;
    char *gantt, *plot, *mps;
} outputs;

static void compute(const dls_platform *star, const dls_platform *levels, outputs *o)
{
    dls_error err;
    dls_schedule *s;
    assert_ok(dls_schedule_solve(star, 1e6, NULL, &s, &err), &err);
    o->makespan = dls_schedule_makespan(s);
    assert_ok(dls_schedule_gantt_to_string(s, star, &o->gantt, &err), &err);
    dls_schedule_free(s);
    dls_partition *p;
    assert_ok(dls_partition_solve(levels, 100000000, NULL, &p, &err), &err);
    o->partition_makespan = dls_partition_makespan(p);
    dls_partition_free(p);
    assert_ok(dls_plot_to_string(levels, NULL, &o->plot, &err), &err);
    assert_ok(dls_schedule_lp_to_string(star, 1e6, NULL, DLS_EXPORT_MPS, &o->mps, &err), &err);
}

static void outputs_free(outputs *o)
{
    dls_free(o->gantt);
    dls_free(o->plot);
    dls_free(o->mps);
}

#define THREADS 4
#define ROUNDS 3

typedef struct job {
    const dls_platform *star, *levels;
    const outputs *serial;
    int mismatches;
} job;

static void *worker(void *arg)
{
    job *j = arg;
    for (int r = 0; r < ROUNDS; r++) {
        outputs o;
        compute(j->star, j->levels, &o);
        j->mismatches += o.makespan != j->serial->makespan ||
                         o.partition_makespan != j->serial->partition_makespan ||
                         strcmp(o.gantt, j->serial->gantt) != 0 ||
                         strcmp(o.plot, j->serial->plot) != 0 ||
                         strcmp(o.mps, j->serial->mps) != 0;
        outputs_free(&o);
    }
    return NULL;
}

/* The same platforms shared by several threads at once (read-only, as the contract
 * allows): every result is the serial one, to the bit and to the byte. */
TEST(test_threads_give_the_serial_results)
{
    dls_platform *star = test_example("star_cluster.json");
    dls_platform *levels = test_example("memory_levels.json");
    outputs serial;
    compute(star, levels, &serial);
    pthread_t t[THREADS];
    job jobs[THREADS];
    for (int k = 0; k < THREADS; k++) {
        jobs[k] = (job){star, levels, &serial, 0};
        assert_int_equal(pthread_create(&t[k], NULL, worker, &jobs[k]), 0);
    }
    int mismatches = 0;
    for (int k = 0; k < THREADS; k++) {
        pthread_join(t[k], NULL);
        mismatches += jobs[k].mismatches;
    }
    assert_int_equal(mismatches, 0);
    outputs_free(&serial);
    dls_platform_free(star);
    dls_platform_free(levels);
}

TEST_MAIN("host", test_exports_under_a_comma_locale, test_glpk_of_the_host_survives,
          test_threads_give_the_serial_results)
