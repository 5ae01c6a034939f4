/* The runner's command line (cutechess-cli style, docs/match.md) into a struct match_conf. */
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../engine/engine.h"
#include "../games/openings.h"
#include "../rules/registry.h"
#include "../util/args.h"
#include "../util/number.h"
#include "../util/shard.h"
#include "match.h"
#include "schedule.h"

/* DEFAULT_MARGIN_MS: an engine that answers in time can still be read late when the machine is
 * loaded (the engine or the runner not scheduled); 200 ms is over twice the latest seen on a loaded
 * 2-core machine at st=0.1 (77 ms) and, as the engine is never told of it, buys it no thinking time. */
enum { DEFAULT_TIMEOUT = 60, DEFAULT_MARGIN_MS = 200, MAX_VARIANT_FILES = 16 };

static bool parse_long(const char *text, long long min, long long max, long long *out)
{
    long n;
    if (!number_parse(text, (long)min, (long)max, &n))
        return false;
    *out = n;
    return true;
}

static bool parse_int(const char *text, int min, int max, int *out)
{
    long long n;
    if (!parse_long(text, min, max, &n))
        return false;
    *out = (int)n;
    return true;
}

static bool copy(char *dst, size_t len, const char *src)
{
    return (size_t)snprintf(dst, len, "%s", src) < len;
}

/* Copies "key=value" into buf and splits it there; false if there is no '=' or it is too long. */
static bool split_pair(const char *arg, char *buf, size_t len, const char **key, const char **value)
{
    char *eq = copy(buf, len, arg) ? strchr(buf, '=') : NULL;
    if (!eq)
        return false;
    *eq = 0;
    *key = buf;
    *value = eq + 1;
    return true;
}

static bool engine_setting(struct engine_conf *e, const char *key, const char *value)
{
    struct limits *l = &e->limits;
    long long ms;
    if (!strcmp(key, "cmd"))
        return copy(e->cmd, sizeof e->cmd, value);
    if (!strcmp(key, "name"))
        return copy(e->name, sizeof e->name, value);
    if (!strncmp(key, "option.", 7)) {
        if (e->noptions == MAX_ENGINE_OPTIONS)
            return false;
        e->noptions++;
        return copy(e->option[e->noptions - 1].name, sizeof e->option[0].name, key + 7)
               && copy(e->option[e->noptions - 1].value, sizeof e->option[0].value, value);
    }
    if (!strcmp(key, "tc"))
        return tc_parse(value, l);
    if (!strcmp(key, "st"))
        return tc_parse_seconds(value, &l->movetime) && l->movetime > 0;
    if (!strcmp(key, "nodes"))
        return parse_long(value, 1, (long long)1e15, &l->nodes);
    if (!strcmp(key, "depth"))
        return parse_int(value, 1, 1000, &l->depth);
    if (!strcmp(key, "timemargin") && parse_long(value, 0, (long long)1e9, &ms)) {
        l->margin = ms * 1000;
        return true;
    }
    if (!strcmp(key, "timeout"))
        return tc_parse_seconds(value, &e->timeout) && e->timeout > 0;
    /* cutechess-cli's protocol setting: UCI is the one protocol spoken here. */
    return !strcmp(key, "proto") && !strcmp(value, "uci");
}

/* -each first, then the engine's own settings, so that these win. */
static bool engine_conf(struct engine_conf *e, int number, const struct arg_words *each, const struct arg_words *own, char *err,
                        size_t errlen)
{
    *e = (struct engine_conf){ .timeout = DEFAULT_TIMEOUT * 1000000LL, .limits.margin = DEFAULT_MARGIN_MS * 1000LL };
    for (int list = 0; list < 2; list++) {
        const struct arg_words *p = list ? own : each;
        for (int i = 0; i < p->n; i++) {
            char buf[2048];
            const char *key, *value;
            bool split = split_pair(p->word[i], buf, sizeof buf, &key, &value);
            if (split && !strcmp(key, "proto") && strcmp(value, "uci")) {
                snprintf(err, errlen, "engine %d: proto=%s is not spoken here: only UCI engines play (proto=uci)",
                         number, value);
                return false;
            }
            if (!split || !engine_setting(e, key, value)) {
                snprintf(err, errlen, "bad engine setting '%s'", p->word[i]);
                return false;
            }
        }
    }
    const struct limits *l = &e->limits;
    if (!e->cmd[0])
        snprintf(err, errlen, "engine %d has no cmd=", number);
    else if (l->base && l->movetime)
        snprintf(err, errlen, "engine %d: tc= and st= cannot be combined", number);
    else if (!l->base && !l->movetime && !l->nodes && !l->depth)
        snprintf(err, errlen, "engine %d has no limit: give tc=, st=, nodes= or depth=", number);
    else
        err[0] = 0;
    /* The default name is the program's file name. */
    const char *program = e->cmd;
    size_t len = strcspn(program, " ");
    for (size_t i = 0; i < len; i++)
        if (e->cmd[i] == '/')
            program = e->cmd + i + 1;
    if (!e->name[0])
        snprintf(e->name, sizeof e->name, "%.*s", (int)(e->cmd + len - program), program);
    return !err[0];
}

