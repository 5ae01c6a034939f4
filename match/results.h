/* Scoring games into a match's results: each game as it finishes in a live run, or the records of a
 * run's shards read back afterwards (`sennight match --results`), with the same arithmetic. */
#ifndef RESULTS_H
#define RESULTS_H

#include <stdio.h>

#include "match.h"

/* Adds a finished game, engine_of[colour] having played each colour, to every tally. Returns whether
 * the game brought the SPRT to its verdict (later games are scored but do not reopen the test). */
bool results_add(const struct match_conf *c, struct match_result *r, const struct game_record *rec,
                 const int engine_of[]);
/* `sennight match --results <pgn>...`: the games of the record files scored in the order of their
 * numbers (Round), the engines named as in the records, then the report a live run ends with. The
 * engines, variant and number of players come from the records; c gives the -sprt test. Returns 0,
 * or 1 with one line on stderr (and in r->error) when a file cannot be read or the records do not make
 * one run. */
int results_main(struct match_conf *c, struct match_result *r, FILE *out);

#endif
