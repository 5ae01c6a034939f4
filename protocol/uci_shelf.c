/* The games of the variants played before, kept so that switching back to one (a GUI's variant list,
 * a fuzzer's reset) costs no table building: the move generator's and evaluation's tables of a
 * 169-cell variant take milliseconds to build. */
#include <string.h>

#include "uci_engine.h"

/* Puts the current game on the shelf, the least recently used one leaving it when it is full. */
static void shelf_put(struct uci *u)
{
    struct shelved *slot = &u->shelf[0];
    for (int i = 0; i < SHELF_SIZE; i++) {
        if (!u->shelf[i].game.v) {
            slot = &u->shelf[i];
            break;
        }
        if (u->shelf[i].used < slot->used)
            slot = &u->shelf[i];
    }
    game_free(&slot->game);
    *slot = (struct shelved){ .game = u->game, .weights_epoch = u->weights_epoch, .used = ++u->shelf_clock };
    memset(&u->game, 0, sizeof u->game);
}

/* v's game from the shelf into g if one is there with the weights in use; a stale one is dropped. */
static bool shelf_take(struct uci *u, const struct variant *v, struct game *g)
{
    for (int i = 0; i < SHELF_SIZE; i++) {
        struct shelved *s = &u->shelf[i];
        if (s->game.v != v)
            continue;
        bool fresh = s->weights_epoch == u->weights_epoch;
        if (fresh)
            *g = s->game;
        else
            game_free(&s->game);
        memset(s, 0, sizeof *s);
        return fresh;
    }
    return false;
}

bool shelf_switch(struct uci *u, const struct variant *v, bool *built, char *err, size_t errlen)
{
    struct game g = { 0 };
    if (u->game.v == v)
        g = u->game;
    *built = !g.v && !shelf_take(u, v, &g);
    if (*built && !game_init(&g, v, false, err, errlen))
        return false;
    /* The nets may have changed since it was shelved (EvalFile, UseNNUE): chosen again before the
     * start position's accumulators are computed. */
    game_use_nets(&g, &u->nets);
    if (!*built && !game_set_position(&g, NULL, NULL, 0, err, errlen)) {
        if (g.tb != u->game.tb)
            game_free(&g);
        return false;
    }
    if (g.tb != u->game.tb && u->game.v)
        shelf_put(u);
    u->game = g;
    return true;
}

void shelf_free(struct uci *u)
{
    for (int i = 0; i < SHELF_SIZE; i++)
        game_free(&u->shelf[i].game);
}
