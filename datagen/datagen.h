/* Training data from self-play (docs/datagen.md): games from an opening suite and a few seeded random
 * plies, one reproducible search per move, the quiet positions written with their scores and the
 * games' results. Game g depends only on the options and g, so the same options give the same bytes
 * whatever the concurrency, and the shards of a run concatenate into the unsharded file. */
#ifndef DATAGEN_H
#define DATAGEN_H

#include <stdint.h>
#include <stdio.h>

#include "../games/adjudicate.h"
#include "../rules/variant.h"

enum { DATAGEN_MAX_CONCURRENCY = 256 };

struct datagen_options {
    const struct variant *v;
    const char *openings;       /* an EPD or FEN file; NULL: the shipped suite books/openings/<variant>.epd */
    uint64_t games, nodes, seed;
    int shard, nshards;         /* this run plays block `shard` (from 1) of the games cut into nshards blocks */
    int concurrency, random_plies;
    size_t hash_mb;             /* each game's search: one thread, a table of this size */
    struct adjudication adj;    /* with two players only */
    FILE *progress;             /* a progress line (games, positions/s, ETA) about every second; NULL: none */
};

/* The adjudication by default: a draw after move 40 once 8 moves each score within 10 cp of 0, a
 * resignation at -600 cp or worse for 3 moves in a row. */
extern const struct adjudication datagen_adjudication;

struct datagen_stats {
    uint64_t games, plies;      /* played, and searched in them */
    uint64_t positions;         /* written */
    uint64_t crowded;           /* quiet, but more pieces than a record holds: not written */
    int64_t ms;
};

/* Plays the shard's games and writes their records, in the order of the games, through a temporary
 * file renamed to path; false with one line in err (nothing is written then). */
bool datagen_run(const char *path, const struct datagen_options *o, struct datagen_stats *st, char *err,
                 size_t errlen);

#endif
