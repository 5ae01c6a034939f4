/* The game record file: one PGN-like record per game, with the variant and the starting FEN
 * (docs/match.md). */
#ifndef PGN_H
#define PGN_H

#include <stdio.h>

#include "match_game.h"

struct pgn_tags {
    const struct variant *v;
    const char *event, *date, *time_control;
    int round;
    const char *player[MAX_PLAYERS]; /* by colour */
};

/* Every colour's score joined by '-': "1-0", "1/2-1/2", "3/4-1/4", "0-1-0", "1/2-0-1/2"; "*" for a game
 * that was not scored. */
void pgn_result(const struct game_record *r, char *out, size_t len);
/* The termination as the Termination tag writes it ("checkmate", "time forfeit", ...). */
const char *pgn_termination(enum termination term);
void pgn_write(FILE *f, const struct pgn_tags *tags, const struct game_record *r);

#endif
