/* Runs a match: worker threads take games in turn, each with its own engine processes (one per
 * engine); results are gathered under one lock, written to the record file and reported. */
#include "match.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <xxhash.h>

#include "../games/openings.h"
#include "../games/pgn.h"
#include "../util/clock.h"
#include "../util/shard.h"
#include "report.h"
#include "results.h"
#include "schedule.h"

struct match {
    const struct match_conf *c;
    struct match_result *r;
    FILE *out, *pgn;
    struct openings openings;
    struct text time_control;
    char date[16];
    pthread_mutex_t lock;
    int next, end;              /* the next game to hand out, and the end of the shard's games */
    int planned;                /* the shard's games */
    int64_t start_ms;
    atomic_bool stop;           /* the SPRT concluded, an engine cannot play, or a signal came */
    /* Each scored game's start and moves hashed, to find games that repeat another one. */
    struct played {
        uint64_t key;
        int game;
    } *played;
    int nplayed, played_cap;
};

/* What the signal handler needs: it may not take locks. */
static atomic_bool *volatile signal_stop;
static volatile sig_atomic_t signalled;

static void on_signal(int sig)
{
    (void)sig;
    signalled = 1;
    if (signal_stop)
        atomic_store(signal_stop, true);
    proc_kill_all();
}

static const int caught[] = { SIGINT, SIGTERM, SIGHUP };
enum { NCAUGHT = sizeof caught / sizeof *caught };

/* One signal stops the match and kills the engines; a second one ends the runner (SA_RESETHAND). */
static void signals_catch(struct match *m, struct sigaction old[NCAUGHT + 1])
{
    static bool registered;
    struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESETHAND };
    sigemptyset(&sa.sa_mask);
    if (!registered)
        registered = !atexit(proc_kill_all);
    signalled = 0;
    signal_stop = &m->stop;
    for (int i = 0; i < NCAUGHT; i++)
        sigaction(caught[i], &sa, &old[i]);
    /* A write to an engine that has died must fail with EPIPE, not end the runner. */
    sa = (struct sigaction){ .sa_handler = SIG_IGN };
    sigaction(SIGPIPE, &sa, &old[NCAUGHT]);
}

static void signals_restore(const struct sigaction old[NCAUGHT + 1])
{
    for (int i = 0; i < NCAUGHT; i++)
        sigaction(caught[i], &old[i], NULL);
    sigaction(SIGPIPE, &old[NCAUGHT], NULL);
    signal_stop = NULL;
}

/* ------------------------------------------------------------------------------------------- */
/* Playing. */

static const char *engine_name(const struct match *m, int e)
{
    return m->c->engine[e].name;
}

/* "a vs b vs c": the engines by colour. */
static void names_by_colour(const struct match *m, const int engine_of[], int n, struct text *out)
{
    for (int colour = 0; colour < n; colour++)
        text_printf(out, "%s%s", colour ? " vs " : "", engine_name(m, engine_of[colour]));
}

/* Every -ratinginterval games: how far the match is and when it should end, at the pace so far. */
static void report_progress(const struct match *m)
{
    int done = m->r->games;
    long long ms = clock_ms() - m->start_ms, eta = (long long)((double)ms * (m->planned - done) / done / 1000);
    fprintf(m->out, "Progress: %d of %d games, %lld:%02lld elapsed, ETA %lld:%02lld\n", done, m->planned,
            ms / 60000, ms / 1000 % 60, eta / 60, eta % 60);
}

/* Two deterministic engines alike (same program, same options) play the same game from an opening in
 * both colours: half the games tell nothing. Warns once, naming the first two games found alike. */
static void check_repeated(struct match *m, int index, const struct game_record *rec)
{
    const char *moves = text_str(&rec->moves);
    uint64_t key = XXH3_64bits_withSeed(moves, strlen(moves), XXH3_64bits(rec->fen, strlen(rec->fen)));
    if (m->r->repeated[0])
        return;
    for (int i = 0; i < m->nplayed; i++)
        if (m->played[i].key == key) {
            m->r->repeated[0] = m->played[i].game;
            m->r->repeated[1] = index + 1;
            fprintf(stderr, "Warning: games %d and %d have the same moves from the same start: the engines play "
                            "alike and deterministically; give them random plies or more openings (-openings), "
                            "or different options\n", m->r->repeated[0], m->r->repeated[1]);
            return;
        }
    if (m->nplayed == m->played_cap) {
        int cap = m->played_cap ? 2 * m->played_cap : 64;
        struct played *grown = realloc(m->played, (size_t)cap * sizeof *grown);
        if (!grown)
            return;
        m->played = grown;
        m->played_cap = cap;
    }
    m->played[m->nplayed++] = (struct played){ key, index + 1 };
}

