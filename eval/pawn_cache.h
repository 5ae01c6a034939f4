/* A search thread's memory of the pawn structures it met (eval/width/eval.c, engine.md; width-dependent:
 * included by eval/width/eval.c). */
#ifndef PAWN_CACHE_H
#define PAWN_CACHE_H

#include <stdint.h>

#include "../movegen/position.h"

enum { PAWN_CACHE_SLOTS = 1 << 10, PAWN_CACHE_TYPES = 2 };

/* The pawn terms that depend on the pawns alone (keyed by the position's pawn_key): each army's packed
 * sum and each pawn type's capture cells, by the type's place among its army's pawn types; and the blocked
 * pawns' packed sums with the occupancy of the cells the pawns step to, which decides them. Key 0:
 * empty. */
struct pawn_cache_slot {
    uint64_t key;
    int64_t sum[MAX_PLAYERS], blocked[MAX_PLAYERS];
    cellset steps, step_occ;
    cellset takes[MAX_PLAYERS][PAWN_CACHE_TYPES];
};

struct pawn_cache {
    struct pawn_cache_slot slot[PAWN_CACHE_SLOTS];
};

/* Forgets every structure: the weights or the variant may have changed since. */
static inline void pawn_cache_clear(struct pawn_cache *c)
{
    for (int i = 0; i < PAWN_CACHE_SLOTS; i++)
        c->slot[i].key = 0;
}

#endif
