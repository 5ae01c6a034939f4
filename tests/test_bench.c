/* The bench signature is pinned: bench's node count must equal the number in bench/signature, which
 * every commit that changes search results updates (its message ends "Bench: <nodes>"). And
 * `sennight perft-speed` through the executable: lines as they finish, columns, comparable rows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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
    struct search_pool *pool = pool_new();
    ck_assert(pool);
    ck_assert(bench_run(BENCH_DEPTH, 1, 16, &eval_weights_default, NULL, pool, NULL, quiet, &r));
    pool_free(pool);
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

/* bench/ttd.sh: one line per bench position with both times and the speed-up, the two summaries
 * (wall clock, main thread's nodes), a raw record per position and run; a bad argument gives the
 * usage. */
START_TEST(test_time_to_depth_script)
{
    char raw[] = "/tmp/sennight-ttd-XXXXXX", cmd[1024], line[512];
    int fd = mkstemp(raw);
    ck_assert(fd >= 0);
    close(fd);
    snprintf(cmd, sizeof cmd, "sh bench/ttd.sh -d 2 -r 1 -k %s '%s' 2>/dev/null", raw, pipe_engine_path());
    FILE *out = popen(cmd, "r");
    ck_assert(out != NULL);
    int rows = 0, summaries = 0;
    while (fgets(line, sizeof line, out)) {
        int pos, ms1, ms2;
        double speedup, lo, hi, nodes;
        char name[64];
        if (sscanf(line, " %d %63s %d %d %lfx", &pos, name, &ms1, &ms2, &speedup) == 5) {
            ck_assert_msg(pos == rows + 1 && speedup > 0, "bad row: %s", line);
            rows++;
        } else if (sscanf(line, "  speed-up: geometric mean %*fx (rounds %lf..%lf), median %*fx; nodes 2 threads / 1: %lf",
                          &lo, &hi, &nodes) == 3) {
            ck_assert_msg(lo > 0 && lo <= hi && nodes > 0, "bad summary: %s", line);
            summaries++;
        } else if (sscanf(line, "  main thread's nodes to the depth, 1 thread / 2: geometric mean %lfx", &nodes) == 1) {
            ck_assert_msg(nodes > 0, "bad summary: %s", line);
            summaries++;
        }
    }
    ck_assert_int_eq(pclose(out), 0);
    ck_assert_int_gt(rows, 30);
    ck_assert_int_eq(summaries, 2);
    FILE *f = fopen(raw, "r");
    ck_assert(f != NULL);
    int records = 0;
    while (fgets(line, sizeof line, f))
        records++;
    fclose(f);
    unlink(raw);
    ck_assert_int_eq(records, 2 * rows);
    static const char *const bad[] = { "-d x", "-r", "-t 2", "-d 2 /nonexistent" };
    for (int i = 0; i < 4; i++) {
        snprintf(cmd, sizeof cmd, "sh bench/ttd.sh %s 2>/dev/null", bad[i]);
        int status = system(cmd);
        ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 2, "bench/ttd.sh %s: status %d", bad[i], status);
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
    tc = tcase_create("time-to-depth");
    tcase_set_timeout(tc, test_timeout(120));
    tcase_add_test(tc, test_time_to_depth_script);
    suite_add_tcase(s, tc);
    return s;
}
