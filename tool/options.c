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

/* Whether record o is an option the user may name (not a heading, not the table's end). */
static int is_option(const tool_opt *o)
{
    return o->name != NULL && o->type != OPT_GROUP;
}

/* The record called name[0..len) exactly (an alias's own record included), or -1. */
static int find_opt(const tool_cmd *cmd, const char *name, size_t len)
{
    for (int i = 0; cmd->opts && cmd->opts[i].name; i++)
        if (is_option(&cmd->opts[i]) && strlen(cmd->opts[i].name) == len &&
            strncmp(cmd->opts[i].name, name, len) == 0)
            return i;
    return -1;
}

size_t tool_edit_distance(const char *a, const char *b, size_t blen)
{
    /* optimal string alignment distance over the first TOOL_SUGGEST_MAX_LEN characters */
    size_t n = strlen(a), m = blen;
    if (n > TOOL_SUGGEST_MAX_LEN)
        n = TOOL_SUGGEST_MAX_LEN;
    if (m > TOOL_SUGGEST_MAX_LEN)
        m = TOOL_SUGGEST_MAX_LEN;
    size_t d[TOOL_SUGGEST_MAX_LEN + 1][TOOL_SUGGEST_MAX_LEN + 1];
    for (size_t i = 0; i <= n; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            size_t cost = a[i - 1] != b[j - 1];
            size_t best = d[i - 1][j - 1] + cost;
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m];
}

int tool_suggestable(size_t d, size_t len)
{
    /* one typo in a short word, up to a third of a long one's letters */
    return d >= 1 && (d <= 1 || d <= len / 3);
}

/* The record name[0..len) names (after "--" when dashes is 2): the exact name, else the only
 * long option it begins, as getopt_long takes prefixes. -1 when none; *count: the options it
 * begins (2 or more: ambiguous). An alias resolves to its own record. */
static int match_opt(const tool_cmd *cmd, const char *name, size_t len, int dashes, int *count)
{
    int k = find_opt(cmd, name, len);
    *count = k >= 0;
    if (k >= 0)
        return k;
    int found = -1;
    for (int i = 0; dashes == 2 && len > 0 && cmd->opts && cmd->opts[i].name; i++) {
        const tool_opt *o = &cmd->opts[i];
        if (is_option(o) && o->type != OPT_ALIAS && strncmp(o->name, name, len) == 0) {
            found = i;
            ++*count;
        }
    }
    return *count == 1 ? found : -1;
}

/* The record of the option the user meant, or -1 after a message: the candidates of an
 * ambiguous prefix, or the closest name ("did you mean"). */
static int lookup_opt(const tool_cmd *cmd, const char *name, size_t len, int dashes)
{
    int count;
    int k = match_opt(cmd, name, len, dashes, &count);
    if (k >= 0)
        return k;
    if (count > 1) {
        char list[1024];
        size_t used = 0;
        for (int i = 0; cmd->opts[i].name && used < sizeof list; i++) {
            const tool_opt *o = &cmd->opts[i];
            if (is_option(o) && o->type != OPT_ALIAS && strncmp(o->name, name, len) == 0)
                used += (size_t)snprintf(list + used, sizeof list - used, "%s--%s",
                                         used ? ", " : "", o->name);
        }
        tool_error("%s: option \"--%.*s\" is ambiguous: it could be %s", cmd->name, (int)len,
                   name, list);
        return -1;
    }
    const char *best = NULL;
    size_t best_d = SIZE_MAX;
    for (int i = 0; cmd->opts && cmd->opts[i].name; i++) {
        const tool_opt *o = &cmd->opts[i];
        if (!is_option(o) || o->type == OPT_ALIAS)
            continue;
        size_t d = tool_edit_distance(o->name, name, len);
        if (d < best_d) {
            best_d = d;
            best = o->name;
        }
    }
    if (best != NULL && tool_suggestable(best_d, strlen(best)))
        tool_error("%s: unknown option \"%.*s\"; did you mean --%s? (see dlsched help %s)",
                   cmd->name, (int)len + dashes, name - dashes, best, cmd->name);
    else
        tool_error("%s: unknown option \"%.*s\" (see dlsched help %s)", cmd->name,
                   (int)len + dashes, name - dashes, cmd->name);
    return -1;
}

