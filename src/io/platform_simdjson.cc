/* Reading platform files with simdjson's On-Demand API: the text is indexed once (simdjson's
 * stage 1) and walked once, each value checked against the contract as it is met; no tree is
 * built, so a file of a million processors costs its own size and little more.
 *
 * The rules and messages are those of the former reader on jansson's tree, whose checks ran
 * in a fixed order (a processor: its name, unknown keys, two models, the model, "limit",
 * "link"). A walk meets the keys in file order instead, so each object is read in one pass
 * that keeps, per key, what it found (a value or a located fault), and the faults are then
 * weighed in the old order: the first one in that order is the one reported. Text simdjson
 * refuses stops the walk at once (DLS_ESYNTAX); platform_json.c then asks jansson for its
 * exact diagnosis, which also gives malformed JSON its priority over any contract fault.
 *
 * Every value of a platform that is accepted has been read with a typed getter (which
 * validates it; a string without escapes is taken as the first pass validated it), every
 * object has been checked for duplicate keys, and nothing follows the root: what is
 * accepted is valid JSON. Nothing thrown leaves this file: simdjson is used
 * through its error codes and std::bad_alloc becomes DLS_ENOMEM. */
extern "C" {
#include <config.h>
}

#include <simdjson.h>

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <string_view>
#include <vector>

extern "C" {
#include "core/locale.h"
#include "io/platform_simdjson.h"
#include "io/platform_units.h"
#include "model/model_impl.h"
#include "platform/platform_impl.h"
}

static_assert(DLS__JSON_PADDING >= simdjson::SIMDJSON_PADDING,
              "DLS__JSON_PADDING must cover simdjson's padding");

namespace {

namespace od = simdjson::ondemand;

/* simdjson refuses nesting deeper than this; jansson, which diagnoses malformed text,
 * refuses beyond 2048 levels, so every text jansson accepts is walked here. */
constexpr size_t MAX_DEPTH = 4096;
/* "Did you mean" hints name a known key within this many edits of an unknown one; keys
 * longer than HINT_KEY_MAX get no hint. */
constexpr size_t HINT_MAX_EDITS = 2;
constexpr size_t HINT_KEY_MAX = 32;
/* A speed point is [size, speed], or [size, speed, low, high] with its band. */
constexpr size_t POINT_WIDTH = 2;
constexpr size_t BANDED_POINT_WIDTH = 4;
/* Message buffers, as in the former reader. */
constexpr size_t WHAT_BYTES = 400;
constexpr size_t NAME_QUOTE_BYTES = 128;
/* A quantity refused is quoted in its message up to this many bytes. */
constexpr size_t QUOTED_VALUE_MAX = 40;

/* A located failure kept until the faults of an object are weighed: status, byte offset
 * in the text, and the sentence without its "PATH:LINE:COLUMN: processor ...: " head. */
struct fault {
    dls_status st = DLS_OK;
    size_t at = 0;
    std::string what;
    explicit operator bool() const { return st != DLS_OK; }
};

/* The walk stops at once (text simdjson refuses, or no memory); `fatal` holds why. */
struct stop {};

struct ctx {
    const char *text; /* as given, for lines and columns */
    size_t len;
    const char *base; /* the padded text simdjson walks: offsets count from here */
    const char *source;
    const dls__limits *lim;
    dls_error *err;
    fault fatal;
    /* the platform's "bytes_per_unit"; 0: none (no default member initializer: the SMPI
     * build compiles this file as C++11, where that makes ctx no aggregate) */
    double bytes_per_unit;
};

fault make_fault(dls_status st, size_t at, const char *fmt, ...) DLS__PRINTF(3, 4);

fault make_fault(dls_status st, size_t at, const char *fmt, ...)
{
    char what[WHAT_BYTES];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    fault f;
    f.st = st;
    f.at = at;
    f.what = what;
    return f;
}

size_t offset(const ctx &c, const char *p)
{
    if (p == nullptr || p < c.base || p > c.base + c.len)
        return c.len;
    return static_cast<size_t>(p - c.base);
}

size_t offset(const ctx &c, od::value &v)
{
    return offset(c, v.raw_json_token().data());
}

/* Stops the walk on an error code of simdjson, located at byte `at`. */
[[noreturn]] void refuse(ctx &c, simdjson::error_code e, size_t at)
{
    if (e == simdjson::MEMALLOC)
        throw std::bad_alloc();
    c.fatal = make_fault(DLS_ESYNTAX, at, "malformed JSON: %s", simdjson::error_message(e));
    throw stop();
}

template <typename T> T need(ctx &c, simdjson::simdjson_result<T> &&r, size_t at)
{
    T v{};
    simdjson::error_code e = std::move(r).get(v);
    if (e != simdjson::SUCCESS)
        refuse(c, e, at);
    return v;
}

const char *type_name(od::json_type t)
{
    switch (t) {
    case od::json_type::object: return "an object";
    case od::json_type::array: return "an array";
    case od::json_type::string: return "a string";
    case od::json_type::number: return "a number";
    case od::json_type::boolean: return "a boolean";
    case od::json_type::null: return "null";
    }
    return "a value";
}

od::json_type type_of(ctx &c, od::value &v)
{
    return need(c, v.type(), offset(c, v));
}

/* ---------------------------------------------------------------------------------- */
/* Keys                                                                               */

/* The key of a field, decoded, and the offset of its opening quote. Keys without a
 * backslash are taken from the text as they are, without a copy. */
std::string_view key_of(ctx &c, od::field &f, size_t *at)
{
    const char *raw = f.key().raw();
    *at = offset(c, raw) - 1;
    const char *end = raw, *last = c.base + c.len;
    while (end < last && *end != '"' && *end != '\\')
        end++;
    if (*end == '"')
        return std::string_view(raw, static_cast<size_t>(end - raw));
    return need(c, f.unescaped_key(), *at);
}

/* String value v (known to be one), decoded. One without a backslash is taken from the
 * text as it is, as keys are: simdjson's first pass refused any text with invalid UTF-8 or
 * a raw control character in a string, so its bytes are the string, and a million names
 * are not copied into simdjson's string buffer. */
std::string_view string_of(ctx &c, od::value &v, size_t at)
{
    std::string_view tok = v.raw_json_token(); /* "...", then any spaces */
    size_t end = 1;
    while (end < tok.size() && tok[end] != '"' && tok[end] != '\\')
        end++;
    if (end < tok.size() && tok[end] == '"')
        return tok.substr(1, end - 1);
    return need(c, v.get_string(), at);
}

/* Position of key in the null-terminated list known, -1 when absent. */
int key_index(std::string_view key, const char *const *known)
{
    for (int k = 0; known[k] != nullptr; k++)
        if (key == known[k])
            return k;
    return -1;
}

/* Levenshtein distance, for "did you mean" hints; SIZE_MAX when a key is longer than
 * HINT_KEY_MAX. */
size_t edit_distance(std::string_view a, const char *b)
{
    size_t la = a.size(), lb = strlen(b);
    if (la > HINT_KEY_MAX || lb > HINT_KEY_MAX)
        return SIZE_MAX;
    size_t d[HINT_KEY_MAX + 1][HINT_KEY_MAX + 1];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            size_t del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
            d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
    return d[la][lb];
}

/* The fault of an unknown key (at the key itself), with a hint when a known key is
 * close. */
fault unknown_key(std::string_view key, size_t at, const char *const *known, const char *where)
{
    std::string k(key);
    const char *close = nullptr;
    size_t best = HINT_MAX_EDITS + 1; /* the closest key within reach, first of equals */
    for (const char *const *p = known; *p; p++) {
        size_t d = edit_distance(key, *p);
        if (d < best) {
            best = d;
            close = *p;
        }
    }
    char list[256] = "";
    for (const char *const *p = known; *p; p++) {
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s\"%s\"", p == known ? "" : ", ", *p);
    }
    if (close)
        return make_fault(DLS_EDATA, at,
                          "unknown key \"%s\" in %s (did you mean \"%s\"? known keys: %s)",
                          k.c_str(), where, close, list);
    return make_fault(DLS_EDATA, at, "unknown key \"%s\" in %s (known keys: %s)", k.c_str(),
                      where, list);
}

