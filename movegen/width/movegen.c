/* Legal move generation (included by engine/width/instance.c, once per width).
 * Checks and pins are resolved with masks; only en passant is tried by making the move. */
#include "../position.h"

/* Non-capturing and capturing targets of one piece, before legality (without quiet_too, captures
 * only: *quiet is left empty); with `examined`, every cell whose occupancy decided them: those a
 * target was looked for on, empty or not, a hopper's screen and the cells a path passes.
 * Always inlined: returning cell sets through memory costs more than computing them. */
static inline __attribute__((always_inline)) void piece_targets_of(const struct tables *tb, const struct piece_tables *pt,
                                                                    int from, cellset occ, cellset empty, cellset enemy,
                                                                    cellset *quiet, cellset *caps, bool quiet_too,
                                                                    cellset *examined)
{
    cellset q = cs_empty(), c = cs_empty(), x = cs_empty();
    const unsigned gen = quiet_too ? pt->gen : pt->gen & ~(unsigned)(GEN_LEAP_MOVE | GEN_LINE_MOVE);
    if (!quiet_too)
        empty = cs_empty();
    if (gen & GEN_LEAP_BOTH) {
        x = pt->leap[MODE_BOTH][from];
        q = cs_and(x, empty);
        c = cs_and(x, enemy);
    }
    if (gen & GEN_LEAP_MOVE) {
        q = cs_or(q, cs_and(pt->leap[MODE_MOVE][from], empty));
        x = cs_or(x, pt->leap[MODE_MOVE][from]);
    }
    if (gen & GEN_LEAP_CAPTURE) {
        c = cs_or(c, cs_and(pt->leap[MODE_CAPTURE][from], enemy));
        x = cs_or(x, pt->leap[MODE_CAPTURE][from]);
    }
    if (gen & GEN_LINE_BOTH) {
        cellset s = line_targets(tb, &pt->slides[MODE_BOTH], &pt->rides[MODE_BOTH], from, occ);
        q = cs_or(q, cs_and(s, empty));
        c = cs_or(c, cs_and(s, enemy));
        x = cs_or(x, s);
    }
    if (gen & GEN_LINE_MOVE) {
        cellset s = line_targets(tb, &pt->slides[MODE_MOVE], &pt->rides[MODE_MOVE], from, occ);
        q = cs_or(q, cs_and(s, empty));
        x = cs_or(x, s);
    }
    if (gen & GEN_LINE_CAPTURE) {
        cellset s = line_targets(tb, &pt->slides[MODE_CAPTURE], &pt->rides[MODE_CAPTURE], from, occ);
        c = cs_or(c, cs_and(s, enemy));
        x = cs_or(x, s);
    }
    if (gen & (GEN_CURVED_MOVE | GEN_CURVED_CAPTURE | GEN_CURVED_BOTH | GEN_HOP)) {
        cellset s = curved_targets(tb, pt->curved[MODE_BOTH], pt->curved_steps, from, occ);
        q = cs_or(q, cs_and(s, empty));
        c = cs_or(c, cs_and(s, enemy));
        x = cs_or(x, s);
        if (quiet_too) {
            s = curved_targets(tb, pt->curved[MODE_MOVE], pt->curved_steps, from, occ);
            q = cs_or(q, cs_and(s, empty));
            x = cs_or(x, s);
        }
        s = curved_targets(tb, pt->curved[MODE_CAPTURE], pt->curved_steps, from, occ);
        c = cs_or(c, cs_and(s, enemy));
        x = cs_or(x, s);
        c = cs_or(c, cs_and(hop_targets(tb, pt->hop, from, occ, examined ? &x : NULL), enemy));
    }
    if (gen & GEN_PATH) {
        cellset s = path_targets(tb, pt->path[MODE_BOTH], from, occ, examined ? &x : NULL);
        q = cs_or(q, cs_and(s, empty));
        c = cs_or(c, cs_and(s, enemy));
        x = cs_or(x, s);
        if (quiet_too) {
            s = path_targets(tb, pt->path[MODE_MOVE], from, occ, examined ? &x : NULL);
            q = cs_or(q, cs_and(s, empty));
            x = cs_or(x, s);
        }
        s = path_targets(tb, pt->path[MODE_CAPTURE], from, occ, examined ? &x : NULL);
        c = cs_or(c, cs_and(s, enemy));
        x = cs_or(x, s);
    }
    *quiet = q;
    *caps = c;
    if (examined)
        *examined = x;
}

static inline __attribute__((always_inline)) void piece_targets(const struct tables *tb, const struct piece_tables *pt,
                                                                 int from, cellset occ, cellset empty, cellset enemy,
                                                                 cellset *quiet, cellset *caps)
{
    piece_targets_of(tb, pt, from, occ, empty, enemy, quiet, caps, true, NULL);
}

/* Every piece's reach on the empty board (tables.h), from the targets themselves: declared in
 * tables.c, which comes before them. */
