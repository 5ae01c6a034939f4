/* Whole lines to standard output, never interleaved between threads: the UCI server's replies and a
 * search's info lines, bench's table. */
#ifndef SAY_H
#define SAY_H

#include <stdint.h>

/* One whole line to stdout (a newline added), flushed. */
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Around output of several lines that must stay together (a diagram). */
void say_lock(void);
void say_unlock(void);

/* How many a second, counted over ms milliseconds (the count itself under 1 ms). */
static inline unsigned long long say_per_second(uint64_t count, int64_t ms)
{
    return (unsigned long long)(ms > 0 ? count * 1000 / (uint64_t)ms : count);
}

#endif
