/* Gantt charts of multi-installment schedules as SVG, in the look of the schedule's chart
 * (what they share is in svg/gantt.c): the originator's sends on the first lane, then one lane per processor in platform order with
 * each chunk's data in transit (thin) and its computation (coloured by memory level), idle
 * time up to the makespan, a time axis in seconds; each processor's load written after its
 * last chunk, and a table of the loads under the chart.
 *
 * A schedule of 10^10 chunks cannot be drawn chunk by chunk, and need not be: its rounds
 * repeat. When it has more than 2 H rounds (H = params->rounds), the chart shows the first H
 * rounds and the last H on two panels with their own time scales, and a break between
 * them. The left panel ends when the sends of round H - 1 end, so that everything in it
 * belongs to the rounds drawn. In the right panel, which starts with the sends of round
 * L - H + 1 (L the last round), a chunk of round L - H may still be computing (drawn too),
 * and a processor slower than a round (t_k(delta) > R) is still busy with chunks of
 * left-out rounds: its lane is hatched up to its first chunk drawn. Every chunk's times
 * come from the closed form, so nothing is stored. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "installment/installment_impl.h"
#include "platform/platform_impl.h"
#include "svg/gantt.h"
#include "svg/svg_text.h"

/* Layout, in pixels: the shared Gantt layout (svg/gantt.h), and this chart's own. */
#define WIDTH DLS__GANTT_WIDTH
#define LEFT DLS__GANTT_LEFT
#define RIGHT DLS__GANTT_RIGHT
#define TOP DLS__GANTT_TOP
#define LANE DLS__GANTT_LANE
#define MIN_BAR DLS__GANTT_MIN_BAR
#define BREAK_W 44.0      /* the break between the panels of a long schedule */
#define TICK_SPACING 110.0 /* wanted pixels between time ticks */
#define DIGIT_W 7.6       /* advance of a 12 px digit (tick labels) */
#define LABEL_GAP 14.0    /* least room between two tick labels */
#define MAX_WIDEN 6       /* times a step may be widened for its labels */
#define MAX_TICK_DIGITS 15
#define MAX_TICKS 40        /* per panel, whatever the rounding of the step */
/* Significant digits of the loads and shares written on the lanes, and of the table. */
#define TITLE_DIGITS 6
#define LABEL_DIGITS 6
#define SHARE_DIGITS 3
#define TABLE_DIGITS 6

/* Defaults and bounds of dls_installment_gantt_params::rounds. */
#define SVG_DEFAULT_ROUNDS 3u
#define SVG_MAX_ROUNDS 1000u

/* Colours of this chart's own: the break between panels, and the hatching of left-out
 * work. */
#define BREAK_COLOUR "#f4f4f4"
#define HATCH_ID "dls-earlier-chunks"

void dls_installment_gantt_params_init(dls_installment_gantt_params *params)
{
    if (params == NULL)
        return;
    memset(params, 0, sizeof *params);
    params->rounds = SVG_DEFAULT_ROUNDS;
    params->title = NULL;
}

/* One panel: the time window [t0, t1] drawn on [x0, x1], with the rounds whose chunks it
 * shows. */
typedef struct panel {
    double t0, t1, x0, x1;
    uint64_t r_from, r_to;   /* inclusive */
    int hatch;               /* processors slower than a round are busy at t0 */
} panel;

static double px(const panel *p, double t)
{
    return p->x0 + (p->x1 - p->x0) * ((t - p->t0) / (p->t1 - p->t0));
}

/* A bar over [a, b] clipped to the panel; 0 when nothing of it is inside. */
static int clip(const panel *p, double a, double b, double *xa, double *w)
{
    if (!(b > p->t0 && a < p->t1)) /* touching an edge is outside */
        return 0;
    double u = px(p, fmax(a, p->t0)), v = px(p, fmin(b, p->t1));
    *xa = u;
    *w = fmax(v - u, MIN_BAR);
    return 1;
}

typedef struct chart {
    dls__buf o;
    const dls_installment *s;
    const dls_platform *pl;
    int last_level;          /* level of the last chunk */
    int used_levels[DLS__GANTT_SLOTS]; /* which colours appear (index: palette slot) */
    int speed_models, hatched;
} chart;

