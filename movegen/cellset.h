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

#if CELLSET_WORDS == 2
/* One native 128-bit integer: the compiler keeps it in a register pair, never half in memory. */
typedef unsigned __int128 cellset;

static inline cellset cs_empty(void) { return 0; }
static inline cellset cs_bit(int cell) { return (cellset)1 << cell; }
static inline cellset cs_and(cellset a, cellset b) { return a & b; }
static inline cellset cs_or(cellset a, cellset b) { return a | b; }
static inline cellset cs_xor(cellset a, cellset b) { return a ^ b; }
static inline cellset cs_andnot(cellset a, cellset b) { return a & ~b; }
static inline cellset cs_sub(cellset a, cellset b) { return a - b; }
static inline bool cs_is_empty(cellset a) { return !a; }
static inline bool cs_test(cellset a, int cell) { return (a >> cell) & 1; }
static inline void cs_set(cellset *a, int cell) { *a |= (cellset)1 << cell; }
static inline void cs_clear(cellset *a, int cell) { *a &= ~((cellset)1 << cell); }

static inline int cs_popcount(cellset a)
{
    return __builtin_popcountll((uint64_t)a) + __builtin_popcountll((uint64_t)(a >> 64));
}

static inline int cs_lsb(cellset a)
{
    uint64_t lo = (uint64_t)a;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(a >> 64));
}

static inline int cs_msb(cellset a)
{
    uint64_t hi = (uint64_t)(a >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)a);
}

static inline int cs_pop_lsb(cellset *a)
{
    if (!*a)
        return -1;
    int c = cs_lsb(*a);
    *a &= *a - 1;
    return c;
}
#else
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

/* Subtraction of the sets as 64 * CELLSET_WORDS-bit numbers. */
static inline cellset cs_sub(cellset a, cellset b)
{
    unsigned long long borrow = 0;
    for (int i = 0; i < CELLSET_WORDS; i++) {
        unsigned long long d, b1 = __builtin_usubll_overflow(a.w[i], b.w[i], &d);
        unsigned long long b2 = __builtin_usubll_overflow(d, borrow, &d);
        a.w[i] = d;
        borrow = b1 | b2;
    }
    return a;
}

static inline bool cs_is_empty(cellset a)
{
    uint64_t any = 0;
    for (int i = 0; i < CELLSET_WORDS; i++)
        any |= a.w[i];
    return !any;
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
#endif

static inline bool cs_intersects(cellset a, cellset b)
{
    return !cs_is_empty(cs_and(a, b));
}

/* True when the set has more than one cell. */
static inline bool cs_several(cellset a)
{
    return cs_popcount(a) > 1;
}

#define CS_FOR_EACH(cell, set) for (cellset cs_iter_ = (set); ((cell) = cs_pop_lsb(&cs_iter_)) >= 0;)

#endif
