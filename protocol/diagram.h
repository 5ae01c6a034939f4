/* Text diagrams of a position as seen by the first player (board.md, Diagrams). */
#ifndef DIAGRAM_H
#define DIAGRAM_H

#include <stdio.h>

#include "../movegen/setup.h"

void diagram_print(FILE *out, const struct variant *v, const struct setup *s);

#endif
