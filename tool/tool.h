/* The dlsched program: commands, their option tables, and output helpers. The program
 * uses only the public headers of the library. */
#ifndef DLSCHED_TOOL_H
#define DLSCHED_TOOL_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <jansson.h>

#include "dlsched.h"

/* Exit statuses of the program (documented in dlsched(1)). */
enum {
    EXIT_DONE = 0,        /* success */
    EXIT_INFEASIBLE = 1,  /* the input is valid but no feasible answer exists */
    EXIT_BADINPUT = 2,    /* bad usage, unreadable or invalid input */
    EXIT_FAILURE_RUN = 3, /* the computation failed (out of memory, numerical failure) */
    EXIT_INTERRUPTED = 130 /* stopped by Ctrl-C, as shells report a process killed by SIGINT */
};

/* Significant digits that make every double read back as itself, in JSON output. */
#define TOOL_JSON_DIGITS 17

/* 2^53: the largest whole number up to which every whole number is a double; counts on the
 * command line stop there. */
#define TOOL_MAX_WHOLE 9007199254740992.0

typedef enum tool_opt_type {
    OPT_FLAG,    /* no argument */
    OPT_STRING,  /* any text */
    OPT_DOUBLE,  /* a finite number within [min, max] */
    OPT_COUNT,   /* a whole number within [min, max], up to 2^53 */
    OPT_CHOICE,  /* one word of `choices` ("a|b|c") */
    /* Not options: records that shape the table. */
    OPT_GROUP,   /* a heading of the help ("Output"): the options after it, up to the next */
    OPT_ALIAS    /* another name of the option named in `choices` ("o" for "output"): parsed
                    as that option, shown beside it ("-o, --output FILE"), not listed */
} tool_opt_type;

/* One option of a command: a record drives parsing, validation and help. */
typedef struct tool_opt {
    const char *name;     /* long name without "--" */
    tool_opt_type type;
    const char *arg;      /* placeholder in the help ("N", "FILE") */
    /* The default, as text, when the tool decides it (a choice of the tool's own); NULL when
     * there is none or the library's parameters hold it (see tool_cmd.show_default). */
    const char *deflt;
    double min, max;      /* bounds of OPT_DOUBLE and OPT_COUNT */
    const char *choices;  /* OPT_CHOICE: "given|rate" */
    const char *help;
} tool_opt;

/* The choices of an option taken from a library enumeration's X-macro list, so that the
 * program accepts exactly the names the library parses ("gb|dp|...|", the last '|' being
 * ignored). */
#define TOOL_CHOICE_TEXT_(name, value, text) text "|"
#define TOOL_CHOICES(MAP) MAP(TOOL_CHOICE_TEXT_)

/* A number defined by a macro, as text in a string literal (help texts). */
#define TOOL_STR(x) TOOL_STR_(x)
#define TOOL_STR_(x) #x

/* Records of the common kinds, and the end of a table. */
#define TOOL_FLAG(name, help) {name, OPT_FLAG, NULL, NULL, 0, 0, NULL, help}
#define TOOL_STRING(name, arg, help) {name, OPT_STRING, arg, NULL, 0, 0, NULL, help}
#define TOOL_OPT_END {NULL, OPT_FLAG, NULL, NULL, 0, 0, NULL, NULL}
/* A heading in the help: the options after it, up to the next heading, are one group. */
#define TOOL_GROUP(title) {title, OPT_GROUP, NULL, NULL, 0, 0, NULL, NULL}
/* `name` is another name of option `target` (a one-letter alias: "-o"). */
#define TOOL_ALIAS(name, target) {name, OPT_ALIAS, NULL, NULL, 0, 0, target, NULL}

/* What a combination of options must hold: an option that would do nothing is refused, not
 * ignored. Each command may give a table of these (ended by a record with opt NULL). */
typedef enum tool_rule_kind {
    RULE_NEEDS,    /* `opt` does something only with one of `other` ("curve|integer") */
    RULE_EXCLUDES  /* `opt` does nothing (or contradicts) with `other` given */
} tool_rule_kind;
typedef struct tool_rule {
    const char *opt;     /* long name without "--" */
    tool_rule_kind kind;
    /* long names separated by '|'; NAME=WORD stands for option NAME given the value WORD */
    const char *other;
    const char *why;     /* said after the refusal, or NULL */
} tool_rule;
#define TOOL_NEEDS(opt, other) {opt, RULE_NEEDS, other, NULL}
#define TOOL_EXCLUDES(opt, other) {opt, RULE_EXCLUDES, other, NULL}
#define TOOL_EXCLUDES_WHY(opt, other, why) {opt, RULE_EXCLUDES, other, why}
#define TOOL_NEEDS_WHY(opt, other, why) {opt, RULE_NEEDS, other, why}
#define TOOL_RULE_END {NULL, RULE_NEEDS, NULL, NULL}

