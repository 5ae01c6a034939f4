/* sennight: a UCI engine for hexagonal chess variants. */
#include <stdio.h>
#include <string.h>

#include "../bench/bench.h"
#include "../match/match.h"
#include "../bench/perft_speed.h"
#include "../books/cli.h"
#include "../datagen/cli.h"
#include "../tune/cli.h"
#include "../engine/game.h"
#include "../gui/gui.h"
#include "../rules/registry.h"
#include "../util/version.h"
#include "terminal_play.h"
#include "../protocol/uci.h"

static const char usage[] =
    "usage: sennight [play [options] | bench [depth] [threads] [hash] | match <arguments> |\n"
    "                 book build|show|merge|openings <arguments> | datagen <arguments> | tune <arguments> | gui [options] |\n"
    "                 perft-speed [seconds] | check <file> | variants | --version | --help]\n"
    "Without arguments: the UCI protocol on standard input and output (docs/protocol.md).\n";

static int check_main(int argc, char **argv)
{
    char err[4096];
    if (argc != 1 || !registry_init(err, sizeof err)) {
        fprintf(stderr, "usage: sennight check <variant file>\n");
        return 2;
    }
    int n = registry_add_file(argv[0], true, err, sizeof err);
    if (n < 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    printf("%s: %d variant%s, no errors\n", argv[0], n, n == 1 ? "" : "s");
    return 0;
}

static int variants_main(int argc, char **argv)
{
    (void)argv;
    char err[4096];
    if (argc) {
        fprintf(stderr, "usage: sennight variants\n");
        return 2;
    }
    if (!registry_init(err, sizeof err)) {
        fprintf(stderr, "sennight: %s\n", err);
        return 1;
    }
    uci_variants();
    return 0;
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*run)(int argc, char **argv);
    } commands[] = {
        { "bench", bench_main },   { "match", match_main }, { "book", book_main },
        { "datagen", datagen_main }, { "tune", tune_main }, { "gui", gui_main },   { "play", play_main },   { "perft-speed", perft_speed },
        { "check", check_main },   { "variants", variants_main },
    };
    engine_init();
    registry_set_validator(game_validate_variant);
    if (argc == 1)
        return uci_loop(stdin);
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 2, argv + 2);
    if (argc == 2 && !strcmp(argv[1], "--version")) {
        printf("Sennight %s\n", sennight_version);
        return 0;
    }
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        fputs(usage, stdout);
        return 0;
    }
    fprintf(stderr, "sennight: unknown command '%s'\n%s", argv[1], usage);
    return 2;
}
