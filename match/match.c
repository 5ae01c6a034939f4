/* Runs a match: worker threads take games in turn, each with its own engine processes (one per
 * engine); results are gathered under one lock, written to the record file and reported. */
#include "match.h"

#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "openings.h"
#include "pgn.h"

struct match {
    const struct match_conf *c;
    struct match_result *r;
    FILE *out, *pgn;
    struct openings openings;
    struct text time_control;
    char date[16];
    pthread_mutex_t lock;
    int next;                   /* the next game to hand out */
    atomic_bool stop;           /* the SPRT concluded, an engine cannot play, or a signal came */
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
/* Reports. */

static const char *engine_name(const struct match *m, int e)
{
    return m->c->engine[e].name;
}

/* "a vs b vs c": the engines by colour. */
static void names_by_colour(const struct match *m, const int engine_of[], struct text *out)
{
    for (int colour = 0; colour < m->c->nengines; colour++)
        text_printf(out, "%s%s", colour ? " vs " : "", engine_name(m, engine_of[colour]));
}

/* "inf" rather than an arithmetic on infinities. */
static double elo_margin(struct elo_interval iv)
{
    return isfinite(iv.low) && isfinite(iv.high) ? (iv.high - iv.low) / 2 : INFINITY;
}

static void report_score(const struct match *m)
{
    const struct tally *t = m->r->tally;
    if (m->c->nengines == 2) {
        fprintf(m->out, "Score of %s vs %s: %d - %d - %d, stalemates %d - %d [%.3f] %d\n", engine_name(m, 0),
                engine_name(m, 1), t->wins, t->losses, t->draws, t->stalemates_given, t->stalemates_received,
                tally_mean(t), t->games);
        return;
    }
    fprintf(m->out, "Score of %s, %s, %s: %.2f - %.2f - %.2f [%.3f %.3f %.3f] %d\n", engine_name(m, 0),
            engine_name(m, 1), engine_name(m, 2), t[0].sum, t[1].sum, t[2].sum, tally_mean(&t[0]), tally_mean(&t[1]),
            tally_mean(&t[2]), m->r->games);
}

static void report_elo(const struct match *m)
{
    const struct match_conf *c = m->c;
    const struct tally *t = &m->r->tally[0];
    struct elo_interval iv = stats_elo(t);
    fprintf(m->out, "Elo difference: %.1f +/- %.1f, LOS: %.1f %%, DrawRatio: %.1f %%, StalemateRatio: %.1f %%\n",
            iv.elo, elo_margin(iv), 100 * stats_los(t), t->games ? 100.0 * t->draws / t->games : 0,
            t->games ? 100.0 * (t->stalemates_given + t->stalemates_received) / t->games : 0);
    if (c->use_sprt) {
        static const char *const verdict[] = { "", " - H0 was accepted", " - H1 was accepted" };
        double lower, upper;
        sprt_bounds(&c->sprt, &lower, &upper);
        fprintf(m->out, "SPRT: llr %.3f, lbound %.3f, ubound %.3f, elo0 %g, elo1 %g%s\n", m->r->llr, lower, upper,
                c->sprt.elo0, c->sprt.elo1, verdict[m->r->verdict]);
    }
}

/* Three engines: for each pair, how often the first finished ahead of the second, and the Elo of that. */
static void report_pairs(const struct match *m)
{
    int n = m->c->nengines;
    for (int e = 0; e < n; e++)
        for (int f = e + 1; f < n; f++) {
            const struct tally *t = &m->r->pair[e][f];
            struct elo_interval iv = stats_elo(t);
            fprintf(m->out, "%s ahead of %s: %d - %d - %d [%.3f] %d, Elo %.1f +/- %.1f, LOS %.1f %%\n",
                    engine_name(m, e), engine_name(m, f), t->wins, t->losses, t->draws, tally_mean(t), t->games,
                    iv.elo, elo_margin(iv), 100 * stats_los(t));
        }
}

/* Every engine, best score first; two engines with Elo, three with the points won in each seat. */
static void report_table(const struct match *m)
{
    const struct match_result *r = m->r;
    int n = m->c->nengines, order[MAX_PLAYERS];
    for (int e = 0; e < n; e++) {
        int i = e;
        for (; i > 0 && tally_mean(&r->tally[order[i - 1]]) < tally_mean(&r->tally[e]); i--)
            order[i] = order[i - 1];
        order[i] = e;
    }
    if (n == 2)
        fprintf(m->out, "\n%-4s %-20s %8s %8s %6s %7s %5s %5s %5s %11s\n", "Rank", "Name", "Elo", "+/-", "Games",
                "Score", "W", "L", "D", "Stalemates");
    else
        fprintf(m->out, "\n%-4s %-20s %8s %6s %7s %5s %5s %5s %8s %8s %8s\n", "Rank", "Name", "Points", "Games",
                "Score", "W", "L", "D", play_colour_name(m->c->v, 0), play_colour_name(m->c->v, 1),
                play_colour_name(m->c->v, 2));
    for (int rank = 0; rank < n; rank++) {
        int e = order[rank];
        const struct tally *t = &r->tally[e];
        struct elo_interval iv = stats_elo(t);
        if (n == 2) {
            fprintf(m->out, "%4d %-20s %8.1f %8.1f %6d %6.1f%% %5d %5d %5d %5d - %d\n", rank + 1, engine_name(m, e),
                    iv.elo, elo_margin(iv), t->games, 100 * tally_mean(t), t->wins, t->losses, t->draws,
                    t->stalemates_given, t->stalemates_received);
            continue;
        }
        fprintf(m->out, "%4d %-20s %8.2f %6d %6.1f%% %5d %5d %5d", rank + 1, engine_name(m, e), t->sum, t->games,
                100 * tally_mean(t), t->wins, t->losses, t->draws);
        for (int colour = 0; colour < n; colour++)
            fprintf(m->out, " %8.2f", r->engine_seat[e][colour].sum);
        fprintf(m->out, "\n");
    }
    if (n == 2)
        return;
    fprintf(m->out, "\n%-9s %8s %6s %7s %5s %5s %5s\n", "Seat", "Points", "Games", "Score", "W", "L", "D");
    for (int colour = 0; colour < n; colour++) {
        const struct tally *t = &r->seat[colour];
        fprintf(m->out, "%-9s %8.2f %6d %6.1f%% %5d %5d %5d\n", play_colour_name(m->c->v, colour), t->sum, t->games,
                100 * tally_mean(t), t->wins, t->losses, t->draws);
    }
    fprintf(m->out, "\nPairs (finished ahead - behind - level):\n");
    report_pairs(m);
}

static void report_final(const struct match *m)
{
    const struct match_result *r = m->r;
    if (m->c->nengines == 2)
        report_elo(m);
    report_table(m);
    const char *sep = " ";
    fprintf(m->out, "\nTerminations:");
    for (int term = 0; term < TERM_COUNT; term++)
        if (r->terminations[term]) {
            fprintf(m->out, "%s%s %d", sep, pgn_termination(term), r->terminations[term]);
            sep = ", ";
        }
    fprintf(m->out, "%s\nEngine failures:", r->games ? "" : " none");
    sep = " ";
    for (int e = 0; e < m->c->nengines; e++)
        for (int term = TERM_TIME; term < TERM_ABANDONED; term++)
            if (r->faults[e][term]) {
                fprintf(m->out, "%s%s: %s %d", sep, engine_name(m, e), pgn_termination(term), r->faults[e][term]);
                sep = ", ";
            }
    fprintf(m->out, "%s\n", sep[0] == ',' ? "" : " none");
}

/* The statistics every so many games and at the end: Elo and SPRT, or with three engines the pairs. */
static void report_rating(const struct match *m)
{
    if (m->c->nengines == 2)
        report_elo(m);
    else
        report_pairs(m);
}

/* ------------------------------------------------------------------------------------------- */
/* Playing. */

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

/* Scores a finished game for every engine; engine_of[colour] says who played which colour. */
static void score_game(struct match *m, const struct game_record *rec, const int engine_of[])
{
    struct match_result *r = m->r;
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
                tally_add(&r->pair[e][engine_of[other]], finished_ahead(rec, colour, other), TALLY_PLAYED);
    }
    if (rec->culprit >= 0)
        r->faults[engine_of[rec->culprit]][rec->term]++;
    /* Games still finishing after the verdict are scored, but do not reopen the test. */
    if (m->c->use_sprt && r->verdict == SPRT_CONTINUE) {
        r->llr = sprt_llr(&m->c->sprt, &r->tally[0]);
        r->verdict = sprt_verdict(&m->c->sprt, r->llr);
        if (r->verdict != SPRT_CONTINUE)
            atomic_store(&m->stop, true);
    }
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
        score_game(m, rec, engine_of);
        pgn_result(rec, result, sizeof result);
        names_by_colour(m, engine_of, &names);
        fprintf(m->out, "Finished game %d (%s): %s {%s}\n", index + 1, text_str(&names), result, rec->reason);
        text_free(&names);
        report_score(m);
        int interval = m->c->rating_interval;
        if (interval && m->r->games % interval == 0)
            report_rating(m);
        fflush(m->out);
        if (m->pgn) {
            struct pgn_tags tags = { .v = m->c->v, .event = m->c->event, .date = m->date,
                                     .time_control = text_str(&m->time_control), .round = index + 1 };
            for (int colour = 0; colour < rec->narmies; colour++)
                tags.player[colour] = engine_name(m, engine_of[colour]);
            pgn_write(m->pgn, &tags, rec);
            fflush(m->pgn);
        }
    }
    pthread_mutex_unlock(&m->lock);
}

