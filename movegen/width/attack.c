/* Attacks: slider and rider targets, and which pieces attack a cell (included by engine/width/instance.c). */
#include "../position.h"

/* Cells along a line, stopping at (and including) the first piece. Where no piece stands in the way,
 * the board's last (first) cell stands in for one: nothing lies beyond it in that direction. */
static inline __attribute__((always_inline)) cellset lines_up(const struct tables *tb, const cellset (*lines)[NUM_STRAIGHT],
                                                              unsigned dirs, int from, cellset occ)
{
    cellset out = cs_empty(), top = tb->bit[tb->ncells - 1];
    for (; dirs; dirs &= dirs - 1) {
        int d = __builtin_ctz(dirs);
        cellset line = lines[from][d];
        out = cs_or(out, cs_xor(line, lines[cs_lsb(cs_or(cs_and(line, occ), top))][d]));
    }
    return out;
}

static inline __attribute__((always_inline)) cellset lines_down(const struct tables *tb, const cellset (*lines)[NUM_STRAIGHT],
                                                                unsigned dirs, int from, cellset occ)
{
    cellset out = cs_empty(), bottom = tb->bit[0];
    for (; dirs; dirs &= dirs - 1) {
        int d = __builtin_ctz(dirs);
        cellset line = lines[from][d];
        out = cs_or(out, cs_xor(line, lines[cs_msb(cs_or(cs_and(line, occ), bottom))][d]));
    }
    return out;
}

/* Both ways along whole axes with one subtraction each: the bits from the nearest piece below the
 * cell up to the nearest piece above it (obstruction difference). */
static inline __attribute__((always_inline)) cellset axes_attack(const struct tables *tb, unsigned axes, int from,
                                                                 cellset occ)
{
    cellset out = cs_empty();
    for (; axes; axes &= axes - 1) {
        int a = __builtin_ctz(axes);
        cellset lo = tb->ray[from][axis_down[a]], hi = tb->ray[from][axis_up[a]];
        cellset hi_occ = cs_and(hi, occ);
        cellset low_blocker = tb->bit[cs_msb(cs_or(cs_and(lo, occ), tb->bit[0]))];
        out = cs_or(out, cs_and(cs_or(lo, hi), cs_xor(hi_occ, cs_sub(hi_occ, low_blocker))));
    }
    return out;
}

/* Cells reached sliding or riding, including the first piece met in each direction. */
static inline __attribute__((always_inline)) cellset line_targets(const struct tables *tb, const struct line_dirs *slides,
                                                                  const struct line_dirs *rides, int from, cellset occ)
{
    cellset out = cs_empty();
    if (slides->axes)
        out = axes_attack(tb, slides->axes, from, occ);
    if (slides->up)
        out = cs_or(out, lines_up(tb, tb->ray, slides->up, from, occ));
    if (slides->down)
        out = cs_or(out, lines_down(tb, tb->ray, slides->down, from, occ));
    if (rides->up)
        out = cs_or(out, lines_up(tb, tb->ride, rides->up, from, occ));
    if (rides->down)
        out = cs_or(out, lines_down(tb, tb->ride, rides->down, from, occ));
    return out;
}

/* Cells reached along curved paths from the cell, including the first piece met on each path. A
 * path clear of pieces is taken whole; only a blocked one is walked. Both turn senses share the
 * first step, so a piece there ends both. */
static inline cellset curved_targets(const struct tables *tb, unsigned dirs, const unsigned char *steps, int from,
                                     cellset occ)
{
    cellset out = cs_empty();
    for (; dirs; dirs &= dirs - 1) {
        int d = __builtin_ctz(dirs), limit = steps[d >= DIR_DIAG];
        const struct curved_ray *cr = tb->curved[from][d];
        if (!cr[0].len)
            continue;
        if (cs_test(occ, cr[0].cell[0])) {
            out = cs_or(out, cr[0].prefix[0]);
            continue;
        }
        for (int s = 0; s < 2; s++) {
            int n = cr[s].len < limit ? cr[s].len : limit;
            if (!cs_intersects(cr[s].prefix[n - 1], occ)) {
                out = cs_or(out, cr[s].prefix[n - 1]);
                continue;
            }
            /* The first piece's index is the number of clear prefixes (those past the limit, or past
             * the path's end, hold a piece too): counted without a branch to mispredict. */
            int k = 1;
            for (int j = 1; j < CURVED_MAX_STEPS - 1; j++)
                k += !cs_intersects(cr[s].prefix[j], occ);
            out = cs_or(out, cr[s].prefix[k]);
        }
    }
    return out;
}

/* The targets of one side of a path past its first cell (struct path_range): those before its first
 * taken cell; with seen, the cells looked at are added to it (up to that one). */
static inline cellset chain_targets(const struct tables *tb, const struct path_range *r, int s, cellset occ,
                                    cellset *seen)
{
    int e = r->len[s];
    if (cs_intersects(r->cells[s], occ))
        for (e = 0; !cs_test(occ, tb->chain_cell[r->at[s] + e]); e++)
            ;
    if (seen)
        *seen = cs_or(*seen, tb->chain_seen[r->at[s] + e]);
    return tb->chain_to[r->at[s] + e];
}

