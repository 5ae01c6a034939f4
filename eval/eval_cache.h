/* A search thread's memory of the classical evaluations it made and of the pawn structures it met
 * (eval/eval.c, engine.md; width-dependent: included by eval/eval.c). */
#ifndef EVAL_CACHE_H
#define EVAL_CACHE_H

#include <stdint.h>

#include "../movegen/position.h"

enum { EVAL_CACHE_SLOTS = 1 << 14, EVAL_CACHE_NONE = INT32_MIN, PAWN_CACHE_SLOTS = 1 << 10, PAWN_CACHE_TYPES = 2 };

/* early: the score from material, piece-cell tables and pawns, which decides the lazy exit; full: the
 * whole evaluation, EVAL_CACHE_NONE until one was needed. Both are those of the same position seen
 * by the same player, so a hit returns exactly what evaluating again would. */
struct eval_cache_slot {
    uint64_t key;
    int32_t early, full;
};

/* The pawn terms that depend on the pawns alone (eval_pawn_key): each army's packed sum and each
 * pawn type's capture cells, by the type's place among the variant's pawn types; and the blocked
 * pawns' packed sums with the occupancy of the cells the pawns step to, which decides them. Key 0:
 * empty. */
struct pawn_cache_slot {
    uint64_t key;
    int64_t sum[MAX_PLAYERS], blocked[MAX_PLAYERS];
    cellset steps, step_occ;
    cellset takes[MAX_PLAYERS][PAWN_CACHE_TYPES];
};

struct eval_cache {
    struct eval_cache_slot slot[EVAL_CACHE_SLOTS];
    struct pawn_cache_slot pawns[PAWN_CACHE_SLOTS];
};

/* The key of a position seen by player view: three-player searches score a position for the root
 * player, not only for the side to move. */
static inline uint64_t eval_cache_key(uint64_t key, int view)
{
    return key ^ (uint64_t)view * 0x9E3779B97F4A7C15ull;
}

/* Starts loading the slot of a position about to be evaluated. */
static inline void eval_cache_prefetch(const struct eval_cache *c, uint64_t key, int view)
{
    __builtin_prefetch(&c->slot[eval_cache_key(key, view) & (EVAL_CACHE_SLOTS - 1)]);
}

/* The slot for the position key seen by player view; a slot of another position is reset. */
static inline struct eval_cache_slot *eval_cache_slot(struct eval_cache *c, uint64_t key, int view)
{
    key = eval_cache_key(key, view);
    struct eval_cache_slot *s = &c->slot[key & (EVAL_CACHE_SLOTS - 1)];
    if (s->key != key)
        *s = (struct eval_cache_slot){ .key = key, .early = EVAL_CACHE_NONE, .full = EVAL_CACHE_NONE };
    return s;
}

/* Forgets every evaluation: the weights or the variant may have changed since. */
static inline void eval_cache_clear(struct eval_cache *c)
{
    for (int i = 0; i < EVAL_CACHE_SLOTS; i++)
        c->slot[i] = (struct eval_cache_slot){ .key = 0, .early = EVAL_CACHE_NONE, .full = EVAL_CACHE_NONE };
    for (int i = 0; i < PAWN_CACHE_SLOTS; i++)
        c->pawns[i].key = 0;
}

#endif
