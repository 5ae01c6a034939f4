/* Building books: from the match runner's game records, weighted by results, and by a
 * search-driven expansion of the tree from a position (docs/books.md). Both are deterministic. */
#ifndef BOOKS_BUILD_H
#define BOOKS_BUILD_H

#include <stdio.h>

#include "../games/book.h"

/* Each game of the variant adds an entry per move of its first max_ply plies: weight 12 × the
 * mover's score (a win 12, a draw 6, a 3/4 stalemate 9), learn 1 (the times the move was played). */
struct games_stats {
    int games;          /* games in the files */
    int used;           /* of the variant and scored */
    int other_variant, unscored;
};

/* Adds the games of one record file; on an error (a damaged record, an illegal move) err names the
 * file and line and the list may hold part of the file. */
bool book_add_games(struct book_entries *l, const struct variant *v, const char *path, int max_ply,
                    struct games_stats *st, char *err, size_t errlen);
/* Combines the list and drops the moves played fewer than min_games times; returns how many. */
size_t book_drop_rare(struct book_entries *l, uint32_t min_games);

/* The expansion: every position up to `plies` plies from the root is searched by one thread with
 * a cleared table, to `depth` and/or `nodes`, with MultiPV `width`; the moves within `margin`
 * centipawns of the best become entries of weight margin + 1 - (best - score), and the positions
 * they lead to are searched next. */
struct expand_options {
    const char *fen;    /* the root; NULL: the variant's start */
    int plies, margin, width, depth;
    uint64_t nodes;
    size_t hash_mb;
};

struct expand_stats {
    size_t positions;   /* searched */
    size_t unresolved;  /* searches that completed no iteration (too few nodes): no entries */
};

/* progress (may be NULL) gets one line per ply. */
bool book_expand(struct book_entries *l, const struct variant *v, const struct expand_options *o, FILE *progress,
                 struct expand_stats *st, char *err, size_t errlen);

#endif
