/* The match runner's statistics (match/stats.c) against values worked out by hand: Elo with its 95%
 * interval, LOS and the SPRT on per-game scores, with Glinski's 3/4 and 1/4 stalemate scores. */
#include <math.h>

#include "../match/stats.h"
#include "tests.h"

static void near(double x, double want, double tolerance, const char *what)
{
    ck_assert_msg(fabs(x - want) <= tolerance, "%s = %.9g, want %.9g", what, x, want);
}
#define assert_near(x, want, tolerance) near((x), (want), (tolerance), #x)

static struct tally tally_of(const double *scores, int n)
{
    struct tally t = { 0 };
    for (int i = 0; i < n; i++)
        tally_add(&t, scores[i], TALLY_PLAYED);
    return t;
}

/* Eight games scored 1, 3/4, 1/2, 1/4, 1, 0, 3/4, 3/4: Σx = 5, Σx² = 4, so the mean is 5/8 and
 * the variance 4/8 - 25/64 = 7/64; the standard error is √(7/64 / 8) = √(7/512) = 0.116926793. */
static const double with_stalemates[] = { 1, 0.75, 0.5, 0.25, 1, 0, 0.75, 0.75 };

START_TEST(test_mean_and_variance)
{
    struct tally t = tally_of(with_stalemates, 8);
    ck_assert_int_eq(t.games, 8);
    assert_near(t.sum, 5.0, 1e-12);
    assert_near(t.sum_sq, 4.0, 1e-12);
    assert_near(tally_mean(&t), 0.625, 1e-12);
    assert_near(tally_variance(&t), 7.0 / 64, 1e-12);
    /* Played games are classed by score: 1 a win, 0 a loss, anything else a draw. */
    ck_assert_int_eq(t.wins, 2);
    ck_assert_int_eq(t.losses, 1);
    ck_assert_int_eq(t.draws, 5);
}
END_TEST

START_TEST(test_stalemates_counted_apart)
{
    struct tally t = { 0 };
    tally_add(&t, 0.75, TALLY_STALEMATE_GIVEN);
    tally_add(&t, 0.25, TALLY_STALEMATE_RECEIVED);
    tally_add(&t, 0.5, TALLY_STALEMATE_GIVEN);   /* McCooey: a stalemate is a draw */
    tally_add(&t, 1, TALLY_PLAYED);
    ck_assert_int_eq(t.stalemates_given, 2);
    ck_assert_int_eq(t.stalemates_received, 1);
    ck_assert_int_eq(t.wins + t.losses + t.draws, 1);
    assert_near(tally_mean(&t), 2.5 / 4, 1e-12);
    /* 3/4 + 1/4 has the mean of two draws, but not their variance: (9/16 + 1/16) / 2 - 1/4 = 1/16. */
    struct tally pair = tally_of((const double[]){ 0.75, 0.25 }, 2), draws = tally_of((const double[]){ 0.5, 0.5 }, 2);
    assert_near(tally_mean(&pair), tally_mean(&draws), 1e-12);
    assert_near(tally_variance(&pair), 1.0 / 16, 1e-12);
    assert_near(tally_variance(&draws), 0.0, 1e-12);
}
END_TEST

START_TEST(test_logistic_model)
{
    assert_near(stats_score_of_elo(0), 0.5, 1e-12);
    /* 400 Elo: 1 / (1 + 10^-1) = 10/11. */
    assert_near(stats_score_of_elo(400), 10.0 / 11, 1e-12);
    assert_near(stats_elo_of_score(10.0 / 11), 400, 1e-9);
    assert_near(stats_elo_of_score(0.25), -400 * log10(3), 1e-9);
    ck_assert(stats_elo_of_score(0.5) == 0 && !signbit(stats_elo_of_score(0.5)));
    ck_assert(stats_elo_of_score(1) == INFINITY);
    ck_assert(stats_elo_of_score(0) == -INFINITY);
}
END_TEST

START_TEST(test_elo_interval)
{
    struct tally t = tally_of(with_stalemates, 8);
    struct elo_interval iv = stats_elo(&t);
    /* 400 log10(0.625 / 0.375) = 400 log10(5/3) = 88.7395. The 95% bounds are the scores
     * 0.625 ∓ 1.959964 × 0.116926793 = 0.395824 and 0.854176, i.e. 400 log10(0.395824 / 0.604176)
     * = -73.4619 and 400 log10(0.854176 / 0.145824) = 307.0822. */
    assert_near(iv.elo, 400 * log10(5.0 / 3), 1e-9);
    assert_near(iv.elo, 88.7395, 1e-4);
    assert_near(iv.low, -73.4619, 1e-4);
    assert_near(iv.high, 307.0822, 1e-4);
    /* LOS: Φ(0.125 / 0.116926793) = Φ(1.069045) = 0.857475. */
    assert_near(stats_los(&t), 0.857475, 1e-6);
}
END_TEST

