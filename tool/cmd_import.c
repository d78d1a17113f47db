/* dlsched import and export-model: models from StarPU performance files and CSV timings,
 * and back. Thin layers over dlsched/import.h. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <dlsched/import.h>

#include "tool.h"

static const tool_opt import_opts[] = {
    TOOL_GROUP("Output"),
    TOOL_STRING("output", "PLATFORM", "platform file to write with the imported processors "
                "(- for standard output)"),
    TOOL_ALIAS("o", "output"),
    TOOL_STRING("merge", "PLATFORM", "add the processors to this existing platform file"),
    TOOL_FLAG("replace", "with --merge: a processor of the same name gets the imported model"),
    TOOL_STRING("name", "NAME", "the processor's name (with several: NAME.ARCH)"),
    {"confidence", OPT_DOUBLE, "C", NULL, 1e-9, 1 - 1e-9, NULL,
     "confidence level of the bands from deviations and counts"},
    TOOL_FLAG("json", "print what was imported as JSON"),
    TOOL_GROUP("StarPU input"),
    TOOL_STRING("arch", "ARCH", "the section to import: cpu0, cuda0, cpu0_cuda0 "
                "(devices as StarPU names them) or combK (default: every one with data)"),
    {"impl", OPT_COUNT, "K", NULL, 0, 1e6, NULL, "the implementation, 0-based"},
    {"size-unit", OPT_CHOICE, NULL, NULL, 0, 0, TOOL_CHOICES(DLS_SIZE_UNIT_MAP),
     "the platform's sizes in StarPU's bytes or in elements"},
    {"element-size", OPT_DOUBLE, "B", NULL, DLS_DOMAIN_MIN, DLS_DOMAIN_MAX, NULL,
     "bytes per element, with --size-unit elements"},
    {"min-samples", OPT_COUNT, "N", NULL, 1, 4294967295.0, NULL,
     "entries with fewer samples are dropped"},
    TOOL_FLAG("keep-few", "keep the entries with fewer samples (flagged)"),
    {"regression-points", OPT_COUNT, "N", NULL, 2, DLS_IMPORT_MAX_REGRESSION_POINTS, NULL,
     "points sampled from a regression-only section"},
    TOOL_GROUP("CSV input"),
    TOOL_STRING("columns", "LIST", "the columns, e.g. size,time,stddev,count or "
                "name,size,speed (default: from the header line)"),
    {"delimiter", OPT_CHOICE, NULL, ",", 0, 0, ",|;|tab", "the field separator"},
    TOOL_OPT_END,
};

static const tool_rule import_rules[] = {
    TOOL_NEEDS("replace", "merge"),
    TOOL_EXCLUDES_WHY("output", "merge", "-o writes a new platform, --merge adds to an "
                      "existing one"),
    TOOL_RULE_END,
};

/* Defaults the help shows: the library's. */
static int import_default(const char *opt, char *buf, size_t size)
{
    dls_starpu_params sp;
    dls_starpu_params_init(&sp);
    if (strcmp(opt, "confidence") == 0)
        return tool_show_number(sp.confidence, buf, size);
    if (strcmp(opt, "impl") == 0)
        return tool_show_number(sp.impl, buf, size);
    if (strcmp(opt, "size-unit") == 0)
        return tool_show_text(dls_size_unit_name(sp.size_unit), buf, size);
    if (strcmp(opt, "element-size") == 0)
        return tool_show_number(sp.element_size, buf, size);
    if (strcmp(opt, "min-samples") == 0)
        return tool_show_number(sp.min_samples, buf, size);
    if (strcmp(opt, "regression-points") == 0)
        return tool_show_number(sp.regression_points, buf, size);
    return 0;
}

