/* A game: the selected variant, its instance and the current position, changed only by complete,
 * valid commands (a failed command leaves everything as it was). */
#ifndef GAME_H
#define GAME_H

#include <stdbool.h>
#include <stddef.h>

#include "instance.h"

struct nnue_choice;

struct game {
    const struct variant *v;
    const struct engine_ops *ops;
    struct engine_tables *tb;
    struct position *pos;
    /* The nets the game evaluates with (eval/nnue.h), NULL: none; kept through game_init. */
    const struct nnue_choice *nets;
    /* Three players: the armies the turn resolution took off while the position was set, in order. */
    int neliminated;
    int eliminated[MAX_PLAYERS];
};

/* GAME_LAST_ARMY: three players, one army is left on the board and wins. */
enum game_outcome { GAME_ONGOING, GAME_CHECKMATE, GAME_STALEMATE, GAME_REPETITION, GAME_FIFTY_MOVES, GAME_LAST_ARMY };

/* Whether the game is over, and what the side to move scores if it is (num / den); score[p] / den is
 * army p's. Three players: the last army scores 1; a stalemate, repetition or the 100-ply rule is a
 * draw shared by the k armies still on the board (1/k each); an army that left scores 0. */
struct game_status {
    enum game_outcome outcome;
    int num, den;
    int score[MAX_PLAYERS];
};

/* The variant's game at its start; g (zeroed, or a game) keeps its choice of nets. */
bool game_init(struct game *g, const struct variant *v, bool wide, char *err, size_t errlen);
/* Evaluates with the net the choice gives the game's variant (NULL: none), from now on and after
 * game_init; the choice must outlive the game. */
void game_use_nets(struct game *g, const struct nnue_choice *nets);
void game_free(struct game *g);
/* The evaluation's weights for this game (its tables rebuilt, its position rescored); never while a
 * search runs on the game's tables. On failure the game keeps its weights. */
bool game_load_weights(struct game *g, const struct eval_params *p, char *err, size_t errlen);
/* A variant's start position loads in the engine (a registry validator). */
bool game_validate_variant(const struct variant *v, char *err, size_t errlen);
/* Sets the position from a FEN (NULL: the variant's start) and plays the moves; all or nothing. */
bool game_set_position(struct game *g, const char *fen, char *const *moves, int nmoves, char *err, size_t errlen);
/* Plays a legal move and resolves the next turn: three players, the armies the rules remove leave.
 * Returns the armies that left (bit p for army p), and in *mated (if not NULL) those among them that
 * were mated rather than taken off under a capture threat. */
unsigned game_play(struct game *g, move_t m, unsigned *mated);
/* The armies on the board (bit p: army p still has its royal). */
unsigned game_armies(const struct game *g);
/* The legal moves of the player to move: none once a three-player game is down to its last army. */
int game_legal_moves(const struct game *g, move_t *list);
/* Finds the legal move written as UCI text (in either case), else as SAN or long algebraic (san_read). */
bool game_parse_move(struct game *g, const char *text, move_t *m, char *err, size_t errlen);
void game_fen(const struct game *g, char *fen, size_t len);
struct game_status game_status(struct game *g);
/* One line such as "stalemate: w scores 1/4, b 3/4" (the side to move first, then the other armies);
 * empty while the game goes on. */
void game_status_text(const struct game *g, struct game_status st, char *out, size_t len);

#endif