START_TEST(test_degenerate_tallies)
{
    struct tally none = { 0 };
    assert_near(tally_mean(&none), 0.5, 0);
    assert_near(tally_variance(&none), 0, 0);
    struct elo_interval iv = stats_elo(&none);
    ck_assert(iv.elo == 0 && iv.low == 0 && iv.high == 0);
    assert_near(stats_los(&none), 0.5, 0);
    /* One game has no spread: the interval closes on the point estimate. */
    struct tally one = tally_of((const double[]){ 0.75 }, 1);
    iv = stats_elo(&one);
    assert_near(iv.elo, 400 * log10(3), 1e-9);
    ck_assert(iv.low == iv.elo && iv.high == iv.elo);
    assert_near(stats_los(&one), 1, 0);
    /* All wins: infinite Elo; all losses: minus infinity; all draws: exactly 0 ± 0. */
    struct tally wins = tally_of((const double[]){ 1, 1, 1, 1 }, 4);
    ck_assert(stats_elo(&wins).elo == INFINITY && stats_elo(&wins).low == INFINITY);
    assert_near(stats_los(&wins), 1, 0);
    struct tally losses = tally_of((const double[]){ 0, 0, 0 }, 3);
    ck_assert(stats_elo(&losses).elo == -INFINITY);
    assert_near(stats_los(&losses), 0, 0);
    struct tally draws = tally_of((const double[]){ 0.5, 0.5, 0.5 }, 3);
    iv = stats_elo(&draws);
    ck_assert(iv.elo == 0 && iv.low == 0 && iv.high == 0);
    assert_near(stats_los(&draws), 0.5, 0);
}
END_TEST

static const struct sprt sprt_0_10 = { .elo0 = 0, .elo1 = 10, .alpha = 0.05, .beta = 0.05 };

START_TEST(test_sprt_bounds)
{
    double lower, upper;
    /* ln(0.05 / 0.95) = -ln 19 = -2.944439, ln(0.95 / 0.05) = ln 19. */
    sprt_bounds(&sprt_0_10, &lower, &upper);
    assert_near(lower, -log(19), 1e-12);
    assert_near(upper, log(19), 1e-12);
    assert_near(upper, 2.944439, 1e-6);
    /* alpha 0.1, beta 0.2: ln(0.2 / 0.9) = -1.504077, ln(0.8 / 0.1) = ln 8 = 2.079442. */
    sprt_bounds(&(struct sprt){ 0, 5, 0.1, 0.2 }, &lower, &upper);
    assert_near(lower, -1.504077, 1e-6);
    assert_near(upper, 2.079442, 1e-6);
    ck_assert_int_eq(sprt_verdict(&sprt_0_10, 2.9), SPRT_CONTINUE);
    ck_assert_int_eq(sprt_verdict(&sprt_0_10, -2.9), SPRT_CONTINUE);
    ck_assert_int_eq(sprt_verdict(&sprt_0_10, 2.95), SPRT_ACCEPT_H1);
    ck_assert_int_eq(sprt_verdict(&sprt_0_10, -2.95), SPRT_ACCEPT_H0);
}
END_TEST

START_TEST(test_sprt_llr)
{
    /* elo1 = 10: s1 = 1 / (1 + 10^-0.025) = 0.514387, s0 = 1/2. With 3/4 scores:
     * (s1 - s0)(2 × 5 - 8 (s0 + s1)) / (2 × 7/64) = 0.014387 × 1.884904 / 0.21875 = 0.123970. */
    struct tally t = tally_of(with_stalemates, 8);
    assert_near(stats_score_of_elo(10), 0.514387, 1e-6);
    assert_near(sprt_llr(&sprt_0_10, &t), 0.123970, 1e-6);
    /* Only 1, 1/2 and 0: the same as the trinomial formula of fastchess and OpenBench. W 3 D 2 L 1:
     * a = W + D/2 = 2/3, var = W + D/4 - a² = 7/12 - 4/9 = 5/36; LLR = (s1 - s0)(2a - s0 - s1) n / (2 var)
     * = 0.014387 × 0.318946 × 6 / (10/36) = 0.099117. */
    struct tally wdl = tally_of((const double[]){ 1, 1, 0.5, 0, 1, 0.5 }, 6);
    double s0 = 0.5, s1 = stats_score_of_elo(10), a = 2.0 / 3, var = 5.0 / 36;
    assert_near(sprt_llr(&sprt_0_10, &wdl), (s1 - s0) * (2 * a - s0 - s1) * 6 / (2 * var), 1e-12);
    assert_near(sprt_llr(&sprt_0_10, &wdl), 0.099117, 1e-6);
    /* A stalemate pair scores like two draws in the mean, but not in the LLR: it adds variance. */
    struct tally pair = tally_of((const double[]){ 0.75, 0.25 }, 2);
    assert_near(sprt_llr(&sprt_0_10, &pair), 0.014387 * (2 - 2 * 1.014387) / (2.0 / 16), 1e-5);
}
END_TEST

