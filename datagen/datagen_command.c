/* `sennight datagen`: options to a run and its summary, or a file's records as text (--dump). */
#include "datagen_command.h"

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../engine/engine.h"
#include "../rules/registry.h"
#include "../util/args.h"
#include "../util/shard.h"
#include "datagen.h"
#include "features.h"
#include "../games/datagen_format.h"

enum { ERR_LEN = 4096, FEN_LEN = 1024 };

const char datagen_usage[] =
    "usage: sennight datagen --variant NAME --out FILE [--games 100] [--nodes 2500] [--concurrency 1] [--seed 1]\n"
    "                        [--shard K/N] [--random-plies 4] [--hash 1] [--openings FILE] [--variant-file FILE]\n"
    "       sennight datagen --dump FILE [--variant-file FILE]\n"
    "       sennight datagen --features FILE --out FILE [--variant-file FILE]\n";

struct args {
    const char *variant, *variant_file, *out, *openings, *dump, *shard, *features;
    long long games, nodes, concurrency, seed, random_plies, hash;
};

static const struct arg_option options[] = {
    ARG("--variant", ARG_TEXT, struct args, variant),
    ARG("--variant-file", ARG_TEXT, struct args, variant_file),
    ARG("--out", ARG_TEXT, struct args, out),
    ARG("--openings", ARG_TEXT, struct args, openings),
    ARG("--dump", ARG_TEXT, struct args, dump),
    ARG("--features", ARG_TEXT, struct args, features),
    ARG("--shard", ARG_TEXT, struct args, shard),
    ARG("--games", ARG_LONG, struct args, games, .lo = 1, .hi = 1000000000),
    ARG("--nodes", ARG_LONG, struct args, nodes, .lo = 100, .hi = 1000000000),
    ARG("--concurrency", ARG_LONG, struct args, concurrency, .lo = 1, .hi = DATAGEN_MAX_CONCURRENCY),
    ARG("--seed", ARG_LONG, struct args, seed, .lo = 0, .hi = LLONG_MAX),
    ARG("--random-plies", ARG_LONG, struct args, random_plies, .lo = 0, .hi = 100),
    ARG("--hash", ARG_LONG, struct args, hash, .lo = 1, .hi = 65536),
};
static const struct arg_table table = ARG_TABLE(options, false, 0);

static bool parse_args(struct args *a, int argc, char **argv, char *err, size_t errlen)
{
    *a = (struct args){ .games = 100, .nodes = 2500, .concurrency = 1, .seed = 1, .random_plies = 4, .hash = 1 };
    if (!args_parse(&table, a, 0, argc, argv, NULL, err, errlen))
        return false;
    if (a->features && (a->variant || a->dump || !a->out))
        snprintf(err, errlen, "--features takes --out and no --variant or --dump");
    else if (!a->dump && !a->features && (!a->variant || !a->out))
        snprintf(err, errlen, "--variant and --out are needed");
    else if (a->dump && (a->variant || a->out))
        snprintf(err, errlen, "--dump takes no --variant or --out");
    else
        return true;
    return false;
}

/* One line per record: the FEN, the move, the score, the ply, the mover's result, each army's points and
 * place. */
static int dump(const char *path)
{
    struct datagen_reader rd;
    struct datagen_record r;
    char err[ERR_LEN], fen[FEN_LEN], move[8];
    int got;
    if (!datagen_open(&rd, path, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    while ((got = datagen_next(&rd, &r, err, sizeof err)) > 0) {
        setup_to_fen(&r.s, r.v, fen, sizeof fen);
        move_to_text(r.v, r.move, move);
        printf("%s; variant %s; move %s; score %d; ply %d; wdl %d; points", fen, r.v->name, move, r.score, r.ply,
               r.wdl);
        for (int p = 0; p < r.v->nplayers; p++)
            printf(" %c %d/%d", r.v->colour_letter[p], r.points[p], r.den);
        printf("; place");
        for (int p = 0; p < r.v->nplayers; p++)
            printf(" %c %d", r.v->colour_letter[p], r.place[p]);
        printf("\n");
    }
    datagen_close(&rd);
    if (got < 0)
        fprintf(stderr, "%s\n", err);
    return got < 0;
}

/* The trainer's feature file of a datagen file (docs/nnue.md). */
static int features(const char *in, const char *out)
{
    struct features_stats st;
    char err[ERR_LEN];
    if (!features_convert(in, out, &st, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    fprintf(stderr, "%s: %llu positions, %d feature slots per perspective (%llu records of other variants left out)\n",
            out, (unsigned long long)st.records, st.slots, (unsigned long long)st.skipped);
    return 0;
}

int datagen_main(int argc, char **argv)
{
    struct args a;
    struct datagen_options o = { .adj = datagen_adjudication, .progress = stderr, .shard = 1, .nshards = 1 };
    struct datagen_stats st;
    char err[ERR_LEN];
    if (!parse_args(&a, argc, argv, err, sizeof err)
        || (a.shard && !shard_parse(a.shard, "--shard", &o.shard, &o.nshards, err, sizeof err))) {
        fprintf(stderr, "%s\n%s", err, datagen_usage);
        return 2;
    }
    if (!registry_init(err, sizeof err)
        || (a.variant_file && registry_add_file(a.variant_file, false, game_validate_variant, err, sizeof err) < 0)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    if (a.dump)
        return dump(a.dump);
    if (a.features)
        return features(a.features, a.out);
    if (!(o.v = registry_find(a.variant))) {
        fprintf(stderr, "unknown variant '%s'\n", a.variant);
        return 1;
    }
    o.openings = a.openings;
    o.games = (uint64_t)a.games;
    o.nodes = (uint64_t)a.nodes;
    o.seed = (uint64_t)a.seed;
    o.concurrency = (int)a.concurrency;
    o.random_plies = (int)a.random_plies;
    o.hash_mb = (size_t)a.hash;
    if (!datagen_run(a.out, &o, &st, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    fprintf(stderr, "%s: %llu positions from %llu games (%llu plies searched, %llu quiet positions with too many "
            "pieces left out), %.1f s\n", a.out, (unsigned long long)st.positions, (unsigned long long)st.games,
            (unsigned long long)st.plies, (unsigned long long)st.crowded, (double)st.ms / 1000);
    return 0;
}