#define TOOL_MAX_OPTS 96
#define TOOL_MAX_POS 8

struct tool_args;

typedef struct tool_cmd {
    const char *name;
    const char *summary;      /* one line for `dlsched --help` */
    const char *usage;        /* after "dlsched NAME " */
    const char *description;  /* a paragraph for `dlsched help NAME` */
    const tool_opt *opts;     /* terminated by a record with name NULL */
    int pos_min, pos_max;     /* number of positional arguments */
    int (*run)(const struct tool_args *args);
    /* Writes the default of option `opt` as the help shows it, read at run time from the
     * library's parameters (or the tool's named constants); returns 0 when the option has no
     * such default. NULL when no option has one. */
    int (*show_default)(const char *opt, char *buf, size_t size);
    /* Command lines for the EXAMPLES part of the help, one a line, each one that runs from
     * the source tree (files of examples/); NULL for none. */
    const char *examples;
    const tool_rule *rules; /* combinations refused; NULL for none */
} tool_cmd;

/* The parsed command line of one command. */
typedef struct tool_args {
    const tool_cmd *cmd;
    const char *pos[TOOL_MAX_POS];
    int npos;
    const char *value[TOOL_MAX_OPTS];  /* per option: its text, NULL when not given */
    int given[TOOL_MAX_OPTS];
} tool_args;

/* The whole program: argv as main() gets it; returns the exit status and never exits (the
 * fuzz targets call it in-process). */
int tool_main(int argc, char **argv);
/* The command called `name`, or NULL. */
const tool_cmd *tool_find_command(const char *name);
/* Edit distance (insertions, deletions, substitutions, swaps of neighbours) between a and
 * b[0..blen), for "did you mean"; stops counting past TOOL_SUGGEST_MAX_LEN characters. */
#define TOOL_SUGGEST_MAX_LEN 64
size_t tool_edit_distance(const char *a, const char *b, size_t blen);
/* Whether a misspelling at distance d of a word of len characters is close enough to
 * suggest the word. */
int tool_suggestable(size_t d, size_t len);

/* Parses argv (after the command name); on error prints a message and returns -1. */
int tool_parse(const tool_cmd *cmd, int argc, char **argv, tool_args *args);
/* The record of cmd->opts that the word name[0..len) names on the command line, as
 * tool_parse reads it (dashes: 2 after "--", 1 after "-"; an unambiguous prefix of a long
 * name after "--"; an alias as its target), or -1; prints nothing. */
int tool_option_index(const tool_cmd *cmd, const char *name, size_t len, int dashes);
/* Prints the help of one command: usage, description, options by group (each option's help
 * wrapped under it at a fixed indent, within TOOL_HELP_WIDTH columns), examples. */
#define TOOL_HELP_WIDTH 79
void tool_print_help(const tool_cmd *cmd, FILE *out);
/* Writes text (words separated by blanks) wrapped within TOOL_HELP_WIDTH columns, every line
 * indented by indent, the first continuing at column `col` (already written). */
void tool_wrap(FILE *out, const char *text, int indent, int col);

/* Accessors; the option must exist in the command's table. */
int arg_flag(const tool_args *a, const char *name);
int arg_given(const tool_args *a, const char *name);
/* Whether the command's table has option name (shared readers of several commands). */
int arg_has(const tool_args *a, const char *name);
const char *arg_string(const tool_args *a, const char *name);  /* NULL when absent */
/* Numeric options: when the option was given (or has a default in the table), store its
 * value in *value and return 1; otherwise leave *value alone and return 0. So a command
 * fills its parameters from the library's *_params_init and overrides what the user gave. */
int arg_double(const tool_args *a, const char *name, double *value);
int arg_count(const tool_args *a, const char *name, uint64_t *value);
int arg_size(const tool_args *a, const char *name, size_t *value);      /* up to SIZE_MAX */
int arg_unsigned(const tool_args *a, const char *name, unsigned *value);  /* up to UINT_MAX */
/* A flag: when it was given, store `value` in *field; otherwise leave *field alone. */
void arg_set_flag(const tool_args *a, const char *name, int *field, int value);

