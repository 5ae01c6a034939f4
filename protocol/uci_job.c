/* The UCI server's jobs: searches (go), counts (go perft) and bench, each on its own threads, and the
 * one state they go through (job_update), which the input thread's stop, ponderhit and quit change too. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "../bench/bench.h"
#include "../games/book.h"
#include "../util/number.h"
#include "uci_engine.h"

/* With input's lock held: a stop was read after the job's go, or quit and the job is no perft. */
static bool job_stop_due(const struct uci *u)
{
    return u->gos_run <= u->stop_through || (u->quitting && u->kind != JOB_PERFT);
}

/* With input's lock held: the one place where the job's state changes, on an event, and then what is
 * due: a job that a stop or quit has reached stops, a pondering search that a ponderhit has reached
 * plays on its clock. The loop waits for a stopped job as for any short command, so once the job no
 * longer runs, isready is no longer answered out of turn. */
static void job_update(struct uci *u, enum job_event e)
{
    if (e == JOB_ON_START)
        u->job = JOB_RUNNING;
    else if (e == JOB_ON_END && u->job != JOB_NONE)
        u->job = JOB_ENDED;
    else if (e == JOB_ON_JOIN)
        u->job = JOB_NONE;
    if (u->job == JOB_RUNNING && job_stop_due(u)) {
        u->job = JOB_STOPPING;
        atomic_store(&u->stop, true);
        pool_stop(u->pool);
        pool_stop(u->bench_pool);
    }
    if ((u->job == JOB_RUNNING || u->job == JOB_STOPPING) && u->kind == JOB_PONDER
        && u->gos_run == u->ponderhit_through) {
        u->kind = u->infinite ? JOB_INFINITE : JOB_SEARCH;
        pool_ponderhit(u->pool);
    }
    if (u->job != JOB_RUNNING)
        u->input.waiting_job = false;
}

/* Called by the job's own thread as it ends: the loop's wait for it will be short. */
static void job_ended(struct uci *u)
{
    input_lock(&u->input);
    job_update(u, JOB_ON_END);
    input_unlock(&u->input);
}

/* Before a command that changes the engine's state: a count or a timed search is waited for,
 * an infinite or pondering search (which only stop ends) is stopped. While the loop waits for a
 * job that still runs and that no stop has reached, isready is answered at once, those already
 * queued included, as the UCI spec asks of an engine that is calculating. */
void job_join(struct uci *u)
{
    input_lock(&u->input);
    if (u->job == JOB_NONE) {
        input_unlock(&u->input);
        return;
    }
    /* Never lowered: the input thread may already have read a stop for a later go. */
    if ((u->kind == JOB_INFINITE || u->kind == JOB_PONDER) && u->stop_through < u->gos_run)
        u->stop_through = u->gos_run;
    job_update(u, JOB_ON_DUE);
    u->input.waiting_job = u->job == JOB_RUNNING;
    if (u->input.waiting_job)
        for (int n = input_remove_if(&u->input, uci_line_is_isready); n > 0; n--)
            say("readyok");
    bool thread = u->kind == JOB_PERFT || u->kind == JOB_BENCH;
    input_unlock(&u->input);
    if (thread)
        pthread_join(u->worker, NULL);
    else
        pool_wait(u->pool);
    input_lock(&u->input);
    job_update(u, JOB_ON_JOIN);
    input_unlock(&u->input);
}

static void *perft_worker(void *arg)
{
    struct uci *u = arg;
    struct game *g = &u->game;
    move_t list[MAX_MOVES];
    int n = game_legal_moves(g, list);
    uint64_t total = 0;
    bool stopped = false;
    for (int i = 0; i < n && !stopped; i++) {
        uint64_t count = game_perft_move(g, list[i], u->perft_depth - 1, &u->stop);
        total += count;
        stopped = atomic_load(&u->stop);
        if (!stopped) {
            char text[16];
            move_to_text(g->v, list[i], text);
            say("%s: %llu", text, (unsigned long long)count);
        }
    }
    job_ended(u);
    say("%s", "");
    if (stopped)
        say("info string perft stopped");
    say("Nodes searched: %llu", (unsigned long long)total);
    return NULL;
}

/* isready waits for a stopped job, so that its bestmove comes before readyok, but never for one
 * still calculating (UCI: "immediately ... without stopping the search"). */
void cmd_isready(struct uci *u, char **tok, int n)
{
    (void)tok, (void)n;
    input_lock(&u->input);
    bool calculating = u->job == JOB_RUNNING;
    input_unlock(&u->input);
    if (!calculating)
        job_join(u);
    say("readyok");
}

