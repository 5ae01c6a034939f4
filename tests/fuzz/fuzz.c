/* The harnesses' shared set-up: the registry as the engine and the tests have it, and input as text. */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/engine.h"
#include "../../engine/instance.h"
#include "../../rules/registry.h"

void fuzz_init(void)
{
    static const char *const files[] = { "docs/examples/cannon-hex.ini", "docs/examples/hex5-marshal.ini",
                                         "tests/fixtures/three-player.ini", "tests/fixtures/castling.ini" };
    char err[4096];
    engine_init();
    if (!registry_init(err, sizeof err)) {
        fprintf(stderr, "fuzz: %s\n", err);
        exit(1);
    }
    /* Missing outside the repository's root: the built-ins are enough then. */
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
        registry_add_file(files[i], false, game_validate_variant, err, sizeof err);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fuzz_init();
    return 0;
}

const struct variant *fuzz_variant(uint8_t byte)
{
    return registry_get(byte % registry_count());
}

char *fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = 0;
    return text;
}

struct game *fuzz_game(const struct variant *v)
{
    static struct game games[MAX_VARIANTS];
    static bool ready[MAX_VARIANTS];
    char err[256];
    for (int i = 0; i < registry_count(); i++)
        if (registry_get(i) == v) {
            if (!ready[i] && !(ready[i] = game_init(&games[i], v, false, err, sizeof err)))
                abort();
            return &games[i];
        }
    abort();
}