/* Cells reached along crooked, bent and joined paths (first directions by kind): each move whose
 * passed cells are empty, ending on an empty cell or a piece. With seen, every cell looked at (a
 * target or a cell passed) is added to it. */
static inline cellset path_targets(const struct tables *tb, const unsigned dirs[PATH_KINDS], int from, cellset occ,
                                   cellset *seen)
{
    cellset out = cs_empty();
    for (int k = 0; k < PATH_KINDS; k++)
        for (unsigned d = dirs[k]; d; d &= d - 1) {
            const struct path_range *r = &tb->path_at[from][k][__builtin_ctz(d)];
            out = cs_or(out, r->free_to);
            /* Side 0's chain is there whenever some move passes the first cell. */
            if (seen && r->at[0])
                *seen = cs_or(*seen, tb->bit[r->first]);
            if (!cs_test(occ, r->first))
                out = cs_or(out, cs_or(chain_targets(tb, r, 0, occ, seen), chain_targets(tb, r, 1, occ, seen)));
        }
    return out;
}

/* The first piece beyond the first piece (the screen) along each direction: hopping captures. With
 * seen, the cells looked at are added to it: up to that piece, else the whole line. */
static inline cellset hop_targets(const struct tables *tb, unsigned dirs, int from, cellset occ, cellset *seen)
{
    cellset out = cs_empty();
    for (; dirs; dirs &= dirs - 1) {
        int d = __builtin_ctz(dirs);
        bool up = tb->straight_up >> d & 1;
        /* With no screen the board's last (first) cell stands in, beyond which nothing lies (as in
         * lines_up). */
        cellset on_line = cs_and(tb->ray[from][d], occ);
        int screen = up ? cs_lsb(cs_or(on_line, tb->bit[tb->ncells - 1])) : cs_msb(cs_or(on_line, tb->bit[0]));
        cellset beyond = cs_and(tb->ray[screen][d], occ);
        if (!cs_is_empty(beyond)) {
            int target = up ? cs_lsb(beyond) : cs_msb(beyond);
            out = cs_or(out, tb->bit[target]);
            if (seen)
                *seen = cs_or(*seen, cs_or(tb->between[from * tb->ncells + target], tb->bit[target]));
        } else if (seen) {
            *seen = cs_or(*seen, tb->ray[from][d]);
        }
    }
    return out;
}

/* One player's attacking pieces, gathered once per node: per leaping type and per line group. */
struct attackers {
    const struct tables *tb;
    int nleap, nslide, nride, ncurved, nhop;
    const cellset *leap_from[MAX_TYPES];
    cellset leap_pcs[MAX_TYPES];
    const struct line_group *slide[NUM_STRAIGHT], *ride[NUM_ROOT7], *hop[NUM_STRAIGHT];
    cellset slide_pcs[NUM_STRAIGHT], ride_pcs[NUM_ROOT7], hop_pcs[NUM_STRAIGHT];
    const struct curved_group *curved[MAX_TYPES];
    cellset curved_pcs[MAX_TYPES];
    int npath;
    const struct path_group *path[MAX_TYPES];
    cellset path_pcs[MAX_TYPES];
};

static inline cellset pieces_of_types(const struct position *pos, int player, uint32_t types)
{
    cellset out = cs_empty();
    for (types &= pos->types[player]; types; types &= types - 1)
        out = cs_or(out, pos->by_type[__builtin_ctz(types)]);
    return cs_and(out, pos->by_colour[player]);
}

/* Keeps the groups whose pieces are on the board; returns how many. */
static inline int gather_groups(const struct position *pos, int player, const struct line_group *groups, int n,
                                const struct line_group **kept, cellset *pcs)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (groups[i].types & pos->types[player]) {
            pcs[k] = pieces_of_types(pos, player, groups[i].types);
            kept[k++] = &groups[i];
        }
    return k;
}

static inline void attackers_init(struct attackers *a, const struct position *pos, int player)
{
    const struct tables *tb = pos->tb;
    const struct attack_groups *ag = &tb->attack[player];
    a->tb = tb;
    a->nleap = 0;
    for (int i = 0; i < ag->nleap; i++) {
        int t = ag->leap_type[i];
        if (!(pos->types[player] >> t & 1))
            continue;
        a->leap_from[a->nleap] = tb->pt[player][t].leap_from;
        a->leap_pcs[a->nleap++] = pos_pieces(pos, player, t);
    }
    a->nslide = gather_groups(pos, player, ag->slide, ag->nslide, a->slide, a->slide_pcs);
    a->nride = gather_groups(pos, player, ag->ride, ag->nride, a->ride, a->ride_pcs);
    a->nhop = gather_groups(pos, player, ag->hop, ag->nhop, a->hop, a->hop_pcs);
    a->ncurved = 0;
    for (int i = 0; i < ag->ncurved; i++)
        if (ag->curved[i].types & pos->types[player]) {
            a->curved[a->ncurved] = &ag->curved[i];
            a->curved_pcs[a->ncurved++] = pieces_of_types(pos, player, ag->curved[i].types);
        }
    a->npath = 0;
    for (int i = 0; i < ag->npath; i++)
        if (ag->path[i].types & pos->types[player]) {
            a->path[a->npath] = &ag->path[i];
            a->path_pcs[a->npath++] = pieces_of_types(pos, player, ag->path[i].types);
        }
}

