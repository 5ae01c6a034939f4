/* `sennight book build|show|merge|openings`: the command line of the book tools (docs/books.md). */
#include "book_command.h"

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../engine/engine.h"
#include "../rules/registry.h"
#include "build.h"
#include "../util/args.h"
#include "../util/file.h"
#include "suite.h"

enum { BUILD = 1, SHOW = 2, MERGE = 4, OPENINGS = 8, MAX_WORDS = 64, ERR_LEN = 4096 };

const char book_usage[] =
    "usage: sennight book build --variant NAME --out FILE --games FILE [--games FILE ...] [--max-ply N] [--min-games N]\n"
    "       sennight book build --variant NAME --out FILE --expand --plies N --margin CP (--nodes N | --depth N)\n"
    "                           [--width N] [--hash MB] [--fen FEN]\n"
    "       sennight book show [--variant NAME] BOOK [startpos | FEN]\n"
    "       sennight book merge BOOK BOOK --out FILE\n"
    "       sennight book openings --variant NAME --out FILE --nodes N [--count 300] [--min-plies 4] [--max-plies 8]\n"
    "                              [--max-score 50] [--seed 1] [--hash MB]\n"
    "       any of them: [--variant-file FILE] to load user variants first\n";

struct args {
    int command;
    uint64_t given;                /* bit k: options[k] was given */
    const char *variant, *variant_file, *out, *fen;
    const char *games[MAX_WORDS];
    int ngames;
    bool expand;
    long long max_ply, min_games, plies, margin, width, depth, nodes, hash;
    long long count, min_plies, max_plies, max_score, seed;
    struct arg_words words;        /* the arguments that are not options */
};

/* Each option's commands (modes), and the way of building it belongs to. */
static const struct arg_option options[] = {
    ARG("--variant", ARG_TEXT, struct args, variant, .modes = BUILD | SHOW | OPENINGS),
    ARG("--variant-file", ARG_TEXT, struct args, variant_file, .modes = BUILD | SHOW | MERGE | OPENINGS),
    ARG("--out", ARG_TEXT, struct args, out, .modes = BUILD | MERGE | OPENINGS),
    ARG("--games", ARG_TEXT, struct args, games, .repeat = MAX_WORDS, .count_at = offsetof(struct args, ngames),
        .modes = BUILD),
    ARG("--max-ply", ARG_LONG, struct args, max_ply, .lo = 1, .hi = 10000, .modes = BUILD),
    ARG("--min-games", ARG_LONG, struct args, min_games, .lo = 1, .hi = UINT32_MAX, .modes = BUILD),
    ARG("--expand", ARG_SET, struct args, expand, .lo = 1, .modes = BUILD),
    ARG("--plies", ARG_LONG, struct args, plies, .lo = 1, .hi = 100, .modes = BUILD),
    ARG("--margin", ARG_LONG, struct args, margin, .lo = 0, .hi = 100000, .modes = BUILD),
    ARG("--width", ARG_LONG, struct args, width, .lo = 1, .hi = MAX_MULTIPV, .modes = BUILD),
    ARG("--depth", ARG_LONG, struct args, depth, .lo = 1, .hi = MAX_PLY - 1, .modes = BUILD),
    ARG("--nodes", ARG_LONG, struct args, nodes, .lo = 1, .hi = 1000000000000LL, .modes = BUILD | OPENINGS),
    ARG("--hash", ARG_LONG, struct args, hash, .lo = 1, .hi = 65536, .modes = BUILD | OPENINGS),
    ARG("--fen", ARG_TEXT, struct args, fen, .modes = BUILD),
    ARG("--count", ARG_LONG, struct args, count, .lo = 1, .hi = 1000000, .modes = OPENINGS),
    ARG("--min-plies", ARG_LONG, struct args, min_plies, .lo = 1, .hi = 100, .modes = OPENINGS),
    ARG("--max-plies", ARG_LONG, struct args, max_plies, .lo = 1, .hi = 100, .modes = OPENINGS),
    ARG("--max-score", ARG_LONG, struct args, max_score, .lo = 0, .hi = 100000, .modes = OPENINGS),
    ARG("--seed", ARG_LONG, struct args, seed, .lo = 0, .hi = LLONG_MAX, .modes = OPENINGS),
};
static const struct arg_table table = ARG_TABLE(options, true, offsetof(struct args, words));

/* The options that belong to one way of building (book build --games or --expand). */
static const char *const games_only[] = { "--games", "--max-ply", "--min-games" };
static const char *const expand_only[] = { "--expand", "--plies", "--margin", "--width", "--depth", "--nodes", "--hash",
                                           "--fen" };