/* Output helpers. Messages go to stderr as "dlsched: TEXT", the library's function tags
 * taken out of TEXT (tool_user_message) when it is shorter than TOOL_MESSAGE_MAX bytes. */
#define TOOL_MESSAGE_MAX 16384
void tool_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The one out-of-memory message: "WHO: out of memory" (WHO the command, option or file),
 * or a bare "out of memory" when WHO is NULL. */
void tool_oom(const char *who);
void tool_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* What the program did that a user must know to find its result (where a file went): on
 * stderr, "dlsched: " and the text, as a message and not a warning. */
void tool_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tool_warn_lines(const char *text);        /* one warning per line of text */
/* Each line of text as "dlsched: note: LINE" on stderr: what --verbose adds. */
void tool_note_lines(const char *text);
/* The longest certified fraction printed in a text report (one of a large platform has
 * thousands of digits; --json gives it whole). */
#define CERT_TEXT_MAX 120

int tool_exit_for(dls_status status);          /* exit status for a failed call */
int tool_fail(dls_status status, const dls_error *err);  /* prints err, returns exit status */
/* A failure to write the output of option opt ("--gantt", "-o") at path: the message says
 * the option and the path as the user typed them; returns the exit status. */
int tool_fail_output(const char *opt, const char *path, dls_status status, const dls_error *err);
/* A library message in the program's words, in buf: without the library's function tag
 * ("dls_import_csv_file: "), its parameters named as the options that set them. */
const char *tool_user_message(const char *message, char *buf, size_t size);
int tool_print_json(json_t *value);            /* prints and releases value; exit status */
json_t *tool_json_number(double v);            /* a real, or null when not finite */
/* A string from outside (a path, a library message quoting an input): bytes that are not
 * UTF-8 written \xNN; null for NULL; NULL when memory runs out. */
json_t *tool_json_text(const char *s);
/* Length of the UTF-8 character at s (1 to 4) in its shortest form, 0 when not one. */
size_t tool_utf8_len(const unsigned char *s);
const char *tool_num(double v, char *buf, size_t size);  /* %.6g, "inf" for no limit */
/* Lines of big tables (10^6 processors) are written without printf, whose format parsing
 * is slow in this program (libquadmath, under OpenBLAS, registers printf hooks): each helper
 * appends to the line at o, which the caller sized, and returns the end. */
char *tool_put(char *o, const char *s, size_t width);   /* "%-*s" */
char *tool_put_right(char *o, const char *s, size_t width); /* "%*s" */
char *tool_put_size(char *o, size_t n);                  /* "%zu" */
/* "%*.6g" (precision 6) or "%*.9g" (precision 9), right-aligned in width */
char *tool_put_g(char *o, double v, int precision, size_t width);
int tool_show_number(double v, char *buf, size_t size);  /* a default in the help; 1 */
/* Numbers for people (issue 36). */
/* one or many, by n: "processor" or "processors" */
const char *tool_plural(size_t n, const char *one, const char *many);
/* "1 processor", "5 processors", "1000000000 units": n as tool_amount writes it; buf */
const char *tool_count(char *buf, size_t size, double n, const char *one, const char *many);
/* A figure in a title as a person reads it: a whole number in all its digits up to 2^53
 * (1000000000, not 1e+09), else 9 significant digits with a plain exponent (2.5e20). */
const char *tool_amount(double v, char *buf, size_t size);
/* v in the fewest digits that read back as exactly v: a whole number below 10^6 in all
 * its digits, else %g's shortest form with a plain exponent (5e-5, 2.5e9). Returns buf. */
const char *tool_shortest(double v, char *buf, size_t size);
/* JSON text with every real rewritten, in place, in its shortest form that reads back as
 * the same double (5e-5, not 5.0000000000000002e-5); strings and integers untouched. */
char *tool_json_shortest_reals(char *text);
/* json_dumps with the reals so written (malloc'd, NULL when memory runs out). */
char *tool_json_dumps(const json_t *value, size_t flags);

/* Significant digits of the numbers of a text table by default (--digits). */
#define TOOL_TABLE_DIGITS 6
/* Values of magnitude below this fraction of the answer's scale (the makespan for times,
 * the load for loads) are rounding noise: written 0 in text output. */
