/* One game between UCI players, one per army, refereed by the engine's own move generator: every
 * bestmove is checked against the legal moves, the clocks are kept by the runner, and the game ends by
 * the variant's rules (three players: the armies they remove leave and play goes on), by
 * adjudication, or by a player's failure (docs/match.md). */
#ifndef MATCH_GAME_H
#define MATCH_GAME_H

#include <stdatomic.h>

#include "../engine/game.h"
#include "../protocol/uci_client.h"
#include "adjudicate.h"
#include "tc.h"
#include "../util/text.h"

enum { MAX_ENGINE_OPTIONS = 32 };

/* One engine of the match, as its -engine arguments give it. */
struct engine_conf {
    char name[64];
    char cmd[1024];                 /* the program and its arguments, split at spaces */
    int noptions;
    struct uci_option option[MAX_ENGINE_OPTIONS];   /* sent with setoption after uciok */
    struct limits limits;
    long long timeout;              /* for uciok, readyok and searches without a clock */
};

/* An engine at the board: its configuration and its process, kept from game to game. */
struct player {
    const struct engine_conf *conf;
    struct uci_client uci;          /* uci.timeout is conf->timeout */
};

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
    /* The record's movetext in SAN: "1. f6", "Nd7+", "{White eliminated (capture threat)}", one per line. */
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
void game_record_free(struct game_record *r);
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
/* The player at fault scores 0 and leaves; the other armies on the board share the point. */
void game_record_fault(struct game_record *r, enum termination term, int side, unsigned armies);
/* Whether the game counts in the results. */
bool game_record_scored(const struct game_record *r);
/* "White", "Black", "Red": a colour in reports and records. */
const char *play_colour_name(const struct variant *v, int colour);

#endif
