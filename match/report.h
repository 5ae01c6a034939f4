/* The match's reports: the score after each game, Elo and SPRT every so many games, and the final
 * tables; the same for a live run and for records scored afterwards (docs/match.md). */
#ifndef REPORT_H
#define REPORT_H

#include <stdio.h>

#include "match.h"

/* After a game between the engines engine_of[] (by colour): the match's score, or in a tournament the
 * score of that pairing. */
void report_score(const struct match_conf *c, const struct match_result *r, const int engine_of[], FILE *out);
/* Every -ratinginterval games: Elo and SPRT, the pairs of a three-player match, or every pairing. */
void report_rating(const struct match_conf *c, const struct match_result *r, FILE *out);
/* At the end: the statistics, the table of engines (and seats, pairs), terminations and failures. */
void report_final(const struct match_conf *c, const struct match_result *r, FILE *out);

#endif