#define TOOL_ZERO_REL 1e-12
/* The option --digits of the commands that print tables, as a record of their table. */
#define TOOL_DIGITS_OPT                                                                      \
    {"digits", OPT_COUNT, "N", TOOL_STR(TOOL_TABLE_DIGITS), 1, 17, NULL,                    \
     "significant digits of the numbers in the table (each column alike)"}
/* The value of --digits (its default when absent). */
int tool_digits(const tool_args *a);
/* A column of numbers in a text table: every value with the decimals that give the
 * column's largest magnitude `digits` significant digits (scientific notation for the
 * whole column past 1e15 or below 1e-4; none for a whole column); magnitudes below `zero`
 * written 0. Use: init, set whole, see every value, fix, then put. */
#define TOOL_COLUMN_BYTES 64
typedef struct tool_column {
    const char *heading; /* with its unit: "FINISH (s)" */
    int digits;
    double zero;
    int whole;           /* whole numbers: no decimals (set after init) */
    double max;          /* largest magnitude seen */
    int negative;        /* a negative value seen */
    double quantum;      /* below it a value rounds to 0 */
    char fmt[16];        /* the strfromd format, set by tool_column_fix */
    int width;           /* characters of the heading and the widest value */
} tool_column;
void tool_column_init(tool_column *c, const char *heading, int digits, double zero);
void tool_column_see(tool_column *c, double v);
void tool_column_fix(tool_column *c);
/* v in the column's form ("-" for NaN, "inf"), in buf; returns buf */
const char *tool_column_text(const tool_column *c, double v, char *buf, size_t size);
char *tool_put_column(char *o, const tool_column *c, double v);  /* right-aligned */
char *tool_put_heading(char *o, const tool_column *c);           /* right-aligned */

int tool_show_text(const char *text, char *buf, size_t size);  /* the same for a word; 1 */

/* The reader of the small text files (tool/namefile.c): files of names (--order,
 * --sequence), of lines "NAME V1 .. Vk" (--release, --returns) and of numbers (--weights).
 * Each is read whole, a stream (a FIFO, a device) included, up to TOOL_TEXT_FILE_MAX
 * bytes: the largest platform file, so that every file naming each processor of a valid
 * platform once is read, and a bound on what an endless stream makes the program read. A
 * NUL byte stops it at once (/dev/zero). Lines have no length limit. */
#define TOOL_TEXT_FILE_MAX DLS_PLATFORM_FILE_MAX
/* Bytes of a message of the reader (a path can be long). */
#define TOOL_TEXT_WHY_MAX 8192
typedef struct tool_text {
    char *text;  /* the bytes read, NUL-terminated (malloc'd) */
    size_t len;  /* their count */
    size_t pos;  /* where the next line starts */
    size_t line; /* the number of the line tool_text_line returned last, 1-based */
    int unopened; /* after a failed tool_text_read: 1 when the file could not be opened */
} tool_text;
/* Reads the file at path into *t (a byte order mark at its start skipped); what says what
 * it holds ("processor names"), for the messages. Returns EXIT_DONE (release *t with
 * tool_text_free), or an exit status with why "PATH: cannot open: ...", "PATH:LINE: holds a
 * NUL byte ...", "PATH: is a directory ...", "PATH: ... more than N bytes ..." (*t empty). */
int tool_text_read(const char *path, const char *what, tool_text *t, char *why, size_t size);
/* "-" names standard input wherever a file is read (as Unix tools take it); the messages
 * call it TOOL_STDIN_NAME. tool_text_read reads it (once: a second "-" is refused). */
#define TOOL_STDIN_NAME "<stdin>"
int tool_is_stdin(const char *path);
/* The name of an input in messages: TOOL_STDIN_NAME for "-", else the path. */
const char *tool_input_name(const char *path);
/* The next line of t, NUL-terminated in place without its end ("\n", "\r\n"), its length
 * in *len; t->line is its number. NULL after the last line. */
char *tool_text_line(tool_text *t, size_t *len);
void tool_text_free(tool_text *t);
/* A file of lines "NAME V1 .. Vk": the name is everything before the last k blank-separated
 * fields (the processor named so exactly, else without the blanks at its ends); blank lines
 * and lines starting with # are skipped, unless such a line names a processor exactly. Each
 * value a number, finite, >= 0 and in the domain (0 or [DLS_DOMAIN_MIN, DLS_DOMAIN_MAX]);
 * each processor named once at most. */
