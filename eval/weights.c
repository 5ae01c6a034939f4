/* The shipped evaluation weights, and the names of the evaluation's terms. */
#include "weights.h"

#include "trace.h"

const char *const eval_term_names[NUM_TERMS] = { "material", "piece-cell", "mobility", "royal safety", "pawns" };

/* Hand-set starting values; value_* were fitted to Pacey's Full House table (seed 001). */
const struct eval_weights eval_weights_default = {
    .value_scale = 0.606,
    .value_exponent = 0.894,
    .line_weight = 0.56,
    .pawn_value = 100,
    .centre = { 4, 2 },
    .royal_centre = { -6, 8 },
    .advance = { 2, 5 },
    .mobility = { 0, 0 },
    .passed = { 0, 0 },
    .doubled = { 0, 0 },
    .isolated = { 0, 0 },
    .protected_pawn = { 0, 0 },
    .shield = 8,
    .attack_unit = 8,
    .tempo = 12,
    .lazy_margin = 400,
    .stalemate_scale = 2000,
};