/* One pass over the fields of object v (already known to be one): calls take(index, value,
 * key offset) for the keys in the null-terminated list known, keeps the first unknown key
 * as a fault, and stops the walk on a duplicate key (malformed, as jansson says). */
template <typename F>
void each_field(ctx &c, od::object &obj, const char *const *known, const char *where,
                fault *unknown, F take)
{
    unsigned seen = 0;
    for (auto r : obj) {
        od::field f = need(c, std::move(r), c.len);
        size_t at;
        std::string_view key = key_of(c, f, &at);
        int k = key_index(key, known);
        if (k < 0) {
            if (!*unknown)
                *unknown = unknown_key(key, at, known, where);
            continue; /* the value is skipped */
        }
        if (seen & (1u << k)) {
            c.fatal = make_fault(DLS_ESYNTAX, at, "malformed JSON: duplicate object key");
            throw stop();
        }
        seen |= 1u << k;
        take(k, f.value(), at);
    }
}

/* ---------------------------------------------------------------------------------- */
/* Numbers                                                                            */

/* A sequence that keeps its first N elements in itself: the arrays of platform files are
 * mostly short ([a, b] lines, two lines a model), and a million processors should not cost
 * millions of allocations. */
template <typename T, size_t N> class small_vec {
public:
    size_t size() const { return n_; }
    bool empty() const { return n_ == 0; }
    const T &operator[](size_t k) const { return k < N ? inl_[k] : more_[k - N]; }
    void push_back(T v)
    {
        if (n_ < N)
            inl_[n_] = std::move(v);
        else
            more_.push_back(std::move(v));
        n_++;
    }

private:
    T inl_[N];
    std::vector<T> more_;
    size_t n_ = 0;
};

/* A number as read: ok, or the type found instead (type == nullptr with !ok: not finite). */
struct num {
    double v = 0;
    size_t at = 0;
    bool ok = false;
    const char *type = nullptr;
};

num read_num(ctx &c, od::value v)
{
    num n;
    n.at = offset(c, v);
    od::json_type t = type_of(c, v);
    if (t != od::json_type::number) {
        n.type = type_name(t);
        return n; /* the value is skipped */
    }
    n.v = need(c, v.get_double(), n.at);
    n.ok = std::isfinite(n.v);
    return n;
}

/* The fault of a number that is not one: what names it in messages. */
fault number_fault(const num &n, const std::string &what)
{
    if (n.type != nullptr)
        return make_fault(DLS_EDATA, n.at, "%s must be a number, not %s", what.c_str(), n.type);
    return make_fault(DLS_EDATA, n.at, "%s must be a finite number", what.c_str());
}

std::string label(const char *fmt, ...) DLS__PRINTF(1, 2);

std::string label(const char *fmt, ...)
{
    char what[96];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return what;
}

/* A number that a person may write with its unit ("64 GiB", "1 Gbit/s", "250 us"): a
 * number in the base unit (bytes, bytes per second, seconds), or a string with a unit;
 * what names it in messages. */
struct qty {
    double v = 0;
    size_t at = 0;
    fault f;
};

qty read_qty(ctx &c, od::value v, dls__quantity q, const char *what)
{
    static const char *const base[] = {"bytes", "bytes per second", "seconds"};
    qty r;
    r.at = offset(c, v);
    od::json_type t = type_of(c, v);
    if (t == od::json_type::number) {
        num n = read_num(c, v);
        if (!n.ok)
            r.f = number_fault(n, what);
        r.v = n.v;
        return r;
    }
    if (t != od::json_type::string) {
        r.f = make_fault(DLS_EDATA, r.at, "%s must be a number (%s) or a string with its unit "
                         "(\"%s\"), not %s", what, base[q],
                         q == DLS__Q_BYTES ? "8 GiB" : q == DLS__Q_BANDWIDTH ? "1 Gbit/s"
                                                                           : "250 us",
                         type_name(t));
        return r;
    }
    std::string_view s = string_of(c, v, r.at);
    char why[WHAT_BYTES - 100];
    if (dls__parse_quantity(s.data(), s.size(), q, &r.v, why, sizeof why) != 0) {
        char quoted[NAME_QUOTE_BYTES];
        dls__quote_name(std::string(s.substr(0, QUOTED_VALUE_MAX)).c_str(), quoted,
                        sizeof quoted);
        r.f = make_fault(DLS_EDATA, r.at, "%s \"%s\" %s", what, quoted, why);
    }
    return r;
}

/* An array read as numbers: its elements (numbers or not), whether it is an array at all,
 * its type otherwise, and its offset. */
struct numbers {
    bool is_array = false;
    const char *type = nullptr;
    size_t at = 0;
    small_vec<num, BANDED_POINT_WIDTH> items;
};

numbers read_numbers(ctx &c, od::value v)
{
    numbers a;
    a.at = offset(c, v);
    od::json_type t = type_of(c, v);
    if (t != od::json_type::array) {
        a.type = type_name(t);
        return a;
    }
    a.is_array = true;
    od::array arr = need(c, v.get_array(), a.at);
    for (auto r : arr)
        a.items.push_back(read_num(c, need(c, std::move(r), a.at)));
    return a;
}

/* "an array of length 3", or the type name for other values. */
std::string describe(const numbers &a)
{
    if (!a.is_array)
        return a.type;
    return label("an array of length %zu", a.items.size());
}

/* ---------------------------------------------------------------------------------- */
/* Models                                                                             */

/* A model read, or its fault; the model is freed with the record unless taken. */
struct model_result {
    dls_model *model = nullptr;
    fault f;
    model_result() = default;
    model_result(const model_result &) = delete;
    model_result &operator=(const model_result &) = delete;
    ~model_result() { dls_model_free(model); }
    dls_model *take()
    {
        dls_model *m = model;
        model = nullptr;
        return m;
    }
};

/* Creates a model with a constructor of the library: its failures are no memory (the data
 * were checked before). */
