/* What a search is asked (limits) and what it shares between threads; the search itself is
 * width-dependent (engine/width/search.c, compiled into each instance). */
#ifndef SEARCH_H
#define SEARCH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "../eval/weights.h"
#include "../rules/move.h"
#include "../rules/variant.h"
#include "../rules/score.h"
#include "tt.h"

enum { MAX_THREADS = 256, MAX_MULTIPV = 64, MAX_SEARCHMOVES = 256 };

/* How a position with three armies on the board is searched (engine/width/search_multi.c); the first is
 * the default (docs/engine.md: the matches that chose it). */
enum search3 { SEARCH3_BRS, SEARCH3_PARANOID };

struct search_limits {
    int64_t time[MAX_PLAYERS], inc[MAX_PLAYERS];   /* ms; time < 0: not given */
    int movestogo;
    int64_t movetime;
    int depth;
    uint64_t nodes;
    int mate;                                      /* in moves */
    bool infinite, ponder;
    int nsearchmoves;
    move_t searchmoves[MAX_SEARCHMOVES];
    int elo;                                       /* UCI_LimitStrength: play about this strong; 0: full strength */
};

/* One line of output: a principal variation after an iteration, or a bound on the way. */
struct search_report {
    int depth, seldepth, multipv;
    int armies;              /* on the board at the root: a mate's plies per own move */
    int score, bound;        /* BOUND_EXACT, or BOUND_LOWER/UPPER while a window fails */
    uint64_t nodes;
    int64_t time_ms;
    int hashfull;
    int pvlen;
    move_t pv[MAX_PLY];
};

/* Progress during a long iteration (about once a second after the first): the root move being
 * searched and the totals so far. */
struct search_progress {
    int depth, currmove_number;
    move_t currmove;
    uint64_t nodes;
    int64_t time_ms;
    int hashfull;
};

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

uint64_t search_total_nodes(struct search_shared *sh);

#endif