/* The flags followed by key=value settings other than -engine and -each. */
enum group { GROUP_OPENINGS, GROUP_DRAW, GROUP_RESIGN, GROUP_SPRT, NGROUPS };
static const char *const group_flag[NGROUPS] = { "-openings", "-draw", "-resign", "-sprt" };

static bool group_setting(struct match_conf *c, enum group g, const char *key, const char *value)
{
    struct adjudication *a = &c->adj;
    struct sprt *s = &c->sprt;
    bool draw = g == GROUP_DRAW;
    switch (g) {
    case GROUP_OPENINGS:
        if (!strcmp(key, "file"))
            return copy(c->openings, sizeof c->openings, value);
        c->random_order = !strcmp(value, "random");
        return !strcmp(key, "order") && (c->random_order || !strcmp(value, "sequential"));
    case GROUP_DRAW:
    case GROUP_RESIGN:
        if (draw && !strcmp(key, "movenumber"))
            return parse_int(value, 0, 100000, &a->draw_movenumber);
        if (!strcmp(key, "movecount"))
            return parse_int(value, 1, 100000, draw ? &a->draw_movecount : &a->resign_movecount);
        return !strcmp(key, "score") && parse_int(value, 0, UCI_MATE_SCORE, draw ? &a->draw_score : &a->resign_score);
    default: {
        double *field = !strcmp(key, "elo0") ? &s->elo0
                        : !strcmp(key, "elo1") ? &s->elo1
                        : !strcmp(key, "alpha") ? &s->alpha
                        : !strcmp(key, "beta") ? &s->beta : NULL;
        return field && number_parse_real(value, -HUGE_VAL, HUGE_VAL, field);
    }
    }
}

static bool group_apply(struct match_conf *c, enum group g, const struct arg_words *p, char *err, size_t errlen)
{
    for (int i = 0; i < p->n; i++) {
        char buf[2048];
        const char *key, *value;
        if (!split_pair(p->word[i], buf, sizeof buf, &key, &value) || !group_setting(c, g, key, value)) {
            snprintf(err, errlen, "bad setting '%s' after %s", p->word[i], group_flag[g]);
            return false;
        }
    }
    return true;
}

/* The command line as read (the table below), before it is checked and combined: the settings that
 * go to the configuration as they are, and the others. */
struct flags {
    struct match_conf c;
    struct arg_words each, engine[MAX_ENGINES], group[NGROUPS], results;
    const char *variant, *shard, *variant_file[MAX_VARIANT_FILES];
    int nvariant_files, games, rounds;
    int tournament;   /* -1, or the index of tournaments[] */
    long long seed;
    uint64_t given;
};

static const char *const tournaments[] = { "gauntlet", "round-robin", NULL };

