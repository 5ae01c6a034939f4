/* Time management: from the clock to a soft budget (do not start another iteration past it) and a
 * hard one (stop at once), leaving the move overhead and a safety margin. */
#ifndef TIMEMAN_H
#define TIMEMAN_H

#include "search.h"

void timeman_init(struct search_shared *sh, int side, int64_t move_overhead);

#endif
