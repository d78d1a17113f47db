/**
 * @file dlsched/plot.h
 * @brief Pictures of a platform's speed functions as SVG documents.
 *
 * One chart shows every processor's speed as a function of the size of its share:
 * - one colour (and one marker shape) per processor, from a palette that stays
 *   distinguishable for colour-blind readers, with a legend right of the plot area;
 * - points models: the piecewise-linear function through the measured points, constant
 *   beyond the first and the last point, the points themselves as markers and, when the
 *   points carry measured bands, a vertical bar from low to high at each point over a
 *   light band between the interpolated low and high curves; the constant extensions
 *   (below the first point, and past the last one up to the limit or the axis) are
 *   extrapolated, not measured: they are drawn dotted, thinner and lighter, with a legend
 *   key "extrapolated (no measurement)";
 * - identical processors (the same samples, points and limit) would hide each other: one
 *   curve is drawn for them, and its legend entry names them all ("xeon-a = xeon-b
 *   (identical)");
 * - constant models: a horizontal line; time-line models: the speed x / time(x);
 * - 2-D models (::DLS_MODEL_SPEED2D): a family of dashed sections y -> s(x_i, y) at
 *   grid values x_i of the first parameter, one legend entry per section
 *   ("gpu0 at x = 1024"); the horizontal axis then stands for y;
 * - a processor's limit (dls_platform_limit()) as a dashed vertical line in its colour;
 *   the curve stops there, and measured points beyond it are drawn faded.
 *
 * The horizontal axis runs from a quarter of the smallest interesting size (measured
 * sizes, grid values, the sizes where time lines take over, limits) to four times the
 * largest one on a logarithmic axis; on a linear one from 0 to 1.25 times the largest one,
 * or four times the last size where time lines take over, so that the speed is seen
 * settling. The vertical axis runs from 0 (linear) or the smallest speed drawn
 * (logarithmic) to the largest speed, with 5% of the axis as headroom. Values beyond
 * 1e-250 and 1e+250 are clipped rather than stretching the axes. Tick labels have at most
 * 4 significant digits, plain from 0.001 to below 1e+05 ("0.5", "250", "20000") and in
 * C's `%g` exponent style otherwise ("2.5e+09"); all the labels of a linear axis take
 * the exponent style when one of them needs it.
 *
 * Drawn elements carry a `class` attribute (`curve`, `extrapolated`, `band`, `point`, `point
 * beyond-limit`, `error-bar`, `limit`, `limit-label`, `legend-entry`, `legend-key`,
 * `tick-label`, `axis-title`, `title`), so that a style sheet or a script can find and
 * restyle them. The document is a function of its inputs only: the same platform and
 * parameters give the same bytes.
 */
#ifndef DLSCHED_PLOT_H
#define DLSCHED_PLOT_H

#include <dlsched/common.h>
#include <dlsched/platform.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Default picture width, in pixels. */
#define DLS_PLOT_DEFAULT_WIDTH 900.0
/** Default picture height, in pixels. */
#define DLS_PLOT_DEFAULT_HEIGHT 560.0
/** Smallest accepted width, in pixels: room for the axes, the plot and the legend. */
#define DLS_PLOT_MIN_WIDTH 320.0
/** Smallest accepted height, in pixels. */
#define DLS_PLOT_MIN_HEIGHT 240.0
/** Default number of sections drawn per 2-D model. */
#define DLS_PLOT_DEFAULT_SECTIONS 6

/** The scale of an axis: X(NAME, value, text). AUTO: logarithmic when the values drawn
 *  span more than two decades, linear otherwise. */
#define DLS_PLOT_SCALE_MAP(X) \
    X(AUTO, 0, "auto")        \
    X(LINEAR, 1, "linear")    \
    X(LOG, 2, "log")

/** The scale of an axis: see ::DLS_PLOT_SCALE_MAP. */
typedef enum dls_plot_scale {
#define DLS_PLOT_SCALE_ENUM_(name, value, text) DLS_PLOT_##name = value,
    DLS_PLOT_SCALE_MAP(DLS_PLOT_SCALE_ENUM_)
#undef DLS_PLOT_SCALE_ENUM_
} dls_plot_scale;
/* The values, one by one (the list above makes them). */
/** @var DLS_PLOT_AUTO
 *  Value 0, named "auto" (::DLS_PLOT_SCALE_MAP). */