static void search_done(void *ctx, move_t best, move_t ponder)
{
    struct uci *u = ctx;
    char b[16], p[16];
    job_ended(u);
    if (best == MOVE_NONE) {
        say("bestmove (none)");
        return;
    }
    move_to_text(u->game.v, best, b);
    if (ponder == MOVE_NONE) {
        say("bestmove %s", b);
        return;
    }
    move_to_text(u->game.v, ponder, p);
    say("bestmove %s ponder %s", b, p);
}

/* go: wtime btime rtime (the army's letter + time), inc, movestogo, depth, nodes, mate, movetime,
 * infinite, ponder, searchmoves. */
static bool parse_go(struct uci *u, char **tok, int n, struct search_limits *l)
{
    const struct variant *v = u->game.v;
    memset(l, 0, sizeof *l);
    for (int p = 0; p < MAX_PLAYERS; p++)
        l->time[p] = l->inc[p] = -1;
    char err[ERR_LEN];
    for (int i = 1; i < n; i++) {
        const char *w = tok[i];
        long x = 0;
        const char *colour = strlen(w) == 5 && !strcmp(w + 1, "time")  ? w
                             : strlen(w) == 4 && !strcmp(w + 1, "inc") ? w
                                                                        : NULL;
        const char *mine = colour ? memchr(v->colour_letter, colour[0], (size_t)v->nplayers) : NULL;
        if (!strcmp(w, "infinite")) {
            l->infinite = true;
        } else if (!strcmp(w, "ponder")) {
            l->ponder = true;
        } else if (!strcmp(w, "searchmoves")) {
            while (i + 1 < n && l->nsearchmoves < MAX_SEARCHMOVES
                   && game_parse_move(&u->game, tok[i + 1], &l->searchmoves[l->nsearchmoves], err, sizeof err)) {
                l->nsearchmoves++;
                i++;
            }
            if (!l->nsearchmoves) {
                say_error("go searchmoves: no legal move follows");
                return false;
            }
        } else if (i + 1 < n && (colour || !strcmp(w, "movestogo") || !strcmp(w, "depth") || !strcmp(w, "nodes")
                                 || !strcmp(w, "mate") || !strcmp(w, "movetime"))
                   && number_parse(tok[i + 1], colour && strstr(w, "time") ? -1000000000L : 0, 1000000000000L, &x)) {
            i++;
            if (colour && !mine)
                ;   /* a colour this variant does not have: ignored, as GUIs send both clocks */
            else if (colour && w[1] == 't')
                l->time[mine - v->colour_letter] = x < 1 ? 1 : x;
            else if (colour)
                l->inc[mine - v->colour_letter] = x;
            else if (!strcmp(w, "movestogo"))
                l->movestogo = (int)(x < 1000 ? x : 1000);
            else if (!strcmp(w, "depth"))
                l->depth = (int)(x < MAX_PLY - 1 ? x : MAX_PLY - 1);
            else if (!strcmp(w, "nodes"))
                l->nodes = (uint64_t)x;
            else if (!strcmp(w, "mate"))
                l->mate = (int)(x < MAX_PLY / 2 ? x : MAX_PLY / 2);
            else
                l->movetime = x < 1 ? 1 : x;
        } else {
            snprintf(err, sizeof err, "go: unexpected '%s'", w);
            say_error(err);
            return false;
        }
    }
    int side = game_side(&u->game);
    /* A front end that knows two clocks only (wtime, btime) still gets a timed move from the third
     * army: it plays on the shortest clock given. */
    int shortest = -1;
    for (int p = 0; p < v->nplayers; p++)
        if (l->time[p] >= 0 && (shortest < 0 || l->time[p] < l->time[shortest]))
            shortest = p;
    if (l->time[side] < 0 && shortest >= 0) {
        l->time[side] = l->time[shortest];
        l->inc[side] = l->inc[shortest];
    }
    /* A bare go searches until stop, as GUIs expect for analysis. */
    if (l->time[side] < 0 && !l->movetime && !l->depth && !l->nodes && !l->mate)
        l->infinite = true;
    return true;
}

/* A book move is played at once, except in analysis (infinite, mate, searchmoves) and pondering;
 * returns whether one was. */
