/* A small seeded generator (splitmix64) for what must come out the same from the same seed: the
 * match runner's opening order, the opening-suite generator's random plies. */
#ifndef RANDOM_H
#define RANDOM_H

#include <stdint.h>

static inline uint64_t random_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

#endif
