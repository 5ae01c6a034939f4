/* libFuzzer harness of the book reader (games/book.c): the input is a book file's bytes, opened for the
 * variant its header names; an accepted book is looked up and probed at its variant's start position. */
#include <stdlib.h>

#include "../../games/book.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct book b;
    char err[512];
    if (!book_open_bytes(&b, data, size, "fuzz.bin", NULL, err, sizeof err))
        return 0;
    struct game *g = fuzz_game(b.v);
    struct book_move moves[MAX_MOVES];
    int skipped, n = book_probe(&b, g, moves, &skipped);
    book_pick(moves, n, BOOK_WEIGHTED, b.n);
    book_close(&b);
    return 0;
}