/* Top of processor i's lane (lane 0 is the originator's). */
static double lane_y(size_t i)
{
    return dls__gantt_lane_y(i + 1);
}

static void draw_chunk(chart *c, const panel *p, const dls_installment_event *ev, int level)
{
    dls__buf *o = &c->o;
    const char *name = c->pl->procs[ev->processor].name;
    double x, w;
    if (clip(p, ev->send_start, ev->send_end, &x, &w)) {
        char head[64];
        snprintf(head, sizeof head, "chunk %llu (round %llu) to ", (unsigned long long)ev->chunk,
                 (unsigned long long)ev->round);
        dls__gantt_send(o, 0, x, w, head, name, "%.6g units, %.9g to %.9g s", ev->size,
                        ev->send_start, ev->send_end);
        dls__gantt_transit(o, ev->processor + 1, x, w);
    }
    if (clip(p, ev->compute_start, ev->compute_end, &x, &w)) {
        dls__gantt_compute(o, ev->processor + 1, x, w, level, 1, 1, name,
                           "chunk %llu (round %llu), %.6g units, computes %.9g to %.9g s%s",
                           (unsigned long long)ev->chunk, (unsigned long long)ev->round,
                           ev->size, ev->compute_start, ev->compute_end,
                           level > 0 ? "" : ", speed model");
        c->used_levels[dls__gantt_slot(level)] = 1;
        c->speed_models |= level <= 0;
    }
}

/* Digits that tell neighbouring ticks apart at step over values up to tmax, and at least
 * those of the integer part (999600 rather than 9.996e+05). */
static int tick_digits(double tmax, double step)
{
    int d = (int)ceil(log10(fmax(tmax, step) / step)) + 1;
    if (tmax >= 1)
        d = (int)fmax(d, floor(log10(tmax)) + 1);
    return d < 1 ? 1 : d > MAX_TICK_DIGITS ? MAX_TICK_DIGITS : d;
}

/* Pixels a tick label of that many digits needs, with a gap to its neighbour. */
static double label_px(int digits)
{
    return (digits + 1) * DIGIT_W + LABEL_GAP;
}

/* The next step of the sequence 1, 2, 5, 10, 20, ... after a step of it. */
static double next_step(double step)
{
    double p = pow(10, floor(log10(step))), f = step / p;
    return (f < 1.5 ? 2 : f < 3.5 ? 5 : 10) * p;
}

