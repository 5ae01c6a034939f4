/* Opening positions for a match: a FEN or EPD file, one position per line, each checked against the
 * variant when it is loaded. */
#ifndef OPENINGS_H
#define OPENINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../engine/engine.h"

struct openings {
    char **fen;
    int n;
};

/* Reads the file: blank lines and lines starting with '#' are skipped; an EPD line's operations
 * (after the four position fields) are ignored. All or nothing, with the first bad line in err. */
bool openings_load(struct openings *o, const char *path, const struct variant *v, char *err, size_t errlen);
/* The same from an open stream, each line checked with the game (of the variant); origin names it. */
bool openings_read(struct openings *o, FILE *f, const char *origin, struct game *g, char *err, size_t errlen);
/* The shipped suite books/openings/<variant>.epd in the directory of the running executable, else in
 * the current directory: its path, or false if neither has one. */
bool openings_find_shipped(const char *variant, char *path, size_t len);
/* Puts the positions in a random order drawn from the seed. */
void openings_shuffle(struct openings *o, unsigned long long seed);
void openings_free(struct openings *o);

#endif
