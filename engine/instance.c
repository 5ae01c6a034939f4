/* One engine instance per cell-set width: this file is compiled once with CELLSET_WORDS=2 and once
 * with CELLSET_WORDS=4 (see Makefile), and includes every width-dependent module, so that code is
 * written once and its functions stay private to the instance. */
#include "instance.h"

#include "../movegen/tables.c"
#include "../movegen/attack.c"
#include "../movegen/position.c"
#include "../movegen/movegen.c"
#include "../movegen/turns.c"
#include "../movegen/perft.c"
#include "../eval/eval.c"
#include "../eval/nnue_eval.c"
#include "search.c"
#include "search_multi.c"

#if CELLSET_WORDS == 2
#define INSTANCE_NAME engine_ops_128
#else
#define INSTANCE_NAME engine_ops_256
#endif

/* Tables come with the evaluation's own tables, built from the variant's built-in weights, and the
 * net chosen for the variant (EvalFile), if any. */
static struct tables *instance_tables_new(const struct variant *v)
{
    struct tables *tb = tables_new(v, sizeof(struct evaluated_tables));
    struct eval_params p;
    char err[256];
    if (tb && (!weights_for_variant(v, &p, err, sizeof err) || !eval_attach(tb, &p))) {
        tables_free(tb);
        return NULL;
    }
    if (tb)
        tb->nnue = nnue_for(v);
    return tb;
}

static void instance_tables_free(struct tables *tb)
{
    if (tb)
        free(((struct evaluated_tables *)tb)->eval);
    tables_free(tb);
}

const struct engine_ops INSTANCE_NAME = {
    .bits = CELLSET_BITS,
    .init = search_init,
    .tables_new = instance_tables_new,
    .tables_free = instance_tables_free,
    .position_new = position_new,
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
    .piece_reach = piece_reach,
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
    .see_ge = see_ge,
    .evaluate = evaluate_full,
    .eval_load = eval_attach,
    .eval_params = eval_params_of,
    .position_rescore = position_rescore,
    .nnue_evaluate = nnue_evaluate,
    .nnue_attach = nnue_attach,
    .nnue_accumulator = nnue_accumulator,
};