static void record_game(struct match *m, int index, const struct game_record *rec, const int engine_of[])
{
    char result[64];
    pthread_mutex_lock(&m->lock);
    if (rec->term == TERM_FATAL && !m->r->error[0]) {
        snprintf(m->r->error, sizeof m->r->error, "%s", rec->reason);
        atomic_store(&m->stop, true);
    }
    if (game_record_scored(rec)) {
        struct text names = { 0 };
        /* A shard plays all its games: the test is decided on the records of every shard. */
        if (results_add(m->c, m->r, rec, engine_of) && m->c->nshards == 1)
            atomic_store(&m->stop, true);
        pgn_result(rec, result, sizeof result);
        names_by_colour(m, engine_of, rec->narmies, &names);
        fprintf(m->out, "Finished game %d (%s): %s {%s}\n", index + 1, text_str(&names), result, rec->reason);
        text_free(&names);
        report_score(m->c, m->r, engine_of, m->out);
        check_repeated(m, index, rec);
        int interval = m->c->rating_interval;
        /* The final report follows the last game: the rating is not printed twice. */
        if (interval && m->r->games % interval == 0 && m->r->games < m->planned && !atomic_load(&m->stop)) {
            report_rating(m->c, m->r, m->out);
            report_progress(m);
        }
        fflush(m->out);
        if (m->pgn) {
            struct pgn_tags tags = { .v = m->c->v, .event = m->c->event, .date = m->date,
                                     .time_control = text_str(&m->time_control), .round = index + 1,
                                     .has_seed = true, .seed = m->c->seed };
            for (int colour = 0; colour < rec->narmies; colour++)
                tags.player[colour] = engine_name(m, engine_of[colour]);
            pgn_write(m->pgn, &tags, rec);
            fflush(m->pgn);
        }
    }
    pthread_mutex_unlock(&m->lock);
}

static void *worker(void *arg)
{
    struct match *m = arg;
    const struct match_conf *c = m->c;
    int n = c->v->nplayers;
    struct player players[MAX_ENGINES];
    for (int e = 0; e < c->nengines; e++)
        players[e] = (struct player){ .conf = &c->engine[e], .uci.timeout = c->engine[e].timeout };
    for (;;) {
        pthread_mutex_lock(&m->lock);
        int i = atomic_load(&m->stop) || m->next >= m->end ? -1 : m->next++;
        pthread_mutex_unlock(&m->lock);
        if (i < 0)
            break;
        int engine_of[MAX_PLAYERS], opening;
        schedule_game(c, i, engine_of, &opening);
        struct play p = { .v = c->v, .fen = m->openings.n ? m->openings.fen[opening % m->openings.n] : NULL,
                          .adj = &c->adj, .cancel = &m->stop };
        for (int colour = 0; colour < n; colour++)
            p.player[colour] = &players[engine_of[colour]];
        struct game_record rec;
        play_game(&p, &rec);
        record_game(m, i, &rec, engine_of);
        game_record_free(&rec);
    }
    for (int e = 0; e < c->nengines; e++)
        uci_client_end(&players[e].uci, true);
    return NULL;
}

/* The time control tag: one for all engines, or "first / second [/ third]" when they differ. */
static void describe_time_control(const struct match_conf *c, struct text *out)
{
    struct text each[MAX_ENGINES] = { { 0 } };
    bool same = true;
    for (int e = 0; e < c->nengines; e++) {
        tc_format(&c->engine[e].limits, &each[e]);
        same &= !strcmp(text_str(&each[e]), text_str(&each[0]));
    }
    for (int e = 0; e < (same ? 1 : c->nengines); e++)
        text_printf(out, "%s%s", e ? " / " : "", text_str(&each[e]));
    for (int e = 0; e < c->nengines; e++)
        text_free(&each[e]);
}

/* The header line: engines, variant, games, limits, openings and how the engines meet. */
static void print_header(const struct match *m)
{
    static const char *const kind[] = { "", "gauntlet", "round-robin" };
    const struct match_conf *c = m->c;
    static const int identity[MAX_PLAYERS] = { 0, 1, 2, 3 };
    struct text names = { 0 };
    bool three = c->v->nplayers > 2;
    if (c->tournament == TOURNAMENT_MATCH)
        names_by_colour(m, identity, c->nengines, &names);
    else
        for (int e = 0; e < c->nengines; e++)
            text_printf(&names, "%s%s", e ? ", " : "", engine_name(m, e));
    if (c->no_suite)
        fprintf(m->out, "No opening suite books/openings/%s.epd next to the executable or in the current directory: "
                "every game starts from the variant's array\n", c->v->name);
    fprintf(m->out, "%s%s%s %s: %s, %d games, %s, concurrency %d", c->tournament ? "Tournament (" : "Match",
            kind[c->tournament], c->tournament ? ")" : "", text_str(&names), c->v->name, c->games,
            text_str(&m->time_control), c->concurrency);
    text_free(&names);
    if (c->tournament)
        fprintf(m->out, ", %d pairings of %d games", schedule_pairings(c), c->games / schedule_pairings(c));
    if (c->openings[0])
        fprintf(m->out, ", %d openings from %s (%s, seed %llu)%s", m->openings.n, c->openings,
                c->random_order ? "random" : "sequential", c->seed,
                !c->repeat ? "" : three ? ", each in every seating" : ", colours reversed in pairs");
    if (three)
        fprintf(m->out, ", the engines take the %d seatings in turn", schedule_seatings(c->nengines));
    if (c->nshards > 1)
        fprintf(m->out, ", shard %d/%d: games %d to %d", c->shard, c->nshards, m->next + 1, m->end);
    fprintf(m->out, "\n");
}

