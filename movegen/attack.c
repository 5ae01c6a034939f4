/* Attacks: slider and rider targets, and which pieces attack a cell (included by engine/instance.c). */
#include "position.h"

static inline int first_blocker(cellset blockers, bool up)
{
    return up ? cs_lsb(blockers) : cs_msb(blockers);
}

/* Cells reached sliding along the given straight directions, including the first piece met. */
static inline cellset slide_targets(const struct tables *tb, int from, unsigned dirs, cellset occ)
{
    cellset out = cs_empty();
    for (; dirs; dirs &= dirs - 1) {
        int d = __builtin_ctz(dirs);
        cellset ray = tb->ray[d][from], blockers = cs_and(ray, occ);
        if (!cs_is_empty(blockers))
            ray = cs_xor(ray, tb->ray[d][first_blocker(blockers, tb->ray_up[d])]);
        out = cs_or(out, ray);
    }
    return out;
}

/* Landing cells of root-7 rides, including the first occupied one. */
static inline cellset ride_targets(const struct tables *tb, int from, unsigned dirs, cellset occ)
{
    cellset out = cs_empty();
    for (; dirs; dirs &= dirs - 1) {
        int d = __builtin_ctz(dirs);
        cellset line = tb->ride[d][from], blockers = cs_and(line, occ);
        if (!cs_is_empty(blockers))
            line = cs_xor(line, tb->ride[d][first_blocker(blockers, tb->ride_up[d])]);
        out = cs_or(out, line);
    }
    return out;
}

/* Pieces of a player that attack a cell, given an occupancy; with first_only, stops at the first. */
static inline cellset attackers_of(const struct position *pos, int cell, cellset occ, int player,
                                   bool first_only)
{
    const struct tables *tb = pos->tb;
    cellset found = cs_empty();
    for (int t = 0; t < pos->v->ntypes; t++) {
        cellset pcs = pos_pieces(pos, player, t);
        if (cs_is_empty(pcs))
            continue;
        const struct piece_tables *pt = &tb->pt[player][t];
        found = cs_or(found, cs_and(pt->leap_from[cell], pcs));
        for (unsigned dirs = pt->slide_from; dirs; dirs &= dirs - 1) {
            int d = __builtin_ctz(dirs);
            if (!cs_intersects(tb->ray[d][cell], pcs))
                continue;
            int b = first_blocker(cs_and(tb->ray[d][cell], occ), tb->ray_up[d]);
            if (cs_test(pcs, b))
                cs_set(&found, b);
        }
        for (unsigned dirs = pt->ride_from; dirs; dirs &= dirs - 1) {
            int d = __builtin_ctz(dirs);
            if (!cs_intersects(tb->ride[d][cell], pcs))
                continue;
            int b = first_blocker(cs_and(tb->ride[d][cell], occ), tb->ride_up[d]);
            if (cs_test(pcs, b))
                cs_set(&found, b);
        }
        if (first_only && !cs_is_empty(found))
            return found;
    }
    return found;
}

/* Is the cell attacked by any opponent of `us`? */
static inline bool attacked(const struct position *pos, int cell, cellset occ, int us)
{
    for (int p = 0; p < pos->v->nplayers; p++)
        if (p != us && !cs_is_empty(attackers_of(pos, cell, occ, p, true)))
            return true;
    return false;
}

static inline cellset checkers_of(const struct position *pos, int us)
{
    int king = pos_royal_cell(pos, us);
    cellset all = cs_empty();
    for (int p = 0; p < pos->v->nplayers; p++)
        if (p != us)
            all = cs_or(all, attackers_of(pos, king, pos->occ, p, false));
    return all;
}

static bool position_in_check(const struct position *pos)
{
    return !cs_is_empty(checkers_of(pos, pos->side));
}
