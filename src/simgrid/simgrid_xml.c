/* A star platform as a SimGrid platform file (dlsched/simgrid.h): an originator host, one
 * host and one link per processor, routes from the originator; what SimGrid cannot say
 * about a processor (its true model) as comments. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/internal.h"
#include "core/locale.h"
#include "model/model_impl.h"
#include "platform/platform_impl.h"

/* Candidate ids of the originator tried when a processor has the name. */
#define DLS__SIMGRID_ORIGINATOR_TRIES 1000

void dls_simgrid_params_init(dls_simgrid_params *p)
{
    if (p == NULL)
        return;
    memset(p, 0, sizeof *p);
    p->bytes_per_unit = 1;
    p->flops_per_unit = 1;
}

static dls_status check_params(const dls_simgrid_params *p, const char *fn, dls_error *err)
{
    dls_status st = DLS__CHECK_RESERVED(p, fn, dls_simgrid_params, err);
    if (st != DLS_OK)
        return st;
    char why[256];
    if (!(isfinite(p->bytes_per_unit) && p->bytes_per_unit > 0) ||
        dls__domain_value(p->bytes_per_unit, "bytes per unit", why, sizeof why))
        return dls__fail(err, DLS_EINVAL, fn, "bytes_per_unit must be finite and in [%g, %g], "
                         "not %.10g", DLS_DOMAIN_MIN, DLS_DOMAIN_MAX, p->bytes_per_unit);
    if (!(isfinite(p->flops_per_unit) && p->flops_per_unit > 0) ||
        dls__domain_value(p->flops_per_unit, "flops per unit", why, sizeof why))
        return dls__fail(err, DLS_EINVAL, fn, "flops_per_unit must be finite and in [%g, %g], "
                         "not %.10g", DLS_DOMAIN_MIN, DLS_DOMAIN_MAX, p->flops_per_unit);
    if (p->originator != NULL && p->originator[0] == '\0')
        return dls__fail(err, DLS_EINVAL, fn, "the originator's id is empty");
    return DLS_OK;
}

/* The speed of processor i's host in units per second (see dlsched/simgrid.h). */
static double unit_speed(const dls_model *m)
{
    double s = 0;
    switch (m->kind) {
    case DLS_MODEL_CONSTANT:
        return m->constant;
    case DLS_MODEL_POINTS:
        for (size_t k = 0; k < m->n; k++)
            s = fmax(s, m->speed[k]);
        return s;
    case DLS_MODEL_TIME_LINES: {
        double b = INFINITY;
        for (size_t l = 0; l < m->n; l++)
            if (m->b[l] > 0)
                b = fmin(b, m->b[l]);
        /* lines without slope: a time that does not grow with the load; any speed does */
        return isfinite(b) ? 1 / b : 1;
    }
    case DLS_MODEL_SPEED2D:
        return NAN;
    }
    return NAN;
}

double dls_simgrid_host_speed(const dls_platform *pl, size_t i, const dls_simgrid_params *p)
{
    dls_simgrid_params defaults;
    if (p == NULL) {
        dls_simgrid_params_init(&defaults);
        p = &defaults;
    }
    if (pl == NULL || i >= pl->n || check_params(p, "dls_simgrid_host_speed", NULL) != DLS_OK)
        return NAN;
    return unit_speed(pl->procs[i].model) * p->flops_per_unit;
}

/* The numbers written for processor i are products of the platform's with the parameters':
 * each must be a finite number > 0 (what SimGrid reads as a speed or a bandwidth), so that
 * the file never says "inff" or "0Bps". */
static dls_status check_products(const dls_platform *pl, const dls_simgrid_params *p,
                                 const char *fn, dls_error *err)
{
    for (size_t i = 0; i < pl->n; i++) {
        const dls__proc *pr = &pl->procs[i];
        double speed = unit_speed(pr->model) * p->flops_per_unit;
        if (!(isfinite(speed) && speed > 0))
            return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, fn, "processor \"%s\": its "
                                "speed in units per second times %.10g flops per unit is %.10g "
                                "flop/s, not a finite speed > 0", pr->name,
                                p->flops_per_unit, speed);
        double bw = pr->rate > 0 ? p->bytes_per_unit / pr->rate : DLS_SIMGRID_FREE_BANDWIDTH;
        if (!(isfinite(bw) && bw > 0))
            return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, fn, "processor \"%s\": %.10g "
                                "bytes per unit over its link's rate %.10g s per unit is %.10g "
                                "bytes per second, not a finite bandwidth > 0", pr->name,
                                p->bytes_per_unit, pr->rate, bw);
    }
    return DLS_OK;
}

