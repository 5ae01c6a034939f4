/* libFuzzer harness of the position-list readers: the first byte picks the reader and the variant, the
 * rest is the file. Readers: match openings (games/openings.c, FEN or EPD lines checked by a game), the
 * match runner's game records (games/records.c, which the book builders read), and the perft suites'
 * "FEN ;D1 n" lines (tests/perft_epd.c) with their FEN read for the variant. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../games/openings.h"
#include "../../games/records.h"
#include "../../rules/setup.h"
#include "../perft_epd.h"
#include "fuzz.h"

static void read_openings(const struct variant *v, char *text, size_t size)
{
    struct openings o;
    char err[1024];
    FILE *f = fmemopen(text, size ? size : 1, "r");
    if (!f)
        abort();
    if (openings_read(&o, f, "fuzz.epd", fuzz_game(v), err, sizeof err))
        openings_free(&o);
    fclose(f);
}

static void read_records(const char *text, size_t size)
{
    struct records r;
    struct record_game g;
    char err[1024];
    if (!records_open_text(&r, text, size, "fuzz.pgn", err, sizeof err))
        return;
    while (records_next(&r, &g, err, sizeof err) > 0)
        ;
    records_close(&r);
}

static void read_perft_lines(const struct variant *v, char *text)
{
    static struct perft_epd e;
    struct setup s;
    char err[256], *save;
    for (char *line = strtok_r(text, "\r\n", &save); line; line = strtok_r(NULL, "\r\n", &save))
        if (line[0] != '#' && perft_epd_parse(line, &e, err, sizeof err))
            setup_from_fen(&s, v, e.fen, err, sizeof err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size)
        return 0;
    const struct variant *v = fuzz_variant(data[0] / 3);
    char *text = fuzz_text(data + 1, size - 1);
    switch (data[0] % 3) {
    case 0: read_openings(v, text, size - 1); break;
    case 1: read_records(text, size - 1); break;
    default: read_perft_lines(v, text); break;
    }
    free(text);
    return 0;
}
