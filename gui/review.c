/* The game review: a thread with an engine process of its own searches each position of the game
 * at the budget, then, when the move played was not its best, the played move alone (searchmoves), so
 * that both scores come from the mover's view at the same budget. */
#include "review.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../client/uci_client.h"
#include "../engine/engine.h"
#include "../games/pgn.h"
#include "../util/text.h"
#include "shares.h"

#define SECONDS 1000000LL
static const long long ENGINE_TIMEOUT = 10 * SECONDS;  /* handshake, isready */
static const long long SEARCH_TIMEOUT = 300 * SECONDS; /* a node budget has no time of its own */
static const long long STALL_GRACE = 2 * SECONDS;      /* past its time, an engine is taken for hung */
/* Drops of the expected score (0..1) that make an inaccuracy, a mistake, a blunder: lichess's 0.1,
 * 0.2 and 0.3 on its winning-chances scale (-1..1). */
static const double THRESHOLD[] = { [JUDGED_INACCURACY] = 0.05, [JUDGED_MISTAKE] = 0.10, [JUDGED_BLUNDER] = 0.15 };
static const char *const judgement_names[] = { "good", "inaccuracy", "mistake", "blunder" };
static const char *const nags[] = { NULL, "?!", "?", "??" };
static const char *const state_names[] = { "running", "done", "stopped", "failed" };

enum review_state { REVIEW_RUNNING, REVIEW_DONE, REVIEW_STOPPED, REVIEW_FAILED };

/* A move of the game, and what the review found of it. */
struct reviewed {
    char uci[16], san[SAN_LEN];
    int army;                   /* the mover */
    unsigned board;             /* the armies on the board before the move */
    char best[32], best_san[32];
    int best_score, score;      /* the best move's and the played move's, for the mover */
    double before, after;       /* the mover's expected score from them (judge_moves) */
};

struct review {
    pthread_mutex_t lock;
    pthread_t thread;
    bool joined;
    atomic_bool cancel;
    const struct variant *v;
    char cmd[1024], *start;
    struct review_budget budget;
    struct reviewed *moves;
    int n;
    /* Under the lock. */
    enum review_state state;
    char message[256];
    int done;
    long long version;
};

double review_expected(int score, const double *others, int nothers)
{
    double scores[MAX_PLAYERS] = { score }, share[MAX_PLAYERS];
    /* Two armies: a search's score is zero-sum, so the other's is minus the mover's (lichess's curve). */
    for (int i = 0; i < nothers; i++)
        scores[i + 1] = nothers == 1 ? -score : others[i];
    shares_expected(nothers + 1, (1u << (nothers + 1)) - 1, scores, share);
    return share[0];
}

enum judgement review_judge(double drop)
{
    enum judgement j = JUDGED_BLUNDER;
    while (j > JUDGED_GOOD && drop < THRESHOLD[j])
        j--;
    return j;
}

double review_move_accuracy(double drop)
{
    /* lichess: from the drop of the mover's winning percentage (0..100). */
    double a = 103.1668100711649 * exp(-0.04354415386753951 * 100 * drop) - 3.166924740191411;
    return a < 0 ? 0 : a > 100 ? 100 : a;
}

static double drop_of(const struct reviewed *m)
{
    /* The played move may score above the best at the same budget: no loss. */
    return m->before > m->after ? m->before - m->after : 0;
}

/* Each reviewed move's expected scores against the other armies' latest scores (their best moves'
 * at their last turn before it; an army yet to move, its first; none reviewed yet: level); under the
 * lock, after each move reviewed, as an army's first score changes the moves before it. */
static void judge_moves(struct review *r)
{
    double latest[MAX_PLAYERS], first[MAX_PLAYERS];
    for (int a = 0; a < MAX_PLAYERS; a++)
        latest[a] = first[a] = NAN;
    for (int i = r->done - 1; i >= 0; i--)
        first[r->moves[i].army] = r->moves[i].best_score;
    for (int i = 0; i < r->done; i++) {
        struct reviewed *m = &r->moves[i];
        double others[MAX_PLAYERS];
        int n = 0;
        for (int a = 0; a < r->v->nplayers; a++)
            if (a != m->army && m->board >> a & 1)
                others[n++] = isnan(latest[a]) ? first[a] : latest[a];
        m->before = review_expected(m->best_score, others, n);
        m->after = review_expected(m->score, others, n);
        latest[m->army] = m->best_score;
    }
}

