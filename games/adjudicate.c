/* Adjudication by the searches' scores: the match runner's and the data generator's. */
#include "adjudicate.h"

#include <stdlib.h>

void adjudicator_start(struct adjudicator *a)
{
    *a = (struct adjudicator){ .resigned = -1 };
}

void adjudicator_move(struct adjudicator *a, const struct adjudication *adj, int side, bool has_score, int score)
{
    bool losing = has_score && score <= -adj->resign_score;
    a->losing_moves[side] = losing ? a->losing_moves[side] + 1 : 0;
    if (adj->resign_movecount && a->losing_moves[side] >= adj->resign_movecount)
        a->resigned = side;
    bool quiet = has_score && abs(score) <= adj->draw_score;
    a->quiet_plies = quiet ? a->quiet_plies + 1 : 0;
}

enum adjudged adjudicator_verdict(const struct adjudicator *a, const struct adjudication *adj, int nplies)
{
    if (a->resigned >= 0)
        return ADJUDGED_RESIGN;
    if (adj->draw_movecount && a->quiet_plies >= 2 * adj->draw_movecount && nplies >= 2 * adj->draw_movenumber)
        return ADJUDGED_DRAW;
    return ADJUDGED_NONE;
}
