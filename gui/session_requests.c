/* Requests on a session (/api/session/<id>[/<action>]): the table of actions, the check of who may
 * make them, and the actions on the game's course (abort, resign, draw, rematch), a seat taken up and
 * the review. */
#include "session_requests.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/clock.h"
#include "board_json.h"
#include "game_io.h"
#include "moves.h"
#include "options.h"
#include "record.h"
#include "review.h"
#include "session.h"
#include "session_json.h"
#include "sessions.h"
#include "worker.h"

static const long long REVIEW_NODES = 20000;            /* a review's budget per search when the page sets none */

static void do_state(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)body, (void)text, (void)len;
    reply_json(r, 200, session_json_state(s));
}

static void do_abort(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)body, (void)text, (void)len;
    if (!session_abortable(s)) {
        reply_error(r, 409,
                    session_over(s) ? "the game is over" : "every army has moved: the game can no longer be aborted");
        return;
    }
    s->aborted = true;
    session_interrupt(s, true);
    session_state_changed(s);
    reply_json(r, 200, session_json_state(s));
}

/* An invitation taken up: the seat's fresh token for the joiner alone (gui/seats.h). */
static void do_join(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)text, (void)len;
    json_int_t seat;
    char token[SEAT_TOKEN_LEN + 1];
    if (json_unpack((json_t *)body, "{s:I}", "seat", &seat) || seat < 0 || seat >= s->nseats) {
        reply_error(r, 400, "{\"seat\": 0..%d} expected", s->nseats - 1);
        return;
    }
    if (!seat_keys_join(&s->keys, (int)seat, s->caller, token)) {
        reply_error(r, 403, "this invitation to %s's seat has been taken up already, or is not this game's",
                    board_army_name(s->rec.v->colour_letter[seat]));
        return;
    }
    session_state_changed(s);
    reply_json(r, 200, json_pack("{s:I, s:s, s:o}", "seat", seat, "token", token, "state", session_json_state(s)));
}

static void flow_game_of(struct session *s, struct flow_game *g)
{
    *g = (struct flow_game){ .v = s->rec.v, .nseats = s->nseats, .plies = s->rec.nmoves,
                             .armies = game_armies(&s->rec.game), .over = session_over(s) };
    for (int k = 0; k < s->nseats; k++)
        g->engine[k] = s->seat[k].engine;
}

typedef int (*flow_fn)(struct flow *f, const struct flow_game *g, const json_t *body, char *err, size_t len);

/* A request of the flow: answered with the new state, and every search stopped if the game ended. */
static void flow_request(struct session *s, flow_fn fn, const json_t *body, struct reply *r)
{
    struct flow_game g;
    char err[256];
    flow_game_of(s, &g);
    int status = fn(&s->flow, &g, body, err, sizeof err);
    if (status != 200) {
        reply_error(r, status, "%s", err);
        return;
    }
    if (session_over(s))
        session_interrupt(s, true);
    session_state_changed(s);
    reply_json(r, 200, session_json_state(s));
}

static void do_resign(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)text, (void)len;
    flow_request(s, flow_resign, body, r);
}

static void do_draw(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)text, (void)len;
    flow_request(s, flow_draw, body, r);
}

/* Gives seat `to` the player of seat `from`: a person, or an engine with its strength. */
static void seat_take(struct seat *to, const struct seat *from)
{
    to->engine = from->engine;
    to->e.id = from->e.id;
    to->e.elo = from->e.elo;
}

/* The same game again from its starting position, clocks and seats; with swap, each seat's player
 * (person or engine) moves on to the next army. */
static void do_rematch(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)text, (void)len;
    struct flow_game g;
    struct record rec;
    char err[256];
    bool swap;
    flow_game_of(s, &g);
    int status = flow_rematch(&g, body, &swap, err, sizeof err);
    if (status != 200) {
        reply_error(r, status, "%s", err);
        return;
    }
    if (!record_load(&rec, s->rec.v, s->rec.start, NULL, 0, err, sizeof err)) {
        reply_error(r, 503, "%s", err);
        return;
    }
    for (int k = 0; swap && k < s->nseats; k++) {
        /* The processes stay with their seats: the worker may still be ending a search with one. */
        struct seat *t = &s->seat[k];
        t->e.restart = true;
        t->e.status = ENGINE_OK;
        t->e.message[0] = 0;
    }
    if (swap) {
        struct seat last = s->seat[s->nseats - 1];
        for (int k = s->nseats - 1; k > 0; k--)
            seat_take(&s->seat[k], &s->seat[k - 1]);
        seat_take(&s->seat[0], &last);
    }
    session_replace_game(s, &rec);
    reply_json(r, 200, session_json_state(s));
}

