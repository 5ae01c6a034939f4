/* Runs a match: worker threads take games in turn, each with its own two engine processes; results
 * are gathered under one lock, written to the record file and reported. */
#include "match.h"

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

/* "inf" rather than an arithmetic on infinities. */
static double elo_margin(struct elo_interval iv)
{
    return isfinite(iv.low) && isfinite(iv.high) ? (iv.high - iv.low) / 2 : INFINITY;
}

static void report_score(const struct match *m)
{
    const struct tally *t = &m->r->tally[0];
    fprintf(m->out, "Score of %s vs %s: %d - %d - %d, stalemates %d - %d [%.3f] %d\n", engine_name(m, 0),
            engine_name(m, 1), t->wins, t->losses, t->draws, t->stalemates_given, t->stalemates_received,
            tally_mean(t), t->games);
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

static void report_final(const struct match *m)
{
    const struct match_result *r = m->r;
    fprintf(m->out, "\n%-4s %-20s %8s %8s %6s %7s %5s %5s %5s %11s\n", "Rank", "Name", "Elo", "+/-", "Games",
            "Score", "W", "L", "D", "Stalemates");
    int first = tally_mean(&r->tally[0]) >= tally_mean(&r->tally[1]) ? 0 : 1;
    for (int rank = 0; rank < 2; rank++) {
        int e = rank ? 1 - first : first;
        const struct tally *t = &r->tally[e];
        struct elo_interval iv = stats_elo(t);
        fprintf(m->out, "%4d %-20s %8.1f %8.1f %6d %6.1f%% %5d %5d %5d %5d - %d\n", rank + 1, engine_name(m, e),
                iv.elo, elo_margin(iv), t->games, 100 * tally_mean(t), t->wins, t->losses, t->draws,
                t->stalemates_given, t->stalemates_received);
    }
    const char *sep = " ";
    fprintf(m->out, "\nTerminations:");
    for (int term = 0; term < TERM_COUNT; term++)
        if (r->terminations[term]) {
            fprintf(m->out, "%s%s %d", sep, pgn_termination(term), r->terminations[term]);
            sep = ", ";
        }
    fprintf(m->out, "%s\nEngine failures:", r->games ? "" : " none");
    sep = " ";
    for (int e = 0; e < 2; e++)
        for (int term = TERM_TIME; term < TERM_ABANDONED; term++)
            if (r->faults[e][term]) {
                fprintf(m->out, "%s%s: %s %d", sep, engine_name(m, e), pgn_termination(term), r->faults[e][term]);
                sep = ", ";
            }
    fprintf(m->out, "%s\n", sep[0] == ',' ? "" : " none");
}

/* ------------------------------------------------------------------------------------------- */
/* Playing. */

/* Scores a finished game for both engines; engine_of[colour] says who played which colour. */
static void score_game(struct match *m, const struct game_record *rec, const int engine_of[2])
{
    struct match_result *r = m->r;
    r->games++;
    r->terminations[rec->term]++;
    for (int colour = 0; colour < 2; colour++) {
        enum tally_kind kind = TALLY_PLAYED;
        if (rec->term == TERM_STALEMATE)
            kind = rec->stalemated == colour ? TALLY_STALEMATE_RECEIVED : TALLY_STALEMATE_GIVEN;
        tally_add(&r->tally[engine_of[colour]], (double)rec->num[colour] / rec->den, kind);
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

static void record_game(struct match *m, int index, const struct game_record *rec, const int engine_of[2])
{
    char result[32];
    pthread_mutex_lock(&m->lock);
    if (rec->term == TERM_FATAL && !m->r->error[0]) {
        snprintf(m->r->error, sizeof m->r->error, "%s", rec->reason);
        atomic_store(&m->stop, true);
    }
    if (game_record_scored(rec)) {
        score_game(m, rec, engine_of);
        pgn_result(rec, result, sizeof result);
        fprintf(m->out, "Finished game %d (%s vs %s): %s {%s}\n", index + 1, engine_name(m, engine_of[0]),
                engine_name(m, engine_of[1]), result, rec->reason);
        report_score(m);
        int interval = m->c->rating_interval;
        if (interval && m->r->games % interval == 0)
            report_elo(m);
        fflush(m->out);
        if (m->pgn) {
            struct pgn_tags tags = { .event = m->c->event, .date = m->date, .variant = m->c->v->name,
                                     .time_control = text_str(&m->time_control), .round = index + 1,
                                     .player = { engine_name(m, engine_of[0]), engine_name(m, engine_of[1]) } };
            pgn_write(m->pgn, &tags, rec);
            fflush(m->pgn);
        }
    }
    pthread_mutex_unlock(&m->lock);
}

/* Game i: engine 0 has White in even games; with -repeat both games of a pair share an opening. */
static const char *opening_of(const struct match *m, int i)
{
    if (!m->openings.n)
        return NULL;
    int pair = m->c->repeat ? i / 2 : i;
    return m->openings.fen[pair % m->openings.n];
}

static void *worker(void *arg)
{
    struct match *m = arg;
    const struct match_conf *c = m->c;
    struct player players[2] = { { .conf = &c->engine[0] }, { .conf = &c->engine[1] } };
    for (;;) {
        pthread_mutex_lock(&m->lock);
        int i = atomic_load(&m->stop) || m->next >= c->games ? -1 : m->next++;
        pthread_mutex_unlock(&m->lock);
        if (i < 0)
            break;
        int engine_of[2] = { i % 2, 1 - i % 2 };
        struct play p = { .v = c->v, .fen = opening_of(m, i), .adj = &c->adj, .cancel = &m->stop,
                          .player = { &players[engine_of[0]], &players[engine_of[1]] } };
        struct game_record rec;
        play_game(&p, &rec);
        record_game(m, i, &rec, engine_of);
        game_record_free(&rec);
    }
    player_stop(&players[0], true);
    player_stop(&players[1], true);
    return NULL;
}

/* The time control tag: one for both engines, or "first / second" when they differ. */
static void describe_time_control(const struct match_conf *c, struct text *out)
{
    struct text second = { 0 };
    tc_format(&c->engine[0].limits, out);
    tc_format(&c->engine[1].limits, &second);
    if (strcmp(text_str(out), text_str(&second)))
        text_printf(out, " / %s", text_str(&second));
    text_free(&second);
}

static bool match_open(struct match *m, char *err, size_t errlen)
{
    const struct match_conf *c = m->c;
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
    fprintf(m->out, "Match %s vs %s: %s, %d games, %s, concurrency %d", engine_name(m, 0), engine_name(m, 1),
            c->v->name, c->games, text_str(&m->time_control), c->concurrency);
    if (c->openings[0])
        fprintf(m->out, ", %d openings from %s (%s, seed %llu)%s", m->openings.n, c->openings,
                c->random_order ? "random" : "sequential", c->seed, c->repeat ? ", colours reversed in pairs" : "");
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
        report_elo(&m);
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
    "                      -engine cmd=<command> ... [-each <settings>] [-variant glinski] [-games 2]\n"
    "                      [-rounds 1] [-concurrency 1] [-openings file=<fen/epd> [order=sequential|random]]\n"
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
