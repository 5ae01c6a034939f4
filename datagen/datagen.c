/* Self-play for training data: worker threads play whole games, the writer puts them in game order. */
#include "datagen.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../games/datagen_format.h"
#include "../games/lines.h"
#include "../games/openings.h"
#include "../util/clock.h"
#include "../util/file.h"
#include "../util/random.h"
#include "../util/shard.h"

/* Draws of an opening and random plies before a game is given up with no positions. */
enum { OPENING_TRIES = 100, ERR_LEN = 512 };

const struct adjudication datagen_adjudication = { .draw_movenumber = 40, .draw_movecount = 8, .draw_score = 10,
                                                   .resign_movecount = 3, .resign_score = 600 };

/* One game's encoded records, handed from its worker to the writer. */
struct game_out {
    unsigned char *bytes;
    size_t positions, plies, crowded;
    bool done;
};

struct run {
    const struct datagen_options *o;
    struct openings book;
    uint64_t begin, end;
    atomic_uint_fast64_t next;  /* the next game a worker takes */
    pthread_mutex_t lock;       /* guards out, failed and err */
    pthread_cond_t ready;       /* a game is done, or the run failed */
    struct game_out *out;       /* by game - begin */
    bool failed;
    char err[ERR_LEN];          /* why a game failed; empty when the write did */
    struct datagen_stats *st;
};

/* The positions of a game as it goes, waiting for its result. */
struct pending {
    struct datagen_record *r;
    size_t n, cap;
};

/* The game's opening and random plies: 1, or 0 if they ended the game or took an army off, or -1 with
 * err if the opening does not load. */
static int start_game(struct game *g, const struct run *run, uint64_t *random, char *err, size_t errlen)
{
    move_t list[MAX_MOVES];
    unsigned armies;
    const char *fen = run->book.fen[random_next(random) % (uint64_t)run->book.n];
    if (!game_set_position(g, fen, NULL, 0, err, errlen))
        return -1;
    armies = game_armies(g);
    for (int ply = 0; ply < run->o->random_plies; ply++) {
        int n = game_legal_moves(g, list);
        if (!n || game_play(g, list[random_next(random) % (uint64_t)n], NULL))
            return 0;
    }
    return game_status(g).outcome == GAME_ONGOING && game_armies(g) == armies;
}

static bool quiet_move(const struct game *g, const struct setup *s, move_t m)
{
    int target = s->piece[move_to(m)];
    bool capture = (m & MOVE_EP) || (target && piece_colour(target) != s->side);
    return !capture && move_promo(m) < 0 && !game_in_check(g);
}

static bool pending_add(struct pending *p, const struct datagen_record *r)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 128;
        struct datagen_record *grown = realloc(p->r, cap * sizeof *grown);
        if (!grown)
            return false;
        p->r = grown;
        p->cap = cap;
    }
    p->r[p->n++] = *r;
    return true;
}

/* Each army's points and placement when the game ends: the points decide, then the later an army
 * left the board (left[p], a ply; INT_MAX if it stayed) the better. */
static void set_result(struct datagen_record *res, const struct variant *v, int den, const int points[MAX_PLAYERS],
                       const int left[MAX_PLAYERS])
{
    res->den = den;
    for (int p = 0; p < MAX_PLAYERS; p++) {
        res->points[p] = p < v->nplayers ? points[p] : 0;
        res->place[p] = 0;
    }
    for (int p = 0; p < v->nplayers; p++) {
        res->place[p] = 1;
        for (int q = 0; q < v->nplayers; q++)
            res->place[p] += points[q] > points[p] || (points[q] == points[p] && left[q] > left[p]);
    }
}

/* The result of a game that is over, by the rules or by adjudication; false while it goes on. */
static bool game_over(struct game *g, const struct adjudicator *judge, const struct adjudication *adj, int plies,
                      const int left[MAX_PLAYERS], struct datagen_record *res)
{
    struct game_status st = game_status(g);
    enum adjudged verdict = adjudicator_verdict(judge, adj, plies);
    unsigned armies = game_armies(g);
    int points[MAX_PLAYERS] = { 0 };
    if (st.outcome != GAME_ONGOING) {
        set_result(res, g->v, st.den, st.score, left);
    } else if (verdict == ADJUDGED_RESIGN) {
        for (int p = 0; p < g->v->nplayers; p++)
            points[p] = (armies >> p & 1) && p != judge->resigned;
        set_result(res, g->v, __builtin_popcount(armies) - 1, points, left);
    } else if (verdict == ADJUDGED_DRAW) {
        for (int p = 0; p < g->v->nplayers; p++)
            points[p] = armies >> p & 1;
        set_result(res, g->v, __builtin_popcount(armies), points, left);
    }
    return st.outcome != GAME_ONGOING || verdict != ADJUDGED_NONE;
}

/* Plays game `index` and encodes its quiet positions into out; false with err if the search cannot
 * run or memory is short. */