static void draw_panel(chart *c, const panel *p, double axis_y)
{
    dls__buf *o = &c->o;
    const dls_installment *s = c->s;
    const dls__inst_plan *plan = &s->plan;
    double span = p->t1 - p->t0, width = p->x1 - p->x0;
    double step = dls__svg_nice_step(span, width / TICK_SPACING);
    int digits = tick_digits(fmax(fabs(p->t0), fabs(p->t1)), step);
    /* far from 0 labels are long (2998999.96): space the ticks by their labels */
    for (int widen = 0; widen < MAX_WIDEN && label_px(digits) > width * step / span; widen++) {
        step = next_step(step);
        digits = tick_digits(fmax(fabs(p->t0), fabs(p->t1)), step);
    }
    /* ticks by index: far from 0 (the right panel of 10^15 rounds) adding steps would stall */
    double q0 = ceil(p->t0 / step), q1 = floor(p->t1 / step);
    int ticks = q1 >= q0 ? (int)fmin(q1 - q0 + 1, MAX_TICKS) : 0;
    for (int q = 0; q < ticks; q++) {
        double t = (q0 + q) * step;
        dls__buf_put(o, "<line x1=\"%.2f\" y1=\"%.0f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"#ddd\" "
                        "stroke-width=\"0.5\"/>\n", px(p, t), TOP, px(p, t), axis_y);
    }
    /* processors still busy with chunks of left-out rounds */
    if (p->hatch && s->ev == NULL)
        for (size_t k = 0; k < plan->p; k++) {
            uint64_t j = p->r_from * plan->p + k;
            if (!(plan->tau[k] > plan->R) || j >= plan->N)
                continue;
            dls_installment_event ev;
            dls__inst_event(plan, j, &ev);
            double x, w;
            /* a sliver (a round barely shorter than the chunk) is not worth a legend entry */
            if (px(p, ev.compute_start) - p->x0 > MIN_BAR &&
                clip(p, p->t0, ev.compute_start, &x, &w)) {
                dls__buf_put(o, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.0f\" "
                                "fill=\"url(#" HATCH_ID ")\"><title>", x, lane_y(plan->proc[k]),
                             w, LANE);
                dls__svg_text(o, c->pl->procs[plan->proc[k]].name);
                dls__buf_put(o, ": still computing chunks of the rounds left out</title></rect>\n");
                c->hatched = 1;
            }
        }
    if (s->ev != NULL) /* an LP schedule: every chunk, one by one, and its results */
        for (uint64_t j = 0; j < plan->N; j++) {
            draw_chunk(c, p, &s->ev[j], s->ev_level[j]);
            double x, w;
            if (s->ret_start != NULL && isfinite(s->ret_start[j]) &&
                clip(p, s->ret_start[j], s->ret_end[j], &x, &w)) {
                char head[64];
                snprintf(head, sizeof head, "results of chunk %llu from ",
                         (unsigned long long)j);
                dls__gantt_send(&c->o, 0, x, w, head, c->pl->procs[s->ev[j].processor].name,
                                "back %.9g to %.9g s", s->ret_start[j], s->ret_end[j]);
            }
        }
    for (uint64_t r = p->r_from; r <= p->r_to && s->ev == NULL; r++)
        for (size_t k = 0; k < plan->p; k++) {
            uint64_t j = r * plan->p + k;
            if (j >= plan->N)
                break;
            dls_installment_event ev;
            dls__inst_event(plan, j, &ev);
            int level = j == plan->N - 1 ? c->last_level : plan->level[k];
            draw_chunk(c, p, &ev, level);
        }
    /* idle from a processor's finish to the makespan */
    if (p->t1 >= s->makespan)
        for (size_t i = 0; i < s->n; i++) {
            double x, w;
            if (s->role[i] != DLS_INSTALLMENT_WORKS || !(s->finish[i] < s->makespan) ||
                !clip(p, s->finish[i], s->makespan, &x, &w) || w <= MIN_BAR)
                continue;
            dls__gantt_idle(o, i + 1, x, w);
        }
    /* the time axis of the panel */
    dls__buf_put(o, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"black\"/>\n",
                 p->x0, axis_y, p->x1, axis_y);
    for (int q = 0; q < ticks; q++) {
        double t = (q0 + q) * step;
        dls__buf_put(o, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" "
                        "stroke=\"black\"/>\n", px(p, t), axis_y, px(p, t), axis_y + 5);
        dls__buf_put(o, "<text x=\"%.2f\" y=\"%.1f\" text-anchor=\"middle\">%.*g</text>\n",
                     px(p, t), axis_y + 18, digits, t);
    }
}

static void draw_break(chart *c, const panel *left, const panel *right, double axis_y)
{
    dls__buf *o = &c->o;
    double x0 = left->x1, x1 = right->x0, mid = 0.5 * (x0 + x1);
    /* rounds H .. L - H: their sends are not drawn (round L - H may still be computing on
     * the right) */
    uint64_t skipped = right->r_from - left->r_to;
    dls__buf_put(o, "<rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\"/>\n",
                 x0 + 4, TOP - 4, x1 - x0 - 8, axis_y - TOP + 4, BREAK_COLOUR);
    for (int side = 0; side < 2; side++) {
        double x = side == 0 ? x0 + 4 : x1 - 4;
        dls__buf_put(o, "<path d=\"M%.2f %.1f l-4 8 M%.2f %.1f l-4 8\" stroke=\"black\" "
                        "fill=\"none\"/>\n", x + 2, axis_y - 4, x + 6, axis_y - 4);
    }
    dls__buf_put(o, "<text transform=\"translate(%.1f %.1f) rotate(-90)\" text-anchor=\"middle\" "
                    "fill=\"#555\">%llu round%s left out, %.6g to %.6g s</text>\n",
                 mid + 4, 0.5 * (TOP + axis_y), (unsigned long long)skipped,
                 skipped == 1 ? "" : "s", left->t1, right->t0);
}

