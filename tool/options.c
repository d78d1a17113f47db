/* Command-line options: one table per command drives parsing, validation and help. */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/* The length of a list of choices without the '|' that TOOL_CHOICES leaves at its end. */
static int choices_len(const char *choices)
{
    size_t n = strlen(choices);
    return (int)(n > 0 && choices[n - 1] == '|' ? n - 1 : n);
}

static int find_opt(const tool_cmd *cmd, const char *name, size_t len)
{
    for (int i = 0; cmd->opts && cmd->opts[i].name; i++)
        if (strlen(cmd->opts[i].name) == len && strncmp(cmd->opts[i].name, name, len) == 0)
            return i;
    return -1;
}

/* Parses a whole number: plain digits exactly, or a number like 1e12 that is integral. */
static int parse_count(const char *s, uint64_t *out)
{
    const char *p = s;
    while (*p >= '0' && *p <= '9')
        p++;
    if (p != s && *p == '\0') {
        errno = 0;
        unsigned long long v = strtoull(s, NULL, 10);
        if (errno != 0)
            return -1;
        *out = v;
        return 0;
    }
    char *end;
    double d = strtod(s, &end);
    if (end == s || *end != '\0' || !isfinite(d) || d < 0 || d != floor(d) || d > TOOL_MAX_WHOLE)
        return -1;
    *out = (uint64_t)d;
    return 0;
}

static int check_value(const tool_cmd *cmd, const tool_opt *o, const char *v)
{
    switch (o->type) {
    case OPT_FLAG:
    case OPT_STRING:
        if (o->type == OPT_STRING && v[0] == '\0') {
            tool_error("%s: --%s needs a non-empty %s", cmd->name, o->name, o->arg);
            return -1;
        }
        return 0;
    case OPT_DOUBLE: {
        double d;
        if (tool_number(v, &d) != 0 || !isfinite(d)) {
            tool_error("%s: --%s expects a number, not \"%s\"", cmd->name, o->name, v);
            return -1;
        }
        if (d < o->min || d > o->max) {
            tool_error("%s: --%s must be in [%g, %g], not %s", cmd->name, o->name, o->min, o->max, v);
            return -1;
        }
        /* the range's numbers are those of the domain, as in files: 0 (where the range
         * holds it) or a magnitude of at least DLS_DOMAIN_MIN */
        if (!tool_in_domain(d, 1)) {
            tool_error("%s: --%s must be %sin [%g, %g], not %s (the domain that dlsched "
                       "computes in)", cmd->name, o->name, o->min <= 0 ? "0 or " : "",
                       DLS_DOMAIN_MIN, o->max, v);
            return -1;
        }
        return 0;
    }
    case OPT_COUNT: {
        uint64_t c;
        if (parse_count(v, &c) != 0) {
            tool_error("%s: --%s expects a whole number (at most 2^53), not \"%s\"", cmd->name,
                       o->name, v);
            return -1;
        }
        if ((double)c < o->min || (double)c > o->max) {
            tool_error("%s: --%s must be in [%.0f, %.0f], not %s", cmd->name, o->name, o->min,
                       o->max, v);
            return -1;
        }
        return 0;
    }
    case OPT_CHOICE: {
        size_t len = strlen(v);
        for (const char *c = o->choices; *c && len > 0;) {
            const char *bar = strchr(c, '|');
            size_t cl = bar ? (size_t)(bar - c) : strlen(c);
            if (cl == len && strncmp(c, v, len) == 0)
                return 0;
            c += cl + (bar != NULL);
        }
        tool_error("%s: --%s must be one of %.*s, not \"%s\"", cmd->name, o->name,
                   choices_len(o->choices), o->choices, v);
        return -1;
    }
    }
    return -1;
}

