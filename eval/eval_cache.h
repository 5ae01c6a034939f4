/* A search thread's memory of the classical evaluations it made (eval/eval.c, engine.md). */
#ifndef EVAL_CACHE_H
#define EVAL_CACHE_H

#include <stdint.h>

enum { EVAL_CACHE_SLOTS = 1 << 14, EVAL_CACHE_NONE = INT32_MIN };

/* early: the score from material, piece-cell tables and pawns, which decides the lazy exit; full: the
 * whole evaluation, EVAL_CACHE_NONE until one was needed. Both are those of the same position seen
 * by the same player, so a hit returns exactly what evaluating again would. */
struct eval_cache_slot {
    uint64_t key;
    int32_t early, full;
};

struct eval_cache {
    struct eval_cache_slot slot[EVAL_CACHE_SLOTS];
};

/* The slot for the position key seen by player view; a slot of another position is reset. */
static inline struct eval_cache_slot *eval_cache_slot(struct eval_cache *c, uint64_t key, int view)
{
    /* Three-player searches score a position for the root player, not only for the side to move. */
    key ^= (uint64_t)view * 0x9E3779B97F4A7C15ull;
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
}

#endif
