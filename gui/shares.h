/* Each army's expected share of the points, from search scores: the one conversion that the game review
 * (review.c), the evaluation bar and graph of two-army games and the share bars of three- and four-army
 * games (the STATE and analysis events) use. */
#ifndef SHARES_H
#define SHARES_H

#include <jansson.h>
#include <stdbool.h>

#include "../rules/variant.h"

/* Each army's latest search score, for itself (centipawns; a mate as uci_reply's ±(UCI_MATE_SCORE - n)). */
struct shares {
    bool known[MAX_PLAYERS];
    int score[MAX_PLAYERS];
    int latest; /* the army of the latest score, -1 before any */
};

/* The shares (0..1, summing to 1) of the armies in `board` (a bit per army of n) from their scores
 * (NAN: none yet), each the army's evaluation minus the mean of the others'. */
void shares_expected(int n, unsigned board, const double *score, double *share);

void shares_reset(struct shares *sh);
/* A search for `army` scored `value` ('info score cp' or, with `mate`, 'score mate'). */
void shares_record(struct shares *sh, int army, bool mate, int value);
/* {"w": 0.4, ...} over the armies in `board`, from the latest scores; with two armies from the latest
 * score alone, the other army's being its negation. */
json_t *shares_json(const struct shares *sh, const struct variant *v, unsigned board);

#endif
