/* The record of a game as the match runner, the GUI and terminal play keep it: its moves (UCI text and
 * SAN movetext with comments), how it ended and each army's score, and the reason in words; PGN
 * writes it (games/pgn.h). */
#ifndef GAME_RECORD_H
#define GAME_RECORD_H

#include <stdbool.h>

#include "../engine/engine.h"
#include "../util/text.h"

enum termination {
    TERM_CHECKMATE,
    TERM_STALEMATE,
    TERM_REPETITION,
    TERM_FIFTY_MOVES,
    TERM_LAST_ARMY,     /* three players: one army is left and wins */
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

struct game_record {
    char fen[1024];                 /* the starting position */
    int narmies;                    /* the variant's number of players */
    struct text moves;              /* the moves played, separated by spaces */
    /* The record's movetext in SAN: "1. f6", "Nd7+", "{White eliminated (capture threat)}", one per line;
     * a variation (the GUI's) opens with a line "(" and closes with ")" at the end of its last line. */
    struct text movetext;
    int nmoves;
    enum termination term;
    int num[MAX_PLAYERS], den;      /* each colour's score, num / den */
    int left[MAX_PLAYERS];          /* moves played when the army left the board (eliminated, or at fault);
                                     * -1 if it was on the board at the end */
    int culprit;                    /* the colour at fault for TERM_TIME and later, else -1 */
    int stalemated;                 /* the colour stalemated, for TERM_STALEMATE */
    char reason[512];               /* "Black mates", "White (old) crashed: ..." */
};

void game_record_free(struct game_record *r);
/* Writes the move of g's position in SAN on a line of its own, numbered where the fullmove number
 * changed, or "N..." where *fullmove is 0 (the first move, or the first after a variation) and it is
 * not the first army's; *fullmove becomes the move's fullmove number. g is as before. */
void movetext_move(struct text *movetext, const struct game *g, move_t m, int *fullmove);
/* Plays the move and writes it down: in the movetext with its number where the fullmove number
 * changed (or "N..." for a first move by another army than the first), then its comment if not NULL
 * (the engine's evaluation), then a comment for each army that left. *fullmove is the fullmove number
 * of the previous move (0 before the first). Returns the armies that left (game_play). */
unsigned game_record_move(const struct variant *v, struct game *g, struct game_record *r, move_t m, int *fullmove,
                          const char *comment);
/* The same with a NAG written against the move's SAN ("?!", "?", "??"; NULL: none), as a review marks it. */
unsigned game_record_judged_move(const struct variant *v, struct game *g, struct game_record *r, move_t m,
                                 int *fullmove, const char *nag, const char *comment);
/* The game ended by the rules (game_status) with `side` to move and `armies` on the board: the
 * termination, scores and reason. */
void game_record_end(const struct variant *v, struct game_record *r, struct game_status st, int side,
                     unsigned armies);
/* The game ends with the term: the armies in share (bit p for army p) split the point, the others
 * score 0. */
void game_record_share(struct game_record *r, enum termination term, unsigned share);
/* The player at fault scores 0 and leaves; the other armies on the board share the point. */
void game_record_fault(struct game_record *r, enum termination term, int side, unsigned armies);
/* Writes the reason, printf-style. */
void game_record_reason(struct game_record *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Whether the game counts in the results. */
bool game_record_scored(const struct game_record *r);
/* "White", "Black", "Red": a colour in reports and records. */
const char *play_colour_name(const struct variant *v, int colour);

#endif