void created(ctx &c, dls_status st, model_result &res)
{
    if (st == DLS_ENOMEM)
        throw std::bad_alloc();
    if (st != DLS_OK) /* not expected: the data passed the same validators */
        res.f = make_fault(st, c.len, "%s", c.err->message);
}

/* The offset of element index (then field) of a list of arrays, or of the nearest
 * enclosing value that exists, as the former reader located problems. */
template <typename Rows>
size_t problem_at(const Rows &rows, size_t whole, size_t index, int field)
{
    if (field == DLS__FIELD_WHOLE || index >= rows.size())
        return whole;
    const numbers &row = rows[index];
    if (field < 0 || static_cast<size_t>(field) >= row.items.size())
        return row.at;
    return row.items[static_cast<size_t>(field)].at;
}

void read_points(ctx &c, od::value v, model_result &res)
{
    static const char *const fields[] = {"size", "speed", "band low edge", "band high edge"};
    size_t at = offset(c, v);
    od::json_type t = type_of(c, v);
    if (t != od::json_type::array) {
        res.f = make_fault(DLS_EDATA, at,
                           "\"points\" must be an array of [size, speed] pairs, not %s",
                           type_name(t));
        return;
    }
    std::vector<numbers> pts;
    od::array arr = need(c, v.get_array(), at);
    for (auto r : arr)
        pts.push_back(read_numbers(c, need(c, std::move(r), at)));
    size_t n = pts.size();
    if (n == 0) {
        res.f = make_fault(DLS_EDATA, at,
                           "\"points\" is empty: give at least one [size, speed] pair");
        return;
    }
    if (n > c.lim->points) {
        res.f = make_fault(DLS_ELIMIT, at,
                           "\"points\" has %zu points, more than the %zu of a speed model "
                           "dlsched reads", n, c.lim->points);
        return;
    }
    size_t width = 0;
    std::vector<double> buf(BANDED_POINT_WIDTH * n);
    double *cols[BANDED_POINT_WIDTH] = {&buf[0], &buf[n], &buf[2 * n], &buf[3 * n]};
    for (size_t k = 0; k < n; k++) {
        const numbers &p = pts[k];
        size_t w = p.is_array ? p.items.size() : 0;
        if (!p.is_array || (w != POINT_WIDTH && w != BANDED_POINT_WIDTH)) {
            res.f = make_fault(DLS_EDATA, p.at,
                               "speed point %zu must be [size, speed] or [size, speed, low, "
                               "high], not %s", k + 1, describe(p).c_str());
            return;
        }
        if (width != 0 && w != width) {
            res.f = make_fault(DLS_EDATA, p.at,
                               "speed point %zu has %zu numbers but point 1 has %zu: give every "
                               "point a band [size, speed, low, high] or none", k + 1, w, width);
            return;
        }
        width = w;
        for (size_t f = 0; f < w; f++) {
            if (!p.items[f].ok) {
                res.f = number_fault(p.items[f], label("speed point %zu: the %s", k + 1,
                                                       fields[f]));
                return;
            }
            cols[f][k] = p.items[f].v;
        }
    }
    dls__problem pb;
    bool banded = width == BANDED_POINT_WIDTH;
    const double *low = banded ? cols[2] : nullptr, *high = banded ? cols[3] : nullptr;
    if (dls__check_points(n, cols[0], cols[1], low, high, &pb) ||
        dls__domain_points(n, cols[0], cols[1], low, high, &pb)) {
        res.f = make_fault(DLS_EDATA, problem_at(pts, at, pb.index, pb.field), "%s", pb.text);
        return;
    }
    created(c, dls_model_create_points(n, cols[0], cols[1], low, high, &res.model, c.err),
            res);
}

void read_speed(ctx &c, od::value v, model_result &res)
{
    size_t at = offset(c, v);
    od::json_type t = type_of(c, v);
    if (t == od::json_type::number) {
        num s = read_num(c, v);
        dls__problem pb;
        if (!s.ok)
            res.f = number_fault(s, "\"speed\"");
        else if (dls__check_speed(s.v, &pb) || dls__domain_speed(s.v, &pb))
            res.f = make_fault(DLS_EDATA, at, "%s", pb.text);
        else
            created(c, dls_model_create_constant(s.v, &res.model, c.err), res);
        return;
    }
    if (t != od::json_type::object) {
        res.f = make_fault(DLS_EDATA, at,
                           "\"speed\" must be a number or an object {\"points\": [...]}, not %s",
                           type_name(t));
        return;
    }
    static const char *const known[] = {"points", nullptr};
    fault unknown;
    model_result pts;
    bool has_points = false;
    od::object obj = need(c, v.get_object(), at);
    each_field(c, obj, known, "\"speed\"", &unknown, [&](int, od::value pv, size_t) {
        has_points = true;
        read_points(c, pv, pts);
    });
    if (unknown)
        res.f = unknown;
    else if (!has_points)
        res.f = make_fault(DLS_EDATA, at, "\"speed\" object has no \"points\"");
    else
        res.f = pts.f;
    if (!res.f)
        res.model = pts.take();
}

void read_time(ctx &c, od::value v, model_result &res)
{
    size_t at = offset(c, v);
    od::json_type t = type_of(c, v);
    if (t != od::json_type::array) {
        res.f = make_fault(DLS_EDATA, at, "\"time\" must be an array of [a, b] lines, not %s",
                           type_name(t));
        return;
    }
    small_vec<numbers, 2> lines;
    od::array arr = need(c, v.get_array(), at);
    for (auto r : arr)
        lines.push_back(read_numbers(c, need(c, std::move(r), at)));
    size_t n = lines.size();
    if (n == 0) {
        res.f = make_fault(DLS_EDATA, at, "\"time\" is empty: give at least one line [a, b]");
        return;
    }
    if (n > c.lim->lines) {
        res.f = make_fault(DLS_ELIMIT, at,
                           "\"time\" has %zu lines, more than the %zu of a time model dlsched "
                           "reads", n, c.lim->lines);
        return;
    }
    constexpr size_t SMALL = 4;
    double small[2 * SMALL];
    std::vector<double> big(n > SMALL ? 2 * n : 0);
    double *a = n > SMALL ? &big[0] : small, *b = a + (n > SMALL ? n : SMALL);
    for (size_t l = 0; l < n; l++) {
        const numbers &line = lines[l];
        if (!line.is_array || line.items.size() != 2) {
            res.f = make_fault(DLS_EDATA, line.at,
                               "time line %zu must be an array [a, b] of two numbers, not %s",
                               l + 1, describe(line).c_str());
            return;
        }
        if (!line.items[0].ok) {
            res.f = number_fault(line.items[0], label("time line %zu: the intercept a", l + 1));
            return;
        }
        if (!line.items[1].ok) {
            res.f = number_fault(line.items[1], label("time line %zu: the slope b", l + 1));
            return;
        }
        a[l] = line.items[0].v;
        b[l] = line.items[1].v;
    }
    dls__problem pb;
    if (dls__check_lines(n, a, b, &pb) || dls__domain_lines(n, a, b, &pb)) {
        res.f = make_fault(DLS_EDATA, problem_at(lines, at, pb.index, pb.field), "%s", pb.text);
        return;
    }
    created(c, dls_model_create_time_lines(n, a, b, &res.model, c.err), res);
}

