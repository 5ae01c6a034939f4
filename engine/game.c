/* A game: variant, instance and position, changed only by complete valid commands; game status. */
#include "game.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "../eval/nnue.h"
#include "instance.h"
#include "san.h"

bool game_init(struct game *g, const struct variant *v, bool wide, char *err, size_t errlen)
{
    struct game fresh = { .v = v, .ops = instance_for(v, wide), .nets = g->nets };
    fresh.tb = fresh.ops->tables_new(v);
    fresh.pos = fresh.tb ? fresh.ops->position_new(fresh.tb) : NULL;
    if (!fresh.pos || !game_set_position(&fresh, NULL, NULL, 0, err, errlen)) {
        if (!fresh.pos)
            snprintf(err, errlen, "out of memory");
        game_free(&fresh);
        return false;
    }
    if (fresh.nets)
        game_use_nets(&fresh, fresh.nets);
    game_free(g);
    *g = fresh;
    return true;
}

void game_use_nets(struct game *g, const struct nnue_choice *nets)
{
    g->nets = nets;
    g->ops->nnue_attach(g->tb, g->pos, nnue_choice_for(nets, g->v));
}

bool game_load_weights(struct game *g, const struct eval_params *p, char *err, size_t errlen)
{
    if (!g->ops->eval_load(g->tb, p)) {
        snprintf(err, errlen, "out of memory: the evaluation keeps its weights");
        return false;
    }
    g->ops->position_rescore(g->pos);
    return true;
}

bool game_validate_variant(const struct variant *v, char *err, size_t errlen)
{
    struct game g = { 0 };
    bool ok = game_init(&g, v, false, err, errlen);
    game_free(&g);
    return ok;
}

void game_free(struct game *g)
{
    if (g->ops) {
        g->ops->position_free(g->pos);
        g->ops->tables_free(g->tb);
    }
    memset(g, 0, sizeof *g);
}

int game_legal_moves(const struct game *g, move_t *list)
{
    if (g->v->nplayers > 2 && __builtin_popcount(game_armies(g)) < 2)
        return 0;
    return g->ops->movegen_legal(g->pos, list);
}

bool game_parse_move(struct game *g, const char *text, move_t *m, char *err, size_t errlen)
{
    char want[16], have[16];
    size_t len = strlen(text);
    if (len >= sizeof want) {
        snprintf(err, errlen, "bad move '%.20s...'", text);
        return false;
    }
    for (size_t i = 0; i <= len; i++)
        want[i] = (char)tolower((unsigned char)text[i]);
    move_t list[MAX_MOVES];
    int n = game_legal_moves(g, list);
    for (int i = 0; i < n; i++) {
        move_to_text(g->v, list[i], have);
        if (!strcmp(have, want)) {
            *m = list[i];
            return true;
        }
    }
    return san_read(g, text, m, err, errlen);
}

unsigned game_armies(const struct game *g)
{
    return g->ops->position_armies(g->pos);
}

static void game_note_eliminated(struct game *g, unsigned left)
{
    for (; left; left &= left - 1)
        g->eliminated[g->neliminated++] = __builtin_ctz(left);
}

/* Resolves the turn of a position just set and notes the armies it took off. */
static void game_resolve(struct game *g)
{
    enum turn_end end;
    unsigned before = game_armies(g);
    g->ops->position_resolve(g->pos, &end);
    game_note_eliminated(g, before & ~game_armies(g));
}

bool game_set_position(struct game *g, const char *fen, char *const *moves, int nmoves, char *err, size_t errlen)
{
    struct setup s;
    if (!setup_from_fen(&s, g->v, fen ? fen : g->v->start_fen, err, errlen))
        return false;
    struct position *pos = g->ops->position_new(g->tb);
    if (!pos) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    struct game trial = *g;
    trial.pos = pos;
    trial.neliminated = 0;
    /* Three players: each turn starts resolved (armies the rules remove are gone). */
    bool ok = g->ops->position_set(pos, &s, err, errlen);
    if (ok)
        game_resolve(&trial);
    for (int i = 0; ok && i < nmoves; i++) {
        move_t m;
        ok = game_parse_move(&trial, moves[i], &m, err, errlen);
        if (ok)
            game_note_eliminated(&trial, game_play(&trial, m, NULL));
    }
    if (!ok) {
        g->ops->position_free(pos);
        return false;
    }
    if (g->pos)
        g->ops->position_free(g->pos);
    *g = trial;
    return true;
}

unsigned game_play(struct game *g, move_t m, unsigned *mated)
{
    enum turn_end end;
    unsigned left = 0, mate = 0;
    g->ops->position_make(g->pos, m);
    int removed = g->ops->position_resolve(g->pos, &end);
    /* The removals are undone one at a time to see who left and whether it was the army to move
     * (mated: a capture threat never takes off the player to move); then the turn is resolved again. */
    for (int i = 0; i < removed; i++) {
        unsigned on_board = game_armies(g);
        g->ops->position_unresolve(g->pos, 1);
        unsigned back = game_armies(g) & ~on_board;
        left |= back;
        if (back & 1u << g->ops->position_side(g->pos))
            mate |= back;
    }
    if (removed)
        g->ops->position_resolve(g->pos, &end);
    g->ops->position_trim_history(g->pos);
    if (mated)
        *mated = mate;
    return left;
}

