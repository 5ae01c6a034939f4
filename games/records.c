/* Reading the match runner's game records back one game at a time, for books built from games. */
#include "records.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/file.h"

static bool fail(struct records *r, char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(err, errlen, "%s:%d: ", r->path, r->line);
    va_start(ap, fmt);
    if (n > 0 && (size_t)n < errlen)
        vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return false;
}

/* The text (len bytes at r->text, one more allocated) becomes the records to read; why not if it cannot. */
static const char *records_adopt(struct records *r, size_t len)
{
    if (memchr(r->text, 0, len))
        return "holds a NUL byte: not a game record file";
    r->at = r->text;
    r->end = r->text + len;
    *r->end = 0;
    return NULL;
}

bool records_open(struct records *r, const char *path, char *err, size_t errlen)
{
    *r = (struct records){ .path = path, .line = 1 };
    size_t len;
    if (!(r->text = file_read(path, SIZE_MAX, &len, err, errlen)))
        return false;
    const char *why = records_adopt(r, len);
    if (why) {
        snprintf(err, errlen, "%s: %s", path, why);
        records_close(r);
        return false;
    }
    return true;
}

bool records_open_text(struct records *r, const char *text, size_t len, const char *origin, char *err, size_t errlen)
{
    *r = (struct records){ .path = origin, .line = 1 };
    const char *why = !(r->text = malloc(len + 1)) ? "out of memory" : NULL;
    if (!why) {
        memcpy(r->text, text, len);
        why = records_adopt(r, len);
    }
    if (why) {
        snprintf(err, errlen, "%s: %s", origin, why);
        records_close(r);
        return false;
    }
    return true;
}

void records_close(struct records *r)
{
    free(r->text);
    free(r->moves);
    free(r->variations);
    *r = (struct records){ 0 };
}

static void skip_space(struct records *r)
{
    for (; r->at < r->end && isspace((unsigned char)*r->at); r->at++)
        r->line += *r->at == '\n';
}

/* Skips to the end of the line, or past the closing brace of a comment. */
static bool skip_until(struct records *r, char close)
{
    for (; r->at < r->end && *r->at != close; r->at++)
        r->line += *r->at == '\n';
    if (r->at == r->end)
        return false;
    r->line += *r->at == '\n';
    r->at++;
    return true;
}

/* [Name "value"]: the value is unescaped in place; Variant, FEN and Result are kept. */
static bool read_tag(struct records *r, struct record_game *g, char *err, size_t errlen)
{
    char *name = ++r->at;
    while (r->at < r->end && (isalnum((unsigned char)*r->at) || *r->at == '_'))
        r->at++;
    size_t len = (size_t)(r->at - name);
    while (r->at < r->end && (*r->at == ' ' || *r->at == '\t'))
        r->at++;
    if (!len || *r->at != '"')
        return fail(r, err, errlen, "bad tag line (expected [Name \"value\"])");
    char *value = ++r->at, *out = value;
    for (; r->at < r->end && *r->at != '"' && *r->at != '\n'; r->at++) {
        if (*r->at == '\\' && r->at + 1 < r->end && r->at[1] != '\n')
            r->at++;
        *out++ = *r->at;
    }
    if (*r->at != '"')
        return fail(r, err, errlen, "unterminated tag value");
    r->at++;
    while (r->at < r->end && (*r->at == ' ' || *r->at == '\t'))
        r->at++;
    if (*r->at != ']')
        return fail(r, err, errlen, "bad tag line (expected ']' after the value)");
    r->at++;
    *out = 0;
    name[len] = 0;
    if (g->ntags < RECORD_TAGS)
        g->tag[g->ntags++] = (struct record_tag){ name, value };
    const char **slot = len == 7 && !strncmp(name, "Variant", 7) ? &g->variant
                      : len == 3 && !strncmp(name, "FEN", 3)     ? &g->fen
                      : len == 6 && !strncmp(name, "Result", 6)  ? &g->result
                                                                 : NULL;
    if (slot)
        *slot = value;
    return true;
}

/* "*", or scores joined by '-': "1-0", "1/2-1/2", "3/4-1/4". */
static bool is_result(const char *t, size_t n)
{
    return (n == 1 && *t == '*') || (isdigit((unsigned char)*t) && memchr(t, '-', n) && strspn(t, "0123456789/-") == n);
}

/* Room for one more element of a growing array of `size`-byte elements. */
static bool reserve(struct records *r, void **array, int *cap, int n, size_t size, char *err, size_t errlen)
{
    if (n < *cap)
        return true;
    int more = *cap ? 2 * *cap : 256;
    void *grown = realloc(*array, (size_t)more * size);
    if (!grown)
        return fail(r, err, errlen, "out of memory");
    *array = grown;
    *cap = more;
    return true;
}

