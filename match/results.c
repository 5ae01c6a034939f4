/* Scoring games: the tallies by engine, seat and pair, failures and the SPRT; and the records of a
 * sharded run scored together. */
#include "results.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../games/pgn.h"
#include "../games/records.h"
#include "../rules/registry.h"
#include "report.h"

/* Whether colour a finished ahead of colour b (1), level with it (1/2) or behind (0): the better
 * score, else the later to leave the board. */
static double finished_ahead(const struct game_record *rec, int a, int b)
{
    if (rec->num[a] != rec->num[b])
        return rec->num[a] > rec->num[b];
    /* Armies still on the board at the end left after every other. */
    long long left_a = rec->left[a] < 0 ? LLONG_MAX : rec->left[a], left_b = rec->left[b] < 0 ? LLONG_MAX : rec->left[b];
    return left_a > left_b ? 1 : left_a < left_b ? 0 : 0.5;
}

bool results_add(const struct match_conf *c, struct match_result *r, const struct game_record *rec,
                 const int engine_of[])
{
    int n = rec->narmies;
    r->games++;
    r->terminations[rec->term]++;
    for (int colour = 0; colour < n; colour++) {
        int e = engine_of[colour];
        double x = (double)rec->num[colour] / rec->den;
        enum tally_kind kind = TALLY_PLAYED;
        /* Three players: a stalemate is a draw shared like any other. */
        if (rec->term == TERM_STALEMATE && n == 2)
            kind = rec->stalemated == colour ? TALLY_STALEMATE_RECEIVED : TALLY_STALEMATE_GIVEN;
        tally_add(&r->tally[e], x, kind);
        tally_add(&r->seat[colour], x, kind);
        tally_add(&r->engine_seat[e][colour], x, kind);
        for (int other = 0; other < n; other++)
            if (engine_of[other] > e)
                tally_add(&r->pair[e][engine_of[other]], n == 2 ? x : finished_ahead(rec, colour, other),
                          n == 2 ? kind : TALLY_PLAYED);
    }
    if (rec->culprit >= 0)
        r->faults[engine_of[rec->culprit]][rec->term]++;
    if (!c->use_sprt || r->verdict != SPRT_CONTINUE)
        return false;
    r->llr = sprt_llr(&c->sprt, &r->tally[0]);
    r->verdict = sprt_verdict(&c->sprt, r->llr);
    return r->verdict != SPRT_CONTINUE;
}

/* ------------------------------------------------------------------------------------------- */
/* Records read back. */

/* What a record says of its game, enough to score it. */
struct scored {
    unsigned long long seed;    /* a run's games share it: runs with other seeds merge, shards of one run too */
    int round;
    int engine_of[MAX_PLAYERS];
    struct game_record rec;
    const char *path;           /* where it was read, for messages */
    int line;
};

struct reading {
    struct match_conf *c;
    struct scored *games;
    int n, cap;
    char err[sizeof ((struct match_result *)0)->error];
};

