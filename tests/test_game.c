/* The end of a game: checkmate, stalemate with the variant's value, repetition, the 100-ply rule; with
 * three players the last army's win and the draws shared by the armies still on the board. */
#include <stdio.h>
#include <string.h>

#include "tests.h"

static struct game_status status_after(const char *variant, const char *fen, const char *moves)
{
    struct game g;
    char err[256], buf[512], *list[64], *save;
    int n = 0;
    test_game(&g, variant, NULL, false);
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *t = strtok_r(buf, " ", &save); t && n < 64; t = strtok_r(NULL, " ", &save))
        list[n++] = t;
    ck_assert_msg(game_set_position(&g, fen, list, n, err, sizeof err), "%s", err);
    struct game_status st = game_status(&g);
    game_free(&g);
    return st;
}

static void assert_status(struct game_status st, enum game_outcome outcome, int num, int den)
{
    ck_assert_int_eq(st.outcome, outcome);
    if (outcome != GAME_ONGOING) {
        ck_assert_int_eq(st.num, num);
        ck_assert_int_eq(st.den, den);
    }
}

START_TEST(test_mate_and_stalemate)
{
    const char *mate = "K5/1q2r2/8/9/10/11/10/9/8/7/5k w - - 0 1";
    const char *stalemate = "K5/3q3/6r1/9/10/11/10/9/8/7/5k w - - 0 1";
    assert_status(status_after("glinski", mate, ""), GAME_CHECKMATE, 0, 1);
    /* Glinski: the stalemated side scores 1/4; McCooey: a plain draw. */
    assert_status(status_after("glinski", stalemate, ""), GAME_STALEMATE, 1, 4);
    assert_status(status_after("full-house", stalemate, ""), GAME_STALEMATE, 1, 4);
    assert_status(status_after("mccooey", stalemate, ""), GAME_STALEMATE, 1, 2);
    assert_status(status_after("glinski", NULL, ""), GAME_ONGOING, 0, 0);
}
END_TEST

START_TEST(test_repetition)
{
    const char *twice = "d1c3 d9c6 c3d1 c6d9", *thrice = "d1c3 d9c6 c3d1 c6d9 d1c3 d9c6 c3d1 c6d9";
    assert_status(status_after("glinski", NULL, twice), GAME_ONGOING, 0, 0);
    assert_status(status_after("glinski", NULL, thrice), GAME_REPETITION, 1, 2);
    /* A pawn move in between starts the count again. */
    assert_status(status_after("glinski", NULL, "d1c3 d9c6 c3d1 c6d9 f5f6 d9c6 d1c3 c6d9 c3d1 d9c6 d1c3 c6d9"),
                  GAME_ONGOING, 0, 0);
}
END_TEST

START_TEST(test_hundred_plies)
{
    const char *quiet = "6/7/8/9/10/k10/10/9/8/7/K5 w - - 99 60";
    assert_status(status_after("glinski", quiet, ""), GAME_ONGOING, 0, 0);
    assert_status(status_after("glinski", quiet, "l1l2"), GAME_FIFTY_MOVES, 1, 2);
    /* Mate on the hundredth ply is still mate. */
    assert_status(status_after("glinski", "K5/4r2/8/1q7/10/11/10/9/8/7/5k b - - 99 80", "d2b2"), GAME_CHECKMATE, 0, 1);
}
END_TEST

START_TEST(test_status_text)
{
    struct game g;
    char text[128];
    test_game(&g, "glinski", "K5/3q3/6r1/9/10/11/10/9/8/7/5k w - - 0 1", false);
    game_status_text(&g, game_status(&g), text, sizeof text);
    ck_assert_str_eq(text, "stalemate: w scores 1/4, b 3/4");
    game_free(&g);
}
END_TEST

/* Three players (wellisch, positions of tests/test_reference.c): each army's score as "r w b / den". */
static void assert_scores(struct game_status st, enum game_outcome outcome, const char *scores)
{
    char have[64];
    ck_assert_int_eq(st.outcome, outcome);
    snprintf(have, sizeof have, "%d %d %d / %d", st.score[0], st.score[1], st.score[2], st.den);
    ck_assert_str_eq(have, scores);
}