static bool parse_args(struct args *a, int argc, char **argv, char *err, size_t errlen)
{
    static const char *const commands[] = { "build", "show", "merge", "openings" };
    *a = (struct args){ .max_ply = 30, .min_games = 3, .width = 4, .hash = 4, .count = 300, .min_plies = 4,
                        .max_plies = 8, .max_score = 50, .seed = 1 };
    for (int c = 0; c < 4 && argc > 0; c++)
        if (!strcmp(argv[0], commands[c]))
            a->command = 1 << c;
    if (!a->command) {
        snprintf(err, errlen, "build, show, merge or openings is expected");
        return false;
    }
    return args_parse(&table, a, (unsigned)a->command, argc - 1, argv + 1, &a->given, err, errlen);
}

/* The build arguments make sense together: one way of building, and what it needs. */
static bool check_build(const struct args *a, char *err, size_t errlen)
{
    if (a->words.n) {
        snprintf(err, errlen, "unexpected '%s'", a->words.word[0]);
        return false;
    }
    if (!a->variant || !a->out || !a->ngames == !a->expand) {
        snprintf(err, errlen, "--variant, --out, and either --games or --expand are needed");
        return false;
    }
    const char *const *other = a->ngames ? expand_only : games_only;
    size_t nother = a->ngames ? sizeof expand_only / sizeof *expand_only : sizeof games_only / sizeof *games_only;
    for (size_t i = 0; i < nother; i++)
        if (args_given(&table, a->given, other[i])) {
            snprintf(err, errlen, "%s goes with %s", other[i], a->ngames ? "--expand" : "--games");
            return false;
        }
    if (!a->ngames && (!args_given(&table, a->given, "--plies") || !args_given(&table, a->given, "--margin")
                       || !(a->depth || a->nodes))) {
        snprintf(err, errlen, "--expand needs --plies, --margin, and --nodes or --depth");
        return false;
    }
    return true;
}

/* The opening-suite arguments: what the generator needs, the plies in order. */
static bool check_openings(const struct args *a, char *err, size_t errlen)
{
    if (a->words.n)
        snprintf(err, errlen, "unexpected '%s'", a->words.word[0]);
    else if (!a->variant || !a->out || !a->nodes)
        snprintf(err, errlen, "openings needs --variant, --out and --nodes");
    else if (a->min_plies > a->max_plies)
        snprintf(err, errlen, "--min-plies %lld is more than --max-plies %lld", a->min_plies, a->max_plies);
    else
        return true;
    return false;
}

static size_t count_positions(const struct book_entries *l)
{
    size_t n = 0;
    for (size_t i = 0; i < l->n; i++)
        n += !i || l->e[i].key != l->e[i - 1].key;
    return n;
}

static int build(const struct args *a, const struct variant *v, char *err, size_t errlen)
{
    struct book_entries l = { 0 };
    bool ok = true;
    char summary[512] = "";
    if (a->ngames) {
        struct games_stats st = { 0 };
        for (int i = 0; ok && i < a->ngames; i++)
            ok = book_add_games(&l, v, a->games[i], (int)a->max_ply, &st, err, errlen);
        size_t rare = ok ? book_drop_rare(&l, (uint32_t)a->min_games) : 0;
        snprintf(summary, sizeof summary, "from %d of %d games (%d of other variants, %d unscored); %zu moves played "
                 "fewer than %lld times left out", st.used, st.games, st.other_variant, st.unscored, rare, a->min_games);
    } else {
        struct expand_options o = { a->fen, (int)a->plies, (int)a->margin, (int)a->width, (int)a->depth,
                                    (uint64_t)a->nodes, (size_t)a->hash };
        struct expand_stats st;
        ok = book_expand(&l, v, &o, stderr, &st, err, errlen);
        snprintf(summary, sizeof summary, "%zu positions searched, %zu of them without a completed iteration",
                 st.positions, st.unresolved);
    }
    ok = ok && book_write(a->out, v, &l, err, errlen);
    if (ok)
        printf("%s: %zu entries, %zu positions, variant %s; %s\n", a->out, l.n, count_positions(&l), v->name, summary);
    book_entries_free(&l);
    return ok ? 0 : 1;
}