/* The faults of x or y of a grid, in the former reader's order; fills out. */
fault grid_axis(const numbers &a, const char *what, std::vector<double> &out)
{
    if (!a.is_array)
        return make_fault(DLS_EDATA, a.at, "%s must be an array of numbers, not %s", what,
                          a.type);
    if (a.items.empty())
        return make_fault(DLS_EDATA, a.at, "%s is empty", what);
    for (size_t k = 0; k < a.items.size(); k++) {
        if (!a.items[k].ok)
            return number_fault(a.items[k], label("%s value %zu", what, k + 1));
        out.push_back(a.items[k].v);
    }
    return fault();
}

/* One case per key ("x", "y", "values"), then the grid's checks in the order of its faults. */
void read_speed2d(ctx &c, od::value v, model_result &res)
{
    static const char *const known[] = {"x", "y", "values", nullptr};
    size_t at = offset(c, v);
    od::json_type t = type_of(c, v);
    if (t != od::json_type::object) {
        res.f = make_fault(DLS_EDATA, at,
                           "\"speed2d\" must be an object with \"x\", \"y\" and \"values\", "
                           "not %s", type_name(t));
        return;
    }
    fault unknown;
    numbers axis[2];
    numbers rows; /* the rows' offsets and shapes; their numbers in cells */
    std::vector<numbers> cells;
    bool has[3] = {false, false, false};
    od::object obj = need(c, v.get_object(), at);
    each_field(c, obj, known, "\"speed2d\"", &unknown, [&](int k, od::value fv, size_t) {
        has[k] = true;
        if (k < 2) {
            axis[k] = read_numbers(c, fv);
            return;
        }
        rows.at = offset(c, fv);
        od::json_type rt = type_of(c, fv);
        if (rt != od::json_type::array) {
            rows.type = type_name(rt);
            return;
        }
        rows.is_array = true;
        od::array arr = need(c, fv.get_array(), rows.at);
        for (auto r : arr)
            cells.push_back(read_numbers(c, need(c, std::move(r), rows.at)));
    });
    if (unknown) {
        res.f = unknown;
        return;
    }
    for (int k = 0; k < 3; k++)
        if (!has[k]) {
            res.f = make_fault(DLS_EDATA, at, "\"speed2d\" has no \"%s\"", known[k]);
            return;
        }
    /* the grid's size before any of it is read (values must be x values times y values) */
    size_t gx = axis[0].is_array ? axis[0].items.size() : 0;
    size_t gy = axis[1].is_array ? axis[1].items.size() : 0;
    if (gx > 0 && gy > 0 && gx > c.lim->grid_cells / gy) {
        res.f = make_fault(DLS_ELIMIT, at,
                           "\"speed2d\" has %zu x %zu values, more than the %zu of a 2-D grid "
                           "dlsched reads", gx, gy, c.lim->grid_cells);
        return;
    }
    std::vector<double> x, y;
    res.f = grid_axis(axis[0], "speed2d x", x);
    if (!res.f)
        res.f = grid_axis(axis[1], "speed2d y", y);
    if (res.f)
        return;
    size_t nx = x.size(), ny = y.size();
    if (!rows.is_array) {
        res.f = make_fault(DLS_EDATA, rows.at,
                           "speed2d values must be an array of rows, not %s", rows.type);
        return;
    }
    if (cells.size() != nx) {
        res.f = make_fault(DLS_EDATA, rows.at,
                           "speed2d values has %zu rows but x has %zu values (one row per x)",
                           cells.size(), nx);
        return;
    }
    std::vector<double> values(nx * ny);
    for (size_t i = 0; i < nx; i++) {
        const numbers &row = cells[i];
        if (!row.is_array || row.items.size() != ny) {
            res.f = make_fault(DLS_EDATA, row.at,
                               "speed2d values row %zu must be an array of %zu numbers (one "
                               "per y)", i + 1, ny);
            return;
        }
        for (size_t j = 0; j < ny; j++) {
            if (!row.items[j].ok) {
                res.f = number_fault(row.items[j],
                                     label("speed2d value [%zu][%zu]", i + 1, j + 1));
                return;
            }
            values[i * ny + j] = row.items[j].v;
        }
    }
    dls__problem pb;
    if (dls__check_grid(nx, x.data(), ny, y.data(), values.data(), &pb) ||
        dls__domain_grid(nx, x.data(), ny, y.data(), values.data(), &pb)) {
        size_t where;
        if (pb.field == DLS__FIELD_GRID_VALUE)
            where = problem_at(cells, rows.at, pb.index / ny, static_cast<int>(pb.index % ny));
        else {
            const numbers &a = axis[pb.field == DLS__FIELD_GRID_X ? 0 : 1];
            where = pb.index < a.items.size() ? a.items[pb.index].at : a.at;
        }
        res.f = make_fault(DLS_EDATA, where, "%s", pb.text);
        return;
    }
    created(c, dls_model_create_speed2d(nx, x.data(), ny, y.data(), values.data(), &res.model,
                                        c.err),
            res);
}

/* ---------------------------------------------------------------------------------- */
/* Processors                                                                         */

/* A link as written: its time per message ("startup" or "latency", s) and its time per
 * unit ("rate", s per unit) or its "bandwidth" (bytes/s), which needs the processor's
 * bytes per unit, known only once the whole processor is read. */
struct link_in {
    fault f;
    size_t at = 0;
    double startup = 0, rate = 0, bandwidth = 0;
    bool has_bandwidth = false;
    size_t bandwidth_at = 0;
};

