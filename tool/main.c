/* dlsched: the command-line front end of libdlsched. The dispatcher, tool_main(), returns the
 * exit status instead of exiting, so that the fuzz targets (fuzz/) can run it in-process;
 * the program's main() is in dlsched.c. */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

static const tool_cmd *const commands[] = {
    &tool_cmd_check,
    &tool_cmd_partition,
    &tool_cmd_schedule,
    &tool_cmd_evaluate,
    &tool_cmd_export,
    &tool_cmd_installments,
    &tool_cmd_crosscheck,
    &tool_cmd_lu,
    &tool_cmd_bench,
    &tool_cmd_plot,
    &tool_cmd_import,
    &tool_cmd_export_model,
    &tool_cmd_verify,
    &tool_cmd_validate,
    &tool_cmd_simulate,
    &tool_cmd_balance,
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

const tool_cmd *tool_find_command(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i]->name, name) == 0)
            return commands[i];
    return NULL;
}

/* The command closest to a misspelled name, or NULL when none is close enough. */
static const tool_cmd *closest_command(const char *name)
{
    const tool_cmd *best = NULL;
    size_t best_d = SIZE_MAX;
    for (size_t i = 0; i < NCOMMANDS; i++) {
        size_t d = tool_edit_distance(commands[i]->name, name, strlen(name));
        if (d < best_d) {
            best_d = d;
            best = commands[i];
        }
    }
    return best != NULL && tool_suggestable(best_d, strlen(best->name)) ? best : NULL;
}

/* The message for a command name that is none: with the closest one, when one is close. */
static void unknown_command(const char *who, const char *name)
{
    const tool_cmd *near = closest_command(name);
    if (near != NULL)
        tool_error("%sunknown command \"%s\"; did you mean \"%s\"? (see dlsched --help)", who,
                   name, near->name);
    else
        tool_error("%sunknown command \"%s\" (see dlsched --help)", who, name);
}

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: dlsched COMMAND [ARGUMENTS] [OPTIONS]\n"
            "       dlsched help COMMAND | --help | --version\n\n"
            "Decides how much work each processor of a heterogeneous platform gets.\n\n"
            "Commands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(out, "  %-13s%s\n", commands[i]->name, commands[i]->summary);
    fprintf(out,
            "\n'dlsched help COMMAND' shows a command's options and examples.\n"
            "Exit status: 0 success, 1 no feasible answer, 2 bad usage or input,\n"
            "3 the computation failed. See dlsched(1).\n");
}

int tool_main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_BADINPUT;
    }
    const char *first = argv[1];
    if (strcmp(first, "--help") == 0 || strcmp(first, "-h") == 0) {
        usage(stdout);
        return EXIT_DONE;
    }
    if (strcmp(first, "--version") == 0) {
        printf("dlsched %s (libdlsched %s)\n", DLS_VERSION_STRING, dls_version());
        return EXIT_DONE;
    }
    if (strcmp(first, "help") == 0) {
        if (argc < 3) {
            usage(stdout);
            return EXIT_DONE;
        }
        const tool_cmd *cmd = tool_find_command(argv[2]);
        if (cmd == NULL) {
            unknown_command("help: ", argv[2]);
            return EXIT_BADINPUT;
        }
        tool_print_help(cmd, stdout);
        return EXIT_DONE;
    }
    const tool_cmd *cmd = tool_find_command(first);
    if (cmd == NULL) {
        unknown_command("", first);
        return EXIT_BADINPUT;
    }
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            break;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            tool_print_help(cmd, stdout);
            return EXIT_DONE;
        }
    }
    tool_args args;
    if (tool_parse(cmd, argc - 2, argv + 2, &args) != 0)
        return EXIT_BADINPUT;
    return cmd->run(&args);
}
