/* The GUI's move tree (gui/tree.c): lines, variations, promotion and deletion with stable ids; its
 * game records (gui/tree_record.c) with variations in parentheses, written and read back by
 * books/records.c, and the records the reader refuses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../games/records.h"
#include "../gui/tree.h"
#include "../gui/tree_record.h"
#include "../games/pgn.h"
#include "tests.h"

/* Adds the move (its UCI text only) below parent. */
static int add(struct tree *t, int parent, const char *uci)
{
    struct tree_node node = { 0 };
    snprintf(node.uci, sizeof node.uci, "%s", uci);
    int id = tree_add(t, parent, &node);
    ck_assert_int_ge(id, 0);
    return id;
}

/* The main line's moves joined by spaces. */
static const char *main_text(const struct tree *t)
{
    static char out[256];
    out[0] = 0;
    for (int k = 1; k <= t->plies; k++)
        snprintf(out + strlen(out), sizeof out - strlen(out), "%s%s", k > 1 ? " " : "", t->node[t->main[k]].uci);
    return out;
}

/* The variations' moves in the JSON's order, "uci<parent" each. */
static const char *variations_text(const struct tree *t)
{
    static char out[256];
    json_t *list = tree_variations_json(t, "wb", 2);
    size_t i;
    json_t *v;
    out[0] = 0;
    json_array_foreach(list, i, v) {
        snprintf(out + strlen(out), sizeof out - strlen(out), "%s%s<%d", i ? " " : "",
                 json_string_value(json_object_get(v, "uci")), (int)json_integer_value(json_object_get(v, "parent")));
    }
    json_decref(list);
    return out;
}

START_TEST(test_lines)
{
    struct tree t;
    ck_assert(tree_init(&t));
    int a = add(&t, 0, "a"), b = add(&t, a, "b"), c = add(&t, b, "c");
    ck_assert_str_eq(main_text(&t), "a b c");
    /* An alternative to b, a line from it, and an alternative within that line. */
    int x = add(&t, a, "x"), y = add(&t, x, "y"), z = add(&t, x, "z");
    ck_assert_str_eq(main_text(&t), "a b c");
    ck_assert_int_eq(tree_find(&t, a, "x"), x);
    ck_assert_int_eq(tree_find(&t, a, "q"), -1);
    ck_assert(tree_on_main(&t, c) && !tree_on_main(&t, y));
    ck_assert_str_eq(variations_text(&t), "x<1 y<4 z<4");
    char *path[8];
    ck_assert_int_eq(tree_path(&t, y, path), 3);
    ck_assert(!strcmp(path[0], "a") && !strcmp(path[1], "x") && !strcmp(path[2], "y") && !path[3]);
    /* Promoted: the line through z is the main line, and the old one an alternative. */
    tree_promote(&t, z);
    ck_assert_str_eq(main_text(&t), "a x z");
    ck_assert_str_eq(variations_text(&t), "b<1 c<2 y<4");
    /* Deleting a main-line move: its first alternative goes on as the main line. */
    tree_delete(&t, x);
    ck_assert_str_eq(main_text(&t), "a b c");
    ck_assert_str_eq(variations_text(&t), "");
    ck_assert(!tree_has(&t, x) && !tree_has(&t, y) && !tree_has(&t, z) && tree_has(&t, c));
    /* Ids are not reused: a new move gets a new one. */
    ck_assert_int_gt(add(&t, c, "d"), z);
    tree_cut(&t, a);
    ck_assert_str_eq(main_text(&t), "a");
    ck_assert(!tree_has(&t, b));
    /* The start cannot go. */
    tree_delete(&t, 0);
    ck_assert(tree_has(&t, 0));
    tree_free(&t);
}
END_TEST

/* A tree of Glinski's game from its moves, the first its main line; each later line is
 * "<ply> <moves...>" from the main line's position after ply moves, or "=<uci> <moves...>" from
 * the node of that move added last. */
static void build(struct tree *t, struct game *g, const char *const *lines, int n)
{
    char err[256];
    ck_assert(tree_init(t));
    for (int i = 0; i < n; i++) {
        char copy[256], *save, *word = NULL;
        snprintf(copy, sizeof copy, "%s", lines[i]);
        int at = 0;
        if (i) {
            word = strtok_r(copy, " ", &save);
            for (int c = 1; c < t->n && word[0] == '='; c++)
                if (!strcmp(t->node[c].uci, word + 1))
                    at = c;
            if (word[0] != '=')
                at = t->main[atoi(word)];
        }
        ck_assert_msg(tree_position(t, at, NULL, g, err, sizeof err), "%s", err);
        for (word = strtok_r(i ? NULL : copy, " ", &save); word; word = strtok_r(NULL, " ", &save)) {
            move_t m;
            struct tree_node node;
            ck_assert_msg(game_parse_move(g, word, &m, err, sizeof err), "%s", err);
            tree_node_of(g, m, &node);
            node.left = game_play(g, m, NULL);
            at = tree_add(t, at, &node);
            ck_assert_int_ge(at, 0);
        }
    }
}

/* The tree as text: each node's parent and move, in id order. */
static void tree_text(const struct tree *t, char *out, size_t len)
{
    out[0] = 0;
    for (int c = 1; c < t->n; c++)
        if (t->node[c].live)
            snprintf(out + strlen(out), len - strlen(out), "%s<%s ", t->node[c].uci,
                     t->node[c].parent ? t->node[t->node[c].parent].uci : "start");
}

