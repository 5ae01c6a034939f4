/* The Check suites of the one test runner (tests/test_main.c). */
#ifndef TESTS_H
#define TESTS_H

#include <check.h>

/* Check's ck_assert_msg (under every ck_assert_*) records each passing assertion's line with a write(2)
 * to its message file, so that a crash can name the last line reached: millions of system calls in the
 * suites' loops, a third of their time. Here a passing assertion costs nothing; a crash is still named
 * by its signal and, in the sanitizer build, by its stack trace. */
#undef ck_assert_msg
#define ck_assert_msg(expr, ...)                                                                                       \
    ((expr) ? (void)0 : _ck_assert_failed(__FILE__, __LINE__, "Assertion '" #expr "' failed", ##__VA_ARGS__))

#include "../engine/engine.h"
#include "../engine/instance.h"

Suite *suite_geometry(void);
Suite *suite_variant(void);
Suite *suite_fen(void);
Suite *suite_perft(void);
Suite *suite_game(void);
Suite *suite_san(void);
Suite *suite_reference(void);
Suite *suite_reference_games(void);
Suite *suite_reference_placements(void);
Suite *suite_protocol(void);
Suite *suite_stats(void);
Suite *suite_match(void);
Suite *suite_play(void);
Suite *suite_tt(void);
Suite *suite_search(void);
Suite *suite_books(void);
Suite *suite_bench(void);
Suite *suite_gui(void);
Suite *suite_seats(void);
Suite *suite_tree(void);
/* The game review's case of the gui suite (tests/test_review.c). */
TCase *tcase_review(void);
Suite *suite_datagen(void);
Suite *suite_tune(void);
Suite *suite_docs(void);
Suite *suite_nnue(void);
Suite *suite_args(void);

/* Helpers shared by the suites (tests/test_util.c). */
/* The registry with the built-in variants and those of docs/examples; false (with err) on failure. */
bool test_registry_init(char *err, size_t errlen);
const struct variant *test_variant(const char *name);
/* A game of the variant at the FEN (NULL: start); wide selects the 256-bit instance. */
void test_game(struct game *g, const char *variant, const char *fen, bool wide);
/* Whether only the 256-bit instance holds the variant's board (169 and 217 cells): the narrow and
 * wide runs of a test are then the same, and the reference's work per position is the largest. */
bool test_wide_only(const struct variant *v);
/* The search's lists (movegen_pseudo, movegen_pseudo_noisy) at the game's position, their flagged moves
 * tested late (counted in seen[0], the refused ones in seen[1]): fails unless they are the legal lists,
 * out of check the noisy one too, as sets. */
void test_search_lists(const struct game *g, int seen[2]);
/* Random games (the seed's) of up to `plies` in every variant and each width that holds its board,
 * visit called at each position with its legal moves. */
void test_walk_games(uint64_t seed, int plies, void (*visit)(struct game *g, const move_t *list, int n, void *ctx),
                       void *ctx);
/* Adds the test to the case, or where it cannot run (why_not: the reason; NULL where it can) leaves it
 * out and prints "skipped: <test>: <reason>": Check has no skipped status, and a test that returned
 * early would count as passed. run_tests ends with the number skipped (test_skipped). */
void test_add_unless(TCase *tc, const TTest *test, const char *why_not);
int test_skipped(void);
/* The file's bytes (a 0 byte after them; the caller frees them), *len their count; fails the test if unreadable. */
unsigned char *test_file_read(const char *path, size_t *len);
/* Seconds a test case may take, scaled up under the sanitizers. */
double test_timeout(double seconds);
/* TEST_SAMPLE=k: the long random walks look at one position in k of those they meet (1 unless set).
 * The sanitizer builds set it: they look for memory errors, which a share of the positions finds as
 * well, while the optimised build checks every position. Thresholds on counts divide by it. */
int test_sample(void);
/* A directory of its own under /tmp for a test case's files (dir[0] is 0 if it cannot be made), and
 * its removal with the files in it. */
enum { TEST_DIR_LEN = 64 };
void test_dir_make(char dir[TEST_DIR_LEN], const char *name);
void test_dir_remove(char dir[TEST_DIR_LEN]);

#endif
