/* Zobrist keys derived with XXH3 from names, so keys and books survive any reordering of tables. */
#ifndef ZOBRIST_H
#define ZOBRIST_H

#include "variant.h"

/* Makes the variant's keys; false when their block cannot be allocated. */
bool zobrist_init(struct variant *v);

#endif
