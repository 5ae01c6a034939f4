/* The test runner: every suite, one Check runner; exits non-zero on any failure. */
#include <stdlib.h>

#include "tests.h"

int main(void)
{
    engine_init();
    Suite *(*const suites[])(void) = {
        suite_geometry, suite_variant, suite_fen, suite_perft, suite_game, suite_reference, suite_protocol,
        suite_stats, suite_match, suite_play, suite_tt, suite_search, suite_books, suite_bench, suite_gui,
        suite_datagen,
    };
    SRunner *runner = srunner_create(NULL);
    for (size_t i = 0; i < sizeof suites / sizeof *suites; i++)
        srunner_add_suite(runner, suites[i]());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