/* The curved paths back from a cell (bit 2 * direction + sense) a group's pieces could take. */
static inline uint32_t curved_slots(const struct curved_group *g)
{
    return (g->dirs & 0x3f ? 0xfffu : 0) | (g->dirs & 0xfc0 ? 0xfff000u : 0);
}

/* How far along the curved path `slot` back from the cell, which passes p, a group's piece on p
 * stands; -1 if that is beyond its steps or it would leave p in a direction it lacks. */
static inline int curved_fit(const struct tables *tb, const struct curved_group *g, int cell, int p, int slot)
{
    int e = slot / 2, s = slot % 2, k = 0;
    const struct curved_ray *cr = &tb->curved[cell][e][s];
    while (cr->cell[k] != p)
        k++;
    return k < g->steps[e >= DIR_DIAG] && curved_back_ok(g->dirs, e, s, k) ? k : -1;
}

/* The pieces of pcs (still in occ) with a clear path of the group's onto the cell. Only a piece on
 * the group's reach can have one: its moves onto the cell are found by the pair of cells (tables_paths). */
static inline cellset path_hits(const struct tables *tb, const struct path_group *g, cellset pcs, int cell,
                                cellset occ)
{
    cellset found = cs_empty();
    const uint32_t *at = &tb->path_back_at[cell * tb->ncells];
    int p;
    CS_FOR_EACH(p, cs_and(cs_and(g->reach[cell], pcs), occ))
        for (const struct path_move *pm = &tb->paths_back[at[p]], *end = &tb->paths_back[at[p + 1]]; pm < end; pm++)
            if ((g->dirs[pm->kind] >> pm->dir & 1) && !cs_intersects(pm->passed, occ)) {
                found = cs_or(found, tb->bit[p]);
                break;
            }
    return found;
}

/* The paths along which curved or hopping pieces could attack a royal, whatever stands on them now:
 * each curved path back from its cell (start direction e, turn sense s: slot 2e + s) and each straight
 * line (slot 2 * NUM_STRAIGHT + d), up to the farthest such piece; crooked, bent and joined pieces by
 * the zone of their paths onto the cell. A move changes what they attack only when it leaves or lands
 * on one of these cells, so the move generator tests those moves alone. */
enum { EXOTIC_SLOTS = 3 * NUM_STRAIGHT };
struct exotic_paths {
    uint64_t active;                     /* slots holding such a piece */
    cellset attackers[EXOTIC_SLOTS];     /* curved: pieces that attack if first on the path; lines:
                                            hoppers that attack if second on it */
    cellset cells[EXOTIC_SLOTS];         /* from the royal up to the farthest of them */
    unsigned char len[2 * NUM_STRAIGHT]; /* curved: cells up to the farthest of them */
    cellset zone;                        /* every slot's cells and path_zone */
    cellset path_zone;                   /* crooked, bent and joined paths onto the cell, and their cells */
    int npath;                           /* the opponents' path groups with pieces that could attack it */
    const struct path_group *path[(MAX_PLAYERS - 1) * MAX_TYPES];
    cellset path_pcs[(MAX_PLAYERS - 1) * MAX_TYPES];
};

static inline void exotic_paths_init(struct exotic_paths *ep)
{
    ep->active = 0;
    ep->path_zone = cs_empty();
    ep->npath = 0;
}

static inline void exotic_mark(struct exotic_paths *ep, int slot, int piece)
{
    if (!(ep->active >> slot & 1)) {
        ep->active |= 1ull << slot;
        ep->attackers[slot] = cs_empty();
        if (slot < 2 * NUM_STRAIGHT)
            ep->len[slot] = 0;
    }
    cs_set(&ep->attackers[slot], piece);
}

/* Adds one opponent's curved, hopping, crooked, bent and joined pieces that could attack the cell on
 * an empty board (they also go to *pcs). */
static inline void exotic_paths_add(struct exotic_paths *ep, const struct attackers *a, int cell, cellset *pcs)
{
    const struct tables *tb = a->tb;
    for (int i = 0; i < a->ncurved; i++) {
        const struct curved_group *g = a->curved[i];
        cellset mine = a->curved_pcs[i];
        if (!cs_intersects(g->reach[cell], mine))
            continue;
        *pcs = cs_or(*pcs, mine);
        int p;
        CS_FOR_EACH(p, cs_and(g->reach[cell], mine))
            for (uint32_t slots = tb->curved_link[cell * tb->ncells + p] & curved_slots(g); slots; slots &= slots - 1) {
                int slot = __builtin_ctz(slots), k = curved_fit(tb, g, cell, p, slot);
                if (k >= 0) {
                    exotic_mark(ep, slot, p);
                    ep->len[slot] = (unsigned char)(k + 1 > ep->len[slot] ? k + 1 : ep->len[slot]);
                }
            }
    }
    for (int i = 0; i < a->nhop; i++) {
        const struct line_group *g = a->hop[i];
        cellset mine = a->hop_pcs[i];
        if (!cs_intersects(g->reach[cell], mine))
            continue;
        *pcs = cs_or(*pcs, mine);
        for (unsigned dirs = g->dirs; dirs; dirs &= dirs - 1) {
            int d = __builtin_ctz(dirs), h;
            CS_FOR_EACH(h, cs_and(tb->ray[cell][d], mine))
                exotic_mark(ep, 2 * NUM_STRAIGHT + d, h);
        }
    }
    for (int i = 0; i < a->npath; i++)
        if (cs_intersects(a->path[i]->reach[cell], a->path_pcs[i])) {
            ep->path_zone = cs_or(ep->path_zone, a->path[i]->zone[cell]);
            *pcs = cs_or(*pcs, a->path_pcs[i]);
            ep->path[ep->npath] = a->path[i];
            ep->path_pcs[ep->npath++] = a->path_pcs[i];
        }
}