link_in read_link(ctx &c, od::value v)
{
    enum { L_STARTUP, L_RATE, L_LATENCY, L_BANDWIDTH };
    static const char *const known[] = {"startup", "rate", "latency", "bandwidth", nullptr};
    link_in L;
    L.at = offset(c, v);
    od::json_type t = type_of(c, v);
    if (t != od::json_type::object) {
        L.f = make_fault(DLS_EDATA, L.at,
                         "\"link\" must be an object {\"startup\": S, \"rate\": C} or "
                         "{\"latency\": S, \"bandwidth\": B}, not %s", type_name(t));
        return L;
    }
    fault unknown, twice;
    qty got[4];
    bool has[4] = {false, false, false, false};
    od::object obj = need(c, v.get_object(), L.at);
    each_field(c, obj, known, "\"link\"", &unknown, [&](int k, od::value fv, size_t kat) {
        has[k] = true;
        if (k == L_RATE) {
            num n = read_num(c, fv);
            got[k].v = n.v;
            got[k].at = n.at;
            if (!n.ok)
                got[k].f = number_fault(n, "the link rate");
        } else {
            got[k] = read_qty(c, fv, k == L_BANDWIDTH ? DLS__Q_BANDWIDTH : DLS__Q_SECONDS,
                              label("the link %s", known[k]).c_str());
        }
        /* the same thing said twice in two ways: located at the second key written */
        int other = k == L_LATENCY ? L_STARTUP : k == L_STARTUP ? L_LATENCY
                    : k == L_BANDWIDTH ? L_RATE : L_BANDWIDTH;
        if (has[other] && !twice)
            twice = make_fault(DLS_EDATA, kat,
                               "\"link\" gives both \"%s\" and \"%s\", which say the same "
                               "thing (%s): give one of them", known[other], known[k],
                               k == L_LATENCY || k == L_STARTUP
                                   ? "the time of each message, in seconds"
                                   : "\"rate\" is seconds per unit, \"bandwidth\" bytes per "
                                     "second with the bytes per unit");
    });
    if (unknown) {
        L.f = unknown;
        return L;
    }
    if (twice) {
        L.f = twice;
        return L;
    }
    int time_key = has[L_LATENCY] ? L_LATENCY : L_STARTUP;
    int unit_key = has[L_BANDWIDTH] ? L_BANDWIDTH : L_RATE;
    if (!has[time_key] || !has[unit_key]) {
        L.f = make_fault(DLS_EDATA, L.at,
                         "\"link\" has no \"%s\" (give \"startup\" or \"latency\", and "
                         "\"rate\" or \"bandwidth\")",
                         !has[time_key] ? (has[L_BANDWIDTH] ? "latency" : "startup")
                                        : (has[L_LATENCY] ? "bandwidth" : "rate"));
        return L;
    }
    for (int k : {time_key, unit_key}) {
        if (got[k].f) {
            L.f = got[k].f;
            return L;
        }
        if (got[k].v < 0 || (k == L_BANDWIDTH && !(got[k].v > 0))) {
            L.f = make_fault(DLS_EDATA, got[k].at, "the link %s must be %s, not %.10g",
                             known[k], k == L_BANDWIDTH ? "> 0" : ">= 0", got[k].v);
            return L;
        }
    }
    L.startup = got[time_key].v;
    char why[200];
    if (dls__domain_link(L.startup, 0, why, sizeof why)) {
        L.f = make_fault(DLS_EDATA, got[time_key].at, "%s", why);
        return L;
    }
    if (unit_key == L_BANDWIDTH) {
        L.has_bandwidth = true;
        L.bandwidth = got[L_BANDWIDTH].v;
        L.bandwidth_at = got[L_BANDWIDTH].at;
        if (dls__domain_value(L.bandwidth, "link bandwidth", why, sizeof why))
            L.f = make_fault(DLS_EDATA, L.bandwidth_at, "%s", why);
        return L;
    }
    L.rate = got[L_RATE].v;
    if (dls__domain_link(0, L.rate, why, sizeof why))
        L.f = make_fault(DLS_EDATA, got[L_RATE].at, "%s", why);
    return L;
}

/* "return": {"fraction": F, "startup": R, "rate": D}, each >= 0 and in the domain. */
fault read_return(ctx &c, od::value v, double out[3])
{
    static const char *const known[] = {"fraction", "startup", "rate", nullptr};
    size_t at = offset(c, v);
    od::json_type t = type_of(c, v);
    if (t != od::json_type::object)
        return make_fault(DLS_EDATA, at,
                          "\"return\" must be an object {\"fraction\": F, \"startup\": R, "
                          "\"rate\": D}, not %s", type_name(t));
    fault unknown;
    num got[3];
    bool has[3] = {false, false, false};
    od::object obj = need(c, v.get_object(), at);
    each_field(c, obj, known, "\"return\"", &unknown, [&](int k, od::value fv, size_t) {
        has[k] = true;
        got[k] = read_num(c, fv);
    });
    if (unknown)
        return unknown;
    for (int k = 0; k < 3; k++) {
        if (!has[k])
            return make_fault(DLS_EDATA, at,
                              "\"return\" has no \"%s\" (give \"fraction\", \"startup\" and "
                              "\"rate\")", known[k]);
        if (!got[k].ok)
            return number_fault(got[k], label("the return %s", known[k]));
        if (got[k].v < 0)
            return make_fault(DLS_EDATA, got[k].at, "the return %s must be >= 0, not %.10g",
                              known[k], got[k].v);
        char what[40], why[200];
        snprintf(what, sizeof what, "return %s", known[k]);
        if (dls__domain_value(got[k].v, what, why, sizeof why))
            return make_fault(DLS_EDATA, got[k].at, "%s", why);
        out[k] = got[k].v;
    }
    return fault();
}

enum { K_NAME, K_SPEED, K_TIME, K_SPEED2D, K_LIMIT, K_LINK, K_RELEASE, K_RETURN, K_BPU,
       K_MEMORY, K_PAGING };

/* A size in bytes that must be > 0 and within the input domain ("bytes_per_unit",
 * "memory"): its fault, if any. */
fault positive_bytes(const qty &q, const char *key, const char *whose = "")
{
    if (q.f)
        return q.f;
    if (!(q.v > 0))
        return make_fault(DLS_EDATA, q.at, "%s%s\"%s\" must be > 0 bytes, not %.10g",
                          *whose ? "the " : "", whose, key, q.v);
    char why[200];
    if (dls__domain_value(q.v, label("%s%s", whose, key).c_str(), why, sizeof why))
        return make_fault(DLS_EDATA, q.at, "%s", why);
    return fault();
}

/* What a processor says in bytes (issue 36): its bytes per unit, its memory and how many
 * times slower it computes beyond it, each with where its key was written. */
struct bytes_in {
    qty bpu, memory;
    num paging;
    bool has_bpu = false, has_memory = false, has_paging = false;
    size_t memory_key = 0, paging_key = 0;
    fault f; /* the first value refused, in file order */
};

void read_bytes_key(ctx &c, int key, od::value fv, size_t key_at, bytes_in *b)
{
    fault f;
    if (key == K_BPU) {
        b->has_bpu = true;
        b->bpu = read_qty(c, fv, DLS__Q_BYTES, "\"bytes_per_unit\"");
        f = positive_bytes(b->bpu, "bytes_per_unit");
    } else if (key == K_MEMORY) {
        b->has_memory = true;
        b->memory_key = key_at;
        b->memory = read_qty(c, fv, DLS__Q_BYTES, "\"memory\"");
        f = positive_bytes(b->memory, "memory");
    } else {
        b->has_paging = true;
        b->paging_key = key_at;
        b->paging = read_num(c, fv);
        char why[200];
        if (!b->paging.ok)
            f = number_fault(b->paging, "\"paging\"");
        else if (!(b->paging.v > 1))
            f = make_fault(DLS_EDATA, b->paging.at, "\"paging\" must be > 1 (how many times "
                           "slower a unit computes beyond the memory), not %.10g",
                           b->paging.v);
        else if (dls__domain_value(b->paging.v, "paging factor", why, sizeof why))
            f = make_fault(DLS_EDATA, b->paging.at, "%s", why);
    }
    if (f && !b->f)
        b->f = f;
}