START_TEST(test_record_round_trip)
{
    static const char *const lines[] = {
        "f5f6 e7e6 e4e5 d7d6",
        "1 d7d6 e4e5 c7c6",     /* an alternative to Black's first move, a line */
        "=d7d6 g4g5",           /* nested: an alternative to White's second move in it */
        "2 g4g5",               /* an alternative to White's second move of the game */
        "0 e4e5",               /* and to the first */
    };
    struct game g = { 0 };
    struct tree t, back;
    char err[512], before[1024], after[1024];
    test_game(&g, "glinski", NULL, false);
    build(&t, &g, lines, 5);
    struct game_record r = { .culprit = -1, .den = 1, .narmies = 2, .term = TERM_ABANDONED };
    ck_assert(tree_position(&t, 0, NULL, &g, err, sizeof err));
    ck_assert(tree_record_write(&t, NULL, &g, &r, NULL, NULL));
    struct pgn_tags tags = { .v = g.v, .event = "test", .date = "2026.01.01", .time_control = "-", .round = 1,
                             .player = { "a", "b" } };
    char *text = NULL;
    size_t size;
    FILE *f = open_memstream(&text, &size);
    pgn_write(f, &tags, &r);
    fclose(f);
    ck_assert_msg(strstr(text, "\n1. f6 (1. e5) 1... e6 (1... d6 2. e5 (2. g5) 2... c6) 2. e5 (2. g5) 2... d6 *\n"),
                  "%s", text);
    /* Read back: the main line from the record's moves, then its variations. */
    struct records rs;
    struct record_game rg;
    ck_assert(records_open_text(&rs, text, size, "test", err, sizeof err));
    ck_assert_int_eq(records_next(&rs, &rg, err, sizeof err), 1);
    ck_assert_int_eq(rg.nmoves, 4);
    ck_assert_int_eq(rg.nvariations, 6);
    const char *main_moves[] = { rg.moves[0].text, rg.moves[1].text, rg.moves[2].text, rg.moves[3].text };
    char main_line[64];
    snprintf(main_line, sizeof main_line, "%s %s %s %s", main_moves[0], main_moves[1], main_moves[2], main_moves[3]);
    build(&back, &g, (const char *const[]){ main_line }, 1);
    ck_assert_msg(tree_record_read(&back, g.v, NULL, &rg, err, sizeof err), "%s", err);
    tree_text(&t, before, sizeof before);
    tree_text(&back, after, sizeof after);
    /* The same moves below the same moves (ids may differ: the record lists lines in another order). */
    for (char *save, *word = strtok_r(before, " ", &save); word; word = strtok_r(NULL, " ", &save))
        ck_assert_msg(strstr(after, word), "%s is not in %s", word, after);
    ck_assert_int_eq(t.n, back.n);
    records_close(&rs);
    free(text);
    game_record_free(&r);
    tree_free(&t);
    tree_free(&back);
    game_free(&g);
}
END_TEST

/* Variations of a record that cannot be this game's: one line each, naming the move. */
START_TEST(test_record_errors)
{
    static const struct {
        const char *movetext, *error;
    } bad[] = {
        { "1. f6 e6 (1... zz) *", "a variation's move 'zz' (ply 2): illegal move 'zz'" },
        { "1. f6 e6 (1... d6 2. e5 (2. Qe5)) *", "a variation's move 'Qe5' (ply 3)" },
        { "1. f6 (1. f6 e6) *", "it goes on past the game's end" },
        { "1. f6 e6 (1... d6 2. e5 *", "a variation '(' not closed before the result" },
        { "1. f6 e6 ) *", "a ')' without its '('" },
        { "(1. f6) *", "a variation '(' before any move it could replace" },
        { "1. f6 (() e6) *", "a variation '(' before any move it could replace" },
    };
    struct game g = { 0 };
    test_game(&g, "glinski", NULL, false);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char text[256], err[512] = "";
        snprintf(text, sizeof text, "[Variant \"glinski\"]\n[Result \"*\"]\n\n%s\n", bad[i].movetext);
        struct records rs;
        struct record_game rg;
        struct tree t;
        ck_assert(records_open_text(&rs, text, strlen(text), "test", err, sizeof err));
        bool ok = records_next(&rs, &rg, err, sizeof err) == 1;
        if (ok) {
            char main_line[64] = "";
            for (int k = 0; k < rg.nmoves; k++)
                snprintf(main_line + strlen(main_line), sizeof main_line - strlen(main_line), "%s%s", k ? " " : "",
                         rg.moves[k].text);
            build(&t, &g, (const char *const[]){ main_line }, 1);
            ok = tree_record_read(&t, g.v, NULL, &rg, err, sizeof err);
            tree_free(&t);
        }
        ck_assert_msg(!ok && strstr(err, bad[i].error) && !strchr(err, '\n'), "%s: expected '%s' in '%s'",
                      bad[i].movetext, bad[i].error, err);
        records_close(&rs);
    }
    game_free(&g);
}
END_TEST

/* Deeper than the reader nests: refused, not overflowed. */
START_TEST(test_record_nesting)
{
    char text[4096] = "[Variant \"glinski\"]\n[Result \"*\"]\n\n1. f6 e6";
    for (int i = 0; i <= RECORD_NESTING; i++)
        strcat(text, " (1... e6");
    strcat(text, " *\n");
    char err[512] = "";
    struct records rs;
    struct record_game rg;
    ck_assert(records_open_text(&rs, text, strlen(text), "test", err, sizeof err));
    ck_assert_int_eq(records_next(&rs, &rg, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "variations nested deeper than 64"), "%s", err);
    records_close(&rs);
}
END_TEST

Suite *suite_tree(void)
{
    Suite *s = suite_create("tree");
    TCase *tc = tcase_create("tree");
    tcase_set_timeout(tc, test_timeout(30));
    tcase_add_test(tc, test_lines);
    tcase_add_test(tc, test_record_round_trip);
    tcase_add_test(tc, test_record_errors);
    tcase_add_test(tc, test_record_nesting);
    suite_add_tcase(s, tc);
    return s;
}
