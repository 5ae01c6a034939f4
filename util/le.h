/* Little-endian fields of the binary files (books, training data), whatever the machine's byte order. */
#ifndef LE_H
#define LE_H

#include <stdint.h>

static inline uint64_t le_get(const unsigned char *p, int bytes)
{
    uint64_t x = 0;
    for (int i = bytes - 1; i >= 0; i--)
        x = x << 8 | p[i];
    return x;
}

static inline void le_put(unsigned char *p, uint64_t x, int bytes)
{
    for (int i = 0; i < bytes; i++, x >>= 8)
        p[i] = (unsigned char)x;
}

#endif
