/* The game review's arithmetic (gui/review.c) and its marks in a game record: [%eval] comments and
 * NAGs written by the PGN writer and read back by the record reader. A case of the gui suite. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "../games/records.h"
#include "../gui/review.h"
#include "../gui/shares.h"
#include "../games/pgn.h"

#define ABOUT(x, want)                                                                                                 \
    ck_assert_msg(fabs((x) - (want)) < 0.0005, "%s = %.4f, expected %.4f", #x, (double)(x), (double)(want))

START_TEST(test_expected_scores)
{
    const double unknown[3] = { NAN, NAN, NAN };
    /* Two armies: lichess's curve, 0.5 at an even score, whatever the other's score. */
    double black = 40;
    ABOUT(review_expected(0, &black, 1), 0.5);
    ABOUT(review_expected(100, &black, 1), 0.5910);
    ABOUT(review_expected(-100, unknown, 1), 0.4090);
    /* Three and four, the others unknown: they count as average, so a score alone says nothing (a
     * multi-player search's scores all lean the same way: nd-mccooey-3p starts near -10.13). */
    ABOUT(review_expected(0, unknown, 2), 1.0 / 3);
    ABOUT(review_expected(0, unknown, 3), 0.25);
    ABOUT(review_expected(-1013, unknown, 2), 1.0 / 3);
    /* Known scores: the softmax of the share bars, where a common lean cancels. */
    const double lean[2] = { -40, -40 };
    ABOUT(review_expected(-40, lean, 2), 1.0 / 3);
    /* Two strong armies of four (nd-wellisch-4p's start): the mover shares the points with the other. */
    const double four[3] = { 3247, -3152, -3298 };
    ABOUT(review_expected(3247, four, 3), 0.5);
    /* Mates decide. */
    ABOUT(review_expected(UCI_MATE_SCORE - 3, lean, 2), 1);
    ABOUT(review_expected(-UCI_MATE_SCORE + 1, &black, 1), 0);
}
END_TEST

/* The share bars' shares of the points (gui/shares.c), which the review's expected scores are too. */
START_TEST(test_shares)
{
    double share[4];
    const double c3 = 0.00368208 * 2 / 3, total = exp(c3 * 300) + 1 + exp(-c3 * 300);
    shares_expected(3, 7, (const double[]){ 300, 0, -300 }, share);
    ABOUT(share[0], exp(c3 * 300) / total);
    ABOUT(share[1], 1 / total);
    ABOUT(share[2], exp(-c3 * 300) / total);
    /* An army off the board has none: two armies left share by lichess's curve of half their difference. */
    shares_expected(3, 5, (const double[]){ 100, 500, -100 }, share);
    ABOUT(share[0], 1 / (1 + exp(-0.00368208 * 100)));
    ABOUT(share[1], 0);
    /* An army without a score counts as average; a mated army has none; a mate wins all. */
    shares_expected(4, 15, (const double[]){ 200, NAN, -200, -UCI_MATE_SCORE + 2 }, share);
    ABOUT(share[1], 1 / (exp(c3 * 200) + 1 + exp(-c3 * 200)));
    ABOUT(share[3], 0);
    ABOUT(share[0] + share[1] + share[2], 1);
    shares_expected(4, 15, (const double[]){ 200, NAN, UCI_MATE_SCORE - 5, -200 }, share);
    ABOUT(share[2], 1);
    ABOUT(share[0] + share[1] + share[3], 0);
}
END_TEST

/* Two armies: the events' shares (the evaluation bar and graph) follow the latest score alone, the other
 * army's being its negation: lichess's curve, and a mate for either side. */
START_TEST(test_shares_two_armies)
{
    const struct variant *v = test_variant("glinski");
    struct shares sh;
    shares_reset(&sh);
    json_t *none = shares_json(&sh, v, 3);
    ABOUT(json_real_value(json_object_get(none, "w")), 0.5);
    json_decref(none);
    shares_record(&sh, 0, false, 300);
    shares_record(&sh, 1, false, 100);
    json_t *j = shares_json(&sh, v, 3);
    ABOUT(json_real_value(json_object_get(j, "w")), 1 / (1 + exp(0.00368208 * 100)));
    ABOUT(json_real_value(json_object_get(j, "b")), 1 / (1 + exp(-0.00368208 * 100)));
    json_decref(j);
    shares_record(&sh, 0, true, -2);
    j = shares_json(&sh, v, 3);
    ABOUT(json_real_value(json_object_get(j, "b")), 1);
    json_decref(j);
}
END_TEST