/* Each active slot's cells, and their union. */
static inline cellset exotic_paths_finish(struct exotic_paths *ep, const struct tables *tb, int cell)
{
    ep->zone = ep->path_zone;
    for (uint64_t slots = ep->active; slots; slots &= slots - 1) {
        int slot = __builtin_ctzll(slots);
        if (slot < 2 * NUM_STRAIGHT) {
            ep->cells[slot] = tb->curved[cell][slot / 2][slot % 2].prefix[ep->len[slot] - 1];
        } else {
            int d = slot - 2 * NUM_STRAIGHT;
            cellset h = ep->attackers[slot];
            int far = tb->straight_up >> d & 1 ? cs_msb(h) : cs_lsb(h);
            ep->cells[slot] = cs_or(tb->between[cell * tb->ncells + far], tb->bit[far]);
        }
        ep->zone = cs_or(ep->zone, ep->cells[slot]);
    }
    return ep->zone;
}

/* Whether, on the occupancy a move leaves (touched: the cells it left or landed on, to: where it
 * landed, taking any piece there), a curved, hopping, crooked, bent or joined piece attacks the cell
 * along a path the move touched; the others attack as before the move, which they did not. */
static inline bool exotic_attacked(const struct tables *tb, const struct exotic_paths *ep, int cell, cellset occ,
                                   cellset touched, int to)
{
    for (uint64_t slots = ep->active; slots; slots &= slots - 1) {
        int slot = __builtin_ctzll(slots);
        if (!cs_intersects(ep->cells[slot], touched))
            continue;
        int first;
        if (slot < 2 * NUM_STRAIGHT) {
            const struct curved_ray *cr = &tb->curved[cell][slot / 2][slot % 2];
            int k = 0;
            while (!cs_test(occ, cr->cell[k]))
                k++;
            first = cr->cell[k];
        } else {
            int d = slot - 2 * NUM_STRAIGHT;
            bool up = tb->straight_up >> d & 1;
            cellset on_line = cs_and(ep->cells[slot], occ);
            /* The screen first, then the piece beyond it. */
            cs_clear(&on_line, up ? cs_lsb(on_line) : cs_msb(on_line));
            if (cs_is_empty(on_line))
                continue;
            first = up ? cs_lsb(on_line) : cs_msb(on_line);
        }
        if (first != to && cs_test(ep->attackers[slot], first))
            return true;
    }
    for (int i = 0; i < ep->npath; i++)
        if (cs_intersects(ep->path[i]->zone[cell], touched) &&
            !cs_is_empty(path_hits(tb, ep->path[i], cs_andnot(ep->path_pcs[i], tb->bit[to]), cell, occ)))
            return true;
    return false;
}

/* The first piece along each of the group's directions, if it is one of pcs. */
static inline __attribute__((always_inline)) cellset line_hits(const struct tables *tb, const cellset (*lines)[NUM_STRAIGHT],
                                                               unsigned up, const struct line_group *g, cellset pcs,
                                                               int cell, cellset occ)
{
    cellset found = cs_empty();
    /* Most of the time no such piece stands on any of the lines at all. */
    if (!cs_intersects(g->reach[cell], pcs))
        return found;
    for (unsigned dirs = g->dirs; dirs; dirs &= dirs - 1) {
        int d = __builtin_ctz(dirs);
        if (!cs_intersects(lines[cell][d], pcs))
            continue;
        /* pcs may hold pieces already gone from occ (exchange evaluation). */
        cellset blockers = cs_and(lines[cell][d], occ);
        if (cs_is_empty(blockers))
            continue;
        int b = up & (1u << d) ? cs_lsb(blockers) : cs_msb(blockers);
        if (cs_test(pcs, b))
            found = cs_or(found, tb->bit[b]);
    }
    return found;
}

/* The pieces of pcs that attack the cell along a curved path. Only a piece on the group's reach can;
 * the paths back from the cell that pass it (tables.curved_link) say where it stands on each, and it
 * attacks along one that fits its steps and first direction and is clear up to it. */
