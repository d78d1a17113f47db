/* Quantities with their unit ("64 GiB", "6.25 MB/s", "250 us") read into bytes, bytes per
 * second and seconds: see platform_units.h. */
#include <config.h>

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/platform_units.h"

/* A unit: the number is multiplied by 10^dec and 2^bin, both exact in effect (the decimal
 * exponent is shifted before rounding, powers of two are exact). */
typedef struct unit {
    const char *name;
    int dec, bin;
} unit;

static const unit bytes_units[] = {
    {"B", 0, 0},    {"kB", 3, 0},    {"MB", 6, 0},    {"GB", 9, 0},    {"TB", 12, 0},
    {"KiB", 0, 10}, {"MiB", 0, 20},  {"GiB", 0, 30},  {"TiB", 0, 40},  {NULL, 0, 0},
};

static const unit bandwidth_units[] = {
    {"B/s", 0, 0},     {"kB/s", 3, 0},    {"MB/s", 6, 0},    {"GB/s", 9, 0},
    {"TB/s", 12, 0},   {"KiB/s", 0, 10},  {"MiB/s", 0, 20},  {"GiB/s", 0, 30},
    {"TiB/s", 0, 40},  {"bit/s", 0, -3},  {"kbit/s", 3, -3}, {"Mbit/s", 6, -3},
    {"Gbit/s", 9, -3}, {"Tbit/s", 12, -3}, {NULL, 0, 0},
};

/* "µs" is accepted with the micro sign (U+00B5) and with the Greek mu (U+03BC). */
static const unit seconds_units[] = {
    {"s", 0, 0},          {"ms", -3, 0},        {"us", -6, 0},
    {"\xc2\xb5s", -6, 0}, {"\xce\xbcs", -6, 0}, {"ns", -9, 0},
    {NULL, 0, 0},
};

static const unit *units_of(dls__quantity q)
{
    switch (q) {
    case DLS__Q_BYTES: return bytes_units;
    case DLS__Q_BANDWIDTH: return bandwidth_units;
    case DLS__Q_SECONDS: return seconds_units;
    }
    return bytes_units;
}

const char *dls__quantity_units(dls__quantity q)
{
    switch (q) {
    case DLS__Q_BYTES: return "B, kB, MB, GB, TB, KiB, MiB, GiB, TiB";
    case DLS__Q_BANDWIDTH:
        return "B/s, kB/s, MB/s, GB/s, TB/s, KiB/s, MiB/s, GiB/s, TiB/s, bit/s, kbit/s, "
               "Mbit/s, Gbit/s, Tbit/s";
    case DLS__Q_SECONDS: return "s, ms, us (or \xc2\xb5s), ns";
    }
    return "";
}

static const char *quantity_word(dls__quantity q)
{
    switch (q) {
    case DLS__Q_BYTES: return "a size";
    case DLS__Q_BANDWIDTH: return "a bandwidth";
    case DLS__Q_SECONDS: return "a time";
    }
    return "a quantity";
}

/* The longest number read (digits of the mantissa, with its sign and point). */
#define NUMBER_MAX 400
/* An unknown unit is shown in messages up to this many bytes. */
#define UNIT_SHOWN_MAX 32
/* Exponents are clamped to this magnitude: far beyond any double, so that the number
 * still overflows or underflows as it should. */
#define EXPONENT_CLAMP 100000

static int is_digit(char ch)
{
    return ch >= '0' && ch <= '9';
}

/* The number at the head of s (n bytes) in JSON's syntax: its mantissa span and its
 * exponent. Returns the bytes used, 0 when there is no number. */
static size_t scan_number(const char *s, size_t n, size_t *mant_len, long *exponent)
{
    size_t k = 0;
    if (k < n && s[k] == '-')
        k++;
    size_t digits = k;
    while (k < n && is_digit(s[k]))
        k++;
    if (k == digits)
        return 0;
    if (k < n && s[k] == '.') {
        size_t frac = ++k;
        while (k < n && is_digit(s[k]))
            k++;
        if (k == frac)
            return 0;
    }
    *mant_len = k;
    *exponent = 0;
    if (k < n && (s[k] == 'e' || s[k] == 'E')) {
        size_t e = k + 1;
        int neg = 0;
        if (e < n && (s[e] == '+' || s[e] == '-'))
            neg = s[e++] == '-';
        size_t first = e;
        long v = 0;
        while (e < n && is_digit(s[e])) {
            if (v < EXPONENT_CLAMP)
                v = v * 10 + (s[e] - '0');
            e++;
        }
        if (e == first)
            return 0;
        *exponent = neg ? -v : v;
        k = e;
    }
    return k;
}

int dls__parse_quantity(const char *text, size_t len, dls__quantity q, double *out, char *why,
                        size_t size)
{
    size_t k = 0;
    while (k < len && text[k] == ' ')
        k++;
    size_t mant_len = 0;
    long exponent = 0;
    size_t used = scan_number(text + k, len - k, &mant_len, &exponent);
    if (used == 0) {
        snprintf(why, size, "must be %s: a number, then its unit (%s)", quantity_word(q),
                 dls__quantity_units(q));
        return 1;
    }
    if (mant_len > NUMBER_MAX) {
        snprintf(why, size, "has a number of more than %d characters", NUMBER_MAX);
        return 1;
    }
    const char *mant = text + k;
    k += used;
    while (k < len && text[k] == ' ')
        k++;
    size_t end = len;
    while (end > k && text[end - 1] == ' ')
        end--;
    const unit *u = NULL;
    for (const unit *c = units_of(q); c->name != NULL; c++)
        if (strlen(c->name) == end - k && memcmp(c->name, text + k, end - k) == 0)
            u = c;
    if (u == NULL) {
        if (end == k)
            snprintf(why, size, "has no unit: give one of %s (or write the number without "
                     "quotes in the base unit)", dls__quantity_units(q));
        else {
            /* the unit as typed, its control characters shown as '?' (the caller quotes
             * the whole value escaped) */
            char typed[UNIT_SHOWN_MAX + 1];
            size_t m = end - k < UNIT_SHOWN_MAX ? end - k : UNIT_SHOWN_MAX;
            for (size_t j = 0; j < m; j++) {
                unsigned char ch = (unsigned char)text[k + j];
                typed[j] = ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
            }
            typed[m] = '\0';
            snprintf(why, size, "has an unknown unit \"%s\" for %s: give one of %s", typed,
                     quantity_word(q), dls__quantity_units(q));
        }
        return 1;
    }
    /* the decimal prefix moves the exponent, so that one rounding gives the double
     * nearest the quantity the person wrote */
    char buf[NUMBER_MAX + 32];
    long e = exponent + u->dec;
    snprintf(buf, sizeof buf, "%.*se%ld", (int)mant_len, mant, e);
    double v = ldexp(strtod(buf, NULL), u->bin);
    if (!isfinite(v)) {
        snprintf(why, size, "is not a finite number");
        return 1;
    }
    *out = v;
    return 0;
}
