/* The public pairs of the exports (a processor's points as a StarPU performance model file or
 * as CSV): `*_to_string` and `*_write_file`, as the API policy names documents, and the
 * names they had before (issue 37), kept for one release. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "import/import_impl.h"

/* Writes text (taken) at path, as every writer of dlsched does. */
static dls_status write_text(char *text, const char *path, dls_error *err)
{
    dls_status st = dls_write_output(path, text, strlen(text), err);
    free(text);
    return st;
}

dls_status dls_platform_csv_to_string(const dls_platform *platform, size_t i, char **out,
                                      dls_error *err)
{
    return dls__platform_csv(platform, i, out, "dls_platform_csv_to_string", err);
}

dls_status dls_platform_csv_write_file(const dls_platform *platform, size_t i,
                                       const char *path, dls_error *err)
{
    char *text = NULL;
    dls_status st = dls__platform_csv(platform, i, &text, "dls_platform_csv_write_file", err);
    return st != DLS_OK ? st : write_text(text, path, err);
}

dls_status dls_platform_starpu_to_string(const dls_platform *platform, size_t i,
                                         const dls_starpu_export_params *params, char **out,
                                         dls_error *err)
{
    return dls__platform_starpu(platform, i, params, out, "dls_platform_starpu_to_string",
                                err);
}

dls_status dls_platform_starpu_write_file(const dls_platform *platform, size_t i,
                                          const dls_starpu_export_params *params,
                                          const char *path, dls_error *err)
{
    char *text = NULL;
    dls_status st = dls__platform_starpu(platform, i, params, &text,
                                         "dls_platform_starpu_write_file", err);
    return st != DLS_OK ? st : write_text(text, path, err);
}

dls_status dls_export_csv(const dls_platform *platform, size_t i, char **out, dls_error *err)
{
    return dls_platform_csv_to_string(platform, i, out, err);
}

dls_status dls_export_starpu(const dls_platform *platform, size_t i,
                             const dls_starpu_export_params *params, char **out,
                             dls_error *err)
{
    return dls_platform_starpu_to_string(platform, i, params, out, err);
}
