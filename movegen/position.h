/* A position as cell sets plus mailbox, with make/unmake and incremental keys (width-dependent). */
#ifndef POSITION_H
#define POSITION_H

#include "../rules/move.h"
#include "../rules/setup.h"
#include "tables.h"

/* A game's states since its last trim (position_trim_history keeps half) and a search's. So many that a
 * position stays under 128 KB, which allocators serve from their pools: a larger block is a mapping
 * of its own, and unmapping it stops every thread of the process (a TLB shootdown). */
enum { MAX_STATES = 960 };

/* What make() changes that unmake() cannot recompute, or puts back faster than it could. */
struct state {
    uint64_t key;
    move_t move;
    int moved;         /* piece code that moved, before any promotion */
    int captured;      /* piece code taken by the move, 0 if none */
    int ep;            /* en-passant cell after the move (the first a multi-step passed), CELL_NONE if none */
    int ep_far;        /* the second cell a triple step passed, also en passant, or CELL_NONE */
    int ep_victim;     /* the pawn that may be taken en passant */
    unsigned castling; /* castling rights held (castle_bit) */
    int castle_rule;   /* the rule of a castling move (variant.h castle[side][rule]) */
    int halfmove;
    int side_before;   /* the player to move before this state */
    /* The sums and the types on the board before the move: unmake puts them back. */
    struct psq_sums sums_before;
    uint32_t types_before[MAX_PLAYERS];
};

enum { MAX_ELIMINATIONS = 4, MAX_ARMY = 128 };

/* An army taken off the board (three players), kept so it can be put back. */
struct removed_army {
    int n;
    unsigned char cell[MAX_ARMY], piece[MAX_ARMY];
};

struct position {
    const struct tables *tb;
    const struct variant *v;
    cellset by_type[MAX_TYPES];
    cellset by_colour[MAX_PLAYERS];
    cellset occ;
    uint32_t types[MAX_PLAYERS];  /* the types each army has on the board: loops over types skip the others */
    unsigned char board[MAX_CELLS];
    int side;
    int fullmove;
    int royal[MAX_PLAYERS]; /* each player's royal piece type */
    int ply;            /* index of the current state */
    int nremoved;       /* armies taken off by eliminations not yet undone */
    struct removed_army removed[MAX_ELIMINATIONS];
    struct psq_sums sums;
    /* With feature weights (tables.h), the accumulators of the latest states (ACC_STACK entries, a
     * block of their own: movegen/width/accumulators.c), the entry make notes its changes in, and
     * which entries have been written since they were last forgotten (bit i: entry i). */
    struct acc_entry *accs, *noting;
    uint64_t acc_written;
    struct state st[MAX_STATES];
};
_Static_assert(sizeof(struct position) <= 128 * 1024, "a position of over 128 KB is a mapping of its own");

static inline cellset pos_pieces(const struct position *pos, int colour, int type)
{
    return cs_and(pos->by_type[type], pos->by_colour[colour]);
}

static inline int pos_royal_cell(const struct position *pos, int colour)
{
    cellset k = pos_pieces(pos, colour, pos->royal[colour]);
    return cs_is_empty(k) ? CELL_NONE : cs_lsb(k);
}

/* The next army in turn order that is still on the board (has its royal). */
static inline int pos_next_player(const struct position *pos, int colour)
{
    int n = pos->v->nplayers;
    if (n == 2)
        return 1 - colour;
    for (int k = 1; k < n; k++)
        if (pos_royal_cell(pos, (colour + k) % n) != CELL_NONE)
            return (colour + k) % n;
    return colour;
}

#endif