/* Whether a processor of pl is called name. */
static int taken(const dls_platform *pl, const char *name)
{
    for (size_t i = 0; i < pl->n; i++)
        if (strcmp(pl->procs[i].name, name) == 0)
            return 1;
    return 0;
}

dls_status dls_simgrid_originator(const dls_platform *pl, const dls_simgrid_params *p,
                                  char *buf, size_t size, dls_error *err)
{
    dls_simgrid_params defaults;
    if (p == NULL) {
        dls_simgrid_params_init(&defaults);
        p = &defaults;
    }
    if (pl == NULL || buf == NULL || size == 0)
        return dls__fail(err, DLS_EINVAL, "dls_simgrid_originator", "NULL argument");
    dls_status st = check_params(p, "dls_simgrid_originator", err);
    if (st != DLS_OK)
        return st;
    if (p->originator != NULL) {
        if (taken(pl, p->originator))
            return dls__fail(err, DLS_EINVAL, "dls_simgrid_originator", "a processor is called "
                             "\"%s\", the originator's id", p->originator);
        if (strlen(p->originator) >= size)
            return dls__fail(err, DLS_EINVAL, "dls_simgrid_originator", "buffer too small");
        strcpy(buf, p->originator);
        return DLS_OK;
    }
    for (int k = 1; k <= DLS__SIMGRID_ORIGINATOR_TRIES; k++) {
        char id[32];
        if (k == 1)
            snprintf(id, sizeof id, "originator");
        else
            snprintf(id, sizeof id, "originator-%d", k);
        if (!taken(pl, id)) {
            if (strlen(id) >= size)
                return dls__fail(err, DLS_EINVAL, "dls_simgrid_originator", "buffer too small");
            strcpy(buf, id);
            return DLS_OK;
        }
    }
    return dls__fail(err, DLS_EINVAL, "dls_simgrid_originator", "every id from originator to "
                     "originator-%d is a processor's name: give one",
                     DLS__SIMGRID_ORIGINATOR_TRIES);
}

/* Appends s as the value of an XML attribute (or the text of a comment: no "--" there). */
static void xml_text(dls__buf *b, const char *s, int comment)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': dls__buf_add(b, "&amp;", 5); break;
        case '<': dls__buf_add(b, "&lt;", 4); break;
        case '>': dls__buf_add(b, "&gt;", 4); break;
        case '"': dls__buf_add(b, "&quot;", 6); break;
        case '\'': dls__buf_add(b, "&apos;", 6); break;
        case '-':
            /* a comment may not hold "--" */
            dls__buf_add(b, comment && s[1] == '-' ? "- " : "-", comment && s[1] == '-' ? 2 : 1);
            break;
        default: dls__buf_add(b, s, 1);
        }
    }
}

/* The true model of processor i, as a comment. */
static void model_comment(dls__buf *b, const dls__proc *pr)
{
    const dls_model *m = pr->model;
    dls__buf_put(b, "    <!-- ");
    xml_text(b, pr->name, 1);
    switch (m->kind) {
    case DLS_MODEL_CONSTANT:
        dls__buf_put(b, ": constant speed %.17g units/s", m->constant);
        break;
    case DLS_MODEL_POINTS:
        dls__buf_put(b, ": measured speed (size units, units/s):");
        for (size_t k = 0; k < m->n; k++)
            dls__buf_put(b, " [%.17g, %.17g]", m->size[k], m->speed[k]);
        break;
    case DLS_MODEL_TIME_LINES:
        dls__buf_put(b, ": time = max of lines a + b x (s, s/unit):");
        for (size_t l = 0; l < m->n; l++)
            dls__buf_put(b, " [%.17g, %.17g]", m->a[l], m->b[l]);
        break;
    case DLS_MODEL_SPEED2D:
        break;
    }
    if (isfinite(pr->limit))
        dls__buf_put(b, "; limit %.17g units", pr->limit);
    dls__buf_put(b, "; the host's speed is not its model: a replay asks for its true time "
                 "-->\n");
}

