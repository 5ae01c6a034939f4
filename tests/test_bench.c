/* The bench signature is pinned: bench's node count must equal the number in bench/signature, which
 * every commit that changes search results updates (its message ends "Bench: <nodes>"). */
#include <stdio.h>
#include <stdlib.h>

#include "../bench/bench.h"
#include "../eval/weights.h"
#include "tests.h"

static void quiet(const char *fmt, ...)
{
    (void)fmt;
}

START_TEST(test_bench_signature)
{
    const char *path = getenv("BENCH_SIGNATURE") ? getenv("BENCH_SIGNATURE") : "bench/signature";
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    unsigned long long recorded = 0;
    int read = fscanf(f, "%llu", &recorded);
    fclose(f);
    ck_assert_msg(read == 1, "%s holds no node count", path);
    struct bench_result r;
    struct search_pool pool;
    ck_assert(pool_init(&pool));
    ck_assert(bench_run(BENCH_DEPTH, 1, 16, &eval_weights_default, &pool, NULL, quiet, &r));
    pool_free(&pool);
    ck_assert_msg(r.nodes == recorded,
                  "bench searched %llu nodes, bench/signature says %llu: a change to the search or evaluation "
                  "changes the signature; if it is meant, write the new count there and end the commit message "
                  "with 'Bench: %llu'",
                  (unsigned long long)r.nodes, recorded, (unsigned long long)r.nodes);
}
END_TEST

Suite *suite_bench(void)
{
    Suite *s = suite_create("bench");
    TCase *tc = tcase_create("signature");
    tcase_set_timeout(tc, test_timeout(120));
    tcase_add_test(tc, test_bench_signature);
    suite_add_tcase(s, tc);
    return s;
}