const tool_cmd tool_cmd_import = {
    "import",
    "make processors from a StarPU performance model or CSV timings",
    "starpu FILE|SYMBOL -o PLATFORM [OPTIONS]\n"
    "       dlsched import csv FILE -o PLATFORM [OPTIONS]\n"
    "       dlsched import starpu|csv FILE --merge PLATFORM [--replace] [OPTIONS]",
    "starpu: reads a StarPU performance model (StarPU 1.3 and 1.4), or finds the file of\n"
    "codelet SYMBOL as StarPU does, and makes one processor per section (devices and\n"
    "implementation), named SYMBOL.ARCH: a speed point per history entry, with a band from\n"
    "the entry's deviation and sample count. Entries with too few samples are dropped.\n"
    "\n"
    "csv: reads sizes with times in seconds (size,time[,stddev,count], or one row per run)\n"
    "or with speeds (size,speed[,low,high]); a name column splits the rows into\n"
    "processors. FILE - reads standard input.\n"
    "\n"
    "The platform is written atomically; a failed import leaves --merge's file as it was.",
    import_opts,
    2,
    2,
    cmd_import,
    import_default,
    "dlsched export-model examples/cluster.json --format csv --processor node7 \\\n"
    "    -o timings.csv\n"
    "dlsched import csv timings.csv -o imported.json\n"
    "dlsched export-model examples/cluster.json --format csv --processor node7 |\n"
    "    dlsched import csv - -o -",
    import_rules,
};

static const tool_opt export_model_opts[] = {
    TOOL_GROUP("Output"),
    {"format", OPT_CHOICE, NULL, NULL, 0, 0, "starpu|csv", "the format (required)"},
    TOOL_STRING("output", "FILE", "file to write (default or -: standard output)"),
    TOOL_ALIAS("o", "output"),
    TOOL_STRING("processor", "NAME", "the processor to write (required for starpu; csv: "
                "default every one)"),
    TOOL_GROUP("StarPU output"),
    TOOL_STRING("arch", "ARCH", "the device the model is for (cpu0, cuda0, ...)"),
    {"ncores", OPT_COUNT, "N", NULL, 1, 2147483647.0, NULL, "cores of the device"},
    {"size-unit", OPT_CHOICE, NULL, NULL, 0, 0, TOOL_CHOICES(DLS_SIZE_UNIT_MAP),
     "the platform's sizes are bytes or elements"},
    {"element-size", OPT_DOUBLE, "B", NULL, DLS_DOMAIN_MIN, DLS_DOMAIN_MAX, NULL,
     "bytes per element (sizes in elements, and the footprints' vectors)"},
    {"count", OPT_COUNT, "N", NULL, 2, 4294967295.0, NULL,
     "the sample count written for each entry"},
    {"confidence", OPT_DOUBLE, "C", NULL, 1e-9, 1 - 1e-9, NULL,
     "confidence level the bands are read with"},
    TOOL_OPT_END,
};

static int export_model_default(const char *opt, char *buf, size_t size)
{
    dls_starpu_export_params p;
    dls_starpu_export_params_init(&p);
    if (strcmp(opt, "arch") == 0)
        return tool_show_text(p.arch, buf, size);
    if (strcmp(opt, "ncores") == 0)
        return tool_show_number(p.ncores, buf, size);
    if (strcmp(opt, "size-unit") == 0)
        return tool_show_text(dls_size_unit_name(p.size_unit), buf, size);
    if (strcmp(opt, "element-size") == 0)
        return tool_show_number(p.element_size, buf, size);
    if (strcmp(opt, "count") == 0)
        return tool_show_number(p.count, buf, size);
    if (strcmp(opt, "confidence") == 0)
        return tool_show_number(p.confidence, buf, size);
    return 0;
}

