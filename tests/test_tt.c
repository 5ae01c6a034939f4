/* The transposition table: what is stored is what is probed, mate scores move with the ply, torn
 * entries are misses, and the replacement, resize, clear and hashfull rules. */
#include <stdint.h>

#include "../rules/score.h"
#include "../engine/tt.h"
#include "tests.h"

static struct tt table;

static void table_create(void)
{
    table = (struct tt){ 0 };
    ck_assert(tt_resize(&table, 1, 1));
}

static void table_destroy(void)
{
    tt_free(&table);
}

/* Keys whose high bits agree share a bucket (tt.c chooses the bucket from the key's high bits):
 * the i-th key of bucket b, never 0. */
static uint64_t bucket_key(size_t b, unsigned i)
{
    return (uint64_t)((((unsigned __int128)b << 64) + table.nbuckets - 1) / table.nbuckets) + i + 1;
}

static struct tt_hit probe(uint64_t key)
{
    struct tt_hit hit;
    ck_assert_msg(tt_probe(&table, key, &hit), "key %016llx is not in the table", (unsigned long long)key);
    return hit;
}

static bool present(uint64_t key)
{
    struct tt_hit hit;
    return tt_probe(&table, key, &hit);
}

/* The stored entry of a key, found by its check word (tt.c: the key's low 48 bits). */
static struct tt_entry *entry_of(uint64_t key)
{
    for (size_t i = 0; i < table.nbuckets * TT_BUCKET; i++)
        if ((table.entries[i].check >> 16 ^ table.entries[i].data) << 16 == key << 16)
            return &table.entries[i];
    ck_abort_msg("key %016llx has no entry", (unsigned long long)key);
}