static inline cellset curved_hits(const struct tables *tb, const struct curved_group *g, cellset pcs, int cell,
                                  cellset occ)
{
    cellset found = cs_empty();
    /* pcs may hold pieces already gone from occ (exchange evaluation). */
    cellset cands = cs_and(cs_and(g->reach[cell], pcs), occ);
    int p;
    CS_FOR_EACH(p, cands)
        for (uint32_t slots = tb->curved_link[cell * tb->ncells + p] & curved_slots(g); slots; slots &= slots - 1) {
            int slot = __builtin_ctz(slots), k = curved_fit(tb, g, cell, p, slot);
            if (k == 0 || (k > 0 && !cs_intersects(tb->curved[cell][slot / 2][slot % 2].prefix[k - 1], occ))) {
                found = cs_or(found, tb->bit[p]);
                break;
            }
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
        found = cs_or(found, line_hits(tb, tb->ray, tb->straight_up, a->slide[i], a->slide_pcs[i], cell, occ));
        if (first_only && !cs_is_empty(found))
            return found;
    }
    for (int i = 0; i < a->nride; i++) {
        found = cs_or(found, line_hits(tb, tb->ride, tb->root7_up, a->ride[i], a->ride_pcs[i], cell, occ));
        if (first_only && !cs_is_empty(found))
            return found;
    }
    for (int i = 0; i < a->ncurved; i++) {
        found = cs_or(found, curved_hits(tb, a->curved[i], a->curved_pcs[i], cell, occ));
        if (first_only && !cs_is_empty(found))
            return found;
    }
    for (int i = 0; i < a->npath; i++) {
        found = cs_or(found, path_hits(tb, a->path[i], a->path_pcs[i], cell, occ));
        if (first_only && !cs_is_empty(found))
            return found;
    }
    for (int i = 0; i < a->nhop; i++)
        if (cs_intersects(a->hop[i]->reach[cell], a->hop_pcs[i]))
            found = cs_or(found, cs_and(hop_targets(tb, a->hop[i]->dirs, cell, occ, NULL), a->hop_pcs[i]));
    return found;
}

/* Every army's pieces that attack a cell, for exchange evaluation: found once, then kept as pieces
 * leave the occupancy. A leap does not depend on it; a line or a curved path gains at most the piece
 * behind the one that left; path moves only gain as cells empty, so they are looked at again only
 * when the cell that emptied is on one of their paths; hopping moves, which lose their screen too, are
 * then found again whole. */
struct exchange {
    cellset attackers;     /* by leaps, lines, curved and path moves; may hold pieces since gone from occ */
    cellset hoppers;       /* by hopping moves on the occupancy */
    cellset exotic_zone;   /* the cells on the path and hopping moves onto the cell */
    uint32_t curved_slots; /* the curved paths back from the cell that hold a piece capturing along one */
    int cell;
};

/* The first piece on the curved path `slot` back from the cell, if it captures along that path. */
static inline cellset exchange_curved_hit(const struct position *pos, int cell, int slot, cellset occ)
{
    const struct tables *tb = pos->tb;
    const struct curved_ray *cr = &tb->curved[cell][slot / 2][slot % 2];
    if (!cs_intersects(cr->prefix[CURVED_MAX_STEPS - 1], occ))
        return cs_empty();
    /* Its index is the number of clear prefixes (those past the path's end hold the whole path), counted
     * without a branch to mispredict. */
    int k = 0;
    for (int j = 0; j < CURVED_MAX_STEPS - 1; j++)
        k += !cs_intersects(cr->prefix[j], occ);
    int q = cr->cell[k];
    return tb->exchange.curved_fit[pos->board[q]][slot] >> k & 1 ? tb->bit[q] : cs_empty();
}

/* The first piece along line d (exchange_tables) back from the cell, if it captures along that line. */
static inline cellset exchange_line_hit(const struct position *pos, int cell, int d, cellset occ)
{
    const struct tables *tb = pos->tb;
    cellset on = cs_and(d < NUM_STRAIGHT ? tb->ray[cell][d] : tb->ride[cell][d - NUM_STRAIGHT], occ);
    if (cs_is_empty(on))
        return on;
    int b = tb->exchange.up >> d & 1 ? cs_lsb(on) : cs_msb(on), piece = pos->board[b];
    return tb->exchange.line_dirs[piece] >> d & 1 ? tb->bit[b] : cs_empty();
}

/* Every army's path attackers of the cell, and (in *hoppers) its hopping ones; with zone, the cells
 * on those moves go to it. Kept out of line: only games with such pieces call it. */
static __attribute__((noinline)) cellset exchange_exotic(const struct position *pos, int cell, cellset occ,
                                                         cellset *hoppers, cellset *zone)
{
    const struct tables *tb = pos->tb;
    cellset found = cs_empty(), near = cs_empty();
    *hoppers = cs_empty();
    for (int p = 0; p < pos->v->nplayers; p++) {
        const struct attack_groups *ag = &tb->attack[p];
        for (int i = 0; i < ag->npath; i++) {
            cellset pcs = pieces_of_types(pos, p, ag->path[i].types);
            if (cs_intersects(ag->path[i].reach[cell], pcs)) {
                found = cs_or(found, path_hits(tb, &ag->path[i], pcs, cell, occ));
                near = cs_or(near, ag->path[i].zone[cell]);
            }
        }
        for (int i = 0; i < ag->nhop; i++) {
            cellset pcs = pieces_of_types(pos, p, ag->hop[i].types);
            if (cs_intersects(ag->hop[i].reach[cell], pcs)) {
                *hoppers = cs_or(*hoppers, cs_and(hop_targets(tb, ag->hop[i].dirs, cell, occ, NULL), pcs));
                near = cs_or(near, ag->hop[i].reach[cell]);
            }
        }
    }
    if (zone)
        *zone = near;
    return found;
}