const tool_cmd tool_cmd_export_model = {
    "export-model",
    "write a processor's model as a StarPU performance model, or CSV",
    "PLATFORM --format starpu|csv [OPTIONS]",
    "starpu: writes the processor's points as a StarPU history-based performance model, to\n"
    "put in StarPU's sampling folder: sizes in bytes, mean times in microseconds,\n"
    "deviations from the points' bands (the inverse of `import starpu`).\n"
    "\n"
    "csv: writes name,size,speed,low,high rows, which `import csv` reads back as the same\n"
    "models.",
    export_model_opts,
    1,
    1,
    cmd_export_model,
    export_model_default,
    "dlsched export-model examples/cluster.json --format csv --processor node7\n"
    "dlsched export-model examples/cluster.json --format starpu \\\n"
    "    --processor node7 --arch cpu0\n"
    "dlsched export-model examples/lu_cluster.json --format csv \\\n"
    "    --processor xeon-old -o timings.csv",
    NULL,
};

/* Options that only one kind of import takes. */
static const char *const starpu_only[] = {"arch", "impl", "size-unit", "element-size",
                                          "min-samples", "keep-few", "regression-points"};
static const char *const csv_only[] = {"columns", "delimiter"};

/* Whether an option of the other kind of import was given: 1 after a message. */
static int foreign_options_read(const tool_args *a, const char *kind,
                                const char *const *names, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (arg_given(a, names[k])) {
            tool_error("import %s: --%s does not apply", kind, names[k]);
            return 1;
        }
    return 0;
}

/* An import from standard input ("-"): a StarPU model (sp) or a CSV file (csv) read whole,
 * named TOOL_STDIN_NAME in the messages. DLS_OK without doing anything for another file. */
static dls_status import_text(const char *file, dls_platform *pl, dls_import_report **rep,
                              dls_error *err, const dls_starpu_params *sp,
                              const dls_csv_params *csv)
{
    if (!tool_is_stdin(file))
        return DLS_OK;
    tool_text t;
    int rc = tool_text_read(file, sp ? "StarPU model" : "CSV timings", &t, err->message,
                            sizeof err->message);
    if (rc != EXIT_DONE)
        return rc == EXIT_FAILURE_RUN ? DLS_ENOMEM : DLS_EIO;
    const char *text = t.text + t.pos;
    size_t len = t.len - t.pos;
    dls_status st = sp ? dls_import_starpu_string(text, len, TOOL_STDIN_NAME, sp, pl, rep, err)
                       : dls_import_csv_string(text, len, TOOL_STDIN_NAME, csv, pl, rep, err);
    tool_text_free(&t);
    return st;
}

/* The summary: one line a processor on standard output, or the JSON report. */
static int report(int json, const dls_import_report *rep, const char *dest)
{
    tool_warn_lines(dls_import_report_notes(rep));
    size_t n = dls_import_report_count(rep);
    if (json) {
        json_t *procs = json_array();
        for (size_t k = 0; k < n; k++) {
            const dls_import_item *it = dls_import_report_item(rep, k);
            json_array_append_new(procs, json_pack("{s:s, s:I, s:o, s:I, s:I, s:I, s:b, s:o, s:o}",
                "name", it->name, "index", (json_int_t)it->index, "source",
                tool_json_text(it->source),
                "entries", (json_int_t)it->entries, "points", (json_int_t)it->points,
                "few_samples", (json_int_t)it->few, "from_regression", it->from_regression,
                "min_size", tool_json_number(it->min_size),
                "max_size", tool_json_number(it->max_size)));
        }
        json_t *doc = json_pack("{s:o, s:o, s:o}", "platform", tool_json_text(dest),
                                "processors", procs, "notes",
                                tool_json_text(dls_import_report_notes(rep)));
        return tool_print_json(doc);
    }
    if (tool_is_stdout(dest))
        return EXIT_DONE; /* standard output holds the platform */
    for (size_t k = 0; k < n; k++) {
        const dls_import_item *it = dls_import_report_item(rep, k);
        char lo[32], hi[32];
        printf("%s: %zu point%s, sizes %s to %s (%s)\n", it->name, it->points,
               it->points == 1 ? "" : "s", tool_num(it->min_size, lo, sizeof lo),
               tool_num(it->max_size, hi, sizeof hi), it->source);
    }
    return EXIT_DONE;
}

