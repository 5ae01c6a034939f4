/* The game record of a session. */
#include "record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tree_record.h"

static bool record_push(struct record *rec, move_t m)
{
    if (rec->nmoves == rec->cap) {
        int cap = rec->cap ? 2 * rec->cap : 64;
        struct played *grown = realloc(rec->moves, (size_t)cap * sizeof *grown);
        if (!grown)
            return false;
        rec->moves = grown;
        rec->cap = cap;
    }
    struct played *p = &rec->moves[rec->nmoves++];
    struct setup before, after;
    p->m = m;
    p->army = game_side(&rec->game);
    move_to_text(rec->v, m, p->uci);
    san_write(&rec->game, m, p->san);
    game_setup(&rec->game, &before);
    p->left = game_play(&rec->game, m, NULL);
    game_setup(&rec->game, &after);
    material_captures(rec->v, &before, &after, p->army, p->left, move_to(m), &p->captured);
    return true;
}

bool record_extend(struct record *rec, move_t m)
{
    struct tree_node node;
    tree_node_of(&rec->game, m, &node);
    int id = tree_add(&rec->tree, rec->tree.main[rec->tree.plies], &node);
    if (id < 0)
        return false;
    if (!record_push(rec, m)) {
        tree_delete(&rec->tree, id);
        return false;
    }
    rec->tree.node[id].left = rec->moves[rec->nmoves - 1].left;
    return true;
}

bool record_replay(struct record *rec)
{
    char err[256];
    rec->nmoves = 0;
    bool ok = game_set_position(&rec->game, rec->start, NULL, 0, err, sizeof err);
    for (int k = 1; ok && k <= rec->tree.plies; k++)
        ok = record_push(rec, rec->tree.node[rec->tree.main[k]].move);
    return ok;
}

void record_free(struct record *rec)
{
    game_free(&rec->game);
    free(rec->moves);
    tree_free(&rec->tree);
    *rec = (struct record){ 0 };
}

char **record_texts(const struct record *rec, int n)
{
    char **texts = malloc((size_t)(n + 1) * sizeof *texts);
    for (int i = 0; texts && i < n; i++)
        texts[i] = (char *)rec->moves[i].uci;
    return texts;
}

bool record_position(const struct record *rec, struct game *g, int n)
{
    char err[256];
    return tree_position(&rec->tree, rec->tree.main[n], rec->start, g, err, sizeof err);
}

bool record_line(const struct record *rec, int node, struct record *out)
{
    char err[256];
    char **moves = malloc(((size_t)rec->tree.node[node].depth + 1) * sizeof *moves);
    int n = moves ? tree_path(&rec->tree, node, moves) : 0;
    bool ok = moves && record_load(out, rec->v, rec->start, (const char *const *)moves, n, err, sizeof err);
    free(moves);
    return ok;
}

bool record_load(struct record *rec, const struct variant *v, const char *fen, const char *const *moves, int n,
                 char *err, size_t errlen)
{
    *rec = (struct record){ .v = v };
    snprintf(rec->start, sizeof rec->start, "%s", fen ? fen : v->start_fen);
    if (strlen(fen ? fen : "") >= sizeof rec->start) {
        snprintf(err, errlen, "the FEN is too long");
        return false;
    }
    if (!tree_init(&rec->tree)) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    bool ok = game_init(&rec->game, v, false, err, errlen)
              && game_set_position(&rec->game, rec->start, NULL, 0, err, errlen);
    if (ok) {
        struct setup setup;
        game_setup(&rec->game, &setup);
        material_values(v, &setup, rec->start_material);
    }
    for (int i = 0; ok && i < n; i++) {
        move_t m;
        char why[256];
        struct game_status st = game_status(&rec->game);
        /* A record that plays on past the end of its game (a repetition, say) is not this game. */
        if (st.outcome != GAME_ONGOING) {
            game_status_text(&rec->game, st, why, sizeof why);
            snprintf(err, errlen, "move %d '%s': the game ended after move %d (%s)", i + 1, moves[i], i, why);
            ok = false;
            break;
        }
        ok = game_parse_move(&rec->game, moves[i], &m, why, sizeof why);
        if (!ok)
            snprintf(err, errlen, "move %d '%s': %s", i + 1, moves[i], why);
        else if (!(ok = record_extend(rec, m)))
            snprintf(err, errlen, "out of memory");
    }
    if (!ok)
        record_free(rec);
    return ok;
}