/* How many orders of n engines over the colours there are: n!. */
static int seatings(int n)
{
    return n < 2 ? 1 : n * seatings(n - 1);
}

/* The k-th order (lexicographic) of the n engines over the colours: for two 0 1, then 1 0; for three
 * 0 1 2, 0 2 1, 1 0 2, 1 2 0, 2 0 1, 2 1 0. Over n! games every engine plays every colour equally often,
 * and with three engines each one follows each other one in the turn order equally often. */
static void seat_engines(int n, int k, int engine_of[])
{
    int unseated[MAX_PLAYERS];
    for (int e = 0; e < n; e++)
        unseated[e] = e;
    for (int colour = 0; colour < n; colour++) {
        int rest = seatings(n - 1 - colour), pick = k / rest;
        k %= rest;
        engine_of[colour] = unseated[pick];
        for (int i = pick; i + 1 < n - colour; i++)
            unseated[i] = unseated[i + 1];
    }
}

/* Game i: with -repeat the n! games of a group share an opening and take the seatings in turn. */
static const char *opening_of(const struct match *m, int i)
{
    if (!m->openings.n)
        return NULL;
    int group = m->c->repeat ? i / seatings(m->c->nengines) : i;
    return m->openings.fen[group % m->openings.n];
}

static void *worker(void *arg)
{
    struct match *m = arg;
    const struct match_conf *c = m->c;
    int n = c->nengines;
    struct player players[MAX_PLAYERS];
    for (int e = 0; e < n; e++)
        players[e] = (struct player){ .conf = &c->engine[e], .uci.timeout = c->engine[e].timeout };
    for (;;) {
        pthread_mutex_lock(&m->lock);
        int i = atomic_load(&m->stop) || m->next >= c->games ? -1 : m->next++;
        pthread_mutex_unlock(&m->lock);
        if (i < 0)
            break;
        int engine_of[MAX_PLAYERS];
        seat_engines(n, i % seatings(n), engine_of);
        struct play p = { .v = c->v, .fen = opening_of(m, i), .adj = &c->adj, .cancel = &m->stop };
        for (int colour = 0; colour < n; colour++)
            p.player[colour] = &players[engine_of[colour]];
        struct game_record rec;
        play_game(&p, &rec);
        record_game(m, i, &rec, engine_of);
        game_record_free(&rec);
    }
    for (int e = 0; e < n; e++)
        uci_client_end(&players[e].uci, true);
    return NULL;
}

