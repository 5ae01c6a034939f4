/* `sennight tune`: a Texel-style fit of the evaluation's weights to quiet positions (docs/eval.md). */
#ifndef TUNE_H
#define TUNE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../engine/engine.h"
#include "../eval/trace.h"
#include "../eval/weights.h"

struct tune_options {
    double lambda;      /* weight of the game result in the target; the search score gets 1 - lambda */
    double lr;          /* Adam's step, centipawns */
    double k;           /* the sigmoid's scale; 0: fitted to the data first */
    int epochs, threads;
    long batch;         /* positions per step; 0: all */
    uint64_t seed;      /* the order of the positions in batches */
};

/* Positions as sparse weight counts from the mover's view, each with its result and search score. */
struct tune_set {
    const struct variant *v;
    size_t n, cap, ncoef, coef_cap;
    struct tune_position {
        size_t first;   /* its counts: id[first ..], count[first ..] */
        int ncoef;
        float phase;    /* 0 .. 1: the middlegame's share */
        float result;   /* the mover's points, 0 .. 1 */
        float score;    /* the search's score, centipawns */
    } *pos;
    uint16_t *id;
    float *count;
};

void tune_set_free(struct tune_set *s);
/* Adds a position from its trace (the evaluation for the side to move); false: out of memory. */
bool tune_set_add(struct tune_set *s, const struct eval_trace *tr, int nplayers, double result, double score);
/* Every quiet position of the variant in a datagen file (others are counted in *skipped); one error line. */
bool tune_set_read(struct tune_set *s, struct game *g, const char *path, long *skipped, char *err, size_t errlen);
/* The K that best fits the evaluations with p to the game results. */
double tune_fit_k(const struct tune_set *s, const struct eval_params *p, int threads);
/* Mean squared error between sigmoid(K * eval / 400) and the target. */
double tune_loss(const struct tune_set *s, const struct eval_params *p, const struct tune_options *o);
/* Adam over every weight the positions count, from p; the result rounded to whole centipawns. */
bool tune_run(const struct tune_set *s, const struct tune_options *o, struct eval_params *p, FILE *progress);

#endif