/* The second time line that "memory" and "paging" describe: from the paging point P
 * (units) on, a unit takes paging times as long as it does at P, the time continuous at P.
 * With one line a + b x (a constant speed s being the line x / s), that is the line
 * (a + b P) - paging b P + paging b x, which is what a person would write by hand. A model
 * of several lines already says how it slows down, and a speed measured at points or on a
 * grid cannot take a line: both are refused. */
fault paging_line(ctx &c, const bytes_in &b, double P, model_result &model)
{
    const dls_model *m = model.model;
    double a0, b0;
    size_t n;
    const double *la, *lb;
    switch (dls_model_get_kind(m)) {
    case DLS_MODEL_CONSTANT:
        a0 = 0;
        b0 = 1 / dls_model_constant_speed(m);
        break;
    case DLS_MODEL_TIME_LINES:
        dls_model_get_lines(m, &n, &la, &lb);
        if (n > 1)
            return make_fault(DLS_EDATA, b.paging_key,
                              "has a \"time\" model of %zu lines and \"paging\", which say "
                              "the same thing (the lines beyond the first are how it slows "
                              "down): give the lines or \"memory\" and \"paging\", not "
                              "both", n);
        a0 = la[0];
        b0 = lb[0];
        if (b0 == 0)
            return make_fault(DLS_EDATA, b.paging_key,
                              "has a time line of slope 0, which \"paging\" cannot make "
                              "slower: give its time per unit");
        break;
    default:
        return make_fault(DLS_EDATA, b.paging_key,
                          "\"paging\" builds a second time line, which a %s model cannot "
                          "take: give the model as time lines (\"time\"), or leave "
                          "\"paging\" out to make the memory its limit",
                          dls_model_get_kind(m) == DLS_MODEL_POINTS ? "points" : "2-D");
    }
    double a[2] = {a0, 0}, sl[2] = {b0, b.paging.v * b0};
    a[1] = (a0 + b0 * P) - sl[1] * P;
    dls__problem pb;
    if (dls__check_lines(2, a, sl, &pb) || dls__domain_lines(2, a, sl, &pb))
        return make_fault(DLS_EDATA, b.paging_key, "the second time line that \"memory\" "
                          "and \"paging\" give: %s", pb.text);
    dls_model *lines = nullptr;
    model_result built;
    created(c, dls_model_create_time_lines(2, a, sl, &lines, c.err), built);
    if (built.f)
        return std::move(built.f);
    dls_model_free(model.take());
    model.model = lines;
    return fault();
}

/* What the keys in bytes mean, once the processor is read: the link's rate from its
 * bandwidth, and the limit or a second time line from the memory. out receives the
 * bytes per unit, memory and paging kept for the getters, *rate and *limit their
 * meaning. */
fault apply_bytes(ctx &c, const bytes_in &b, link_in &L, bool has_limit, const num &limit,
                  size_t limit_key, model_result &model, double out[3], double *limit_out)
{
    double bpu = b.has_bpu ? b.bpu.v : c.bytes_per_unit;
    static const char need_bpu[] = "needs \"bytes_per_unit\" (for this processor or the "
                                   "whole platform): how many bytes one unit of work is";
    char why[200];
    if (L.has_bandwidth) {
        if (!(bpu > 0))
            return make_fault(DLS_EDATA, L.bandwidth_at, "the link bandwidth %s", need_bpu);
        L.rate = bpu / L.bandwidth;
        if (dls__domain_link(0, L.rate, why, sizeof why))
            return make_fault(DLS_EDATA, L.bandwidth_at, "the link bandwidth gives %s", why);
    }
    if (b.has_paging && !b.has_memory)
        return make_fault(DLS_EDATA, b.paging_key, "\"paging\" needs \"memory\": the bytes "
                          "beyond which a unit computes %.6g times slower", b.paging.v);
    out[0] = bpu;
    out[1] = b.has_memory ? b.memory.v : 0;
    out[2] = b.has_paging ? b.paging.v : 0;
    if (!b.has_memory)
        return fault();
    if (!(bpu > 0))
        return make_fault(DLS_EDATA, b.memory.at, "\"memory\" %s", need_bpu);
    double P = b.memory.v / bpu;
    if (dls__domain_limit(P, why, sizeof why))
        return make_fault(DLS_EDATA, b.memory.at, "\"memory\" gives %.10g units: %s", P, why);
    if (b.has_paging)
        return paging_line(c, b, P, model);
    /* the memory without paging is the limit: a "limit" that differs says two things */
    if (has_limit && limit.v != P)
        return make_fault(DLS_EDATA, limit_key > b.memory_key ? limit_key : b.memory_key,
                          "gives \"limit\" %.10g units and \"memory\" without \"paging\", "
                          "which is the limit %.10g units (the memory over the bytes per unit): "
                          "give one of them, or \"paging\" to say how it computes beyond "
                          "the memory", limit.v, P);
    *limit_out = P;
    return fault();
}

/* A processor's fault becomes the error: "processor "NAME": " or "processor #K: " before
 * it. */
struct located {
    fault f;
    long proc = -1;
    std::string name; /* empty: not known */
    bool named = false;
};

/* A processor's "name" (fv, at name_at) into name: the fault that makes it none. */
fault read_name(ctx &c, od::value fv, size_t name_at, std::string &name)
{
    od::json_type nt = type_of(c, fv);
    if (nt != od::json_type::string)
        return make_fault(DLS_EDATA, name_at, "\"name\" must be a string, not %s",
                          type_name(nt));
    std::string_view s = string_of(c, fv, name_at);
    name.assign(s.data(), s.size());
    char why[160];
    if (s.empty())
        return make_fault(DLS_EDATA, name_at, "\"name\" is empty");
    if (memchr(s.data(), '\0', s.size()) != nullptr)
        return make_fault(DLS_EDATA, name_at, "\"name\" contains a NUL character");
    if (dls__check_name(name.c_str(), why, sizeof why) != 0)
        return make_fault(DLS_EDATA, name_at, "\"name\" %s", why);
    return fault();
}

/* The fault of a processor's "limit", read: a number > 0 inside the domain. */
fault limit_fault_of(const num &limit)
{
    if (!limit.ok)
        return number_fault(limit, "\"limit\"");
    if (!(limit.v > 0))
        return make_fault(DLS_EDATA, limit.at, "\"limit\" must be > 0, not %.10g", limit.v);
    char why[200];
    if (dls__domain_limit(limit.v, why, sizeof why))
        return make_fault(DLS_EDATA, limit.at, "%s", why);
    return fault();
}

/* A processor's "release" (fv) into release: seconds >= 0 inside the domain. */
fault read_release(ctx &c, od::value fv, num &release)
{
    qty q = read_qty(c, fv, DLS__Q_SECONDS, "\"release\"");
    release.v = q.v;
    release.at = q.at;
    char why[200];
    if (q.f)
        return std::move(q.f);
    if (!(release.v >= 0))
        return make_fault(DLS_EDATA, release.at, "\"release\" must be >= 0, not %.10g",
                          release.v);
    if (dls__domain_value(release.v, "release time", why, sizeof why))
        return make_fault(DLS_EDATA, release.at, "%s", why);
    return fault();
}