static bool play_one(const struct run *run, struct search_pool *pool, struct game *g, uint64_t index,
                     struct game_out *out, char *err, size_t errlen)
{
    const struct datagen_options *o = run->o;
    /* Each game's own stream: the seed mixed with the game's index. */
    uint64_t mix = index, random = o->seed ^ random_next(&mix);
    struct adjudication adj = g->v->nplayers == 2 ? o->adj : (struct adjudication){ 0 };
    struct adjudicator judge;
    struct pending pending = { 0 };
    struct datagen_record res = { 0 };
    int left[MAX_PLAYERS], ply = o->random_plies, started = 0;
    bool ok = true;
    for (int try = 0; try < OPENING_TRIES && !started; try++)
        started = start_game(g, run, &random, err, errlen);
    if (started <= 0)
        return started == 0;
    for (int p = 0; p < MAX_PLAYERS; p++)
        left[p] = game_armies(g) >> p & 1 ? INT_MAX : 0;
    adjudicator_start(&judge);
    /* The table and history are cleared once a game, not once a move: each search starts from what the
     * game's earlier searches left (as in a played game), and the game still depends on nothing else. */
    pool_clear(pool);
    while (ok && !game_over(g, &judge, &adj, ply, left, &res)) {
        struct lines lines;
        struct datagen_record r = { .v = g->v, .ply = ply };
        if (!lines_continue(pool, g, 1, 0, o->nodes, &lines)) {
            snprintf(err, errlen, "cannot start the search (out of memory or threads)");
            ok = false;
            break;
        }
        /* A search that completed no iteration has a move but no score: its position is not written. */
        move_t m = lines.n ? lines.move[0] : lines.best;
        if (m == MOVE_NONE) {
            snprintf(err, errlen, "the search found no move in a game that goes on");
            ok = false;
            break;
        }
        game_setup(g, &r.s);
        r.move = m;
        r.score = lines.n ? lines.score[0] : 0;
        if (lines.n && quiet_move(g, &r.s, m) && !(ok = pending_add(&pending, &r)))
            snprintf(err, errlen, "out of memory");
        adjudicator_move(&judge, &adj, r.s.side, lines.n > 0, r.score);
        unsigned gone = game_play(g, m, NULL);
        ply++;
        for (int p = 0; p < MAX_PLAYERS; p++)
            if (gone >> p & 1)
                left[p] = ply;
    }
    out->plies = (size_t)(ply - o->random_plies);
    out->bytes = ok && pending.n ? malloc(pending.n * DATAGEN_RECORD_SIZE) : NULL;
    if (ok && pending.n && !out->bytes) {
        snprintf(err, errlen, "out of memory");
        ok = false;
    }
    for (size_t i = 0; ok && i < pending.n; i++) {
        struct datagen_record *r = &pending.r[i];
        memcpy(r->points, res.points, sizeof r->points);
        memcpy(r->place, res.place, sizeof r->place);
        r->den = res.den;
        r->wdl = datagen_wdl(r->place, g->v->nplayers, r->s.side);
        if (datagen_encode(r, out->bytes + out->positions * DATAGEN_RECORD_SIZE))
            out->positions++;
        else
            out->crowded++;
    }
    free(pending.r);
    return ok;
}

static void run_fail(struct run *run, const char *err)
{
    pthread_mutex_lock(&run->lock);
    if (!run->failed)
        snprintf(run->err, sizeof run->err, "%s", err);
    run->failed = true;
    atomic_store(&run->next, run->end);
    pthread_cond_broadcast(&run->ready);
    pthread_mutex_unlock(&run->lock);
}

static void *worker_main(void *arg)
{
    struct run *run = arg;
    struct search_pool *pool = pool_new();
    struct game g = { 0 };
    char err[ERR_LEN] = "";
    if (!pool) {
        run_fail(run, "cannot set up the search");
        return NULL;
    }
    bool ok = game_init(&g, run->o->v, false, err, sizeof err);
    if (ok && !(ok = pool_configure(pool, 1, run->o->hash_mb)))
        snprintf(err, sizeof err, "out of memory");
    for (uint64_t i; ok && (i = atomic_fetch_add(&run->next, 1)) < run->end;) {
        struct game_out out = { 0 };
        if (!(ok = play_one(run, pool, &g, i, &out, err, sizeof err)))
            break;
        pthread_mutex_lock(&run->lock);
        out.done = true;
        run->out[i - run->begin] = out;
        pthread_cond_broadcast(&run->ready);
        pthread_mutex_unlock(&run->lock);
    }
    if (!ok)
        run_fail(run, err);
    pool_free(pool);
    game_free(&g);
    return NULL;
}