static uint64_t next_key(uint64_t *state)
{
    /* xorshift64: keys spread over every bucket, the same in every run. */
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

START_TEST(test_round_trip)
{
    const move_t moves[] = { MOVE_NONE, move_make(0, 90), move_make(45, 46) | MOVE_DOUBLE,
                             move_make(30, 41) | MOVE_EP, move_with_promo(move_make(49, 50), 1),
                             move_with_promo(move_make(254, 253), 11), move_make(7, 5) | MOVE_CASTLE,
                             move_with_fission(move_make(200, 3), 23) };
    const int scores[] = { 0, 1, -1, 37, -2500, 30000, -30000, SCORE_MATE - 1, -SCORE_MATE + 1, SCORE_INF };
    const int depths[] = { 0, 1, 7, MAX_PLY - 1, MAX_PLY };
    const int bounds[] = { BOUND_NONE, BOUND_UPPER, BOUND_LOWER, BOUND_EXACT };
    const int evals[] = { SCORE_NONE, 0, -1, 250, -SCORE_MATE_BOUND + 1, SCORE_MATE_BOUND - 1 };
    const size_t nm = sizeof moves / sizeof *moves, ns = sizeof scores / sizeof *scores;
    const size_t nd = sizeof depths / sizeof *depths, nb = sizeof bounds / sizeof *bounds;
    const size_t ne = sizeof evals / sizeof *evals;
    uint64_t state = 0x9e3779b97f4a7c15u;
    /* Every value of every field, in changing combinations. */
    for (size_t i = 0; i < nm * ns; i++) {
        uint64_t key = next_key(&state);
        move_t m = moves[i % nm];
        int score = scores[i % ns], depth = depths[i % nd], bound = bounds[i % nb], eval = evals[i % ne];
        tt_store(&table, key, m, score, depth, bound, eval);
        struct tt_hit hit = probe(key);
        ck_assert_uint_eq(hit.move, m);
        ck_assert_int_eq(hit.score, score);
        ck_assert_int_eq(hit.depth, depth);
        ck_assert_int_eq(hit.bound, bound);
        ck_assert_int_eq(hit.eval, eval);
    }
    ck_assert(!present(next_key(&state)));
}
END_TEST

START_TEST(test_mate_scores_follow_the_ply)
{
    /* Found at ply 5: mated 3 plies later is -(MATE - 8) from the root, -(MATE - 3) from the node. */
    ck_assert_int_eq(tt_score_to(-(SCORE_MATE - 8), 5), -(SCORE_MATE - 3));
    ck_assert_int_eq(tt_score_to(SCORE_MATE - 8, 5), SCORE_MATE - 3);
    /* The same node reached at ply 2 by a transposition: the mate is 5 plies from the root. */
    ck_assert_int_eq(tt_score_from(SCORE_MATE - 3, 2), SCORE_MATE - 5);
    ck_assert_int_eq(tt_score_from(-(SCORE_MATE - 3), 9), -(SCORE_MATE - 12));
    /* Scores short of a mate do not move; the bound itself counts as a mate. */
    ck_assert_int_eq(tt_score_to(1234, 7), 1234);
    ck_assert_int_eq(tt_score_from(-1234, 7), -1234);
    ck_assert_int_eq(tt_score_to(SCORE_MATE_BOUND - 1, 7), SCORE_MATE_BOUND - 1);
    ck_assert_int_eq(tt_score_to(SCORE_MATE_BOUND, 7), SCORE_MATE_BOUND + 7);
    ck_assert_int_eq(tt_score_from(-SCORE_MATE_BOUND, 7), -SCORE_MATE_BOUND + 7);
    /* Through the table: stored at ply 5, read at ply 2. */
    tt_store(&table, 42, move_make(1, 2), tt_score_to(SCORE_MATE - 8, 5), 4, BOUND_EXACT, SCORE_NONE);
    ck_assert_int_eq(tt_score_from(probe(42).score, 2), SCORE_MATE - 5);
    tt_store(&table, 43, MOVE_NONE, tt_score_to(-(SCORE_MATE - 9), 6), 0, BOUND_UPPER, SCORE_NONE);
    ck_assert_int_eq(tt_score_from(probe(43).score, 1), -(SCORE_MATE - 4));
}
END_TEST

START_TEST(test_torn_entry_is_a_miss)
{
    const uint64_t key = 0x0123456789abcdefu, other = 0xfedcba9876543210u;
    tt_store(&table, key, move_make(3, 4), 55, 6, BOUND_LOWER, SCORE_NONE);
    tt_store(&table, other, move_make(5, 6), 66, 7, BOUND_UPPER, SCORE_NONE);
    /* Another thread's half-finished write: data of one store, check word of another. */
    struct tt_entry *e = entry_of(key);
    e->data ^= 1ull << 30;
    ck_assert(!present(key));
    e->data ^= 1ull << 30;
    ck_assert_int_eq(probe(key).score, 55);
    e->check ^= 1ull << 16;
    ck_assert(!present(key));
    ck_assert_int_eq(probe(other).score, 66);
}
END_TEST

/* Fills one bucket with four keys of the given depths; checks that they all went into it. */
static void fill_bucket(size_t b, const int depths[TT_BUCKET])
{
    for (unsigned i = 0; i < TT_BUCKET; i++) {
        uint64_t key = bucket_key(b, i);
        tt_store(&table, key, move_make(1, 2 + i), 10 * (int)i, depths[i], BOUND_EXACT, SCORE_NONE);
        ck_assert_msg((size_t)(entry_of(key) - table.entries) / TT_BUCKET == b, "key %u left bucket %zu", i, b);
    }
}

START_TEST(test_replacement)
{
    const size_t b = 777;
    fill_bucket(b, (const int[]){ 8, 3, 9, 10 });
    /* A fifth key takes the shallowest entry's place. */
    tt_store(&table, bucket_key(b, 4), move_make(9, 9), 1, 1, BOUND_LOWER, SCORE_NONE);
    ck_assert(!present(bucket_key(b, 1)));
    ck_assert(present(bucket_key(b, 0)) && present(bucket_key(b, 2)) && present(bucket_key(b, 3)));
    ck_assert_int_eq(probe(bucket_key(b, 4)).depth, 1);
    /* The same key is overwritten whatever its depth; a store without a move keeps the old one. */
    tt_store(&table, bucket_key(b, 3), MOVE_NONE, -20, 2, BOUND_UPPER, SCORE_NONE);
    struct tt_hit hit = probe(bucket_key(b, 3));
    ck_assert_uint_eq(hit.move, move_make(1, 5));
    ck_assert_int_eq(hit.score, -20);
    ck_assert_int_eq(hit.depth, 2);
    ck_assert_int_eq(hit.bound, BOUND_UPPER);
    tt_store(&table, bucket_key(b, 3), move_make(7, 8), -20, 2, BOUND_UPPER, SCORE_NONE);
    ck_assert_uint_eq(probe(bucket_key(b, 3)).move, move_make(7, 8));
}
END_TEST

/* A store without an evaluation keeps the one the key's entry has; one with an evaluation replaces
 * it; a new key's entry starts without. */
START_TEST(test_evaluation_kept)
{
    const uint64_t key = 0x5555aaaa5555aaaau;
    tt_store(&table, key, MOVE_NONE, SCORE_NONE, -1, BOUND_NONE, -137);
    struct tt_hit hit = probe(key);
    ck_assert_int_eq(hit.eval, -137);
    ck_assert_int_eq(hit.bound, BOUND_NONE);
    ck_assert_uint_eq(hit.move, MOVE_NONE);
    tt_store(&table, key, move_make(3, 4), 12, 5, BOUND_LOWER, SCORE_NONE);
    hit = probe(key);
    ck_assert_int_eq(hit.eval, -137);
    ck_assert_int_eq(hit.score, 12);
    tt_store(&table, key, MOVE_NONE, 14, 6, BOUND_EXACT, 88);
    hit = probe(key);
    ck_assert_int_eq(hit.eval, 88);
    ck_assert_uint_eq(hit.move, move_make(3, 4));
    tt_store(&table, key + 1, MOVE_NONE, 0, 0, BOUND_UPPER, SCORE_NONE);
    ck_assert_int_eq(probe(key + 1).eval, SCORE_NONE);
}
END_TEST

START_TEST(test_replacement_prefers_old_searches)
{
    const size_t b = 4242;
    fill_bucket(b, (const int[]){ 6, 7, 8, 9 });
    tt_new_search(&table);
    for (unsigned i = 1; i < TT_BUCKET; i++)
        tt_store(&table, bucket_key(b, i), move_make(1, 2 + i), 0, 5, BOUND_EXACT, SCORE_NONE);
    /* Depth 6 from the last search goes before depth 5 from this one. */
    tt_store(&table, bucket_key(b, 4), move_make(9, 9), 1, 1, BOUND_LOWER, SCORE_NONE);
    ck_assert(!present(bucket_key(b, 0)));
    for (unsigned i = 1; i <= TT_BUCKET; i++)
        ck_assert(present(bucket_key(b, i)));
}
END_TEST

START_TEST(test_resize)
{
    tt_store(&table, 99, move_make(1, 2), 3, 4, BOUND_EXACT, SCORE_NONE);
    struct tt before = table;
    ck_assert(!tt_resize(&table, 0, 1));
    ck_assert(!tt_resize(&table, (size_t)TT_MAX_MB + 1, 1));
    ck_assert(!tt_resize(&table, SIZE_MAX, 1));
    /* A failed resize keeps the table and what it holds. */
    ck_assert_ptr_eq(table.entries, before.entries);
    ck_assert_uint_eq(table.nbuckets, before.nbuckets);
    ck_assert_uint_eq(table.mb, 1);
    ck_assert_int_eq(probe(99).score, 3);
    /* A successful one has the new size and starts empty. */
    ck_assert(tt_resize(&table, 2, 1));
    ck_assert_uint_eq(table.mb, 2);
    ck_assert_uint_eq(table.nbuckets * TT_BUCKET * sizeof *table.entries, 2u << 20);
    ck_assert(!present(99));
}
END_TEST

START_TEST(test_clear)
{
    tt_store(&table, 5, move_make(1, 2), 3, 4, BOUND_EXACT, SCORE_NONE);
    tt_new_search(&table);
    tt_store(&table, 6, move_make(1, 2), 3, 4, BOUND_EXACT, SCORE_NONE);
    tt_clear(&table, 1);
    ck_assert(!present(5) && !present(6));
    ck_assert_uint_eq(table.age, 0);
    ck_assert_int_eq(tt_hashfull(&table), 0);
}
END_TEST

/* Writes `per_bucket` keys into every bucket of the table. */
static void fill_table(unsigned per_bucket)
{
    for (size_t b = 0; b < table.nbuckets; b++)
        for (unsigned i = 0; i < per_bucket; i++)
            tt_store(&table, bucket_key(b, i), move_make(1, 2), 0, 3, BOUND_EXACT, SCORE_NONE);
}

/* Whether every word of the table is zero. */
static bool table_zero(void)
{
    for (size_t i = 0; i < table.nbuckets * TT_BUCKET; i++)
        if (atomic_load_explicit(&table.entries[i].check, memory_order_relaxed)
            || atomic_load_explicit(&table.entries[i].data, memory_order_relaxed))
            return false;
    return true;
}

/* Cleared by several threads, each a share: every entry is emptied, whatever the count (shares of
 * uneven length, more threads than shares, none asked, more than the limit). */
START_TEST(test_clear_in_parallel)
{
    static const int threads[] = { 2, 3, 7, 0, -1, TT_MAX_CLEAR_THREADS + 5 };
    for (size_t t = 0; t < sizeof threads / sizeof *threads; t++) {
        ck_assert(tt_resize(&table, t % 2 ? 37 : 64, threads[t]));
        ck_assert(table_zero());
        fill_table(1);
        tt_new_search(&table);
        tt_clear(&table, threads[t]);
        ck_assert_msg(table_zero(), "%d threads left entries behind", threads[t]);
        ck_assert_uint_eq(table.age, 0);
    }
}
END_TEST

START_TEST(test_hashfull)
{
    ck_assert_int_eq(tt_hashfull(&table), 0);
    fill_table(TT_BUCKET);
    ck_assert_int_eq(tt_hashfull(&table), 1000);
    /* Entries of an earlier search do not count... */
    tt_new_search(&table);
    ck_assert_int_eq(tt_hashfull(&table), 0);
    /* ... until this search writes them again. */
    fill_table(TT_BUCKET / 2);
    ck_assert_int_eq(tt_hashfull(&table), 500);
}
END_TEST

Suite *suite_tt(void)
{
    Suite *s = suite_create("tt");
    TCase *tc = tcase_create("table");
    tcase_add_checked_fixture(tc, table_create, table_destroy);
    tcase_set_timeout(tc, test_timeout(10));
    tcase_add_test(tc, test_round_trip);
    tcase_add_test(tc, test_mate_scores_follow_the_ply);
    tcase_add_test(tc, test_torn_entry_is_a_miss);
    tcase_add_test(tc, test_replacement);
    tcase_add_test(tc, test_replacement_prefers_old_searches);
    tcase_add_test(tc, test_evaluation_kept);
    tcase_add_test(tc, test_resize);
    tcase_add_test(tc, test_clear);
    tcase_add_test(tc, test_clear_in_parallel);
    tcase_add_test(tc, test_hashfull);
    suite_add_tcase(s, tc);
    return s;
}
