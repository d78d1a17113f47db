/* Exports of the star LP for other solvers and for people: CPLEX LP and GLPK's format
 * through GLPK's writers, free MPS written here (GLPK's MPS writer keeps only 8 significant
 * digits so that numbers fit the fixed-format fields; these files carry 17, enough to read
 * back every double exactly), and the data section of the MathProg model lp/star.mod (the
 * readable statement of the LP). Loads and times are in the units of dls__export_units
 * (the platform's, or powers of two: exact scalings). Files appear whole or not at all: each is written next to
 * its destination and then renamed. */
#include <config.h>

#include <errno.h>
#include <glpk.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/names.h"
#include "core/buf.h"
#include "core/locale.h"
#include "platform/platform_impl.h"
#include "solver/solver.h"

DLS__ENUM_NAMES(dls_export_format, dls_export_format, DLS_EXPORT_FORMAT_MAP)

typedef dls__buf text;
#define add dls__buf_put

/* The longest string literal glpsol reads (bytes of the value, quotes counted once). */
#define MATHPROG_MAX_LITERAL 100
/* What a name cut to fit ends with. */
#define MATHPROG_CUT_MARK "..."

/* A MathProg string literal: single quotes, doubled inside. A name longer than MathProg
 * allows (names are only printed by the model) is cut at a character boundary and marked. */
static void add_string(text *t, const char *s)
{
    size_t len = strlen(s), keep = len;
    if (len > MATHPROG_MAX_LITERAL) {
        keep = MATHPROG_MAX_LITERAL - (sizeof MATHPROG_CUT_MARK - 1);
        while (keep > 0 && ((unsigned char)s[keep] & 0xc0) == 0x80)
            keep--; /* not inside a UTF-8 character */
    }
    add(t, "'");
    for (size_t i = 0; i < keep; i++)
        add(t, s[i] == '\'' ? "''" : "%c", s[i]);
    if (keep < len)
        add(t, "%s", MATHPROG_CUT_MARK);
    add(t, "'");
}

static void write_mathprog(const dls__star *st, const dls_platform *pl, text *out)
{
#define t (*out)
    size_t m = st->m;
    add(&t, "/* Data for lp/star.mod, written by dlsched %s: %zu processors in send order,\n"
            "   load %.17g. Solve with: glpsol -m star.mod -d this-file */\n\ndata;\n\n",
        PACKAGE_VERSION, m, st->V);
    /* the units the model solves in (its coefficients then near one another); it prints
     * the makespan in seconds and the loads in the platform's unit */
    double u, tau;
    dls__export_units(st, &u, &tau);
    add(&t, "param m := %zu;\nparam V := %.17g;\nparam U := %.17g;\nparam TU := %.17g;\n\n"
            "param name :=", m, st->V, u, tau);
    for (size_t k = 0; k < m; k++) {
        add(&t, "\n  %zu ", k + 1);
        add_string(&t, pl->procs[st->proc[k]].name);
    }
    add(&t, ";\n\nparam :  S  C :=");
    for (size_t k = 0; k < m; k++)
        add(&t, "\n  %zu %.17g %.17g", k + 1, st->S[k], st->C[k]);
    add(&t, ";\n\nset LIMITED :=");
    for (size_t k = 0; k < m; k++)
        if (isfinite(st->B[k]))
            add(&t, " %zu", k + 1);
    add(&t, ";\n\nparam B :=");
    for (size_t k = 0; k < m; k++)
        if (isfinite(st->B[k]))
            add(&t, "\n  %zu %.17g", k + 1, st->B[k]);
    add(&t, ";\n\n");
    for (size_t k = 0; k < m; k++) {
        add(&t, "set L[%zu] :=", k + 1);
        for (size_t l = st->off[k]; l < st->off[k + 1]; l++)
            add(&t, " %zu", l - st->off[k] + 1);
        add(&t, ";\n");
    }
    add(&t, "\nparam :  a  b :=");
    for (size_t k = 0; k < m; k++)
        for (size_t l = st->off[k]; l < st->off[k + 1]; l++)
            add(&t, "\n  %zu %zu %.17g %.17g", k + 1, l - st->off[k] + 1, st->a[l], st->b[l]);
    add(&t, ";\n\nend;\n");
#undef t
}

/* One COLUMNS entry. */
static void mps_entry(text *t, const char *col, const char *row, double v)
{
    if (v != 0)
        add(t, " %s %s %.17g\n", col, row, v);
}

