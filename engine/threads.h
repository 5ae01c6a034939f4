/* The search threads (Lazy SMP): one main thread that reports and keeps time, helpers that search
 * the same root with the shared transposition table. `go` returns at once; the result arrives
 * through the done callback on the main search thread. */
#ifndef THREADS_H
#define THREADS_H

#include <pthread.h>

#include "game.h"
#include "search.h"

struct worker;

struct search_pool {
    const struct engine_ops *ops;
    const struct engine_tables *tb;
    int nthreads;
    enum search3 search3;
    struct worker *workers[MAX_THREADS];
    struct tt tt;
    struct search_shared sh;
    pthread_t main;
    bool running;
    /* The main thread waits on wake, under lock, for stop or ponderhit once its own search is over. */
    pthread_mutex_t lock;
    pthread_cond_t wake;
    const struct position *root;
    void (*done)(void *ctx, move_t best, move_t ponder);
    void *done_ctx;
};

/* Sets up an empty pool, before any other call; false if the system has no lock to give. */
bool pool_init(struct search_pool *p);
/* Sets the thread count and hash size; false (nothing changed) if memory is short. */
bool pool_configure(struct search_pool *p, int threads, size_t hash_mb);
/* Starts searching the game's position with a copy of the weights; the game must not change until
 * pool_wait returns. */
bool pool_go(struct search_pool *p, struct game *g, const struct search_limits *l, const struct eval_weights *w,
             int multipv, int64_t move_overhead);
/* Asks the search to end (it reports its move through done); any thread may call either, at any time. */
void pool_stop(struct search_pool *p);
void pool_ponderhit(struct search_pool *p);
/* Waits for the search to end (it ends by itself unless infinite or pondering). */
void pool_wait(struct search_pool *p);
/* Clears the hash and every worker's history (ucinewgame). */
void pool_clear(struct search_pool *p);
void pool_free(struct search_pool *p);

#endif
