/* Hex standard algebraic notation (docs/notation.md): a legal move written as players write it
 * ("Nxe5+", "fxe6", "Rbe5", "f11=Q#", "O-O") over the variant's own letters and cell names, and read
 * back from SAN, long algebraic ("Nc1e3", "f5-f6") or UCI text. */
#ifndef SAN_H
#define SAN_H

#include <stdbool.h>
#include <stddef.h>

#include "game.h"

enum { SAN_LEN = 24 };   /* "Nf10xe11=Q#" and longer: letter, cell, 'x', cell, "=L", mark */

/* Writes the move of the game's position as SAN in out (SAN_LEN bytes). The move is made and taken
 * back on the game's position to find its check or mate mark, so never while a search runs from it;
 * the game is as before. A move that is not legal here is written as UCI text. */
void san_write(const struct game *g, move_t m, char *out);
/* The moves as SAN, separated by spaces, each written in the position the ones before it lead to
 * from the game's (a principal variation, a move list). The game's position is only read (a copy
 * plays the moves), so a search's report may call it. From the first move
 * that is not legal on, the moves are written as UCI text. Returns false when out was too short (it
 * then holds the moves that fit) or the scratch position could not be made. */
bool san_line(const struct game *g, const move_t *moves, int n, char *out, size_t len);
/* Reads a move written as SAN, tolerantly: with or without 'x', '+', '#', annotations ("!?"), with
 * "=Q" or "Q" for a promotion, any from-cell hint ("Nce5", "N4e5", "Nc3e5"), a '-' or ':' before the
 * target, "O-O"/"0-0". The letterless form names a pawn, or with a whole from-cell any piece. False,
 * with one line in err, when no legal move or more than one matches. */
bool san_read(const struct game *g, const char *text, move_t *m, char *err, size_t errlen);

#endif
