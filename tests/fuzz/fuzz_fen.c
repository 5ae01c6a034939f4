/* libFuzzer harness of the FEN reader (rules/setup.c): the first byte picks a registered variant, the
 * rest is the FEN. An accepted FEN must round-trip through setup_to_fen and set up a game. */
#include <stdlib.h>
#include <string.h>

#include "../../engine/engine.h"
#include "../../engine/instance.h"
#include "../../rules/setup.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size)
        return 0;
    const struct variant *v = fuzz_variant(data[0]);
    char *fen = fuzz_text(data + 1, size - 1), err[256], again[2048];
    struct setup s, t;
    if (setup_from_fen(&s, v, fen, err, sizeof err)) {
        setup_to_fen(&s, v, again, sizeof again);
        if (!setup_from_fen(&t, v, again, err, sizeof err) || memcmp(&s, &t, sizeof s))
            abort();
        /* A FEN may be well formed and still refused by the game (a side to move that left the board). */
        game_set_position(fuzz_game(v), fen, NULL, 0, err, sizeof err);
    }
    free(fen);
    return 0;
}
