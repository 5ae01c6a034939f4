/* A slow, plainly written move generator on the mailbox, straight from shared/spec/pieces.md: the
 * tests compare the engine's bitboard generator against it. It shares only the variant data, the
 * geometry and FEN parsing with the engine. Three-player eliminations are not modelled. */
#ifndef REFERENCE_H
#define REFERENCE_H

#include <stdbool.h>
#include <stdint.h>

#include "../movegen/move.h"
#include "../movegen/setup.h"

enum { REFERENCE_MAX_MOVES = MAX_MOVES, REFERENCE_TEXT_LEN = 16 };

/* The legal moves as text ("f5f6", "f10f11q"), sorted by strcmp and without duplicates. */
int reference_moves(const struct variant *v, const struct setup *s, char out[][REFERENCE_TEXT_LEN]);
/* Plays a legal move given as text; returns false (s unchanged) if it is not legal. */
bool reference_make(const struct variant *v, struct setup *s, const char *text);
uint64_t reference_perft(const struct variant *v, const struct setup *s, int depth);
/* Whether the player's royal piece is attacked. */
bool reference_in_check(const struct variant *v, const struct setup *s, int player);
/* Whether a pawn-like type of the player standing on the cell would have to promote there. */
bool reference_in_zone(const struct variant *v, int player, int type, int cell);

#endif
