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

/* One player's attacking pieces, gathered once per node: per leaping type and per line group. */
struct attackers {
    const struct tables *tb;
    int nleap, nslide, nride;
    const cellset *leap_from[MAX_TYPES];
    cellset leap_pcs[MAX_TYPES];
    unsigned slide_dirs[NUM_STRAIGHT], ride_dirs[NUM_ROOT7];
    cellset slide_pcs[NUM_STRAIGHT], ride_pcs[NUM_ROOT7];
};

static inline cellset pieces_of_types(const struct position *pos, int player, uint32_t types)
{
    cellset out = cs_empty();
    for (; types; types &= types - 1)
        out = cs_or(out, pos->by_type[__builtin_ctz(types)]);
    return cs_and(out, pos->by_colour[player]);
}

static inline void attackers_init(struct attackers *a, const struct position *pos, int player)
{
    const struct tables *tb = pos->tb;
    const struct attack_groups *ag = &tb->attack[player];
    a->tb = tb;
    a->nleap = a->nslide = a->nride = 0;
    for (int i = 0; i < ag->nleap; i++) {
        int t = ag->leap_type[i];
        cellset pcs = pos_pieces(pos, player, t);
        if (cs_is_empty(pcs))
            continue;
        a->leap_from[a->nleap] = tb->pt[player][t].leap_from;
        a->leap_pcs[a->nleap++] = pcs;
    }
    for (int i = 0; i < ag->nslide; i++) {
        cellset pcs = pieces_of_types(pos, player, ag->slide[i].types);
        if (cs_is_empty(pcs))
            continue;
        a->slide_dirs[a->nslide] = ag->slide[i].dirs;
        a->slide_pcs[a->nslide++] = pcs;
    }
    for (int i = 0; i < ag->nride; i++) {
        cellset pcs = pieces_of_types(pos, player, ag->ride[i].types);
        if (cs_is_empty(pcs))
            continue;
        a->ride_dirs[a->nride] = ag->ride[i].dirs;
        a->ride_pcs[a->nride++] = pcs;
    }
}

/* The first piece along each direction, if it is one of pcs. */
static inline cellset line_hits(const cellset (*lines)[MAX_CELLS], const bool *up, unsigned dirs, cellset pcs,
                                int cell, cellset occ)
{
    cellset found = cs_empty();
    for (; dirs; dirs &= dirs - 1) {
        int d = __builtin_ctz(dirs);
        if (!cs_intersects(lines[d][cell], pcs))
            continue;
        int b = first_blocker(cs_and(lines[d][cell], occ), up[d]);
        if (cs_test(pcs, b))
            cs_set(&found, b);
    }
    return found;
}

/* The gathered pieces that attack a cell, given an occupancy; with first_only, stops at the first. */
static inline cellset attackers_to(const struct attackers *a, int cell, cellset occ, bool first_only)
{
    const struct tables *tb = a->tb;
    cellset found = cs_empty();
    for (int i = 0; i < a->nleap; i++) {
        found = cs_or(found, cs_and(a->leap_from[i][cell], a->leap_pcs[i]));
        if (first_only && !cs_is_empty(found))
            return found;
    }
    for (int i = 0; i < a->nslide; i++) {
        found = cs_or(found, line_hits(tb->ray, tb->ray_up, a->slide_dirs[i], a->slide_pcs[i], cell, occ));
        if (first_only && !cs_is_empty(found))
            return found;
    }
    for (int i = 0; i < a->nride; i++)
        found = cs_or(found, line_hits(tb->ride, tb->ride_up, a->ride_dirs[i], a->ride_pcs[i], cell, occ));
    return found;
}

/* Is the cell attacked by any opponent of `us`? (Gathers the attackers: not for hot loops.) */
static bool attacked(const struct position *pos, int cell, cellset occ, int us)
{
    struct attackers a;
    for (int p = 0; p < pos->v->nplayers; p++) {
        if (p == us)
            continue;
        attackers_init(&a, pos, p);
        if (!cs_is_empty(attackers_to(&a, cell, occ, true)))
            return true;
    }
    return false;
}

static cellset checkers_of(const struct position *pos, int us)
{
    struct attackers a;
    int king = pos_royal_cell(pos, us);
    cellset all = cs_empty();
    for (int p = 0; p < pos->v->nplayers; p++) {
        if (p == us)
            continue;
        attackers_init(&a, pos, p);
        all = cs_or(all, attackers_to(&a, king, pos->occ, false));
    }
    return all;
}

static bool position_in_check(const struct position *pos)
{
    return !cs_is_empty(checkers_of(pos, pos->side));
}
