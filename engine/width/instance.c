/* One engine instance per cell-set width: this file is compiled once with CELLSET_WORDS=2 and once
 * with CELLSET_WORDS=4 (see Makefile), and includes every width-dependent module, so that code is
 * written once and its functions stay private to the instance. */
#include "../instance.h"

#include "../../movegen/width/tables.c"
#include "../../movegen/width/attack.c"
#include "../../movegen/width/accumulators.c"
#include "../../movegen/width/position.c"
#include "../../movegen/width/movegen.c"
#include "../../movegen/width/turns.c"
#include "../../movegen/width/perft.c"
#include "../../eval/width/eval.c"
#include "../../eval/width/nnue_eval.c"
#include "search.c"
#include "search_multi.c"

#if CELLSET_WORDS == 2
#define INSTANCE_NAME engine_ops_128
#else
#define INSTANCE_NAME engine_ops_256
#endif

static void instance_tables_free(struct engine_tables *t)
{
    if (t) {
        tables_free(t->move);
        free(t->eval.data);
    }
    free(t);
}

/* The move generator's tables, and the evaluation's, built from the variant's built-in weights, with
 * no net until the game takes one (game_use_nets). */
static struct engine_tables *instance_tables_new(const struct variant *v)
{
    struct engine_tables *t = calloc(1, sizeof *t);
    struct eval_params p;
    char err[256];
    if (t && (t->move = tables_new(v)) && weights_for_variant(v, &p, err, sizeof err)
        && eval_attach(&t->eval, t->move, &p)) {
        nnue_choose(&t->eval, t->move, NULL);
        return t;
    }
    instance_tables_free(t);
    return NULL;
}

/* The ops take the instance's tables; the width's functions take the part they use. */
static struct position *instance_position_new(const struct engine_tables *t)
{
    return position_new(t->move);
}

static void instance_piece_reach(const struct engine_tables *t, int player, int type, int from, bool quiet[MAX_CELLS],
                                 bool capture[MAX_CELLS])
{
    piece_reach(t->move, player, type, from, quiet, capture);
}

static bool instance_see_ge(const struct engine_tables *t, const struct position *pos, move_t m, int threshold)
{
    return see_ge(t->eval.data, pos, m, threshold);
}

static int instance_evaluate(const struct engine_tables *t, const struct position *pos, const struct eval_weights *w,
                             struct eval_trace *trace)
{
    return evaluate_full(t->eval.data, pos, w, trace);
}

static bool instance_eval_load(struct engine_tables *t, const struct eval_params *p)
{
    return eval_attach(&t->eval, t->move, p);
}

static const struct eval_params *instance_eval_params(const struct engine_tables *t)
{
    return eval_params_of(&t->eval);
}

static int instance_nnue_evaluate(const struct engine_tables *t, struct position *pos)
{
    return nnue_evaluate(&t->eval, pos);
}

static void instance_nnue_attach(struct engine_tables *t, struct position *pos, const struct nnue_net *net)
{
    nnue_attach(&t->eval, t->move, pos, net);
}

const struct engine_ops INSTANCE_NAME = {
    .bits = CELLSET_BITS,
    .init = search_init,
    .tables_new = instance_tables_new,
    .tables_free = instance_tables_free,
    .position_new = instance_position_new,
    .position_free = position_free,
    .position_set = position_set,
    .position_get = position_get,
    .position_key = position_key,
    .position_compute_key = position_compute_key,
    .position_side = position_side,
    .position_in_check = position_in_check,
    .position_in_check_after_move = position_in_check_after_move,
    .position_move_checks = position_move_checks,
    .position_attacked_by = position_attacked_by,
    .position_attackers = position_attackers,
    .position_make = position_make,
    .position_unmake = position_unmake,
    .position_trim_history = position_trim_history,
    .position_repetitions = position_repetitions,
    .movegen_legal = movegen_legal,
    .movegen_noisy = movegen_noisy,
    .movegen_pseudo = movegen_pseudo_alone,
    .movegen_pseudo_noisy = movegen_pseudo_noisy_alone,
    .movegen_pseudo_quiet = movegen_pseudo_quiet_alone,
    .movegen_is_safe = movegen_is_safe_alone,
    .movegen_is_pseudo = movegen_is_pseudo,
    .piece_reach = instance_piece_reach,
    .perft = perft,
    .position_resolve = position_resolve,
    .position_unresolve = position_unresolve,
    .position_armies = position_armies,
    .position_royals_attacked = position_royals_attacked,
    .worker_new = worker_new,
    .worker_free = worker_free,
    .worker_clear = worker_clear,
    .worker_search = worker_search,
    .worker_best = worker_best,
    .see_ge = instance_see_ge,
    .evaluate = instance_evaluate,
    .eval_load = instance_eval_load,
    .eval_params = instance_eval_params,
    .position_rescore = position_rescore,
    .nnue_evaluate = instance_nnue_evaluate,
    .nnue_attach = instance_nnue_attach,
    .nnue_accumulator = position_accumulator,
};
