/* Time management: soft and hard budgets from the clock; node totals across threads. */
#include "timeman.h"

uint64_t search_total_nodes(const struct search_shared *sh)
{
    uint64_t n = 0;
    for (int i = 0; i < sh->nthreads; i++)
        n += atomic_load_explicit(&sh->thread_nodes[i].n, memory_order_relaxed);
    return n;
}

void timeman_init(struct search_shared *sh, int side, int64_t move_overhead)
{
    const struct search_limits *l = &sh->limits;
    sh->soft_ms = sh->hard_ms = 0;
    if (l->movetime > 0) {
        int64_t t = l->movetime - move_overhead;
        sh->soft_ms = sh->hard_ms = t > 1 ? t : 1;
        return;
    }
    if (l->time[side] < 0 || l->infinite)
        return;
    int64_t left = l->time[side] - move_overhead, inc = l->inc[side] > 0 ? l->inc[side] : 0;
    if (left < 1)
        left = 1;
    int mtg = l->movestogo > 0 ? (l->movestogo < 40 ? l->movestogo : 40) : 30;
    /* A share of what is left plus most of the increment; never more than a fraction of the clock,
     * so that a slow answer still leaves time for the next moves. */
    int64_t soft = left / mtg + inc * 3 / 4;
    int64_t cap = l->movestogo == 1 ? left * 9 / 10 : left / 3;
    if (soft > cap)
        soft = cap;
    int64_t hard = soft * 4;
    if (hard > cap)
        hard = cap;
    sh->soft_ms = soft > 1 ? soft : 1;
    sh->hard_ms = hard > 1 ? hard : 1;
}