/* The engine's move as SAN in the game's position (its text if it is not legal there). */
static void best_san(struct game *g, const char *best, char *out, size_t len)
{
    move_t m;
    char err[256], san[SAN_LEN];
    snprintf(out, len, "%s", best);
    if (game_parse_move(g, best, &m, err, sizeof err)) {
        san_write(g, m, san);
        snprintf(out, len, "%s", san);
    }
}

static void finish(struct review *r, enum review_state state, const char *message)
{
    pthread_mutex_lock(&r->lock);
    r->state = state;
    snprintf(r->message, sizeof r->message, "%s", message);
    r->version++;
    pthread_mutex_unlock(&r->lock);
}

static void *review_main(void *arg)
{
    struct review *r = arg;
    struct uci_client c = { .timeout = ENGINE_TIMEOUT };
    struct text position = { 0 }, go = { 0 }, only = { 0 };
    struct uci_reply best, played;
    struct game g = { 0 };
    char err[200];
    long long limit = r->budget.nodes ? SEARCH_TIMEOUT : r->budget.movetime_ms * 1000 + STALL_GRACE;
    enum uci_status st = uci_client_start(&c, r->cmd, NULL, 0, r->v->name, &r->cancel);
    /* The game follows the review, for the best moves' SAN. */
    if (st == UCI_OK && !(game_init(&g, r->v, false, err, sizeof err)
                          && game_set_position(&g, r->start, NULL, 0, err, sizeof err))) {
        snprintf(c.error, sizeof c.error, "%s", err);
        st = UCI_FATAL;
    }
    if (st == UCI_OK)
        st = uci_client_new_game(&c, &r->cancel);
    if (r->budget.nodes)
        text_printf(&go, " nodes %lld", r->budget.nodes);
    else
        text_printf(&go, " movetime %lld", r->budget.movetime_ms);
    for (int i = 0; i < r->n && st == UCI_OK; i++) {
        struct reviewed *m = &r->moves[i];
        move_t mv;
        if (!game_parse_move(&g, m->uci, &mv, err, sizeof err)) {
            snprintf(c.error, sizeof c.error, "move %d '%s': %s", i + 1, m->uci, err);
            st = UCI_FATAL;
            break;
        }
        m->army = game_side(&g);
        m->board = game_armies(&g);
        san_write(&g, mv, m->san);
        text_clear(&position);
        text_printf(&position, "position fen %s", r->start);
        for (int k = 0; k < i; k++)
            text_printf(&position, "%s%s", k ? " " : " moves ", r->moves[k].uci);
        st = uci_client_go(&c, text_str(&position), text_str(&go), limit, &r->cancel, &best);
        played = best;
        if (st == UCI_OK && strcasecmp(best.move, m->uci)) {
            text_clear(&only);
            text_printf(&only, "%s searchmoves %s", text_str(&go), m->uci);
            st = uci_client_go(&c, text_str(&position), text_str(&only), limit, &r->cancel, &played);
        }
        if (st != UCI_OK)
            break;
        snprintf(m->best, sizeof m->best, "%s", best.move);
        best_san(&g, best.move, m->best_san, sizeof m->best_san);
        game_play(&g, mv, NULL);
        pthread_mutex_lock(&r->lock);
        m->best_score = best.has_score ? best.score : 0;
        m->score = played.has_score ? played.score : 0;
        r->done = i + 1;
        judge_moves(r);
        r->version++;
        pthread_mutex_unlock(&r->lock);
    }
    text_free(&position);
    text_free(&go);
    text_free(&only);
    game_free(&g);
    if (st == UCI_OK)
        finish(r, REVIEW_DONE, "");
    else if (st == UCI_CANCELLED)
        finish(r, REVIEW_STOPPED, "");
    else
        finish(r, REVIEW_FAILED, c.error);
    uci_client_end(&c, st == UCI_OK);
    return NULL;
}