static void tables_reach(struct tables *tb)
{
    for (int pl = 0; pl < tb->v->nplayers; pl++)
        for (int t = 0; t < tb->v->ntypes; t++) {
            struct piece_tables *pt = &tb->pt[pl][t];
            for (int c = 0; c < tb->ncells; c++) {
                cellset quiet, caps;
                piece_targets(tb, pt, c, cs_empty(), tb->all, tb->all, &quiet, &caps);
                pt->reach[c] = cs_or(quiet, caps);
                for (unsigned dirs = pt->hop; dirs; dirs &= dirs - 1)
                    pt->reach[c] = cs_or(pt->reach[c], tb->ray[c][__builtin_ctz(dirs)]);
            }
        }
}

/* The piece guide (docs/gui.md): where a piece of the player, alone on the board at from, moves, and
 * where it would capture an enemy piece standing alone in its way. A hopper needs a screen, so it
 * shows no captures here; a pawn shows its single steps. */
static void piece_reach(const struct tables *tb, int player, int type, int from, bool quiet[MAX_CELLS],
                        bool capture[MAX_CELLS])
{
    const struct piece_tables *pt = &tb->pt[player][type];
    cellset alone = tb->bit[from], q, c;
    piece_targets(tb, pt, from, alone, cs_andnot(tb->all, alone), cs_empty(), &q, &c);
    for (int cell = 0; cell < tb->v->geo.ncells; cell++) {
        cellset occ = cs_or(alone, tb->bit[cell]), q2;
        quiet[cell] = cs_test(q, cell);
        piece_targets(tb, pt, from, occ, cs_andnot(tb->all, occ), tb->bit[cell], &q2, &c);
        capture[cell] = cell != from && cs_test(c, cell);
    }
}

/* Move emission: with no list the moves are only counted (perft's last ply). */
static inline int push_move(move_t *list, int n, move_t m)
{
    if (list)
        list[n] = m;
    return n + 1;
}

static inline int add_moves(move_t *list, int n, int from, cellset targets, move_t flags)
{
    if (!list)
        return n + cs_popcount(targets);
    int to;
    CS_FOR_EACH(to, targets)
        list[n++] = move_make(from, to) | flags;
    return n;
}

/* How many of a simple type the side to move has, alone or inside compounds (Fusion limits). */
static int type_count(const struct position *pos, int type)
{
    const struct variant *v = pos->v;
    int n = cs_popcount(pos_pieces(pos, pos->side, type));
    for (uint32_t parts = pos->tb->pt[pos->side][type].partners; parts; parts &= parts - 1)
        n += cs_popcount(pos_pieces(pos, pos->side, v->fuse[type][__builtin_ctz(parts)] - 1));
    return n;
}

/* The types a pawn of the side to move may become now: a variant's limit counts those on the board,
 * and a compound needs room for each of its components. */
static int promotion_choices(const struct position *pos, int *types)
{
    const struct variant *v = pos->v;
    int n = 0;
    for (int i = 0; i < v->npromo; i++) {
        int t = v->promo[i];
        if (v->piece[t].army != v->army[pos->side])
            continue;
        bool room = !v->promo_limit;
        if (!room && variant_is_compound(v, t)) {
            room = true;
            for (int k = 0; k < 2 * FUSION_PAIRS && v->component[t][k]; k++)
                room &= type_count(pos, v->component[t][k] - 1) < v->promo_limit;
        } else if (!room)
            room = type_count(pos, t) < v->promo_limit;
        if (room)
            types[n++] = t;
    }
    return n;
}

static inline int add_promotions(const int *types, int ntypes, move_t *list, int n, int from, cellset targets,
                                 move_t flags)
{
    if (!list)
        return n + cs_popcount(targets) * ntypes;
    int to;
    CS_FOR_EACH(to, targets)
        for (int i = 0; i < ntypes; i++)
            list[n++] = move_with_promo(move_make(from, to), types[i]) | flags;
    return n;
}

/* A pawn's moves to the targets, promoting in its zone; the choices (npromo < 0: not yet known) are
 * found when a pawn first needs them. */
static inline int add_pawn_moves(const struct position *pos, const struct piece_tables *pt, int *promo, int *npromo,
                                 move_t *list, int n, int from, cellset targets, move_t flags)
{
    n = add_moves(list, n, from, cs_andnot(targets, pt->promo_zone), flags);
    cellset promotions = cs_and(targets, pt->promo_zone);
    if (!cs_is_empty(promotions)) {
        if (*npromo < 0)
            *npromo = promotion_choices(pos, promo);
        n = add_promotions(promo, *npromo, list, n, from, promotions, flags);
    }
    return n;
}

/* Own pieces that are the only piece between our royal and an enemy slider or rider aimed at it;
 * each may only move along that line (line[cell]). */
static inline cellset pins_along(const struct tables *tb, const struct line_group *g, cellset pcs, int king,
                                 cellset occ, cellset own, cellset *line, cellset pinned)
{
    int s;
    CS_FOR_EACH(s, cs_and(g->reach[king], pcs)) {
        cellset between = tb->between[king * tb->ncells + s], blockers = cs_and(between, occ);
        if (cs_is_empty(blockers) || cs_several(blockers) || !cs_intersects(blockers, own))
            continue;
        int b = cs_lsb(blockers);
        pinned = cs_or(pinned, tb->bit[b]);
        line[b] = cs_or(between, tb->bit[s]);
    }
    return pinned;
}

