/* The learned evaluation's accumulators, kept by the position as pieces come and go (width-dependent:
 * included by movegen/position.c). */
#ifndef NNUE_ACC_H
#define NNUE_ACC_H

#include <string.h>

#include "../movegen/position.h"
#include "nnue.h"

/* Adds (sign 1) or takes away (-1) a piece's feature column in every perspective's accumulator.
 * Wrapping int16 sums undo exactly, so unmake restores the accumulator bit for bit. */
static inline void nnue_acc_piece(struct position *pos, int cell, int piece, int sign)
{
    const struct nnue_net *net = pos->tb->nnue;
    for (int p = 0; p < net->view.nplayers; p++) {
        int f = nnue_feature(&net->view, p, piece, cell);
        const int16_t *w = net->ft_weight + (size_t)f * NNUE_HIDDEN;
        int16_t *a = pos->acc[p].v;
        pos->acc[p].psqt += sign * net->psqt_weight[f];
        if (sign > 0)
            for (int i = 0; i < NNUE_HIDDEN; i++)
                a[i] = (int16_t)(a[i] + w[i]);
        else
            for (int i = 0; i < NNUE_HIDDEN; i++)
                a[i] = (int16_t)(a[i] - w[i]);
    }
}

/* The accumulators from the board alone. */
static inline void nnue_acc_refresh(struct position *pos)
{
    const struct nnue_net *net = pos->tb->nnue;
    if (!net)
        return;
    for (int p = 0; p < net->view.nplayers; p++) {
        memcpy(pos->acc[p].v, net->ft_bias, sizeof net->ft_bias);
        pos->acc[p].psqt = 0;
    }
    for (int c = 0; c < pos->tb->ncells; c++)
        if (pos->board[c])
            nnue_acc_piece(pos, c, pos->board[c], 1);
}

#endif