static void write_mps(const dls__star *st, text *out)
{
#define t (*out)
    size_t m = st->m;
    double u, tau;
    dls__export_units(st, &u, &tau);
    add(&t, "* The divisible-load LP of a star network (Drozdowski and Wolniewicz, 2003) in\n"
            "* cumulative form, written by dlsched %s: %zu processors in send order, load\n"
            "* %.17g. Free MPS with full precision; minimise makespan. Rows: send_k (end of\n"
            "* the k-th send), finish_k_l (one per time line), load. Columns: alpha_k (loads,\n"
            "* in units of %.17g), T_k, Cmax (times, in units of %.17g s).\n",
        PACKAGE_VERSION, m, st->V, u, tau);
    add(&t, "NAME dlsched_star\nROWS\n N makespan\n");
    for (size_t k = 0; k < m; k++)
        add(&t, " E send_%zu\n", k + 1);
    for (size_t k = 0; k < m; k++)
        for (size_t l = st->off[k]; l < st->off[k + 1]; l++)
            add(&t, " L finish_%zu_%zu\n", k + 1, l - st->off[k] + 1);
    add(&t, " E load\nCOLUMNS\n");
    char col[40], row[48];
    for (size_t k = 0; k < m; k++) {
        snprintf(col, sizeof col, "alpha_%zu", k + 1);
        snprintf(row, sizeof row, "send_%zu", k + 1);
        mps_entry(&t, col, row, -st->C[k] * u / tau);
        for (size_t l = st->off[k]; l < st->off[k + 1]; l++) {
            snprintf(row, sizeof row, "finish_%zu_%zu", k + 1, l - st->off[k] + 1);
            mps_entry(&t, col, row, st->b[l] * u / tau);
        }
        mps_entry(&t, col, "load", 1);
    }
    for (size_t k = 0; k < m; k++) {
        snprintf(col, sizeof col, "T_%zu", k + 1);
        snprintf(row, sizeof row, "send_%zu", k + 1);
        mps_entry(&t, col, row, 1);
        if (k + 1 < m) {
            snprintf(row, sizeof row, "send_%zu", k + 2);
            mps_entry(&t, col, row, -1);
        }
        for (size_t l = st->off[k]; l < st->off[k + 1]; l++) {
            snprintf(row, sizeof row, "finish_%zu_%zu", k + 1, l - st->off[k] + 1);
            mps_entry(&t, col, row, 1);
        }
    }
    mps_entry(&t, "Cmax", "makespan", 1);
    for (size_t k = 0; k < m; k++)
        for (size_t l = st->off[k]; l < st->off[k + 1]; l++) {
            snprintf(row, sizeof row, "finish_%zu_%zu", k + 1, l - st->off[k] + 1);
            mps_entry(&t, "Cmax", row, -1);
        }
    add(&t, "RHS\n");
    for (size_t k = 0; k < m; k++) {
        snprintf(row, sizeof row, "send_%zu", k + 1);
        mps_entry(&t, "RHS", row, st->S[k] / tau);
        for (size_t l = st->off[k]; l < st->off[k + 1]; l++) {
            snprintf(row, sizeof row, "finish_%zu_%zu", k + 1, l - st->off[k] + 1);
            mps_entry(&t, "RHS", row, -st->a[l] / tau);
        }
    }
    mps_entry(&t, "RHS", "load", st->V / u);
    add(&t, "BOUNDS\n");
    for (size_t k = 0; k < m; k++)
        if (isfinite(st->B[k]))
            add(&t, " UP BND alpha_%zu %.17g\n", k + 1, st->B[k] / u);
    add(&t, "ENDATA\n");
#undef t
}

/* CPLEX LP or GLPK's format, through GLPK's writers, which want a file name. */
static dls_status write_glpk(const dls__star *st, int verbose, dls_export_format format,
                             text *out, dls_error *err)
{
    char *scratch;
    dls_status st_ = dls__scratch_create(&scratch, err);
    if (st_ != DLS_OK)
        return st_;
    st_ = dls__lp_write_named(st, verbose, format, scratch, err);
    if (st_ != DLS_OK) {
        dls__scratch_remove(scratch);
        return st_;
    }
    return dls__scratch_take(scratch, out, err);
}

dls_status dls__lp_text(const dls__star *st, const dls_platform *pl, int verbose,
                        dls_export_format format, dls__buf *out, dls_error *err)
{
    /* numbers are written with a '.' whatever locale the host program chose: GLPK's
     * writers and ours print with the calling thread's locale */
    dls__c_numeric loc;
    if (dls__c_numeric_enter(&loc) != 0)
        return dls__oom(err, NULL);
    dls_status st_ = DLS_OK;
    if (format == DLS_EXPORT_MATHPROG)
        write_mathprog(st, pl, out);
    else if (format == DLS_EXPORT_MPS)
        write_mps(st, out);
    else
        st_ = write_glpk(st, verbose, format, out, err);
    dls__c_numeric_leave(&loc);
    if (st_ == DLS_OK && out->failed)
        st_ = dls__oom(err, NULL);
    return st_;
}

