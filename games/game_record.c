/* The record of a game: moves written down as they are played, the ending and its reason. */
#include "game_record.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *play_colour_name(const struct variant *v, int colour)
{
    /* variant.c gives the armies the letters "wb", "rwb" or "wrbg". */
    static const char letters[] = "rwbg";
    static const char *const names[] = { "Red", "White", "Black", "Green" };
    return names[strchr(letters, v->colour_letter[colour]) - letters];
}

void game_record_reason(struct game_record *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->reason, sizeof r->reason, fmt, ap);
    va_end(ap);
}

void game_record_share(struct game_record *r, enum termination term, unsigned share)
{
    r->term = term;
    r->den = __builtin_popcount(share);
    for (int p = 0; p < r->narmies; p++)
        r->num[p] = share >> p & 1;
}

void game_record_fault(struct game_record *r, enum termination term, int side, unsigned armies)
{
    game_record_share(r, term, armies & ~(1u << side));
    r->culprit = side;
    r->left[side] = r->nmoves;
}

/* " shared by Red and Black" (three players; nothing with two, where a draw says it all). */
static void append_sharing(const struct variant *v, struct game_record *r, unsigned armies)
{
    size_t n = strlen(r->reason);
    int k = __builtin_popcount(armies), named = 0;
    if (v->nplayers < 3)
        return;
    n += (size_t)snprintf(r->reason + n, sizeof r->reason - n, ", shared by");
    for (int p = 0; p < v->nplayers && n < sizeof r->reason; p++)
        if (armies >> p & 1) {
            named++;
            const char *joint = named == 1 ? " " : named < k ? ", " : " and ";
            n += (size_t)snprintf(r->reason + n, sizeof r->reason - n, "%s%s", joint, play_colour_name(v, p));
        }
}

void game_record_end(const struct variant *v, struct game_record *r, struct game_status st, int side,
                     unsigned armies)
{
    static const enum termination term[] = { [GAME_CHECKMATE] = TERM_CHECKMATE, [GAME_STALEMATE] = TERM_STALEMATE,
                                             [GAME_REPETITION] = TERM_REPETITION,
                                             [GAME_FIFTY_MOVES] = TERM_FIFTY_MOVES,
                                             [GAME_LAST_ARMY] = TERM_LAST_ARMY };
    r->term = term[st.outcome];
    r->den = st.den;
    for (int p = 0; p < r->narmies; p++)
        r->num[p] = st.score[p];
    if (st.outcome == GAME_CHECKMATE) {
        game_record_reason(r, "%s mates", play_colour_name(v, 1 - side));
    } else if (st.outcome == GAME_LAST_ARMY) {
        game_record_reason(r, "%s is the last army on the board", play_colour_name(v, side));
    } else if (st.outcome == GAME_STALEMATE) {
        r->stalemated = side;
        game_record_reason(r, "%s is stalemated", play_colour_name(v, side));
    } else if (st.outcome == GAME_REPETITION) {
        game_record_reason(r, "Draw by threefold repetition");
    } else {
        game_record_reason(r, "Draw by the 100-ply rule");
    }
    if (st.outcome != GAME_LAST_ARMY)
        append_sharing(v, r, armies);
}

void movetext_move(struct text *movetext, const struct game *g, move_t m, int *fullmove)
{
    struct setup s;
    char san[SAN_LEN];
    game_setup(g, &s);
    san_write(g, m, san);
    if (movetext->len)
        text_printf(movetext, "\n");
    if (!*fullmove && s.side != 0)
        text_printf(movetext, "%d... %s", s.fullmove, san);
    else if (s.fullmove != *fullmove)
        text_printf(movetext, "%d. %s", s.fullmove, san);
    else
        text_printf(movetext, "%s", san);
    *fullmove = s.fullmove;
}

unsigned game_record_move(const struct variant *v, struct game *g, struct game_record *r, move_t m, int *fullmove,
                          const char *comment)
{
    return game_record_judged_move(v, g, r, m, fullmove, NULL, comment);
}

unsigned game_record_judged_move(const struct variant *v, struct game *g, struct game_record *r, move_t m,
                                 int *fullmove, const char *nag, const char *comment)
{
    char text[16];
    unsigned mated;
    move_to_text(g->v, m, text);
    text_printf(&r->moves, "%s%s", r->nmoves ? " " : "", text);
    movetext_move(&r->movetext, g, m, fullmove);
    if (nag)
        text_printf(&r->movetext, "%s", nag);
    if (comment)
        text_printf(&r->movetext, "\n{%s}", comment);
    unsigned left = game_play(g, m, &mated);
    r->nmoves++;
    for (int c = 0; c < r->narmies; c++)
        if (left >> c & 1) {
            r->left[c] = r->nmoves;
            text_printf(&r->movetext, "\n{%s eliminated (%s)}", play_colour_name(v, c),
                        mated >> c & 1 ? "mated" : "capture threat");
        }
    return left;
}

void game_record_free(struct game_record *r)
{
    text_free(&r->moves);
    text_free(&r->movetext);
}

bool game_record_scored(const struct game_record *r)
{
    return r->term != TERM_ABANDONED && r->term != TERM_FATAL;
}
