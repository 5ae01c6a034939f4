/* What a position keeps summed as its pieces come and go, for the evaluation above it: the position
 * owns the sums (as Stockfish's keeps its net's accumulator), the evaluation owns the weights and
 * hands them to the tables (tables.h), and reads the sums back. Nothing here scores anything: a
 * piece in or out adds or takes away its weights (width-independent). */
#ifndef SUMS_H
#define SUMS_H

#include <stdbool.h>
#include <stdint.h>

#include "../rules/variant.h"

/* A piece's value and its [mg, eg] piece-cell bonus, and the types whose value counts toward the
 * game phase. */
struct psq_weights {
    const int *value;
    const int16_t (*cell)[MAX_TYPES][MAX_CELLS][2];
    uint32_t phase_types;
};

/* Each army's psq sums, and the keys of the pawns on the board (tables' pawn_types), for the pawn
 * cache. */
struct psq_sums {
    int material[MAX_PLAYERS], pst[MAX_PLAYERS][2], phase_material;
    uint64_t pawn_key;
};

enum { ACC_WIDTH = 128 };   /* an accumulator's sums per perspective */

/* How a variant's pieces become features: perspective p sees army (p + k) % nplayers as its k-th,
 * and the board turned so that its own army stands where the first army starts. */
struct feature_view {
    int nplayers, ntypes, ncells, nfeatures;
    unsigned char cell[MAX_PLAYERS][MAX_CELLS];
};

/* The feature of a piece (piece_make code) on a cell, from perspective p. */
static inline int feature_index(const struct feature_view *view, int p, int piece, int cell)
{
    int army = piece_colour(piece) - p;
    army += army < 0 ? view->nplayers : 0;
    return (army * view->ntypes + piece_type(piece)) * view->ncells + view->cell[p][cell];
}

/* One perspective's sums over the pieces: the features' columns, and their linear piece-cell term
 * (which no clipping bounds, so that material counts however lopsided the position). */
struct accumulator {
    int16_t v[ACC_WIDTH];
    int32_t psqt;
};

enum { ACC_STACK = 64, ACC_CHANGES = 2 };   /* states a position keeps accumulators for; pieces a move
                                               puts on or takes off, each */

/* A piece (piece_make code) on a cell. */
struct acc_piece {
    unsigned char piece, cell;
};

/* One state's accumulators and what the move that reached it changed: make notes the change, and the
 * accumulators are computed from the parent's when the evaluation first needs them (as Stockfish
 * does), so that unmake has nothing to undo. A position keeps a ring of ACC_STACK, by ply. */
struct acc_entry {
    int ply;                            /* the state it belongs to, where the position marks it known */
    bool computed;                      /* acc holds the sums */
    bool unknown;                       /* the change did not fit (an army taken off): only the board tells */
    unsigned char nremoved, nadded;
    struct acc_piece removed[ACC_CHANGES], added[ACC_CHANGES];
    struct accumulator acc[MAX_PLAYERS];
};

/* The net's first layer, what the accumulators sum: a column of ACC_WIDTH weights and one piece-cell
 * weight per feature, and the starting bias. */
struct feature_weights {
    struct feature_view view;
    int16_t *weight;                    /* nfeatures x ACC_WIDTH */
    int32_t *psqt_weight;               /* nfeatures */
    int16_t bias[ACC_WIDTH];
};

#endif