static cellset find_pins(const struct position *pos, const struct attackers *a, int king, cellset *line,
                         cellset pinned)
{
    const struct tables *tb = pos->tb;
    cellset own = pos->by_colour[pos->side];
    for (int i = 0; i < a->nslide; i++)
        pinned = pins_along(tb, a->slide[i], a->slide_pcs[i], king, pos->occ, own, line, pinned);
    for (int i = 0; i < a->nride; i++)
        pinned = pins_along(tb, a->ride[i], a->ride_pcs[i], king, pos->occ, own, line, pinned);
    return pinned;
}

/* Cells a non-royal move must reach to answer a single check: the checker, or between it and a
 * royal it attacks along a line (a leaping check cannot be blocked). */
static cellset evasion_mask(const struct position *pos, int king, int checker)
{
    const struct tables *tb = pos->tb;
    int piece = pos->board[checker];
    const struct piece_tables *pt = &tb->pt[piece_colour(piece)][piece_type(piece)];
    cellset mask = tb->bit[checker];
    if (!cs_test(pt->leap_from[king], checker))
        mask = cs_or(mask, tb->between[king * tb->ncells + checker]);
    return mask;
}

/* En passant onto one cell the last double or triple step passed. */
static int gen_en_passant(struct position *pos, move_t *list, int n, int us, int king, int ep)
{
    const struct state *st = &pos->st[pos->ply];
    /* En passant is taken by a piece of the same kind only. */
    int t = piece_type(pos->board[st->ep_victim]), from;
    const struct piece_tables *pt = &pos->tb->pt[us][t];
    /* With three players the passed cell can be on the taker's last row: the capture then promotes. */
    int promo[MAX_TYPES], npromo = cs_test(pt->promo_zone, ep) ? promotion_choices(pos, promo) : -1;
    cellset cands = cs_and(pt->leap_from[ep], pos_pieces(pos, us, t));
    CS_FOR_EACH(from, cands) {
        move_t m = move_make(from, ep) | MOVE_EP;
        position_make(pos, m);
        bool legal = !attacked(pos, king, pos->occ, us);
        position_unmake(pos, m);
        if (legal && npromo < 0)
            n = push_move(list, n, m);
        for (int i = 0; legal && i < npromo; i++)
            n = push_move(list, n, move_with_promo(m, promo[i]));
    }
    return n;
}

/* Whether a move to `to` leaves our royal safe from the curved, hopping and path attackers, tried on
 * the occupancy it leaves (occ: with the moving piece gone from its cell, unless part of it stays); a
 * captured piece no longer attacks. Their checks and pins do not follow one line, so the evasion mask
 * and the pins do not answer them; only the paths the move touches are looked at. */
static inline bool exotic_safe(const struct position *pos, const struct exotic_paths *paths, int king, cellset occ,
                               int to)
{
    const struct tables *tb = pos->tb;
    return !exotic_attacked(tb, paths, king, cs_or(occ, tb->bit[to]), cs_or(cs_xor(occ, pos->occ), tb->bit[to]), to);
}

/* The targets that leave our royal unattacked (exotic_safe); with test_all, by every kind of attacker. */
static cellset safe_targets(const struct position *pos, const struct attackers *opp, int nopp,
                            const struct exotic_paths *paths, int king, cellset occ, cellset targets, bool test_all)
{
    const struct tables *tb = pos->tb;
    cellset safe = cs_empty();
    int to;
    CS_FOR_EACH(to, targets) {
        bool ok = test_all || exotic_safe(pos, paths, king, occ, to);
        for (int i = 0; i < nopp && ok && test_all; i++)
            ok = cs_is_empty(cs_andnot(attackers_to(&opp[i], king, cs_or(occ, tb->bit[to]), false), tb->bit[to]));
        if (ok)
            safe = cs_or(safe, tb->bit[to]);
    }
    return safe;
}

/* Fission: one component of the compound on `from` moves alone to an empty cell, the other stays
 * (so a pin through `from` still holds); targets are limited to `allowed` (empty cells answering
 * a check), and those in `zone` are tried against curved and hopping attackers (all: every one), or
 * with defer left untested (MOVE_UNTESTED). */
static int gen_fissions(const struct position *pos, move_t *list, int n, int from, cellset allowed,
                        const struct attackers *opp, int nopp, const struct exotic_paths *paths, int king, cellset zone,
                        bool test_all, bool defer)
{
    if (test_all)
        zone = pos->tb->all;
    const struct tables *tb = pos->tb;
    cellset empty = cs_andnot(tb->all, pos->occ), quiet, caps;
    const unsigned char *parts = pos->v->component[piece_type(pos->board[from])];
    for (int i = 0; i < 2 * FUSION_PAIRS && parts[i]; i++) {
        int part = parts[i] - 1;
        piece_targets(tb, &tb->pt[pos->side][part], from, pos->occ, empty, cs_empty(), &quiet, &caps);
        quiet = cs_and(quiet, allowed);
        cellset untested = cs_and(quiet, zone);
        quiet = cs_andnot(quiet, zone);
        if (!defer && !cs_is_empty(untested)) {
            quiet = cs_or(quiet, safe_targets(pos, opp, nopp, paths, king, pos->occ, untested, test_all));
            untested = cs_empty();
        }
        if (!list) {
            n += cs_popcount(quiet);
            continue;
        }
        int to;
        CS_FOR_EACH(to, quiet)
            list[n++] = move_with_fission(move_make(from, to), part);
        CS_FOR_EACH(to, untested)
            list[n++] = move_with_fission(move_make(from, to), part) | MOVE_UNTESTED;
    }
    return n;
}

