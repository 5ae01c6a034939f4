/* What a search shares between its threads (its limits and reports are the façade's, engine.h); the
 * search itself is width-dependent (engine/width/search.c, compiled into each instance). */
#ifndef SEARCH_H
#define SEARCH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "../eval/weights.h"
#include "../rules/move.h"
#include "../rules/score.h"
#include "../rules/variant.h"
#include "engine.h"
#include "tt.h"

struct search_shared {
    struct tt *tt;
    struct eval_weights weights; /* the search's own copy: nothing changes it while threads read it */
    struct search_limits limits;
    int multipv;
    uint64_t skill_seed;     /* a weakened search's random choice (engine/skill.c) */
    enum search3 search3;
    int nthreads;
    atomic_bool stop;        /* every thread stops at once when set */
    atomic_bool pondering;   /* while set, the clock does not stop the search */
    _Atomic int64_t start_ms;/* monotonic; ponderhit moves it while the threads read it */
    int64_t soft_ms, hard_ms;/* time budget from start; 0: none */
    /* Node counts of every worker, so the main thread can report totals; one cache line each, as
     * every worker writes its own at every node. */
    struct {
        _Atomic uint64_t n;
        char pad[56];
    } thread_nodes[MAX_THREADS];
    void (*report)(void *ctx, const struct search_report *r);
    void (*progress)(void *ctx, const struct search_progress *p);   /* may be NULL */
    void *report_ctx;
};

uint64_t search_total_nodes(const struct search_shared *sh);

#endif
