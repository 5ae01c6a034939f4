/* libFuzzer harness of the variant-file reader (rules/variant.c, rules/registry.c): the text is parsed and
 * its variants checked as `sennight check` does (start FEN, castling rights), without the engine's
 * validator, which builds move tables: the parser runs at full speed. Nothing is added to the registry. */
#include "../../rules/registry.h"
#include "fuzz.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size), err[4096];
    registry_add_text(text, "fuzz.ini", true, NULL, err, sizeof err);
    free(text);
    return 0;
}
