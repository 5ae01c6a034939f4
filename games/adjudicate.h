/* Adjudication by the searches' scores, as the match runner's -draw and -resign options define it
 * (docs/match.md): the counts kept through one game and the verdict before each move. */
#ifndef ADJUDICATE_H
#define ADJUDICATE_H

#include <stdbool.h>

#include "../rules/variant.h"

/* The rules; a count of 0 turns a rule off. */
struct adjudication {
    int draw_movenumber, draw_movecount, draw_score;
    int resign_movecount, resign_score;
};

/* The running counts of one game: adjudicator_start before the first move. */
struct adjudicator {
    int quiet_plies;                    /* consecutive plies scored within draw_score of 0 */
    int losing_moves[MAX_PLAYERS];      /* each army's consecutive moves scored -resign_score or worse */
    int resigned;                       /* the army that resigns, or -1 */
};

enum adjudged { ADJUDGED_NONE, ADJUDGED_RESIGN, ADJUDGED_DRAW };

void adjudicator_start(struct adjudicator *a);
/* After army side's move, with the score its search gave it (has_score false: none). */
void adjudicator_move(struct adjudicator *a, const struct adjudication *adj, int side, bool has_score, int score);
/* Before the next move, nplies plies into the game: a resignation (a->resigned loses), a draw, or neither. */
enum adjudged adjudicator_verdict(const struct adjudicator *a, const struct adjudication *adj, int nplies);

#endif
