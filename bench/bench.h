/* bench: a fixed list of positions from every variant searched to a fixed depth. With one thread
 * the node count is deterministic: it is the build's signature (commit messages end "Bench: N"). */
#ifndef BENCH_H
#define BENCH_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "../engine/engine.h"
#include "../eval/weights.h"

enum { BENCH_DEPTH = 7 };

struct nnue_choice;

struct bench_result {
    uint64_t nodes;
    int64_t ms;
};

/* Searches with the weights and the nets (NULL: none) on the pool (made by pool_new; configured
 * here), prints one line per position through `say` and returns the totals; false if it could not
 * run. Another thread may end it early by setting *stop (NULL: never) and then calling pool_stop:
 * the totals then count the positions finished. */
int bench_run(int depth, int threads, size_t hash_mb, const struct eval_weights *w, const struct nnue_choice *nets,
              struct search_pool *pool, const atomic_bool *stop, void (*say)(const char *fmt, ...),
              struct bench_result *out);
/* `sennight bench [depth] [threads] [hash]` */
int bench_main(int argc, char **argv);
extern const char bench_usage[];

#endif
