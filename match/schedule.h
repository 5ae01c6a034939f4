/* The schedule of a match: which engines play game i, in which colours, from which opening. Game i
 * depends only on the configuration and i, so that it is the same game whichever shard plays it. */
#ifndef SCHEDULE_H
#define SCHEDULE_H

#include "match.h"

/* How many orders of n engines over the colours there are: n!. */
int schedule_seatings(int n);
/* The pairs of engines that meet: one (all engines) in a match, n - 1 in a gauntlet (the first
 * engine against each other one), n (n - 1) / 2 in a round robin. */
int schedule_pairings(const struct match_conf *c);
/* Game i: engine_of[colour] for each of the variant's colours, and the number of its opening in the
 * schedule (to be taken modulo the openings there are). */
void schedule_game(const struct match_conf *c, int i, int engine_of[MAX_PLAYERS], int *opening);

#endif
