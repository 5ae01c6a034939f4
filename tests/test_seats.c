/* gui/seats.c: the tokens of a game served to the network, and who may act with which. */
#include <string.h>

#include "tests.h"
#include "../gui/seats.h"

START_TEST(test_tokens_fresh)
{
    char a[SEAT_TOKEN_LEN + 1], b[SEAT_TOKEN_LEN + 1];
    ck_assert(seat_token_new(a) && seat_token_new(b));
    ck_assert_uint_eq(strlen(a), 32);
    ck_assert_uint_eq(strspn(a, "0123456789abcdef"), 32);
    ck_assert_str_ne(a, b);
    ck_assert(seat_token_equal(a, a));
    ck_assert(!seat_token_equal(a, b));
    /* A difference in the first or in the last place, a prefix, nothing. */
    char c[SEAT_TOKEN_LEN + 1];
    memcpy(c, a, sizeof c);
    c[0] = c[0] == '0' ? '1' : '0';
    ck_assert(!seat_token_equal(a, c));
    memcpy(c, a, sizeof c);
    c[SEAT_TOKEN_LEN - 1] = c[SEAT_TOKEN_LEN - 1] == '0' ? '1' : '0';
    ck_assert(!seat_token_equal(a, c));
    c[SEAT_TOKEN_LEN - 1] = 0;
    ck_assert(!seat_token_equal(a, c) && !seat_token_equal(c, a));
    ck_assert(!seat_token_equal(a, NULL) && !seat_token_equal(NULL, NULL) && !seat_token_equal("", ""));
}
END_TEST

/* White and Black human, Red an engine. */
static void keys_three(struct seat_keys *k)
{
    const bool human[] = { true, true, false };
    ck_assert(seat_keys_init(k, 3, human));
    ck_assert(k->seat[0][0] && k->seat[1][0] && !k->seat[2][0]);
    ck_assert_str_ne(k->seat[0], k->seat[1]);
    ck_assert_str_ne(k->seat[0], k->creator);
}

START_TEST(test_who_may_act)
{
    struct seat_keys k;
    seats_require_tokens(true);
    keys_three(&k);
    ck_assert_int_eq(seat_keys_allow(&k, k.seat[0], 0), SEAT_ALLOWED);
    ck_assert_int_eq(seat_keys_allow(&k, k.seat[0], 1), SEAT_OTHER);
    ck_assert_int_eq(seat_keys_allow(&k, k.seat[1], 1), SEAT_ALLOWED);
    ck_assert_int_eq(seat_keys_allow(&k, NULL, 0), SEAT_WATCHER);
    ck_assert_int_eq(seat_keys_allow(&k, "", 0), SEAT_WATCHER);
    ck_assert_int_eq(seat_keys_allow(&k, "0123456789abcdef0123456789abcdef", 0), SEAT_WATCHER);
    /* An engine's seat has no token: an empty one is none. */
    ck_assert_int_eq(seat_keys_allow(&k, "", 2), SEAT_WATCHER);
    /* The creator plays every seat at its screen, and alone changes the whole game. */
    for (int s = 0; s < 3; s++)
        ck_assert_int_eq(seat_keys_allow(&k, k.creator, s), SEAT_ALLOWED);
    ck_assert_int_eq(seat_keys_allow(&k, k.creator, SEAT_CREATOR), SEAT_ALLOWED);
    ck_assert_int_eq(seat_keys_allow(&k, k.seat[0], SEAT_CREATOR), SEAT_WATCHER);
    ck_assert_int_eq(seat_keys_allow(&k, NULL, SEAT_CREATOR), SEAT_WATCHER);
    ck_assert_int_eq(seat_keys_allow(&k, k.creator, 3), SEAT_WATCHER);
    /* Without --host nothing is checked, as before. */
    seats_require_tokens(false);
    ck_assert_int_eq(seat_keys_allow(&k, NULL, 0), SEAT_ALLOWED);
    ck_assert_int_eq(seat_keys_allow(&k, NULL, SEAT_CREATOR), SEAT_ALLOWED);
}
END_TEST

START_TEST(test_join)
{
    struct seat_keys k;
    char invitation[SEAT_TOKEN_LEN + 1], mine[SEAT_TOKEN_LEN + 1], again[SEAT_TOKEN_LEN + 1];
    seats_require_tokens(true);
    keys_three(&k);
    memcpy(invitation, k.seat[1], sizeof invitation);
    ck_assert(!seat_keys_join(&k, 0, invitation, mine));      /* Black's invitation is not White's */
    ck_assert(!seat_keys_join(&k, 2, "", mine));               /* an engine's seat */
    ck_assert(!seat_keys_join(&k, 1, k.creator, mine));
    ck_assert(seat_keys_join(&k, 1, invitation, mine));
    ck_assert(k.joined[1] && !k.joined[0]);
    ck_assert_str_ne(mine, invitation);
    /* The joiner's token moves Black; the invitation and the creator's token no longer do. */
    ck_assert_int_eq(seat_keys_allow(&k, mine, 1), SEAT_ALLOWED);
    ck_assert_int_eq(seat_keys_allow(&k, invitation, 1), SEAT_WATCHER);
    ck_assert_int_eq(seat_keys_allow(&k, k.creator, 1), SEAT_TAKEN);
    ck_assert_int_eq(seat_keys_allow(&k, k.creator, 0), SEAT_ALLOWED);
    ck_assert_int_eq(seat_keys_allow(&k, mine, 0), SEAT_OTHER);
    ck_assert(!seat_keys_join(&k, 1, invitation, again));      /* used once */
    seats_require_tokens(false);
}
END_TEST

Suite *suite_seats(void)
{
    Suite *s = suite_create("seats");
    TCase *tc = tcase_create("seats");
    tcase_add_test(tc, test_tokens_fresh);
    tcase_add_test(tc, test_who_may_act);
    tcase_add_test(tc, test_join);
    suite_add_tcase(s, tc);
    return s;
}
