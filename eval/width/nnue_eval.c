/* The evaluation the search calls: the net when the evaluation's tables have one, else the classical
 * evaluation (width-dependent: included by engine/width/instance.c after eval/width/eval.c). */
#include "../eval.h"
#include "../nnue.h"

/* The net's score with perspective view first (the mover in training), kept off the mate range. */
static int nnue_evaluate_as(const struct nnue_net *net, struct position *pos, int view)
{
    const struct accumulator *all = position_accumulators(pos), *acc[MAX_PLAYERS];
    for (int k = 0; k < net->ft.view.nplayers; k++)
        acc[k] = &all[(view + k) % net->ft.view.nplayers];
    int score = nnue_output(net, acc), bound = SCORE_MATE_BOUND - 1;
    return score > bound ? bound : score < -bound ? -bound : score;
}

/* cache, scores, memo: as evaluate_as's. */
static int eval_position_as(const struct eval_tables *et, struct position *pos, const struct eval_weights *w,
                            struct pawn_cache *cache, struct eval_cache *scores, struct target_memo *memo, int view,
                            int alpha, int beta)
{
    return et->net ? nnue_evaluate_as(et->net, pos, view)
                   : evaluate_as(et->data, pos, w, cache, scores, memo, view, alpha, beta);
}

static int eval_position(const struct eval_tables *et, struct position *pos, const struct eval_weights *w,
                         struct pawn_cache *cache, struct eval_cache *scores, struct target_memo *memo, int alpha,
                         int beta)
{
    return eval_position_as(et, pos, w, cache, scores, memo, pos->side, alpha, beta);
}

/* The net's score for the side to move, SCORE_NONE without a net (the eval command). */
static int nnue_evaluate(const struct eval_tables *et, struct position *pos)
{
    return et->net ? nnue_evaluate_as(et->net, pos, pos->side) : SCORE_NONE;
}

/* Takes the net (NULL: none) for the evaluation, and its first layer for the accumulators of the
 * positions on tb. */
static void nnue_choose(struct eval_tables *et, struct tables *tb, const struct nnue_net *net)
{
    et->net = net;
    tb->features = net ? &net->ft : NULL;
}

/* The same, and pos's accumulators forgotten: the first evaluation computes them from the board. */
static void nnue_attach(struct eval_tables *et, struct tables *tb, struct position *pos, const struct nnue_net *net)
{
    nnue_choose(et, tb, net);
    acc_forget(pos);
}
