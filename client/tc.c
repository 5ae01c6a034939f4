/* An engine's limits in a match (tc=, st=, nodes=, depth=) and the clock the runner keeps for it. */
#include "tc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { US = 1000000 };

/* A decimal number of seconds at the start of text; *end past it. */
static bool seconds_prefix(const char *text, char **end, double *s)
{
    if (*text < '0' || *text > '9')
        return false;
    *s = strtod(text, end);
    return isfinite(*s) && *s < 1e9;
}

bool tc_parse_seconds(const char *text, long long *us)
{
    char *end;
    double s;
    if (!seconds_prefix(text, &end, &s) || *end)
        return false;
    *us = llround(s * US);
    return true;
}

bool tc_parse(const char *text, struct limits *l)
{
    const char *p = text, *slash = strchr(text, '/');
    char *end;
    double base, sec = 0, inc = 0;
    long moves = 0;
    if (slash) {
        moves = strtol(text, &end, 10);
        if (end != slash || moves < 1 || moves > 1000)
            return false;
        p = slash + 1;
    }
    if (!seconds_prefix(p, &end, &base))
        return false;
    bool minutes = *end == ':';
    if (minutes && (base != floor(base) || !seconds_prefix(end + 1, &end, &sec) || sec >= 60))
        return false;
    if (*end == '+' && !seconds_prefix(end + 1, &end, &inc))
        return false;
    base = minutes ? base * 60 + sec : base;
    if (*end || base <= 0)
        return false;
    l->moves = (int)moves;
    l->base = llround(base * US);
    l->inc = llround(inc * US);
    return true;
}

void tc_format(const struct limits *l, struct text *out)
{
    size_t start = out->len;
    if (l->base) {
        if (l->moves)
            text_printf(out, "%d/", l->moves);
        /* %g: seconds without trailing zeros (60, 0.6). */
        text_printf(out, "%g", (double)l->base / US);
        if (l->inc)
            text_printf(out, "+%g", (double)l->inc / US);
    } else if (l->movetime) {
        text_printf(out, "st=%g", (double)l->movetime / US);
    }
    if (l->nodes)
        text_printf(out, "%snodes=%lld", out->len > start ? " " : "", l->nodes);
    if (l->depth)
        text_printf(out, "%sdepth=%d", out->len > start ? " " : "", l->depth);
}

void clock_start(struct clock *c, const struct limits *l)
{
    *c = (struct clock){ .left = l->base };
}

long long clock_allowance(const struct clock *c, const struct limits *l)
{
    if (l->base)
        return c->left + l->margin;
    if (l->movetime)
        return l->movetime + l->margin;
    return -1;
}

bool clock_charge(struct clock *c, const struct limits *l, long long elapsed)
{
    long long allowed = clock_allowance(c, l);
    if (allowed >= 0 && elapsed > allowed)
        return false;
    if (!l->base)
        return true;
    /* An overstep within the margin empties the clock rather than leaving it negative. */
    c->left = (elapsed < c->left ? c->left - elapsed : 0) + l->inc;
    if (l->moves && ++c->moves == l->moves) {
        c->left += l->base;
        c->moves = 0;
    }
    return true;
}

void clock_go_args(const struct limits *const l[], const struct clock c[], const char *letters, int narmies,
                   int side, struct text *out)
{
    const struct limits *mine = l[side];
    if (mine->base) {
        for (int s = 0; s < narmies; s++)
            if (l[s]->base)
                text_printf(out, " %ctime %lld", letters[s], c[s].left / 1000);
        for (int s = 0; s < narmies; s++)
            if (l[s]->base && l[s]->inc)
                text_printf(out, " %cinc %lld", letters[s], l[s]->inc / 1000);
        if (mine->moves)
            text_printf(out, " movestogo %d", mine->moves - c[side].moves);
    } else if (mine->movetime) {
        text_printf(out, " movetime %lld", mine->movetime / 1000);
    }
    if (mine->nodes)
        text_printf(out, " nodes %lld", mine->nodes);
    if (mine->depth)
        text_printf(out, " depth %d", mine->depth);
}
