// Candidates for reading big platform files (issue 13, item 4): the time and peak memory of
// one library reading a platform file and visiting every number in it, as the platform
// reader must. Not built by make: tests/bench/json_candidates.sh compiles it where the
// libraries are installed (Debian: libjansson-dev, libjson-c-dev, libsimdjson-dev) and
// runs each candidate in a process of its own, so that each peak is its own.
//
// jansson and json-c cannot share a translation unit (both define json_object): the script
// compiles one program per candidate, -DCANDIDATE_JANSSON, -DCANDIDATE_JSONC or
// -DCANDIDATE_SIMDJSON.
//
// usage: json_candidates_NAME FILE
//   prints: candidate, processors, sum of the numbers (the same for every candidate),
//   seconds (read + parse + visit), peak resident MB
#if defined(CANDIDATE_JANSSON)
#include <jansson.h>
#define CANDIDATE "jansson"
#elif defined(CANDIDATE_JSONC)
#include <json-c/json.h>
#define CANDIDATE "json-c"
#else
#include <simdjson.h>
#define CANDIDATE "simdjson"
#endif

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

namespace {

double peak_mb()
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss / 1024.0;
}

std::string slurp(const char *path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

#if defined(CANDIDATE_JANSSON)
// jansson: the tree of the whole file (today's reader).
void jansson_visit(json_t *v, double *sum)
{
    if (json_is_number(v)) {
        *sum += json_number_value(v);
    } else if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++)
            jansson_visit(json_array_get(v, i), sum);
    } else if (json_is_object(v)) {
        const char *k;
        json_t *x;
        json_object_foreach(v, k, x) jansson_visit(x, sum);
    }
}

int run_jansson(const char *path, size_t *n, double *sum)
{
    std::string text = slurp(path);
    json_error_t e;
    json_t *root = json_loadb(text.data(), text.size(), JSON_REJECT_DUPLICATES, &e);
    if (!root)
        return -1;
    *n = json_array_size(json_object_get(root, "processors"));
    jansson_visit(root, sum);
    json_decref(root);
    return 0;
}

#define RUN run_jansson
#elif defined(CANDIDATE_JSONC)
// json-c: its tree.
void jsonc_visit(json_object *v, double *sum)
{
    switch (json_object_get_type(v)) {
    case json_type_double:
    case json_type_int:
        *sum += json_object_get_double(v);
        break;
    case json_type_array:
        for (size_t i = 0; i < json_object_array_length(v); i++)
            jsonc_visit(json_object_array_get_idx(v, i), sum);
        break;
    case json_type_object: {
        json_object_object_foreach(v, k, x)
        {
            (void)k;
            jsonc_visit(x, sum);
        }
        break;
    }
    default:
        break;
    }
}

int run_jsonc(const char *path, size_t *n, double *sum)
{
    std::string text = slurp(path);
    json_tokener *tok = json_tokener_new_ex(64);
    json_object *root = json_tokener_parse_ex(tok, text.data(), (int)text.size());
    json_tokener_free(tok);
    if (!root)
        return -1;
    json_object *procs;
    if (!json_object_object_get_ex(root, "processors", &procs))
        return -1;
    *n = json_object_array_length(procs);
    jsonc_visit(root, sum);
    json_object_put(root);
    return 0;
}

#define RUN run_jsonc
#else
// simdjson On-Demand: no tree; values are parsed as they are visited.
void simd_visit(simdjson::ondemand::value v, double *sum)
{
    switch (v.type()) {
    case simdjson::ondemand::json_type::number:
        *sum += double(v.get_double());
        break;
    case simdjson::ondemand::json_type::array:
        for (auto x : v.get_array())
            simd_visit(x.value(), sum);
        break;
    case simdjson::ondemand::json_type::object:
        for (auto f : v.get_object())
            simd_visit(f.value(), sum);
        break;
    default:
        break;
    }
}

int run_simdjson(const char *path, size_t *n, double *sum)
{
    simdjson::padded_string text;
    if (simdjson::padded_string::load(path).get(text))
        return -1;
    simdjson::ondemand::parser parser;
    simdjson::ondemand::document doc;
    if (parser.iterate(text).get(doc))
        return -1;
    size_t count = 0;
    for (auto f : doc.get_object()) {
        std::string_view key = f.unescaped_key();
        if (key != "processors")
            continue;
        for (auto p : f.value().get_array()) {
            simd_visit(p.value(), sum);
            count++;
        }
    }
    *n = count;
    return 0;
}
#define RUN run_simdjson
#endif

} // namespace

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: json_candidates_%s FILE\n", CANDIDATE);
        return 2;
    }
    auto t0 = std::chrono::steady_clock::now();
    size_t n = 0;
    double sum = 0;
    int rc = RUN(argv[1], &n, &sum);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (rc != 0) {
        std::fprintf(stderr, "%s: cannot read %s\n", CANDIDATE, argv[1]);
        return 1;
    }
    std::printf("%-9s %9zu processors  sum %.17g  %7.3f s  peak %8.1f MB\n", CANDIDATE, n, sum,
                s, peak_mb());
    return 0;
}
