/* Position set-up, make and unmake (included by engine/width/instance.c, once per width). */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../position.h"

/* Adds (sign 1) or takes away (-1) a piece's psq weights. */
static inline void pos_score_psq(struct position *pos, int cell, int piece, int sign)
{
    const struct tables *tb = pos->tb;
    if (!tb->psq.value)
        return;
    int c = piece_colour(piece), t = piece_type(piece), value = sign * tb->psq.value[t];
    pos->sums.material[c] += value;
    pos->sums.pst[c][0] += sign * tb->psq.cell[c][t][cell][0];
    pos->sums.pst[c][1] += sign * tb->psq.cell[c][t][cell][1];
    if (tb->psq.phase_types >> t & 1)
        pos->sums.phase_material += value;
}

/* The psq scores and the pawn key. */
static inline void pos_score(struct position *pos, int cell, int piece, int sign)
{
    pos_score_psq(pos, cell, piece, sign);
    if (pos->tb->pawn_types >> piece_type(piece) & 1)
        pos->sums.pawn_key ^= pos->v->key_piece[piece_colour(piece)][piece_type(piece)][cell];
}

/* Recounts the psq sums from the board, after the tables' scores changed (eval_load); the net's
 * accumulators do not depend on those weights. The states keep the sums as they were before each move
 * for unmake: no move made before this is unmade after it (a game makes its moves; a search unmakes
 * only its own). */
static void position_rescore(struct position *pos)
{
    memset(pos->sums.material, 0, sizeof pos->sums.material);
    memset(pos->sums.pst, 0, sizeof pos->sums.pst);
    pos->sums.phase_material = 0;
    for (int c = 0; c < pos->tb->ncells; c++)
        if (pos->board[c])
            pos_score_psq(pos, c, pos->board[c], 1);
}

/* A piece onto the board or off it: its cell and the sets. The sums, the types and the note for the
 * accumulators are pos_put's and pos_remove's, which make uses; unmake puts them back whole. */
static inline void pos_drop(struct position *pos, int cell, int piece)
{
    cellset b = pos->tb->bit[cell];
    pos->board[cell] = (unsigned char)piece;
    pos->by_type[piece_type(piece)] = cs_or(pos->by_type[piece_type(piece)], b);
    pos->by_colour[piece_colour(piece)] = cs_or(pos->by_colour[piece_colour(piece)], b);
    pos->occ = cs_or(pos->occ, b);
}

static inline void pos_lift(struct position *pos, int cell)
{
    int piece = pos->board[cell];
    cellset b = pos->tb->bit[cell];
    pos->board[cell] = 0;
    pos->by_type[piece_type(piece)] = cs_xor(pos->by_type[piece_type(piece)], b);
    pos->by_colour[piece_colour(piece)] = cs_xor(pos->by_colour[piece_colour(piece)], b);
    pos->occ = cs_xor(pos->occ, b);
}

static inline void pos_put(struct position *pos, int cell, int piece)
{
    if (pos->noting)
        acc_note(pos->noting, true, piece, cell);
    pos_score(pos, cell, piece, 1);
    pos_drop(pos, cell, piece);
    pos->types[piece_colour(piece)] |= 1u << piece_type(piece);
}

static inline void pos_remove(struct position *pos, int cell)
{
    int piece = pos->board[cell];
    if (pos->noting)
        acc_note(pos->noting, false, piece, cell);
    pos_score(pos, cell, piece, -1);
    pos_lift(pos, cell);
    if (cs_is_empty(pos_pieces(pos, piece_colour(piece), piece_type(piece))))
        pos->types[piece_colour(piece)] &= ~(1u << piece_type(piece));
}

static inline uint64_t piece_key(const struct position *pos, int piece, int cell)
{
    return pos->v->key_piece[piece_colour(piece)][piece_type(piece)][cell];
}

/* The keys of a set of castling rights. */
static inline uint64_t castling_key(const struct variant *v, unsigned rights)
{
    uint64_t key = 0;
    for (; rights; rights &= rights - 1) {
        int b = __builtin_ctz(rights);
        key ^= v->key_castle[b / MAX_CASTLES][b % MAX_CASTLES];
    }
    return key;
}

static uint64_t position_compute_key(const struct position *pos)
{
    const struct state *st = &pos->st[pos->ply];
    uint64_t key = pos->v->key_side[pos->side];
    for (int c = 0; c < pos->tb->ncells; c++)
        if (pos->board[c])
            key ^= piece_key(pos, pos->board[c], c);
    if (st->ep != CELL_NONE)
        key ^= pos->v->key_ep[st->ep];
    return key ^ castling_key(pos->v, st->castling);
}

