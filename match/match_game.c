/* One game of the match: players started, moves asked for and refereed, the record and its ending. */
#include "match_game.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../engine/san.h"
#include "pgn.h"

/* How long past its time a clocked engine may take to answer before it is taken for hung. */
enum { STALL_GRACE = 1000000 };

const char *play_colour_name(const struct variant *v, int colour)
{
    /* variant.c gives the armies the letters "wb", "rwb" or "wrbg". */
    static const char letters[] = "rwbg";
    static const char *const names[] = { "Red", "White", "Black", "Green" };
    return names[strchr(letters, v->colour_letter[colour]) - letters];
}

static void set_reason(struct game_record *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_reason(struct game_record *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->reason, sizeof r->reason, fmt, ap);
    va_end(ap);
}

/* The armies in `share` (bit p for army p) split the point; the others score 0. */
static void end_shared(struct game_record *r, enum termination term, unsigned share)
{
    r->term = term;
    r->den = __builtin_popcount(share);
    for (int p = 0; p < r->narmies; p++)
        r->num[p] = share >> p & 1;
}

void game_record_fault(struct game_record *r, enum termination term, int side, unsigned armies)
{
    end_shared(r, term, armies & ~(1u << side));
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
        set_reason(r, "%s mates", play_colour_name(v, 1 - side));
    } else if (st.outcome == GAME_LAST_ARMY) {
        set_reason(r, "%s is the last army on the board", play_colour_name(v, side));
    } else if (st.outcome == GAME_STALEMATE) {
        r->stalemated = side;
        set_reason(r, "%s is stalemated", play_colour_name(v, side));
    } else if (st.outcome == GAME_REPETITION) {
        set_reason(r, "Draw by threefold repetition");
    } else {
        set_reason(r, "Draw by the 100-ply rule");
    }
    if (st.outcome != GAME_LAST_ARMY)
        append_sharing(v, r, armies);
}

/* A player's failure ends the game; `allowance` >= 0 when it was thinking on a clock. */
static void end_by_failure(const struct play *p, struct game_record *r, int side, enum uci_status st,
                           long long allowance, unsigned armies)
{
    const struct player *pl = p->player[side];
    /* Engines killed by a signal to the runner look as if they crashed. */
    if (st == UCI_CANCELLED || atomic_load(p->cancel)) {
        r->term = TERM_ABANDONED;
        set_reason(r, "Abandoned: the match stopped");
        return;
    }
    if (st == UCI_FATAL)
        r->term = TERM_FATAL;
    else
        game_record_fault(r, st == UCI_CRASHED ? TERM_CRASH : allowance >= 0 ? TERM_TIME : TERM_STALL, side, armies);
    set_reason(r, "%s (%s) %s", play_colour_name(p->v, side), pl->conf->name, pl->uci.error);
}

static void position_command(const struct play *p, const struct game_record *r, struct text *out)
{
    text_clear(out);
    if (p->fen)
        text_printf(out, "position fen %s", p->fen);
    else
        text_printf(out, "position startpos");
    if (r->nmoves)
        text_printf(out, " moves %s", text_str(&r->moves));
}

unsigned game_record_move(const struct variant *v, struct game *g, struct game_record *r, move_t m, int *fullmove,
                          const char *comment)
{
    return game_record_judged_move(v, g, r, m, fullmove, NULL, comment);
}