START_TEST(test_sprt_degenerate)
{
    struct tally none = { 0 };
    ck_assert(sprt_llr(&sprt_0_10, &none) == 0);
    struct tally one = tally_of((const double[]){ 1 }, 1);
    ck_assert(sprt_llr(&sprt_0_10, &one) == 0);
    struct tally wins = tally_of((const double[]){ 1, 1, 1, 1, 1, 1 }, 6);
    ck_assert(sprt_llr(&sprt_0_10, &wins) == 0);
    struct tally draws = tally_of((const double[]){ 0.5, 0.5, 0.5 }, 3);
    ck_assert(sprt_llr(&sprt_0_10, &draws) == 0);
    ck_assert_int_eq(sprt_verdict(&sprt_0_10, 0), SPRT_CONTINUE);
}
END_TEST

/* Feeds scores in a loop until the SPRT decides; returns the number of games. */
static int games_to_verdict(const struct sprt *s, const double *pattern, int n, enum sprt_verdict *verdict)
{
    struct tally t = { 0 };
    for (int i = 0; i < 100000; i++) {
        tally_add(&t, pattern[i % n], TALLY_PLAYED);
        *verdict = sprt_verdict(s, sprt_llr(s, &t));
        if (*verdict != SPRT_CONTINUE)
            return t.games;
    }
    return -1;
}

START_TEST(test_sprt_termination)
{
    const struct sprt wide = { .elo0 = 0, .elo1 = 100, .alpha = 0.05, .beta = 0.05 };
    enum sprt_verdict verdict;
    /* s1 = 1 / (1 + 10^-0.25) = 0.640065. Games 1 then 3/4: Σx = 1.75, var = 1.5625/2 - 0.875² = 1/64,
     * LLR = 0.140065 × (3.5 - 2 × 1.140065) / (2/64) = 5.4676 ≥ ln 19: H1 after two games (the
     * first alone has no variance). Games 0 then 1/4: 0.140065 × (0.5 - 2.280130) / (2/64) = -7.9787. */
    ck_assert_int_eq(games_to_verdict(&wide, (const double[]){ 1, 0.75 }, 2, &verdict), 2);
    ck_assert_int_eq(verdict, SPRT_ACCEPT_H1);
    assert_near(sprt_llr(&wide, &(struct tally){ .games = 2, .sum = 1.75, .sum_sq = 1.5625 }), 5.4676, 1e-4);
    ck_assert_int_eq(games_to_verdict(&wide, (const double[]){ 0, 0.25 }, 2, &verdict), 2);
    ck_assert_int_eq(verdict, SPRT_ACCEPT_H0);
    assert_near(sprt_llr(&wide, &(struct tally){ .games = 2, .sum = 0.25, .sum_sq = 0.0625 }), -7.9787, 1e-4);
    /* The eight-game pattern above, repeated, against [0, 10]: 0.123970 after one pass (above); it
     * crosses ln 19 at game 186 (recomputed independently in double precision). */
    ck_assert_int_eq(games_to_verdict(&sprt_0_10, with_stalemates, 8, &verdict), 186);
    ck_assert_int_eq(verdict, SPRT_ACCEPT_H1);
    /* Equal strength never accepts H1 against [0, 10]: it accepts H0. */
    ck_assert_int_gt(games_to_verdict(&sprt_0_10, (const double[]){ 1, 0, 0.75, 0.25, 0.5 }, 5, &verdict), 0);
    ck_assert_int_eq(verdict, SPRT_ACCEPT_H0);
}
END_TEST

Suite *suite_stats(void)
{
    Suite *s = suite_create("stats");
    TCase *tc = tcase_create("stats");
    tcase_add_test(tc, test_mean_and_variance);
    tcase_add_test(tc, test_stalemates_counted_apart);
    tcase_add_test(tc, test_logistic_model);
    tcase_add_test(tc, test_elo_interval);
    tcase_add_test(tc, test_degenerate_tallies);
    tcase_add_test(tc, test_sprt_bounds);
    tcase_add_test(tc, test_sprt_llr);
    tcase_add_test(tc, test_sprt_degenerate);
    tcase_add_test(tc, test_sprt_termination);
    suite_add_tcase(s, tc);
    return s;
}
