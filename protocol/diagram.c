#include "diagram.h"

#include <string.h>

enum { CELL_WIDTH = 4, MARGIN = 5, MAX_LINE = 4 * 40 + 2 * 5 + 8 };

/* Text row and column (in half-cell steps) of a cell: Glinski orientation keeps files vertical,
 * Wellisch orientation turns the board 30 degrees so that rows are horizontal. */
static void place(const struct variant *v, int cell, int *row, int *col)
{
    const struct geometry *g = &v->geo;
    int q = g->q[cell], r = g->r[cell];
    if (v->orientation == ORIENT_GLINSKI) {
        *row = -(2 * r + q);
        *col = 2 * (q - g->qmin);
    } else {
        *row = -2 * r;
        *col = 2 * q + r + 3 * g->radius;
    }
}

void diagram_print(FILE *out, const struct variant *v, const struct setup *s)
{
    const struct geometry *g = &v->geo;
    int rmin = 1 << 20, rmax = -(1 << 20);
    for (int c = 0; c < g->ncells; c++) {
        int row, col;
        place(v, c, &row, &col);
        rmin = row < rmin ? row : rmin;
        rmax = row > rmax ? row : rmax;
    }
    for (int row = rmin; row <= rmax; row++) {
        char line[MAX_LINE];
        memset(line, ' ', sizeof line);
        int first = -1, last = -1, lo = MAX_LINE, hi = 0;
        for (int c = 0; c < g->ncells; c++) {
            int r, col;
            place(v, c, &r, &col);
            if (r != row)
                continue;
            int x = MARGIN + col * CELL_WIDTH / 2;
            char text[4] = ".";
            if (s->piece[c])
                setup_piece_text(v, s->piece[c], text);
            memcpy(line + x + (strlen(text) < 2), text, strlen(text));
            if (x < lo)
                lo = x, first = c;
            if (x > hi)
                hi = x, last = c;
        }
        if (first < 0)
            continue;
        memcpy(line + lo - 4, g->name[first], strlen(g->name[first]));
        memcpy(line + hi + 4, g->name[last], strlen(g->name[last]));
        line[hi + 4 + strlen(g->name[last])] = 0;
        fprintf(out, "%s\n", line);
    }
    /* Glinski orientation: file letters under their columns. */
    if (v->orientation != ORIENT_GLINSKI)
        return;
    char files[MAX_LINE];
    memset(files, ' ', sizeof files);
    for (int f = 0; f < g->nfiles; f++)
        files[MARGIN + f * CELL_WIDTH + 1] = geo_file_letter(f);
    files[MARGIN + (g->nfiles - 1) * CELL_WIDTH + 2] = 0;
    fprintf(out, "%s\n", files);
}
