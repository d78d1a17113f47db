/**
 * @file dlsched/model.h
 * @brief Performance models of one processor: how fast it works as a function of the
 *        size of its share of the problem.
 *
 * Four kinds of model (Lastovetsky and Reddy 2007a and 2005 for speed functions, Drozdowski and
 * Wolniewicz 2003 for time lines):
 * - ::DLS_MODEL_CONSTANT: one speed for every size;
 * - ::DLS_MODEL_POINTS: speed measured at sizes x_1 < ... < x_n, linear between the
 *   points and constant beyond the first and the last (optionally with the measured
 *   band [low, high] of each point);
 * - ::DLS_MODEL_SPEED2D: a speed surface s(x, y) on a grid, bilinear inside the grid
 *   and clamped to the nearest edge outside it;
 * - ::DLS_MODEL_TIME_LINES: the processing time of x units is max_l (a_l + b_l x),
 *   one line per memory level.
 *
 * Units: sizes are in the platform's own unit (elements, rows, bytes), speeds in units
 * per second, times in seconds. A speed model and a time model describe the same thing:
 * time(x) = x / speed(x), so every 1-D model answers both dls_model_speed() and
 * dls_model_time(). The upper bound on the size a processor may take (`limit`) belongs
 * to the processor, see dlsched/platform.h.
 */
#ifndef DLSCHED_MODEL_H
#define DLSCHED_MODEL_H