/* send, speed model, the levels that appear, idle, and the hatching when drawn */
static void draw_legend(chart *c, double y)
{
    dls__gantt_key keys[DLS__GANTT_SLOTS + 3];
    size_t n = 0;
    dls__gantt_key_send(&keys[n++]);
    if (c->speed_models)
        dls__gantt_key_speed_model(&keys[n++]);
    for (int e = 1; e < DLS__GANTT_SLOTS; e++)
        if (c->used_levels[e])
            dls__gantt_key_level(&keys[n++], e);
    dls__gantt_key_idle(&keys[n++]);
    if (c->hatched) {
        keys[n].fill = "url(#" HATCH_ID ")";
        keys[n].line = 0;
        snprintf(keys[n++].label, sizeof keys[0].label, "chunks of left-out rounds");
    }
    dls__gantt_legend(&c->o, y, keys, n);
}

/* Processor i's load written on its lane, after its last chunk (where it is idle), so
 * that a print shows it: "load 228644 (22.9%) in 12 chunks". */
static void load_label(chart *c, const panel *end, size_t i)
{
    const dls_installment *s = c->s;
    if (s->role[i] != DLS_INSTALLMENT_WORKS || !(s->load[i] > 0))
        return; /* the lane's note says why it has none */
    char ld[32], pc[32], text[128];
    dls__svg_num(ld, sizeof ld, s->load[i], LABEL_DIGITS);
    dls__svg_num(pc, sizeof pc, dls__gantt_share(s->load[i], s->plan.V), SHARE_DIGITS);
    snprintf(text, sizeof text, "load %s (%s%%) in %llu chunk%s", ld, pc,
             (unsigned long long)s->chunks[i], s->chunks[i] == 1 ? "" : "s");
    double x = fmin(fmax(px(end, s->finish[i]), LEFT), end->x1);
    dls__gantt_bar_label(&c->o, i + 1, x, x, LEFT, end->x1, NULL, "load-label", text);
}

/* Under the chart: per processor its chunks, load, share and finish, then the total. */
static void draw_table(chart *c, double y)
{
    static const char *const heads[] = {"processor", "chunks", "load (units)", "share (%)",
                                        "finish (s)"};
    enum { COLS = sizeof heads / sizeof heads[0], W = 32 };
    const dls_installment *s = c->s;
    size_t rows = s->n + 1;
    const char **cells = calloc(rows * COLS, sizeof *cells);
    char *num = malloc(rows * COLS * W);
    double *fin = malloc((s->n + 1) * sizeof *fin);
    if (cells == NULL || num == NULL || fin == NULL) {
        free(cells);
        free(num);
        free(fin);
        c->o.failed = 1;
        return;
    }
    for (size_t i = 0; i < s->n; i++)
        fin[i] = s->role[i] == DLS_INSTALLMENT_WORKS ? s->finish[i] : NAN;
    fin[s->n] = s->makespan;
    int dl = dls__gantt_column_format(s->load, s->n, TABLE_DIGITS);
    int dt = dls__gantt_column_format(fin, s->n + 1, TABLE_DIGITS);
    uint64_t chunks = 0;
#define CELL(r, k, fmt, ...)                                                                \
    (snprintf(num + ((r) * COLS + (k)) * W, W, fmt, __VA_ARGS__),                           \
     cells[(r) * COLS + (k)] = num + ((r) * COLS + (k)) * W)
#define NUMBER(r, k, d, v, sign)                                                            \
    (dls__gantt_cell(num + ((r) * COLS + (k)) * W, W, (v), (d), (sign)),                    \
     cells[(r) * COLS + (k)] = num + ((r) * COLS + (k)) * W)
    for (size_t i = 0; i < s->n; i++) {
        cells[i * COLS] = c->pl->procs[i].name;
        CELL(i, 1, "%llu", (unsigned long long)s->chunks[i]);
        NUMBER(i, 2, dl, s->load[i], 0);
        CELL(i, 3, "%.2f", dls__gantt_share(s->load[i], s->plan.V));
        if (isfinite(fin[i]))
            NUMBER(i, 4, dt, fin[i], 0);
        else
            cells[i * COLS + 4] = "no chunk";
        chunks += s->chunks[i];
    }
    cells[s->n * COLS] = "total";
    CELL(s->n, 1, "%llu", (unsigned long long)chunks);
    NUMBER(s->n, 2, dl, s->plan.V, 0);
    CELL(s->n, 3, "%s", "100.00");
    NUMBER(s->n, 4, dt, s->makespan, 0);
#undef CELL
#undef NUMBER
    dls__gantt_table(&c->o, y, heads, COLS, cells, rows);
    free(cells);
    free(num);
    free(fin);
}