/* Whether an opponent attacks one of the cells, given the occupancy. */
static bool any_attacked(const struct attackers *opp, int nopp, cellset cells, cellset occ)
{
    int c;
    for (int k = 0; k < nopp; k++)
        CS_FOR_EACH(c, cells)
            if (!cs_is_empty(attackers_to(&opp[k], c, occ, true)))
                return true;
    return false;
}

/* Castling (variants.md) for the side to move, not in check: the right held, the cells between the
 * royal and the rook empty, no cell the royal crosses attacked (tested as if it had stopped there, lifted
 * from its cell, the rook still at home), and the royal safe where it lands beside the moved rook. The
 * tests use the occupancy itself, so curved and hopping attackers need nothing more. */
static int gen_castling(const struct position *pos, move_t *list, int n, const struct attackers *opp, int nopp,
                        int king)
{
    const struct tables *tb = pos->tb;
    const struct variant *v = pos->v;
    int us = pos->side;
    cellset lifted = cs_xor(pos->occ, tb->bit[king]);
    for (int i = 0; i < v->ncastles; i++) {
        const struct castle_rule *r = &v->castle[us][i];
        const struct castle_cells *cc = &tb->castle[us][i];
        if (!(pos->st[pos->ply].castling & castle_bit(us, i)) || cs_intersects(cc->empty, pos->occ))
            continue;
        cellset after = cs_or(cs_xor(lifted, tb->bit[r->rook]), cs_or(tb->bit[r->royal_to], tb->bit[r->rook_to]));
        if (!any_attacked(opp, nopp, cc->cross, lifted) && !any_attacked(opp, nopp, tb->bit[r->royal_to], after))
            n = push_move(list, n, move_make(king, r->royal_to) | MOVE_CASTLE);
    }
    return n;
}

/* The opponents' attackers of the side to move (returns how many), and the paths along which their
 * curved, hopping and path pieces (*exotic_pcs) could attack its royal on `king`. */
static inline __attribute__((always_inline)) int opponents_gather(const struct position *pos, int king,
                                                                 struct attackers *opp, struct exotic_paths *paths,
                                                                 cellset *exotic_pcs)
{
    int nopp = 0;
    exotic_paths_init(paths);
    for (int p = 0; p < pos->v->nplayers; p++) {
        if (p == pos->side)
            continue;
        attackers_init(&opp[nopp], pos, p);
        exotic_paths_add(paths, &opp[nopp], king, exotic_pcs);
        nopp++;
    }
    exotic_paths_finish(paths, pos->tb, king);
    return nopp;
}

/* The targets a line, curved, hopping or path piece had on a cell (quiet moves, and captures onto
 * every piece), the cells whose occupancy decided them (piece_targets_of's `examined`), and the
 * occupancy of those then: while the same piece stands there and those cells hold the same, so do the
 * targets. Piece 0: none. */
struct memo_way {
    cellset occ, cells, quiet, caps;
    int piece;
};

/* A search thread keeps two ways per cell for its evaluations and its lists, the latest used first:
 * the search goes back to a position after trying a move from it, and the targets of the position
 * before that move are then still there. */
struct target_memo {
    struct memo_way way[2];
};

/* Forgets every piece's targets: a search may start on other tables. */
static void memo_clear(struct target_memo *memo)
{
    for (int c = 0; c < MAX_CELLS; c++)
        memo[c].way[0].piece = memo[c].way[1].piece = 0;
}

/* A piece's targets missing from the memo, found and kept there (the older way goes). Out of line: a
 * miss costs far more than the call, and the loops that read the memo stay small enough for their
 * registers; all it calls is inlined (curved and path targets: what the variant lacks is then skipped
 * by a test). */
static __attribute__((noinline, flatten)) void memo_fill(const struct position *pos, struct target_memo *m,
                                                         const struct piece_tables *pt, int from, cellset *quiet,
                                                         cellset *caps)
{
    const cellset occ = pos->occ;
    cellset decided;
    piece_targets_of(pos->tb, pt, from, occ, cs_andnot(pos->tb->all, occ), occ, quiet, caps, true, &decided);
    m->way[1] = m->way[0];
    m->way[0] = (struct memo_way){ cs_and(occ, decided), decided, *quiet, *caps, pos->board[from] };
}

static inline bool memo_holds(const struct memo_way *w, const struct position *pos, int from)
{
    return w->piece == pos->board[from] && cs_is_empty(cs_xor(w->occ, cs_and(pos->occ, w->cells)));
}

/* A piece's targets, captures onto every piece, from the memo (or NULL) when they are still those it
 * keeps: most moves change none of the cells that decided them (a slider's up to its first piece).
 * Leapers' cost two loads and are not kept; the commonest, whose leaps all move and capture, one. */