#define TOOL_NAMED_MAX_VALUES 3
typedef struct tool_named_spec {
    const char *who;        /* the command, first in the messages */
    const char *opt;        /* the option that names the file, "--release" */
    const char *form;       /* the line's form, "NAME SECONDS" */
    const char *file_holds; /* what the file holds, "release times" */
    int k;                  /* values a line, 1 to TOOL_NAMED_MAX_VALUES */
    const char *what[TOOL_NAMED_MAX_VALUES]; /* each value, "release time" */
} tool_named_spec;
/* Reads such a file against the platform's names: *out (malloc'd) holds value j of
 * processor i at j m + i (m processors), 0 for those not named. Returns EXIT_DONE, or an
 * exit status after a message "WHO: OPT FILE:LINE: ..." naming the processor and the value. */
int tool_named_read(const char *path, const dls_platform *pl, const tool_named_spec *spec,
                    double **out);
/* s[0..len) between double quotes, for a message: control characters and bytes that are
 * not UTF-8 written \xNN, cut after TOOL_QUOTE_MAX bytes (a name holds 4096); buf of
 * TOOL_QUOTE_BYTES at least. Returns buf. */
#define TOOL_QUOTE_MAX 160
#define TOOL_QUOTE_BYTES (4 * TOOL_QUOTE_MAX + 16)
const char *tool_quote(char *buf, size_t size, const char *s, size_t len);
/* The number text is, whole (strtod's syntax): 0 with *v, or -1. A nonzero number whose
 * magnitude underflows (1e-400) is not read as 0: *v is then the smallest subnormal of its
 * sign, which the domain refuses. */
int tool_number(const char *text, double *v);
/* Whether v is finite and 0 (when zero_ok) or of magnitude in [DLS_DOMAIN_MIN,
 * DLS_DOMAIN_MAX], the input domain (dlsched/model.h). */
int tool_in_domain(double v, int zero_ok);

/* A list of processor names: the one reader of --order, --sequence, --installments and
 * --return-order (tool/namefile.c). A value holding a comma is a list NAME,NAME,... (one
 * trailing comma allowed, so that "NAME," is a list of one); any other value is a FILE of
 * names, read line by line: a line that is exactly a processor's name names it (commas, '#'
 * and blanks included: every name can be written so), other lines lose the blanks at their
 * ends and are skipped when empty or starting with '#', else split at commas like a list.
 * A name in a list is the processor named so, else the one named without the blanks (space,
 * tab, CR) at its ends; an empty name, an unknown one and an unreadable file are refused
 * with a message "WHO: OPT, name 3: ..." or "WHO: FILE:7: ...". What a name stands for (each
 * processor once, or repeated) is the caller's take. */
typedef struct tool_names {
    const char *who;       /* the command, first in messages */
    const char *opt;       /* the option, "--order" */
    const char *platform;  /* the platform's path as given, for messages */
    const char *keywords;  /* the option's keywords, for a file not found ("given, rate or
                            * best"), or NULL */
    const dls_platform *pl;
    /* Called for each name, in order: its processor, where it is for a message ("--order,
     * name 3", "FILE:7") and its place (the name's number in a list, the line in a file).
     * EXIT_DONE, or an exit status after a message. */
    int (*take)(struct tool_names *r, size_t proc, const char *where, size_t place);
    void *ctx;             /* the caller's */
    const char *file;      /* while reading: the file, NULL for a list */
    size_t line;           /* while reading a file: its line */
} tool_names;
/* Reads text by the rule above; EXIT_DONE or the exit status after a message. */
int tool_names_read(tool_names *r, const char *text);

/* Reads the weights of a set of elements (tool/weights.c): a JSON array, or numbers
 * separated by white space; each finite, > 0 and in the domain. *out is malloc'd. Returns
 * 0, or -1 with a message naming the file (and line or weight) in why. */
#define TOOL_WEIGHTS_WHY_MAX 512
int tool_read_weights(const char *path, double **out, uint64_t *count, char *why, size_t size);

/* The sandbox of `dlsched validate` (tool/validate_run.c): a scheduler under test runs in a
 * temporary folder of its own that holds copies of the suite's files, with its output
 * captured and bounded, under a time limit; its plan is read only if it is a regular file
 * of bounded size; the folder is removed afterwards, whatever the scheduler left there. */
/* Longest path of the temporary folder ($TMPDIR/dlsched-validate-XXXXXX) and its files. */
#define VALIDATE_PATH_MAX 4096
/* Seconds between SIGTERM at the time limit and SIGKILL for a scheduler that goes on. */
#define VALIDATE_TERM_GRACE_S 1.0
/* Bytes of the scheduler's last line of output kept for the report. */
#define VALIDATE_LAST_LINE_MAX 160