/* The time control tag: one for all engines, or "first / second [/ third]" when they differ. */
static void describe_time_control(const struct match_conf *c, struct text *out)
{
    struct text each[MAX_PLAYERS] = { { 0 } };
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

static bool match_open(struct match *m, char *err, size_t errlen)
{
    const struct match_conf *c = m->c;
    static const int identity[MAX_PLAYERS] = { 0, 1, 2 };
    struct text names = { 0 };
    time_t now = time(NULL);
    struct tm tm;
    strftime(m->date, sizeof m->date, "%Y.%m.%d", localtime_r(&now, &tm));
    describe_time_control(c, &m->time_control);
    if (c->openings[0] && !openings_load(&m->openings, c->openings, c->v, err, errlen))
        return false;
    if (c->random_order)
        openings_shuffle(&m->openings, c->seed);
    if (c->pgn[0] && !(m->pgn = fopen(c->pgn, "a"))) {
        snprintf(err, errlen, "cannot open the record file '%.300s'", c->pgn);
        return false;
    }
    names_by_colour(m, identity, &names);
    if (c->no_suite)
        fprintf(m->out, "No opening suite books/openings/%s.epd next to the executable or in the current directory: "
                "every game starts from the variant's array\n", c->v->name);
    fprintf(m->out, "Match %s: %s, %d games, %s, concurrency %d", text_str(&names), c->v->name, c->games,
            text_str(&m->time_control), c->concurrency);
    text_free(&names);
    bool three = c->nengines > 2;
    if (c->openings[0])
        fprintf(m->out, ", %d openings from %s (%s, seed %llu)%s", m->openings.n, c->openings,
                c->random_order ? "random" : "sequential", c->seed,
                !c->repeat ? "" : three ? ", each in every seating" : ", colours reversed in pairs");
    if (three)
        fprintf(m->out, ", the engines take the %d seatings in turn", seatings(c->nengines));
    fprintf(m->out, "\n");
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
        report_final(&m);
    }
    signals_restore(old);
    if (r->error[0])
        fprintf(out, "Error: %s\n", r->error);
    fflush(out);
    if (m.pgn)
        fclose(m.pgn);
    openings_free(&m.openings);
    text_free(&m.time_control);
    pthread_mutex_destroy(&m.lock);
    return r->interrupted ? 130 : r->error[0] ? 1 : 0;
}

