/* A search thread's memory of the evaluations it made (eval/width/eval.c, engine.md): a position met
 * again, a capture sequence played in another order or the next iteration's quiescence search, is not
 * evaluated again. */
#ifndef EVAL_CACHE_H
#define EVAL_CACHE_H

#include <stdbool.h>
#include <stdint.h>

enum { EVAL_CACHE_SLOTS = 1 << 12 };

/* A position's key mixed with the player the score is for (key 0: empty); its lazy early score, and
 * the full one where it was computed. */
struct eval_cache_slot {
    uint64_t key;
    int32_t early, total;
    bool full;
};

struct eval_cache {
    struct eval_cache_slot slot[EVAL_CACHE_SLOTS];
};

/* Forgets every score: the weights or the variant may have changed since. */
static inline void eval_cache_clear(struct eval_cache *c)
{
    for (int i = 0; i < EVAL_CACHE_SLOTS; i++)
        c->slot[i].key = 0;
}

#endif
