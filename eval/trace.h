/* A position's evaluation as counts of every weight per army (docs/eval.md): the evaluation is
 * sum(count * weight) per army, blended by phase, against the mean of the opponents. The `eval`
 * command prints it by term; the tuner fits the weights to it. */
#ifndef TRACE_H
#define TRACE_H

#include <stdint.h>

#include "weights.h"

struct eval_trace {
    int16_t coef[MAX_PLAYERS][NUM_WEIGHTS];
    bool counted[MAX_PLAYERS]; /* the opponents whose mean is subtracted (still on the board) */
    int phase;          /* 0 (endgame) .. 256 (middlegame) */
    int view;           /* whose score total is */
    int total;          /* the evaluation */
    bool material_only; /* the Evaluation option is "material": only total is set */
};

/* The evaluation the counts give with the weights, computed as the evaluation does. */
int trace_evaluate(const struct eval_trace *tr, const struct eval_params *p, int nplayers);
/* Per army and term, the middlegame and endgame sums. */
void trace_terms(const struct eval_trace *tr, const struct eval_params *p, int nplayers, int term[][NUM_TERMS][2]);

#endif
