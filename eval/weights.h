/* Every evaluation weight in one table, so that a tuner can change them without touching code. */
#ifndef WEIGHTS_H
#define WEIGHTS_H

/* A weight for the middlegame and one for the endgame; the evaluation blends them by phase. */
struct phased {
    int mg, eg;
};

struct eval_weights {
    /* Piece values derived from mobility on the empty board, in pawns:
     * value_scale * (leap_mobility + line_weight * line_mobility) ^ value_exponent. */
    double value_scale, value_exponent, line_weight;
    int pawn_value;              /* centipawns per pawn of value */
    struct phased centre;        /* per cell of distance from the rim, non-royal pieces */
    struct phased royal_centre;  /* the same for the royal piece */
    struct phased advance;       /* pawns: per step advanced, squared / 4 */
    struct phased mobility;      /* centipawns per reachable cell beyond half the piece's empty-board average */
    struct phased passed;        /* passed pawn, per step advanced */
    struct phased doubled;       /* own pawn in front */
    struct phased isolated;      /* no own pawn within two cells */
    struct phased protected_pawn;
    int shield;                  /* own piece next to the royal, middlegame */
    int attack_unit;             /* enemy attacks on the royal's neighbourhood: penalty = units^2 * this / 16 */
    int tempo;
    int lazy_margin;             /* skip mobility and royal safety this far outside the window */
    int stalemate_scale;         /* centipawns of a whole point: a 3/4 stalemate is worth scale / 2 */
    int material_only;           /* 1: material alone, for weak baselines in matches (option Evaluation) */
};

/* The shipped weights. Nothing changes weights while a search runs: a search reads its own copy
 * (struct search_shared), taken when it starts from its caller's weights, and the tables a variant
 * builds once (piece values, piece-cell tables: value_* to advance above) use these. */
extern const struct eval_weights eval_weights_default;

#endif