static const struct arg_option options[] = {
    ARG("-engine", ARG_WORDS, struct flags, engine, .repeat = MAX_ENGINES,
        .count_at = offsetof(struct flags, c.nengines)),
    ARG("-each", ARG_WORDS, struct flags, each),
    ARG("-openings", ARG_WORDS, struct flags, group[GROUP_OPENINGS]),
    ARG("-draw", ARG_WORDS, struct flags, group[GROUP_DRAW]),
    ARG("-resign", ARG_WORDS, struct flags, group[GROUP_RESIGN]),
    ARG("-sprt", ARG_WORDS, struct flags, group[GROUP_SPRT]),
    ARG("--results", ARG_WORDS, struct flags, results),
    ARG("-repeat", ARG_SET, struct flags, c.repeat, .lo = 1),
    ARG("-norepeat", ARG_SET, struct flags, c.repeat, .lo = 0),
    ARG("-noopenings", ARG_SET, struct flags, c.no_openings, .lo = 1),
    ARG("-variant", ARG_TEXT, struct flags, variant),
    ARG("-variantfile", ARG_TEXT, struct flags, variant_file, .repeat = MAX_VARIANT_FILES,
        .count_at = offsetof(struct flags, nvariant_files)),
    ARG("-games", ARG_INT, struct flags, games, .lo = 1, .hi = 1000000),
    ARG("-rounds", ARG_INT, struct flags, rounds, .lo = 1, .hi = 1000000),
    ARG("-concurrency", ARG_INT, struct flags, c.concurrency, .lo = 1, .hi = MAX_CONCURRENCY),
    ARG("-pgnout", ARG_BUFFER, struct flags, c.pgn, .size = ARG_SIZE(struct match_conf, pgn)),
    ARG("-event", ARG_BUFFER, struct flags, c.event, .size = ARG_SIZE(struct match_conf, event)),
    ARG("-ratinginterval", ARG_INT, struct flags, c.rating_interval, .lo = 0, .hi = 1000000),
    ARG("-seed", ARG_LONG, struct flags, seed, .lo = 0, .hi = LLONG_MAX),
    ARG("-tournament", ARG_CHOICE, struct flags, tournament, .choices = tournaments),
    ARG("--shard", ARG_TEXT, struct flags, shard),
    ARG("-shard", ARG_TEXT, struct flags, shard),
};
static const struct arg_table table = ARG_TABLE(options, false, 0);

/* Without -openings or -noopenings the games start from the shipped suite, in random order. */
static void find_suite(struct match_conf *c)
{
    if (c->openings[0] || c->no_openings)
        return;
    if (openings_find_shipped(c->v->name, c->openings, sizeof c->openings)) {
        c->random_order = true;
    } else {
        c->openings[0] = 0;
        c->no_suite = true;
    }
}

/* Whether the engines fit the variant: one per army, or 3 or more in pairs in a tournament. */
static bool check_engines(struct match_conf *c, const struct flags *f, char *err, size_t errlen)
{
    int players = c->v->nplayers;
    bool given = f->tournament >= 0;
    c->tournament = !given || c->nengines == 2 ? TOURNAMENT_MATCH
                    : f->tournament == 0 ? TOURNAMENT_GAUNTLET : TOURNAMENT_ROUND_ROBIN;
    if (players > 2 && c->nengines != players)
        snprintf(err, errlen, "variant '%s' has %d players: give %d -engine arguments, not %d", c->v->name, players,
                 players, c->nengines);
    else if (players > 2 && given)
        snprintf(err, errlen, "-tournament is for two-player variants: a match of %d players plays its engines in "
                              "every seating", players);
    else if (players == 2 && c->nengines > 2 && !given)
        snprintf(err, errlen, "variant '%s' has 2 players: give two -engine arguments, or -tournament gauntlet or "
                              "round-robin for %d", c->v->name, c->nengines);
    else if (c->tournament && c->use_sprt)
        snprintf(err, errlen, "-sprt is for a match of two engines, not a tournament");
    else
        return true;
    return false;
}

static bool check_conf(struct match_conf *c, const struct flags *f, char *err, size_t errlen)
{
    const struct arg_words *group = f->group;
    const struct sprt *s = &c->sprt;
    c->v = registry_find(f->variant);
    if (group[GROUP_OPENINGS].n && !c->openings[0])
        snprintf(err, errlen, "-openings needs file=");
    else if (c->openings[0] && c->no_openings)
        snprintf(err, errlen, "-openings and -noopenings exclude each other");
    else if ((group[GROUP_DRAW].n && !c->adj.draw_movecount) || (group[GROUP_RESIGN].n && !c->adj.resign_movecount))
        snprintf(err, errlen, "-draw and -resign need movecount=");
    else if (c->use_sprt && !(s->alpha > 0 && s->beta > 0 && s->alpha + s->beta < 1 && s->elo0 < s->elo1))
        snprintf(err, errlen, "-sprt needs elo0 < elo1, and alpha, beta > 0 with alpha + beta < 1");
    else if (c->nresults)
        return true;
    else if (!c->v)
        snprintf(err, errlen, "unknown variant '%s'", f->variant);
    else if (!check_engines(c, f, err, errlen))
        return false;
    else if (c->nengines > 2 && !c->tournament && (c->use_sprt || c->adj.draw_movecount || c->adj.resign_movecount))
        snprintf(err, errlen, "-draw, -resign and -sprt are for two-player matches");
    else if (c->v->nplayers > 2 && f->games * f->rounds % schedule_seatings(c->v->nplayers))
        snprintf(err, errlen, "a %d-player match plays the engines in their %d seatings in turn: -games (times "
                              "-rounds) must be a multiple of %d, not %d", c->v->nplayers,
                 schedule_seatings(c->v->nplayers), schedule_seatings(c->v->nplayers), f->games * f->rounds);
    else if ((long long)f->games * f->rounds * schedule_pairings(c) > 100000000)
        snprintf(err, errlen, "more than 100000000 games");
    else {
        c->games = f->games * f->rounds * schedule_pairings(c);
        find_suite(c);
        /* The seed names the run in every record, so that --results scores the shards' games as one
         * run's; and every shard must draw the same order of random openings to play the same game g. */
        if (c->nshards > 1 && !c->seeded) {
            snprintf(err, errlen, "--shard needs -seed, the same for every shard: it names the run in the records "
                                  "and orders random openings");
            return false;
        }
        return true;
    }
    return false;
}

