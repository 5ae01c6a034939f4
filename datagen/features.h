/* The trainer's input (docs/nnue.md): a datagen file's positions as the net's feature indices, so
 * the Python trainer never repeats the board's geometry. */
#ifndef DATAGEN_FEATURES_H
#define DATAGEN_FEATURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { FEATURES_HEADER = 72 };

struct features_stats {
    uint64_t records, skipped;  /* written; of other variants than the first record's */
    int slots;                  /* feature slots per perspective: the most pieces of a position */
};

/* Reads the datagen file in and writes out (through a temporary file). False with one line in err. */
bool features_convert(const char *in, const char *out, struct features_stats *st, char *err, size_t errlen);

#endif
