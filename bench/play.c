#include "play.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* How long past its time a clocked engine may take to answer before it is taken for hung. */
enum { STALL_GRACE = 1000000 };

static const char *const colour_name[2] = { "White", "Black" };

static void set_reason(struct game_record *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_reason(struct game_record *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->reason, sizeof r->reason, fmt, ap);
    va_end(ap);
}

/* `side` scores num / den, the other colour the rest. */
static void end_game(struct game_record *r, enum termination term, int side, int num, int den)
{
    r->term = term;
    r->den = den;
    r->num[side] = num;
    r->num[1 - side] = den - num;
}

static void end_by_fault(struct game_record *r, enum termination term, int side)
{
    end_game(r, term, side, 0, 1);
    r->culprit = side;
}

static void end_by_rule(struct game_record *r, struct game_status st, int side)
{
    static const enum termination term[] = { [GAME_CHECKMATE] = TERM_CHECKMATE, [GAME_STALEMATE] = TERM_STALEMATE,
                                             [GAME_REPETITION] = TERM_REPETITION,
                                             [GAME_FIFTY_MOVES] = TERM_FIFTY_MOVES };
    end_game(r, term[st.outcome], side, st.num, st.den);
    if (st.outcome == GAME_CHECKMATE) {
        set_reason(r, "%s mates", colour_name[1 - side]);
    } else if (st.outcome == GAME_STALEMATE) {
        r->stalemated = side;
        set_reason(r, "%s is stalemated", colour_name[side]);
    } else if (st.outcome == GAME_REPETITION) {
        set_reason(r, "Draw by threefold repetition");
    } else {
        set_reason(r, "Draw by the 100-ply rule");
    }
}

/* A player's failure ends the game; `allowance` >= 0 when it was thinking on a clock. */
static void end_by_failure(const struct play *p, struct game_record *r, int side, enum player_status st,
                           long long allowance)
{
    const struct player *pl = p->player[side];
    /* Engines killed by a signal to the runner look as if they crashed. */
    if (st == PLAYER_CANCELLED || atomic_load(p->cancel)) {
        r->term = TERM_ABANDONED;
        set_reason(r, "Abandoned: the match stopped");
        return;
    }
    if (st == PLAYER_FATAL)
        r->term = TERM_FATAL;
    else
        end_by_fault(r, st == PLAYER_CRASHED ? TERM_CRASH : allowance >= 0 ? TERM_TIME : TERM_STALL, side);
    set_reason(r, "%s (%s) %s", colour_name[side], pl->conf->name, pl->error);
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

/* The moves until the game ends. */
static void play_moves(const struct play *p, struct game *g, struct game_record *r)
{
    const struct adjudication *adj = p->adj;
    const struct limits *limits[2] = { &p->player[0]->conf->limits, &p->player[1]->conf->limits };
    struct clock clock[2];
    struct text position = { 0 }, go = { 0 };
    int quiet_plies = 0, losing_moves[2] = { 0, 0 }, resigned = -1;
    char err[256], text[16];
    clock_start(&clock[0], limits[0]);
    clock_start(&clock[1], limits[1]);
    for (;;) {
        struct game_status st = game_status(g);
        int side = g->ops->position_side(g->pos);
        struct player *pl = p->player[side];
        if (st.outcome != GAME_ONGOING) {
            end_by_rule(r, st, side);
            break;
        }
        if (resigned >= 0) {
            end_game(r, TERM_RESIGNATION, resigned, 0, 1);
            set_reason(r, "%s resigns (adjudication)", colour_name[resigned]);
            break;
        }
        if (adj->draw_movecount && quiet_plies >= 2 * adj->draw_movecount && r->nmoves >= 2 * adj->draw_movenumber) {
            end_game(r, TERM_ADJUDICATED_DRAW, side, 1, 2);
            set_reason(r, "Draw by adjudication");
            break;
        }
        position_command(p, r, &position);
        text_clear(&go);
        clock_go_args(limits, clock, side, &go);
        long long allowance = clock_allowance(&clock[side], limits[side]);
        struct reply reply;
        enum player_status ps = player_go(pl, text_str(&position), text_str(&go),
                                          allowance >= 0 ? allowance + STALL_GRACE : -1, p->cancel, &reply);
        if (ps != PLAYER_OK) {
            end_by_failure(p, r, side, ps, allowance);
            break;
        }
        if (!clock_charge(&clock[side], limits[side], reply.elapsed)) {
            end_by_fault(r, TERM_TIME, side);
            set_reason(r, "%s (%s) loses on time: %lld ms, allowed %lld ms", colour_name[side], pl->conf->name,
                       reply.elapsed / 1000, allowance / 1000);
            break;
        }
        move_t m;
        if (!game_parse_move(g, reply.move, &m, err, sizeof err)) {
            end_by_fault(r, TERM_ILLEGAL, side);
            set_reason(r, "%s (%s) makes an illegal move: '%s'", colour_name[side], pl->conf->name,
                       reply.move[0] ? reply.move : "(none)");
            /* Its idea of the position is wrong: start afresh. */
            player_stop(pl, true);
            break;
        }
        g->ops->position_make(g->pos, m);
        g->ops->position_trim_history(g->pos);
        move_to_text(g->v, m, text);
        text_printf(&r->moves, "%s%s", r->nmoves ? " " : "", text);
        r->nmoves++;
        bool losing = reply.has_score && reply.score <= -adj->resign_score;
        losing_moves[side] = losing ? losing_moves[side] + 1 : 0;
        if (adj->resign_movecount && losing_moves[side] >= adj->resign_movecount)
            resigned = side;
        bool quiet = reply.has_score && abs(reply.score) <= adj->draw_score;
        quiet_plies = quiet ? quiet_plies + 1 : 0;
    }
    text_free(&position);
    text_free(&go);
}

void play_game(const struct play *p, struct game_record *r)
{
    *r = (struct game_record){ .culprit = -1, .den = 1 };
    struct game g = { 0 };
    struct setup s;
    char err[512];
    if (!game_init(&g, p->v, false, err, sizeof err) || !game_set_position(&g, p->fen, NULL, 0, err, sizeof err)) {
        r->term = TERM_FATAL;
        set_reason(r, "cannot set up the game: %s", err);
        game_free(&g);
        return;
    }
    game_fen(&g, r->fen, sizeof r->fen);
    g.ops->position_get(g.pos, &s);
    r->first_side = s.side;
    r->first_fullmove = s.fullmove;
    for (int c = 0; c < 2; c++) {
        enum player_status st = player_start(p->player[c], p->v->name, p->cancel);
        if (st == PLAYER_OK)
            st = player_new_game(p->player[c], p->cancel);
        if (st != PLAYER_OK) {
            end_by_failure(p, r, c, st, -1);
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
}

bool game_record_scored(const struct game_record *r)
{
    return r->term != TERM_ABANDONED && r->term != TERM_FATAL;
}