/* The command line into f->c, and what is not its own field into f; false with err at the first
 * mistake. */
static bool flags_read(struct flags *f, int argc, char **argv, char *err, size_t errlen)
{
    struct match_conf *c = &f->c;
    *c = (struct match_conf){ .concurrency = 1, .repeat = true, .rating_interval = 10, .shard = 1, .nshards = 1,
                              .seed = (unsigned long long)time(NULL) };
    snprintf(c->event, sizeof c->event, "Sennight match");
    f->variant = "glinski";
    f->games = 2;
    f->rounds = 1;
    f->tournament = -1;
    if (!args_parse(&table, f, 0, argc, argv, &f->given, err, errlen))
        return false;
    if (args_given(&table, f->given, "--results") && !f->results.n) {
        snprintf(err, errlen, "--results needs record files");
        return false;
    }
    _Static_assert((int)MAX_RESULT_FILES >= (int)ARGS_MAX_WORDS, "--results holds the words after it");
    for (int i = 0; i < f->results.n; i++)
        c->results[c->nresults++] = f->results.word[i];
    c->use_sprt = args_given(&table, f->given, "-sprt");
    if ((c->seeded = args_given(&table, f->given, "-seed")))
        c->seed = (unsigned long long)f->seed;
    const char *shard_flag = args_given(&table, f->given, "-shard") ? "-shard" : "--shard";
    if (f->shard && !shard_parse(f->shard, shard_flag, &c->shard, &c->nshards, err, errlen))
        return false;
    if (!registry_init(err, errlen))
        return false;
    for (int i = 0; i < f->nvariant_files; i++)
        if (registry_add_file(f->variant_file[i], false, game_validate_variant, err, errlen) < 0)
            return false;
    return true;
}

/* The flags combined: the engines' settings, the groups', and whether they make a match. */
static bool flags_check(struct flags *f, char *err, size_t errlen)
{
    struct match_conf *c = &f->c;
    if (c->nresults && c->nengines) {
        snprintf(err, errlen, "--results scores record files: it takes no -engine");
        return false;
    }
    if (c->nengines < 2 && !c->nresults) {
        snprintf(err, errlen, "a match needs two -engine arguments (three in a three-player variant)");
        return false;
    }
    for (int g = 0; g < NGROUPS; g++)
        if (!group_apply(c, g, &f->group[g], err, errlen))
            return false;
    for (int e = 0; e < c->nengines; e++)
        if (!engine_conf(&c->engine[e], e + 1, &f->each, &f->engine[e], err, errlen))
            return false;
    /* Reports name the engines: two of the same name would be told apart by nothing. */
    for (int e = 1; e < c->nengines; e++) {
        bool taken = false;
        for (int before = 0; before < e; before++)
            taken |= !strcmp(c->engine[before].name, c->engine[e].name);
        if (taken) {
            char name[sizeof c->engine[e].name];
            snprintf(name, sizeof name, "%.*s-%d", (int)sizeof name - 4, c->engine[e].name, (e + 1) % 100);
            copy(c->engine[e].name, sizeof name, name);
        }
    }
    return check_conf(c, f, err, errlen);
}

bool match_parse(int argc, char **argv, struct match_conf *c, char *err, size_t errlen)
{
    /* The flags hold a configuration and every engine's words: too much for a thread's stack. */
    struct flags *f = calloc(1, sizeof *f);
    if (!f) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    bool ok = flags_read(f, argc, argv, err, errlen) && flags_check(f, err, errlen);
    *c = f->c;
    free(f);
    return ok;
}
