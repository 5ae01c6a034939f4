#include "game.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

bool game_init(struct game *g, const struct variant *v, bool wide, char *err, size_t errlen)
{
    struct game fresh = { .v = v, .ops = instance_for(v, wide) };
    fresh.tb = fresh.ops->tables_new(v);
    fresh.pos = fresh.tb ? fresh.ops->position_new(fresh.tb) : NULL;
    if (!fresh.pos || !game_set_position(&fresh, NULL, NULL, 0, err, errlen)) {
        if (!fresh.pos)
            snprintf(err, errlen, "out of memory");
        game_free(&fresh);
        return false;
    }
    game_free(g);
    *g = fresh;
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
    int n = g->ops->movegen_legal(g->pos, list);
    for (int i = 0; i < n; i++) {
        move_to_text(g->v, list[i], have);
        if (!strcmp(have, want)) {
            *m = list[i];
            return true;
        }
    }
    snprintf(err, errlen, "illegal move '%s'", text);
    return false;
}

/* Resolves the turn and notes the armies it took off. */
static void game_resolve(struct game *g)
{
    enum turn_end end;
    unsigned before = g->ops->position_armies(g->pos);
    g->ops->position_resolve(g->pos, &end);
    for (unsigned gone = before & ~g->ops->position_armies(g->pos); gone; gone &= gone - 1)
        g->eliminated[g->neliminated++] = __builtin_ctz(gone);
}

void game_play(struct game *g, move_t m)
{
    g->ops->position_make(g->pos, m);
    game_resolve(g);
    g->ops->position_trim_history(g->pos);
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
            game_play(&trial, m);
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

void game_fen(const struct game *g, char *fen, size_t len)
{
    struct setup s;
    g->ops->position_get(g->pos, &s);
    setup_to_fen(&s, g->v, fen, len);
}

/* Mate and stalemate come first: a mating move ends the game even on the 100th ply. */
struct game_status game_status(struct game *g)
{
    const struct variant *v = g->v;
    move_t list[MAX_MOVES];
    struct setup s;
    g->ops->position_get(g->pos, &s);
    if (!g->ops->movegen_legal(g->pos, list)) {
        if (g->ops->position_in_check(g->pos))
            return (struct game_status){ GAME_CHECKMATE, 0, 1 };
        return (struct game_status){ GAME_STALEMATE, v->stalemate_den - v->stalemate_num, v->stalemate_den };
    }
    if (g->ops->position_repetitions(g->pos) >= 2)
        return (struct game_status){ GAME_REPETITION, 1, 2 };
    if (s.halfmove >= 100)
        return (struct game_status){ GAME_FIFTY_MOVES, 1, 2 };
    return (struct game_status){ GAME_ONGOING, 0, 0 };
}

void game_status_text(const struct game *g, struct game_status st, char *out, size_t len)
{
    static const char *const names[] = { "", "checkmate", "stalemate", "draw by threefold repetition",
                                         "draw by the 100-ply rule" };
    const struct variant *v = g->v;
    int side = g->ops->position_side(g->pos), n = 0;
    out[0] = 0;
    if (st.outcome == GAME_ONGOING)
        return;
    n = snprintf(out, len, "%s: %c scores %d/%d", names[st.outcome], v->colour_letter[side], st.num, st.den);
    for (int p = 0; p < v->nplayers && n > 0 && (size_t)n < len; p++)
        if (p != side)
            n += snprintf(out + n, len - (size_t)n, ", %c %d/%d", v->colour_letter[p], st.den - st.num, st.den);
}
