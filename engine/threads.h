/* The search threads (Lazy SMP): one main thread that reports and keeps time, helpers that search
 * the same root with the shared transposition table. The pool's functions are the façade's
 * (engine.h); its state stays here. */
#ifndef THREADS_H
#define THREADS_H

#include <pthread.h>

#include "engine.h"
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

#endif