START_TEST(test_judgements)
{
    ck_assert_int_eq(review_judge(0), JUDGED_GOOD);
    ck_assert_int_eq(review_judge(0.0499), JUDGED_GOOD);
    ck_assert_int_eq(review_judge(0.05), JUDGED_INACCURACY);
    ck_assert_int_eq(review_judge(0.10), JUDGED_MISTAKE);
    ck_assert_int_eq(review_judge(0.1499), JUDGED_MISTAKE);
    ck_assert_int_eq(review_judge(0.15), JUDGED_BLUNDER);
    ck_assert_int_eq(review_judge(1), JUDGED_BLUNDER);
    /* lichess's accuracy: 100 for no loss, falling with the drop of the win percentage. */
    ABOUT(review_move_accuracy(0), 100);
    ABOUT(review_move_accuracy(0.10), 103.1668100711649 * exp(-0.4354415386753951) - 3.166924740191411);
    ABOUT(review_move_accuracy(1), 0);
}
END_TEST

START_TEST(test_record_marks)
{
    char text[64];
    pgn_eval_comment(35, text, sizeof text);
    ck_assert_str_eq(text, "[%eval 0.35]");
    pgn_eval_comment(-952, text, sizeof text);
    ck_assert_str_eq(text, "[%eval -9.52]");
    pgn_eval_comment(UCI_MATE_SCORE - 3, text, sizeof text);
    ck_assert_str_eq(text, "[%eval #3]");
    pgn_eval_comment(-UCI_MATE_SCORE + 2, text, sizeof text);
    ck_assert_str_eq(text, "[%eval #-2]");

    /* A judged move: its NAG against its SAN, its evaluation in a comment after it. */
    const struct variant *v = test_variant("glinski");
    struct game g;
    struct game_record r = { .den = 1, .narmies = 2, .left = { -1, -1 }, .culprit = -1, .term = TERM_ABANDONED };
    char err[256], *out = NULL;
    size_t size;
    move_t m;
    int fullmove = 0;
    test_game(&g, "glinski", NULL, false);
    snprintf(r.fen, sizeof r.fen, "%s", v->start_fen);
    ck_assert(game_parse_move(&g, "e1b4", &m, err, sizeof err));
    game_record_judged_move(v, &g, &r, m, &fullmove, "??", "[%eval -9.52]");
    ck_assert(game_parse_move(&g, "e10b4", &m, err, sizeof err));
    game_record_judged_move(v, &g, &r, m, &fullmove, NULL, "[%eval -9.60]");
    FILE *f = open_memstream(&out, &size);
    struct pgn_tags tags = { .v = v, .event = "review", .date = "2026.01.01", .time_control = "-", .round = 1,
                             .player = { "a", "b" } };
    pgn_write(f, &tags, &r);
    fclose(f);
    ck_assert_msg(strstr(out, "1. Qb4?? {[%eval -9.52]} Qxb4 {[%eval -9.60]} *"), "%s", out);

    /* The reader skips the comments and reads the move with its NAG. */
    struct records rd;
    struct record_game game;
    ck_assert_msg(records_open_text(&rd, out, size, "review", err, sizeof err), "%s", err);
    ck_assert_int_eq(records_next(&rd, &game, err, sizeof err), 1);
    ck_assert_int_eq(game.nmoves, 2);
    game_free(&g);
    test_game(&g, "glinski", NULL, false);
    ck_assert_msg(game_parse_move(&g, game.moves[0].text, &m, err, sizeof err), "%s: %s", game.moves[0].text, err);
    char uci[16];
    move_to_text(v, m, uci);
    ck_assert_str_eq(uci, "e1b4");
    records_close(&rd);
    game_free(&g);
    game_record_free(&r);
    free(out);
}
END_TEST

TCase *tcase_review(void)
{
    TCase *tc = tcase_create("review");
    tcase_add_test(tc, test_expected_scores);
    tcase_add_test(tc, test_shares);
    tcase_add_test(tc, test_shares_two_armies);
    tcase_add_test(tc, test_judgements);
    tcase_add_test(tc, test_record_marks);
    return tc;
}
