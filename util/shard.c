/* Shards of a run: the block of a shard and the K/N option text. */
#include "shard.h"

#include <stdio.h>
#include <string.h>

#include "number.h"

bool shard_parse(const char *text, const char *option, int *shard, int *nshards, char *err, size_t errlen)
{
    char k[32];
    const char *slash = strchr(text, '/');
    long kv, nv;
    size_t len = slash ? (size_t)(slash - text) : 0;
    if (slash && len < sizeof k) {
        memcpy(k, text, len);
        k[len] = 0;
    }
    if (!slash || len >= sizeof k || !number_parse(k, 1, 1000000, &kv) || !number_parse(slash + 1, kv, 1000000, &nv)) {
        snprintf(err, errlen, "%s: K/N with 1 <= K <= N <= 1000000 is expected, not '%s'", option, text);
        return false;
    }
    *shard = (int)kv;
    *nshards = (int)nv;
    return true;
}

void shard_range(uint64_t total, int shard, int nshards, uint64_t *begin, uint64_t *end)
{
    /* total * k / n without overflow for any count. */
    uint64_t n = (uint64_t)nshards, k = (uint64_t)shard;
    *begin = total / n * (k - 1) + total % n * (k - 1) / n;
    *end = total / n * k + total % n * k / n;
}
