/* The test runner: every suite, the suites named as arguments, or with --except all but those, in
 * one Check runner; exits non-zero on any failure or unknown suite name. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"

static const struct {
    const char *name;   /* as the suite names itself */
    Suite *(*make)(void);
} suites[] = {
    { "geometry", suite_geometry },
    { "variant", suite_variant },
    { "fen", suite_fen },
    { "perft", suite_perft },
    { "game", suite_game },
    { "san", suite_san },
    { "reference", suite_reference },
    { "reference-games", suite_reference_games },
    { "reference-placements", suite_reference_placements },
    { "protocol", suite_protocol },
    { "stats", suite_stats },
    { "match", suite_match },
    { "play", suite_play },
    { "tt", suite_tt },
    { "search", suite_search },
    { "books", suite_books },
    { "bench", suite_bench },
    { "gui", suite_gui },
    { "seats", suite_seats },
    { "tree", suite_tree },
    { "datagen", suite_datagen },
    { "tune", suite_tune },
    { "docs", suite_docs },
    { "nnue", suite_nnue },
    { "args", suite_args },
};
enum { NSUITES = sizeof suites / sizeof *suites };

static int suite_index(const char *name)
{
    for (int i = 0; i < NSUITES; i++)
        if (!strcmp(suites[i].name, name))
            return i;
    return -1;
}

int main(int argc, char **argv)
{
    engine_init();
    bool except = argc > 1 && !strcmp(argv[1], "--except");
    /* make test runs groups of suites as separate processes (docs/architecture.md). */
    bool chosen[NSUITES];
    for (int i = 0; i < NSUITES; i++)
        chosen[i] = argc == 1 || except;
    for (int a = 1 + except; a < argc; a++) {
        int i = suite_index(argv[a]);
        if (i < 0) {
            fprintf(stderr, "run_tests: no suite named '%s'\n", argv[a]);
            return EXIT_FAILURE;
        }
        chosen[i] = !except;
    }
    /* Cases without a timeout of their own get Check's default (4 s) scaled as the others are, so a
     * sanitizer build on a loaded machine does not time out where it is only slow. */
    if (!getenv("CK_DEFAULT_TIMEOUT")) {
        char timeout[32];
        snprintf(timeout, sizeof timeout, "%g", test_timeout(4));
        setenv("CK_DEFAULT_TIMEOUT", timeout, 1);
    }
    SRunner *runner = srunner_create(NULL);
    for (int i = 0; i < NSUITES; i++)
        if (chosen[i])
            srunner_add_suite(runner, suites[i].make());
    srunner_run_all(runner, CK_NORMAL);
    if (test_skipped())
        printf("Skipped: %d (did not run: the reasons are above)\n", test_skipped());
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
