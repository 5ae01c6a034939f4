/* Whole lines to standard output, never interleaved between threads. */
#include "say.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

void say_lock(void)
{
    pthread_mutex_lock(&out_lock);
}

void say_unlock(void)
{
    pthread_mutex_unlock(&out_lock);
}

void say(const char *fmt, ...)
{
    va_list ap;
    say_lock();
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
    say_unlock();
}
