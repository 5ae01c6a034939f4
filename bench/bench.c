/* bench: fixed positions of every variant searched to a fixed depth; the node count is the signature. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>

#include "../rules/registry.h"
#include "../util/clock.h"
#include "../util/say.h"

/* Start positions and middlegames of every variant, some from the perft suites; the heaviest games are
 * searched a little shallower, so that each position costs about the same. */
static const struct {
    const char *variant, *fen;
    int shallower;    /* plies less than the bench depth */
} positions[] = {
    { "glinski", NULL, 0 },
    { "glinski", "6/2PN2p/1P3p1r/1R2P1pb1/Q2P2p1k1/1BB2Ppr1qb/KBNP1P4/1R4p2/1P3np1/P3pn1/6 w - - 5 16", 0 },
    { "glinski", "6/b5p/nP1p3r/N4p3/3P1bp1n1/q2RPp5/BBKPp1N1rk/R1P1Q4/1P1bB1p1/2P2p1/6 w - - 4 26", 0 },
    { "glinski", "6/K6/8/8r/8P1/9P1/9n/7P1/8/6k/6 w - - 0 1", 0 },
    { "mccooey", NULL, 0 },
    { "mccooey", "6/7/2P2p2/N2P1p2n/1R1P2p2q/BB1P3pbkb/K1P4p2/RQ1Pn1p1b/1P6/7/6 w - - 3 21", 0 },
    { "haynie", NULL, 0 },
    { "haynie", "2p1fb/2ppp1r/P4pw1/Pq2ppp1k/FPPP1pppwr/BQP4p2b/W3P2ppf/R1PPP3p/KW1n3p/R1PF1pN/B1P1P1 w - - 2 21", 0 },
    { "full-house", NULL, 0 },
    { "full-house", "1H4/P1p4/RPbE2pr/N2P1Bp2/QT1P1p1bhq/1KB1P1ptk2/UM1P1epsmn/N1P3uy1/RP2B1pr/1P3np/Y1S3 w - - 0 21", 1 },
    { "mishling", NULL, 0 },
    { "mishling-4c", "2C3/P5p/RPi3pr/HIP3pdh/1I1FP1pji1/UDU1P1p1uuu/K2P2prfk/6p2/FR1PUp2/Pic3p/3J2 w - - 1 17", 0 },
    { "waitress", "3x2/P4sp/RP3sx1/UXP2p2w/1RXP3r1r/UWU1P1p1uuu/KX1P2p2k/w2P2pws/6Wr/Rx4p/2W3 w - - 0 17", 0 },
    { "shammes", NULL, 0 },
    { "mishling-fusion", NULL, 0 },
    { "waitress-fusion", NULL, 0 },
    { "waitress-fusion-swap", "6/P5p/RP4pr/SXP2xpxs/2XP2ps(uw)r/DWU(RW)P1psuu1/K2P2p2k/SWP2SU(rw)w/D2P1p2/P4p1/6 w - - 3 16", 0 },
    { "shammes-fusion", NULL, 0 },
    { "shammes-fusion-swap", NULL, 0 },
    { "mishling-long", NULL, 1 },
    { "mishling-short", NULL, 0 },
    { "mishling-crooked", NULL, 2 },
    { "mishling-simurgh", NULL, 1 },
    { "mishling-jackal", NULL, 0 },
    { "flatstar", NULL, 1 },
    { "wellisch", NULL, 1 },
    { "wellisch", "bEbRbGbVbRbE/bPbPbPbE1bPbP/3bPbP3/4bP4/rP8wP/rErPrP6wPwE/rR1rP4wPwPwR/rVrErP3wPwEwG/rGrP4wPwV/rRrP3wPwR/rE1wP2wE r - - 0 3", 1 },
    { "nd-mccooey", NULL, 0 },
    { "nd-trios", NULL, 0 },
    { "devasa", NULL, 0 },
    { "shafran", NULL, 0 },
    { "brusky", NULL, 0 },
    { "nd-wellisch-3p", NULL, 2 },
    { "nd-mccooey-3p", NULL, 3 },
    { "nd-wellisch-4p", NULL, 3 },
    { "nd-wellisch-trios-4p", NULL, 3 },
};

static void quiet_report(void *ctx, const struct search_report *r)
{
    (void)ctx, (void)r;
}