static dls_status build(const dls_platform *pl, const dls_simgrid_params *p, char **out,
                        const char *fn, dls_error *err)
{
    if (pl == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, fn, "NULL argument");
    dls_status st = check_params(p, fn, err);
    if (st != DLS_OK)
        return st;
    for (size_t i = 0; i < pl->n; i++)
        if (pl->procs[i].two_d)
            return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, fn, "processor \"%s\" has a "
                                "2-D model: a SimGrid star host has one speed", pl->procs[i].name);
    if ((st = check_products(pl, p, fn, err)) != DLS_OK)
        return st;
    char origin[256];
    st = dls_simgrid_originator(pl, p, origin, sizeof origin, err);
    if (st != DLS_OK)
        return st;
    dls__c_numeric loc;
    if (dls__c_numeric_enter(&loc) != 0)
        return dls__oom(err, fn);
    dls__buf b = DLS__BUF_INIT;
    dls__buf_put(&b, "<?xml version='1.0'?>\n"
                     "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                     "<!-- A star platform written by dlsched %s: %zu processors; %.17g bytes "
                     "and %.17g flops a unit -->\n"
                     "<platform version=\"4.1\">\n"
                     "  <zone id=\"dlsched-star\" routing=\"Full\">\n",
                 dls_version(), pl->n, p->bytes_per_unit, p->flops_per_unit);
    dls__buf_put(&b, "    <host id=\"");
    xml_text(&b, origin, 0);
    dls__buf_put(&b, "\" speed=\"1Gf\"/>\n");
    for (size_t i = 0; i < pl->n; i++) {
        const dls__proc *pr = &pl->procs[i];
        model_comment(&b, pr);
        dls__buf_put(&b, "    <host id=\"");
        xml_text(&b, pr->name, 0);
        dls__buf_put(&b, "\" speed=\"%.17gf\"/>\n", unit_speed(pr->model) * p->flops_per_unit);
        double bw = pr->rate > 0 ? p->bytes_per_unit / pr->rate : DLS_SIMGRID_FREE_BANDWIDTH;
        dls__buf_put(&b, "    <link id=\"link-");
        xml_text(&b, pr->name, 0);
        dls__buf_put(&b, "\" bandwidth=\"%.17gBps\" latency=\"%.17gs\"/>\n", bw, pr->startup);
    }
    for (size_t i = 0; i < pl->n; i++) {
        const char *name = pl->procs[i].name;
        dls__buf_put(&b, "    <route src=\"");
        xml_text(&b, origin, 0);
        dls__buf_put(&b, "\" dst=\"");
        xml_text(&b, name, 0);
        dls__buf_put(&b, "\"><link_ctn id=\"link-");
        xml_text(&b, name, 0);
        dls__buf_put(&b, "\"/></route>\n");
    }
    dls__buf_put(&b, "  </zone>\n</platform>\n");
    dls__c_numeric_leave(&loc);
    char *text = dls__buf_take(&b);
    if (text == NULL)
        return dls__oom(err, fn);
    *out = text;
    return DLS_OK;
}

dls_status dls_platform_simgrid_to_string(const dls_platform *pl, const dls_simgrid_params *p,
                                          char **out, dls_error *err)
{
    dls_simgrid_params defaults;
    if (p == NULL) {
        dls_simgrid_params_init(&defaults);
        p = &defaults;
    }
    return build(pl, p, out, "dls_platform_simgrid_to_string", err);
}

dls_status dls_platform_simgrid_write_file(const dls_platform *pl, const dls_simgrid_params *p,
                                           const char *path, dls_error *err)
{
    dls_simgrid_params defaults;
    if (p == NULL) {
        dls_simgrid_params_init(&defaults);
        p = &defaults;
    }
    char *text = NULL;
    dls_status st = build(pl, p, &text, "dls_platform_simgrid_write_file", err);
    if (st != DLS_OK)
        return st;
    st = dls_write_output(path, text, strlen(text), err);
    free(text);
    return st;
}

/* The names before issue 37's renames, kept for one release. */
dls_status dls_platform_to_simgrid(const dls_platform *pl, const dls_simgrid_params *p,
                                   char **out, dls_error *err)
{
    return dls_platform_simgrid_to_string(pl, p, out, err);
}

dls_status dls_platform_write_simgrid(const dls_platform *pl, const dls_simgrid_params *p,
                                      const char *path, dls_error *err)
{
    return dls_platform_simgrid_write_file(pl, p, path, err);
}