/* The record whose value an option's record stands for: an alias's target, else itself. */
static const tool_opt *target_of(const tool_cmd *cmd, const tool_opt *o)
{
    if (o->type != OPT_ALIAS)
        return o;
    int k = find_opt(cmd, o->choices, strlen(o->choices));
    return k >= 0 ? &cmd->opts[k] : o;
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
    case OPT_GROUP:
    case OPT_ALIAS:
        return -1; /* never passed: the parser resolves aliases first */
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
        double d;
        if (parse_count(v, &c) != 0 && tool_number(v, &d) == 0 && isfinite(d) &&
            d < o->min) {
            /* a number, but below the range (-3, 0.5): the range is what to say */
            tool_error("%s: --%s must be a whole number >= %.0f, not %s", cmd->name, o->name,
                       o->min, v);
            return -1;
        }
        if (parse_count(v, &c) != 0) {
            tool_error("%s: --%s expects a whole number (at most 2^53), not \"%s\"", cmd->name,
                       o->name, v);
            return -1;
        }
        if ((double)c < o->min) {
            tool_error("%s: --%s must be a whole number >= %.0f, not %s", cmd->name, o->name,
                       o->min, v);
            return -1;
        }
        if ((double)c > o->max) {
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
        /* the closest word, for a misspelling */
        const char *best = NULL;
        size_t best_d = SIZE_MAX, best_len = 0;
        for (const char *c = o->choices; *c;) {
            size_t cl = strcspn(c, "|");
            char word[TOOL_SUGGEST_MAX_LEN + 1];
            snprintf(word, sizeof word, "%.*s", (int)cl, c);
            size_t d = tool_edit_distance(word, v, len);
            if (cl > 0 && d < best_d) {
                best_d = d;
                best = c;
                best_len = cl;
            }
            c += cl + (c[cl] == '|');
        }
        if (best != NULL && tool_suggestable(best_d, best_len))
            tool_error("%s: --%s must be one of %.*s, not \"%s\"; did you mean %.*s?", cmd->name,
                       o->name, choices_len(o->choices), o->choices, v, (int)best_len, best);
        else
            tool_error("%s: --%s must be one of %.*s, not \"%s\"", cmd->name, o->name,
                       choices_len(o->choices), o->choices, v);
        return -1;
    }
    }
    return -1;
}

int tool_option_index(const tool_cmd *cmd, const char *name, size_t len, int dashes)
{
    int count;
    int k = match_opt(cmd, name, len, dashes, &count);
    if (k < 0 || cmd->opts[k].type != OPT_ALIAS)
        return k;
    return find_opt(cmd, cmd->opts[k].choices, strlen(cmd->opts[k].choices));
}

/* Whether option `name` was given, under its own name or an alias's; with value (not NULL),
 * given that value. */
static int given_any(const tool_cmd *cmd, const tool_args *args, const char *name, size_t len,
                     const char *value, size_t vlen)
{
    for (int i = 0; cmd->opts[i].name; i++) {
        const tool_opt *o = &cmd->opts[i];
        if (!is_option(o) || !args->given[i])
            continue;
        const char *t = o->type == OPT_ALIAS ? o->choices : o->name;
        if (strlen(t) == len && strncmp(t, name, len) == 0)
            return value == NULL ||
                   (strlen(args->value[i]) == vlen && strncmp(args->value[i], value, vlen) == 0);
    }
    return 0;
}