START_TEST(test_three_player_status)
{
    const char *v = "wellisch", *generals = "2bG3/7/8/9/10/11/10/9/rG7/7/6 r - - 0 1";
    /* Red's knight attacks White's General; White's knight leaves with it and opens Red's Rook's file to
     * Black's General: Red is the last army before anyone moves. */
    struct game_status st = status_after(v, "6/7/8/5wG3/4rE5/2rR4wE1bG1/10/9/rG7/7/6 r - - 0 1", "");
    assert_scores(st, GAME_LAST_ARMY, "1 0 0 / 1");
    ck_assert_int_eq(st.num, 1);
    /* White gone, Black's Vicereine mates Red: Black wins. */
    assert_scores(status_after(v, "6/5bG1/2bV5/9/10/rG10/10/9/8/7/6 b - - 0 1", "c3f3"), GAME_LAST_ARMY, "0 0 1 / 1");
    /* Red mated leaves, White moves on against Black. */
    assert_scores(status_after(v, "6/5bG1/8/9/10/rG1wV8/10/9/8/7/wG5 r - - 0 1", ""), GAME_ONGOING, "0 0 0 / 0");
    /* Red stalemated with three armies on the board: a third each. */
    st = status_after(v, "bG5/7/8/9/10/rG9wG/4bR5/9/8/7/1wR4 r - - 0 1", "");
    assert_scores(st, GAME_STALEMATE, "1 1 1 / 3");
    ck_assert_int_eq(st.num, 1);
    /* The start position a third time after the knights went out and back twice: a third each. */
    assert_scores(status_after(v, NULL, "h2g4 h8g7 b4d5 g4h2 g7h8 d5b4 h2g4 h8g7 b4d5 g4h2 g7h8 d5b4"),
                  GAME_REPETITION, "1 1 1 / 3");
    assert_scores(status_after(v, NULL, "h2g4 h8g7 b4d5 g4h2 g7h8 d5b4 h2g4 h8g7 b4d5 g4h2 g7h8"), GAME_ONGOING,
                  "0 0 0 / 0");
    /* White gone: Red and Black share the draws. */
    assert_scores(status_after(v, generals, "i1i2 a3a4 i2i1 a4a3 i1i2 a3a4 i2i1 a4a3"), GAME_REPETITION,
                  "1 0 1 / 2");
    assert_scores(status_after(v, "2bG3/7/8/9/10/11/10/9/rG7/7/6 r - - 99 40", "i1i2"), GAME_FIFTY_MOVES,
                  "1 0 1 / 2");
}
END_TEST

/* game_play reports who left and who of them was mated: Black's General steps into the row of White's
 * Vicereine, still covered by Red's knight; Red, to move, is mated and leaves with its knight, and White,
 * to move, attacks Black's General. */
START_TEST(test_three_player_eliminations)
{
    struct game g;
    char err[256], text[128];
    move_t m;
    test_game(&g, "wellisch", "6/7/8/9/10/rG1wV8/10/2rE6/8/3bG3/wG5 b - - 0 1", false);
    ck_assert_uint_eq(game_armies(&g), 7);
    ck_assert_msg(game_parse_move(&g, "k4k3", &m, err, sizeof err), "%s", err);
    unsigned mated, left = game_play(&g, m, &mated);
    ck_assert_uint_eq(left, 1u << 0 | 1u << 2);
    ck_assert_uint_eq(mated, 1u << 0);
    ck_assert_uint_eq(game_armies(&g), 1u << 1);
    game_status_text(&g, game_status(&g), text, sizeof text);
    ck_assert_str_eq(text, "last army on the board: w scores 1/1, r 0/1, b 0/1");
    game_free(&g);
}
END_TEST

/* The piece guide's reach of one piece alone at a cell, as counts of move and capture cells. */
static void reach(const struct game *g, char letter, const char *cell, bool quiet[MAX_CELLS], bool capture[MAX_CELLS])
{
    int type = variant_type_of_letter(g->v, letter), from = geo_parse_cell(&g->v->geo, cell, &(int){ 0 });
    ck_assert_msg(type >= 0 && from != CELL_NONE, "%c at %s", letter, cell);
    g->ops->piece_reach(g->tb, 0, type, from, quiet, capture);
}

static int count_cells(const struct game *g, const bool set[MAX_CELLS])
{
    int n = 0;
    for (int c = 0; c < g->v->geo.ncells; c++)
        n += set[c];
    return n;
}

START_TEST(test_piece_reach)
{
    struct game g;
    bool q[MAX_CELLS], c[MAX_CELLS], q2[MAX_CELLS], c2[MAX_CELLS];
    test_game(&g, "glinski", NULL, false);
    /* From the centre of the 91-cell board a Rook has five cells each way, a Knight all twelve leaps. */
    reach(&g, 'R', "f6", q, c);
    ck_assert_int_eq(count_cells(&g, q), 30);
    ck_assert_int_eq(count_cells(&g, c), 30);
    reach(&g, 'N', "f6", q, c);
    ck_assert_int_eq(count_cells(&g, q), 12);
    ck_assert_int_eq(count_cells(&g, c), 12);
    ck_assert(!q[geo_parse_cell(&g.v->geo, "f6", &(int){ 0 })]);
    game_free(&g);
    /* A divergent piece: the Waitress moves as the Rook and takes as the Unicorn. */
    test_game(&g, "waitress", NULL, false);
    reach(&g, 'W', "f6", q, c);
    reach(&g, 'R', "f6", q2, c2);
    ck_assert(!memcmp(q, q2, (size_t)g.v->geo.ncells * sizeof *q));
    reach(&g, 'U', "f6", q2, c2);
    ck_assert(!memcmp(c, c2, (size_t)g.v->geo.ncells * sizeof *c));
    ck_assert_int_ne(count_cells(&g, c), 30);
    game_free(&g);
}
END_TEST

Suite *suite_game(void)
{
    Suite *s = suite_create("game");
    TCase *tc = tcase_create("end");
    tcase_add_test(tc, test_mate_and_stalemate);
    tcase_add_test(tc, test_repetition);
    tcase_add_test(tc, test_hundred_plies);
    tcase_add_test(tc, test_status_text);
    tcase_add_test(tc, test_three_player_status);
    tcase_add_test(tc, test_three_player_eliminations);
    tcase_add_test(tc, test_piece_reach);
    suite_add_tcase(s, tc);
    return s;
}
