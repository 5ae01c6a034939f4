/* A session's game from its start: the variant, the position after every move, the moves with their
 * texts and captures; the move tree holds them as its main line, with the variations. */
#ifndef RECORD_H
#define RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include "../engine/engine.h"
#include "material.h"
#include "tree.h"

struct played {
    move_t m;
    char uci[16];
    char san[SAN_LEN];          /* written in the position before it (docs/notation.md) */
    int army;
    unsigned left;              /* armies that left the board after it */
    struct captures captured;
};

struct record {
    const struct variant *v;
    struct game game;
    char start[1024];
    double start_material[MAX_PLAYERS];     /* each army's, in pawns */
    struct played *moves;
    int nmoves, cap;
    struct tree tree;
};

/* A game of v from fen (NULL: the start) with the moves, all legal; false with err if not. */
bool record_load(struct record *rec, const struct variant *v, const char *fen, const char *const *moves, int n,
                 char *err, size_t errlen);
void record_free(struct record *rec);
/* Plays m at the game's end and adds it to the tree's main line; false without memory. */
bool record_extend(struct record *rec, move_t m);
/* The game again from its start along the tree's main line, after the tree changed; false only
 * without memory. */
bool record_replay(struct record *rec);
/* Sets g to the position after the first n moves; false only without memory. */
bool record_position(const struct record *rec, struct game *g, int n);
/* The line from the start to the tree's node as a game of its own (a variation's moves with their
 * captures); false only without memory. */
bool record_line(const struct record *rec, int node, struct record *out);
/* The main line's first n moves' texts, for a review's engine; to free. */
char **record_texts(const struct record *rec, int n);

#endif
