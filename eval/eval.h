/* Static evaluation (width-dependent: included by engine/width/instance.c after the move generator). */
#ifndef EVAL_H
#define EVAL_H

#include "../movegen/position.h"
#include "trace.h"
#include "weights.h"

/* Tables the evaluation derives once per variant from geometry and piece movement. */
struct eval_data {
    struct eval_params p;                          /* the weights these tables were built from */
    int value[MAX_TYPES];                          /* centipawns: the values' middlegame part */
    int by_value[MAX_TYPES];                       /* types from least to most valuable, royal last */
    int start_phase;                               /* non-pawn material of the start position */
    int64_t packed[NUM_WEIGHTS];                   /* each weight as eval_pack(mg, eg): one addition adds both */
    bool mobile[MAX_TYPES];                        /* a type's mobility weighs something */
    bool threats, triad, balance;                  /* some threat, triad, leader weight is not 0 */
    uint32_t bound_types;                          /* the types that never leave their cell colour (pawns: tables.pawn_types) */
    uint32_t piece_types;                          /* neither pawn nor royal: the types with mobility */
    uint32_t royal_types;                          /* royal and not pawn: with the pawns, the types without mobility */
    int8_t pawn_slot[MAX_TYPES];                   /* a pawn type's place among its army's pawn types */
    bool cache_pawns;                              /* few enough pawn types in every army for the pawn cache */
    int ngroups;                                   /* value groups of the types that are not royal */
    uint32_t value_group[MAX_TYPES];               /* the types of equal value, groups from the least */
    int8_t group_of[MAX_TYPES];                    /* a type's value group */
    cellset colour[3];                             /* cells by colour */
    int16_t pst[MAX_PLAYERS][MAX_TYPES][MAX_CELLS][2]; /* piece-cell bonuses, [mg, eg] side by side;
                                                      eg includes the value's eg - mg */
    uint16_t pst_weight[MAX_PLAYERS][MAX_TYPES][MAX_CELLS]; /* the weight id of each piece-cell entry */
    int8_t advance[MAX_PLAYERS][MAX_TYPES][MAX_CELLS]; /* pawns: steps made toward promotion */
    cellset front[MAX_PLAYERS][MAX_TYPES][MAX_CELLS];  /* pawns: cells still ahead */
    cellset passed[MAX_PLAYERS][MAX_TYPES][MAX_CELLS]; /* pawns: cells where an enemy pawn can stop it */
    cellset near[MAX_CELLS];                       /* cells within two steps */
    bool one_step[MAX_PLAYERS][MAX_TYPES];         /* pawns with at most one step from every cell */
    uint8_t step_to[MAX_PLAYERS][MAX_TYPES][MAX_CELLS]; /* with one_step: that step, CELL_NONE for none */
    int8_t step_shift[MAX_PLAYERS][MAX_TYPES];     /* with one_step, where every step adds the same offset
                                                      to the cell's index (along a file: 1 or -1): that
                                                      offset, else 0 */
    cellset step_from[MAX_PLAYERS][MAX_TYPES];     /* with step_shift: the cells with a step */
    cellset stuck[MAX_PLAYERS][MAX_TYPES];         /* with step_shift: the cells with none */
};

struct nnue_net;

/* What the evaluation keeps per variant at one width, beside the move generator's tables: its own
 * tables (eval_attach builds them) and the net (NULL: the classical evaluation). */
struct eval_tables {
    struct eval_data *data;
    const struct nnue_net *net;
};

#endif