/** @var DLS_PLOT_LINEAR
 *  Value 1, named "linear" (::DLS_PLOT_SCALE_MAP). */
/** @var DLS_PLOT_LOG
 *  Value 2, named "log" (::DLS_PLOT_SCALE_MAP). */

/** The name of @p scale: "auto", "linear" or "log"; "unknown" otherwise. A static string; never
 *  freed. */
DLS_API const char *dls_plot_scale_name(dls_plot_scale scale);

/** The scale whose dls_plot_scale_name() is @p name.
 *  @return ::DLS_OK; ::DLS_EINVAL for an unknown name or a NULL argument (@p out untouched). */
DLS_API dls_status dls_plot_scale_from_name(const char *name, dls_plot_scale *out);

/** Parameters of dls_plot_to_string(); fill with dls_plot_params_init(). */
typedef struct dls_plot_params {
    /** Scale of the size axis; default ::DLS_PLOT_AUTO (the sizes that matter). */
    dls_plot_scale x_scale;
    /** Scale of the speed axis; default ::DLS_PLOT_AUTO (the speeds drawn). */
    dls_plot_scale y_scale;
    /** Picture width in pixels, finite and >= ::DLS_PLOT_MIN_WIDTH; default
     *  ::DLS_PLOT_DEFAULT_WIDTH. */
    double width;
    /** Picture height in pixels, finite and >= ::DLS_PLOT_MIN_HEIGHT; default
     *  ::DLS_PLOT_DEFAULT_HEIGHT. */
    double height;
    /** For each 2-D model, the number of sections drawn, >= 1; default
     *  ::DLS_PLOT_DEFAULT_SECTIONS. A model with fewer grid values along x gets one
     *  section per grid value; one with more gets this many at grid values spread evenly
     *  from the first to the last (a single section: the middle grid value). */
    size_t sections;
    /** Title of the picture; NULL (default) for "Speed functions". */
    const char *title;
    /** Unit of the sizes, shown in the axis title as "size (UNIT)"; NULL (default) for
     *  "units". For 2-D models the axis stands for their second parameter y. */
    const char *size_unit;
    /** Unit of the speeds, shown as "speed (UNIT)"; NULL (default) for "units/s". */
    const char *speed_unit;
    /** Reserved for later parameters: zero (see ::DLS_PARAMS_RESERVED). */
    DLS_PARAMS_RESERVED(72);
} dls_plot_params;

/** Fills @p params with the defaults (automatic scales, 900 x 560 pixels, 6 sections,
 *  default title and units). NULL is allowed and does nothing. */
DLS_API void dls_plot_params_init(dls_plot_params *params);

/**
 * Draws the speed functions of every processor of @p platform as an SVG document.
 * Processor names and the texts of @p params are escaped for XML (bytes that are not
 * valid UTF-8, and control characters, become '?'), so the document is well-formed
 * whatever the names.
 * @param platform at least one processor
 * @param params NULL for the defaults (see dls_plot_params_init())
 * @param[out] svg receives the NUL-terminated document, to release with dls_free();
 *        unchanged on failure
 * @return ::DLS_OK; ::DLS_EINVAL for a NULL @p platform or @p svg, an empty platform,
 *         or a parameter out of range (the message names it); ::DLS_ENOMEM.
 */
DLS_API dls_status dls_plot_to_string(const dls_platform *platform, const dls_plot_params *params,
                                      char **svg, dls_error *err);

/**
 * The same picture written to @p path. A regular file (or a new path) is replaced atomically: a temporary file
 * in the same directory, synced and renamed, so that @p path is either its old self or the
 * whole new file; the mode of the file replaced is kept, a new file gets 0666 less the
 * umask. A symbolic link is followed and its target replaced. A character device, FIFO or
 * socket is written to as a stream. A directory or block device is refused.
 * @return as dls_plot_to_string(), and ::DLS_EIO when the destination cannot be written,
 *         ::DLS_EWRITE when the data could not be written to it (a full device), both
 *         naming the path and the reason.
 */
DLS_API dls_status dls_plot_write_file(const dls_platform *platform, const dls_plot_params *params,
                                       const char *path, dls_error *err);

#ifdef __cplusplus
}
#endif

#endif /* DLSCHED_PLOT_H */
