/* `sennight tune`: reads datagen files, fits the weights, writes a weights file and a report. */
#include "tune_command.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../rules/registry.h"
#include "../util/file.h"
#include "../util/args.h"
#include "tune.h"

enum { ERR_LEN = 4096, MAX_DATA = 64 };

const char tune_usage[] =
    "usage: sennight tune --variant NAME --data FILE [--data FILE]... --out FILE [--weights FILE]\n"
    "                     [--lambda 0.5] [--epochs 400] [--lr 1] [--batch 0] [--k 0] [--threads 1] [--seed 1]\n";

struct args {
    const char *variant, *out, *weights, *data[MAX_DATA];
    int ndata;
    double lambda, lr, k;
    long long epochs, threads, batch, seed;
};

static const struct arg_option options[] = {
    ARG("--variant", ARG_TEXT, struct args, variant),
    ARG("--out", ARG_TEXT, struct args, out),
    ARG("--weights", ARG_TEXT, struct args, weights),
    ARG("--data", ARG_TEXT, struct args, data, .repeat = MAX_DATA, .count_at = offsetof(struct args, ndata)),
    ARG("--lambda", ARG_REAL, struct args, lambda, .rlo = 0, .rhi = 1),
    ARG("--lr", ARG_REAL, struct args, lr, .rlo = 1e-6, .rhi = 1000),
    ARG("--k", ARG_REAL, struct args, k, .rlo = 0, .rhi = 100),
    ARG("--epochs", ARG_LONG, struct args, epochs, .lo = 0, .hi = 1000000),
    ARG("--threads", ARG_LONG, struct args, threads, .lo = 1, .hi = 64),
    ARG("--batch", ARG_LONG, struct args, batch, .lo = 0, .hi = 1000000000),
    ARG("--seed", ARG_LONG, struct args, seed, .lo = 0, .hi = 1LL << 62),
};
static const struct arg_table table = ARG_TABLE(options, false, 0);

static bool parse_args(struct args *a, int argc, char **argv, char *err, size_t errlen)
{
    *a = (struct args){ .lambda = 0.5, .lr = 1, .epochs = 400, .threads = 1, .seed = 1 };
    if (!args_parse(&table, a, 0, argc, argv, NULL, err, errlen))
        return false;
    if (!a->variant || !a->out || !a->ndata) {
        snprintf(err, errlen, "--variant, --out and --data are needed");
        return false;
    }
    return true;
}

static bool write_text(FILE *f, const void *ctx)
{
    return fputs(text_str(ctx), f) >= 0;
}

/* Every weight the fit changed, old -> new. */
static void report(const struct variant *v, const struct eval_params *before, const struct eval_params *after)
{
    for (int id = 0; id < NUM_WEIGHTS; id++) {
        char name[NAME_LEN + 32];
        if (!weights_applies(v, id) || !memcmp(&before->w[id], &after->w[id], sizeof before->w[id]))
            continue;
        weights_name(v, id, name, sizeof name);
        printf("  %-24s %6d %6d -> %6d %6d\n", name, before->w[id].mg, before->w[id].eg, after->w[id].mg,
               after->w[id].eg);
    }
}

int tune_main(int argc, char **argv)
{
    char err[ERR_LEN];
    struct args a;
    struct game g = { 0 };
    struct tune_set s = { 0 };
    struct eval_params start, tuned;
    struct text out = { 0 };
    long skipped = 0;
    if (!parse_args(&a, argc, argv, err, sizeof err)) {
        fprintf(stderr, "sennight tune: %s\n%s", err, tune_usage);
        return 2;
    }
    bool ok = registry_init(err, sizeof err);
    const struct variant *v = ok ? registry_find(a.variant) : NULL;
    if (ok && !v) {
        snprintf(err, sizeof err, "unknown variant '%s'", a.variant);
        ok = false;
    }
    ok = ok && (a.weights ? weights_load_file(v, a.weights, &start, err, sizeof err)
                          : weights_for_variant(v, &start, err, sizeof err));
    ok = ok && game_init(&g, v, false, err, sizeof err) && game_load_weights(&g, &start, err, sizeof err);
    s.v = v;
    for (int i = 0; ok && i < a.ndata; i++)
        ok = tune_set_read(&s, &g, a.data[i], &skipped, err, sizeof err);
    if (ok && !s.n) {
        snprintf(err, sizeof err, "no quiet %s positions in the data", v->name);
        ok = false;
    }
    if (ok) {
        struct tune_options o = { .lambda = a.lambda, .lr = a.lr, .k = a.k, .epochs = (int)a.epochs,
                                  .threads = (int)a.threads, .batch = a.batch, .seed = (uint64_t)a.seed };
        printf("%zu positions of %s (%ld skipped: other variants, mate scores, in check), %zu counts\n", s.n, v->name,
               skipped, s.ncoef);
        if (o.k == 0)
            o.k = tune_fit_k(&s, &start, o.threads);
        printf("K = %.4f, lambda = %.2f\n", o.k, o.lambda);
        double before = tune_loss(&s, &start, &o);
        tuned = start;
        ok = tune_run(&s, &o, &tuned, stdout);
        double after = tune_loss(&s, &tuned, &o);
        printf("loss %.6f -> %.6f\n", before, after);
        report(v, &start, &tuned);
        weights_write(v, &tuned, &out);
        ok = ok && !out.failed && file_replace(a.out, write_text, &out, err, sizeof err);
        if (ok)
            printf("wrote %s\n", a.out);
    }
    if (!ok)
        fprintf(stderr, "sennight tune: %s\n", err);
    text_free(&out);
    tune_set_free(&s);
    game_free(&g);
    return ok ? 0 : 1;
}
