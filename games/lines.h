/* One reproducible search for the builders: the pool's single thread, a cleared table and history,
 * depth and node limits only, so the same position always gives the same lines. */
#ifndef LINES_H
#define LINES_H

#include "../engine/engine.h"

/* The last complete iteration's lines, best first, as the search reports them. */
struct lines {
    int depth, n;
    move_t move[MAX_MULTIPV];
    int score[MAX_MULTIPV];     /* centipawns, from the mover's view */
    move_t best;                /* the move the search chose, even in an unfinished iteration */
};

/* Searches the game's position with MultiPV width; false if the search cannot start. A search that
 * completes no iteration leaves out->n at 0 (out->best is still its move). */
bool lines_search(struct search_pool *pool, struct game *g, int width, int depth, uint64_t nodes, struct lines *out);
/* The same search with the table and history as the pool's previous searches left them. */
bool lines_continue(struct search_pool *pool, struct game *g, int width, int depth, uint64_t nodes,
                    struct lines *out);

#endif
