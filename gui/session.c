/* A session's state: what it means, and the changes that every part of the session makes. */
#include "session.h"

#include <stdlib.h>
#include <time.h>

#include "../util/clock.h"
#include "review.h"
#include "tree_record.h"

/* Condition variables on the monotonic clock, which clock_us reads. */
static void cond_init(pthread_cond_t *cond)
{
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(cond, &attr);
    pthread_condattr_destroy(&attr);
}

void session_locks_init(struct session *s)
{
    pthread_mutex_init(&s->lock, NULL);
    cond_init(&s->wake);
    cond_init(&s->changed);
}

void session_wait(struct session *s, pthread_cond_t *cond, long long wait)
{
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    long long ns = until.tv_nsec + wait % SECONDS * 1000;
    until.tv_sec += (time_t)(wait / SECONDS + ns / 1000000000);
    until.tv_nsec = ns % 1000000000;
    pthread_cond_timedwait(cond, &s->lock, &until);
}

void session_free(struct session *s)
{
    review_free(s->review);
    record_free(&s->rec);
    game_free(&s->view);
    for (int i = 0; i < EVENT_RING; i++)
        free(s->events[i]);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->wake);
    pthread_cond_destroy(&s->changed);
    free(s);
}

bool session_at_end(const struct session *s)
{
    return s->node == s->rec.tree.main[s->rec.nmoves];
}

const struct game *session_shown(const struct session *s)
{
    return session_at_end(s) ? &s->rec.game : &s->view;
}

int session_side_to_move(const struct session *s)
{
    return game_side(&s->rec.game);
}

bool session_clocked(const struct session *s)
{
    return s->limits.base > 0;
}

bool session_over(struct session *s)
{
    return s->forfeit >= 0 || s->aborted || flow_over(&s->flow) || game_status(&s->rec.game).outcome != GAME_ONGOING;
}

bool session_analysis_board(struct session *s)
{
    bool engine = false;
    for (int k = 0; k < s->nseats; k++)
        engine |= s->seat[k].engine;
    return !engine || s->analysis || session_over(s);
}

bool session_movable(struct session *s)
{
    if (session_at_end(s))
        return !session_over(s) && (s->analysis || !s->seat[session_side_to_move(s)].engine);
    return session_analysis_board(s) && game_status(&s->view).outcome == GAME_ONGOING;
}

static bool has_moved(const struct session *s, int army)
{
    for (int i = 0; i < s->rec.nmoves; i++)
        if (s->rec.moves[i].army == army)
            return true;
    return false;
}

bool session_clock_runs(struct session *s, int army)
{
    return session_clocked(s) && !s->analysis && army == session_side_to_move(s) && has_moved(s, army)
           && !session_over(s);
}

bool session_abortable(struct session *s)
{
    for (int a = 0; a < s->nseats; a++)
        if (!has_moved(s, a))
            return !session_over(s);
    return false;
}

long long session_clock_left(struct session *s, int army)
{
    long long left = s->clock[army].left;
    if (session_clock_runs(s, army))
        left -= clock_us() - s->turn_start;
    return left > 0 ? left : 0;
}

void session_state_changed(struct session *s)
{
    s->state_version++;
    pthread_cond_broadcast(&s->changed);
}

void session_interrupt(struct session *s, bool game_changed)
{
    s->generation += game_changed;
    s->analysis_wanted++;
    if (s->job != JOB_NONE && (game_changed || s->job == JOB_ANALYSIS))
        atomic_store(&s->cancel, true);
    pthread_cond_signal(&s->wake);
}

bool session_show_node(struct session *s)
{
    char err[256];
    s->ply = s->rec.tree.node[s->node].depth;
    return session_at_end(s) || tree_position(&s->rec.tree, s->node, s->rec.start, &s->view, err, sizeof err);
}

void session_game_changed(struct session *s, bool follow)
{
    if (follow || !tree_has(&s->rec.tree, s->node))
        s->node = s->rec.tree.main[s->rec.nmoves];
    session_show_node(s);
    s->turn_start = clock_us();
    session_interrupt(s, true);
    session_state_changed(s);
}

void session_lose_on_time(struct session *s, int side)
{
    s->clock[side].left = 0;
    s->forfeit = side;
    session_interrupt(s, true);
    session_state_changed(s);
}

bool session_charge_clock(struct session *s)
{
    int side = session_side_to_move(s);
    if (!session_clock_runs(s, side) || clock_charge(&s->clock[side], &s->limits, clock_us() - s->turn_start))
        return true;
    session_lose_on_time(s, side);
    return false;
}

void session_play(struct session *s, move_t m)
{
    bool follow = session_at_end(s);
    if (!record_extend(&s->rec, m))
        return;
    session_game_changed(s, follow);
}

void session_drop_review(struct session *s)
{
    if (!s->review)
        return;
    review_free(s->review);
    s->review = NULL;
    s->review_changes++;
    pthread_cond_broadcast(&s->changed);
}

void session_replace_game(struct session *s, struct record *rec)
{
    char err[256];
    if (rec->v != s->rec.v) {
        game_free(&s->view);
        game_init(&s->view, rec->v, false, err, sizeof err);
        for (int k = 0; k < s->nseats; k++)
            s->seat[k].e.restart = true;
        s->helper.restart = true;
    }
    record_free(&s->rec);
    s->rec = *rec;
    for (int k = 0; k < s->nseats; k++) {
        s->seat[k].e.new_game = true;
        clock_start(&s->clock[k], &s->limits);
    }
    s->helper.new_game = true;
    s->forfeit = -1;
    s->aborted = false;
    s->analysis = false;
    flow_reset(&s->flow, true);
    shares_reset(&s->shares);
    session_drop_review(s);
    session_game_changed(s, true);
}
