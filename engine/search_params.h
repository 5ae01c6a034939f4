/* The search's parameters, in one place (engine/search.c, engine/search_multi.c): depths in plies,
 * margins in centipawns. Every one shapes the search's trees: a change shows in the bench signature. */
#ifndef SEARCH_PARAMS_H
#define SEARCH_PARAMS_H

enum {
    /* Internal iterative reduction: from this depth, a node the table knows no move for. */
    IIR_DEPTH = 4,
    /* Reverse futility: to this depth, the evaluation above beta by the margin per ply (a ply less
     * where improving). */
    RFP_DEPTH = 7,
    RFP_MARGIN = 90,
    /* Null move: from this depth, reduced by NMP_REDUCTION + depth / NMP_REDUCTION_DIVISOR plies. */
    NMP_DEPTH = 3,
    NMP_REDUCTION = 3,
    NMP_REDUCTION_DIVISOR = 4,
    /* Futility pruning of quiet moves: to this depth, the evaluation plus the base and the margin per
     * ply at most alpha. */
    FUTILITY_DEPTH = 6,
    FUTILITY_BASE = 100,
    FUTILITY_MARGIN = 120,
    /* Late move pruning: the quiet moves after LMP_BASE + depth² searched ones. */
    LMP_BASE = 4,
    /* Late move reductions: from this depth (the table's shape: LMR_BASE, LMR_DIVISOR below). */
    LMR_DEPTH = 3,
    /* SEE pruning: to this depth, a move whose exchange loses more than the margin per ply. */
    SEE_PRUNE_DEPTH = 7,
    SEE_PRUNE_MARGIN = 75,
    /* The quiescence search's captures past which only recaptures, promotions and checks are searched,
     * and the margin above the evaluation that its delta and futility pruning allow. */
    QS_MOVES = 2,
    QS_MARGIN = 200,
    /* Aspiration windows: from this depth, the last score ± the delta, widened by half at each failure. */
    ASPIRATION_DEPTH = 4,
    ASPIRATION_DELTA = 20,
    /* The history bonus of a cut: depth² times this, at most half the history's bound. */
    HISTORY_BONUS = 16,
    /* The quiet moves a node remembers for the history malus. */
    QUIETS_MAX = 64,
};

/* The late move reductions' table: LMR_BASE + ln(depth) ln(move number) / LMR_DIVISOR. */
#define LMR_BASE 0.75
#define LMR_DIVISOR 2.25

/* Output: progress lines at most this often, and a window's failures reported once the search has run
 * this long. */
enum { PROGRESS_EVERY_MS = 1000, BOUND_LINES_AFTER_MS = 3000 };

#endif