static bool move_fits(struct records *r, const char *t, size_t n, char *err, size_t errlen)
{
    return n < sizeof r->moves->text || fail(r, err, errlen, "bad move '%.*s...'", (int)(n < 20 ? n : 20), t);
}

static bool add_move(struct records *r, struct record_game *g, const char *t, size_t n, char *err, size_t errlen)
{
    if (!move_fits(r, t, n, err, errlen)
        || !reserve(r, (void **)&r->moves, &r->cap, g->nmoves, sizeof *r->moves, err, errlen))
        return false;
    memcpy(r->moves[g->nmoves].text, t, n);
    r->moves[g->nmoves++].text[n] = 0;
    return true;
}

/* Where the next move of a line goes: after the variation move `var`, or (var -1) after `ply` moves of
 * the main line. */
struct cursor {
    int var, ply;
};

static bool add_variation(struct records *r, struct record_game *g, const char *t, size_t n, struct cursor *at,
                          char *err, size_t errlen)
{
    if (!move_fits(r, t, n, err, errlen)
        || !reserve(r, (void **)&r->variations, &r->variations_cap, g->nvariations, sizeof *r->variations, err,
                    errlen))
        return false;
    struct record_variation *v = &r->variations[g->nvariations];
    memcpy(v->text, t, n);
    v->text[n] = 0;
    v->parent = at->var;
    v->ply = at->ply;
    *at = (struct cursor){ .var = g->nvariations++ };
    return true;
}

/* Movetext: move numbers, moves, comments, NAGs and variations (RAV), up to the result. */
static bool read_movetext(struct records *r, struct record_game *g, char *err, size_t errlen)
{
    /* The line being read, and the lines the open variations interrupted. */
    struct cursor at = { .var = -1 }, open[RECORD_NESTING];
    int depth = 0;
    for (;;) {
        skip_space(r);
        if (r->at == r->end)
            return fail(r, err, errlen, "the game that starts on line %d has no result at its end", g->line);
        if (*r->at == '{' || *r->at == ';') {
            if (!skip_until(r, *r->at == '{' ? '}' : '\n'))
                return fail(r, err, errlen, "unterminated comment");
            continue;
        }
        if (*r->at == '(') {
            /* A variation replaces the line's last move: it starts where that move was played. */
            if (at.var < 0 && (depth || !at.ply))
                return fail(r, err, errlen, "a variation '(' before any move it could replace");
            if (depth == RECORD_NESTING)
                return fail(r, err, errlen, "variations nested deeper than %d", RECORD_NESTING);
            open[depth++] = at;
            at = at.var < 0 ? (struct cursor){ .var = -1, .ply = at.ply - 1 }
                            : (struct cursor){ .var = r->variations[at.var].parent, .ply = r->variations[at.var].ply };
            r->at++;
            continue;
        }
        if (*r->at == ')') {
            if (!depth)
                return fail(r, err, errlen, "a ')' without its '('");
            at = open[--depth];
            r->at++;
            continue;
        }
        if (*r->at == '[')
            return fail(r, err, errlen, "a tag among the moves: the game that starts on line %d has no result", g->line);
        char *t = r->at;
        while (r->at < r->end && !isspace((unsigned char)*r->at) && !strchr("{;()[", *r->at))
            r->at++;
        size_t n = (size_t)(r->at - t);
        if (is_result(t, n)) {
            if (depth)
                return fail(r, err, errlen, "a variation '(' not closed before the result");
            return true;
        }
        /* A move number ("12.", "12...") may be written against its move. */
        size_t digits = strspn(t, "0123456789"), dots = digits ? strspn(t + digits, ".") : 0;
        if (digits && !dots && digits == n)
            return fail(r, err, errlen, "unexpected '%.*s' in the moves", (int)(n < 20 ? n : 20), t);
        t += dots ? digits + dots : 0;
        n -= dots ? digits + dots : 0;
        if (!n || *t == '$')
            continue;
        if (depth ? !add_variation(r, g, t, n, &at, err, errlen) : !add_move(r, g, t, n, err, errlen))
            return false;
        if (!depth)
            at.ply = g->nmoves;
    }
}

const char *records_tag(const struct record_game *g, const char *name)
{
    for (int i = 0; i < g->ntags; i++)
        if (!strcmp(g->tag[i].name, name))
            return g->tag[i].value;
    return NULL;
}

int records_next(struct records *r, struct record_game *g, char *err, size_t errlen)
{
    skip_space(r);
    *g = (struct record_game){ .line = r->line };
    if (r->at == r->end)
        return 0;
    if (*r->at != '[')
        return fail(r, err, errlen, "expected a tag such as [Event \"...\"] to start a game"), -1;
    while (*r->at == '[') {
        if (!read_tag(r, g, err, errlen))
            return -1;
        skip_space(r);
    }
    if (!read_movetext(r, g, err, errlen))
        return -1;
    g->moves = r->moves;
    g->variations = r->variations;
    return 1;
}