/* The position's entries that are legal there, with each one's share of the total weight. */
static int show(const struct args *a, const struct variant *v, char *err, size_t errlen)
{
    struct book b;
    struct game g = { 0 };
    struct book_move m[MAX_MOVES];
    char fen[4096] = "", text[16];
    for (int i = 1; i < a->words.n; i++)
        snprintf(fen + strlen(fen), sizeof fen - strlen(fen), "%s%s", i > 1 ? " " : "", a->words.word[i]);
    bool start = a->words.n < 2 || !strcmp(fen, "startpos");
    if (!a->words.n) {
        snprintf(err, errlen, "which book?");
        return 2;
    }
    if (!book_open(&b, a->words.word[0], v, err, errlen))
        return 1;
    bool ok = game_init(&g, b.v, false, err, errlen) && game_set_position(&g, start ? NULL : fen, NULL, 0, err, errlen);
    if (ok) {
        int skipped, n = book_probe(&b, &g, m, &skipped);
        uint64_t total = 0;
        game_fen(&g, fen, sizeof fen);
        printf("%s: variant %s, %zu entries, %zu positions\n", a->words.word[0], b.v->name, b.n, b.npositions);
        printf("%s (key %016llx)%s\n", fen, (unsigned long long)game_key(&g), n ? ":" : ": not in the book");
        for (int i = 0; i < n; i++)
            total += m[i].weight;
        for (int i = 0; i < n; i++) {
            move_to_text(b.v, m[i].move, text);
            double share = total ? 100.0 * m[i].weight / (double)total : 0.0;
            printf("  %-8s weight %10u  %5.1f%%  learn %u\n", text, m[i].weight, share, m[i].learn);
        }
        if (skipped)
            printf("  (%d entries for this key are not legal moves here: a key collision)\n", skipped);
    }
    game_free(&g);
    book_close(&b);
    return ok ? 0 : 1;
}

static bool write_text(FILE *f, const void *ctx)
{
    const char *text = ctx;
    return fputs(text, f) >= 0;
}

/* An opening suite: the positions go to the file, the counts to stdout. */
static int openings(const struct args *a, const struct variant *v, char *err, size_t errlen)
{
    struct suite_options o = { (int)a->count, (int)a->min_plies, (int)a->max_plies, (int)a->max_score,
                               (uint64_t)a->nodes, (uint64_t)a->seed, (size_t)a->hash };
    struct suite_stats st;
    struct text epd = { 0 };
    bool ok = suite_generate(v, &o, &epd, &st, err, errlen) && file_replace(a->out, write_text, text_str(&epd), err, errlen);
    if (ok)
        printf("%s: %d positions, variant %s; from %zu random games: %zu over or in check, %zu repeated, %zu "
               "unbalanced\n", a->out, o.count, v->name, st.candidates, st.ended, st.repeated, st.unbalanced);
    text_free(&epd);
    return ok ? 0 : 1;
}

/* Both books' entries in one: the weights and learn fields of a move in both are summed. */
static int merge(const struct args *a, char *err, size_t errlen)
{
    struct book in[2] = { 0 };
    struct book_entries l = { 0 };
    if (a->words.n != 2 || !a->out) {
        snprintf(err, errlen, "two books and --out are needed");
        return 2;
    }
    bool ok = book_open(&in[0], a->words.word[0], NULL, err, errlen) && book_open(&in[1], a->words.word[1], in[0].v, err, errlen);
    for (int k = 0; k < 2 && ok; k++)
        for (size_t i = 0; ok && i < in[k].n; i++)
            if (!(ok = book_entries_add(&l, &in[k].e[i])))
                snprintf(err, errlen, "out of memory");
    ok = ok && book_write(a->out, in[0].v, &l, err, errlen);
    if (ok)
        printf("%s: %zu entries, %zu positions, variant %s (from %zu and %zu entries)\n", a->out, l.n,
               count_positions(&l), in[0].v->name, in[0].n, in[1].n);
    book_entries_free(&l);
    book_close(&in[0]);
    book_close(&in[1]);
    return ok ? 0 : 1;
}

int book_main(int argc, char **argv)
{
    struct args a;
    char err[ERR_LEN];
    const struct variant *v = NULL;
    if (!parse_args(&a, argc, argv, err, sizeof err) || (a.command == BUILD && !check_build(&a, err, sizeof err))
        || (a.command == OPENINGS && !check_openings(&a, err, sizeof err))) {
        fprintf(stderr, "sennight book: %s\n%s", err, book_usage);
        return 2;
    }
    int status = 1;
    bool loaded = registry_init(err, sizeof err)
               && (!a.variant_file
                   || registry_add_file(a.variant_file, false, game_validate_variant, err, sizeof err) >= 0);
    if (loaded) {
        if (a.variant && !(v = registry_find(a.variant)))
            snprintf(err, sizeof err, "unknown variant '%s'", a.variant);
        else
            status = a.command == BUILD    ? build(&a, v, err, sizeof err)
                   : a.command == SHOW     ? show(&a, v, err, sizeof err)
                   : a.command == OPENINGS ? openings(&a, v, err, sizeof err)
                                           : merge(&a, err, sizeof err);
    }
    if (status)
        fprintf(stderr, "sennight book: %s\n%s", err, status == 2 ? book_usage : "");
    return status;
}
