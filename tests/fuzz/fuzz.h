/* What the libFuzzer harnesses (tests/fuzz/fuzz_*.c, docs/fuzzing.md) share: the registry and input as text. */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "../../engine/engine.h"
#include "../../engine/instance.h"

/* The engine's tables and the registry: built-in variants and those of docs/examples and tests/fixtures
 * (read from the working directory, the repository's root); exits if the built-ins fail. */
void fuzz_init(void);
/* The registered variant picked by a byte. */
const struct variant *fuzz_variant(uint8_t byte);
/* A game of the registered variant, made the first time it is asked for and kept. */
struct game *fuzz_game(const struct variant *v);
/* A NUL-terminated copy of the input (free it): the readers take C strings. */
char *fuzz_text(const uint8_t *data, size_t size);

/* libFuzzer's hooks: the shared one calls fuzz_init; each harness defines the other. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
