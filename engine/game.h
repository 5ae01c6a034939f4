/* A game: the selected variant, its instance and the current position, changed only by complete,
 * valid commands (a failed command leaves everything as it was). */
#ifndef GAME_H
#define GAME_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../rules/move.h"
#include "../rules/setup.h"
#include "../rules/variant.h"

/* The instance and its tables and position are the engine's (engine/instance.h): the game's
 * functions below are the only way to them. */
struct engine_ops;
struct engine_tables;
struct position;
struct eval_params;
struct eval_weights;
struct eval_trace;

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
/* The position as a setup (mailbox, side, rights, clocks). */
void game_setup(const struct game *g, struct setup *s);
/* Sets the position from a setup as it stands, the turn not resolved (a position read from a record);
 * on failure the game keeps its position. */
bool game_set_setup(struct game *g, const struct setup *s, char *err, size_t errlen);
int game_side(const struct game *g);
bool game_in_check(const struct game *g);
/* The position's Zobrist key (rules/zobrist.h). */
uint64_t game_key(const struct game *g);
/* The cell-set width of the game's instance: 128 or 256. */
int game_bits(const struct game *g);
/* Leaf nodes at depth from the position (perft), and after the legal move m (perft's divide);
 * a count stops early, and is then partial, once *stop is set. */
uint64_t game_perft(struct game *g, int depth, const atomic_bool *stop);
uint64_t game_perft_move(struct game *g, move_t m, int depth, const atomic_bool *stop);
/* The piece guide: where a piece of the player's alone at from moves, and where it would capture. */
void game_piece_reach(const struct game *g, int player, int type, int from, bool quiet[MAX_CELLS],
                      bool capture[MAX_CELLS]);
/* The full evaluation for the side to move with the weights; with a trace, every weight's count
 * (eval/trace.h). */
int game_evaluate(const struct game *g, const struct eval_weights *w, struct eval_trace *trace);
/* The weights the game's tables were built from (game_load_weights). */
const struct eval_params *game_eval_params(const struct game *g);
/* The net's score for the side to move, SCORE_NONE when the variant has no net (eval/nnue.h). */
int game_nnue_evaluate(const struct game *g);
struct game_status game_status(struct game *g);
/* One line such as "stalemate: w scores 1/4, b 3/4" (the side to move first, then the other armies);
 * empty while the game goes on. */
void game_status_text(const struct game *g, struct game_status st, char *out, size_t len);

#endif
