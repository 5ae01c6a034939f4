/* The game review (docs/gui.md#game-review): an engine process of its own, in a thread of its own,
 * searches every position of a game at a fixed budget; each move is judged by the drop in the mover's
 * expected score, each army gets an accuracy, and the PGN export writes the results as [%eval]
 * comments and NAGs. */
#ifndef REVIEW_H
#define REVIEW_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "../rules/variant.h"

enum { REVIEW_MAX_PLIES = 1000 };   /* a longer game is not reviewed: each position's command grows with it */

/* The budget of each search: a node count or a time. */
struct review_budget {
    long long nodes, movetime_ms;
};

enum judgement { JUDGED_GOOD, JUDGED_INACCURACY, JUDGED_MISTAKE, JUDGED_BLUNDER };

struct review;

/* Starts reviewing the game (its start FEN and its legal moves as UCI text) with the engine `cmd` of
 * the session's engine list; NULL with err without memory or a thread. */
struct review *review_start(const char *cmd, const struct variant *v, const char *start, const char *const *moves,
                            int n, struct review_budget budget, char *err, size_t errlen);
/* Stops a running review (its engine is ended at once); the moves reviewed so far are kept. */
void review_stop(struct review *r);
bool review_running(struct review *r);
/* Stops it and frees it (NULL: nothing). */
void review_free(struct review *r);
/* Grows with every position reviewed and with the end of the review. */
long long review_version(struct review *r);
/* {"state", "message", "done", "total", "budget", "moves": [...], "accuracy": {...}} (docs/gui.md). */
json_t *review_json(struct review *r);
/* Move i's NAG ("?!", "?", "??" or NULL) and [%eval] comment for the PGN; false if it was not reviewed. */
bool review_annotation(struct review *r, int i, const char **nag, char *comment, size_t len);

/* The mover's expected score from its search score (centipawns, mates as ±(UCI_MATE_SCORE - n))
 * against the other armies on the board (their latest scores, NAN: unknown, taken as average): with
 * one other, lichess's logistic of its own score; with more, its share of the points as the share
 * bars show it (shares.h). */
double review_expected(int score, const double *others, int nothers);
/* A move by the drop of the mover's expected score from the best move's to the played move's. */
enum judgement review_judge(double drop);
/* lichess's accuracy of a move (0..100) from that drop. */
double review_move_accuracy(double drop);

#endif
