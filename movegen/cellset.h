/* Cell sets: one bit per cell, CELLSET_WORDS 64-bit words. Width-dependent code includes this header
 * and is compiled once per width (engine/instance.c), so it is written once for every board size. */
#ifndef CELLSET_H
#define CELLSET_H

#include <stdbool.h>
#include <stdint.h>

#ifndef CELLSET_WORDS
#error "CELLSET_WORDS must be defined (2 for boards up to 128 cells, 4 up to 256)"
#endif

enum { CELLSET_BITS = 64 * CELLSET_WORDS };

typedef struct { uint64_t w[CELLSET_WORDS]; } cellset;

static inline cellset cs_empty(void)
{
    return (cellset){ { 0 } };
}

static inline cellset cs_bit(int cell)
{
    cellset s = cs_empty();
    s.w[cell >> 6] = 1ull << (cell & 63);
    return s;
}

static inline cellset cs_and(cellset a, cellset b)
{
    for (int i = 0; i < CELLSET_WORDS; i++)
        a.w[i] &= b.w[i];
    return a;
}

static inline cellset cs_or(cellset a, cellset b)
{
    for (int i = 0; i < CELLSET_WORDS; i++)
        a.w[i] |= b.w[i];
    return a;
}

static inline cellset cs_xor(cellset a, cellset b)
{
    for (int i = 0; i < CELLSET_WORDS; i++)
        a.w[i] ^= b.w[i];
    return a;
}

static inline cellset cs_andnot(cellset a, cellset b)
{
    for (int i = 0; i < CELLSET_WORDS; i++)
        a.w[i] &= ~b.w[i];
    return a;
}

static inline bool cs_is_empty(cellset a)
{
    uint64_t any = 0;
    for (int i = 0; i < CELLSET_WORDS; i++)
        any |= a.w[i];
    return !any;
}

static inline bool cs_intersects(cellset a, cellset b)
{
    return !cs_is_empty(cs_and(a, b));
}

static inline bool cs_test(cellset a, int cell)
{
    return (a.w[cell >> 6] >> (cell & 63)) & 1;
}

static inline void cs_set(cellset *a, int cell)
{
    a->w[cell >> 6] |= 1ull << (cell & 63);
}

static inline void cs_clear(cellset *a, int cell)
{
    a->w[cell >> 6] &= ~(1ull << (cell & 63));
}

static inline int cs_popcount(cellset a)
{
    int n = 0;
    for (int i = 0; i < CELLSET_WORDS; i++)
        n += __builtin_popcountll(a.w[i]);
    return n;
}

/* Lowest cell of a non-empty set. */
static inline int cs_lsb(cellset a)
{
    for (int i = 0; i < CELLSET_WORDS - 1; i++)
        if (a.w[i])
            return 64 * i + __builtin_ctzll(a.w[i]);
    return 64 * (CELLSET_WORDS - 1) + __builtin_ctzll(a.w[CELLSET_WORDS - 1]);
}

/* Highest cell of a non-empty set. */
static inline int cs_msb(cellset a)
{
    for (int i = CELLSET_WORDS - 1; i > 0; i--)
        if (a.w[i])
            return 64 * i + 63 - __builtin_clzll(a.w[i]);
    return 63 - __builtin_clzll(a.w[0]);
}

static inline int cs_pop_lsb(cellset *a)
{
    for (int i = 0; i < CELLSET_WORDS; i++) {
        if (a->w[i]) {
            int c = 64 * i + __builtin_ctzll(a->w[i]);
            a->w[i] &= a->w[i] - 1;
            return c;
        }
    }
    return -1;
}

/* True when the set has more than one cell. */
static inline bool cs_several(cellset a)
{
    return cs_popcount(a) > 1;
}

#define CS_FOR_EACH(cell, set) for (cellset cs_iter_ = (set); ((cell) = cs_pop_lsb(&cs_iter_)) >= 0;)

#endif
