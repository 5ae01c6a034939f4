/* The net's accumulators of a position's latest states (docs/nnue.md, Accumulators): make notes what
 * its move put on the board and took off, and the evaluation computes a state's accumulators from the
 * nearest known ones on the line, so that unmake costs nothing (included by engine/width/instance.c
 * before position.c). */
#include <stdlib.h>
#include <string.h>

#include "../position.h"

static inline struct acc_entry *acc_at(const struct position *pos, int ply)
{
    return &pos->accs[ply & (ACC_STACK - 1)];
}

/* Whether the entry of the state at ply is that state's (not forgotten, nor reused by the ring). */
static inline bool acc_holds(const struct position *pos, int ply)
{
    _Static_assert(ACC_STACK == 64, "acc_written has a bit per entry");
    return (pos->acc_written >> (ply & (ACC_STACK - 1)) & 1) && acc_at(pos, ply)->ply == ply;
}

/* The entry of the state at ply, marked written. */
static inline struct acc_entry *acc_write(struct position *pos, int ply)
{
    struct acc_entry *e = acc_at(pos, ply);
    pos->acc_written |= 1ull << (ply & (ACC_STACK - 1));
    e->ply = ply;
    return e;
}

/* No state's accumulators are known: after a set-up, a copy, a trim of the history or another net.
 * Nothing in the ring is written, so a new position's ring (uncleared memory) stays untouched until a
 * net is used. */
static void acc_forget(struct position *pos)
{
    pos->acc_written = 0;
}

/* The entry of the state the next move reaches, cleared for its changes; NULL without a net. */
static inline struct acc_entry *acc_open(struct position *pos)
{
    if (!pos->tb->features)
        return NULL;
    struct acc_entry *e = acc_write(pos, pos->ply + 1);
    e->computed = e->unknown = false;
    e->nremoved = e->nadded = 0;
    return e;
}

/* Notes a piece put on the board (added) or taken off by the move being made. */
static inline void acc_note(struct acc_entry *e, bool added, int piece, int cell)
{
    unsigned char *n = added ? &e->nadded : &e->nremoved;
    if (*n == ACC_CHANGES) {
        e->unknown = true;
        return;
    }
    (added ? e->added : e->removed)[(*n)++] = (struct acc_piece){ (unsigned char)piece, (unsigned char)cell };
}

/* A piece's feature column and its piece-cell weight, from perspective p. */
static inline const int16_t *acc_column(const struct feature_weights *fw, int p, struct acc_piece pc, int32_t *psqt)
{
    int f = feature_index(&fw->view, p, pc.piece, pc.cell);
    *psqt = fw->psqt_weight[f];
    return fw->weight + (size_t)f * ACC_WIDTH;
}

static const int16_t no_column[ACC_WIDTH];

/* The accumulators of entry to from those of from, across the change noted in change: forward (to is
 * the child) or back (to is the parent, change the child's). Wrapping int16 sums, so that any order
 * of additions gives the same bits. */
static void acc_step(const struct feature_weights *fw, const struct acc_entry *change, const struct acc_entry *from,
                     struct acc_entry *to, bool forward)
{
    _Static_assert(ACC_CHANGES == 2, "acc_step takes two columns each way");
    int nsub = forward ? change->nremoved : change->nadded, nadd = forward ? change->nadded : change->nremoved;
    const struct acc_piece *sub = forward ? change->removed : change->added;
    const struct acc_piece *add = forward ? change->added : change->removed;
    to->computed = true;
    /* A move of one piece, the commonest: one column off and one on. */
    if (nsub == 1 && nadd == 1) {
        for (int p = 0; p < fw->view.nplayers; p++) {
            int32_t off, on;
            const int16_t *s = acc_column(fw, p, sub[0], &off), *a = acc_column(fw, p, add[0], &on);
            const int16_t *restrict src = from->acc[p].v;
            int16_t *restrict dst = to->acc[p].v;
            for (int i = 0; i < ACC_WIDTH; i++)
                dst[i] = (int16_t)(src[i] - s[i] + a[i]);
            to->acc[p].psqt = from->acc[p].psqt - off + on;
        }
        return;
    }
    for (int p = 0; p < fw->view.nplayers; p++) {
        const int16_t *s[ACC_CHANGES] = { no_column, no_column }, *a[ACC_CHANGES] = { no_column, no_column };
        int32_t psqt = from->acc[p].psqt, w;
        for (int k = 0; k < nsub; k++) {
            s[k] = acc_column(fw, p, sub[k], &w);
            psqt -= w;
        }
        for (int k = 0; k < nadd; k++) {
            a[k] = acc_column(fw, p, add[k], &w);
            psqt += w;
        }
        const int16_t *restrict src = from->acc[p].v;
        int16_t *restrict dst = to->acc[p].v;
        for (int i = 0; i < ACC_WIDTH; i++)
            dst[i] = (int16_t)(src[i] - s[0][i] - s[1][i] + a[0][i] + a[1][i]);
        to->acc[p].psqt = psqt;
    }
}

/* The current state's accumulators from the board alone. */
static void acc_refresh(struct position *pos)
{
    const struct feature_weights *fw = pos->tb->features;
    struct acc_entry *e = acc_write(pos, pos->ply);
    for (int p = 0; p < fw->view.nplayers; p++) {
        int16_t *a = e->acc[p].v;
        memcpy(a, fw->bias, sizeof fw->bias);
        e->acc[p].psqt = 0;
        for (int c = 0; c < pos->tb->ncells; c++) {
            if (!pos->board[c])
                continue;
            int f = feature_index(&fw->view, p, pos->board[c], c);
            const int16_t *w = fw->weight + (size_t)f * ACC_WIDTH;
            e->acc[p].psqt += fw->psqt_weight[f];
            for (int i = 0; i < ACC_WIDTH; i++)
                a[i] = (int16_t)(a[i] + w[i]);
        }
    }
    e->computed = true;
}

/* Each perspective's accumulator of the current state (the position must have feature weights). From
 * the nearest state back whose accumulators are known, forward along the noted changes; where the
 * line back reaches a state whose change is not known first, from the board, and back from there to
 * that state, so that the states in between are known for the siblings to come. */
static const struct accumulator *position_accumulators(struct position *pos)
{
    const struct feature_weights *fw = pos->tb->features;
    struct acc_entry *e = acc_at(pos, pos->ply);
    if (acc_holds(pos, pos->ply) && e->computed)
        return e->acc;
    /* An entry that does not hold its state's (forgotten, or reused by the ring for a deeper ply) ends
     * the line back: the states after it are known only from the board. */
    int k = pos->ply;
    while (acc_holds(pos, k) && !acc_at(pos, k)->computed && !acc_at(pos, k)->unknown)
        k--;
    bool held = acc_holds(pos, k);
    if (held && acc_at(pos, k)->computed) {
        for (int j = k + 1; j <= pos->ply; j++)
            acc_step(fw, acc_at(pos, j), acc_at(pos, j - 1), acc_at(pos, j), true);
        return e->acc;
    }
    acc_refresh(pos);
    int last = held ? k : k + 1;
    for (int j = pos->ply - 1; j >= last; j--)
        acc_step(fw, acc_at(pos, j + 1), acc_at(pos, j + 1), acc_at(pos, j), false);
    return e->acc;
}

static const struct accumulator *position_accumulator(struct position *pos, int perspective)
{
    return &position_accumulators(pos)[perspective];
}
