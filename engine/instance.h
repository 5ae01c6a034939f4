/* The width-dependent engine behind one small table of functions: the rest of the program calls the
 * instance compiled for the variant's cell-set width and never sees a cell set. */
#ifndef INSTANCE_H
#define INSTANCE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../rules/move.h"
#include "../rules/setup.h"
#include "../rules/variant.h"
#include "engine.h"

struct engine_tables;   /* a variant's tables at one width */
struct position;
struct worker;
struct search_shared;
struct eval_trace;
struct eval_weights;
struct eval_params;
struct accumulator;
struct nnue_net;

struct engine_ops {
    int bits;   /* cell-set width */
    void (*init)(void);   /* builds the instance's constant tables (engine_init) */
    struct engine_tables *(*tables_new)(const struct variant *v);
    void (*tables_free)(struct engine_tables *tb);
    struct position *(*position_new)(const struct engine_tables *tb);
    void (*position_free)(struct position *pos);
    bool (*position_set)(struct position *pos, const struct setup *s, char *err, size_t errlen);
    void (*position_get)(const struct position *pos, struct setup *s);
    uint64_t (*position_key)(const struct position *pos);
    uint64_t (*position_compute_key)(const struct position *pos);
    int (*position_side)(const struct position *pos);
    bool (*position_in_check)(const struct position *pos);
    /* The same, faster, after a move made from a legal position (the search's). */
    bool (*position_in_check_after_move)(const struct position *pos);
    /* Whether a move would check, without making it: 1, 0, or -1 where only making it tells (two
     * players only; not castling, en passant, fission or fusion). */
    int (*position_move_checks)(const struct position *pos, move_t m);
    /* Whether a piece of the player attacks the cell (stopping at the first), and how many do (every
     * one gathered, as the move generator counts checkers): the second checks the first in the tests. */
    bool (*position_attacked_by)(const struct position *pos, int cell, int player);
    int (*position_attackers)(const struct position *pos, int cell, int player);
    void (*position_make)(struct position *pos, move_t m);
    void (*position_unmake)(struct position *pos, move_t m);
    void (*position_trim_history)(struct position *pos);
    int (*position_repetitions)(const struct position *pos);
    int (*movegen_legal)(struct position *pos, move_t *list);
    /* The legal captures and promotions of a side to move that is not in check. */
    int (*movegen_noisy)(struct position *pos, move_t *list);
    /* The search's lists (docs/engine.md): the same moves and, flagged MOVE_UNTESTED, moves that are
     * legal only if movegen_is_safe says so. */
    int (*movegen_pseudo)(struct position *pos, move_t *list);
    int (*movegen_pseudo_noisy)(struct position *pos, move_t *list);
    /* movegen_pseudo's list less movegen_pseudo_noisy's moves, in the same order. */
    int (*movegen_pseudo_quiet)(struct position *pos, move_t *list);
    bool (*movegen_is_safe)(const struct position *pos, move_t m);
    /* Whether m, MOVE_UNTESTED included, is a move of movegen_pseudo's list (noisy: of
     * movegen_pseudo_noisy's, not in check), found without the list. */
    bool (*movegen_is_pseudo)(struct position *pos, move_t m, bool noisy);
    /* The piece guide: a piece alone at from, where it moves and where it would capture. */
    void (*piece_reach)(const struct engine_tables *tb, int player, int type, int from, bool quiet[MAX_CELLS],
                        bool capture[MAX_CELLS]);
    uint64_t (*perft)(struct position *pos, int depth, const atomic_bool *stop);
    /* Three players: takes off the armies the rules remove before the turn; returns how many, for
     * position_unresolve. Two players: nothing happens. */
    int (*position_resolve)(struct position *pos, enum turn_end *end);
    void (*position_unresolve)(struct position *pos, int removed);
    unsigned (*position_armies)(const struct position *pos);   /* bit p: army p is on the board */
    /* The armies whose royal the side to move attacks (bit p), after a legal move; exact: tested
     * whole, else as the search finds them. */
    unsigned (*position_royals_attacked)(const struct position *pos, bool exact);
    struct worker *(*worker_new)(const struct engine_tables *tb);
    void (*worker_free)(struct worker *w);
    void (*worker_clear)(struct worker *w);
    void (*worker_search)(struct worker *w, const struct position *root, struct search_shared *sh, int id);
    move_t (*worker_best)(const struct worker *w, move_t *ponder, int *depth);
    /* Whether the exchange a capture starts comes to at least `threshold` for the mover (the search's SEE). */
    bool (*see_ge)(const struct engine_tables *tb, const struct position *pos, move_t m, int threshold);
    /* The full evaluation for the side to move; with a trace, every weight's count (eval/trace.h). */
    int (*evaluate)(const struct engine_tables *tb, const struct position *pos, const struct eval_weights *w,
                    struct eval_trace *trace);
    /* Rebuilds the evaluation's tables from other weights (false: out of memory, nothing changed);
     * never while a search uses the tables. Positions on them need position_rescore after. */
    bool (*eval_load)(struct engine_tables *tb, const struct eval_params *p);
    const struct eval_params *(*eval_params)(const struct engine_tables *tb);
    /* Recounts the sums the position keeps from the tables' weights (material, piece-cell). */
    void (*position_rescore)(struct position *pos);
    /* The net's score for the side to move, SCORE_NONE when the tables have no net (eval/nnue.h). */
    int (*nnue_evaluate)(const struct engine_tables *tb, struct position *pos);
    /* Takes the net (NULL: the classical evaluation); pos's accumulators are computed afresh. */
    void (*nnue_attach)(struct engine_tables *tb, struct position *pos, const struct nnue_net *net);
    /* A perspective's accumulator of pos (which must have a net), computed where it is not yet. */
    const struct accumulator *(*nnue_accumulator)(struct position *pos, int perspective);
};

extern const struct engine_ops engine_ops_128;
extern const struct engine_ops engine_ops_256;

/* The narrowest instance whose cell sets hold the variant's board; wide forces the widest. */
const struct engine_ops *instance_for(const struct variant *v, bool wide);

#endif