/* The attackers of the cell on the occupancy (the cells left empty by the capture that starts the
 * exchange are already out of it). Along lines only the pieces that could capture along one are
 * looked at, each by its line and the cells between. */
static inline void exchange_init(struct exchange *x, const struct position *pos, int cell, cellset occ)
{
    const struct tables *tb = pos->tb;
    const struct exchange_tables *xt = &tb->exchange;
    cellset found = cs_empty(), liners = cs_empty();
    for (int i = 0; i < xt->nleap_alike; i++)
        found = cs_or(found, cs_and(xt->leap[i].from[cell], pos->by_type[xt->leap[i].type]));
    for (int i = xt->nleap_alike; i < xt->nleap; i++)
        found = cs_or(found, cs_and(xt->leap[i].from[cell], pos_pieces(pos, xt->leap[i].player, xt->leap[i].type)));
    for (uint32_t types = xt->line_types; types; types &= types - 1) {
        int t = __builtin_ctz(types);
        liners = cs_or(liners, cs_and(pos->by_type[t], xt->line_reach[t * tb->ncells + cell]));
    }
    const unsigned char *line_of = &xt->line_of[cell * tb->ncells];
    const cellset *between = &tb->between[cell * tb->ncells];
    int c;
    CS_FOR_EACH(c, cs_and(liners, occ)) {
        if ((xt->line_dirs[pos->board[c]] >> (line_of[c] - 1) & 1) && !cs_intersects(between[c], occ))
            found = cs_or(found, tb->bit[c]);
    }
    /* The curved paths holding such a piece, then the first piece on each. */
    x->curved_slots = 0;
    if (xt->curved_types) {
        cellset curvers = cs_empty();
        for (uint32_t types = xt->curved_types; types; types &= types - 1)
            curvers = cs_or(curvers, pos->by_type[__builtin_ctz(types)]);
        CS_FOR_EACH(c, cs_and(cs_and(curvers, occ), xt->curved_reach[cell]))
            x->curved_slots |= tb->curved_link[cell * tb->ncells + c] & xt->curved_slots[pos->board[c]];
        for (uint32_t slots = x->curved_slots; slots; slots &= slots - 1)
            found = cs_or(found, exchange_curved_hit(pos, cell, __builtin_ctz(slots), occ));
    }
    x->attackers = found;
    x->hoppers = x->exotic_zone = cs_empty();
    x->cell = cell;
    if (xt->exotic)
        x->attackers = cs_or(x->attackers, exchange_exotic(pos, cell, occ, &x->hoppers, &x->exotic_zone));
}

static inline cellset exchange_attackers(const struct exchange *x, cellset occ)
{
    return cs_and(cs_or(x->attackers, x->hoppers), occ);
}

/* The piece on `from` has left the occupancy (occ is without it). */
static inline void exchange_leave(struct exchange *x, const struct position *pos, int from, cellset occ)
{
    const struct tables *tb = pos->tb;
    int line = tb->exchange.line_of[x->cell * tb->ncells + from];
    if (line)
        x->attackers = cs_or(x->attackers, exchange_line_hit(pos, x->cell, line - 1, occ));
    for (uint32_t slots = x->curved_slots & tb->curved_link[x->cell * tb->ncells + from]; slots; slots &= slots - 1)
        x->attackers = cs_or(x->attackers, exchange_curved_hit(pos, x->cell, __builtin_ctz(slots), occ));
    if (cs_test(x->exotic_zone, from))
        x->attackers = cs_or(x->attackers, exchange_exotic(pos, x->cell, occ, &x->hoppers, NULL));
}

/* Whether a piece of the player's line groups attacks the cell; only the groups whose lines from the
 * cell meet `near` are looked at. */
static inline __attribute__((always_inline)) bool lines_attack(const struct position *pos,
                                                               const struct line_group *groups, int n, bool root7,
                                                               int player, int cell, cellset occ, cellset near)
{
    const struct tables *tb = pos->tb;
    for (int i = 0; i < n; i++)
        if (cs_intersects(groups[i].reach[cell], near)
            && !cs_is_empty(line_hits(tb, root7 ? tb->ride : tb->ray, root7 ? tb->root7_up : tb->straight_up, &groups[i],
                                      pieces_of_types(pos, player, groups[i].types), cell, occ)))
            return true;
    return false;
}

/* Whether a curved, hopping or path piece of the player attacks the cell. Only the groups whose paths
 * to the cell pass one of `changed` are asked: the others attack it as they did before those cells
 * changed (every cell, for the whole test). Kept out of line (only games with such pieces call it):
 * inlined, it made the code around the other callers of its parts slower. */
