/* The moves of a game as a tree: main line and variations, with ids that stay valid. */
#include "tree.h"

#include <stdlib.h>
#include <string.h>

bool tree_init(struct tree *t)
{
    *t = (struct tree){ 0 };
    t->node = malloc(64 * sizeof *t->node);
    t->main = malloc(64 * sizeof *t->main);
    if (!t->node || !t->main) {
        tree_free(t);
        return false;
    }
    t->cap = t->main_cap = 64;
    t->node[0] = (struct tree_node){ .parent = -1, .child = -1, .next = -1, .live = true };
    t->n = 1;
    t->main[0] = 0;
    return true;
}

void tree_free(struct tree *t)
{
    free(t->node);
    free(t->main);
    *t = (struct tree){ 0 };
}

bool tree_has(const struct tree *t, int id)
{
    return id >= 0 && id < t->n && t->node[id].live;
}

bool tree_on_main(const struct tree *t, int id)
{
    return tree_has(t, id) && t->node[id].depth <= t->plies && t->main[t->node[id].depth] == id;
}

int tree_find(const struct tree *t, int parent, const char *uci)
{
    for (int c = t->node[parent].child; c >= 0; c = t->node[c].next)
        if (!strcmp(t->node[c].uci, uci))
            return c;
    return -1;
}

/* Room for the main line to hold `plies` moves. */
static bool main_reserve(struct tree *t, int plies)
{
    if (plies < t->main_cap)
        return true;
    int cap = 2 * t->main_cap > plies ? 2 * t->main_cap : plies + 1;
    int *grown = realloc(t->main, (size_t)cap * sizeof *grown);
    if (!grown)
        return false;
    t->main = grown;
    t->main_cap = cap;
    return true;
}

/* The main line again, as the chain of first children. */
static bool main_rebuild(struct tree *t)
{
    int plies = 0;
    for (int c = t->node[0].child; c >= 0; c = t->node[c].child)
        plies++;
    if (!main_reserve(t, plies))
        return false;
    t->plies = 0;
    for (int c = t->node[0].child; c >= 0; c = t->node[c].child)
        t->main[++t->plies] = c;
    return true;
}

int tree_add(struct tree *t, int parent, const struct tree_node *move)
{
    if (t->n == t->cap) {
        struct tree_node *grown = realloc(t->node, 2 * (size_t)t->cap * sizeof *grown);
        if (!grown)
            return -1;
        t->node = grown;
        t->cap *= 2;
    }
    bool extends = parent == t->main[t->plies];
    if (extends && !main_reserve(t, t->plies + 1))
        return -1;
    int id = t->n++;
    struct tree_node *n = &t->node[id];
    *n = *move;
    n->parent = parent;
    n->child = n->next = -1;
    n->depth = t->node[parent].depth + 1;
    n->live = true;
    int *link = &t->node[parent].child;
    while (*link >= 0)
        link = &t->node[*link].next;
    *link = id;
    if (extends)
        t->main[++t->plies] = id;
    return id;
}

int tree_path(const struct tree *t, int id, char **moves)
{
    int depth = t->node[id].depth;
    for (int c = id; c > 0; c = t->node[c].parent)
        moves[t->node[c].depth - 1] = t->node[c].uci;
    moves[depth] = NULL;
    return depth;
}

/* Takes id out of its parent's list of children. */
static void unlink_child(struct tree *t, int id)
{
    int *link = &t->node[t->node[id].parent].child;
    while (*link != id)
        link = &t->node[*link].next;
    *link = t->node[id].next;
    t->node[id].next = -1;
}

void tree_delete(struct tree *t, int id)
{
    if (id <= 0 || !tree_has(t, id))
        return;
    unlink_child(t, id);
    t->node[id].live = false;
    /* A child is always added after its parent, so one pass in id order reaches every node below. */
    for (int i = id + 1; i < t->n; i++)
        if (t->node[i].live && !t->node[t->node[i].parent].live)
            t->node[i].live = false;
    /* The main line only gets shorter: its array has room. */
    main_rebuild(t);
}

void tree_cut(struct tree *t, int id)
{
    while (t->node[id].child >= 0)
        tree_delete(t, t->node[id].child);
}

void tree_promote(struct tree *t, int id)
{
    if (!tree_has(t, id))
        return;
    for (int c = id; c > 0; c = t->node[c].parent) {
        int parent = t->node[c].parent;
        unlink_child(t, c);
        t->node[c].next = t->node[parent].child;
        t->node[parent].child = c;
    }
    main_rebuild(t);
}

static json_t *node_json(const struct tree *t, int id, const char *letters, int narmies)
{
    const struct tree_node *n = &t->node[id];
    json_t *left = json_array();
    for (int a = 0; a < narmies; a++)
        if (n->left >> a & 1)
            json_array_append_new(left, json_sprintf("%c", letters[a]));
    return json_pack("{s:i, s:i, s:s, s:s, s:s%, s:o}", "id", id, "parent", n->parent, "uci", n->uci, "san",
                     n->san[0] ? n->san : n->uci, "army", &letters[n->army], (size_t)1, "eliminated", left);
}

json_t *tree_variations_json(const struct tree *t, const char *letters, int narmies)
{
    json_t *list = json_array();
    for (int k = 0; k <= t->plies; k++) {
        int first = t->node[t->main[k]].child;
        for (int root = first < 0 ? -1 : t->node[first].next; root >= 0; root = t->node[root].next) {
            /* Depth first through the variation, without a stack: down, else along, else up and along. */
            int c = root;
            for (;;) {
                json_array_append_new(list, node_json(t, c, letters, narmies));
                if (t->node[c].child >= 0) {
                    c = t->node[c].child;
                    continue;
                }
                while (c != root && t->node[c].next < 0)
                    c = t->node[c].parent;
                if (c == root)
                    break;
                c = t->node[c].next;
            }
        }
    }
    return list;
}
