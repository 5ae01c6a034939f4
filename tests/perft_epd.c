/* The perft suites' line format, "FEN ;D1 n ;D2 n ...", read strictly: every field a depth and a count. */
#include "perft_epd.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* " D<depth> <count> ": a depth from 1 to 99 and a count that fits 64 bits, nothing else. */
static bool read_field(const char *field, size_t len, int *depth, uint64_t *count)
{
    char text[64], *end;
    if (len >= sizeof text)
        return false;
    memcpy(text, field, len);
    text[len] = 0;
    const char *p = text + strspn(text, " \t");
    if (*p++ != 'D' || !isdigit((unsigned char)*p))
        return false;
    long d = strtol(p, &end, 10);
    if (d < 1 || d > 99 || !isspace((unsigned char)*end))
        return false;
    p = end + strspn(end, " \t");
    if (!isdigit((unsigned char)*p))
        return false;
    errno = 0;
    unsigned long long n = strtoull(p, &end, 10);
    if (errno || end[strspn(end, " \t")])
        return false;
    *depth = (int)d;
    *count = n;
    return true;
}

bool perft_epd_parse(const char *line, struct perft_epd *e, char *err, size_t errlen)
{
    size_t fen_len = strcspn(line, ";");
    e->n = 0;
    if (!line[fen_len]) {
        snprintf(err, errlen, "no ';D1' in '%.64s'", line);
        return false;
    }
    if (fen_len >= sizeof e->fen) {
        snprintf(err, errlen, "FEN too long");
        return false;
    }
    memcpy(e->fen, line, fen_len);
    e->fen[fen_len] = 0;
    for (const char *field = line + fen_len + 1;; field += strcspn(field, ";") + 1) {
        size_t len = strcspn(field, ";");
        if (e->n == PERFT_EPD_DEPTHS) {
            snprintf(err, errlen, "more than %d counts", PERFT_EPD_DEPTHS);
            return false;
        }
        if (!read_field(field, len, &e->depth[e->n], &e->count[e->n])) {
            snprintf(err, errlen, "bad field '%.*s' (expected 'D<depth> <count>')", (int)(len > 64 ? 64 : len), field);
            return false;
        }
        e->n++;
        if (!field[len])
            return true;
    }
}