static void progress(const struct run *run, int64_t start, bool last)
{
    const struct datagen_stats *st = run->st;
    int64_t ms = clock_ms() - start, eta = 0;
    uint64_t total = run->end - run->begin;
    if (st->games)
        eta = (int64_t)((double)ms * (double)(total - st->games) / (double)st->games / 1000);
    fprintf(run->o->progress, "\rdatagen: %llu/%llu games, %llu positions, %.0f positions/s, ETA %lld:%02lld%s",
            (unsigned long long)st->games, (unsigned long long)total, (unsigned long long)st->positions,
            ms ? 1000.0 * (double)st->positions / (double)ms : 0.0, (long long)(eta / 60), (long long)(eta % 60),
            last ? "\n" : "");
    fflush(run->o->progress);
}

/* file_replace's writer: starts the workers and writes each game as soon as it and every game before
 * it are done. */
static bool write_games(FILE *f, const void *ctx)
{
    struct run *run = *(struct run *const *)ctx;
    pthread_t tid[DATAGEN_MAX_CONCURRENCY];
    int started = 0;
    int64_t start = clock_ms(), shown = start;
    while (started < run->o->concurrency && !pthread_create(&tid[started], NULL, worker_main, run))
        started++;
    if (!started)
        run_fail(run, "cannot start a thread");
    for (uint64_t i = run->begin; i < run->end; i++) {
        struct game_out *out = &run->out[i - run->begin];
        pthread_mutex_lock(&run->lock);
        while (!out->done && !run->failed)
            pthread_cond_wait(&run->ready, &run->lock);
        bool failed = run->failed;
        pthread_mutex_unlock(&run->lock);
        if (failed)
            break;
        if (fwrite(out->bytes, DATAGEN_RECORD_SIZE, out->positions, f) != out->positions)
            run_fail(run, "");  /* file_replace says why */
        run->st->games++;
        run->st->plies += out->plies;
        run->st->positions += out->positions;
        run->st->crowded += out->crowded;
        free(out->bytes);
        out->bytes = NULL;
        if (run->o->progress && (clock_ms() - shown >= 1000 || i + 1 == run->end)) {
            shown = clock_ms();
            progress(run, start, i + 1 == run->end);
        }
    }
    for (int k = 0; k < started; k++)
        pthread_join(tid[k], NULL);
    run->st->ms = clock_ms() - start;
    return !run->failed;
}

bool datagen_run(const char *path, const struct datagen_options *o, struct datagen_stats *st, char *err,
                 size_t errlen)
{
    struct run run = { .o = o, .st = st };
    struct run *ref = &run;
    char shipped[4096];
    const char *openings = o->openings;
    *st = (struct datagen_stats){ 0 };
    if (o->nshards < 1 || o->shard < 1 || o->shard > o->nshards || o->concurrency < 1
        || o->concurrency > DATAGEN_MAX_CONCURRENCY || o->random_plies < 0
        || !o->nodes || !o->hash_mb) {
        snprintf(err, errlen, "datagen: bad options (shard K/N with 1 <= K <= N, concurrency from 1 to 256, "
                 "random plies from 0, a node limit, hash from 1 MB)");
        return false;
    }
    if (o->v->nplayers > DATAGEN_MAX_ARMIES) {
        snprintf(err, errlen, "%s: a record holds the results of at most %d armies, not %d", o->v->name,
                 DATAGEN_MAX_ARMIES, o->v->nplayers);
        return false;
    }
    if (o->v->stalemate_den > UINT16_MAX) {
        snprintf(err, errlen, "%s: a stalemate score of %d/%d does not fit the records", o->v->name,
                 o->v->stalemate_num, o->v->stalemate_den);
        return false;
    }
    if (!openings && !openings_find_shipped(o->v->name, shipped, sizeof shipped)) {
        snprintf(err, errlen, "no opening suite books/openings/%s.epd next to the executable or in the current "
                 "directory: give one with --openings", o->v->name);
        return false;
    }
    if (!openings_load(&run.book, openings ? openings : shipped, o->v, err, errlen))
        return false;
    shard_range(o->games, o->shard, o->nshards, &run.begin, &run.end);
    atomic_init(&run.next, run.begin);
    bool ok = run.book.n > 0;
    if (!ok)
        snprintf(err, errlen, "%s: no positions", openings ? openings : shipped);
    if (ok && !(ok = (run.out = calloc(run.end - run.begin + 1, sizeof *run.out)) != NULL))
        snprintf(err, errlen, "out of memory");
    bool locked = ok && !pthread_mutex_init(&run.lock, NULL);
    bool signalled = locked && !pthread_cond_init(&run.ready, NULL);
    if (ok && !signalled) {
        snprintf(err, errlen, "cannot set up the threads");
        ok = false;
    }
    /* A failed write has file_replace's message; a failed game, the run's. */
    if (ok && !(ok = file_replace(path, write_games, &ref, err, errlen)) && run.err[0])
        snprintf(err, errlen, "%s", run.err);
    if (signalled)
        pthread_cond_destroy(&run.ready);
    if (locked)
        pthread_mutex_destroy(&run.lock);
    for (uint64_t i = run.begin; run.out && i < run.end; i++)
        free(run.out[i - run.begin].bytes);
    free(run.out);
    openings_free(&run.book);
    return ok;
}