/* The command's rules on combinations: an option that would do nothing is refused. */
static int check_rules(const tool_cmd *cmd, const tool_args *args)
{
    for (const tool_rule *r = cmd->rules; r != NULL && r->opt != NULL; r++) {
        if (!given_any(cmd, args, r->opt, strlen(r->opt), NULL, 0))
            continue;
        int any = 0, named = 0; /* named: one of them given, with another value */
        char list[256];
        size_t used = 0;
        for (const char *c = r->other; *c;) {
            size_t cl = strcspn(c, "|");
            const char *eq = memchr(c, '=', cl);
            size_t nl = eq ? (size_t)(eq - c) : cl;
            int g = given_any(cmd, args, c, nl, eq ? eq + 1 : NULL, eq ? cl - nl - 1 : 0);
            if (used < sizeof list && (r->kind == RULE_NEEDS || g))
                used += (size_t)snprintf(list + used, sizeof list - used, "%s--%.*s%s%.*s",
                                         used == 0 ? "" : r->kind == RULE_NEEDS ? " or " : ", ",
                                         (int)nl, c, eq ? " " : "",
                                         eq ? (int)(cl - nl - 1) : 0, eq ? eq + 1 : "");
            any |= g;
            named |= eq != NULL && given_any(cmd, args, c, nl, NULL, 0);
            c += cl + (c[cl] == '|');
        }
        if (r->kind == RULE_NEEDS && !any) {
            tool_error("%s: --%s applies to %s%s%s%s", cmd->name, r->opt, list,
                       named ? " only" : ", which is not given", r->why ? ": " : "",
                       r->why ? r->why : "");
            return -1;
        }
        if (r->kind == RULE_EXCLUDES && any) {
            tool_error("%s: --%s cannot be combined with %s%s%s", cmd->name, r->opt, list,
                       r->why ? ": " : "", r->why ? r->why : "");
            return -1;
        }
    }
    return 0;
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
                tool_error("%s: unexpected argument \"%s\" (usage: dlsched %s %.*s; see "
                           "dlsched help %s)", cmd->name, a, cmd->name,
                           (int)strcspn(cmd->usage, "\n"), cmd->usage, cmd->name);
                return -1;
            }
            args->pos[args->npos++] = a;
            continue;
        }
        int dashes = a[1] == '-' ? 2 : 1;
        const char *name = a + dashes;
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        int k = lookup_opt(cmd, name, len, dashes);
        if (k < 0)
            return -1;
        const tool_opt *o = target_of(cmd, &cmd->opts[k]);
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
        /* an alias keeps its own record: the commands that refuse both names see which */
        args->value[k] = v;
        args->given[k] = 1;
    }
    if (args->npos < cmd->pos_min) {
        tool_error("%s: missing argument (usage: dlsched %s %.*s; see dlsched help %s)",
                   cmd->name, cmd->name, (int)strcspn(cmd->usage, "\n"), cmd->usage, cmd->name);
        return -1;
    }
    return check_rules(cmd, args);
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

