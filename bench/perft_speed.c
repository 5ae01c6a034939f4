/* sennight perft-speed: leaf nodes per second of every variant, one line as each finishes. */
#include "perft_speed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/engine.h"
#include "../rules/registry.h"
#include "../util/clock.h"

enum { MAX_DEPTH = 12 };

/* Perft of the start position at each depth up to `depth` (0: deepening while the next depth is
 * expected to take at most twice `seconds`; else that depth alone), one line for the last, printed
 * and flushed at once, as the output often goes to a pipe. Returns the depth measured, 0 on error. */
static int measure(const struct variant *v, bool wide, double seconds, int depth, int width)
{
    struct game g = { 0 };
    char err[512];
    atomic_bool stop = false;
    if (!game_init(&g, v, wide, err, sizeof err)) {
        printf("%-*s  error: %s\n", width, v->name, err);
        fflush(stdout);
        return 0;
    }
    uint64_t nodes = 0, prev = 1;
    double t = 0;
    int d = depth ? depth - 1 : 0;
    while (d < (depth ? depth : MAX_DEPTH) && (depth || d < 2 || t * (double)nodes / (double)prev <= 2 * seconds)) {
        d++;
        prev = nodes ? nodes : 1;
        int64_t t0 = clock_us();
        nodes = game_perft(&g, d, &stop);
        t = (double)(clock_us() - t0) * 1e-6;
    }
    printf("%-*s  %3d-bit  depth %2d  %14llu leaves  %7.2f s  %8.1f M leaves/s\n", width, v->name, game_bits(&g), d,
           (unsigned long long)nodes, t, t > 0 ? (double)nodes / t / 1e6 : 0.0);
    fflush(stdout);
    game_free(&g);
    return d;
}

const char perft_speed_usage[] = "usage: sennight perft-speed [seconds per variant, above 0]\n";

int perft_speed(int argc, char **argv)
{
    char err[512], *end = NULL;
    double seconds = argc > 0 ? strtod(argv[0], &end) : 3.0;
    if (argc > 1 || (end && (end == argv[0] || *end)) || !(seconds > 0 && seconds <= 86400)
        || !registry_init(err, sizeof err)) {
        fputs(perft_speed_usage, stderr);
        return 2;
    }
    /* The name column fits the longest name, loaded variants' included. */
    int width = 0;
    for (int i = 0; i < registry_count(); i++) {
        int n = (int)strlen(registry_get(i)->name);
        width = n > width ? n : width;
    }
    printf("perft from the start position, one thread, bulk counting at the last ply\n");
    fflush(stdout);
    int glinski = 0;
    for (int i = 0; i < registry_count(); i++) {
        int d = measure(registry_get(i), false, seconds, 0, width);
        glinski = !strcmp(registry_get(i)->name, "glinski") ? d : glinski;
    }
    /* The wide instance on the same board and depth as the narrow one, so the two rows compare. */
    if (glinski)
        measure(registry_find("glinski"), true, seconds, glinski, width);
    return 0;
}