/* One instance's temporary folder: made by validate_box_open(), left by _close(). */
typedef struct validate_box {
    char path[VALIDATE_PATH_MAX - 64]; /* room left for the names of its files */
    int fd; /* the folder, opened when made: what the scheduler does to its name is seen */
    dev_t dev;
    ino_t ino;
} validate_box;

/* Makes the folder ($TMPDIR, else /tmp). 0, or -1 with the reason in why. */
int validate_box_open(validate_box *b, char *why, size_t size);
/* Whether the folder is still at its path, the one made (the scheduler did not remove,
 * move or replace it). */
int validate_box_intact(const validate_box *b);
/* Writes a read-only file NAME of the folder holding len bytes; its path in path.
 * 0, or -1 with the reason in why. */
int validate_box_put(const validate_box *b, const char *name, const char *bytes, size_t len,
                     char *path, size_t path_size, char *why, size_t size);
/* Removes the folder and everything in it (no link followed, folders made writable first,
 * at most VALIDATE_CLEAN_MAX entries), and whatever else the scheduler put at its path.
 * 0, or -1 with what is left in why. */
int validate_box_close(validate_box *b, char *why, size_t size);

/* Reads the regular file at path (relative to the folder dirfd, or AT_FDCWD) into *out
 * (malloc'd, NUL-terminated), at most max bytes; follow: whether a symbolic link is taken
 * (the suite's files) or refused (a plan must be a file the scheduler wrote). Never blocks
 * (a FIFO or a device is refused before it is opened). 0, or -1 with the reason in why
 * ("is a FIFO, not a regular file"), to follow the file's name. */
int validate_read_file(int dirfd, const char *path, int follow, size_t max, char **out,
                       size_t *len, char *why, size_t size);

/* Runs cmd through /bin/sh in a process group of its own, standard input /dev/null, its
 * standard output and error into a pipe of which only the last line is kept (never
 * dlsched's own output). At the time limit the group gets SIGTERM, then SIGKILL after
 * VALIDATE_TERM_GRACE_S; whatever the group still runs when the shell ends is killed.
 * Returns 0 when it exited 0, 1 when it failed, 2 when stopped at the time limit (why
 * says how, with the last line it wrote). */
int validate_run(const char *cmd, double limit, char *why, size_t size);

/* Shared steps of the commands (helpers.c). */
/* Reads a platform file; on failure prints why and returns the exit status, else
 * EXIT_DONE with *pl to release with dls_platform_free(). Warns of unusual values
 * (dls_platform_unusual); the _quiet one leaves them to its caller (check lists them). */
int tool_read_platform(const char *path, dls_platform **pl);
int tool_read_platform_quiet(const char *path, dls_platform **pl);
/* dls_claim_read_file, and standard input for "-" (a claim: the schedule of verify and
 * simulate). */
dls_status tool_read_claim(const dls_platform *pl, const char *path, dls_claim **c,
                           dls_error *err);
/* The file of --output or -o, NULL when neither was given. */
const char *tool_output(const tool_args *a);
/* --load V, required: 0 after a message when it is missing. */
int tool_require_load(const tool_args *a, double *V);
/* Whether an output path is "-", standard output (as Unix tools take it). */
int tool_is_stdout(const char *path);
/* Writes a document the library made to standard output and releases it; exit status
 * (EXIT_FAILURE_RUN, with the reason, when standard output cannot take it). */
int tool_write_stdout(char *doc, const char *what);
/* --order given|rate|best (its keywords; an explicit order is tool_order_read's) and
 * --no-limits into schedule parameters already filled (the rest untouched). */
void tool_schedule_options(const tool_args *a, dls_schedule_params *par);

/* --order of schedule, evaluate and export (tool/order.c; the syntax is dlsched(1)'s):
 * given, rate, best, or the send order itself, a list of processor names NAME,NAME,...
 * or a FILE of names, every processor once. */
typedef struct tool_order {
    const char *text;      /* the value of --order; NULL when it was not given */
    dls_send_order order;  /* GIVEN, RATE, BEST; SEQUENCE for an explicit order */
    const char *file;      /* SEQUENCE: the file it was read from; NULL for a list */
    size_t *sequence;      /* SEQUENCE: platform indices in send order (malloc'd) */
    size_t count;          /* SEQUENCE: its length, the platform's processor count */
} tool_order;
/* Reads --order against the platform's names. no_best: NULL when the command takes best,
 * else why it does not (refused with that reason). Returns EXIT_DONE, or the exit status
 * after a message naming what is wrong (the name and its place in the list or file, a
 * processor named twice, the ones left out); release *o with tool_order_free() in every
 * case. */