static inline __attribute__((always_inline)) void memo_targets(const struct position *pos, struct target_memo *memo,
                                                               const struct piece_tables *pt, int from,
                                                               cellset *quiet, cellset *caps)
{
    const struct tables *tb = pos->tb;
    const cellset occ = pos->occ, empty = cs_andnot(tb->all, occ);
    if (pt->gen == GEN_LEAP_BOTH) {
        const cellset leaps = pt->leap[MODE_BOTH][from];
        *quiet = cs_and(leaps, empty);
        *caps = cs_and(leaps, occ);
        return;
    }
    if (!memo || !(pt->gen & ~(unsigned)(GEN_LEAP_MOVE | GEN_LEAP_CAPTURE | GEN_LEAP_BOTH))) {
        piece_targets(tb, pt, from, occ, empty, occ, quiet, caps);
        return;
    }
    struct target_memo *m = &memo[from];
    if (memo_holds(&m->way[0], pos, from)) {
        *quiet = m->way[0].quiet;
        *caps = m->way[0].caps;
        return;
    }
    if (memo_holds(&m->way[1], pos, from)) {
        const struct memo_way older = m->way[1];
        m->way[1] = m->way[0];
        m->way[0] = older;
        *quiet = older.quiet;
        *caps = older.caps;
        return;
    }
    memo_fill(pos, m, pt, from, quiet, caps);
}

/* Which moves gen_legal lists: all, the captures and promotions (LIST_NOISY, with the side to move not
 * in check), or the others (LIST_QUIET): each in the order the whole list has them. */
enum list_kind { LIST_ALL, LIST_NOISY, LIST_QUIET };

/* gen_legal's parts: always inlined, so that each of its forms keeps its constants. */
#define GEN_INLINE static inline __attribute__((always_inline))

/* What gen_legal finds once for every piece's moves: the board, the opponents' attackers and what
 * their checks leave to a move that is not the royal's. */
struct gen {
    struct position *pos;
    enum list_kind kind;
    int us, king, nopp;
    const struct attackers *opp;
    const struct exotic_paths *paths;
    cellset occ, empty, enemy;
    cellset checkers;
    cellset exotic_pcs;   /* the opponents' curved, hopping and path pieces that could attack the royal */
    cellset zone;         /* the paths near the royal along which they could */
    bool exotic;          /* there is such a piece */
    bool test_all;        /* in check by such a piece, or by two: every move is tried */
    bool defer;           /* the search's lists: a move that needs the test against them is flagged */
    cellset mask;         /* where a move must land to answer the checks along lines and by leaps */
    cellset touch;        /* test_all: where a move from outside the zone must land */
    cellset pinned;       /* own pieces that may move only along their line[] */
};

/* The royal's moves: each target must be safe with the royal gone from its cell. */
GEN_INLINE int gen_royal(const struct gen *g, move_t *list, int n)
{
    const struct position *pos = g->pos;
    const struct tables *tb = pos->tb;
    cellset occ_noking = cs_xor(g->occ, tb->bit[g->king]), quiet = cs_empty(), caps = cs_empty();
    piece_targets_of(tb, &tb->pt[g->us][pos->royal[g->us]], g->king, g->occ, g->empty,
                     g->kind == LIST_QUIET ? cs_empty() : g->enemy, &quiet, &caps, g->kind != LIST_NOISY, NULL);
    int to;
    CS_FOR_EACH(to, cs_or(quiet, caps)) {
        bool safe = true;
        for (int i = 0; i < g->nopp && safe; i++)
            safe = cs_is_empty(attackers_to(&g->opp[i], to, occ_noking, true));
        if (safe)
            n = push_move(list, n, move_make(g->king, to));
    }
    return n;
}

/* Where the other moves may land: on the checker's evasion mask, a pinned piece along its line. When
 * every move is tried, only one that lands on each checker's evasion mask answers its checks along
 * lines and by leaps, and only one that leaves or lands on the paths near the royal (zone) or lands on
 * that mask answers a curved or hopping piece's. */
GEN_INLINE void gen_limits(struct gen *g, cellset *line)
{
    const struct position *pos = g->pos;
    g->mask = g->touch = pos->tb->all;
    g->pinned = cs_empty();
    if (!g->test_all) {
        if (!cs_is_empty(g->checkers))
            g->mask = evasion_mask(pos, g->king, cs_lsb(g->checkers));
        for (int i = 0; i < g->nopp; i++)
            g->pinned = find_pins(pos, &g->opp[i], g->king, line, g->pinned);
        return;
    }
    int c;
    CS_FOR_EACH(c, g->checkers) {
        if (cs_test(g->exotic_pcs, c))
            g->touch = cs_and(g->touch, cs_or(g->zone, evasion_mask(pos, g->king, c)));
        else
            g->mask = cs_and(g->mask, evasion_mask(pos, g->king, c));
    }
}

/* The en-passant cells open to the side to move (CELL_NONE: none) and the pieces that may take on
 * each: en passant is taken by a piece of the victim's kind. Different armies: a double step kept
 * open for a later army may come round to its own army. */