/* What the command line asks, read once (import_request_read); the phases below take it,
 * never the option table. */
typedef struct import_request {
    const char *kind;        /* the first argument: starpu or csv */
    const char *file;        /* the second: FILE, SYMBOL or - */
    int starpu;              /* kind is starpu (else csv) */
    const char *out;         /* -o or --output PLATFORM, or NULL */
    const char *merge;       /* --merge PLATFORM, or NULL */
    int json;
    int element_size;        /* --element-size given */
    dls_starpu_params sp;    /* starpu: the defaults, then the options given */
    dls_csv_params cp;       /* csv: the same */
} import_request;

/* The parameters of both kinds (each reads its own). */
static void import_params_read(const tool_args *a, import_request *q)
{
    dls_starpu_params *sp = &q->sp;
    dls_starpu_params_init(sp);
    sp->arch = arg_string(a, "arch");
    arg_unsigned(a, "impl", &sp->impl);
    if (arg_given(a, "size-unit"))
        dls_size_unit_from_name(arg_string(a, "size-unit"), &sp->size_unit);
    q->element_size = arg_double(a, "element-size", &sp->element_size);
    sp->name = arg_string(a, "name");
    arg_double(a, "confidence", &sp->confidence);
    arg_unsigned(a, "min-samples", &sp->min_samples);
    arg_set_flag(a, "keep-few", &sp->keep_few, 1);
    arg_unsigned(a, "regression-points", &sp->regression_points);
    arg_set_flag(a, "replace", &sp->replace, 1);
    dls_csv_params *cp = &q->cp;
    dls_csv_params_init(cp);
    cp->columns = arg_string(a, "columns");
    cp->name = arg_string(a, "name");
    const char *d = arg_string(a, "delimiter");
    if (d)
        cp->delimiter = strcmp(d, "tab") == 0 ? '\t' : d[0];
    arg_double(a, "confidence", &cp->confidence);
    arg_set_flag(a, "replace", &cp->replace, 1);
}

/* Reads the options into *q, with the usage errors of the kind and the destination (the
 * combinations the table's rules refuse, import_rules, are refused by the parser already):
 * EXIT_DONE, or EXIT_BADINPUT after a message. */
static int import_request_read(const tool_args *a, import_request *q)
{
    memset(q, 0, sizeof *q);
    q->kind = a->pos[0];
    q->file = a->pos[1];
    int csv = strcmp(q->kind, "csv") == 0;
    q->starpu = strcmp(q->kind, "starpu") == 0;
    if (!q->starpu && !csv) {
        tool_error("import: the first argument is the kind of input, starpu or csv, not \"%s\"",
                   q->kind);
        return EXIT_BADINPUT;
    }
    if (q->starpu ? foreign_options_read(a, q->kind, csv_only,
                                         sizeof csv_only / sizeof *csv_only)
                  : foreign_options_read(a, q->kind, starpu_only,
                                   sizeof starpu_only / sizeof *starpu_only))
        return EXIT_BADINPUT;
    q->out = tool_output(a);
    q->merge = arg_string(a, "merge");
    q->json = arg_flag(a, "json");
    if (arg_given(a, "output") && arg_given(a, "o")) {
        tool_error("import: give the output file once, with -o or --output");
        return EXIT_BADINPUT;
    }
    if (q->out == NULL && q->merge == NULL) {
        tool_error("import: give -o PLATFORM (a new platform) or --merge PLATFORM (an existing "
                   "one), one of them");
        return EXIT_BADINPUT;
    }
    if (q->out && q->json && tool_is_stdout(q->out)) {
        tool_error("import: --json prints the report on standard output, where -o - would "
                   "write the platform");
        return EXIT_BADINPUT;
    }
    import_params_read(a, q);
    return EXIT_DONE;
}

