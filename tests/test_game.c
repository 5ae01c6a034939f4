/* The end of a game: checkmate, stalemate with the variant's value, repetition, the 100-ply rule. */
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

Suite *suite_game(void)
{
    Suite *s = suite_create("game");
    TCase *tc = tcase_create("end");
    tcase_add_test(tc, test_mate_and_stalemate);
    tcase_add_test(tc, test_repetition);
    tcase_add_test(tc, test_hundred_plies);
    tcase_add_test(tc, test_status_text);
    suite_add_tcase(s, tc);
    return s;
}
