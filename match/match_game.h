/* One game between UCI players, one per army, refereed by the engine's own move generator: every
 * bestmove is checked against the legal moves, the clocks are kept by the runner, and the game ends by
 * the variant's rules (three players: the armies they remove leave and play goes on), by
 * adjudication, or by a player's failure (docs/match.md). */
#ifndef MATCH_GAME_H
#define MATCH_GAME_H

#include <stdatomic.h>

#include "../client/player.h"
#include "../engine/engine.h"
#include "../games/adjudicate.h"
#include "../games/game_record.h"

struct play {
    const struct variant *v;
    const char *fen;                /* NULL: the variant's start position ('position startpos') */
    struct player *player[MAX_PLAYERS]; /* by colour */
    const struct adjudication *adj;
    const atomic_bool *cancel;
};

/* Plays the game; a player that failed is stopped, to be started again for its next game. Only the
 * players of armies on the board are started, and none for an opening whose game is already over. */
void play_game(const struct play *p, struct game_record *r);

#endif