struct review *review_start(const char *cmd, const struct variant *v, const char *start, const char *const *moves,
                            int n, struct review_budget budget, char *err, size_t errlen)
{
    struct review *r = calloc(1, sizeof *r);
    if (r) {
        r->joined = true;
        pthread_mutex_init(&r->lock, NULL);
        r->moves = calloc((size_t)(n ? n : 1), sizeof *r->moves);
        r->start = strdup(start);
    }
    if (!r || !r->moves || !r->start) {
        snprintf(err, errlen, "out of memory");
        review_free(r);
        return NULL;
    }
    r->v = v;
    r->n = n;
    r->budget = budget;
    snprintf(r->cmd, sizeof r->cmd, "%s", cmd);
    for (int i = 0; i < n; i++)
        snprintf(r->moves[i].uci, sizeof r->moves[i].uci, "%s", moves[i]);
    if (pthread_create(&r->thread, NULL, review_main, r)) {
        snprintf(err, errlen, "out of threads");
        review_free(r);
        return NULL;
    }
    r->joined = false;
    return r;
}

void review_stop(struct review *r)
{
    if (!r || r->joined)
        return;
    atomic_store(&r->cancel, true);
    pthread_join(r->thread, NULL);
    r->joined = true;
}

bool review_running(struct review *r)
{
    pthread_mutex_lock(&r->lock);
    bool running = r->state == REVIEW_RUNNING;
    pthread_mutex_unlock(&r->lock);
    return running;
}

void review_free(struct review *r)
{
    if (!r)
        return;
    review_stop(r);
    pthread_mutex_destroy(&r->lock);
    free(r->moves);
    free(r->start);
    free(r);
}

long long review_version(struct review *r)
{
    pthread_mutex_lock(&r->lock);
    long long version = r->version;
    pthread_mutex_unlock(&r->lock);
    return version;
}

static json_t *score_json(int score)
{
    int distance = UCI_MATE_SCORE - abs(score);
    if (distance < 1000)
        return json_pack("{s:i}", "mate", score > 0 ? distance : -distance);
    return json_pack("{s:i}", "cp", score);
}

static json_t *letter_json(const struct variant *v, int army)
{
    char letter[2] = { v->colour_letter[army], 0 };
    return json_string(letter);
}

json_t *review_json(struct review *r)
{
    json_t *moves = json_array(), *accuracy = json_object();
    double sum[MAX_PLAYERS] = { 0 };
    int count[MAX_PLAYERS] = { 0 };
    pthread_mutex_lock(&r->lock);
    for (int i = 0; i < r->done; i++) {
        const struct reviewed *m = &r->moves[i];
        double drop = drop_of(m);
        enum judgement j = review_judge(drop);
        sum[m->army] += review_move_accuracy(drop);
        count[m->army]++;
        json_array_append_new(
            moves, json_pack("{s:i, s:o, s:s, s:s, s:s, s:s, s:o, s:o, s:f, s:f, s:f, s:o}", "ply", i + 1, "army",
                             letter_json(r->v, m->army), "move", m->uci, "san", m->san, "best", m->best, "best_san",
                             m->best_san, "best_score", score_json(m->best_score), "score", score_json(m->score),
                             "before", m->before, "after", m->after, "drop", drop, "judgement",
                             j == JUDGED_GOOD ? json_null() : json_string(judgement_names[j])));
    }
    for (int a = 0; a < r->v->nplayers; a++)
        if (count[a]) {
            char letter[2] = { r->v->colour_letter[a], 0 };
            json_object_set_new(accuracy, letter, json_real(sum[a] / count[a]));
        }
    json_t *budget = r->budget.nodes ? json_pack("{s:I}", "nodes", (json_int_t)r->budget.nodes)
                                     : json_pack("{s:I}", "movetime_ms", (json_int_t)r->budget.movetime_ms);
    json_t *out = json_pack("{s:s, s:s, s:i, s:i, s:o, s:o, s:o}", "state", state_names[r->state], "message",
                            r->message, "done", r->done, "total", r->n, "budget", budget, "moves", moves, "accuracy",
                            accuracy);
    pthread_mutex_unlock(&r->lock);
    return out;
}

bool review_annotation(struct review *r, int i, const char **nag, char *comment, size_t len)
{
    pthread_mutex_lock(&r->lock);
    bool done = i < r->done;
    if (done) {
        const struct reviewed *m = &r->moves[i];
        /* Two armies: the first army's view, as other tools read [%eval]; more: the mover's. */
        int score = r->v->nplayers == 2 && m->army ? -m->score : m->score;
        *nag = nags[review_judge(drop_of(m))];
        pgn_eval_comment(score, comment, len);
    }
    pthread_mutex_unlock(&r->lock);
    return done;
}