static bool play_book_move(struct uci *u, const struct search_limits *l)
{
    struct book_move m[MAX_MOVES];
    struct setup s;
    char text[16];
    if (!u->own_book || u->analyse || !u->book.n || l->infinite || l->ponder || l->mate || l->nsearchmoves)
        return false;
    game_setup(&u->game, &s);
    if (u->book_depth && s.fullmove > u->book_depth)
        return false;
    int n = book_probe(&u->book, &u->game, m, NULL);
    uint64_t random = XXH3_64bits_withSeed(&u->book_draws, sizeof u->book_draws, u->book_seed), total = 0;
    u->book_draws++;
    int i = book_pick(m, n, u->book_variety, random);
    if (i < 0)
        return false;
    for (int k = 0; k < n; k++)
        total += m[k].weight;
    move_to_text(u->game.v, m[i].move, text);
    say("info string book move %s (weight %u of %llu)", text, m[i].weight, (unsigned long long)total);
    say("bestmove %s", text);
    return true;
}

/* Runs a count (perft, bench) on the worker thread. A stop read after its go, before it started,
 * takes effect at once (job_update); the thread's job_ended waits for the lock held here. */
static void start_job(struct uci *u, void *(*run)(void *), enum job_kind kind)
{
    atomic_store(&u->stop, false);
    input_lock(&u->input);
    u->kind = kind;
    if (pthread_create(&u->worker, NULL, run, u))
        say_error("cannot start a thread");
    else
        job_update(u, JOB_ON_START);
    input_unlock(&u->input);
}

static void start_perft(struct uci *u, char **tok, int n)
{
    long depth;
    if (n != 3 || !number_parse(tok[2], 1, MAX_PERFT_DEPTH, &depth)) {
        say_error("usage: go perft <depth 1..30>");
        return;
    }
    u->perft_depth = (int)depth;
    start_job(u, perft_worker, JOB_PERFT);
}

static void start_search(struct uci *u, char **tok, int n)
{
    struct search_limits l;
    if (!parse_go(u, tok, n, &l) || play_book_move(u, &l))
        return;
    l.elo = u->limit_strength ? u->elo : 0;
    const struct search_callbacks cb = { say_report, say_progress, search_done, u };
    input_lock(&u->input);
    u->kind = l.ponder ? JOB_PONDER : l.infinite ? JOB_INFINITE : JOB_SEARCH;
    u->infinite = l.infinite;
    if (!pool_go(u->pool, &u->game, &l, &u->weights, u->multipv, u->move_overhead, &cb))
        say_error("cannot start the search (out of memory or threads)");
    else
        job_update(u, JOB_ON_START);
    u->table_used = true;
    input_unlock(&u->input);
}

/* go and bench are jobs that stop refers to by their count (uci_hear counts those read). */
static void job_count(struct uci *u)
{
    input_lock(&u->input);
    u->gos_run++;
    input_unlock(&u->input);
}

void cmd_go(struct uci *u, char **tok, int n)
{
    job_count(u);
    if (n >= 2 && !strcmp(tok[1], "perft"))
        start_perft(u, tok, n);
    else
        start_search(u, tok, n);
}

static void *bench_worker(void *arg)
{
    struct uci *u = arg;
    struct bench_result r;
    bench_run(u->bench_args[0], u->bench_args[1], (size_t)u->bench_args[2], &u->weights, &u->nets, u->bench_pool,
              &u->stop, say, &r);
    /* Only now: an isready read while the job ran is answered after its last line. */
    job_ended(u);
    return NULL;
}

/* bench [depth] [threads] [hash], as `sennight bench`, with the session's weights: a job like go
 * perft, which stop and quit end early. */
void cmd_bench(struct uci *u, char **tok, int n)
{
    long arg[3] = { BENCH_DEPTH, 1, 16 }, hi[3] = { 64, MAX_THREADS, TT_MAX_MB };
    job_count(u);
    for (int i = 1; i < n && i <= 3; i++)
        if (n > 4 || !number_parse(tok[i], 1, hi[i - 1], &arg[i - 1])) {
            say_error("usage: bench [depth 1..64] [threads] [hash MB]");
            return;
        }
    for (int i = 0; i < 3; i++)
        u->bench_args[i] = (int)arg[i];
    start_job(u, bench_worker, JOB_BENCH);
}

void job_heard(struct uci *u, const char *command)
{
    if (!strcmp(command, "go") || !strcmp(command, "bench"))
        u->gos_read++;
    else if (!strcmp(command, "stop"))
        u->stop_through = u->gos_read;
    else if (!strcmp(command, "quit"))
        u->quitting = true;
    else if (!strcmp(command, "ponderhit"))
        u->ponderhit_through = u->gos_read;
    else
        return;
    job_update(u, JOB_ON_DUE);
}