#ifndef NDEBUG
/* The position agrees with itself: the sets with each other and with the mailbox, each army's types
 * with its pieces, the key with one computed afresh. Asserted around make and unmake where assertions
 * are on (the test and sanitizer builds; the release defines NDEBUG). */
static bool position_is_ok(const struct position *pos)
{
    const struct variant *v = pos->v;
    if (pos->ply < 0 || pos->ply >= MAX_STATES || pos->side < 0 || pos->side >= v->nplayers)
        return false;
    cellset types = cs_empty(), colours = cs_empty();
    for (int t = 0; t < v->ntypes; t++)
        types = cs_or(types, pos->by_type[t]);
    for (int p = 0; p < v->nplayers; p++) {
        if (cs_intersects(colours, pos->by_colour[p]))
            return false;
        colours = cs_or(colours, pos->by_colour[p]);
    }
    if (!cs_is_empty(cs_xor(types, pos->occ)) || !cs_is_empty(cs_xor(colours, pos->occ)))
        return false;
    for (int c = 0; c < pos->tb->ncells; c++) {
        int piece = pos->board[c];
        if (!piece ? cs_test(pos->occ, c)
                   : !cs_test(pos->by_type[piece_type(piece)], c) || !cs_test(pos->by_colour[piece_colour(piece)], c)
                         || !(pos->types[piece_colour(piece)] >> piece_type(piece) & 1))
            return false;
    }
    return pos->st[pos->ply].key == position_compute_key(pos);
}
#endif

/* Only the first state is cleared: a move writes every field of the state it reaches before anything
 * reads it (as position_copy relies on too), and clearing all MAX_STATES cost a UCI `position`
 * command more than parsing it. */
static struct position *position_new(const struct tables *tb)
{
    struct position *pos = malloc(sizeof *pos);
    struct acc_entry *accs = malloc(ACC_STACK * sizeof *accs);
    if (!pos || !accs) {
        free(pos);
        free(accs);
        return NULL;
    }
    memset(pos, 0, offsetof(struct position, st) + sizeof pos->st[0]);
    pos->tb = tb;
    pos->v = tb->v;
    for (int p = 0; p < MAX_PLAYERS; p++)
        pos->royal[p] = p < tb->v->nplayers ? variant_royal_type(tb->v, p) : 0;
    pos->accs = accs;
    return pos;
}

/* src up to its current state: the states above it are written by the moves that reach them before
 * anything reads them, and copying all MAX_STATES of them costs a hundred kilobytes a copy. dst keeps
 * its own accumulators, which the first evaluation computes from the board. */
static void position_copy(struct position *dst, const struct position *src)
{
    struct acc_entry *accs = dst->accs;
    memcpy(dst, src, offsetof(struct position, st) + (size_t)(src->ply + 1) * sizeof src->st[0]);
    dst->accs = accs;
    acc_forget(dst);
}

static void position_free(struct position *pos)
{
    if (pos)
        free(pos->accs);
    free(pos);
}

static void position_get(const struct position *pos, struct setup *s)
{
    memset(s, 0, sizeof *s);
    memcpy(s->piece, pos->board, sizeof s->piece);
    s->side = pos->side;
    s->ep = pos->st[pos->ply].ep;
    s->ep_victim = pos->st[pos->ply].ep_victim;
    s->castling = pos->st[pos->ply].castling;
    s->halfmove = pos->st[pos->ply].halfmove;
    s->fullmove = pos->fullmove;
}

static uint64_t position_key(const struct position *pos)
{
    return pos->st[pos->ply].key;
}

/* The key after m as most moves change it: the piece leaves its cell, takes what stands on the target
 * and lands there, the en-passant cell closes and the next player moves. Castling, promotion, fusion,
 * fission, en passant, lost castling rights and a double step give another key: this only lets the
 * search fetch the child's table bucket early. */
static inline uint64_t position_key_after(const struct position *pos, move_t m)
{
    const struct variant *v = pos->v;
    const struct state *st = &pos->st[pos->ply];
    int from = move_from(m), to = move_to(m), piece = pos->board[from], victim = pos->board[to];
    uint64_t key = st->key ^ v->key_side[pos->side] ^ v->key_side[pos_next_player(pos, pos->side)]
                   ^ piece_key(pos, piece, from) ^ piece_key(pos, piece, to);
    if (st->ep != CELL_NONE)
        key ^= v->key_ep[st->ep];
    return victim ? key ^ piece_key(pos, victim, to) : key;
}

