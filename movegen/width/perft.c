/* Perft: counts leaf nodes of the legal move tree (included by engine/width/instance.c, once per width). */
#include <stdatomic.h>

#include "../position.h"

static uint64_t perft(struct position *pos, int depth, const atomic_bool *stop);

/* The moves of the player to move, counted to the depth. */
static uint64_t perft_moves(struct position *pos, int depth, const atomic_bool *stop)
{
    move_t list[MAX_MOVES];
    /* Bulk counting: the last ply's moves are counted, not made. */
    if (depth == 1)
        return (uint64_t)movegen_count(pos);
    int n = movegen_legal(pos, list);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        if (depth > 2 && atomic_load_explicit(stop, memory_order_relaxed))
            break;
        position_make(pos, list[i]);
        total += perft(pos, depth - 1, stop);
        position_unmake(pos, list[i]);
    }
    return total;
}

/* Stops early (returning a partial count) once *stop is set; checked where it costs nothing. With
 * three players each node first resolves the turn (turns.c) and counts the moves of whoever is then
 * to move; a finished game has none. */
static uint64_t perft(struct position *pos, int depth, const atomic_bool *stop)
{
    if (depth <= 0)
        return 1;
    if (pos->v->nplayers < 3)
        return perft_moves(pos, depth, stop);
    enum turn_end end;
    int removed = position_resolve(pos, &end);
    uint64_t total = end == TURN_PLAYS ? perft_moves(pos, depth, stop) : 0;
    position_unresolve(pos, removed);
    return total;
}