/* import starpu FILE into pl: FILE a file, standard input, or a codelet's symbol found in
 * StarPU's folders. EXIT_DONE, or the exit status after a message. */
static int import_starpu(const import_request *q, dls_platform *pl, dls_import_report **rep)
{
    if (q->element_size && q->sp.size_unit != DLS_SIZE_UNIT_ELEMENTS) {
        tool_error("import starpu: --element-size goes with --size-unit elements");
        return EXIT_BADINPUT;
    }
    const char *file = q->file;
    dls_error err;
    dls_error_clear(&err);
    /* a name without '/' that is no file here is a codelet symbol */
    FILE *probe = strchr(file, '/') || tool_is_stdin(file) ? NULL : fopen(file, "rb");
    if (probe)
        fclose(probe);
    const char *path = file;
    char *found = NULL;
    dls_status st;
    if (!strchr(file, '/') && probe == NULL && !tool_is_stdin(file)) {
        st = dls_starpu_find(file, &found, &err);
        if (st != DLS_OK)
            return tool_fail(st, &err);
        path = found;
    }
    st = tool_is_stdin(file) ? import_text(file, pl, rep, &err, &q->sp, NULL)
                             : dls_import_starpu_file(path, &q->sp, pl, rep, &err);
    dls_free(found);
    return st == DLS_OK ? EXIT_DONE : tool_fail(st, &err);
}

/* import csv FILE into pl. EXIT_DONE, or the exit status after a message. */
static int import_csv(const import_request *q, dls_platform *pl, dls_import_report **rep)
{
    dls_error err;
    dls_error_clear(&err);
    dls_status st = tool_is_stdin(q->file) ? import_text(q->file, pl, rep, &err, NULL, &q->cp)
                                           : dls_import_csv_file(q->file, &q->cp, pl, rep, &err);
    return st == DLS_OK ? EXIT_DONE : tool_fail(st, &err);
}

/* Writes the platform to dest (standard output for "-"), releases it, then the report. */
static int write_platform(const import_request *q, dls_platform *pl,
                          const dls_import_report *rep)
{
    const char *dest = q->merge ? q->merge : q->out;
    dls_error err;
    dls_error_clear(&err);
    dls_status st;
    if (tool_is_stdout(dest)) {
        char *doc = NULL;
        st = dls_platform_to_string(pl, &doc, &err);
        dls_platform_free(pl);
        int rc = st == DLS_OK ? tool_write_stdout(doc, "platform") : tool_fail(st, &err);
        return rc == EXIT_DONE ? report(q->json, rep, dest) : rc;
    }
    st = dls_platform_write_file(pl, dest, &err);
    dls_platform_free(pl);
    return st == DLS_OK ? report(q->json, rep, dest)
                        : tool_fail_output(q->merge ? "--merge" : "-o", dest, st, &err);
}

int cmd_import(const tool_args *a)
{
    import_request q;
    int rc = import_request_read(a, &q);
    if (rc != EXIT_DONE)
        return rc;
    dls_platform *pl = NULL;
    if (q.merge) {
        rc = tool_read_platform(q.merge, &pl);
        if (rc != EXIT_DONE)
            return rc;
    } else {
        dls_error err;
        dls_error_clear(&err);
        dls_status st = dls_platform_create(&pl, &err);
        if (st != DLS_OK)
            return tool_fail(st, &err);
    }
    dls_import_report *rep = NULL;
    rc = q.starpu ? import_starpu(&q, pl, &rep) : import_csv(&q, pl, &rep);
    if (rc != EXIT_DONE) {
        dls_platform_free(pl);
        dls_import_report_free(rep);
        return rc;
    }
    rc = write_platform(&q, pl, rep);
    dls_import_report_free(rep);
    return rc;
}