GEN_INLINE bool gen_ep_open(const struct gen *g, int cells[2], cellset takers[2])
{
    const struct position *pos = g->pos;
    const struct state *st = &pos->st[pos->ply];
    bool open = st->ep != CELL_NONE && piece_colour(pos->board[st->ep_victim]) != g->us;
    cells[0] = open ? st->ep : CELL_NONE;
    cells[1] = open ? st->ep_far : CELL_NONE;
    takers[0] = takers[1] = cs_empty();
    for (int k = 0; k < 2 && cells[k] != CELL_NONE; k++) {
        int t = piece_type(pos->board[st->ep_victim]);
        takers[k] = cs_and(pos->tb->pt[g->us][t].leap_from[cells[k]], pos_pieces(pos, g->us, t));
    }
    return open;
}

/* A piece's quiet moves (onto empty cells and fusion partners) and captures, before the checks: from
 * the memo where it keeps them (its quiet moves are onto empty cells only). */
GEN_INLINE void gen_piece_targets(const struct gen *g, struct target_memo *memo, const struct piece_tables *pt,
                                  int from, bool pawn, cellset partners, cellset *quiet, cellset *caps)
{
    const bool noisy = g->kind == LIST_NOISY;
    if (memo && !pawn && (noisy || cs_is_empty(partners))) {
        memo_targets(g->pos, memo, pt, from, quiet, caps);
        *quiet = noisy ? cs_empty() : *quiet;
        *caps = cs_and(*caps, g->enemy);
    } else {
        piece_targets_of(g->pos->tb, pt, from, g->occ, cs_or(g->empty, partners), g->enemy, quiet, caps,
                         !noisy || pawn, NULL);
    }
}

/* Of the targets, those a curved, hopping or path attacker might then reach (all of them where every
 * move is tried or the piece stands on the paths near the royal, else those landing on them): tested
 * here, or left untested (returned) with defer. */
GEN_INLINE cellset gen_screen(const struct gen *g, int from, cellset vacated, cellset *targets)
{
    if (!g->exotic)
        return cs_empty();
    cellset untested = g->test_all || cs_test(g->zone, from) ? *targets : cs_and(*targets, g->zone);
    *targets = cs_andnot(*targets, untested);
    if (!g->defer && !cs_is_empty(untested)) {
        *targets = cs_or(*targets, safe_targets(g->pos, g->opp, g->nopp, g->paths, g->king, vacated, untested,
                                                g->test_all));
        untested = cs_empty();
    }
    return untested;
}

/* A pawn's double and triple steps from its start cell, onto allowed cells, over empty ones. */
GEN_INLINE int gen_double_steps(const struct gen *g, const struct piece_tables *pt, move_t *list, int n, int from,
                                cellset allowed, cellset vacated)
{
    const struct double_step *ds = &pt->dbl[from];
    for (int i = 0; i < ds->n; i++) {
        int two = ds->to[i];
        if (!cs_test(g->empty, ds->mid[i]) || !cs_test(g->empty, two) || !cs_test(allowed, two)
            || (ds->far[i] != CELL_NONE && !cs_test(g->empty, ds->far[i])))
            continue;
        bool unsure = g->test_all || (g->exotic && (cs_test(g->zone, from) || cs_test(g->zone, two)));
        if (unsure && g->defer)
            n = push_move(list, n, move_make(from, two) | MOVE_DOUBLE | MOVE_UNTESTED);
        else if (!unsure
                 || !cs_is_empty(safe_targets(g->pos, g->opp, g->nopp, g->paths, g->king, vacated, g->pos->tb->bit[two],
                                              g->test_all)))
            n = push_move(list, n, move_make(from, two) | MOVE_DOUBLE);
    }
    return n;
}

