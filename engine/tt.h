/* The transposition table shared by all search threads: buckets of four 16-byte entries written
 * without locks through relaxed atomics; each entry's key is stored XORed with its data, so an entry
 * whose two words come from different writes reads as a miss. The key word also keeps the position's
 * static evaluation. */
#ifndef TT_H
#define TT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../rules/move.h"
#include "../rules/score.h"
#include "engine.h"

struct tt_hit {
    move_t move;
    int score;       /* relative to the node: see tt_score_from */
    int depth;
    int bound;
    int eval;        /* the static evaluation, SCORE_NONE when none was stored */
};

/* Relaxed atomic words: each word is read and written whole, with no ordering between the two. */
struct tt_entry {
    _Atomic uint64_t check;  /* the key's low 48 bits ^ data's, shifted up 16; the evaluation below */
    _Atomic uint64_t data;
};

struct tt {
    struct tt_entry *entries;
    size_t nbuckets;
    size_t mb;
    unsigned age;
};

enum { TT_BUCKET = 4, TT_MAX_CLEAR_THREADS = 256 };

static inline struct tt_entry *tt_bucket(const struct tt *tt, uint64_t key)
{
    /* The high bits choose the bucket without a division. */
    return tt->entries + (size_t)(((unsigned __int128)key * tt->nbuckets) >> 64) * TT_BUCKET;
}

/* Starts loading a position's bucket (one cache line) while the caller does other work. */
static inline void tt_prefetch(const struct tt *tt, uint64_t key)
{
    __builtin_prefetch(tt_bucket(tt, key));
}

/* Resizes and clears with `threads` threads; on failure keeps the old table and returns false. */
bool tt_resize(struct tt *tt, size_t mb, int threads);
void tt_free(struct tt *tt);
/* Empties the table, `threads` threads (at most TT_MAX_CLEAR_THREADS) each zeroing a share. */
void tt_clear(struct tt *tt, int threads);
void tt_new_search(struct tt *tt);
bool tt_probe(const struct tt *tt, uint64_t key, struct tt_hit *hit);
/* eval: the static evaluation, or SCORE_NONE to keep the one the entry has for the key. */
void tt_store(struct tt *tt, uint64_t key, move_t move, int score, int depth, int bound, int eval);
/* Permille of sampled entries written in the current search. */
int tt_hashfull(const struct tt *tt);

/* Mate scores are stored relative to the node and restored relative to the root. */
int tt_score_to(int score, int ply);
int tt_score_from(int score, int ply);

#endif
