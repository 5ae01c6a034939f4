/* Three-player turns (docs/variants.md, included by engine/width/instance.c once per width): before
 * a player moves, every army whose royal it attacks leaves the board; a player left with no legal
 * move is mated if in check (its army leaves and the next one moves in the same position) and
 * stalemated otherwise. Two-player games have no eliminations: mate and stalemate end them. */
#include "../position.h"

/* The armies on the board (bit p for army p): eliminated ones have no royal. */
static unsigned position_armies(const struct position *pos)
{
    unsigned armies = 0;
    for (int p = 0; p < pos->v->nplayers; p++)
        armies |= (unsigned)(pos_royal_cell(pos, p) != CELL_NONE) << p;
    return armies;
}

static int armies_left(const struct position *pos)
{
    return __builtin_popcount(position_armies(pos));
}

/* The armies whose royal the player attacks (bit p for army p). Exact: tested whole; in the search,
 * from the moves since each army's last (moves_since). */
static unsigned royals_attacked_by(const struct position *pos, int player, bool exact)
{
    unsigned hit = 0;
    struct moves_since ms = { 0 };
    for (int p = 0; p < pos->v->nplayers; p++) {
        int royal = pos_royal_cell(pos, p);
        if (p == player || royal == CELL_NONE)
            continue;
        bool since = !exact && moves_since(pos, p, &ms);
        if (since ? attacked_since(pos, royal, player, &ms) : attacked_by(pos, royal, pos->occ, player))
            hit |= 1u << p;
    }
    return hit;
}

/* The armies whose royal the side to move attacks, as the search finds them (exact false) or tested
 * whole (engine_ops: the tests compare the two). */
static unsigned position_royals_attacked(const struct position *pos, bool exact)
{
    return royals_attacked_by(pos, pos->side, exact);
}

/* Resolves the turn; returns how many armies were taken off (position_unresolve puts them back)
 * and in *end whether the player now to move plays. Armies attacked at once leave together, and
 * again after each removal, which can uncover another royal. Not exact (the search): a player not in
 * check is taken to have a move, so a stalemate shows only as an empty move list. in_check: whether
 * the player to move is in check as the position stands (the search found it with the move), -1 when
 * not known; it holds until an army leaves. */
static int turn_resolve(struct position *pos, enum turn_end *end, bool exact, int in_check)
{
    int removed = 0;
    *end = TURN_PLAYS;
    if (pos->v->nplayers < 3)
        return 0;
    for (;;) {
        for (unsigned hit; (hit = royals_attacked_by(pos, pos->side, exact));)
            for (; hit; hit &= hit - 1, removed++)
                position_remove_army(pos, __builtin_ctz(hit));
        if (armies_left(pos) == 1) {
            *end = TURN_LAST_ARMY;
            return removed;
        }
        bool check = removed || in_check < 0 ? position_in_check(pos) : in_check;
        if ((!exact && !check) || movegen_any(pos))
            return removed;
        if (!check) {
            *end = TURN_STALEMATE;
            return removed;
        }
        position_remove_army(pos, pos->side);
        removed++;
    }
}

static int position_resolve(struct position *pos, enum turn_end *end)
{
    return turn_resolve(pos, end, true, -1);
}

static void position_unresolve(struct position *pos, int removed)
{
    while (removed-- > 0)
        position_restore_army(pos);
}
