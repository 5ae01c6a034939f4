/* The runner's command line (cutechess-cli style, docs/match.md) into a struct match_conf. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../engine/engine.h"
#include "../games/openings.h"
#include "../rules/registry.h"
#include "../util/shard.h"
#include "match.h"
#include "schedule.h"

/* DEFAULT_MARGIN_MS: an engine that answers in time can still be read late when the machine is
 * loaded (the engine or the runner not scheduled); 200 ms is over twice the latest seen on a loaded
 * 2-core machine at st=0.1 (77 ms) and, as the engine is never told of it, buys it no thinking time. */
enum { MAX_ARGS = 256, DEFAULT_TIMEOUT = 60, DEFAULT_MARGIN_MS = 200 };

/* key=value arguments of one flag (-engine, -each, -openings, ...). */
struct pairs {
    char *arg[MAX_ARGS];
    int n;
};

static bool parse_long(const char *text, long long min, long long max, long long *out)
{
    char *end;
    errno = 0;
    long long n = strtoll(text, &end, 10);
    if (end == text || *end || errno || n < min || n > max)
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

static bool parse_double(const char *text, double *out)
{
    char *end;
    *out = strtod(text, &end);
    return end != text && !*end;
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
static bool engine_conf(struct engine_conf *e, int number, struct pairs *each, struct pairs *own, char *err,
                        size_t errlen)
{
    *e = (struct engine_conf){ .timeout = DEFAULT_TIMEOUT * 1000000LL, .limits.margin = DEFAULT_MARGIN_MS * 1000LL };
    for (int list = 0; list < 2; list++) {
        struct pairs *p = list ? own : each;
        for (int i = 0; i < p->n; i++) {
            char buf[2048];
            const char *key, *value;
            bool split = split_pair(p->arg[i], buf, sizeof buf, &key, &value);
            if (split && !strcmp(key, "proto") && strcmp(value, "uci")) {
                snprintf(err, errlen, "engine %d: proto=%s is not spoken here: only UCI engines play (proto=uci)",
                         number, value);
                return false;
            }
            if (!split || !engine_setting(e, key, value)) {
                snprintf(err, errlen, "bad engine setting '%s'", p->arg[i]);
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
        return field && parse_double(value, field);
    }
    }
}

static bool group_apply(struct match_conf *c, enum group g, const struct pairs *p, char *err, size_t errlen)
{
    for (int i = 0; i < p->n; i++) {
        char buf[2048];
        const char *key, *value;
        if (!split_pair(p->arg[i], buf, sizeof buf, &key, &value) || !group_setting(c, g, key, value)) {
            snprintf(err, errlen, "bad setting '%s' after %s", p->arg[i], group_flag[g]);
            return false;
        }
    }
    return true;
}

/* The key=value arguments that follow flag i; returns the index of the last one. */
static int collect(int argc, char **argv, int i, struct pairs *p)
{
    while (i + 1 < argc && argv[i + 1][0] != '-' && p->n < MAX_ARGS)
        p->arg[p->n++] = argv[++i];
    return i;
}

struct single_values {
    const char *variant, *tournament;
    int games, rounds;
};

/* A flag with one value. */
static bool single(struct match_conf *c, const char *flag, const char *value, struct single_values *sv, char *err,
                   size_t errlen)
{
    long long seed = 0;
    bool ok = true;
    if (!strcmp(flag, "-variant")) {
        sv->variant = value;
    } else if (!strcmp(flag, "-games")) {
        ok = parse_int(value, 1, 1000000, &sv->games);
    } else if (!strcmp(flag, "-rounds")) {
        ok = parse_int(value, 1, 1000000, &sv->rounds);
    } else if (!strcmp(flag, "-concurrency")) {
        ok = parse_int(value, 1, MAX_CONCURRENCY, &c->concurrency);
    } else if (!strcmp(flag, "-pgnout")) {
        ok = copy(c->pgn, sizeof c->pgn, value);
    } else if (!strcmp(flag, "-event")) {
        ok = copy(c->event, sizeof c->event, value);
    } else if (!strcmp(flag, "-ratinginterval")) {
        ok = parse_int(value, 0, 1000000, &c->rating_interval);
    } else if (!strcmp(flag, "-seed")) {
        ok = parse_long(value, 0, LLONG_MAX, &seed);
        c->seed = (unsigned long long)seed;
        c->seeded = true;
    } else if (!strcmp(flag, "-tournament")) {
        sv->tournament = value;
        ok = !strcmp(value, "gauntlet") || !strcmp(value, "round-robin");
    } else if (!strcmp(flag, "--shard") || !strcmp(flag, "-shard")) {
        return shard_parse(value, flag, &c->shard, &c->nshards, err, errlen);
    } else if (!strcmp(flag, "-variantfile")) {
        return registry_add_file(value, false, err, errlen) >= 0;
    } else {
        snprintf(err, errlen, "unknown argument '%s'", flag);
        return false;
    }
    if (!ok)
        snprintf(err, errlen, "bad value '%s' for %s", value, flag);
    return ok;
}

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
static bool check_engines(struct match_conf *c, const struct single_values *sv, char *err, size_t errlen)
{
    int players = c->v->nplayers;
    c->tournament = !sv->tournament || c->nengines == 2 ? TOURNAMENT_MATCH
                    : !strcmp(sv->tournament, "gauntlet") ? TOURNAMENT_GAUNTLET : TOURNAMENT_ROUND_ROBIN;
    if (players > 2 && c->nengines != players)
        snprintf(err, errlen, "variant '%s' has %d players: give %d -engine arguments, not %d", c->v->name, players,
                 players, c->nengines);
    else if (players > 2 && sv->tournament)
        snprintf(err, errlen, "-tournament is for two-player variants: a match of %d players plays its engines in "
                              "every seating", players);
    else if (players == 2 && c->nengines > 2 && !sv->tournament)
        snprintf(err, errlen, "variant '%s' has 2 players: give two -engine arguments, or -tournament gauntlet or "
                              "round-robin for %d", c->v->name, c->nengines);
    else if (c->tournament && c->use_sprt)
        snprintf(err, errlen, "-sprt is for a match of two engines, not a tournament");
    else
        return true;
    return false;
}

static bool check_conf(struct match_conf *c, const struct pairs *group, const struct single_values *sv, char *err,
                       size_t errlen)
{
    const struct sprt *s = &c->sprt;
    c->v = registry_find(sv->variant);
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
        snprintf(err, errlen, "unknown variant '%s'", sv->variant);
    else if (!check_engines(c, sv, err, errlen))
        return false;
    else if (c->nengines > 2 && !c->tournament && (c->use_sprt || c->adj.draw_movecount || c->adj.resign_movecount))
        snprintf(err, errlen, "-draw, -resign and -sprt are for two-player matches");
    else if (c->v->nplayers > 2 && sv->games * sv->rounds % schedule_seatings(c->v->nplayers))
        snprintf(err, errlen, "a %d-player match plays the engines in their %d seatings in turn: -games (times "
                              "-rounds) must be a multiple of %d, not %d", c->v->nplayers,
                 schedule_seatings(c->v->nplayers), schedule_seatings(c->v->nplayers), sv->games * sv->rounds);
    else if ((long long)sv->games * sv->rounds * schedule_pairings(c) > 100000000)
        snprintf(err, errlen, "more than 100000000 games");
    else {
        c->games = sv->games * sv->rounds * schedule_pairings(c);
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

bool match_parse(int argc, char **argv, struct match_conf *c, char *err, size_t errlen)
{
    struct pairs each = { 0 }, own[MAX_ENGINES] = { 0 }, group[NGROUPS] = { 0 };
    struct single_values sv = { .variant = "glinski", .games = 2, .rounds = 1 };
    *c = (struct match_conf){ .concurrency = 1, .repeat = true, .rating_interval = 10, .shard = 1, .nshards = 1,
                              .seed = (unsigned long long)time(NULL) };
    snprintf(c->event, sizeof c->event, "Sennight match");
    registry_set_validator(game_validate_variant);
    if (!registry_init(err, errlen))
        return false;
    for (int i = 0; i < argc; i++) {
        const char *flag = argv[i];
        int g = 0;
        while (g < NGROUPS && strcmp(flag, group_flag[g]))
            g++;
        if (g < NGROUPS) {
            c->use_sprt |= g == GROUP_SPRT;
            i = collect(argc, argv, i, &group[g]);
        } else if (!strcmp(flag, "--results")) {
            while (i + 1 < argc && argv[i + 1][0] != '-' && c->nresults < MAX_RESULT_FILES)
                c->results[c->nresults++] = argv[++i];
            if (!c->nresults) {
                snprintf(err, errlen, "--results needs record files");
                return false;
            }
        } else if (!strcmp(flag, "-engine")) {
            if (c->nengines == MAX_ENGINES) {
                snprintf(err, errlen, "at most %d -engine arguments", MAX_ENGINES);
                return false;
            }
            i = collect(argc, argv, i, &own[c->nengines++]);
        } else if (!strcmp(flag, "-each")) {
            i = collect(argc, argv, i, &each);
        } else if (!strcmp(flag, "-repeat") || !strcmp(flag, "-norepeat")) {
            c->repeat = !strcmp(flag, "-repeat");
        } else if (!strcmp(flag, "-noopenings")) {
            c->no_openings = true;
        } else if (i + 1 >= argc || !single(c, flag, argv[i + 1], &sv, err, errlen)) {
            if (i + 1 >= argc)
                snprintf(err, errlen, "%s needs a value", flag);
            return false;
        } else {
            i++;
        }
    }
    if (c->nresults && c->nengines) {
        snprintf(err, errlen, "--results scores record files: it takes no -engine");
        return false;
    }
    if (c->nengines < 2 && !c->nresults) {
        snprintf(err, errlen, "a match needs two -engine arguments (three in a three-player variant)");
        return false;
    }
    for (int g = 0; g < NGROUPS; g++)
        if (!group_apply(c, g, &group[g], err, errlen))
            return false;
    for (int e = 0; e < c->nengines; e++)
        if (!engine_conf(&c->engine[e], e + 1, &each, &own[e], err, errlen))
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
    return check_conf(c, group, &sv, err, errlen);
}
