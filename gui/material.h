/* Captured pieces and material per army for the player cards: what each move took, and the value of
 * each army's pieces on the board by the engine's piece values (eval/values.c). */
#ifndef MATERIAL_H
#define MATERIAL_H

#include <jansson.h>

#include "../rules/setup.h"

/* A hopping or en-passant capture takes one piece; a few more leave room for any variant's. */
enum { MAX_CAPTURES = 4 };

struct captures {
    int n;
    unsigned char piece[MAX_CAPTURES];  /* piece_make() codes */
};

/* The pieces of other armies that a move by `mover` took, from the positions before and after it;
 * the armies in `left` (eliminated by the move, their pieces lifted) count only on the cell `to`. */
void material_captures(const struct variant *v, const struct setup *before, const struct setup *after, int mover,
                       unsigned left, int to, struct captures *out);
/* Each army's material in `position`, in pawns (a royal counts nothing). */
void material_values(const struct variant *v, const struct setup *position, double *value);
/* {"w": {"captured": [], "value": pawns, "start": pawns}, ...}: each army's material in `position` and
 * at the game's start (`start`, by material_values); add the captures with material_add. */
json_t *material_json(const struct variant *v, const struct setup *position, const double *start);
/* Adds the pieces that `army` captured in one move to its "captured" list. */
void material_add(const struct variant *v, json_t *material, int army, const struct captures *c);

#endif
