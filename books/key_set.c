/* A set of 64-bit position keys (open addressing), so the builders visit each position once. */
#include "key_set.h"

#include <stdlib.h>

static bool key_set_grow(struct key_set *s)
{
    struct key_set bigger = { .cap = s->cap ? 2 * s->cap : 1024, .zero = s->zero, .n = s->n };
    if (!(bigger.slot = calloc(bigger.cap, sizeof *bigger.slot)))
        return false;
    for (size_t i = 0; i < s->cap; i++)
        for (size_t j = s->slot[i] & (bigger.cap - 1); s->slot[i]; j = (j + 1) & (bigger.cap - 1))
            if (!bigger.slot[j]) {
                bigger.slot[j] = s->slot[i];
                break;
            }
    free(s->slot);
    *s = bigger;
    return true;
}

int key_set_add(struct key_set *s, uint64_t key)
{
    if (!key) {
        bool added = !s->zero;
        s->zero = true;
        return added;
    }
    if (2 * (s->n + 1) > s->cap && !key_set_grow(s))
        return -1;
    size_t j = key & (s->cap - 1);
    for (; s->slot[j]; j = (j + 1) & (s->cap - 1))
        if (s->slot[j] == key)
            return 0;
    s->slot[j] = key;
    s->n++;
    return 1;
}

void key_set_free(struct key_set *s)
{
    free(s->slot);
    *s = (struct key_set){ 0 };
}
