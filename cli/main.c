/* sennight: a UCI engine for hexagonal chess variants. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../bench/bench.h"
#include "../match/match.h"
#include "../bench/perft_speed.h"
#include "../books/book_command.h"
#include "../datagen/datagen_command.h"
#include "../tune/tune_command.h"
#include "../engine/engine.h"
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

static const char check_usage[] = "usage: sennight check <variant file>\n";
static const char variants_usage[] = "usage: sennight variants\n";

static int check_main(int argc, char **argv)
{
    char err[4096];
    if (argc != 1 || !registry_init(err, sizeof err)) {
        fputs(check_usage, stderr);
        return 2;
    }
    int n = registry_add_file(argv[0], true, game_validate_variant, err, sizeof err);
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
        fputs(variants_usage, stderr);
        return 2;
    }
    if (!registry_init(err, sizeof err)) {
        fprintf(stderr, "sennight: %s\n", err);
        return 1;
    }
    uci_variants();
    return 0;
}

static bool help_asked(const char *arg)
{
    return !strcmp(arg, "--help") || !strcmp(arg, "-h");
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*run)(int argc, char **argv);
        const char *usage;
    } commands[] = {
        { "bench", bench_main, bench_usage },       { "match", match_main, match_usage },
        { "book", book_main, book_usage },          { "datagen", datagen_main, datagen_usage },
        { "tune", tune_main, tune_usage },          { "gui", gui_main, gui_usage },
        { "play", play_main, play_usage },          { "perft-speed", perft_speed, perft_speed_usage },
        { "check", check_main, check_usage },       { "variants", variants_main, variants_usage },
    };
    engine_init();
    if (argc == 1)
        return uci_loop(stdin);
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        if (strcmp(argv[1], commands[i].name))
            continue;
        /* `sennight <command> --help`: the command's usage on stdout, a success. */
        if (argc == 3 && help_asked(argv[2])) {
            fputs(commands[i].usage, stdout);
            return 0;
        }
        return commands[i].run(argc - 2, argv + 2);
    }
    if (argc == 2 && !strcmp(argv[1], "--version")) {
        printf("Sennight %s\n", sennight_version);
        return 0;
    }
    if (argc == 2 && help_asked(argv[1])) {
        fputs(usage, stdout);
        return 0;
    }
    fprintf(stderr, "sennight: unknown command '%s'\n%s", argv[1], usage);
    return 2;
}
