/* sennight perft-speed: leaf nodes per second of every variant, one line as each finishes. */
#include "perft_speed.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../engine/game.h"
#include "../rules/registry.h"
#include "../util/clock.h"

/* Deepens while the next depth is expected to take at most twice `seconds`; reports the last one. */
static void measure(const struct variant *v, bool wide, double seconds)
{
    struct game g = { 0 };
    char err[512];
    atomic_bool stop = false;
    if (!game_init(&g, v, wide, err, sizeof err)) {
        printf("%-12s error: %s\n", v->name, err);
        return;
    }
    uint64_t nodes = 0, prev = 1;
    double t = 0;
    int depth = 0;
    while (depth < 12 && (depth < 2 || t * (double)nodes / (double)prev <= 2 * seconds)) {
        depth++;
        prev = nodes ? nodes : 1;
        int64_t t0 = clock_us();
        nodes = g.ops->perft(g.pos, depth, &stop);
        t = (double)(clock_us() - t0) * 1e-6;
    }
    printf("%-12s %3d-bit  depth %2d  %14llu leaves  %7.2f s  %8.1f M leaves/s\n", v->name, g.ops->bits, depth,
           (unsigned long long)nodes, t, (double)nodes / t / 1e6);
    game_free(&g);
}

int perft_speed(int argc, char **argv)
{
    char err[512];
    double seconds = argc > 0 ? atof(argv[0]) : 3.0;
    if (seconds <= 0 || !registry_init(err, sizeof err)) {
        fprintf(stderr, "usage: sennight perft-speed [seconds per variant]\n");
        return 2;
    }
    printf("perft from the start position, one thread, bulk counting at the last ply\n");
    for (int i = 0; i < registry_count(); i++)
        measure(registry_get(i), false, seconds);
    measure(registry_find("glinski"), true, seconds);
    return 0;
}
