/* A growing string with printf-style appends. */
#include "text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void text_printf(struct text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || t->failed)
        return;
    size_t need = t->len + (size_t)n + 1;
    if (need > t->cap) {
        size_t cap = t->cap ? t->cap : 256;
        while (cap < need)
            cap *= 2;
        char *grown = realloc(t->s, cap);
        if (!grown) {
            t->failed = true;
            return;
        }
        t->s = grown;
        t->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

const char *text_str(const struct text *t)
{
    return t->s ? t->s : "";
}

void text_clear(struct text *t)
{
    t->len = 0;
    if (t->s)
        t->s[0] = 0;
}

void text_free(struct text *t)
{
    free(t->s);
    *t = (struct text){ 0 };
}
