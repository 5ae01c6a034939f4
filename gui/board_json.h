/* Variants as JSON for the GUI: the list, each board's cells in SVG coordinates, armies, pieces,
 * and the piece guide. */
#ifndef BOARD_JSON_H
#define BOARD_JSON_H

#include <jansson.h>

#include "../rules/variant.h"

/* [{"name", "players", "cells", "description"}...] for every known variant. */
json_t *board_variants(void);
/* GET /api/variant/<name> (docs/gui.md). */
json_t *board_variant(const struct variant *v);
/* The piece guide: the type whose letters (as in the pieces list) are `piece`, alone at `cell` (NULL:
 * the centre); NULL with a one-line err for an unknown piece or cell. */
json_t *board_guide(const struct variant *v, const char *piece, int army, const char *cell, char *err, size_t errlen);
/* "White", "Black", "Red", "Green", as match records name the armies. */
const char *board_army_name(char letter);
/* A piece type's letters without the army: "Q", "(RU)". */
void board_piece_letters(const struct variant *v, int type, char *out);

#endif