static void keep_best(void *ctx, move_t best, move_t ponder)
{
    (void)ponder;
    *(move_t *)ctx = best;
}

int bench_run(int depth, int threads, size_t hash_mb, const struct eval_weights *w, const struct nnue_choice *nets,
              struct search_pool *pool, const atomic_bool *stop, void (*say)(const char *fmt, ...),
              struct bench_result *out)
{
    struct game g = { .nets = nets };
    char err[512];
    int n = (int)(sizeof positions / sizeof *positions), done = 0;
    bool stopped = false;
    *out = (struct bench_result){ 0, 0 };
    if (!registry_init(err, sizeof err) || !pool_configure(pool, threads, hash_mb)) {
        say("info string error: bench: cannot set up (%s)", err);
        return 0;
    }
    for (int i = 0; i < n && !(stopped = stop && atomic_load(stop)); i++) {
        const struct variant *v = registry_find(positions[i].variant);
        if (!v || !game_init(&g, v, false, err, sizeof err)
            || !game_set_position(&g, positions[i].fen, NULL, 0, err, sizeof err)) {
            say("info string error: bench position %d: %s", i + 1, err);
            continue;
        }
        struct search_limits l = { .depth = depth > positions[i].shallower ? depth - positions[i].shallower : 1 };
        for (int p = 0; p < MAX_PLAYERS; p++)
            l.time[p] = l.inc[p] = -1;
        move_t best = MOVE_NONE;
        const struct search_callbacks cb = { quiet_report, NULL, keep_best, &best };
        /* Every position starts from nothing learned, so the count does not depend on the order. */
        pool_clear(pool);
        int64_t t0 = clock_ms();
        if (!pool_go(pool, &g, &l, w, 1, 0, &cb)) {
            say("info string error: bench: cannot start the search");
            break;
        }
        /* pool_go cleared the search's stop flag: a stop that came before it must not be lost. */
        if (stop && atomic_load(stop))
            pool_stop(pool);
        pool_wait(pool);
        if ((stopped = stop && atomic_load(stop)))
            break;
        int64_t ms = clock_ms() - t0;
        uint64_t nodes = pool_nodes(pool);
        char text[16] = "(none)", main_nodes[40] = "";
        if (best)
            move_to_text(g.v, best, text);
        /* The main thread's own share: what the helpers saved it, whatever the load (bench/ttd.sh). */
        if (threads > 1)
            snprintf(main_nodes, sizeof main_nodes, "  main %llu",
                     (unsigned long long)pool_main_nodes(pool));
        say("Position %2d/%d %-18s %12llu nodes %6lld ms  bestmove %s%s", i + 1, n, v->name, (unsigned long long)nodes,
            (long long)ms, text, main_nodes);
        out->nodes += nodes;
        out->ms += ms;
        done++;
    }
    game_free(&g);
    say("");
    if (stopped)
        say("info string bench stopped after %d of %d positions", done, n);
    say("Nodes searched: %llu", (unsigned long long)out->nodes);
    say("Nodes/second: %llu", say_per_second(out->nodes, out->ms));
    return 1;
}

const char bench_usage[] = "usage: sennight bench [depth 1..64] [threads 1..256] [hash MB]\n";
_Static_assert(MAX_THREADS == 256, "bench_usage names the thread limit");

int bench_main(int argc, char **argv)
{
    long arg[3] = { BENCH_DEPTH, 1, 16 }, lo[3] = { 1, 1, 1 }, hi[3] = { 64, MAX_THREADS, 65536 };
    for (int i = 0; i < argc && i < 3; i++) {
        char *end;
        arg[i] = strtol(argv[i], &end, 10);
        if (*end || end == argv[i] || arg[i] < lo[i] || arg[i] > hi[i]) {
            fputs(bench_usage, stderr);
            return 2;
        }
    }
    struct bench_result r;
    struct search_pool *pool = pool_new();
    if (!pool) {
        fprintf(stderr, "sennight bench: cannot set up the search\n");
        return 1;
    }
    int ok = bench_run((int)arg[0], (int)arg[1], (size_t)arg[2], &eval_weights_default, NULL, pool, NULL, say, &r);
    pool_free(pool);
    return ok ? 0 : 1;
}
