/* Shards: a run of numbered jobs (games) cut into N contiguous blocks, so that independent processes
 * under any batch system each play one block and their outputs merge into the run's (datagen, match). */
#ifndef SHARD_H
#define SHARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* "K/N" with 1 <= K <= N <= 1000000; false with a message naming `option` otherwise. */
bool shard_parse(const char *text, const char *option, int *shard, int *nshards, char *err, size_t errlen);
/* The jobs [*begin, *end) of shard K (from 1) of N: floor(total (K-1) / N) to floor(total K / N). */
void shard_range(uint64_t total, int shard, int nshards, uint64_t *begin, uint64_t *end);

#endif