/* The moves of type t's pieces on froms (not the royal's). */
GEN_INLINE int gen_type(const struct gen *g, const cellset *line, const int ep_cells[2], const cellset ep_takers[2],
                        bool ep_open, struct target_memo *memo, int *promo, int *npromo, move_t *list, int n, int t,
                        cellset froms)
{
    const bool noisy = g->kind == LIST_NOISY;
    const struct position *pos = g->pos;
    const struct tables *tb = pos->tb;
    const struct variant *v = pos->v;
    const struct piece_tables *pt = &tb->pt[g->us][t];
    const bool pawn = v->piece[t].pawn, compound = variant_is_compound(v, t), may_block = v->piece[t].blocked;
    /* Fusion is no capture: own pieces this type fuses with are reached as empty cells are, by the
     * moving (not the capturing) atoms of a divergent piece. */
    cellset partners = noisy ? cs_empty() : pieces_of_types(pos, g->us, pt->partners);
    /* Noisy: captures, and a pawn's moves into its promotion zone (none for other pieces). */
    const cellset wanted = cs_or(g->enemy, pt->promo_zone);
    int from;
    CS_FOR_EACH(from, froms) {
        /* A piece that could not reach what is wanted even on the empty board has no noisy move. */
        if (noisy && !cs_intersects(pt->reach[from], wanted))
            continue;
        cellset quiet, caps;
        gen_piece_targets(g, memo, pt, from, pawn, partners, &quiet, &caps);
        /* Where a pawn could also step onto the en-passant cell, that step is the capture (pieces.md). */
        for (int k = 0; k < 2 && ep_open; k++)
            if (cs_test(ep_takers[k], from))
                quiet = cs_andnot(quiet, tb->bit[ep_cells[k]]);
        /* Brusky: an enemy on a cell a start-cell pawn steps to blocks all its non-capturing moves. */
        bool blocked = may_block && variant_double_steps(v, g->us, t, from)
                       && cs_intersects(cs_or(pt->leap[MODE_MOVE][from], pt->leap[MODE_BOTH][from]), g->enemy);
        if (blocked)
            quiet = cs_andnot(quiet, g->empty);
        cellset allowed = cs_test(g->pinned, from) ? cs_and(g->mask, line[from]) : g->mask;
        if (g->test_all && !cs_test(g->zone, from))
            allowed = cs_and(allowed, g->touch);
        cellset targets = cs_and(cs_or(quiet, caps), allowed);
        if (noisy)
            targets = cs_and(targets, wanted);
        /* Captures, and a pawn's moves into its promotion zone (which promote), are noisy. */
        if (g->kind == LIST_QUIET)
            targets = cs_andnot(targets, wanted);
        cellset vacated = cs_xor(g->occ, tb->bit[from]);
        cellset untested = gen_screen(g, from, vacated, &targets);
        if (!pawn) {
            n = add_moves(list, n, from, targets, 0);
            n = add_moves(list, n, from, untested, MOVE_UNTESTED);
            if (compound && !noisy)
                n = gen_fissions(pos, list, n, from, cs_and(cs_and(g->mask, g->touch), g->empty), g->opp, g->nopp,
                                 g->paths, g->king, g->zone, g->test_all, g->defer);
            continue;
        }
        n = add_pawn_moves(pos, pt, promo, npromo, list, n, from, targets, 0);
        if (!cs_is_empty(untested))
            n = add_pawn_moves(pos, pt, promo, npromo, list, n, from, untested, MOVE_UNTESTED);
        if (!noisy && !blocked)
            n = gen_double_steps(g, pt, list, n, from, allowed, vacated);
    }
    return n;
}

/* Legal moves of a kind into list, or (list NULL) only their number. With `late` (the search's lists),
 * a move that needs the test against curved, hopping and path attackers is not tested but flagged
 * MOVE_UNTESTED, and *late keeps what movegen_is_safe needs to test it when tried; in check by such a
 * piece, or by two, every move is still tested here (rare, and each kind of attacker counts). With
 * `only` a cell, the moves of other pieces may be left out (movegen_pseudo_member). With `any`, it may
 * stop at the first piece with a legal move (whether the player has one: a count above 0). With
 * `memo`, the pieces' targets come from the thread's target memo (memo_targets). Inlined into each
 * caller below, so that each form (counting, noisy, quiet, late, one piece) is compiled apart: perft's
 * is not slowed by the others. */
GEN_INLINE int gen_legal(struct position *pos, move_t *list, enum list_kind kind, struct exotic_paths *late, int only,
                         bool any, struct target_memo *memo)
{
    const struct tables *tb = pos->tb;
    const int us = pos->side, king = pos_royal_cell(pos, us);
    struct attackers opp[MAX_PLAYERS - 1];
    struct exotic_paths own_paths, *paths = late ? late : &own_paths;
    struct gen g = { .pos = pos, .kind = kind, .us = us, .king = king, .opp = opp, .paths = paths, .occ = pos->occ,
                     .checkers = cs_empty(), .exotic_pcs = cs_empty() };
    g.enemy = cs_andnot(g.occ, pos->by_colour[us]);
    g.empty = cs_andnot(tb->all, g.occ);
    g.nopp = opponents_gather(pos, king, opp, paths, &g.exotic_pcs);
    /* The quiescence search asks for noisy moves only out of check. */
    for (int i = 0; i < g.nopp && kind != LIST_NOISY; i++)
        g.checkers = cs_or(g.checkers, attackers_to(&opp[i], king, g.occ, false));
    g.exotic = !cs_is_empty(g.exotic_pcs);
    g.zone = paths->zone;
    /* Against a curved or hopping checker, or two checkers, every move is tried. */
    g.test_all = g.exotic && (cs_several(g.checkers) || cs_intersects(g.checkers, g.exotic_pcs));
    g.defer = late && !g.test_all;

    int n = 0;
    const bool royal = only == CELL_NONE || only == king;
    if (royal)
        n = gen_royal(&g, list, n);
    if (any && n)
        return n;
    if (kind != LIST_NOISY && royal && (pos->st[pos->ply].castling & castle_bits_of(us)) && cs_is_empty(g.checkers))
        n = gen_castling(pos, list, n, opp, g.nopp, king);
    /* Against a hopper even a double check may be answered by moving its screen. */
    if (cs_several(g.checkers) && !g.exotic)
        return n;

    cellset line[MAX_CELLS];
    gen_limits(&g, line);
    int promo[MAX_TYPES], npromo = -1;   /* the promotion choices (add_pawn_moves) */
    int ep_cells[2];
    cellset ep_takers[2];
    const bool ep_open = gen_ep_open(&g, ep_cells, ep_takers);
    for (uint32_t types = tb->movers[us] & pos->types[us]; types; types &= types - 1) {
        const int t = __builtin_ctz(types);
        cellset froms = pos_pieces(pos, us, t);
        if (only != CELL_NONE)
            froms = cs_and(froms, tb->bit[only]);
        if (cs_is_empty(froms))
            continue;
        if (any && n)
            return n;
        n = gen_type(&g, line, ep_cells, ep_takers, ep_open, memo, promo, &npromo, list, n, t, froms);
    }
    for (int k = 0; k < 2 && ep_cells[k] != CELL_NONE && kind != LIST_QUIET; k++)
        n = gen_en_passant(pos, list, n, us, king, ep_cells[k]);
    return n;
}