static int position_side(const struct position *pos)
{
    return pos->side;
}

/* How many earlier positions since the last capture or pawn move have the current key. */
static int position_repetitions(const struct position *pos)
{
    const struct state *st = &pos->st[pos->ply];
    int count = 0, reach = st->halfmove < pos->ply ? st->halfmove : pos->ply;
    for (int k = 1; k <= reach; k++)
        count += pos->st[pos->ply - k].key == st->key;
    return count;
}

/* Keeps only the latest states, so a long game never runs out of room while leaving half of them
 * for a search; repetition needs at most the plies since the last capture or pawn move. */
static void position_trim_history(struct position *pos)
{
    const int keep = MAX_STATES / 2;
    if (pos->ply < keep)
        return;
    memmove(pos->st, pos->st + pos->ply - keep + 1, (size_t)keep * sizeof *pos->st);
    pos->ply = keep - 1;
    acc_forget(pos);
}

/* The rule of a castling move about to be made: rules may share the royal's target (two rooks on one
 * edge), but only one of them has its right and an empty way to its rook. */
static int castle_rule_of(const struct position *pos, move_t m)
{
    const struct variant *v = pos->v;
    int i = 0;
    while (i < v->ncastles - 1
           && (v->castle[pos->side][i].royal_to != move_to(m)
               || !(pos->st[pos->ply].castling & castle_bit(pos->side, i))
               || cs_intersects(pos->tb->castle[pos->side][i].empty, pos->occ)))
        i++;
    return i;
}

/* Moves the rule's royal and rook to their targets, or back; returns the change of the key. Both are
 * lifted before either is set down, since a target may be the other one's cell. */
static uint64_t castle_pieces(struct position *pos, const struct castle_rule *r, bool back)
{
    int royal_from = back ? r->royal_to : r->royal, royal_to = back ? r->royal : r->royal_to;
    int rook_from = back ? r->rook_to : r->rook, rook_to = back ? r->rook : r->rook_to;
    int royal = pos->board[royal_from], rook = pos->board[rook_from];
    pos_remove(pos, royal_from);
    pos_remove(pos, rook_from);
    pos_put(pos, royal_to, royal);
    pos_put(pos, rook_to, rook);
    return piece_key(pos, royal, royal_from) ^ piece_key(pos, royal, royal_to) ^ piece_key(pos, rook, rook_from)
           ^ piece_key(pos, rook, rook_to);
}

/* Every move but castling: the piece leaves its cell, takes what it captures (or fuses with a friendly
 * piece), and lands, promoted or as one component of a fission; returns the change of the key. */
static inline uint64_t make_piece_move(struct position *pos, struct state *st, move_t m, int victim)
{
    const struct variant *v = pos->v;
    int from = move_from(m), to = move_to(m), piece = st->moved, us = pos->side;
    uint64_t key = 0;
    /* A move onto an own piece is a fusion: that piece is kept in `captured` for unmake. */
    bool fusion = st->captured && piece_colour(st->captured) == us;
    if (st->captured) {
        key ^= piece_key(pos, st->captured, victim);
        pos_remove(pos, victim);
        if (!fusion)
            st->halfmove = 0;
    }
    key ^= piece_key(pos, piece, from);
    pos_remove(pos, from);
    if (move_promo(m) >= 0)
        piece = piece_make(us, move_promo(m));
    if (fusion)
        piece = piece_make(us, v->fuse[piece_type(piece)][piece_type(st->captured)] - 1);
    if (move_fission(m) >= 0) {
        int stays = piece_make(us, variant_fission_stays(v, piece_type(piece), move_fission(m)));
        pos_put(pos, from, stays);
        key ^= piece_key(pos, stays, from);
        piece = piece_make(us, move_fission(m));
    }
    pos_put(pos, to, piece);
    return key ^ piece_key(pos, piece, to);
}

