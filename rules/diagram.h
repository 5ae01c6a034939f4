/* Text diagrams of a position as seen by the first player (docs/geometry.md, text diagrams): plain for `d`,
 * optionally with marked cells or in ANSI colours for terminal play. */
#ifndef DIAGRAM_H
#define DIAGRAM_H

#include <stdbool.h>
#include <stdio.h>

#include "setup.h"

struct diagram_style {
    bool colour;          /* shaded cells by geo_colour_of, coloured armies, ANSI escapes */
    bool names;           /* plain: an empty cell shows its name instead of '.' (colour always names cells) */
    int mark[2];          /* cells to mark (the last move), CELL_NONE for none */
};

/* The plain diagram, no marks. */
void diagram_print(FILE *out, const struct variant *v, const struct setup *s);
void diagram_draw(FILE *out, const struct variant *v, const struct setup *s, const struct diagram_style *st);

#endif