static int movegen_legal(struct position *pos, move_t *list)
{
    return gen_legal(pos, list, LIST_ALL, NULL, CELL_NONE, false, NULL);
}

static int movegen_count(struct position *pos)
{
    return gen_legal(pos, NULL, LIST_ALL, NULL, CELL_NONE, false, NULL);
}

/* Whether the side to move has a legal move (three players: mate or stalemate). */
static bool movegen_any(struct position *pos)
{
    return gen_legal(pos, NULL, LIST_ALL, NULL, CELL_NONE, true, NULL) > 0;
}

/* Not in check only. */
static int movegen_noisy(struct position *pos, move_t *list)
{
    return gen_legal(pos, list, LIST_NOISY, NULL, CELL_NONE, false, NULL);
}

/* The search's lists: legal but for the moves flagged MOVE_UNTESTED, whose test movegen_is_safe does
 * when the search tries them (most moves of a node never are: cut-offs, pruning). */
static int movegen_pseudo(struct position *pos, move_t *list, struct exotic_paths *late, struct target_memo *memo)
{
    return gen_legal(pos, list, LIST_ALL, late, CELL_NONE, false, memo);
}

/* The search's list less its captures and promotions (movegen_pseudo_noisy's), in its order. */
static int movegen_pseudo_quiet(struct position *pos, move_t *list, struct exotic_paths *late,
                                struct target_memo *memo)
{
    return gen_legal(pos, list, LIST_QUIET, late, CELL_NONE, false, memo);
}

/* Not in check only. memo: NULL, or the thread's target memo. */
static int movegen_pseudo_noisy(struct position *pos, move_t *list, struct exotic_paths *late,
                                struct target_memo *memo)
{
    return gen_legal(pos, list, LIST_NOISY, late, CELL_NONE, false, memo);
}

/* Whether a move movegen_pseudo flagged MOVE_UNTESTED is legal, given what it kept in late. A fission
 * leaves a part of the compound on its cell. */
static bool movegen_is_safe(const struct position *pos, const struct exotic_paths *late, move_t m)
{
    int from = move_from(m);
    cellset occ = move_fission(m) >= 0 ? pos->occ : cs_xor(pos->occ, pos->tb->bit[from]);
    return exotic_safe(pos, late, pos_royal_cell(pos, pos->side), occ, move_to(m));
}

/* The same for a caller that kept nothing (engine_ops): the paths are gathered again. */
static bool movegen_is_safe_alone(const struct position *pos, move_t m)
{
    struct attackers opp[MAX_PLAYERS - 1];
    struct exotic_paths paths;
    cellset exotic_pcs = cs_empty();
    opponents_gather(pos, pos_royal_cell(pos, pos->side), opp, &paths, &exotic_pcs);
    return movegen_is_safe(pos, &paths, m);
}

static int movegen_pseudo_alone(struct position *pos, move_t *list)
{
    struct exotic_paths paths;
    return movegen_pseudo(pos, list, &paths, NULL);
}

static int movegen_pseudo_noisy_alone(struct position *pos, move_t *list)
{
    struct exotic_paths paths;
    return movegen_pseudo_noisy(pos, list, &paths, NULL);
}

static int movegen_pseudo_quiet_alone(struct position *pos, move_t *list)
{
    struct exotic_paths paths;
    return movegen_pseudo_quiet(pos, list, &paths, NULL);
}

/* The member of the search's list (movegen_pseudo, or with noisy movegen_pseudo_noisy) that is m but
 * perhaps for MOVE_UNTESTED, or MOVE_NONE: for a move from the table, a killer or a counter move, found
 * among the moves of its piece alone, without the whole list. */
static move_t movegen_pseudo_member(struct position *pos, move_t m, bool noisy, struct exotic_paths *late)
{
    int from = move_from(m);
    if (from >= pos->tb->ncells || !pos->board[from] || piece_colour(pos->board[from]) != pos->side)
        return MOVE_NONE;
    move_t list[MAX_MOVES];
    int n = gen_legal(pos, list, noisy ? LIST_NOISY : LIST_ALL, late, from, false, NULL);
    for (int i = 0; i < n; i++)
        if ((list[i] & ~MOVE_UNTESTED) == (m & ~MOVE_UNTESTED))
            return list[i];
    return MOVE_NONE;
}

/* Whether m, its flags included, is a move of the search's list (engine_ops). */
static bool movegen_is_pseudo(struct position *pos, move_t m, bool noisy)
{
    struct exotic_paths paths;
    return m != MOVE_NONE && movegen_pseudo_member(pos, m, noisy, &paths) == m;
}