static void position_make(struct position *pos, move_t m)
{
    const struct variant *v = pos->v;
    struct state *prev = &pos->st[pos->ply], *st = prev + 1;
    int from = move_from(m), to = move_to(m), us = pos->side;
    assert(pos->ply + 1 < MAX_STATES && pos->board[from] && piece_colour(pos->board[from]) == us);
    uint64_t key = prev->key ^ v->key_side[us];
    if (prev->ep != CELL_NONE)
        key ^= v->key_ep[prev->ep];
    int victim = m & MOVE_EP ? prev->ep_victim : to;
    /* Different armies: a double step stays open to the next army of its kind while others move (a
     * later double step replaces it). */
    int passer = prev->ep != CELL_NONE ? pos->board[prev->ep_victim] : 0;
    bool keep = passer && v->army[piece_colour(passer)] != v->army[us];
    pos->noting = acc_open(pos);
    st->move = m;
    st->side_before = us;
    st->sums_before = pos->sums;
    memcpy(st->types_before, pos->types, sizeof pos->types);
    st->moved = pos->board[from];
    st->captured = m & MOVE_CASTLE ? 0 : pos->board[victim];
    st->halfmove = prev->halfmove + 1;
    st->ep = st->ep_far = st->ep_victim = CELL_NONE;
    /* A right is lost once its royal or its rook leaves its cell, or a piece lands on the rook's. */
    unsigned lost = prev->castling ? prev->castling & (pos->tb->castle_touch[from] | pos->tb->castle_touch[to]) : 0;
    st->castling = prev->castling ^ lost;
    key ^= castling_key(v, lost);
    if (m & MOVE_CASTLE) {
        st->castle_rule = castle_rule_of(pos, m);
        key ^= castle_pieces(pos, &v->castle[us][st->castle_rule], false);
    } else
        key ^= make_piece_move(pos, st, m, victim);
    if (v->piece[piece_type(st->moved)].pawn)
        st->halfmove = 0;
    /* Only a piece that can be taken en passant leaves an en-passant cell behind. */
    if ((m & MOVE_DOUBLE) && v->piece[piece_type(st->moved)].en_passant) {
        const struct geometry *g = &v->geo;
        struct vec d = { g->q[to] - g->q[from], g->r[to] - g->r[from] };
        int k = geo_distance(d, (struct vec){ 0, 0 });
        st->ep = geo_cell(g, g->q[from] + d.q / k, g->r[from] + d.r / k);
        if (k == 3)
            st->ep_far = geo_cell(g, g->q[from] + 2 * d.q / k, g->r[from] + 2 * d.r / k);
        st->ep_victim = to;
        key ^= v->key_ep[st->ep];
    } else if (keep && pos->board[prev->ep_victim] == passer) {
        st->ep = prev->ep;
        st->ep_far = prev->ep_far;
        st->ep_victim = prev->ep_victim;
        key ^= v->key_ep[st->ep];
    }
    pos->side = pos_next_player(pos, us);
    if (pos->side < us)
        pos->fullmove++;
    key ^= v->key_side[pos->side];
    st->key = key;
    pos->noting = NULL;
    pos->ply++;
    assert(position_is_ok(pos));
}

/* Passing the move (null-move pruning). The 100-ply count restarts so no repetition is seen
 * across a null move. */
static void position_make_null(struct position *pos)
{
    const struct variant *v = pos->v;
    struct state *prev = &pos->st[pos->ply], *st = prev + 1;
    uint64_t key = prev->key ^ v->key_side[pos->side];
    if (prev->ep != CELL_NONE)
        key ^= v->key_ep[prev->ep];
    acc_open(pos);
    st->move = MOVE_NONE;
    st->moved = st->captured = 0;
    st->halfmove = 0;
    st->ep = st->ep_far = st->ep_victim = CELL_NONE;
    st->castling = prev->castling;
    int us = pos->side;
    st->side_before = us;
    pos->side = pos_next_player(pos, us);
    if (pos->side < us)
        pos->fullmove++;
    st->key = key ^ v->key_side[pos->side];
    pos->ply++;
}

/* The side before the current state, and the fullmove number as it was. */
static void position_restore_side(struct position *pos)
{
    int prev_side = pos->st[pos->ply].side_before;
    if (pos->side < prev_side)
        pos->fullmove--;
    pos->side = prev_side;
}

static void position_unmake_null(struct position *pos)
{
    position_restore_side(pos);
    pos->ply--;
}

static void position_unmake(struct position *pos, move_t m)
{
    const struct state *st = &pos->st[pos->ply];
    int to = move_to(m);
    assert(pos->ply > 0 && st->move == m);
    position_restore_side(pos);
    if (m & MOVE_CASTLE) {
        castle_pieces(pos, &pos->v->castle[pos->side][st->castle_rule], true);
    } else {
        pos_lift(pos, to);
        if (move_fission(m) >= 0)
            pos_lift(pos, move_from(m));
        pos_drop(pos, move_from(m), st->moved);
        if (st->captured)
            pos_drop(pos, m & MOVE_EP ? pos->st[pos->ply - 1].ep_victim : to, st->captured);
    }
    pos->sums = st->sums_before;
    memcpy(pos->types, st->types_before, sizeof pos->types);
    pos->ply--;
    assert(position_is_ok(pos));
}