int arg_has(const tool_args *a, const char *name)
{
    return find_opt(a->cmd, name, strlen(name)) >= 0;
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

void tool_wrap(FILE *out, const char *text, int indent, int col)
{
    for (const char *p = text; *p;) {
        if (*p == '\n') {
            /* a line break of the text's own: the next line starts at the indent */
            fprintf(out, "\n%*s", indent, "");
            col = indent;
            p++;
            continue;
        }
        size_t space = strspn(p, " ");
        const char *w = p + space;
        size_t wl = strcspn(w, " \n");
        const char *close = w[0] == '`' ? strchr(w + 1, '`') : NULL;
        if (close != NULL && close >= w + wl && memchr(w, '\n', (size_t)(close - w)) == NULL)
            wl = (size_t)(close - w) + strcspn(close, " \n"); /* `a command` is not cut */
        if (wl == 0) {
            p = w;
            continue;
        }
        int started = col > indent || (indent == 0 && col > 0);
        if (started && col + 1 + (int)wl > TOOL_HELP_WIDTH) {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
        } else if (started) {
            fputc(' ', out);
            col++;
        }
        fwrite(w, 1, wl, out);
        col += (int)wl;
        p = w + wl;
    }
}

/* Column where the options' help texts start, and the widest head that leaves its help on
 * the same line. */
#define HELP_TEXT_COLUMN 24

static void print_option(const tool_cmd *cmd, const tool_opt *o, FILE *out)
{
    char head[160];
    int n = 0;
    for (int j = 0; cmd->opts[j].name; j++) {
        const tool_opt *a = &cmd->opts[j];
        if (a->type == OPT_ALIAS && strcmp(a->choices, o->name) == 0)
            n += snprintf(head + n, sizeof head - (size_t)n, "%s%s, ",
                          strlen(a->name) == 1 ? "-" : "--", a->name);
    }
    if (o->type == OPT_FLAG)
        snprintf(head + n, sizeof head - (size_t)n, "--%s", o->name);
    else if (o->type == OPT_CHOICE)
        snprintf(head + n, sizeof head - (size_t)n, "--%s %.*s", o->name,
                 choices_len(o->choices), o->choices);
    else
        snprintf(head + n, sizeof head - (size_t)n, "--%s %s", o->name, o->arg);
    int col = fprintf(out, "  %s", head);
    if (col + 2 > HELP_TEXT_COLUMN) {
        fprintf(out, "\n%*s", HELP_TEXT_COLUMN, "");
    } else {
        fprintf(out, "%*s", HELP_TEXT_COLUMN - col, "");
    }
    col = HELP_TEXT_COLUMN;
    /* the column is not "indented" for the first word: tool_wrap starts the line there */
    char text[1024];
    char shown[128];
    const char *deflt = o->deflt;
    if (deflt == NULL && cmd->show_default != NULL &&
        cmd->show_default(o->name, shown, sizeof shown))
        deflt = shown;
    if (deflt)
        snprintf(text, sizeof text, "%s (default %s)", o->help, deflt);
    else
        snprintf(text, sizeof text, "%s", o->help);
    tool_wrap(out, text, HELP_TEXT_COLUMN, col);
    fputc('\n', out);
}

/* The description: paragraphs separated by a blank line, each wrapped to the width (the
 * line breaks inside a paragraph are spaces). */
static void print_paragraphs(FILE *out, const char *text)
{
    char para[4096];
    for (const char *p = text; *p;) {
        const char *end = strstr(p, "\n\n");
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len >= sizeof para)
            len = sizeof para - 1;
        memcpy(para, p, len);
        para[len] = '\0';
        for (char *c = para; *c; c++)
            if (*c == '\n')
                *c = ' ';
        tool_wrap(out, para, 0, 0);
        fputc('\n', out);
        if (end == NULL)
            break;
        fputc('\n', out);
        p = end + 2;
    }
}

void tool_print_help(const tool_cmd *cmd, FILE *out)
{
    fprintf(out, "Usage: dlsched %s %s\n\n", cmd->name, cmd->usage);
    print_paragraphs(out, cmd->description);
    int heading = 0;
    for (int i = 0; cmd->opts && cmd->opts[i].name; i++) {
        const tool_opt *o = &cmd->opts[i];
        if (o->type == OPT_GROUP) {
            fprintf(out, "\n%s:\n", o->name);
            heading = 1;
            continue;
        }
        if (o->type == OPT_ALIAS)
            continue;
        if (!heading) {
            fprintf(out, "\nOptions:\n");
            heading = 1;
        }
        print_option(cmd, o, out);
    }
    if (!heading)
        fprintf(out, "\nOptions:\n");
    fprintf(out, "  %-*s%s\n", HELP_TEXT_COLUMN - 2, "-h, --help", "show this help");
    if (cmd->examples != NULL) {
        fprintf(out, "\nExamples:\n");
        for (const char *l = cmd->examples; *l;) {
            size_t len = strcspn(l, "\n");
            fprintf(out, "  %.*s\n", (int)len, l);
            l += len + (l[len] == '\n');
        }
    }
    fprintf(out, "\nMore in dlsched(1).\n");
}
