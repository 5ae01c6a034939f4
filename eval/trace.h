/* The evaluation's terms for one position, as the `eval` command prints them. */
#ifndef TRACE_H
#define TRACE_H

#include "../rules/variant.h"

enum { TERM_MATERIAL, TERM_PST, TERM_MOBILITY, TERM_ROYAL, TERM_PAWNS, NUM_TERMS };

/* Per player and term, middlegame and endgame parts. */
struct eval_trace {
    int term[MAX_PLAYERS][NUM_TERMS][2];
    int phase;          /* 0 (endgame) .. 256 (middlegame) */
    int total;          /* from the side to move's view, tempo included */
    bool material_only; /* the Evaluation option is "material" */
};

extern const char *const eval_term_names[NUM_TERMS];

#endif
