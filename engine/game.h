/* A game: the selected variant, its instance and the current position, changed only by complete,
 * valid commands (a failed command leaves everything as it was). */
#ifndef GAME_H
#define GAME_H

#include <stdbool.h>
#include <stddef.h>

#include "instance.h"

struct game {
    const struct variant *v;
    const struct engine_ops *ops;
    struct tables *tb;
    struct position *pos;
    /* Three players: the armies the turn resolution took off while the position was set, in order. */
    int neliminated;
    int eliminated[MAX_PLAYERS];
};

enum game_outcome { GAME_ONGOING, GAME_CHECKMATE, GAME_STALEMATE, GAME_REPETITION, GAME_FIFTY_MOVES };

/* Whether the game is over, and what the side to move scores if it is (num / den). */
struct game_status {
    enum game_outcome outcome;
    int num, den;
};

bool game_init(struct game *g, const struct variant *v, bool wide, char *err, size_t errlen);
void game_free(struct game *g);
/* A variant's start position loads in the engine (a registry validator). */
bool game_validate_variant(const struct variant *v, char *err, size_t errlen);
/* Sets the position from a FEN (NULL: the variant's start) and plays the moves; all or nothing. */
bool game_set_position(struct game *g, const char *fen, char *const *moves, int nmoves, char *err, size_t errlen);
/* Plays a legal move (as game_parse_move finds it) and resolves the next turn. */
void game_play(struct game *g, move_t m);
/* Finds the legal move written as text (promotion letter in either case). */
bool game_parse_move(struct game *g, const char *text, move_t *m, char *err, size_t errlen);
void game_fen(const struct game *g, char *fen, size_t len);
struct game_status game_status(struct game *g);
/* One line such as "stalemate: w scores 1/4, b 3/4"; empty while the game goes on. */
void game_status_text(const struct game *g, struct game_status st, char *out, size_t len);

#endif
