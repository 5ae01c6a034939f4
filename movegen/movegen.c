/* Legal move generation (included by engine/instance.c, once per width).
 * Checks and pins are resolved with masks; only en passant is tried by making the move. */
#include "position.h"

/* Non-capturing and capturing targets of one piece, before legality. Always inlined: returning
 * cell sets through memory costs more than computing them. */
static inline __attribute__((always_inline)) void piece_targets(const struct tables *tb, const struct piece_tables *pt, int from, cellset occ,
                                 cellset empty, cellset enemy, cellset *quiet, cellset *caps)
{
    cellset q = cs_empty(), c = cs_empty();
    const unsigned gen = pt->gen;
    if (gen & GEN_LEAP_BOTH) {
        q = cs_and(pt->leap[MODE_BOTH][from], empty);
        c = cs_and(pt->leap[MODE_BOTH][from], enemy);
    }
    if (gen & GEN_LEAP_MOVE)
        q = cs_or(q, cs_and(pt->leap[MODE_MOVE][from], empty));
    if (gen & GEN_LEAP_CAPTURE)
        c = cs_or(c, cs_and(pt->leap[MODE_CAPTURE][from], enemy));
    if (gen & GEN_LINE_BOTH) {
        cellset s = line_targets(tb, &pt->slides[MODE_BOTH], &pt->rides[MODE_BOTH], from, occ);
        q = cs_or(q, cs_and(s, empty));
        c = cs_or(c, cs_and(s, enemy));
    }
    if (gen & GEN_LINE_MOVE)
        q = cs_or(q, cs_and(line_targets(tb, &pt->slides[MODE_MOVE], &pt->rides[MODE_MOVE], from, occ), empty));
    if (gen & GEN_LINE_CAPTURE)
        c = cs_or(c, cs_and(line_targets(tb, &pt->slides[MODE_CAPTURE], &pt->rides[MODE_CAPTURE], from, occ), enemy));
    *quiet = q;
    *caps = c;
}

/* Move emission: with no list the moves are only counted (perft's last ply). */
static inline int push_move(move_t *list, int n, move_t m)
{
    if (list)
        list[n] = m;
    return n + 1;
}

static inline int add_moves(move_t *list, int n, int from, cellset targets)
{
    if (!list)
        return n + cs_popcount(targets);
    int to;
    CS_FOR_EACH(to, targets)
        list[n++] = move_make(from, to);
    return n;
}

static inline int add_promotions(const struct variant *v, move_t *list, int n, int from, cellset targets)
{
    if (!list)
        return n + cs_popcount(targets) * v->npromo;
    int to;
    CS_FOR_EACH(to, targets)
        for (int i = 0; i < v->npromo; i++)
            list[n++] = move_with_promo(move_make(from, to), v->promo[i]);
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
        cs_set(&pinned, b);
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

static int gen_en_passant(struct position *pos, move_t *list, int n, int us, int king)
{
    const struct state *st = &pos->st[pos->ply];
    /* En passant is taken by a piece of the same kind only. */
    int t = piece_type(pos->board[st->ep_victim]), from;
    cellset cands = cs_and(pos->tb->pt[us][t].leap_from[st->ep], pos_pieces(pos, us, t));
    CS_FOR_EACH(from, cands) {
        move_t m = move_make(from, st->ep) | MOVE_EP;
        position_make(pos, m);
        bool legal = !attacked(pos, king, pos->occ, us);
        position_unmake(pos, m);
        if (legal)
            n = push_move(list, n, m);
    }
    return n;
}

/* Legal moves into list, or (list NULL) only their number; noisy: captures and promotions only. */
static inline int gen_legal(struct position *pos, move_t *list, bool noisy)
{
    const struct tables *tb = pos->tb;
    const struct variant *v = pos->v;
    int us = pos->side, n = 0, king = pos_royal_cell(pos, us), nopp = 0;
    cellset own = pos->by_colour[us], occ = pos->occ;
    cellset enemy = cs_andnot(occ, own), empty = cs_andnot(tb->all, occ);
    cellset checkers = cs_empty(), quiet, caps;
    struct attackers opp[MAX_PLAYERS - 1];
    for (int p = 0; p < v->nplayers; p++) {
        if (p == us)
            continue;
        attackers_init(&opp[nopp], pos, p);
        checkers = cs_or(checkers, attackers_to(&opp[nopp], king, occ, false));
        nopp++;
    }

    /* The royal: each target must be safe with the royal gone from its cell. */
    cellset occ_noking = cs_xor(occ, tb->bit[king]);
    piece_targets(tb, &tb->pt[us][pos->royal], king, occ, empty, enemy, &quiet, &caps);
    int to;
    CS_FOR_EACH(to, noisy ? caps : cs_or(quiet, caps)) {
        bool safe = true;
        for (int i = 0; i < nopp && safe; i++)
            safe = cs_is_empty(attackers_to(&opp[i], to, occ_noking, true));
        if (safe)
            n = push_move(list, n, move_make(king, to));
    }
    if (cs_several(checkers))
        return n;

    cellset mask = cs_is_empty(checkers) ? tb->all : evasion_mask(pos, king, cs_lsb(checkers));
    cellset line[MAX_CELLS], pinned = cs_empty();
    for (int i = 0; i < nopp; i++)
        pinned = find_pins(pos, &opp[i], king, line, pinned);
    for (int t = 0; t < v->ntypes; t++) {
        if (t == pos->royal)
            continue;
        const struct piece_tables *pt = &tb->pt[us][t];
        const bool pawn = v->piece[t].pawn;
        int from;
        CS_FOR_EACH(from, pos_pieces(pos, us, t)) {
            piece_targets(tb, pt, from, occ, empty, enemy, &quiet, &caps);
            cellset allowed = cs_test(pinned, from) ? cs_and(mask, line[from]) : mask;
            cellset targets = cs_and(cs_or(quiet, caps), allowed);
            if (noisy)
                targets = cs_and(targets, pawn ? cs_or(enemy, pt->promo_zone) : enemy);
            if (!pawn) {
                n = add_moves(list, n, from, targets);
                continue;
            }
            n = add_moves(list, n, from, cs_andnot(targets, pt->promo_zone));
            n = add_promotions(v, list, n, from, cs_and(targets, pt->promo_zone));
            const struct double_step *ds = &pt->dbl[from];
            for (int i = 0; i < ds->n && !noisy; i++)
                if (cs_test(empty, ds->mid[i]) && cs_test(empty, ds->to[i]) && cs_test(allowed, ds->to[i]))
                    n = push_move(list, n, move_make(from, ds->to[i]) | MOVE_DOUBLE);
        }
    }
    if (pos->st[pos->ply].ep != CELL_NONE)
        n = gen_en_passant(pos, list, n, us, king);
    return n;
}

static int movegen_legal(struct position *pos, move_t *list)
{
    return gen_legal(pos, list, false);
}

static int movegen_count(struct position *pos)
{
    return gen_legal(pos, NULL, false);
}

static int movegen_noisy(struct position *pos, move_t *list)
{
    return gen_legal(pos, list, true);
}