/* What the command line of `export-model` asks, read once (export_model_request_read). */
typedef struct export_model_request {
    const char *platform;            /* the platform file */
    const char *format;              /* --format starpu|csv, or NULL */
    const char *processor;           /* --processor NAME, or NULL for all */
    const char *out;                 /* -o or --output, or NULL */
    int out_twice;                   /* both given */
    const char *csv_refused;         /* a StarPU option given with --format csv, or NULL */
    dls_starpu_export_params starpu; /* the library's defaults, then the options given */
} export_model_request;

static void export_model_request_read(const tool_args *a, export_model_request *r)
{
    r->platform = a->pos[0];
    r->format = arg_string(a, "format");
    r->processor = arg_string(a, "processor");
    r->out = tool_output(a);
    r->out_twice = arg_given(a, "output") && arg_given(a, "o");
    static const char *const sp_opts[] = {"arch", "ncores", "size-unit", "element-size",
                                          "count", "confidence"};
    r->csv_refused = NULL;
    for (size_t k = 0; r->csv_refused == NULL && k < sizeof sp_opts / sizeof *sp_opts; k++)
        if (arg_given(a, sp_opts[k]))
            r->csv_refused = sp_opts[k];
    dls_starpu_export_params *par = &r->starpu;
    dls_starpu_export_params_init(par);
    if (arg_given(a, "arch"))
        par->arch = arg_string(a, "arch");
    arg_unsigned(a, "ncores", &par->ncores);
    if (arg_given(a, "size-unit"))
        dls_size_unit_from_name(arg_string(a, "size-unit"), &par->size_unit);
    arg_double(a, "element-size", &par->element_size);
    arg_unsigned(a, "count", &par->count);
    arg_double(a, "confidence", &par->confidence);
}

/* The combinations the option table cannot refuse; EXIT_DONE when none. */
static int export_model_check(const export_model_request *r, int starpu)
{
    if (r->format == NULL) {
        tool_error("export-model: --format starpu|csv is required");
        return EXIT_BADINPUT;
    }
    if (starpu && r->processor == NULL) {
        tool_error("export-model: a StarPU model file is for one processor: give --processor "
                   "NAME");
        return EXIT_BADINPUT;
    }
    if (!starpu && r->csv_refused != NULL) {
        tool_error("export-model --format csv: --%s does not apply", r->csv_refused);
        return EXIT_BADINPUT;
    }
    if (r->out_twice) {
        tool_error("export-model: give the output file once, with -o or --output");
        return EXIT_BADINPUT;
    }
    return EXIT_DONE;
}

int cmd_export_model(const tool_args *a)
{
    export_model_request r;
    export_model_request_read(a, &r);
    int starpu = r.format != NULL && strcmp(r.format, "starpu") == 0;
    int rc = export_model_check(&r, starpu);
    if (rc != EXIT_DONE)
        return rc;
    dls_platform *pl = NULL;
    rc = tool_read_platform(r.platform, &pl);
    if (rc != EXIT_DONE)
        return rc;
    size_t index = (size_t)-1;
    if (r.processor && !dls_platform_find(pl, r.processor, &index)) {
        tool_error("export-model: %s has no processor \"%s\"", r.platform, r.processor);
        dls_platform_free(pl);
        return EXIT_BADINPUT;
    }
    dls_error err;
    dls_error_clear(&err);
    char *text = NULL;
    dls_status st = starpu ? dls_platform_starpu_to_string(pl, index, &r.starpu, &text, &err)
                           : dls_platform_csv_to_string(pl, index, &text, &err);
    dls_platform_free(pl);
    if (st != DLS_OK)
        return tool_fail(st, &err);
    if (r.out == NULL || tool_is_stdout(r.out))
        return tool_write_stdout(text, "model");
    st = dls_write_output(r.out, text, strlen(text), &err);
    dls_free(text);
    return st == DLS_OK ? EXIT_DONE : tool_fail(st, &err);
}
