/* The evaluation the search calls: the net when the tables have one, else the classical evaluation
 * (width-dependent: included by engine/instance.c after eval/eval.c). */
#include "nnue_acc.h"

/* The net's score with perspective view first (the mover in training), kept off the mate range. */
static int nnue_evaluate_as(const struct position *pos, int view)
{
    const struct nnue_net *net = pos->tb->nnue;
    const struct nnue_acc *acc[MAX_PLAYERS];
    for (int k = 0; k < net->view.nplayers; k++)
        acc[k] = &pos->acc[(view + k) % net->view.nplayers];
    int score = nnue_output(net, acc), bound = SCORE_MATE_BOUND - 1;
    return score > bound ? bound : score < -bound ? -bound : score;
}

/* memo: as evaluate_as's. */
static int eval_position_as(const struct position *pos, const struct eval_weights *w, struct pawn_cache *cache,
                            struct target_memo *memo, int view, int alpha, int beta)
{
    return pos->tb->nnue ? nnue_evaluate_as(pos, view) : evaluate_as(pos, w, cache, memo, view, alpha, beta);
}

static int eval_position(const struct position *pos, const struct eval_weights *w, struct pawn_cache *cache,
                         struct target_memo *memo, int alpha, int beta)
{
    return eval_position_as(pos, w, cache, memo, pos->side, alpha, beta);
}

/* The net's score for the side to move, SCORE_NONE without a net (the eval command). */
static int nnue_evaluate(const struct position *pos)
{
    return pos->tb->nnue ? nnue_evaluate_as(pos, pos->side) : SCORE_NONE;
}

static const struct nnue_acc *nnue_accumulator(const struct position *pos, int perspective)
{
    return &pos->acc[perspective];
}

/* Attaches the net chosen for the variant (nnue_for) to the tables and sets pos's accumulators. */
static void nnue_attach(struct tables *tb, struct position *pos)
{
    tb->nnue = nnue_for(tb->v);
    nnue_acc_refresh(pos);
}