int tool_parse(const tool_cmd *cmd, int argc, char **argv, tool_args *args)
{
    memset(args, 0, sizeof *args);
    args->cmd = cmd;
    /* the table must fit the arrays of tool_args (bench outgrew 32 once: the options past
     * it were read and written out of bounds) */
    int count = 0;
    while (cmd->opts && cmd->opts[count].name)
        count++;
    if (count > TOOL_MAX_OPTS) {
        tool_error("internal error: command %s has %d options, more than TOOL_MAX_OPTS (%d)",
                   cmd->name, count, TOOL_MAX_OPTS);
        return -1;
    }
    int only_pos = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!only_pos && strcmp(a, "--") == 0) {
            only_pos = 1;
            continue;
        }
        if (only_pos || a[0] != '-' || a[1] == '\0') {
            if (args->npos >= cmd->pos_max || args->npos >= TOOL_MAX_POS) {
                tool_error("%s: unexpected argument \"%s\" (usage: dlsched %s %s)", cmd->name, a,
                           cmd->name, cmd->usage);
                return -1;
            }
            args->pos[args->npos++] = a;
            continue;
        }
        const char *name = a + (a[1] == '-' ? 2 : 1);
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        int k = find_opt(cmd, name, len);
        if (k < 0) {
            tool_error("%s: unknown option \"%.*s\" (see dlsched help %s)", cmd->name,
                       (int)(len + (size_t)(name - a)), a, cmd->name);
            return -1;
        }
        const tool_opt *o = &cmd->opts[k];
        const char *v;
        if (o->type == OPT_FLAG) {
            if (eq) {
                tool_error("%s: --%s takes no value", cmd->name, o->name);
                return -1;
            }
            v = "1";
        } else if (eq) {
            v = eq + 1;
        } else if (i + 1 < argc) {
            v = argv[++i];
        } else {
            tool_error("%s: --%s needs a value (%s)", cmd->name, o->name, o->arg);
            return -1;
        }
        if (check_value(cmd, o, v) != 0)
            return -1;
        args->value[k] = v;
        args->given[k] = 1;
    }
    if (args->npos < cmd->pos_min) {
        tool_error("%s: missing argument (usage: dlsched %s %s)", cmd->name, cmd->name, cmd->usage);
        return -1;
    }
    return 0;
}

static int opt_index(const tool_args *a, const char *name)
{
    int k = find_opt(a->cmd, name, strlen(name));
    if (k < 0) {
        /* A programming error in the tool: the command's table lacks the option. */
        fprintf(stderr, "dlsched: internal error: command %s has no option --%s\n", a->cmd->name,
                name);
        exit(EXIT_FAILURE_RUN);
    }
    return k;
}

int arg_given(const tool_args *a, const char *name)
{
    return a->given[opt_index(a, name)];
}

int arg_flag(const tool_args *a, const char *name)
{
    return arg_given(a, name);
}

const char *arg_string(const tool_args *a, const char *name)
{
    int k = opt_index(a, name);
    return a->given[k] ? a->value[k] : a->cmd->opts[k].deflt;
}

int arg_double(const tool_args *a, const char *name, double *value)
{
    const char *v = arg_string(a, name);
    if (v == NULL)
        return 0;
    *value = strtod(v, NULL);
    return 1;
}

int arg_count(const tool_args *a, const char *name, uint64_t *value)
{
    const char *v = arg_string(a, name);
    uint64_t c;
    if (v == NULL || parse_count(v, &c) != 0)
        return 0;
    *value = c;
    return 1;
}

int arg_size(const tool_args *a, const char *name, size_t *value)
{
    uint64_t c;
    if (!arg_count(a, name, &c))
        return 0;
    *value = c > SIZE_MAX ? SIZE_MAX : (size_t)c;
    return 1;
}

int arg_unsigned(const tool_args *a, const char *name, unsigned *value)
{
    uint64_t c;
    if (!arg_count(a, name, &c))
        return 0;
    *value = c > UINT_MAX ? UINT_MAX : (unsigned)c;
    return 1;
}

void arg_set_flag(const tool_args *a, const char *name, int *field, int value)
{
    if (arg_flag(a, name))
        *field = value;
}

void tool_print_help(const tool_cmd *cmd, FILE *out)
{
    fprintf(out, "Usage: dlsched %s %s\n\n%s\n", cmd->name, cmd->usage, cmd->description);
    if (cmd->opts && cmd->opts[0].name) {
        fprintf(out, "\nOptions:\n");
        for (int i = 0; cmd->opts[i].name; i++) {
            const tool_opt *o = &cmd->opts[i];
            char head[64];
            if (o->type == OPT_FLAG)
                snprintf(head, sizeof head, "--%s", o->name);
            else if (o->type == OPT_CHOICE)
                snprintf(head, sizeof head, "--%s %.*s", o->name, choices_len(o->choices),
                         o->choices);
            else
                snprintf(head, sizeof head, "--%s %s", o->name, o->arg);
            fprintf(out, "  %-26s %s", head, o->help);
            char shown[64];
            const char *deflt = o->deflt;
            if (deflt == NULL && cmd->show_default != NULL &&
                cmd->show_default(o->name, shown, sizeof shown))
                deflt = shown;
            if (deflt)
                fprintf(out, " (default %s)", deflt);
            fputc('\n', out);
        }
    }
    fprintf(out, "  %-26s %s\n", "--help", "show this help");
}
