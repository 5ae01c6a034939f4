/* A growing string for the runner's commands, reports and game records. */
#ifndef TEXT_H
#define TEXT_H

#include <stdbool.h>
#include <stddef.h>

struct text {
    char *s;        /* NUL-terminated once anything was written; NULL before */
    size_t len, cap;
    bool failed;    /* an allocation failed: the text stopped growing */
};

void text_printf(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The string so far ("" when empty). */
const char *text_str(const struct text *t);
void text_clear(struct text *t);
void text_free(struct text *t);

#endif
