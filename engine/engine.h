/* The engine's one public interface, as Stockfish's Engine class is to its UCI layer: the game (a
 * variant, its position, its moves and FEN, game.h; hex SAN, san.h) and searches of it, started with
 * their limits and callbacks. The applications include this header and no other of engine/: the
 * per-width instances (struct engine_ops), the search pool's shared state and the search itself stay
 * inside engine/ (docs/architecture.md, checked by tests/layers.sh). */
#ifndef ENGINE_H
#define ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../rules/move.h"
#include "../rules/score.h"
#include "../rules/variant.h"
#include "game.h"
#include "san.h"

/* Builds every instance's constant tables: main and the test runner call it once, before any thread
 * starts. */
void engine_init(void);

enum { MAX_THREADS = 256, MAX_MULTIPV = 64, MAX_SEARCHMOVES = 256 };
/* The hash table's size in MB: the default and the largest. */
enum { TT_DEFAULT_MB = 16, TT_MAX_MB = 1 << 20 };
/* UCI_Elo's range: a weakened search plays about this strong (engine/skill.c). */
enum { SKILL_ELO_MIN = 500, SKILL_ELO_MAX = 2500, SKILL_ELO_DEFAULT = 1500 };

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

/* What a search tells its caller, on the main search thread, with ctx: each line (report), progress
 * (may be NULL) and, once, the move it chose (done). */
struct search_callbacks {
    void (*report)(void *ctx, const struct search_report *r);
    void (*progress)(void *ctx, const struct search_progress *p);
    void (*done)(void *ctx, move_t best, move_t ponder);
    void *ctx;
};

/* The search threads (Lazy SMP, engine/threads.c) with their hash table: one search at a time. */
struct search_pool;
struct eval_weights;

/* An empty pool of one thread; NULL if the system has no memory or lock to give. */
struct search_pool *pool_new(void);
void pool_free(struct search_pool *p);
/* Sets the thread count and hash size; false (nothing changed) if memory is short. */
bool pool_configure(struct search_pool *p, int threads, size_t hash_mb);
/* How the next searches treat three armies on the board. */
void pool_set_search3(struct search_pool *p, enum search3 algorithm);
/* Starts searching the game's position with a copy of the weights (NULL: the built-in ones) and
 * returns at once; the result arrives through the callbacks. The game must not change until
 * pool_wait returns. */
bool pool_go(struct search_pool *p, struct game *g, const struct search_limits *l, const struct eval_weights *w,
             int multipv, int64_t move_overhead, const struct search_callbacks *cb);
/* The same search run in the calling thread, returning when it ends: no thread is started, so a
 * caller that searches many short positions one after another (datagen) pays no thread's start-up.
 * It must end by itself (no infinite or pondering limits). */
bool pool_run(struct search_pool *p, struct game *g, const struct search_limits *l, const struct eval_weights *w,
             int multipv, const struct search_callbacks *cb);
/* Asks the search to end (it reports its move through done); any thread may call either, at any time. */
void pool_stop(struct search_pool *p);
void pool_ponderhit(struct search_pool *p);
/* Waits for the search to end (it ends by itself unless infinite or pondering). */
void pool_wait(struct search_pool *p);
/* Clears the hash and every worker's history (ucinewgame). */
void pool_clear(struct search_pool *p);
/* The nodes the last search visited: all threads', and the main thread's own share. */
uint64_t pool_nodes(const struct search_pool *p);
uint64_t pool_main_nodes(const struct search_pool *p);

#endif
