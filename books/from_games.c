/* Book entries from the match runner's game records, weighted by the games' results. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "../games/records.h"
#include "build.h"

/* Twelfths of a point are exact for every score the runner writes: halves, quarters, thirds. */
enum { WEIGHT_PER_POINT = 12 };

/* "1-0", "1/2-1/2", "3/4-1/4" (one score per army) into each army's weight; false if malformed. */
static bool result_weights(const char *result, int nplayers, uint32_t weight[MAX_PLAYERS])
{
    const char *s = result;
    for (int p = 0; p < nplayers; p++) {
        char *end = (char *)s;
        long num = isdigit((unsigned char)*s) ? strtol(s, &end, 10) : -1, den = 1;
        if (num >= 0 && *end == '/') {
            s = end + 1;
            den = isdigit((unsigned char)*s) ? strtol(s, &end, 10) : 0;
        }
        if (num < 0 || den < 1 || den > 1000000 || num > den || *end != (p + 1 < nplayers ? '-' : 0))
            return false;
        weight[p] = (uint32_t)((num * WEIGHT_PER_POINT * 2 + den) / (2 * den));
        s = end + 1;
    }
    return true;
}

/* Replays one game, adding an entry per move of its first max_ply plies. */
static bool add_game(struct book_entries *l, struct game *g, const struct record_game *rg, const uint32_t weight[],
                     int max_ply, const char *path, char *err, size_t errlen)
{
    char why[512];
    if (!game_set_position(g, rg->fen, NULL, 0, why, sizeof why)) {
        snprintf(err, errlen, "%s:%d: bad FEN tag: %s", path, rg->line, why);
        return false;
    }
    for (int i = 0; i < rg->nmoves && i < max_ply; i++) {
        struct book_entry e = { .key = game_key(g), .weight = weight[game_side(g)],
                                .learn = 1 };
        move_t m;
        if (!game_parse_move(g, rg->moves[i].text, &m, why, sizeof why)) {
            snprintf(err, errlen, "%s:%d: the game's move %d: %s", path, rg->line, i + 1, why);
            return false;
        }
        book_entry_set_move(g->v, m, &e);
        if (!book_entries_add(l, &e)) {
            snprintf(err, errlen, "out of memory");
            return false;
        }
        game_play(g, m, NULL);
    }
    return true;
}

bool book_add_games(struct book_entries *l, const struct variant *v, const char *path, int max_ply,
                    struct games_stats *st, char *err, size_t errlen)
{
    struct records r;
    struct record_game rg;
    struct game g = { 0 };
    uint32_t weight[MAX_PLAYERS];
    if (!records_open(&r, path, err, errlen))
        return false;
    bool ok = game_init(&g, v, false, err, errlen);
    for (int got; ok && (got = records_next(&r, &rg, err, errlen)) != 0;) {
        ok = got > 0;
        if (!ok)
            break;
        st->games++;
        if (!rg.variant || !rg.result) {
            snprintf(err, errlen, "%s:%d: the game has no %s tag", path, rg.line, rg.variant ? "Result" : "Variant");
            ok = false;
        } else if (strcmp(rg.variant, v->name)) {
            st->other_variant++;
        } else if (!strcmp(rg.result, "*")) {
            st->unscored++;
        } else if (!result_weights(rg.result, v->nplayers, weight)) {
            snprintf(err, errlen, "%s:%d: bad Result tag '%s' for %d players", path, rg.line, rg.result, v->nplayers);
            ok = false;
        } else {
            ok = add_game(l, &g, &rg, weight, max_ply, path, err, errlen);
            st->used += ok;
        }
    }
    records_close(&r);
    game_free(&g);
    return ok;
}

size_t book_drop_rare(struct book_entries *l, uint32_t min_games)
{
    size_t kept = 0, before;
    book_entries_combine(l);
    before = l->n;
    for (size_t i = 0; i < l->n; i++)
        if (l->e[i].learn >= min_games)
            l->e[kept++] = l->e[i];
    l->n = kept;
    return before - kept;
}