static void draw(chart *c, const dls_installment_gantt_params *par)
{
    dls__buf *o = &c->o;
    const dls_installment *s = c->s;
    const dls__inst_plan *plan = &s->plan;
    double plot_w = WIDTH - LEFT - RIGHT, T = s->makespan;
    double axis_y = dls__gantt_lane_y(s->n + 1) + 4;
    double table_y = axis_y + 52 + DLS__GANTT_TABLE_GAP;
    double height = table_y + dls__gantt_table_height(s->n + 1) + 12;
    uint64_t H = par->rounds, L = plan->rounds - 1;
    /* an LP schedule is drawn whole: its chunks are listed, not repeated */
    int split = s->ev == NULL && plan->rounds > 2 * H;
    panel left = {0, T, LEFT, LEFT + plot_w, 0, L, 0}, right = left;
    if (split) {
        double w = 0.5 * (plot_w - BREAK_W);
        /* the left panel ends when the sends of round H - 1 end, the right one starts when
         * those of round L - H end (times of the events themselves, so that the sends of
         * round L - H fall outside whatever the rounding) */
        dls_installment_event ev;
        dls__inst_event(plan, H * plan->p - 1, &ev);
        left.t1 = ev.send_end;
        left.x1 = LEFT + w;
        left.r_to = H - 1;
        dls__inst_event(plan, (L - H + 1) * plan->p - 1, &ev);
        right.t0 = ev.send_end;
        right.x0 = LEFT + w + BREAK_W;
        right.r_from = L - H;
        right.hatch = 1;
    }
    char defs[400];
    snprintf(defs, sizeof defs, "<pattern id=\"" HATCH_ID "\" width=\"6\" height=\"6\" "
             "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(-45)\">"
             "<rect width=\"6\" height=\"6\" fill=\"#dfe6ef\"/><line x1=\"0\" y1=\"0\" "
             "x2=\"0\" y2=\"6\" stroke=\"%s\" stroke-width=\"2\"/></pattern>",
             dls__gantt_colour(0));
    dls__gantt_begin(o, height, defs);
    dls__gantt_title_open(o);
    char v[32], d[32], t[32];
    dls__svg_num(v, sizeof v, plan->V, TITLE_DIGITS);
    dls__svg_num(d, sizeof d, plan->delta, TITLE_DIGITS);
    dls__svg_num(t, sizeof t, T, TITLE_DIGITS);
    if (par->title != NULL)
        dls__svg_text(o, par->title);
    else if (s->ev != NULL)
        dls__buf_put(o, "Multi-installment: %s units in chunks sized by the LP, makespan %s s",
                     v, t);
    else
        dls__buf_put(o, "Multi-installment: %s units in chunks of %s, makespan %s s", v, d, t);
    dls__gantt_text_close(o);
    dls__gantt_subtitle_open(o);
    if (s->ev != NULL)
        dls__buf_put(o, "%llu chunk%s over %zu processor%s, at most %llu each",
                     (unsigned long long)plan->N, plan->N == 1 ? "" : "s", plan->p,
                     plan->p == 1 ? "" : "s", (unsigned long long)plan->rounds);
    else
        dls__buf_put(o, "%llu chunk%s in %llu round%s of %.6g s over %zu processor%s",
                     (unsigned long long)plan->N, plan->N == 1 ? "" : "s",
                     (unsigned long long)plan->rounds, plan->rounds == 1 ? "" : "s", plan->R,
                     plan->p, plan->p == 1 ? "" : "s");
    if (split)
        dls__buf_put(o, "; the first and the last %u rounds", par->rounds);
    else
        dls__buf_put(o, "; sends one at a time on the first lane");
    dls__gantt_text_close(o);
    /* lane labels */
    dls__gantt_lane_label(o, 0, "originator (sends)");
    for (size_t i = 0; i < s->n; i++) {
        dls__gantt_lane_label(o, i + 1, c->pl->procs[i].name);
        if (s->role[i] != DLS_INSTALLMENT_WORKS)
            dls__gantt_lane_note(o, i + 1, s->ev != NULL ? "no chunk"
                                           : s->role[i] == DLS_INSTALLMENT_NO_CHUNK
                                               ? "no chunk: the load ends before its turn"
                                               : "left out: its limit is below the chunk size");
    }
    draw_panel(c, &left, axis_y);
    if (split) {
        draw_panel(c, &right, axis_y);
        draw_break(c, &left, &right, axis_y);
    }
    const panel *end = split ? &right : &left;
    dls__gantt_makespan(o, px(end, T), axis_y);
    dls__buf_put(o, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"middle\">time (s)</text>\n",
                 LEFT + plot_w / 2, axis_y + 36);
    for (size_t i = 0; i < s->n; i++)
        load_label(c, end, i);
    draw_legend(c, axis_y + 52);
    draw_table(c, table_y);
    dls__buf_put(o, "</svg>\n");
}