static __attribute__((noinline)) bool exotic_hits(const struct position *pos, int cell, cellset occ, int player,
                                                  cellset changed)
{
    const struct tables *tb = pos->tb;
    const struct attack_groups *ag = &tb->attack[player];
    const cellset theirs = pos->by_colour[player];
    /* A curved group's and a hopping group's reach holds the cells their paths pass too. */
    for (int i = 0; i < ag->ncurved; i++)
        if (cs_intersects(ag->curved[i].reach[cell], theirs) && cs_intersects(ag->curved[i].reach[cell], changed)
            && !cs_is_empty(curved_hits(tb, &ag->curved[i], pieces_of_types(pos, player, ag->curved[i].types), cell,
                                        occ)))
            return true;
    for (int i = 0; i < ag->npath; i++)
        if (cs_intersects(ag->path[i].reach[cell], theirs) && cs_intersects(ag->path[i].zone[cell], changed)
            && !cs_is_empty(path_hits(tb, &ag->path[i], pieces_of_types(pos, player, ag->path[i].types), cell, occ)))
            return true;
    for (int i = 0; i < ag->nhop; i++) {
        cellset pcs = cs_and(ag->hop[i].reach[cell], pieces_of_types(pos, player, ag->hop[i].types));
        if (!cs_is_empty(pcs) && cs_intersects(ag->hop[i].reach[cell], changed)
            && cs_intersects(hop_targets(tb, ag->hop[i].dirs, cell, occ, NULL), pcs))
            return true;
    }
    return false;
}

static inline bool exotic_attack(const struct position *pos, int cell, cellset occ, int player, cellset changed)
{
    const struct attack_groups *ag = &pos->tb->attack[player];
    return (ag->ncurved || ag->npath || ag->nhop) && exotic_hits(pos, cell, occ, player, changed);
}

/* Whether a piece of the player attacks the cell, given an occupancy: attackers_to's answer without
 * gathering the attackers first, each kind's pieces taken only when its reach meets the player's
 * pieces, cheapest kinds first, stopping at the first attacker. */
static inline bool attacked_by(const struct position *pos, int cell, cellset occ, int player)
{
    const struct tables *tb = pos->tb;
    const struct attack_groups *ag = &tb->attack[player];
    const cellset theirs = pos->by_colour[player];
    for (int i = 0; i < ag->nleap; i++) {
        int t = ag->leap_type[i];
        if (cs_intersects(tb->pt[player][t].leap_from[cell], cs_and(pos->by_type[t], theirs)))
            return true;
    }
    return lines_attack(pos, ag->slide, ag->nslide, false, player, cell, occ, theirs)
           || lines_attack(pos, ag->ride, ag->nride, true, player, cell, occ, theirs)
           || exotic_attack(pos, cell, occ, player, tb->all);
}

/* Is the cell attacked by any opponent of `us`? */
static bool attacked(const struct position *pos, int cell, cellset occ, int us)
{
    for (int p = 0; p < pos->v->nplayers; p++)
        if (p != us && attacked_by(pos, cell, occ, p))
            return true;
    return false;
}

/* Whether the player's royal is attacked: the first attacker found answers. */
static bool player_in_check(const struct position *pos, int player)
{
    return attacked(pos, pos_royal_cell(pos, player), pos->occ, player);
}

static bool position_in_check(const struct position *pos)
{
    return player_in_check(pos, pos->side);
}

/* The moves since the owner's last one: the cells they left or reached (near) and those they reached
 * (landed, each at most once per move), for a search that makes legal moves only. The owner's royal was
 * safe after its move, and since then only the pieces those moves brought and the lines through those
 * cells can have come to attack it. */
struct moves_since {
    cellset near;
    int nlanded;
    int landed[MAX_PLAYERS];
};

/* False when the moves say nothing: castling, en passant, fission, passes and armies leaving change
 * more cells, and a history may start after the owner's move. */
static bool moves_since(const struct position *pos, int owner, struct moves_since *ms)
{
    const struct tables *tb = pos->tb;
    ms->near = cs_empty();
    ms->nlanded = 0;
    for (int k = pos->ply; k > 0 && ms->nlanded < MAX_PLAYERS; k--) {
        const struct state *st = &pos->st[k];
        move_t m = st->move;
        /* Whatever kind of move the owner's was; an army leaving is no move. */
        if (m != MOVE_NONE && st->side_before == owner)
            return true;
        if (m == MOVE_NONE || (m & (MOVE_CASTLE | MOVE_EP)) || move_fission(m) >= 0)
            return false;
        ms->near = cs_or(ms->near, cs_or(tb->bit[move_from(m)], tb->bit[move_to(m)]));
        ms->landed[ms->nlanded++] = move_to(m);
    }
    return false;
}

/* Whether the player attacks the royal on `cell` with a piece the moves brought, or along a line, a
 * curved, hopping or path move through the cells they changed (moves_since). */
static inline bool attacked_since(const struct position *pos, int cell, int player, const struct moves_since *ms)
{
    const struct tables *tb = pos->tb;
    const struct attack_groups *ag = &tb->attack[player];
    for (int i = 0; i < ms->nlanded; i++) {
        int piece = pos->board[ms->landed[i]];
        if (piece && piece_colour(piece) == player
            && cs_test(tb->pt[player][piece_type(piece)].leap_from[cell], ms->landed[i]))
            return true;
    }
    return lines_attack(pos, ag->slide, ag->nslide, false, player, cell, pos->occ, ms->near)
           || lines_attack(pos, ag->ride, ag->nride, true, player, cell, pos->occ, ms->near)
           || exotic_attack(pos, cell, pos->occ, player, ms->near);
}

