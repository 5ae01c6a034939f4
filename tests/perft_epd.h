/* A perft suite's line (tests/perft/<variant>.epd): "FEN ;D1 n ;D2 n ...", read by the perft and reference tests. */
#ifndef PERFT_EPD_H
#define PERFT_EPD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { PERFT_EPD_DEPTHS = 16, PERFT_EPD_LINE = 4096 };

struct perft_epd {
    char fen[PERFT_EPD_LINE];
    int n;                              /* counts given, in the line's order */
    int depth[PERFT_EPD_DEPTHS];
    uint64_t count[PERFT_EPD_DEPTHS];
};

/* Splits the line (no newline) into its FEN and counts; false with one line in err if it is not one. */
bool perft_epd_parse(const char *line, struct perft_epd *e, char *err, size_t errlen);

#endif
