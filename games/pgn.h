/* The game record file: one PGN-like record per game, with the variant and the starting FEN
 * (docs/match.md). */
#ifndef PGN_H
#define PGN_H

#include <stdio.h>

#include "../client/uci_client.h"
#include "game_record.h"

struct pgn_tags {
    const struct variant *v;
    const char *event, *date, *time_control;
    int round;
    const char *player[MAX_PLAYERS]; /* by colour */
    bool has_seed;                   /* a match game: the match's -seed (or the clock's), with the round its identity */
    unsigned long long seed;
};

/* Every colour's score joined by '-': "1-0", "1/2-1/2", "3/4-1/4", "0-1-0", "1/2-0-1/2"; "*" for a game
 * that was not scored. */
void pgn_result(const struct game_record *r, char *out, size_t len);
/* The termination as the Termination tag writes it ("checkmate", "time forfeit", ...). */
const char *pgn_termination(enum termination term);
/* A move's comment as cutechess writes it, "+0.35/12 0.52s": the score in pawns for the mover ("+M5":
 * it mates in 5 plies, "-M4": it is mated in 4) and depth when the engine gave them, then the time. */
void pgn_evaluation(const struct uci_reply *reply, char *out, size_t len);
/* A move's evaluation as lichess and other tools read it in a comment: "[%eval 0.35]" (pawns),
 * "[%eval #3]" (mates in 3 moves), "[%eval #-2]", from a score in centipawns, mates as
 * ±(UCI_MATE_SCORE - n). */
void pgn_eval_comment(int score, char *out, size_t len);
void pgn_write(FILE *f, const struct pgn_tags *tags, const struct game_record *r);

#endif
