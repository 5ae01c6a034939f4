/* sennight: a UCI engine for hexagonal chess variants. */
#include <stdio.h>
#include <string.h>

#include "../bench/bench.h"
#include "../match/match.h"
#include "../bench/perft_speed.h"
#include "../books/cli.h"
#include "../datagen/cli.h"
#include "../engine/game.h"
#include "../gui/gui.h"
#include "../rules/registry.h"
#include "terminal_play.h"
#include "../protocol/uci.h"

int main(int argc, char **argv)
{
    char err[4096];
    engine_init();
    registry_set_validator(game_validate_variant);
    if (argc > 1 && !strcmp(argv[1], "bench"))
        return bench_main(argc - 2, argv + 2);
    if (argc > 1 && !strcmp(argv[1], "match"))
        return match_main(argc - 2, argv + 2);
    if (argc > 1 && !strcmp(argv[1], "book"))
        return book_main(argc - 2, argv + 2);
    if (argc > 1 && !strcmp(argv[1], "datagen"))
        return datagen_main(argc - 2, argv + 2);
    if (argc > 1 && !strcmp(argv[1], "gui"))
        return gui_main(argc - 2, argv + 2);
    if (argc > 1 && !strcmp(argv[1], "play"))
        return play_main(argc - 2, argv + 2);
    if (argc > 1 && !strcmp(argv[1], "perft-speed"))
        return perft_speed(argc - 2, argv + 2);
    if (argc > 1 && !strcmp(argv[1], "check")) {
        if (argc != 3 || !registry_init(err, sizeof err)) {
            fprintf(stderr, "usage: sennight check <variant file>\n");
            return 2;
        }
        int n = registry_add_file(argv[2], true, err, sizeof err);
        if (n < 0) {
            fprintf(stderr, "%s\n", err);
            return 1;
        }
        printf("%s: %d variant%s, no errors\n", argv[2], n, n == 1 ? "" : "s");
        return 0;
    }
    if (argc > 1) {
        fprintf(stderr, "usage: sennight [play [options] | bench [depth] [threads] [hash] | match <arguments> | "
                        "book build|show|merge <arguments> | datagen <arguments> | gui [options] | perft-speed [seconds] | check <file>]\n");
        return 2;
    }
    return uci_loop(stdin);
}
