/* The moves of a game as a tree, as on lichess's analysis board: the main line (the game) and the
 * variations that branch from it. Node 0 is the start; a node's first child continues its line, its
 * other children are alternatives to that one, so the main line is the chain of first children. The
 * tree knows no rules: its caller checks every move before adding it. */
#ifndef TREE_H
#define TREE_H

#include <jansson.h>
#include <stdbool.h>

#include "../rules/move.h"

enum { TREE_TEXT_LEN = 32 };

struct tree_node {
    char uci[TREE_TEXT_LEN];
    char san[TREE_TEXT_LEN];
    move_t move;                /* the move of the parent's position */
    int army;                   /* the army that played it */
    unsigned left;              /* the armies that left the board after it (bit per army) */
    int parent, child, next;    /* -1: none; child is the first child, next the next sibling */
    int depth;                  /* plies from the start */
    bool live;                  /* false once deleted: ids are never reused, so a stale id finds nothing */
};

struct tree {
    struct tree_node *node;
    int n, cap;
    int *main;                  /* main[k]: the main line's node after k plies (main[0] = 0) */
    int plies, main_cap;        /* the main line's length */
};

/* A tree with the start only; false without memory. */
bool tree_init(struct tree *t);
void tree_free(struct tree *t);
/* Whether id names a node of the tree. */
bool tree_has(const struct tree *t, int id);
bool tree_on_main(const struct tree *t, int id);
/* The child of `parent` with that UCI move, or -1. */
int tree_find(const struct tree *t, int parent, const char *uci);
/* Adds the move (uci, san, move, army, left of *move) as the last child of `parent`: the main line grows
 * when parent is its end. Returns its id, or -1 without memory. */
int tree_add(struct tree *t, int parent, const struct tree_node *move);
/* The moves from the start to id as UCI texts in moves[0..depth-1] (depth + 1 places); returns depth. */
int tree_path(const struct tree *t, int id, char **moves);
/* Removes id (not the start) with every node below it; a main-line node's first sibling, if any,
 * then continues the main line. */
void tree_delete(struct tree *t, int id);
/* Removes every node below id. */
void tree_cut(struct tree *t, int id);
/* Makes the line through id the main line: each node from id up becomes its parent's first child. */
void tree_promote(struct tree *t, int id);
/* The nodes off the main line, by the main-line move they branch from, each variation depth first:
 * [{"id", "parent", "uci", "san", "army", "eliminated": [letters]}...]; letters[a] is army a's letter. */
json_t *tree_variations_json(const struct tree *t, const char *letters, int narmies);

#endif
