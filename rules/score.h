/* Search scores: centipawns from the side to move's view, with mates at the far ends. */
#ifndef SCORE_H
#define SCORE_H

enum {
    MAX_PLY = 128,
    SCORE_INF = 32001,
    SCORE_MATE = 32000,                      /* mated at the root: -SCORE_MATE */
    SCORE_MATE_BOUND = SCORE_MATE - MAX_PLY, /* at or beyond: a mate in at most MAX_PLY plies */
    SCORE_NONE = -32002,
};

/* What a search's score is: exact, or a bound while its window fails (bit flags: exact is both). */
enum { BOUND_NONE, BOUND_UPPER, BOUND_LOWER, BOUND_EXACT };

/* The mover's own moves to the end of a mate score (|score| >= SCORE_MATE_BOUND) with armies on the
 * board taking turns: the last army left after N moves, or eliminated (negative) after N moves. */
static inline int score_mate_moves(int score, int armies)
{
    return score > 0 ? (SCORE_MATE - score + armies - 1) / armies : -((SCORE_MATE + score + armies - 1) / armies);
}

#endif
