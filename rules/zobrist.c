/* Zobrist keys derived with XXH3 from piece, colour and cell names. */
#include "zobrist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

static uint64_t key_of(const char *text)
{
    return XXH3_64bits(text, strlen(text));
}

bool zobrist_init(struct variant *v)
{
    const struct geometry *g = &v->geo;
    char text[96];
    free(v->keys);
    v->keys = malloc((size_t)(v->nplayers * v->ntypes * g->ncells) * sizeof *v->keys);
    if (!v->keys)
        return false;
    for (int pl = 0; pl < v->nplayers; pl++) {
        for (int t = 0; t < v->ntypes; t++) {
            uint64_t *row = v->keys + (size_t)((pl * v->ntypes + t) * g->ncells);
            /* "<piece> <colour> <cell>": the prefix once, then each cell's name after it (names are short). */
            int len = snprintf(text, sizeof text, "%s %c ", v->piece[t].name, v->colour_letter[pl]);
            for (int c = 0; c < g->ncells; c++) {
                strcpy(text + len, g->name[c]);
                row[c] = key_of(text);
            }
            v->key_piece[pl][t] = row;
        }
        snprintf(text, sizeof text, "side %c", v->colour_letter[pl]);
        /* The first player's key is zero, so a key names the position, not the move number. */
        v->key_side[pl] = pl ? key_of(text) : 0;
        /* A right is named by its rook's cell, as in FEN: "castle w a1". A rook's second rule shares its
         * right (held and lost together), so it adds no key: the same key twice would cancel out. */
        for (int i = 0; i < v->ncastles; i++) {
            bool second = false;
            for (int k = 0; k < i; k++)
                second |= v->castle[pl][k].rook == v->castle[pl][i].rook;
            snprintf(text, sizeof text, "castle %c %s", v->colour_letter[pl], g->name[v->castle[pl][i].rook]);
            v->key_castle[pl][i] = second ? 0 : key_of(text);
        }
    }
    for (int c = 0; c < g->ncells; c++) {
        snprintf(text, sizeof text, "ep %s", g->name[c]);
        v->key_ep[c] = key_of(text);
    }
    return true;
}