/* Takes an army off the board (three players: capture-threat or mate). Not a ply: the clocks stay,
 * and the turn passes on only if it was the army to move. Undone by position_restore_army. */
static void position_remove_army(struct position *pos, int colour)
{
    const struct variant *v = pos->v;
    struct state *prev = &pos->st[pos->ply], *st = prev + 1;
    struct removed_army *ra = &pos->removed[pos->nremoved++];
    *st = *prev;
    st->move = MOVE_NONE;
    st->moved = st->captured = 0;
    st->side_before = pos->side;
    uint64_t key = prev->key;
    int c;
    ra->n = 0;
    pos->noting = acc_open(pos);
    CS_FOR_EACH(c, pos->by_colour[colour]) {
        ra->cell[ra->n] = (unsigned char)c;
        ra->piece[ra->n++] = pos->board[c];
        key ^= piece_key(pos, pos->board[c], c);
        pos_remove(pos, c);
    }
    pos->noting = NULL;
    /* Its castling rights leave with it, and so does the pawn that could be taken en passant. */
    unsigned lost = st->castling & castle_bits_of(colour);
    st->castling ^= lost;
    key ^= castling_key(v, lost);
    if (st->ep != CELL_NONE && !pos->board[st->ep_victim]) {
        key ^= v->key_ep[st->ep];
        st->ep = st->ep_far = st->ep_victim = CELL_NONE;
    }
    if (colour == pos->side) {
        key ^= v->key_side[pos->side];
        pos->side = pos_next_player(pos, colour);
        key ^= v->key_side[pos->side];
    }
    st->key = key;
    pos->ply++;
}

static void position_restore_army(struct position *pos)
{
    const struct removed_army *ra = &pos->removed[--pos->nremoved];
    for (int i = 0; i < ra->n; i++)
        pos_put(pos, ra->cell[i], ra->piece[i]);
    pos->side = pos->st[pos->ply].side_before;
    pos->ply--;
}

static int position_prev_player(const struct position *pos)
{
    int n = pos->v->nplayers;
    for (int k = 1; k < n; k++) {
        int p = (pos->side + n - k) % n;
        if (pos_royal_cell(pos, p) != CELL_NONE)
            return p;
    }
    return pos->side;
}

/* Loads a setup; on error leaves pos as it was and explains in err. */
static bool position_set(struct position *pos, const struct setup *s, char *err, size_t errlen)
{
    struct position *t = position_new(pos->tb);
    if (!t) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    for (int c = 0; c < t->tb->ncells; c++)
        if (s->piece[c])
            pos_put(t, c, s->piece[c]);
    t->side = s->side;
    t->fullmove = s->fullmove;
    struct state *st = &t->st[0];
    st->halfmove = s->halfmove;
    st->side_before = position_prev_player(t);
    st->ep = st->ep_far = st->ep_victim = CELL_NONE;
    st->castling = s->castling;
    int prev = position_prev_player(t);
    bool ok = true;
    /* The setup names the pawn (a FEN's is checked by setup_from_fen); a record's or a caller's is
     * checked here as far as the generator relies on it. */
    if (s->ep != CELL_NONE) {
        int passed[SETUP_EP_PASSED], victim = s->ep_victim, n = 0;
        ok = victim < t->tb->ncells && s->ep < t->tb->ncells && t->board[victim] && !t->board[s->ep]
             && (piece_colour(t->board[victim]) == prev
                 || (t->v->narmies > 1 && piece_colour(t->board[victim]) != t->side))
             && t->v->piece[piece_type(t->board[victim])].en_passant
             && (n = setup_ep_passed(t->v, s, passed)) > 0;
        if (ok) {
            st->ep = passed[0];
            st->ep_far = n == 2 ? passed[1] : CELL_NONE;
            st->ep_victim = victim;
        } else
            snprintf(err, errlen, "bad FEN: no pawn has just passed the en-passant cell %s", t->v->geo.name[s->ep]);
    }
    if (ok && prev != t->side && player_in_check(t, prev)) {
        snprintf(err, errlen, "bad FEN: the side that just moved (%c) is in check", t->v->colour_letter[prev]);
        ok = false;
    }
    if (ok) {
        st->key = position_compute_key(t);
        position_copy(pos, t);
    }
    position_free(t);
    return ok;
}
