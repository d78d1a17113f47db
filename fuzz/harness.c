/* What the fuzz targets share: a private temporary directory that every file the targets
 * and the tool read or write lives in, and a sink for the tool's output. */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "tool.h"

/* The private directory ("" before dls_fuzz_init()), and the file that takes the tool's
 * output: created in it and unlinked at once, so that nothing is left behind. */
static char fuzz_dir[1024];
static FILE *fuzz_sink;
static int fuzz_verbose;

static void remove_dir(void)
{
    dls_fuzz_clean();
    rmdir(fuzz_dir);
}

void dls_fuzz_init(void)
{
    if (fuzz_dir[0] != '\0')
        return;
    const char *tmp = getenv("TMPDIR");
    if (tmp == NULL || tmp[0] == '\0')
        tmp = "/tmp";
    snprintf(fuzz_dir, sizeof fuzz_dir, "%s/dlsched-fuzz-%s-XXXXXX", tmp, dls_fuzz_target);
    if (mkdtemp(fuzz_dir) == NULL) {
        fprintf(stderr, "fuzz_%s: cannot create a directory in %s: %s\n", dls_fuzz_target, tmp,
                strerror(errno));
        exit(2);
    }
    atexit(remove_dir);
    char path[1100];
    dls_fuzz_path("sink", path, sizeof path);
    int fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
    fuzz_sink = fd >= 0 ? fdopen(fd, "w+") : NULL;
    if (fuzz_sink == NULL) {
        fprintf(stderr, "fuzz_%s: cannot create %s: %s\n", dls_fuzz_target, path,
                strerror(errno));
        exit(2);
    }
    unlink(path);
    const char *v = getenv("DLS_FUZZ_VERBOSE");
    fuzz_verbose = v != NULL && strcmp(v, "1") == 0;
}

const char *dls_fuzz_path(const char *name, char *buf, size_t size)
{
    snprintf(buf, size, "%s/%s", fuzz_dir, name);
    return buf;
}

int dls_fuzz_write(const char *name, const void *data, size_t size)
{
    char path[1100];
    dls_fuzz_path(name, path, sizeof path);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        return -1;
    const char *p = data;
    while (size > 0) {
        ssize_t w = write(fd, p, size);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            close(fd);
            return -1;
        }
        p += w;
        size -= (size_t)w;
    }
    return close(fd);
}

void dls_fuzz_clean(void)
{
    DIR *d = opendir(fuzz_dir);
    if (d == NULL)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            unlinkat(dirfd(d), e->d_name, 0);
    closedir(d);
}

/* The sink is emptied before each run: it holds one run's output at most. */
static void empty_sink(void)
{
    fflush(fuzz_sink);
    if (ftruncate(fileno(fuzz_sink), 0) != 0)
        return;
    rewind(fuzz_sink);
}

int dls_fuzz_tool(int argc, char **argv)
{
    return dls_fuzz_tool_out(argc, argv, NULL);
}

int dls_fuzz_tool_out(int argc, char **argv, const char *out_name)
{
    if (fuzz_verbose) {
        fprintf(stderr, "fuzz_%s: running", dls_fuzz_target);
        for (int i = 0; i < argc; i++)
            fprintf(stderr, " '%s'", argv[i]);
        fputc('\n', stderr);
        return tool_main(argc, argv);
    }
    fflush(stdout);
    fflush(stderr);
    empty_sink();
    FILE *out_file = fuzz_sink;
    if (out_name != NULL) {
        char path[1100];
        out_file = fopen(dls_fuzz_path(out_name, path, sizeof path), "w");
        if (out_file == NULL)
            out_file = fuzz_sink;
    }
    int rc;
#ifdef __GLIBC__
    /* glibc's stdout and stderr are variables: pointing them at the sink leaves file
     * descriptors 1 and 2 alone, so that libFuzzer's messages and the sanitizers' reports,
     * which write there, still reach the terminal. */
    FILE *out = stdout, *err = stderr;
    stdout = out_file;
    stderr = fuzz_sink;
    rc = tool_main(argc, argv);
    fflush(fuzz_sink);
    fflush(out_file);
    stdout = out;
    stderr = err;
#else
    /* Elsewhere the descriptors themselves are redirected for the run. */
    int out = dup(1), err = dup(2);
    dup2(fileno(out_file), 1);
    dup2(fileno(fuzz_sink), 2);
    rc = tool_main(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(out, 1);
    dup2(err, 2);
    close(out);
    close(err);
#endif
    if (out_file != fuzz_sink)
        fclose(out_file);
    return rc;
}

void dls_fuzz_fail(const char *file, int line, const char *what)
{
    fprintf(stderr, "%s:%d: fuzz_%s: property broken: %s\n", file, line, dls_fuzz_target, what);
    fflush(stderr);
    abort();
}
