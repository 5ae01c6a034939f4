/* The move tree in game records: variations written in parentheses, and read back. */
#include "tree_record.h"

#include <stdlib.h>
#include <string.h>

#include "../engine/engine.h"

bool tree_position(const struct tree *t, int node, const char *fen, struct game *g, char *err, size_t errlen)
{
    char **moves = malloc(((size_t)t->node[node].depth + 1) * sizeof *moves);
    if (!moves) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    int n = tree_path(t, node, moves);
    bool ok = game_set_position(g, fen, moves, n, err, errlen);
    free(moves);
    return ok;
}

void tree_node_of(const struct game *g, move_t m, struct tree_node *node)
{
    *node = (struct tree_node){ .move = m, .army = game_side(g) };
    move_to_text(g->v, m, node->uci);
    san_write(g, m, node->san);
}

/* Writes the line that starts with the alternative `first`, in parentheses, with the alternatives
 * to its later moves nested; the alternatives to `first` itself are its caller's. */
static bool write_variation(const struct tree *t, const char *fen, const struct variant *v, int first,
                            struct game_record *r)
{
    struct game g = { 0 };
    char err[256];
    bool ok = game_init(&g, v, false, err, sizeof err) && tree_position(t, t->node[first].parent, fen, &g, err,
                                                                         sizeof err);
    int fullmove = 0;
    if (ok)
        text_printf(&r->movetext, "\n(");
    for (int c = first; ok && c >= 0; c = t->node[c].child) {
        movetext_move(&r->movetext, &g, t->node[c].move, &fullmove);
        game_play(&g, t->node[c].move, NULL);
        for (int alt = c == first ? -1 : t->node[c].next; ok && alt >= 0; alt = t->node[alt].next) {
            ok = write_variation(t, fen, v, alt, r);
            fullmove = 0;
        }
    }
    if (ok)
        text_printf(&r->movetext, ")");
    game_free(&g);
    return ok;
}

bool tree_record_write(const struct tree *t, const char *fen, struct game *g, struct game_record *r,
                       record_marks marks, void *ctx)
{
    int fullmove = 0;
    for (int k = 1; k <= t->plies; k++) {
        const struct tree_node *n = &t->node[t->main[k]];
        const char *nag = NULL;
        char comment[64];
        bool marked = marks && marks(ctx, k - 1, &nag, comment, sizeof comment);
        game_record_judged_move(g->v, g, r, n->move, &fullmove, nag, marked ? comment : NULL);
        for (int alt = n->next; alt >= 0; alt = t->node[alt].next) {
            if (!write_variation(t, fen, g->v, alt, r))
                return false;
            /* The main line goes on with its move number written again. */
            fullmove = 0;
        }
    }
    return !r->movetext.failed;
}

bool tree_record_read(struct tree *t, const struct variant *v, const char *fen, const struct record_game *rg,
                      char *err, size_t errlen)
{
    if (!rg->nvariations)
        return true;
    struct game g = { 0 };
    int *node_of = malloc((size_t)rg->nvariations * sizeof *node_of), at = -1;
    bool ok = node_of && game_init(&g, v, false, err, errlen);
    if (!node_of)
        snprintf(err, errlen, "out of memory");
    for (int j = 0; ok && j < rg->nvariations; j++) {
        const struct record_variation *var = &rg->variations[j];
        int parent = var->parent >= 0 ? node_of[var->parent] : t->main[var->ply];
        char why[256];
        move_t m;
        struct tree_node node;
        /* Consecutive moves of a line play on; a new line starts from its position. */
        if (at != parent && !(ok = tree_position(t, parent, fen, &g, err, errlen)))
            break;
        struct game_status st = game_status(&g);
        if (st.outcome != GAME_ONGOING) {
            game_status_text(&g, st, why, sizeof why);
            snprintf(err, errlen, "a variation's move '%s' (ply %d): its line has ended (%s)", var->text,
                     t->node[parent].depth + 1, why);
            ok = false;
        } else if (!game_parse_move(&g, var->text, &m, why, sizeof why)) {
            snprintf(err, errlen, "a variation's move '%s' (ply %d): %s", var->text, t->node[parent].depth + 1, why);
            ok = false;
        } else if (parent == t->main[t->plies]) {
            snprintf(err, errlen, "a variation's move '%s' (ply %d): it goes on past the game's end", var->text,
                     t->node[parent].depth + 1);
            ok = false;
        } else {
            tree_node_of(&g, m, &node);
            node.left = game_play(&g, m, NULL);
            int id = tree_find(t, parent, node.uci);
            node_of[j] = at = id >= 0 ? id : tree_add(t, parent, &node);
            if (at < 0) {
                snprintf(err, errlen, "out of memory");
                ok = false;
            }
        }
    }
    free(node_of);
    game_free(&g);
    return ok;
}