unsigned game_record_judged_move(const struct variant *v, struct game *g, struct game_record *r, move_t m,
                                 int *fullmove, const char *nag, const char *comment)
{
    struct setup s;
    char text[16], san[SAN_LEN];
    unsigned mated;
    g->ops->position_get(g->pos, &s);
    move_to_text(g->v, m, text);
    san_write(g, m, san);
    text_printf(&r->moves, "%s%s", r->nmoves ? " " : "", text);
    if (r->nmoves)
        text_printf(&r->movetext, "\n");
    if (!r->nmoves && s.side != 0)
        text_printf(&r->movetext, "%d... %s", s.fullmove, san);
    else if (!r->nmoves || s.fullmove != *fullmove)
        text_printf(&r->movetext, "%d. %s", s.fullmove, san);
    else
        text_printf(&r->movetext, "%s", san);
    *fullmove = s.fullmove;
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

/* The moves until the game ends. */
static void play_moves(const struct play *p, struct game *g, struct game_record *r)
{
    const struct adjudication *adj = p->adj;
    const struct limits *limits[MAX_PLAYERS];
    struct clock clock[MAX_PLAYERS];
    struct text position = { 0 }, go = { 0 };
    struct adjudicator judge;
    int fullmove = 0;
    char err[256];
    adjudicator_start(&judge);
    for (int c = 0; c < r->narmies; c++) {
        limits[c] = &p->player[c]->conf->limits;
        clock_start(&clock[c], limits[c]);
    }
    for (;;) {
        struct game_status st = game_status(g);
        unsigned armies = game_armies(g);
        int side = g->ops->position_side(g->pos);
        struct player *pl = p->player[side];
        if (st.outcome != GAME_ONGOING) {
            game_record_end(p->v, r, st, side, armies);
            break;
        }
        enum adjudged verdict = adjudicator_verdict(&judge, adj, r->nmoves);
        if (verdict == ADJUDGED_RESIGN) {
            end_shared(r, TERM_RESIGNATION, armies & ~(1u << judge.resigned));
            set_reason(r, "%s resigns (adjudication)", play_colour_name(p->v, judge.resigned));
            break;
        }
        if (verdict == ADJUDGED_DRAW) {
            end_shared(r, TERM_ADJUDICATED_DRAW, armies);
            set_reason(r, "Draw by adjudication");
            break;
        }
        position_command(p, r, &position);
        text_clear(&go);
        clock_go_args(limits, clock, p->v->colour_letter, r->narmies, side, &go);
        long long allowance = clock_allowance(&clock[side], limits[side]);
        struct uci_reply reply;
        enum uci_status ps = uci_client_go(&pl->uci, text_str(&position), text_str(&go),
                                           allowance >= 0 ? allowance + STALL_GRACE : -1, p->cancel, &reply);
        if (ps != UCI_OK) {
            end_by_failure(p, r, side, ps, allowance, armies);
            break;
        }
        if (!clock_charge(&clock[side], limits[side], reply.elapsed)) {
            game_record_fault(r, TERM_TIME, side, armies);
            set_reason(r, "%s (%s) loses on time: %lld ms, allowed %lld ms", play_colour_name(p->v, side),
                       pl->conf->name, reply.elapsed / 1000, allowance / 1000);
            break;
        }
        move_t m;
        if (!game_parse_move(g, reply.move, &m, err, sizeof err)) {
            game_record_fault(r, TERM_ILLEGAL, side, armies);
            set_reason(r, "%s (%s) makes an illegal move: '%s'", play_colour_name(p->v, side), pl->conf->name,
                       reply.move[0] ? reply.move : "(none)");
            /* Its idea of the position is wrong: start afresh. */
            uci_client_end(&pl->uci, true);
            break;
        }
        char evaluation[64];
        pgn_evaluation(&reply, evaluation, sizeof evaluation);
        game_record_move(p->v, g, r, m, &fullmove, evaluation);
        adjudicator_move(&judge, adj, side, reply.has_score, reply.score);
    }
    text_free(&position);
    text_free(&go);
}

void play_game(const struct play *p, struct game_record *r)
{
    *r = (struct game_record){ .culprit = -1, .den = 1, .narmies = p->v->nplayers };
    struct game g = { 0 };
    char err[512];
    if (!game_init(&g, p->v, false, err, sizeof err) || !game_set_position(&g, p->fen, NULL, 0, err, sizeof err)) {
        r->term = TERM_FATAL;
        set_reason(r, "cannot set up the game: %s", err);
        game_free(&g);
        return;
    }
    game_fen(&g, r->fen, sizeof r->fen);
    unsigned armies = game_armies(&g);
    bool over = game_status(&g).outcome != GAME_ONGOING;
    for (int c = 0; c < r->narmies; c++) {
        /* An army missing from the opening has left before the first move. */
        r->left[c] = armies >> c & 1 ? -1 : 0;
        if (over || r->left[c] == 0)
            continue;
        struct player *pl = p->player[c];
        const struct engine_conf *e = pl->conf;
        enum uci_status st = uci_client_start(&pl->uci, e->cmd, e->option, e->noptions, p->v->name, p->cancel);
        if (st == UCI_OK)
            st = uci_client_new_game(&pl->uci, p->cancel);
        if (st != UCI_OK) {
            end_by_failure(p, r, c, st, -1, armies);
            game_free(&g);
            return;
        }
    }
    play_moves(p, &g, r);
    game_free(&g);
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