void game_fen(const struct game *g, char *fen, size_t len)
{
    struct setup s;
    g->ops->position_get(g->pos, &s);
    setup_to_fen(&s, g->v, fen, len);
}

void game_setup(const struct game *g, struct setup *s)
{
    g->ops->position_get(g->pos, s);
}

bool game_set_setup(struct game *g, const struct setup *s, char *err, size_t errlen)
{
    if (!g->ops->position_set(g->pos, s, err, errlen))
        return false;
    g->neliminated = 0;
    return true;
}

int game_side(const struct game *g)
{
    return g->ops->position_side(g->pos);
}

bool game_in_check(const struct game *g)
{
    return g->ops->position_in_check(g->pos);
}

uint64_t game_key(const struct game *g)
{
    return g->ops->position_key(g->pos);
}

int game_bits(const struct game *g)
{
    return g->ops->bits;
}

uint64_t game_perft(struct game *g, int depth, const atomic_bool *stop)
{
    return g->ops->perft(g->pos, depth, stop);
}

uint64_t game_perft_move(struct game *g, move_t m, int depth, const atomic_bool *stop)
{
    g->ops->position_make(g->pos, m);
    uint64_t count = g->ops->perft(g->pos, depth, stop);
    g->ops->position_unmake(g->pos, m);
    return count;
}

void game_piece_reach(const struct game *g, int player, int type, int from, bool quiet[MAX_CELLS],
                      bool capture[MAX_CELLS])
{
    g->ops->piece_reach(g->tb, player, type, from, quiet, capture);
}

int game_evaluate(const struct game *g, const struct eval_weights *w, struct eval_trace *trace)
{
    return g->ops->evaluate(g->tb, g->pos, w, trace);
}

const struct eval_params *game_eval_params(const struct game *g)
{
    return g->ops->eval_params(g->tb);
}

int game_nnue_evaluate(const struct game *g)
{
    return g->ops->nnue_evaluate(g->tb, g->pos);
}

/* Mate and stalemate come first: a mating move ends the game even on the 100th ply. Three players:
 * the turn is resolved (game_set_position, game_play), so a player left without a move is not in
 * check but stalemated, and the armies still on the board share every draw. */
struct game_status game_status(struct game *g)
{
    const struct variant *v = g->v;
    move_t list[MAX_MOVES];
    struct setup s;
    struct game_status st = { GAME_ONGOING, 0, 0, { 0 } };
    unsigned armies = game_armies(g);
    int side = g->ops->position_side(g->pos);
    g->ops->position_get(g->pos, &s);
    if (v->nplayers > 2 && __builtin_popcount(armies) == 1)
        st.outcome = GAME_LAST_ARMY;
    else if (!g->ops->movegen_legal(g->pos, list))
        st.outcome = v->nplayers == 2 && g->ops->position_in_check(g->pos) ? GAME_CHECKMATE : GAME_STALEMATE;
    else if (g->ops->position_repetitions(g->pos) >= 2)
        st.outcome = GAME_REPETITION;
    else if (s.halfmove >= 100)
        st.outcome = GAME_FIFTY_MOVES;
    if (st.outcome == GAME_ONGOING)
        return st;
    if (v->nplayers > 2) {
        st.den = __builtin_popcount(armies);
        for (int p = 0; p < v->nplayers; p++)
            st.score[p] = armies >> p & 1;
    } else if (st.outcome == GAME_CHECKMATE) {
        st.den = 1;
        st.score[1 - side] = 1;
    } else {
        bool stalemate = st.outcome == GAME_STALEMATE;
        st.den = stalemate ? v->stalemate_den : 2;
        st.score[side] = stalemate ? v->stalemate_den - v->stalemate_num : 1;
        st.score[1 - side] = st.den - st.score[side];
    }
    st.num = st.score[side];
    return st;
}

void game_status_text(const struct game *g, struct game_status st, char *out, size_t len)
{
    static const char *const names[] = { "", "checkmate", "stalemate", "draw by threefold repetition",
                                         "draw by the 100-ply rule", "last army on the board" };
    const struct variant *v = g->v;
    int side = g->ops->position_side(g->pos), n = 0;
    out[0] = 0;
    if (st.outcome == GAME_ONGOING)
        return;
    n = snprintf(out, len, "%s: %c scores %d/%d", names[st.outcome], v->colour_letter[side], st.num, st.den);
    for (int p = 0; p < v->nplayers && n > 0 && (size_t)n < len; p++)
        if (p != side)
            n += snprintf(out + n, len - (size_t)n, ", %c %d/%d", v->colour_letter[p], st.score[p], st.den);
}