/* Starts (or starts again) or stops the review of the game's moves by engine 0, a process of its own. */
static void do_review(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)text, (void)len;
    int on;
    json_int_t nodes = 0, movetime = 0;
    char err[512];
    if (json_unpack((json_t *)body, "{s:b, s?I, s?I}", "on", &on, "nodes", &nodes, "movetime_ms", &movetime)
        || nodes < 0 || nodes > 100000000 || movetime < 0 || movetime > 60000 || (nodes && movetime)) {
        reply_error(r, 400, "{\"on\": true|false, \"nodes\": 1..100000000 | \"movetime_ms\": 1..60000} expected");
        return;
    }
    if (!on) {
        if (!s->review || !review_running(s->review)) {
            reply_error(r, 409, "no review is running");
            return;
        }
        review_stop(s->review);
        pthread_cond_broadcast(&s->changed);
        reply_json(r, 200, review_json(s->review));
        return;
    }
    if (!s->rec.nmoves || s->rec.nmoves > REVIEW_MAX_PLIES) {
        reply_error(r, 409, s->rec.nmoves ? "the game has %d plies: a review takes at most %d" : "no moves to review",
                    s->rec.nmoves, REVIEW_MAX_PLIES);
        return;
    }
    struct review_budget budget = { .nodes = nodes, .movetime_ms = movetime };
    if (!nodes && !movetime)
        budget.nodes = REVIEW_NODES;
    char **texts = record_texts(&s->rec, s->rec.nmoves);
    struct review *review = texts ? review_start(engine_list_get(0)->cmd, s->rec.v, s->rec.start,
                                                 (const char *const *)texts, s->rec.nmoves, budget, err, sizeof err)
                                  : NULL;
    free(texts);
    if (!review) {
        reply_error(r, 503, "%s", texts ? err : "out of memory");
        return;
    }
    session_drop_review(s);
    s->review = review;
    reply_json(r, 200, review_json(review));
}

static void do_review_get(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)body, (void)text, (void)len;
    reply_json(r, 200, session_json_review(s));
}

typedef void (*action_fn)(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r);

static const struct {
    const char *name, *method;
    action_fn fn;
} actions[] = {
    { "", "GET", do_state },
    { "move", "POST", moves_play },
    { "undo", "POST", moves_undo },
    { "abort", "POST", do_abort },
    { "view", "POST", moves_view },
    { "fen", "POST", game_io_fen },
    { "pgn", "GET", game_io_pgn },
    { "pgn", "POST", game_io_pgn },
    { "analyse", "POST", worker_analyse },
    { "hint", "POST", worker_hint },
    { "options", "POST", options_set },
    { "restart", "POST", worker_restart },
    { "join", "POST", do_join },
    { "line", "POST", moves_line },
    { "promote", "POST", moves_promote },
    { "delete", "POST", moves_delete },
    { "resign", "POST", do_resign },
    { "draw", "POST", do_draw },
    { "rematch", "POST", do_rematch },
    { "review", "GET", do_review_get },
    { "review", "POST", do_review },
};

/* The one check of who may change a game (gui/seats.h): anyone may read it, a move needs the seat of the
 * army to move, a resignation or draw offer the seat of its army, anything else the game's creator.
 * Every route that changes the game passes here. */
static bool session_allowed(struct session *s, const char *action, const json_t *body, const char *method,
                            struct reply *r)
{
    if (!strcmp(method, "GET") || !strcmp(action, "join") || !strcmp(action, "view"))
        return true;
    bool move = !strcmp(action, "move");
    int own = !strcmp(action, "resign") || !strcmp(action, "draw") ? flow_army(s->rec.v, body) : -1;
    int seat = move ? session_side_to_move(s) : own >= 0 ? own : SEAT_CREATOR;
    const char *army = seat >= 0 ? board_army_name(s->rec.v->colour_letter[seat]) : "";
    switch (seat_keys_allow(&s->keys, s->caller, seat)) {
    case SEAT_ALLOWED:
        return true;
    case SEAT_TAKEN:
        reply_error(r, 403, "%s plays from another browser: its invitation has been taken up", army);
        break;
    case SEAT_OTHER:
        if (move)
            reply_error(r, 403, "not your move: %s is to move, and this page plays another seat", army);
        else
            reply_error(r, 403, "this page plays another seat than %s", army);
        break;
    case SEAT_WATCHER:
        if (seat >= 0)
            reply_error(r, 403, "you are watching this game: only %s's player can %s", army,
                        move ? "move now" : "do this");
        else
            reply_error(r, 403, "only the game's creator can do this");
        break;
    }
    return false;
}

void session_request(const char *id, const char *action, const char *method, const json_t *body, const char *text,
                     size_t len, const char *token, struct reply *r)
{
    size_t i = 0, n = sizeof actions / sizeof *actions;
    while (i < n && strcmp(actions[i].name, action))
        i++;
    while (i < n && !strcmp(actions[i].name, action) && strcmp(actions[i].method, method))
        i++;
    if (i == n || strcmp(actions[i].name, action)) {
        reply_error(r, i == n ? 404 : 405, i == n ? "unknown path" : "method not allowed");
        return;
    }
    struct session *s = sessions_find(id, r);
    if (!s)
        return;
    pthread_mutex_lock(&s->lock);
    s->idle_since = clock_us();
    s->caller = token;
    if (session_allowed(s, action, body, method, r))
        actions[i].fn(s, body, !strcmp(method, "POST") && actions[i].fn == game_io_pgn ? text : NULL, len, r);
    s->caller = NULL;
    pthread_mutex_unlock(&s->lock);
    sessions_release(s);
}
