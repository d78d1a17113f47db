/* Locating a value of a JSON text by its path (see json_locate.h). The text has already
 * been accepted by jansson, so the walk only needs to skip values, not to validate them. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "io/json_locate.h"

/* Keys up to this many bytes are decoded on the stack (every key of the contract is). */
#define KEY_STACK_BYTES 128
/* UTF-16 surrogates: a high one in [0xD800, 0xDC00) followed by a low one in
 * [0xDC00, 0xE000) encodes a code point from 0x10000 on. */
#define SURROGATE_HIGH 0xD800
#define SURROGATE_LOW 0xDC00
#define SURROGATE_END 0xE000
#define SUPPLEMENTARY_FIRST 0x10000

typedef struct scan {
    const char *s;
    size_t len, pos;
} scan;

static void skip_ws(scan *sc)
{
    while (sc->pos < sc->len) {
        char c = sc->s[sc->pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            break;
        sc->pos++;
    }
}

static int peek(const scan *sc)
{
    return sc->pos < sc->len ? (unsigned char)sc->s[sc->pos] : -1;
}

static int hex4(const char *p, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (unsigned)(c - 'A' + 10);
        else
            return -1;
    }
    *out = v;
    return 0;
}

static size_t put_utf8(char *out, unsigned cp)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Reads a string at pos (on its opening quote). When out is not NULL, decodes it there;
 * out must hold the raw length of the string plus one byte, which always suffices. */
static int read_string(scan *sc, char *out)
{
    if (peek(sc) != '"')
        return -1;
    sc->pos++;
    size_t o = 0;
    while (sc->pos < sc->len) {
        char c = sc->s[sc->pos++];
        if (c == '"') {
            if (out)
                out[o] = '\0';
            return 0;
        }
        if (c != '\\') {
            if (out)
                out[o++] = c;
            continue;
        }
        if (sc->pos >= sc->len)
            return -1;
        char e = sc->s[sc->pos++];
        unsigned cp = 0;
        switch (e) {
        case 'b': cp = '\b'; break;
        case 'f': cp = '\f'; break;
        case 'n': cp = '\n'; break;
        case 'r': cp = '\r'; break;
        case 't': cp = '\t'; break;
        case 'u':
            if (sc->pos + 4 > sc->len || hex4(sc->s + sc->pos, &cp) != 0)
                return -1;
            sc->pos += 4;
            if (cp >= SURROGATE_HIGH && cp < SURROGATE_LOW && sc->pos + 6 <= sc->len &&
                sc->s[sc->pos] == '\\' && sc->s[sc->pos + 1] == 'u') {
                unsigned lo;
                if (hex4(sc->s + sc->pos + 2, &lo) == 0 && lo >= SURROGATE_LOW &&
                    lo < SURROGATE_END) {
                    cp = SUPPLEMENTARY_FIRST + ((cp - SURROGATE_HIGH) << 10) + (lo - SURROGATE_LOW);
                    sc->pos += 6;
                }
            }
            break;
        default: cp = (unsigned char)e; break;
        }
        if (out)
            o += put_utf8(out + o, cp);
    }
    return -1;
}

static int skip_value(scan *sc);

static int skip_container(scan *sc, char open, char close)
{
    sc->pos++; /* the opening bracket */
    skip_ws(sc);
    if (peek(sc) == close) {
        sc->pos++;
        return 0;
    }
    for (;;) {
        skip_ws(sc);
        if (open == '{') {
            if (read_string(sc, NULL) != 0)
                return -1;
            skip_ws(sc);
            if (peek(sc) != ':')
                return -1;
            sc->pos++;
        }
        if (skip_value(sc) != 0)
            return -1;
        skip_ws(sc);
        int c = peek(sc);
        sc->pos++;
        if (c == close)
            return 0;
        if (c != ',')
            return -1;
    }
}

static int skip_value(scan *sc)
{
    skip_ws(sc);
    int c = peek(sc);
    if (c == '{')
        return skip_container(sc, '{', '}');
    if (c == '[')
        return skip_container(sc, '[', ']');
    if (c == '"')
        return read_string(sc, NULL);
    if (c < 0)
        return -1;
    while (sc->pos < sc->len) {
        c = sc->s[sc->pos];
        if (c == ',' || c == ']' || c == '}' || c == ' ' || c == '\t' || c == '\n' || c == '\r')
            break;
        sc->pos++;
    }
    return 0;
}

/* Skips the value at pos and the comma after it: the value must not be the last one of
 * its object or array. */
static int skip_past(scan *sc)
{
    if (skip_value(sc) != 0)
        return -1;
    skip_ws(sc);
    if (peek(sc) != ',')
        return -1;
    sc->pos++;
    return 0;
}

/* Moves to the value of member `key` of the object at pos; with at_key, to its key. */
static int enter_member(scan *sc, const char *key, int at_key)
{
    if (peek(sc) != '{')
        return -1;
    sc->pos++;
    size_t want = strlen(key);
    for (;;) {
        skip_ws(sc);
        if (peek(sc) != '"')
            return -1;
        size_t start = sc->pos;
        if (read_string(sc, NULL) != 0)
            return -1;
        size_t raw = sc->pos - start;
        char small[KEY_STACK_BYTES];
        char *buf = raw < sizeof small ? small : malloc(raw + 1);
        if (buf == NULL)
            return -1;
        sc->pos = start;
        int again = read_string(sc, buf);
        DLS__ASSERT(again == 0); /* the same string was just read without decoding */
        (void)again;
        int match = strlen(buf) == want && memcmp(buf, key, want) == 0;
        if (buf != small)
            free(buf);
        skip_ws(sc);
        if (peek(sc) != ':')
            return -1;
        sc->pos++;
        skip_ws(sc);
        if (match) {
            if (at_key)
                sc->pos = start;
            return 0;
        }
        if (skip_past(sc) != 0)
            return -1;
    }
}

static int enter_element(scan *sc, size_t index)
{
    if (peek(sc) != '[')
        return -1;
    sc->pos++;
    for (size_t i = 0;; i++) {
        skip_ws(sc);
        if (peek(sc) == ']' || peek(sc) < 0)
            return -1;
        if (i == index)
            return 0;
        if (skip_past(sc) != 0)
            return -1;
    }
}

static void position(const char *text, size_t pos, int *line, int *column)
{
    int l = 1, c = 1;
    for (size_t i = 0; i < pos; i++) {
        unsigned char ch = (unsigned char)text[i];
        if (ch == '\n') {
            l++;
            c = 1;
        } else if ((ch & 0xC0) != 0x80) {
            c++; /* count characters, not UTF-8 continuation bytes */
        }
    }
    *line = l;
    *column = c;
}

int dls__json_locate(const char *text, size_t len, const dls__jstep *path, size_t depth,
                     int at_key, int *line, int *column)
{
    scan sc = {text, len, 0};
    skip_ws(&sc);
    size_t best = sc.pos;
    int found = 0;
    size_t d = 0;
    for (; d < depth; d++) {
        int last = d + 1 == depth;
        int r = path[d].key ? enter_member(&sc, path[d].key, last && at_key)
                            : enter_element(&sc, path[d].index);
        if (r != 0)
            break;
        skip_ws(&sc);
        best = sc.pos;
    }
    found = d == depth;
    position(text, best < len ? best : len, line, column);
    return found ? 0 : -1;
}