#include <dlsched/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @name The input domain
 * Every number a platform holds (times, slopes, startups, rates, speeds, band edges, sizes,
 * limits) is 0 where 0 is allowed, or has a magnitude in [::DLS_DOMAIN_MIN,
 * ::DLS_DOMAIN_MAX] (doc/NUMERICS.md, dlsched-platform(5)). Inside it a product or a
 * quotient of up to four such numbers stays within the normal range of doubles (10^-240 to
 * 10^240), which is what every algorithm of dlsched needs. The range was measured: the
 * chain solver, the partitioners, the LU distributions and the installments, given one
 * coefficient of the examples at 10^k, answer correctly from 10^-200 to 10^100 and fail
 * from 10^200 (a startup or an intercept whose square overflows) and at 10^308 (an
 * intercept that overflows the LU's cost, then crashes it). A platform file outside it is
 * refused at reading (file:line:column, the processor, the value and the range); so is a
 * model, a limit or a link given to a platform through the API (::DLS_EINVAL). Values
 * inside it but far from what machines do are accepted with a warning
 * (dls_platform_unusual()); a processor too slow to matter simply gets no load.
 * @{
 */
/** The largest magnitude of a number in a platform: seconds, seconds per unit, units per
 *  second or units. */
#define DLS_DOMAIN_MAX 1e60
/** The smallest nonzero magnitude of a number in a platform. */
#define DLS_DOMAIN_MIN 1e-60
/** Times above this (seconds: intercepts, startups) are accepted with a warning: eleven
 *  days. */
#define DLS_UNUSUAL_TIME 1e6
/** Slopes and rates above this (seconds per unit) are accepted with a warning. */
#define DLS_UNUSUAL_SLOPE_MAX 1e6
/** Nonzero slopes and rates below this (seconds per unit) are accepted with a warning. */
#define DLS_UNUSUAL_SLOPE_MIN 1e-18
/** Speeds (units per second) below this are accepted with a warning. */
#define DLS_UNUSUAL_SPEED_MIN 1e-6
/** Speeds (units per second) above this are accepted with a warning. */
#define DLS_UNUSUAL_SPEED_MAX 1e18
/** @} */

/** A performance model (opaque). Create with a `dls_model_create_*` call, free with
 *  dls_model_free(). Models are immutable once created. */
typedef struct dls_model dls_model;

/** The kinds of model: X(NAME, value, text); the text is the key of platform files. */
#define DLS_MODEL_KIND_MAP(X)                                                         \
    X(CONSTANT, 0, "constant")  /* constant speed */                                  \
    X(POINTS, 1, "points")      /* piecewise-linear speed through measured points */  \
    X(SPEED2D, 2, "speed2d")    /* 2-D speed surface on a grid */                     \
    X(TIME_LINES, 3, "time")    /* processing time as the maximum of lines */

/** The kind of a model: see ::DLS_MODEL_KIND_MAP. */
typedef enum dls_model_kind {
#define DLS_MODEL_KIND_ENUM_(name, value, text) DLS_MODEL_##name = value,
    DLS_MODEL_KIND_MAP(DLS_MODEL_KIND_ENUM_)
#undef DLS_MODEL_KIND_ENUM_
} dls_model_kind;
/* The values, one by one (the list above makes them). */
/** @var DLS_MODEL_CONSTANT
 *  Constant speed. Value 0, named "constant" (::DLS_MODEL_KIND_MAP). */
/** @var DLS_MODEL_POINTS
 *  Piecewise-linear speed through measured points. Value 1, named "points"
 *  (::DLS_MODEL_KIND_MAP). */
/** @var DLS_MODEL_SPEED2D
 *  2-D speed surface on a grid. Value 2, named "speed2d" (::DLS_MODEL_KIND_MAP). */
/** @var DLS_MODEL_TIME_LINES
 *  Processing time as the maximum of lines. Value 3, named "time" (::DLS_MODEL_KIND_MAP). */

/**
 * Creates a constant-speed model.
 * @param speed speed in units per second, finite and > 0
 * @param[out] out receives the new model; unchanged on failure
 * @return ::DLS_OK; ::DLS_EINVAL if @p speed is not finite and positive or @p out is
 *         NULL; ::DLS_ENOMEM.
 */
DLS_API dls_status dls_model_create_constant(double speed, dls_model **out, dls_error *err);

/**
 * Creates a piecewise-linear speed model through @p n measured points.
 * @param n number of points, >= 1
 * @param size sizes, array of @p n finite values > 0, strictly increasing
 * @param speed speeds at those sizes, array of @p n finite values > 0
 * @param low lower edge of each point's measured band, array of @p n values with
 *        0 < low[k] <= speed[k], or NULL when the points carry no band
 * @param high upper edge of each band, array of @p n values >= speed[k]; NULL exactly
 *        when @p low is NULL
 * @param[out] out receives the new model; unchanged on failure
 * @return ::DLS_OK; ::DLS_EINVAL naming the first offending point (1-based) otherwise;
 *         ::DLS_ENOMEM.
 */
DLS_API dls_status dls_model_create_points(size_t n, const double *size, const double *speed,
                                           const double *low, const double *high,
                                           dls_model **out, dls_error *err);

/**
 * Creates a 2-D speed surface on a grid.
 * @param nx number of grid values along x, >= 1
 * @param x grid along the first size parameter, @p nx finite values > 0, strictly increasing
 * @param ny number of grid values along y, >= 1
 * @param y grid along the second size parameter, @p ny finite values > 0, strictly increasing
 * @param values speeds, @p nx * @p ny finite values > 0, row-major:
 *        values[i * ny + j] = s(x[i], y[j])
 * @param[out] out receives the new model; unchanged on failure
 * @return ::DLS_OK; ::DLS_EINVAL naming the offending value; ::DLS_ENOMEM.
 */
DLS_API dls_status dls_model_create_speed2d(size_t nx, const double *x, size_t ny,
                                            const double *y, const double *values,
                                            dls_model **out, dls_error *err);

/**
 * Creates a processing-time model: time(x) = max_l (a[l] + b[l] x) for x > 0.
 * @param n number of lines (memory levels), >= 1
 * @param a intercepts in seconds, @p n finite values
 * @param b slopes in seconds per unit, @p n finite values >= 0
 * @param[out] out receives the new model; unchanged on failure
 * @return ::DLS_OK; ::DLS_EINVAL if a slope is negative, a value is not finite, or the
 *         time is not positive for every size x > 0 (this needs max_l a[l] > 0, or
 *         max_l a[l] = 0 with a positive slope on a line where a[l] = 0); ::DLS_ENOMEM.
 */
DLS_API dls_status dls_model_create_time_lines(size_t n, const double *a, const double *b,
                                               dls_model **out, dls_error *err);

/** Creates an independent copy of @p model into @p out.
 *  @return ::DLS_OK; ::DLS_EINVAL if an argument is NULL; ::DLS_ENOMEM. */
DLS_API dls_status dls_model_copy(const dls_model *model, dls_model **out, dls_error *err);

/** Frees a model; NULL is allowed. */
DLS_API void dls_model_free(dls_model *model);

/** The kind of @p model. */
DLS_API dls_model_kind dls_model_get_kind(const dls_model *model);

/** The name of a kind as used in platform files and reports: "constant", "points",
 *  "speed2d" or "time"; "unknown" for a value outside the enumeration. A static string; never
 *  freed. */
DLS_API const char *dls_model_kind_name(dls_model_kind kind);

/** The kind whose dls_model_kind_name() is @p name.
 *  @return ::DLS_OK; ::DLS_EINVAL for an unknown name or a NULL argument (@p out untouched). */
DLS_API dls_status dls_model_kind_from_name(const char *name, dls_model_kind *out);

/** 1 for the 1-D kinds (constant, points, time lines), 2 for ::DLS_MODEL_SPEED2D. */
DLS_API int dls_model_dimension(const dls_model *model);

/** Number of points (points model), lines (time model), grid values nx * ny (2-D), or 1
 *  (constant). */
DLS_API size_t dls_model_count(const dls_model *model);

/** Whether a points model carries measured bands (1) or not (0). */
DLS_API int dls_model_has_bands(const dls_model *model);

/** The speed of a constant model; NaN for other kinds. */
DLS_API double dls_model_constant_speed(const dls_model *model);

/**
 * Read access to the data of a points model. The arrays belong to the model, valid until
 * @p model is freed.
 * @param[out] n number of points; @param[out] size sizes; @param[out] speed speeds;
 * @param[out] low, high band edges, NULL when the model has no bands. Any output
 * pointer may be NULL.
 * @return ::DLS_OK; ::DLS_EINVAL if @p model is not a points model.
 */
DLS_API dls_status dls_model_get_points(const dls_model *model, size_t *n, const double **size,
                                        const double **speed, const double **low,
                                        const double **high);

/** Read access to a time model's lines (arrays of length *n owned by the model; outputs
 *  may be NULL), valid until @p model is freed. @return ::DLS_OK; ::DLS_EINVAL if @p model
 *  is not a time model. */
DLS_API dls_status dls_model_get_lines(const dls_model *model, size_t *n, const double **a,
                                       const double **b);

/** Read access to a 2-D model's grid (row-major values, see dls_model_create_speed2d();
 *  outputs may be NULL), valid until @p model is freed. @return ::DLS_OK; ::DLS_EINVAL if
 *  @p model is not 2-D. */
DLS_API dls_status dls_model_get_grid(const dls_model *model, size_t *nx, const double **x,
                                      size_t *ny, const double **y, const double **values);

/**
 * Speed of a 1-D model at size @p x (units per second).
 * For a time model it is x / time(x), and at x = 0 its limit (0 when the time starts
 * above zero). @return the speed, > 0 for x > 0; NaN if @p x is negative or not a
 * number, or if @p model is 2-D (take a section with dls_model_section() first).
 */
DLS_API double dls_model_speed(const dls_model *model, double x);

/**
 * Processing time of @p x units on a 1-D model, in seconds: x / speed(x) for the speed
 * kinds, max_l (a_l + b_l x) for time lines. It is 0 at x = 0 for every kind (nothing to
 * do takes no time). @return the time; NaN for a negative or NaN @p x or a 2-D model.
 */
DLS_API double dls_model_time(const dls_model *model, double x);

/**
 * Speed at the 2-D size (x, y). For a 2-D model: bilinear inside the grid, clamped to
 * the nearest edge outside. For a 1-D model: its speed at x * y (the problem size is
 * the number of elements). @return the speed; NaN for negative or NaN arguments.
 */
DLS_API double dls_model_speed2d(const dls_model *model, double x, double y);

/**
 * The section of a model at a fixed first size parameter @p x: the 1-D speed function
 * y -> s(x, y). For a 2-D model the result is a points model through the grid values of
 * y (exact: bilinear interpolation at fixed x is linear in y between grid values and the
 * clamping makes it constant beyond them). For a 1-D model, whose 2-D speed is s(x * y),
 * the section is exact too: a constant stays the same constant, a points model keeps its
 * speeds at sizes x_k / x, and time lines (a_l, b_l) become (a_l / x, b_l), since the
 * time of y units is then time_1d(x * y) / x.
 * @param x fixed value of the first parameter, finite and > 0
 * @param[out] out receives the section; unchanged on failure
 * @return ::DLS_OK; ::DLS_EINVAL for a bad @p x; ::DLS_ENOMEM.
 */
DLS_API dls_status dls_model_section(const dls_model *model, double x, dls_model **out,
                                     dls_error *err);

/**
 * Samples a 1-D model's speed at @p n sizes and returns the points model through them
 * (the conversion from any 1-D model, time lines included, to measured-style points).
 * @param size @p n finite sizes > 0, strictly increasing
 * @return ::DLS_OK; ::DLS_EINVAL for a 2-D model or bad sizes; ::DLS_ENOMEM.
 */
DLS_API dls_status dls_model_sample(const dls_model *model, size_t n, const double *size,
                                    dls_model **out, dls_error *err);

/**
 * The largest size x in [0, cap] whose processing time is at most @p t seconds:
 * the inverse of dls_model_time() (the intersection of the line through the origin with
 * slope 1 / t with the speed graph, in the geometric picture).
 * @param cap largest size considered, > 0 (INFINITY allowed)
 * @return the size (0 when even the smallest positive size takes longer); NaN for a 2-D
 *         model or bad arguments.
 */
DLS_API double dls_model_size_for_time(const dls_model *model, double t, double cap);

/* ---------------------------------------------------------------------------------- */
/* Shape checks                                                                       */

/** A size range where the shape assumption of the functional model fails: some line
 *  through the origin meets the speed graph more than once there, i.e. x / s(x) is not
 *  strictly increasing on [from, to]. */
typedef struct dls_shape_issue {
    int axis;     /**< 0: the size of a 1-D model or the x of a 2-D one; 1: the y of a 2-D one */
    double at;    /**< 2-D models: the grid value of the other parameter; NaN for 1-D models */
    double from;  /**< first size of the range */
    double to;    /**< last size of the range (INFINITY when it never ends) */
    /** Zero: room for later fields (see ::DLS_PARAMS_RESERVED). */
    DLS_PARAMS_RESERVED(32);
} dls_shape_issue;

/**
 * Checks the shape assumption of Lastovetsky and Reddy (2007a and 2005): every line through the
 * origin meets the speed graph at most once, which is the same as the time x / s(x) being
 * strictly increasing. 2-D models are checked along y on every grid row x[i] and along
 * x on every grid column y[j] (bilinear interpolation keeps the property in between).
 * Time models are checked the same way (a line with slope 0 on the upper envelope makes
 * the time flat). Adjacent failing ranges are merged.
 * @param issues array of @p capacity records to fill, may be NULL when @p capacity is 0
 * @return the total number of failing ranges (0 when the shape holds); only the first
 *         @p capacity of them are written.
 */
DLS_API size_t dls_model_check_shape(const dls_model *model, dls_shape_issue *issues,
                                     size_t capacity);

/* ---------------------------------------------------------------------------------- */
/* Convex envelope of the time function                                               */

/** Parameters of dls_model_convex_envelope(); fill with dls_envelope_params_init(). */
typedef struct dls_envelope_params {
    /** Relative accuracy sought where the time function is convex but curved (a
     *  piecewise-linear speed makes x / s(x) curved between points): the curve is sampled
     *  until chords are within this relative distance of it. In (0, 1); default 1e-4. */
    double rel_tol;
    /** Upper bound on the number of lines of the envelope, >= 2; default 256. When it
     *  stops the refinement, the reported deviation says so. */
    size_t max_lines;
    /** Reserved for later parameters: zero (see ::DLS_PARAMS_RESERVED). */
    DLS_PARAMS_RESERVED(48);
} dls_envelope_params;

/** Fills @p params with the defaults. */
DLS_API void dls_envelope_params_init(dls_envelope_params *params);

/** What dls_model_convex_envelope() measured. */
typedef struct dls_envelope_info {
    /** Largest relative deviation |t(x) - e(x)| / t(x) over sizes x in (0, xmax], computed
     *  exactly on every piece (not sampled). */
    double max_rel_dev;
    double at;       /**< a size where that deviation is reached */
    int convex;      /**< 1 when the time function itself is convex on (0, xmax] */
    size_t lines;    /**< number of lines of the envelope */
    /** 1 when dls_envelope_params::max_lines stopped the refinement of curved pieces
     *  before dls_envelope_params::rel_tol was met (the deviation is then larger). */
    int truncated;
    /** Zero: room for later fields (see ::DLS_PARAMS_RESERVED). */
    DLS_PARAMS_RESERVED(24);
} dls_envelope_info;

/**
 * The convex piecewise-linear envelope of a 1-D model's time function on (0, xmax], as a
 * time model (the form the divisible-load LP needs). It is the lower convex hull of the
 * time function sampled at the origin, at every breakpoint, at @p xmax, and along curved
 * convex pieces until the chords are within params->rel_tol; where the time function is
 * not convex the envelope bridges below it, and @p info tells how far.
 * For a time model the envelope is its own lines without those never on top in
 * (0, xmax] (deviation 0).
 * @param xmax largest size of interest (e.g. the load, or the processor's limit), finite and > 0
 * @param params NULL for the defaults
 * @param[out] out receives the envelope; unchanged on failure
 * @param[out] info receives the measurements; may be NULL
 * @return ::DLS_OK; ::DLS_EINVAL for a bad @p xmax or parameter; ::DLS_ENOTSUP for a 2-D
 *         model (take a section first); ::DLS_ENOMEM.
 */
DLS_API dls_status dls_model_convex_envelope(const dls_model *model, double xmax,
                                             const dls_envelope_params *params, dls_model **out,
                                             dls_envelope_info *info, dls_error *err);

/**
 * Whether two models are identical: same kind and the same numbers, bit for bit.
 * @return 1 if equal, 0 otherwise (two NULLs are equal).
 */
DLS_API int dls_model_equal(const dls_model *a, const dls_model *b);

#ifdef __cplusplus
}
#endif

#endif /* DLSCHED_MODEL_H */
