/* The list of known variants: the built-in ones (rules/variants.ini) and those loaded by users. */
#ifndef REGISTRY_H
#define REGISTRY_H

#include <stdbool.h>
#include <stddef.h>

#include "variant.h"

/* A check run on every new user variant before it is added (the engine's, game_validate_variant:
 * the start position must be playable), passed by the caller so that the list never depends on the
 * engine. The built-in variants skip it: they are data compiled in, and the tests check each of them
 * with the engine's. */
typedef bool (*variant_validator)(const struct variant *v, char *err, size_t errlen);

/* Loads the built-in definitions once; false only if the embedded text is broken. */
bool registry_init(char *err, size_t errlen);
int registry_count(void);
const struct variant *registry_get(int i);
const struct variant *registry_find(const char *name);
/* Parses definitions and validates them with check (NULL: none); adds them all, or nothing (or, with
 * dry_run, none). Returns the number read or -1. */
int registry_add_text(const char *text, const char *origin, bool dry_run, variant_validator check, char *err,
                      size_t errlen);
int registry_add_file(const char *path, bool dry_run, variant_validator check, char *err, size_t errlen);

#endif