static const char usage[] =
    "usage: sennight match -engine cmd=<command> [name=<name>] [option.<Name>=<value>...] [<limits>]\n"
    "                      -engine cmd=<command> ... [-engine ... (three-player variants)]\n"
    "                      [-each <settings>] [-variant glinski] [-games 2 (a multiple of 6 for three)]\n"
    "                      [-rounds 1] [-concurrency 1]\n"
    "                      [-openings file=<fen/epd> [order=sequential|random] | -noopenings]\n"
    "                      [-repeat | -norepeat] [-draw movenumber=<n> movecount=<n> score=<cp>]\n"
    "                      [-resign movecount=<n> score=<cp>] [-sprt elo0=0 elo1=5 alpha=0.05 beta=0.05]\n"
    "                      [-pgnout <file>] [-event <name>] [-seed <n>] [-ratinginterval 10]\n"
    "                      [-variantfile <file>]\n"
    "limits: tc=[moves/]seconds[+increment] | st=<seconds>, nodes=<n>, depth=<n>, timemargin=<ms>,\n"
    "        timeout=<seconds> (uciok, readyok, searches without a clock; default 60)\n";

int match_main(int argc, char **argv)
{
    struct match_conf c;
    struct match_result r;
    char err[512];
    if (!match_parse(argc, argv, &c, err, sizeof err)) {
        fprintf(stderr, "sennight match: %s\n%s", err, usage);
        return 2;
    }
    return match_run(&c, &r, stdout);
}