/* Reads processor k (value v) into pl; a contract fault goes to *bad. One case per key,
 * then the faults in order and the processor stored: long, and read a key at a time. */
void read_processor(ctx &c, od::value v, size_t k, dls_platform *pl, located *bad)
{
    static const char *const known[] = {"name", "speed", "time", "speed2d", "limit", "link",
                                        "release", "return", "bytes_per_unit", "memory",
                                        "paging", nullptr};
    bad->proc = static_cast<long>(k);
    size_t at = offset(c, v);
    od::json_type t = type_of(c, v);
    if (t != od::json_type::object) {
        bad->f = make_fault(DLS_EDATA, at, "must be an object, not %s", type_name(t));
        return;
    }
    fault unknown, name_fault, two_models, limit_fault, release_fault, return_fault;
    link_in link;
    bytes_in bytes;
    size_t limit_key = 0;
    num release;
    bool has_release = false, has_return = false;
    double ret[3] = {0, 0, 0};
    std::string name;
    bool has_name = false;
    size_t name_at = 0;
    int model_key = -1;
    model_result model;
    num limit;
    bool has_limit = false, has_link = false;
    od::object obj = need(c, v.get_object(), at);
    each_field(c, obj, known, "a processor", &unknown, [&](int key, od::value fv,
                                                           size_t key_at) {
        switch (key) {
        case K_NAME:
            has_name = true;
            name_at = offset(c, fv);
            name_fault = read_name(c, fv, name_at, name);
            break;
        case K_SPEED:
        case K_TIME:
        case K_SPEED2D:
            if (model_key >= 0) {
                /* the models in file order: the fault names the second one written */
                if (!two_models)
                    two_models = make_fault(DLS_EDATA, key_at,
                                            "has two models, \"%s\" and \"%s\": give "
                                            "exactly one", known[model_key], known[key]);
                break;
            }
            model_key = key;
            if (key == K_SPEED)
                read_speed(c, fv, model);
            else if (key == K_TIME)
                read_time(c, fv, model);
            else
                read_speed2d(c, fv, model);
            break;
        case K_LIMIT:
            has_limit = true;
            limit_key = key_at;
            limit = read_num(c, fv);
            limit_fault = limit_fault_of(limit);
            break;
        case K_LINK:
            has_link = true;
            link = read_link(c, fv);
            break;
        case K_BPU:
        case K_MEMORY:
        case K_PAGING:
            read_bytes_key(c, key, fv, key_at, &bytes);
            break;
        case K_RELEASE:
            has_release = true;
            release_fault = read_release(c, fv, release);
            break;
        case K_RETURN:
            has_return = true;
            return_fault = read_return(c, fv, ret);
            break;
        }
    });
    /* the faults in the former reader's order: the name, a duplicate name, then the rest */
    if (!has_name)
        bad->f = make_fault(DLS_EDATA, at, "has no \"name\"");
    else if (name_fault)
        bad->f = name_fault;
    if (bad->f)
        return;
    fault rest;
    if (unknown)
        rest = unknown;
    else if (model_key < 0)
        rest = make_fault(DLS_EDATA, at,
                          "has no model: give one of \"speed\", \"time\" or \"speed2d\"");
    else if (two_models)
        rest = two_models;
    else if (model.f)
        rest = model.f;
    else if (limit_fault)
        rest = limit_fault;
    else if (bytes.f)
        rest = bytes.f;
    else if (link.f)
        rest = link.f;
    else if (release_fault)
        rest = release_fault;
    else if (return_fault)
        rest = return_fault;
    double described[3] = {0, 0, 0}, limit_v = has_limit ? limit.v : INFINITY;
    if (!rest)
        rest = apply_bytes(c, bytes, link, has_limit, limit, limit_key, model, described,
                           &limit_v);
    /* a sound processor is appended, which looks its name up once; a faulty one is only
     * looked up, since a duplicate name is the first fault to report */
    size_t index = 0;
    long dup;
    if (rest)
        dup = dls__platform_find(pl, name.c_str());
    else if (dls__platform_append(pl, name.c_str(), name.size(), model.model, &index, &dup,
                                  c.err) != DLS_OK)
        throw std::bad_alloc(); /* its only failure */
    if (dup >= 0) {
        char q[NAME_QUOTE_BYTES];
        dls__quote_name(name.c_str(), q, sizeof q);
        rest = make_fault(DLS_EDATA, name_at,
                          "duplicate name: processor #%ld is also called \"%s\"", dup + 1, q);
    }
    if (rest) {
        bad->f = std::move(rest);
        bad->name = std::move(name);
        bad->named = true;
        return;
    }
    pl->procs[index].limit = limit_v;
    pl->procs[index].has_link = has_link;
    pl->procs[index].startup = link.startup;
    pl->procs[index].rate = link.rate;
    pl->procs[index].bytes_per_unit = described[0];
    pl->procs[index].memory = described[1];
    pl->procs[index].paging = described[2];
    pl->procs[index].release = has_release ? release.v : 0;
    if (has_return) {
        pl->procs[index].ret_frac = ret[0];
        pl->procs[index].ret_startup = ret[1];
        pl->procs[index].ret_rate = ret[2];
    }
}

/* The "processors" array: read while it is within the limit and sound, counted to its
 * end otherwise (its length is checked before its processors). */
void read_processors(ctx &c, od::value v, dls_platform *pl, located *bad)
{
    size_t at = offset(c, v);
    od::json_type t = type_of(c, v);
    if (t != od::json_type::array) {
        bad->f = make_fault(DLS_EDATA, at, "\"processors\" must be an array, not %s",
                            type_name(t));
        return;
    }
    located first;
    size_t n = 0;
    od::array arr = need(c, v.get_array(), at);
    for (auto r : arr) {
        od::value pv = need(c, std::move(r), at);
        if (!first.f && n < c.lim->processors) {
            located one;
            read_processor(c, pv, n, pl, &one);
            if (one.f)
                first = std::move(one);
        }
        n++; /* past the limit or after a fault, the rest is skipped and counted */
    }
    if (n == 0)
        bad->f = make_fault(DLS_EDATA, at,
                            "\"processors\" is empty: a platform needs at least one processor");
    else if (n > c.lim->processors)
        bad->f = make_fault(DLS_ELIMIT, at,
                            "\"processors\" has %zu processors, more than the %zu dlsched reads",
                            n, c.lim->processors);
    else
        *bad = first;
}

/* Whether text[0, n) holds key. (Not string_view::find: simdjson's string_view can be its
 * own, whose search calls a comparator through a function pointer, which clang's
 * -fsanitize=function checks with a C++ runtime the C-linked fuzz targets lack.) */
bool text_holds(const char *text, size_t n, const char *key)
{
    size_t k = strlen(key);
    for (const char *p = text, *end = text + n; (size_t)(end - p) >= k; p++) {
        p = static_cast<const char *>(memchr(p, key[0], (size_t)(end - p) - k + 1));
        if (p == nullptr)
            return false;
        if (memcmp(p, key, k) == 0)
            return true;
    }
    return false;
}