dls_status dls_installment_gantt_to_string(const dls_installment *s, const dls_platform *pl,
                                           const dls_installment_gantt_params *params, char **out,
                                           dls_error *err)
{
    static const char who[] = "dls_installment_gantt_to_string";
    dls_installment_gantt_params defaults;
    if (s == NULL || pl == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, who, "NULL argument");
    if (params == NULL) {
        dls_installment_gantt_params_init(&defaults);
        params = &defaults;
    }
    dls_status rs = DLS__CHECK_RESERVED(params, who, dls_installment_gantt_params, err);
    if (rs != DLS_OK)
        return rs;
    if (params->rounds < 1 || params->rounds > SVG_MAX_ROUNDS)
        return dls__fail(err, DLS_EINVAL, who, "rounds must be in [1, %u], not %u", SVG_MAX_ROUNDS,
                         params->rounds);
    if (s->n != pl->n)
        return dls__fail(err, DLS_EINVAL, who, "the schedule has %zu processors, the platform %zu",
                         s->n, pl->n);
    if (!(s->makespan > 0) || !isfinite(s->makespan))
        return dls__fail(err, DLS_EINVAL, who, "nothing to draw (the makespan is %.10g)",
                         s->makespan);
    chart c;
    memset(&c, 0, sizeof c);
    c.s = s;
    c.pl = pl;
    if (s->ev == NULL)
        dls__inst_time_level(pl->procs[s->plan.proc[(s->plan.N - 1) % s->plan.p]].model,
                             s->plan.last, &c.last_level);
    dls__c_numeric loc;
    if (dls__c_numeric_enter(&loc) != 0)
        return dls__oom(err, who);
    draw(&c, params);
    dls__c_numeric_leave(&loc);
    if (c.o.failed) {
        free(c.o.s);
        return dls__oom(err, who);
    }
    *out = c.o.s;
    return DLS_OK;
}

dls_status dls_installment_gantt_write_file(const dls_installment *s, const dls_platform *pl,
                                            const dls_installment_gantt_params *params,
                                            const char *path, dls_error *err)
{
    if (path == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_installment_gantt_write_file", "NULL path");
    char *svg;
    dls_status st = dls_installment_gantt_to_string(s, pl, params, &svg, err);
    if (st != DLS_OK)
        return st;
    st = dls__write_output(path, svg, strlen(svg), err);
    free(svg);
    return st;
}