static bool fail(struct reading *rd, const char *path, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static bool fail(struct reading *rd, const char *path, int line, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(rd->err, sizeof rd->err, "%s:%d: ", path, line);
    va_start(ap, fmt);
    vsnprintf(rd->err + n, sizeof rd->err - (size_t)n, fmt, ap);
    va_end(ap);
    return false;
}

static int gcd(int a, int b)
{
    return b ? gcd(b, a % b) : a;
}

/* "1-0", "1/2-1/2", "3/4-1/4", "0-0-1", "1/3-1/3-1/3": one score per colour, over a common denominator. */
static bool parse_result(const char *text, struct game_record *rec)
{
    int num[MAX_PLAYERS], den[MAX_PLAYERS], n = 0, common = 1;
    const char *p = text;
    for (bool more = true; more; n++) {
        char *end;
        long a = strtol(p, &end, 10), b = 1;
        if (n == MAX_PLAYERS || end == p || a < 0 || a > 1000)
            return false;
        p = end;
        if (*p == '/') {
            b = strtol(++p, &end, 10);
            if (end == p || b < 1 || b > 1000)
                return false;
            p = end;
        }
        num[n] = (int)a;
        den[n] = (int)b;
        common = common / gcd(common, den[n]) * den[n];
        more = *p == '-';
        p += more;
    }
    if (*p || n != rec->narmies)
        return false;
    rec->den = common;
    for (int c = 0; c < n; c++)
        rec->num[c] = num[c] * (common / den[c]);
    return true;
}

/* The termination from its tag; "adjudication" is a draw when every army on the board scored alike. */
static bool parse_termination(const char *text, struct game_record *rec, unsigned armies)
{
    for (int term = 0; term < TERM_ABANDONED; term++)
        if (!strcmp(text, pgn_termination(term))) {
            rec->term = term;
            break;
        }
    if (strcmp(text, pgn_termination(rec->term)))
        return false;
    if (rec->term == TERM_ADJUDICATED_DRAW)
        for (int c = 0; c < rec->narmies; c++)
            if (armies >> c & 1 && rec->num[c] * __builtin_popcount(armies) != rec->den)
                rec->term = TERM_RESIGNATION;
    return true;
}

/* A game ended by the rules ends there on replay, with the same scores; one ended otherwise goes on. */
static bool ending_agrees(const struct game_record *rec, struct game_status st)
{
    static const enum game_outcome outcome[] = { [TERM_CHECKMATE] = GAME_CHECKMATE, [TERM_STALEMATE] = GAME_STALEMATE,
                                                 [TERM_REPETITION] = GAME_REPETITION,
                                                 [TERM_FIFTY_MOVES] = GAME_FIFTY_MOVES,
                                                 [TERM_LAST_ARMY] = GAME_LAST_ARMY };
    if (rec->term >= TERM_ADJUDICATED_DRAW)
        return st.outcome == GAME_ONGOING;
    if (st.outcome != outcome[rec->term])
        return false;
    for (int c = 0; c < rec->narmies; c++)
        if (rec->num[c] * st.den != st.score[c] * rec->den)
            return false;
    return true;
}

/* Replays the moves to learn when each army left, who was stalemated and who was at fault. */
static bool replay(struct reading *rd, const char *path, const struct record_game *g, struct scored *s)
{
    struct game_record *rec = &s->rec;
    struct game game = { 0 };
    char err[512];
    bool ok = game_init(&game, rd->c->v, false, err, sizeof err) && game_set_position(&game, g->fen, NULL, 0, err, sizeof err);
    unsigned armies = ok ? game_armies(&game) : 0;
    for (int c = 0; c < rec->narmies; c++)
        rec->left[c] = armies >> c & 1 ? -1 : 0;
    for (int i = 0; ok && i < g->nmoves; i++) {
        move_t m;
        ok = game_parse_move(&game, g->moves[i].text, &m, err, sizeof err);
        unsigned left = ok ? game_play(&game, m, NULL) : 0;
        rec->nmoves++;
        for (int c = 0; c < rec->narmies; c++)
            if (left >> c & 1)
                rec->left[c] = rec->nmoves;
    }
    struct game_status st = ok ? game_status(&game) : (struct game_status){ 0 };
    if (ok) {
        armies = game_armies(&game);
        rec->stalemated = game_side(&game);
        snprintf(rec->fen, sizeof rec->fen, "%s", g->fen);
    }
    game_free(&game);
    const char *termination = records_tag(g, "Termination") ? records_tag(g, "Termination") : "";
    if (!ok)
        return fail(rd, path, g->line, "%s", err);
    if (!parse_termination(termination, rec, armies))
        return fail(rd, path, g->line, "unknown Termination '%s'", termination);
    if (!ending_agrees(rec, st))
        return fail(rd, path, g->line, "the Result and Termination (%s) are not where the moves lead", termination);
    /* The army at fault is the one on the board that scored nothing; it left with the last move. */
    if (rec->term >= TERM_TIME)
        for (int c = 0; c < rec->narmies; c++)
            if (armies >> c & 1 && !rec->num[c]) {
                rec->culprit = c;
                rec->left[c] = rec->nmoves;
            }
    return true;
}

/* Engines are numbered by their first appearance, in the order of the games and colours: the order
 * of the -engine arguments of the run (game 1 seats them in that order). */
static int engine_number(struct reading *rd, const char *name)
{
    struct match_conf *c = rd->c;
    for (int e = 0; e < c->nengines; e++)
        if (!strcmp(c->engine[e].name, name))
            return e;
    if (c->nengines == MAX_ENGINES)
        return -1;
    snprintf(c->engine[c->nengines].name, sizeof c->engine[0].name, "%s", name);
    return c->nengines++;
}

static bool read_game(struct reading *rd, const char *path, const struct record_game *g)
{
    const char *variant = g->variant ? g->variant : "", *round = records_tag(g, "Round"), *seed = records_tag(g, "Seed");
    const struct variant *v = registry_find(variant);
    char *end;
    if (!v)
        return fail(rd, path, g->line, "unknown variant '%s' (a user variant needs -variantfile)", variant);
    if (rd->c->v && v != rd->c->v)
        return fail(rd, path, g->line, "variant '%s', where the games before are '%s'", v->name, rd->c->v->name);
    rd->c->v = v;
    if (rd->n == rd->cap) {
        int cap = rd->cap ? 2 * rd->cap : 256;
        struct scored *grown = realloc(rd->games, (size_t)cap * sizeof *grown);
        if (!grown)
            return fail(rd, path, g->line, "out of memory");
        rd->games = grown;
        rd->cap = cap;
    }
    struct scored *s = &rd->games[rd->n];
    *s = (struct scored){ .path = path, .line = g->line,
                          .rec = { .narmies = v->nplayers, .culprit = -1, .den = 1 } };
    s->round = round ? (int)strtol(round, &end, 10) : 0;
    if (!round || *end || s->round < 1)
        return fail(rd, path, g->line, "no game number: a Round tag of 1 or more is expected");
    /* Records written before the Seed tag carry none: they count as one run. */
    s->seed = seed ? strtoull(seed, &end, 10) : 0;
    if (seed && (*end || !isdigit((unsigned char)*seed)))
        return fail(rd, path, g->line, "a Seed tag of digits is expected, not '%s'", seed);
    if (!g->fen || !g->result || !parse_result(g->result, &s->rec))
        return fail(rd, path, g->line, "a FEN tag and a Result of %d scores are expected", v->nplayers);
    for (int colour = 0; colour < v->nplayers; colour++) {
        const char *name = records_tag(g, play_colour_name(v, colour));
        if (!name)
            return fail(rd, path, g->line, "no %s tag", play_colour_name(v, colour));
        s->engine_of[colour] = engine_number(rd, name);
        if (s->engine_of[colour] < 0)
            return fail(rd, path, g->line, "more than %d engines", MAX_ENGINES);
    }
    if (!replay(rd, path, g, s))
        return false;
    rd->n++;
    return true;
}

static bool read_file(struct reading *rd, const char *path)
{
    struct records records;
    struct record_game g;
    int found;
    if (!records_open(&records, path, rd->err, sizeof rd->err))
        return false;
    while ((found = records_next(&records, &g, rd->err, sizeof rd->err)) > 0)
        if (!read_game(rd, path, &g))
            break;
    records_close(&records);
    return found == 0;
}

static int by_run_and_round(const void *a, const void *b)
{
    const struct scored *x = a, *y = b;
    if (x->seed != y->seed)
        return x->seed < y->seed ? -1 : 1;
    return (x->round > y->round) - (x->round < y->round);
}

/* The games in order, each number once; the engines renumbered in the order they first play. */
static bool order_games(struct reading *rd)
{
    struct match_conf *c = rd->c;
    char names[MAX_ENGINES][sizeof c->engine[0].name];
    int renumber[MAX_ENGINES], n = c->nengines;
    qsort(rd->games, (size_t)rd->n, sizeof *rd->games, by_run_and_round);
    for (int i = 1; i < rd->n; i++)
        if (rd->games[i].round == rd->games[i - 1].round && rd->games[i].seed == rd->games[i - 1].seed)
            return fail(rd, rd->games[i].path, rd->games[i].line, "game %d again (also %s:%d): a shard given twice?",
                        rd->games[i].round, rd->games[i - 1].path, rd->games[i - 1].line);
    for (int e = 0; e < n; e++)
        memcpy(names[e], c->engine[e].name, sizeof names[e]);
    c->nengines = 0;
    for (int i = 0; i < rd->n; i++)
        for (int colour = 0; colour < c->v->nplayers; colour++) {
            int old = rd->games[i].engine_of[colour];
            renumber[old] = engine_number(rd, names[old]);
        }
    for (int i = 0; i < rd->n; i++)
        for (int colour = 0; colour < c->v->nplayers; colour++)
            rd->games[i].engine_of[colour] = renumber[rd->games[i].engine_of[colour]];
    if (c->v->nplayers > 2 && c->nengines != c->v->nplayers)
        return fail(rd, rd->games[0].path, rd->games[0].line, "%d engines in a %d-player variant", c->nengines,
                    c->v->nplayers);
    if (c->nengines > 2 && c->use_sprt)
        return fail(rd, rd->games[0].path, rd->games[0].line, "-sprt is for two engines, and these records have %d",
                    c->nengines);
    c->tournament = c->nengines > c->v->nplayers ? TOURNAMENT_ROUND_ROBIN : TOURNAMENT_MATCH;
    return true;
}

/* Each run's game numbers without a record (games ordered by run, then number). */
static void report_missing(const struct reading *rd)
{
    for (int i = 0, first = 0; i < rd->n; i++) {
        const struct scored *last = &rd->games[i];
        if (i + 1 < rd->n && rd->games[i + 1].seed == last->seed)
            continue;
        int missing = last->round - (i + 1 - first);
        if (missing)
            fprintf(stderr, "Note: %d game numbers up to %d of the run with seed %llu have no record (a shard "
                            "missing, games abandoned, or a stopped run)\n", missing, last->round, last->seed);
        first = i + 1;
    }
}

int results_main(struct match_conf *c, struct match_result *r, FILE *out)
{
    struct reading rd = { .c = c };
    bool ok = true;
    *r = (struct match_result){ .verdict = SPRT_CONTINUE };
    c->nengines = 0;
    c->v = NULL;
    for (int f = 0; ok && f < c->nresults; f++)
        ok = read_file(&rd, c->results[f]);
    if (ok && !rd.n)
        ok = !snprintf(rd.err, sizeof rd.err, "no games in the record files");
    ok = ok && order_games(&rd);
    if (ok) {
        fprintf(out, "Results of %d games from %d record file%s: %s\n", rd.n, c->nresults, c->nresults > 1 ? "s" : "",
                c->v->name);
        report_missing(&rd);
        for (int i = 0; i < rd.n; i++)
            results_add(c, r, &rd.games[i].rec, rd.games[i].engine_of);
        if (c->tournament == TOURNAMENT_MATCH)
            report_score(c, r, rd.games[rd.n - 1].engine_of, out);
        report_final(c, r, out);
    } else {
        snprintf(r->error, sizeof r->error, "%s", rd.err);
        fprintf(stderr, "sennight match --results: %s\n", r->error);
    }
    free(rd.games);
    return ok ? 0 : 1;
}
