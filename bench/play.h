/* One game between two UCI players, refereed by the engine's own move generator: every bestmove is
 * checked against the legal moves, the clocks are kept by the runner, and the game ends by the
 * variant's rules, by adjudication, or by a player's failure (docs/match.md). */
#ifndef PLAY_H
#define PLAY_H

#include <stdatomic.h>

#include "../engine/game.h"
#include "player.h"
#include "text.h"

enum termination {
    TERM_CHECKMATE,
    TERM_STALEMATE,
    TERM_REPETITION,
    TERM_FIFTY_MOVES,
    TERM_ADJUDICATED_DRAW,
    TERM_RESIGNATION,
    TERM_TIME,          /* lost on time */
    TERM_ILLEGAL,       /* an illegal or malformed move */
    TERM_CRASH,         /* the engine's output ended */
    TERM_STALL,         /* no answer before the deadline */
    TERM_ABANDONED,     /* the match stopped during the game: not scored */
    TERM_FATAL,         /* an engine cannot play at all: not scored, the match stops */
    TERM_COUNT
};

/* Adjudication by the engines' scores; a count of 0 turns a rule off. */
struct adjudication {
    int draw_movenumber, draw_movecount, draw_score;
    int resign_movecount, resign_score;
};

struct game_record {
    char fen[1024];                 /* the starting position */
    int first_side, first_fullmove;
    struct text moves;              /* the moves played, separated by spaces */
    int nmoves;
    enum termination term;
    int num[2], den;                /* each colour's score, num / den */
    int culprit;                    /* the colour at fault for TERM_TIME and later, else -1 */
    int stalemated;                 /* the colour stalemated, for TERM_STALEMATE */
    char reason[512];               /* "Black mates", "White (old) crashed: ..." */
};

struct play {
    const struct variant *v;
    const char *fen;                /* NULL: the variant's start position ('position startpos') */
    struct player *player[2];       /* by colour */
    const struct adjudication *adj;
    const atomic_bool *cancel;
};

/* Plays the game; a player that failed is stopped, to be started again for its next game. */
void play_game(const struct play *p, struct game_record *r);
void game_record_free(struct game_record *r);
/* Whether the game counts in the results. */
bool game_record_scored(const struct game_record *r);

#endif
