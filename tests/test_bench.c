/* The bench signature is pinned: bench's node count must equal the number in bench/signature, which
 * every commit that changes search results updates (its message ends "Bench: <nodes>"). And
 * `sennight perft-speed` through the executable: lines as they finish, columns, comparable rows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench/bench.h"
#include "../eval/weights.h"
#include "engine_pipe.h"
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

/* Into a pipe each line comes as its variant finishes: with a second per variant the whole run takes
 * tens of seconds, and the first line must come long before. */
START_TEST(test_perft_speed_streams)
{
    struct proc p;
    pipe_start(&p, (const char *const[]){ "perft-speed", "1", NULL });
    int wait_ms = (int)(test_timeout(8) * 1000);
    const char *line = pipe_read_line(&p, wait_ms);
    ck_assert_msg(line && !strncmp(line, "perft from the start position", 29), "no header: %s", line ? line : "");
    line = pipe_read_line(&p, wait_ms);
    ck_assert_msg(line && !strncmp(line, "glinski ", 8), "no first variant's line while it runs: %s", line ? line : "");
    ck_assert(!proc_wait(&p, 0).exited);
    proc_end(&p, 0, NULL, 0);
}
END_TEST

/* Every row's columns line up after the longest name, and the 256-bit Glinski row is measured at the
 * 128-bit row's depth. A bad argument gives the usage. */
START_TEST(test_perft_speed_rows)
{
    struct proc p;
    pipe_start(&p, (const char *const[]){ "perft-speed", "0.001", NULL });
    int wait_ms = (int)(test_timeout(60) * 1000), bit_column = -1, depth[2] = { 0, 0 }, rows = 0;
    const char *line = pipe_read_line(&p, wait_ms);
    ck_assert(line != NULL);
    while ((line = pipe_read_line(&p, wait_ms))) {
        const char *bit = strstr(line, "-bit  depth ");
        ck_assert_msg(bit != NULL, "not a row: %s", line);
        int column = (int)(bit - line);
        ck_assert_msg(bit_column < 0 || column == bit_column, "columns differ: %s", line);
        bit_column = column;
        if (!strncmp(line, "glinski ", 8))
            depth[strstr(line, " 256-bit ") != NULL] = atoi(bit + strlen("-bit  depth "));
        rows++;
    }
    ck_assert_int_gt(rows, 20);
    ck_assert_msg(depth[0] > 0 && depth[0] == depth[1], "glinski at depth %d in 128 bits, %d in 256", depth[0],
                  depth[1]);
    struct proc_exit e = pipe_wait(&p, wait_ms);
    ck_assert(e.exited && e.code == 0);
    proc_end(&p, 0, NULL, 0);
    for (int i = 0; i < 3; i++) {
        static const char *const bad[] = { "soon", "0", "3x" };
        pipe_start(&p, (const char *const[]){ "perft-speed", bad[i], NULL });
        e = pipe_wait(&p, wait_ms);
        ck_assert_msg(e.exited && e.code == 2, "perft-speed %s: exit %d", bad[i], e.code);
        proc_end(&p, 0, NULL, 0);
    }
}
END_TEST

Suite *suite_bench(void)
{
    Suite *s = suite_create("bench");
    TCase *tc = tcase_create("signature");
    tcase_set_timeout(tc, test_timeout(120));
    tcase_add_test(tc, test_bench_signature);
    suite_add_tcase(s, tc);
    tc = tcase_create("perft-speed");
    tcase_set_timeout(tc, test_timeout(90));
    tcase_add_test(tc, test_perft_speed_streams);
    tcase_add_test(tc, test_perft_speed_rows);
    suite_add_tcase(s, tc);
    return s;
}
