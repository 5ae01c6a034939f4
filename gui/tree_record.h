/* The move tree in game records (games/pgn.c, games/records.c): written with its variations in
 * parentheses after the move each replaces (PGN's RAV), and read back. */
#ifndef TREE_RECORD_H
#define TREE_RECORD_H

#include "../games/records.h"
#include "../games/game_record.h"
#include "tree.h"

/* A main-line move's marks (a NAG, a comment) by its ply index, as a review gives them; false: none. */
typedef bool (*record_marks)(void *ctx, int ply, const char **nag, char *comment, size_t len);

/* Writes the tree's main line into r as game_record_move does (with each move's marks, if `marks` is
 * not NULL), each alternative to a move in parentheses after it (nested likewise); g is at the start
 * `fen` and ends at the main line's end. False only without memory. */
bool tree_record_write(const struct tree *t, const char *fen, struct game *g, struct game_record *r,
                       record_marks marks, void *ctx);
/* Adds the record's variations to the tree, whose main line is the record's game from `fen`: each
 * move checked in its position (SAN or UCI text), a move a line already has followed. False with one
 * line in err on a move that is illegal or comes after the end of its game. */
bool tree_record_read(struct tree *t, const struct variant *v, const char *fen, const struct record_game *rg,
                      char *err, size_t errlen);
/* Sets g to the position after the moves from the start `fen` to the tree's node. */
bool tree_position(const struct tree *t, int node, const char *fen, struct game *g, char *err, size_t errlen);
/* The tree's node for move m of g's position, as the child of `parent` (uci, SAN, army, move). */
void tree_node_of(const struct game *g, move_t m, struct tree_node *node);

#endif
