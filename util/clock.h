/* The monotonic clock, one for every timing in the program: searches, engine deadlines, benchmarks. */
#ifndef CLOCK_H
#define CLOCK_H

#include <stdint.h>

/* Microseconds since an arbitrary fixed point (CLOCK_MONOTONIC: never jumps with the wall clock). */
int64_t clock_us(void);

static inline int64_t clock_ms(void)
{
    return clock_us() / 1000;
}

#endif