/* position_in_check after a legal move. With two players the last move alone counts, from the start
 * of a history too: a position is refused when the side that just moved is in check. */
static bool position_in_check_after_move(const struct position *pos)
{
    const int us = pos->side, royal = pos_royal_cell(pos, us);
    const move_t m = pos->st[pos->ply].move;
    if (pos->v->nplayers == 2) {
        if (m == MOVE_NONE || (m & (MOVE_CASTLE | MOVE_EP)) || move_fission(m) >= 0)
            return position_in_check(pos);
        const struct moves_since last = { cs_or(pos->tb->bit[move_from(m)], pos->tb->bit[move_to(m)]), 1, { move_to(m) } };
        return attacked_since(pos, royal, 1 - us, &last);
    }
    struct moves_since ms = { 0 };
    if (!moves_since(pos, us, &ms))
        return position_in_check(pos);
    for (int p = 0; p < pos->v->nplayers; p++)
        if (p != us && pos_royal_cell(pos, p) != CELL_NONE && attacked_since(pos, royal, p, &ms))
            return true;
    return false;
}

/* Whether the player's piece of type t on `to` attacks the cell along a curved, hopping or path move. */
static inline bool exotic_piece_attacks(const struct tables *tb, const struct attack_groups *ag, int t, int to,
                                        int cell, cellset occ)
{
    for (int i = 0; i < ag->ncurved; i++)
        if ((ag->curved[i].types >> t & 1) && !cs_is_empty(curved_hits(tb, &ag->curved[i], tb->bit[to], cell, occ)))
            return true;
    for (int i = 0; i < ag->nhop; i++)
        if ((ag->hop[i].types >> t & 1) && cs_test(ag->hop[i].reach[cell], to)
            && cs_test(hop_targets(tb, ag->hop[i].dirs, cell, occ, NULL), to))
            return true;
    for (int i = 0; i < ag->npath; i++)
        if ((ag->path[i].types >> t & 1) && !cs_is_empty(path_hits(tb, &ag->path[i], tb->bit[to], cell, occ)))
            return true;
    return false;
}

/* Whether the player's piece of type t on `to` attacks the cell (the occupancy with it there): first
 * whether it could even on the empty board, which most moves fail. */
static inline bool piece_attacks(const struct tables *tb, int player, int t, int to, int cell, cellset occ)
{
    const struct piece_tables *pt = &tb->pt[player][t];
    const struct attack_groups *ag = &tb->attack[player];
    if (!cs_test(pt->reach[to], cell))
        return false;
    if (cs_test(pt->leap_from[cell], to))
        return true;
    for (int i = 0; i < ag->nslide; i++)
        if ((ag->slide[i].types >> t & 1)
            && !cs_is_empty(line_hits(tb, tb->ray, tb->straight_up, &ag->slide[i], tb->bit[to], cell, occ)))
            return true;
    for (int i = 0; i < ag->nride; i++)
        if ((ag->ride[i].types >> t & 1)
            && !cs_is_empty(line_hits(tb, tb->ride, tb->root7_up, &ag->ride[i], tb->bit[to], cell, occ)))
            return true;
    return (pt->gen & (GEN_CURVED_MOVE | GEN_CURVED_CAPTURE | GEN_CURVED_BOTH | GEN_HOP | GEN_PATH))
           && exotic_piece_attacks(tb, ag, t, to, cell, occ);
}

/* Whether a move of the side to move would check, found without making it: 1 or 0, or -1 where only
 * making it tells (three or four players, castling, en passant, fission, fusion). As after the move
 * (position_in_check_after_move): the moved piece (or its promotion) from its new cell, the lines
 * through the cell it leaves, and the curved, hopping and path pieces, whose paths may pass either
 * cell. A capture leaves the cell it lands on as taken as before. */
static int position_move_checks(const struct position *pos, move_t m)
{
    const struct tables *tb = pos->tb;
    const int from = move_from(m), to = move_to(m), us = pos->side;
    if (pos->v->nplayers != 2 || (m & (MOVE_CASTLE | MOVE_EP)) || move_fission(m) >= 0
        || (pos->board[to] && piece_colour(pos->board[to]) == us))
        return -1;
    const int t = move_promo(m) >= 0 ? move_promo(m) : piece_type(pos->board[from]), king = pos_royal_cell(pos, 1 - us);
    const struct attack_groups *ag = &tb->attack[us];
    const cellset occ = cs_or(cs_xor(pos->occ, tb->bit[from]), tb->bit[to]);
    return piece_attacks(tb, us, t, to, king, occ)
           || lines_attack(pos, ag->slide, ag->nslide, false, us, king, occ, tb->bit[from])
           || lines_attack(pos, ag->ride, ag->nride, true, us, king, occ, tb->bit[from])
           || exotic_attack(pos, king, occ, us, cs_or(tb->bit[from], tb->bit[to]));
}

static bool position_attacked_by(const struct position *pos, int cell, int player)
{
    return attacked_by(pos, cell, pos->occ, player);
}

static int position_attackers(const struct position *pos, int cell, int player)
{
    struct attackers a;
    attackers_init(&a, pos, player);
    return cs_popcount(attackers_to(&a, cell, pos->occ, false));
}