static bool match_open(struct match *m, char *err, size_t errlen)
{
    const struct match_conf *c = m->c;
    time_t now = time(NULL);
    struct tm tm;
    uint64_t begin, end;
    strftime(m->date, sizeof m->date, "%Y.%m.%d", localtime_r(&now, &tm));
    describe_time_control(c, &m->time_control);
    shard_range((uint64_t)c->games, c->shard, c->nshards, &begin, &end);
    m->next = (int)begin;
    m->end = (int)end;
    m->planned = m->end - m->next;
    m->start_ms = clock_ms();
    if (c->openings[0] && !openings_load(&m->openings, c->openings, c->v, err, errlen))
        return false;
    if (c->random_order)
        openings_shuffle(&m->openings, c->seed);
    if (c->pgn[0] && !(m->pgn = fopen(c->pgn, "a"))) {
        snprintf(err, errlen, "cannot open the record file '%.300s'", c->pgn);
        return false;
    }
    print_header(m);
    return true;
}

int match_run(const struct match_conf *c, struct match_result *r, FILE *out)
{
    struct match m = { .c = c, .r = r, .out = out };
    struct sigaction old[NCAUGHT + 1];
    pthread_t threads[MAX_CONCURRENCY];
    int started = 0;
    *r = (struct match_result){ .verdict = SPRT_CONTINUE };
    pthread_mutex_init(&m.lock, NULL);
    atomic_init(&m.stop, false);
    signals_catch(&m, old);
    if (match_open(&m, r->error, sizeof r->error)) {
        while (started < c->concurrency && !pthread_create(&threads[started], NULL, worker, &m))
            started++;
        if (!started)
            snprintf(r->error, sizeof r->error, "cannot start a thread");
        for (int i = 0; i < started; i++)
            pthread_join(threads[i], NULL);
        r->interrupted = signalled;
        if (r->interrupted)
            fprintf(out, "Interrupted: the engines were stopped\n");
        report_final(c, r, out);
    }
    signals_restore(old);
    if (r->error[0])
        fprintf(out, "Error: %s\n", r->error);
    fflush(out);
    if (m.pgn)
        fclose(m.pgn);
    openings_free(&m.openings);
    text_free(&m.time_control);
    free(m.played);
    pthread_mutex_destroy(&m.lock);
    return r->interrupted ? 130 : r->error[0] ? 1 : 0;
}

const char match_usage[] =
    "usage: sennight match -engine cmd=<command> [name=<name>] [option.<Name>=<value>...] [<limits>]\n"
    "                      -engine cmd=<command> ... [-engine ... (three-player variants, tournaments)]\n"
    "                      [-tournament gauntlet|round-robin (3 or more engines, two-player variants)]\n"
    "                      [-each <settings>] [-variant glinski] [-games 2 (a multiple of 6 for three)]\n"
    "                      [-rounds 1] [-concurrency 1]\n"
    "                      [-openings file=<fen/epd> [order=sequential|random] | -noopenings]\n"
    "                      [-repeat | -norepeat] [-draw movenumber=<n> movecount=<n> score=<cp>]\n"
    "                      [-resign movecount=<n> score=<cp>] [-sprt elo0=0 elo1=5 alpha=0.05 beta=0.05]\n"
    "                      [-pgnout <file>] [-event <name>] [-seed <n>] [-ratinginterval 10]\n"
    "                      [-variantfile <file>] [--shard K/N]\n"
    "       sennight match --results <pgn>... [-sprt ...] [-variantfile <file>]\n"
    "limits: tc=[moves/]seconds[+increment] | st=<seconds>, nodes=<n>, depth=<n>, timemargin=<ms>,\n"
    "        timeout=<seconds> (uciok, readyok, searches without a clock; default 60)\n";

int match_main(int argc, char **argv)
{
    struct match_conf c;
    struct match_result r;
    char err[512];
    if (!match_parse(argc, argv, &c, err, sizeof err)) {
        fprintf(stderr, "sennight match: %s\n%s", err, match_usage);
        return 2;
    }
    return c.nresults ? results_main(&c, &r, stdout) : match_run(&c, &r, stdout);
}