int tool_order_read(const tool_args *a, const dls_platform *pl, const char *no_best,
                    tool_order *o);
/* Whether tool_order_read reads the value of --order as a FILE: neither a keyword nor a
 * list (no comma); "" is neither (the option parser refuses it). */
int tool_order_is_file(const char *value);
/* The order into parameters already filled (nothing when --order was not given); par
 * points into *o, which must outlive it. */
void tool_order_apply(const tool_order *o, dls_schedule_params *par);
void tool_order_free(tool_order *o);
/* --order of the commands that take given or rate only (verify, crosscheck): into *order
 * when given; best refused with why_not_best, anything else with the two keywords. Returns
 * EXIT_DONE or EXIT_BADINPUT after a message. */
int tool_order_fixed(const tool_args *a, const char *why_not_best, dls_send_order *order);
/* The width of the NAME column of a table of the first n processors: their longest name,
 * and at least the heading. */
int tool_name_width(const dls_platform *pl, size_t n);
/* The widest name column of the text tables, in characters: longer names are shortened
 * there (not in the JSON output). */
#define TOOL_NAME_COLUMNS 40
/* Bytes of a cell for a name: TOOL_NAME_COLUMNS characters of up to 4 bytes, and more. */
#define TOOL_CELL_BYTES (4 * TOOL_NAME_COLUMNS + 16)
/* The name padded (or shortened) to width characters, in buf; returns buf. */
const char *tool_cell(char *buf, size_t size, const char *name, int width);
/* --OPT N1,N2,...: numbers separated by commas ("1,2.5,3", one trailing comma allowed), each
 * >= 0 and in the domain (0 or [DLS_DOMAIN_MIN, DLS_DOMAIN_MAX]): a new array in *out, its
 * length in *n. pl: when the numbers are one per processor, the platform, whose names the
 * messages give; else NULL. Returns EXIT_DONE, or an exit status (nothing allocated) after a
 * message "WHO: --OPT: number K (processor NAME) ..." saying what is wrong. */
int tool_parse_numbers(const char *who, const char *opt, const char *text,
                       const dls_platform *pl, double **out, size_t *n);
/* The growth of every array the tool fills piece by piece: returns p enlarged to hold at
 * least `need` elements of `elem` bytes (doubling, from TOOL_GROW_MIN) and sets *cap; p itself
 * when *cap >= need; NULL, leaving p valid and *cap unchanged, when out of memory. */
void *tool_grow(void *p, size_t *cap, size_t need, size_t elem);
/* Seconds of a monotonic clock. */
double tool_now(void);
/* Ctrl-C: from tool_catch_sigint() until tool_release_sigint(), SIGINT only sets
 * tool_interrupted, which the commands' callbacks turn into a cancellation. */
extern volatile sig_atomic_t tool_interrupted;
void tool_catch_sigint(struct sigaction *old);
void tool_release_sigint(const struct sigaction *old);

/* Commands. */
int cmd_check(const tool_args *args);
int cmd_partition(const tool_args *args);
int cmd_schedule(const tool_args *args);
int cmd_evaluate(const tool_args *args);
int cmd_export(const tool_args *args);
int cmd_bench(const tool_args *args);
int cmd_plot(const tool_args *args);
int cmd_lu(const tool_args *args);
int cmd_crosscheck(const tool_args *args);
int cmd_installments(const tool_args *args);
int cmd_import(const tool_args *args);
int cmd_export_model(const tool_args *args);
int cmd_verify(const tool_args *args);
int cmd_validate(const tool_args *args);
int cmd_simulate(const tool_args *args);
int cmd_balance(const tool_args *args);

extern const tool_cmd tool_cmd_check;
extern const tool_cmd tool_cmd_partition;
extern const tool_cmd tool_cmd_schedule;
extern const tool_cmd tool_cmd_evaluate;
extern const tool_cmd tool_cmd_export;
extern const tool_cmd tool_cmd_bench;
extern const tool_cmd tool_cmd_plot;
extern const tool_cmd tool_cmd_lu;
extern const tool_cmd tool_cmd_crosscheck;
extern const tool_cmd tool_cmd_import;
extern const tool_cmd tool_cmd_export_model;
extern const tool_cmd tool_cmd_installments;
extern const tool_cmd tool_cmd_verify;
extern const tool_cmd tool_cmd_validate;
extern const tool_cmd tool_cmd_simulate;
extern const tool_cmd tool_cmd_balance;

