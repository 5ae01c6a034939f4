/* The Lazy SMP thread pool: starts, waits for and stops the workers of one search at a time. */
#include "threads.h"

#include <stdlib.h>
#include <string.h>

#include "../util/clock.h"
#include "instance.h"
#include "skill.h"
#include "timeman.h"

struct helper {
    struct search_pool *pool;
    int id;
};

static void free_workers(struct search_pool *p)
{
    for (int i = 0; i < p->nthreads; i++) {
        if (p->workers[i])
            p->ops->worker_free(p->workers[i]);
        p->workers[i] = NULL;
    }
    p->tb = NULL;
}

/* Workers belong to one variant's tables: rebuilt when the game's tables change. */
static bool ensure_workers(struct search_pool *p, const struct game *g)
{
    if (p->tb == g->tb && p->ops == g->ops && p->workers[0])
        return true;
    int n = p->nthreads;
    free_workers(p);
    p->ops = g->ops;
    for (int i = 0; i < n; i++)
        if (!(p->workers[i] = p->ops->worker_new(g->tb))) {
            free_workers(p);
            return false;
        }
    p->tb = g->tb;
    return true;
}

struct search_pool *pool_new(void)
{
    struct search_pool *p = calloc(1, sizeof *p);
    if (p && pthread_mutex_init(&p->lock, NULL)) {
        free(p);
        return NULL;
    }
    if (p && pthread_cond_init(&p->wake, NULL)) {
        pthread_mutex_destroy(&p->lock);
        free(p);
        return NULL;
    }
    if (p)
        p->nthreads = 1;
    return p;
}

bool pool_configure(struct search_pool *p, int threads, size_t hash_mb)
{
    if (threads < 1 || threads > MAX_THREADS)
        return false;
    if (p->tt.mb != hash_mb && !tt_resize(&p->tt, hash_mb, threads))
        return false;
    if (threads != p->nthreads) {
        free_workers(p);
        p->nthreads = threads;
    }
    return true;
}

static void *helper_main(void *arg)
{
    struct helper *h = arg;
    struct search_pool *p = h->pool;
    p->ops->worker_search(p->workers[h->id], p->root, &p->sh, h->id);
    return NULL;
}

static void *main_thread(void *arg)
{
    struct search_pool *p = arg;
    pthread_t tid[MAX_THREADS];
    struct helper helpers[MAX_THREADS];
    int started = 1;
    for (int i = 1; i < p->nthreads; i++) {
        helpers[i] = (struct helper){ p, i };
        if (pthread_create(&tid[i], NULL, helper_main, &helpers[i]))
            break;
        started++;
    }
    p->ops->worker_search(p->workers[0], p->root, &p->sh, 0);
    /* UCI: no bestmove before stop while pondering or searching infinitely. pool_stop and
     * pool_ponderhit change the flags under the lock, so no wake-up is lost between test and wait. */
    pthread_mutex_lock(&p->lock);
    while (!atomic_load(&p->sh.stop) && (p->sh.limits.infinite || atomic_load(&p->sh.pondering)))
        pthread_cond_wait(&p->wake, &p->lock);
    pthread_mutex_unlock(&p->lock);
    atomic_store(&p->sh.stop, true);
    for (int i = 1; i < started; i++)
        pthread_join(tid[i], NULL);
    move_t ponder = MOVE_NONE;
    int depth = 0;
    move_t best = p->ops->worker_best(p->workers[0], &ponder, &depth);
    p->done(p->done_ctx, best, ponder);
    return NULL;
}

/* A weakened search stops at its level's depth and searches several lines to pick from. */
static void skill_limit(struct search_shared *sh, uint64_t key)
{
    int depth = skill_depth(skill_level(sh->limits.elo));
    if (!sh->limits.depth || sh->limits.depth > depth)
        sh->limits.depth = depth;
    if (sh->multipv < SKILL_MULTIPV)
        sh->multipv = SKILL_MULTIPV;
    sh->skill_seed = key ^ (uint64_t)clock_us();
}

void pool_set_search3(struct search_pool *p, enum search3 algorithm)
{
    p->search3 = algorithm;
}

/* Readies the pool for a search of the game's position; false if memory is short. */
static bool pool_prepare(struct search_pool *p, struct game *g, const struct search_limits *l,
                         const struct eval_weights *w, int multipv, int64_t move_overhead,
                         const struct search_callbacks *cb)
{
    if (!p->tt.entries && !tt_resize(&p->tt, TT_DEFAULT_MB, p->nthreads))
        return false;
    if (!ensure_workers(p, g))
        return false;
    struct search_shared *sh = &p->sh;
    sh->tt = &p->tt;
    sh->weights = w ? *w : eval_weights_default;
    sh->limits = *l;
    sh->multipv = multipv;
    sh->report = cb->report;
    sh->progress = cb->progress;
    sh->report_ctx = cb->ctx;
    p->done = cb->done;
    p->done_ctx = cb->ctx;
    if (l->elo)
        skill_limit(sh, g->ops->position_key(g->pos));
    sh->search3 = p->search3;
    sh->nthreads = p->nthreads;
    atomic_store(&sh->stop, false);
    atomic_store(&sh->pondering, l->ponder);
    for (int i = 0; i < p->nthreads; i++)
        atomic_store(&sh->thread_nodes[i].n, 0);
    sh->start_ms = clock_ms();
    timeman_init(sh, g->ops->position_side(g->pos), move_overhead);
    tt_new_search(&p->tt);
    p->root = g->pos;
    return true;
}

bool pool_go(struct search_pool *p, struct game *g, const struct search_limits *l, const struct eval_weights *w,
             int multipv, int64_t move_overhead, const struct search_callbacks *cb)
{
    if (!pool_prepare(p, g, l, w, multipv, move_overhead, cb) || pthread_create(&p->main, NULL, main_thread, p))
        return false;
    p->running = true;
    return true;
}

bool pool_run(struct search_pool *p, struct game *g, const struct search_limits *l, const struct eval_weights *w,
             int multipv, const struct search_callbacks *cb)
{
    if (!pool_prepare(p, g, l, w, multipv, 0, cb))
        return false;
    main_thread(p);
    return true;
}

void pool_stop(struct search_pool *p)
{
    pthread_mutex_lock(&p->lock);
    atomic_store(&p->sh.stop, true);
    pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&p->lock);
}

void pool_ponderhit(struct search_pool *p)
{
    pthread_mutex_lock(&p->lock);
    /* The clock starts now: the time spent pondering was the opponent's. */
    p->sh.start_ms = clock_ms();
    atomic_store(&p->sh.pondering, false);
    pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&p->lock);
}

void pool_wait(struct search_pool *p)
{
    if (p->running) {
        pthread_join(p->main, NULL);
        p->running = false;
    }
}

void pool_clear(struct search_pool *p)
{
    if (p->tt.entries)
        tt_clear(&p->tt, p->nthreads);
    for (int i = 0; i < p->nthreads && p->workers[i]; i++)
        p->ops->worker_clear(p->workers[i]);
}

uint64_t pool_nodes(const struct search_pool *p)
{
    return search_total_nodes(&p->sh);
}

uint64_t pool_main_nodes(const struct search_pool *p)
{
    return atomic_load(&p->sh.thread_nodes[0].n);
}

void pool_free(struct search_pool *p)
{
    if (!p)
        return;
    pool_stop(p);
    pool_wait(p);
    free_workers(p);
    tt_free(&p->tt);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    free(p);
}
