/* A set of 64-bit position keys, to visit each position once. */
#ifndef KEY_SET_H
#define KEY_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Open addressing; key 0 is kept aside. Zero-initialised is empty. */
struct key_set {
    uint64_t *slot;
    size_t cap, n;
    bool zero;
};

/* 1: added, 0: already there, -1: out of memory. */
int key_set_add(struct key_set *s, uint64_t key);
void key_set_free(struct key_set *s);

#endif
