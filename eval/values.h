/* Piece values: the variant's own where it gives them, otherwise derived from mobility. */
#ifndef VALUES_H
#define VALUES_H

#include "../rules/variant.h"

/* Value of every piece type in centipawns (the royal gets 0): the built-in weights' starting values. */
void values_of(const struct variant *v, int *value);
/* Average number of cells a piece reaches on the empty board: by leaps and along lines. */
void values_mobility(const struct variant *v, int type, double *leaps, double *lines);

#endif
