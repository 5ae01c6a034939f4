/* The UCI server's output: error lines and the search's info lines, each a whole line (util/say.h). */
#include <stdio.h>
#include <string.h>

#include "uci_engine.h"

void say_error(const char *msg)
{
    /* Multi-line messages (variant files) become one line each. */
    for (const char *s = msg; *s;) {
        size_t n = strcspn(s, "\n");
        say("info string error: %.*s", (int)n, s);
        s += n + (s[n] == '\n');
    }
}

static void format_score(char *out, size_t len, int score, int armies)
{
    if (score >= SCORE_MATE_BOUND || score <= -SCORE_MATE_BOUND)
        snprintf(out, len, "mate %d", score_mate_moves(score, armies));
    else
        snprintf(out, len, "cp %d", score);
}

void say_report(void *ctx, const struct search_report *r)
{
    struct uci *u = ctx;
    char score[32], pv[MAX_PLY * 8 + 1] = "";
    size_t len = 0;
    for (int i = 0; i < r->pvlen; i++) {
        char m[16];
        move_to_text(u->game.v, r->pv[i], m);
        len += (size_t)snprintf(pv + len, sizeof pv - len, " %s", m);
    }
    format_score(score, sizeof score, r->score, r->armies);
    say("info depth %d seldepth %d multipv %d score %s%s nodes %llu nps %llu hashfull %d time %lld pv%s", r->depth,
        r->seldepth, r->multipv, score,
        r->bound == BOUND_LOWER ? " lowerbound" : r->bound == BOUND_UPPER ? " upperbound" : "",
        (unsigned long long)r->nodes, say_per_second(r->nodes, r->time_ms), r->hashfull, (long long)r->time_ms, pv);
}

void say_progress(void *ctx, const struct search_progress *p)
{
    struct uci *u = ctx;
    char m[16];
    move_to_text(u->game.v, p->currmove, m);
    say("info depth %d currmove %s currmovenumber %d", p->depth, m, p->currmove_number);
    say("info nodes %llu nps %llu hashfull %d time %lld", (unsigned long long)p->nodes,
        say_per_second(p->nodes, p->time_ms), p->hashfull, (long long)p->time_ms);
}