/* `dlsched bench --mpi`: what the command line asks, for the MPI part of the program
 * (tool/cmd_bench_mpi.c, built with MPI only; it calls MPI_Init and MPI_Finalize). */
typedef struct tool_mpi_bench {
    const dls_kernel *kernel;       /* this rank's kernel */
    const dls_bench_params *bench;  /* its parameters, progress callback included */
    const char *log;                /* prefix of the ranks' logs */
    int resume;                     /* --resume */
    const char *out;                /* -o FILE, "-" or NULL */
    int json;                       /* --json: the report on standard output */
    int links;                      /* --links: measure the link from rank 0 to every rank */
    int no_compute;                 /* --no-compute: the links alone */
    double bytes_per_unit;          /* a unit of load in bytes (for the links' rates) */
    double link_max_bytes;          /* the largest message */
    const char *merge;              /* --no-compute --merge FILE: the links into this platform */
} tool_mpi_bench;
/* The MPI part, set by main() in a program built with MPI; NULL otherwise (the fuzz
 * targets and a build without MPI). Returns the exit status, the same on every rank. */
extern int (*tool_bench_mpi)(const tool_mpi_bench *job);
int tool_bench_mpi_run(const tool_mpi_bench *job);

/* A sequence of installments (tool/sequence.c): the value of option opt ("sequence",
 * "installments") read by tool_names_read; names may repeat, up to the LP's
 * DLS_INSTALLMENT_LP_MAX_CHUNKS. *seq (malloc'd) and *n on EXIT_DONE; else an exit status
 * after a message starting with the command's name. */
int tool_sequence_read(const tool_args *args, const char *opt, const dls_platform *pl,
                       size_t **seq, size_t *n);
/* Release times from a FILE of lines "NAME SECONDS"; processors not named get 0. *out
 * (malloc'd, one per processor) on EXIT_DONE; else an exit status after a message. */
int tool_release_read(const char *path, const dls_platform *pl, const char *who, double **out);
/* Results returned from a FILE of lines "NAME FRACTION STARTUP RATE"; processors not named
 * return nothing. *out (malloc'd): the fractions, then the startups, then the rates, one
 * per processor each; on EXIT_DONE, else an exit status after a message. */
int tool_returns_read(const char *path, const dls_platform *pl, const char *who, double **out);
/* --return-order: fifo, lifo, or the processors in the order their results come back,
 * NAME,NAME,... (the j-th time a processor is named stands for its j-th chunk of seq, n
 * chunks; NULL seq: refused). *perm (malloc'd) for a list, else NULL; an exit status. */
int tool_return_order_read(const tool_args *args, const dls_platform *pl, const size_t *seq,
                           size_t n, dls_return_order *order, size_t **perm);
/* --returns FILE, --return-order and --two-port into par (seq, n: the given sequence, or
 * NULL); the arrays behind them in *ret and *perm (malloc'd or NULL, the caller's to free
 * whatever the outcome). The order and the ports without --returns are refused. */
int tool_returns_apply(const tool_args *args, const dls_platform *pl, const size_t *seq,
                       size_t n, const char *who, dls_installment_lp_params *par, double **ret,
                       size_t **perm);

/* The options of the multi-installment LP (installments --lp, export --installments), mapped
 * in one place: the parameters, and the arrays behind them (malloc'd, released by
 * tool_installment_lp_free whatever the outcome). */
typedef struct tool_installment_lp {
    dls_installment_lp_params par;
    size_t *seq, n;   /* the sequence given, or NULL */
    double *release;  /* --release, or NULL */
    double *ret;      /* --returns, or NULL */
    size_t *perm;     /* --return-order as a list, or NULL */
} tool_installment_lp;
/* Fills lp from the defaults and the options of the command's table (the search's options
 * where the table has them); the sequence from option sequence_opt ("sequence",
 * "installments"). EXIT_DONE, or an exit status after a message starting with who. */
int tool_installment_lp_read(const tool_args *args, const dls_platform *pl, const char *who,
                             const char *sequence_opt, tool_installment_lp *lp);
void tool_installment_lp_free(tool_installment_lp *lp);

#endif /* DLSCHED_TOOL_H */
