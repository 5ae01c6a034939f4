/* Cell sets: one bit per cell, CELLSET_WORDS 64-bit words. Width-dependent code includes this header
 * and is compiled once per width (engine/width/instance.c), so it is written once for every board size. */
#ifndef CELLSET_H
#define CELLSET_H

#include <stdbool.h>
#include <stdint.h>
#ifdef __x86_64__
#include <immintrin.h>
#endif

#ifndef CELLSET_WORDS
#error "CELLSET_WORDS must be defined (2 for boards up to 128 cells, 4 up to 256)"
#endif

enum { CELLSET_BITS = 64 * CELLSET_WORDS };

/* A vector of words: with AVX2 each operation is one instruction on one register. Aligned like a word,
 * so that sets inside allocated structures are read wherever they fall. */
typedef uint64_t cellset __attribute__((vector_size(8 * CELLSET_WORDS), aligned(8)));

static inline cellset cs_empty(void)
{
    return (cellset){ 0 };
}

static inline cellset cs_bit(int cell)
{
    cellset s = cs_empty();
    s[cell >> 6] = 1ull << (cell & 63);
    return s;
}

static inline cellset cs_and(cellset a, cellset b) { return a & b; }
static inline cellset cs_or(cellset a, cellset b) { return a | b; }
static inline cellset cs_xor(cellset a, cellset b) { return a ^ b; }
static inline cellset cs_andnot(cellset a, cellset b) { return a & ~b; }

/* Subtraction of the sets as 64 * CELLSET_WORDS-bit numbers. */
static inline cellset cs_sub(cellset a, cellset b)
{
#if defined(__x86_64__) && CELLSET_WORDS == 4
    /* One sbb chain: the compiler does not see the borrow of the portable loop as the carry flag
     * (measured: 2 % of nd-mccooey-3p's instructions; for two words its own code is as short). */
    unsigned char borrow = 0;
    for (int i = 0; i < CELLSET_WORDS; i++) {
        unsigned long long d;
        borrow = _subborrow_u64(borrow, a[i], b[i], &d);
        a[i] = d;
    }
#else
    unsigned long long borrow = 0;
    for (int i = 0; i < CELLSET_WORDS; i++) {
        unsigned long long d, b1 = __builtin_usubll_overflow(a[i], b[i], &d);
        unsigned long long b2 = __builtin_usubll_overflow(d, borrow, &d);
        a[i] = d;
        borrow = b1 | b2;
    }
#endif
    return a;
}

/* Whether a and b share no cell: one vptest where the machine has it. */
static inline bool cs_disjoint(cellset a, cellset b)
{
#if CELLSET_WORDS == 4 && defined(__AVX__)
    return _mm256_testz_si256((__m256i)a, (__m256i)b);
#elif CELLSET_WORDS == 2 && defined(__SSE4_1__)
    return _mm_testz_si128((__m128i)a, (__m128i)b);
#else
    uint64_t any = 0;
    for (int i = 0; i < CELLSET_WORDS; i++)
        any |= a[i] & b[i];
    return !any;
#endif
}

static inline bool cs_is_empty(cellset a)
{
    return cs_disjoint(a, a);
}

static inline bool cs_test(cellset a, int cell)
{
#if CELLSET_WORDS == 2
    /* Both words from the register and a select: an indexed word would go through memory. */
    uint64_t w = cell & 64 ? a[1] : a[0];
    return (w >> (cell & 63)) & 1;
#else
    return (a[cell >> 6] >> (cell & 63)) & 1;
#endif
}

static inline void cs_set(cellset *a, int cell)
{
    (*a)[cell >> 6] |= 1ull << (cell & 63);
}

static inline void cs_clear(cellset *a, int cell)
{
    (*a)[cell >> 6] &= ~(1ull << (cell & 63));
}

static inline int cs_popcount(cellset a)
{
    int n = 0;
    for (int i = 0; i < CELLSET_WORDS; i++)
        n += __builtin_popcountll(a[i]);
    return n;
}

/* Lowest cell of a non-empty set. */
static inline int cs_lsb(cellset a)
{
    for (int i = 0; i < CELLSET_WORDS - 1; i++)
        if (a[i])
            return 64 * i + __builtin_ctzll(a[i]);
    return 64 * (CELLSET_WORDS - 1) + __builtin_ctzll(a[CELLSET_WORDS - 1]);
}

/* Highest cell of a non-empty set. */
static inline int cs_msb(cellset a)
{
    for (int i = CELLSET_WORDS - 1; i > 0; i--)
        if (a[i])
            return 64 * i + 63 - __builtin_clzll(a[i]);
    return 63 - __builtin_clzll(a[0]);
}

/* A set being walked, as plain words: clearing a bit inside a vector register takes an extract and an
 * insert per cell, where plain words stay in general registers. */
struct cs_iter {
    uint64_t w[CELLSET_WORDS];
};

static inline struct cs_iter cs_iter_of(cellset a)
{
    struct cs_iter it;
    for (int i = 0; i < CELLSET_WORDS; i++)
        it.w[i] = a[i];
    return it;
}

static inline int cs_iter_next(struct cs_iter *it)
{
    for (int i = 0; i < CELLSET_WORDS; i++)
        if (it->w[i]) {
            int cell = 64 * i + __builtin_ctzll(it->w[i]);
            it->w[i] &= it->w[i] - 1;
            return cell;
        }
    return -1;
}

static inline bool cs_intersects(cellset a, cellset b)
{
    return !cs_disjoint(a, b);
}

/* The set moved k cells down the indices (0 < k < 64): cell c holds what cell c + k held. */
static inline cellset cs_down(cellset a, int k)
{
    cellset out = cs_empty();
    for (int i = 0; i < CELLSET_WORDS; i++)
        out[i] = a[i] >> k | (i + 1 < CELLSET_WORDS ? a[i + 1] << (64 - k) : 0);
    return out;
}

/* The set moved k cells up the indices (0 < k < 64): cell c holds what cell c - k held. */
static inline cellset cs_up(cellset a, int k)
{
    cellset out = cs_empty();
    for (int i = 0; i < CELLSET_WORDS; i++)
        out[i] = a[i] << k | (i > 0 ? a[i - 1] >> (64 - k) : 0);
    return out;
}

/* True when the set has more than one cell. */
static inline bool cs_several(cellset a)
{
    return cs_popcount(a) > 1;
}

#define CS_FOR_EACH(cell, set) for (struct cs_iter cs_iter_ = cs_iter_of(set); ((cell) = cs_iter_next(&cs_iter_)) >= 0;)

#endif