/* The platform's "bytes_per_unit", which a processor written before it may need: read in a
 * first pass over the root's keys, which skips their values, before the walk proper. Only a
 * text that may name the key pays for that pass. */
fault read_platform_bpu(ctx &c, od::object &obj, size_t at)
{
    static const char key[] = "bytes_per_unit";
    if (!text_holds(c.base, c.len, key) && memchr(c.base, '\\', c.len) == nullptr)
        return fault();
    fault f;
    for (auto r : obj) {
        od::field fl = need(c, std::move(r), c.len);
        size_t kat;
        if (key_of(c, fl, &kat) != key)
            continue;
        qty q = read_qty(c, fl.value(), DLS__Q_BYTES, "the platform's \"bytes_per_unit\"");
        f = positive_bytes(q, "bytes_per_unit", "platform's ");
        if (!f)
            c.bytes_per_unit = q.v;
        break; /* a second one is a duplicate key, which the walk proper refuses */
    }
    need(c, obj.reset(), at);
    return f;
}

void read_root(ctx &c, od::document &doc, dls_platform *pl, located *bad)
{
    static const char *const known[] = {"processors", "version", "bytes_per_unit", nullptr};
    od::value root = need(c, doc.get_value(), c.len);
    size_t at = offset(c, root);
    od::json_type t = type_of(c, root);
    if (t != od::json_type::object) {
        bad->f = make_fault(DLS_EDATA, at,
                            "the platform must be a JSON object {\"processors\": [...]}, not %s",
                            type_name(t));
        return;
    }
    fault unknown, version;
    located procs;
    bool has_procs = false;
    pl->format = 1; /* a file without "version" is of the first format */
    od::object obj = need(c, root.get_object(), at);
    fault bpu = read_platform_bpu(c, obj, at);
    each_field(c, obj, known, "the platform", &unknown, [&](int key, od::value pv, size_t) {
        if (key == 2)
            return; /* "bytes_per_unit", read first */
        if (key == 1) {
            num v = read_num(c, pv);
            if (!v.ok || (v.v != 1 && v.v != DLS_PLATFORM_FORMAT))
                version = v.ok ? make_fault(DLS_EDATA, v.at, "\"version\" must be 1 or %d (the "
                                            "platform format's version), not %.10g",
                                            DLS_PLATFORM_FORMAT, v.v)
                               : number_fault(v, "\"version\"");
            else
                pl->format = (int)v.v;
            return;
        }
        has_procs = true;
        read_processors(c, pv, pl, &procs);
    });
    if (unknown)
        bad->f = unknown;
    else if (version)
        bad->f = version;
    else if (bpu)
        bad->f = bpu;
    else if (!has_procs)
        bad->f = make_fault(DLS_EDATA, at, "the platform has no \"processors\"");
    else
        *bad = procs;
    if (bad->f)
        return;
    /* nothing may follow the root */
    const char *rest = nullptr;
    if (doc.current_location().get(rest) == simdjson::SUCCESS) {
        c.fatal = make_fault(DLS_ESYNTAX, offset(c, rest),
                             "malformed JSON: end of file expected");
        throw stop();
    }
}

/* Line and column (in characters) of byte pos. */
void position(const char *text, size_t pos, int *line, int *column)
{
    int l = 1, col = 1;
    for (size_t i = 0; i < pos; i++) {
        unsigned char ch = static_cast<unsigned char>(text[i]);
        if (ch == '\n') {
            l++;
            col = 1;
        } else if ((ch & 0xC0) != 0x80) {
            col++; /* count characters, not UTF-8 continuation bytes */
        }
    }
    *line = l;
    *column = col;
}

dls_status report(const ctx &c, const located &bad)
{
    int line, column;
    position(c.text, bad.f.at < c.len ? bad.f.at : c.len, &line, &column);
    const char *what = bad.f.what.c_str();
    if (bad.proc < 0)
        return dls__fail_at(c.err, bad.f.st, line, column, -1, NULL, "%s:%d:%d: %s", c.source,
                            line, column, what);
    if (bad.named) {
        char name[NAME_QUOTE_BYTES];
        dls__quote_name(bad.name.c_str(), name, sizeof name);
        return dls__fail_at(c.err, bad.f.st, line, column, bad.proc, NULL,
                            "%s:%d:%d: processor \"%s\": %s", c.source, line, column, name,
                            what);
    }
    return dls__fail_at(c.err, bad.f.st, line, column, bad.proc, NULL,
                        "%s:%d:%d: processor #%ld: %s", c.source, line, column, bad.proc + 1,
                        what);
}

dls_status parse(ctx &c, const char *padded, size_t capacity, dls_platform *pl)
{
    od::parser parser;
    if (parser.allocate(c.len, MAX_DEPTH) != simdjson::SUCCESS)
        throw std::bad_alloc();
    od::document doc;
    located bad;
    try {
        simdjson::padded_string_view view(padded, c.len, capacity);
        doc = need(c, parser.iterate(view), 0);
        read_root(c, doc, pl, &bad);
    } catch (const stop &) {
        bad.f = c.fatal;
        bad.proc = -1;
    }
    if (bad.f)
        return report(c, bad);
    return DLS_OK;
}

/* The C numeric locale for the walk, whatever the caller's (this thread only), and the
 * caller's again however the walk ends. */
struct c_numeric_guard {
    dls__c_numeric h;
    c_numeric_guard()
    {
        if (dls__c_numeric_enter(&h) != 0)
            throw std::bad_alloc();
    }
    ~c_numeric_guard() { dls__c_numeric_leave(&h); }
    c_numeric_guard(const c_numeric_guard &) = delete;
    c_numeric_guard &operator=(const c_numeric_guard &) = delete;
};

} // namespace

extern "C" dls_status dls__platform_parse(const char *text, size_t len, size_t capacity,
                                          const char *source, const dls__limits *lim,
                                          dls_platform **out, dls_error *err)
{
    ctx c{text, len, text, source, lim, err, fault(), 0};
    char *copy = nullptr;
    dls_platform *pl = nullptr;
    dls_status st;
    try {
        const char *padded = text;
        if (capacity < len || capacity - len < DLS__JSON_PADDING) {
            copy = static_cast<char *>(malloc(len + DLS__JSON_PADDING));
            if (copy == nullptr)
                throw std::bad_alloc();
            memcpy(copy, text, len);
            memset(copy + len, 0, DLS__JSON_PADDING);
            padded = copy;
            capacity = len + DLS__JSON_PADDING;
        }
        c.base = padded;
        pl = dls__platform_new();
        if (pl == nullptr)
            throw std::bad_alloc();
        c_numeric_guard loc; /* quantities with units are read with strtod */
        st = parse(c, padded, capacity, pl);
    } catch (const std::bad_alloc &) {
        st = dls__oom(err, source);
    } catch (...) { /* nothing else is thrown; never let anything out */
        st = dls__oom(err, source);
    }
    free(copy);
    if (st != DLS_OK) {
        dls_platform_free(pl);
        return st;
    }
    *out = pl;
    return DLS_OK;
}
