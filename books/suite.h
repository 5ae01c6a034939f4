/* Opening suites for matches: distinct positions a few random plies from the start that a fixed
 * search scores as balanced, written as EPD lines (docs/books.md). The same options give the same
 * bytes: the plies come from a seeded generator and every search is reproducible (games/lines.h). */
#ifndef SUITE_H
#define SUITE_H

#include "../engine/engine.h"
#include "../util/text.h"

struct suite_options {
    int count;                  /* positions wanted */
    int min_plies, max_plies;   /* each candidate plays a number of random plies drawn from this range */
    int max_score;              /* kept when the search scores it within this many centipawns of 0 */
    uint64_t nodes, seed;
    size_t hash_mb;
};

/* What became of the candidates, each a random game from the start. */
struct suite_stats {
    size_t candidates;
    size_t ended;       /* over, the mover in check, or an army gone: not searched */
    size_t repeated;    /* a position searched before (or the start): not searched again */
    size_t unbalanced;  /* searched: a score beyond max_score, or no completed iteration */
};

/* Appends `count` EPD lines (after a '#' line naming the options) to epd; fails, with err saying
 * how far it got, when 100 candidates per position wanted are not enough. */
bool suite_generate(const struct variant *v, const struct suite_options *o, struct text *epd, struct suite_stats *st,
                    char *err, size_t errlen);

#endif
