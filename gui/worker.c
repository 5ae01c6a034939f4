/* The session's worker thread: the engine seats' moves, the analysis and the hints, each search run
 * with the session unlocked; and the requests that give it work or take it back. */
#include "worker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/clock.h"
#include "session.h"
#include "session_json.h"

static const long long HINT_TIME = 500 * MS;
static const long long SEARCH_TIMEOUT = 300 * SECONDS;  /* depth and node limits */
static const long long STALL_GRACE = 2 * SECONDS;       /* past its time, an engine is taken for hung */

/* An engine's status for the stream's engine events, which a slow stream may skip a few of. */
static void engine_event(struct session *s, const struct engine *e, int seat)
{
    char **slot = &s->events[s->nevents % EVENT_RING];
    json_t *event = session_json_engine(e, seat);
    free(*slot);
    *slot = json_dumps(event, JSON_COMPACT);
    json_decref(event);
    s->nevents++;
    pthread_cond_broadcast(&s->changed);
}

/* An engine's status, in STATE and as an event. */
static void set_status(struct session *s, struct engine *e, int seat, enum engine_status st, const char *message)
{
    e->status = st;
    snprintf(e->message, sizeof e->message, "%s", message);
    engine_event(s, e, seat);
    session_state_changed(s);
}

/* A search to run with the session unlocked: everything it needs, copied. */
struct search {
    struct engine *e;
    int seat;
    const char *cmd, *variant;
    struct uci_option option[MAX_OPTIONS + 3];
    int noptions;
    bool send_options, new_game;
    int elo, multipv;
    struct text position, go;
    long long limit;
};

/* The position after the tree's node, as UCI's position command. */
static void position_text(const struct session *s, int node, struct text *out)
{
    char **moves = malloc(((size_t)s->rec.tree.node[node].depth + 1) * sizeof *moves);
    int n = moves ? tree_path(&s->rec.tree, node, moves) : 0;
    text_printf(out, "position fen %s", s->rec.start);
    for (int i = 0; i < n; i++)
        text_printf(out, "%s%s", i ? " " : " moves ", moves[i]);
    free(moves);
}

static void search_prepare(struct session *s, struct search *q, struct engine *e, int seat, int node)
{
    *q = (struct search){ .e = e, .seat = seat, .cmd = engine_list_get(e->id)->cmd, .variant = s->rec.v->name,
                          .new_game = e->new_game, .elo = e->elo, .limit = -1 };
    q->noptions = s->noptions[e->id];
    memcpy(q->option, s->option[e->id], sizeof s->option[e->id]);
    q->send_options = e->options_seen != s->options_version[e->id];
    e->options_seen = s->options_version[e->id];
    e->new_game = false;
    position_text(s, node, &q->position);
    s->analysis_seat = seat;
    s->analysis_army = seat >= 0 ? seat : game_side(session_shown(s));
    s->nlines = 0;
    s->analysis_version++;
    atomic_store(&s->cancel, false);
}

/* Starts the engine if needed and runs the search; unlocked. */
static enum uci_status search_run(struct session *s, struct search *q, struct uci_reply *reply)
{
    struct uci_client *c = &q->e->uci;
    enum uci_status st = UCI_OK;
    bool fresh = !c->ready;
    char number[16];
    if (fresh)
        st = uci_client_start(c, q->cmd, q->option, q->noptions, q->variant, &s->cancel);
    for (int i = 0; !fresh && q->send_options && i < q->noptions && st == UCI_OK; i++)
        st = uci_client_set_option(c, q->option[i].name, q->option[i].value);
    /* A strength a person can beat, when the engine offers one. */
    if (st == UCI_OK && fresh && q->elo && uci_client_has_option(c, "UCI_LimitStrength")
        && uci_client_has_option(c, "UCI_Elo")) {
        snprintf(number, sizeof number, "%d", q->elo);
        st = uci_client_set_option(c, "UCI_LimitStrength", "true");
        if (st == UCI_OK)
            st = uci_client_set_option(c, "UCI_Elo", number);
    }
    if (st == UCI_OK && q->multipv) {
        snprintf(number, sizeof number, "%d", q->multipv);
        st = uci_client_set_option(c, "MultiPV", number);
    }
    if (st == UCI_OK && (fresh || q->new_game))
        st = uci_client_new_game(c, &s->cancel);
    if (st == UCI_OK)
        st = uci_client_go(c, text_str(&q->position), text_str(&q->go), q->limit, &s->cancel, reply);
    text_free(&q->position);
    text_free(&q->go);
    if (st != UCI_CANCELLED || !c->ready)
        return st;
    /* Cancelled while searching: stopped, or ended if it is to go anyway. */
    pthread_mutex_lock(&s->lock);
    bool end = s->ending || q->e->restart;
    pthread_mutex_unlock(&s->lock);
    if (end)
        uci_client_end(c, false);
    else if (uci_client_stop(c, reply) != UCI_OK)
        return UCI_CRASHED;
    return UCI_CANCELLED;
}

/* A failed search: the engine is shown as failed (and ended, so that a restart starts it again). */
static void search_failed(struct session *s, struct search *q, enum uci_status st)
{
    enum engine_status status = st == UCI_TIMEOUT ? ENGINE_HUNG : st == UCI_CRASHED ? ENGINE_CRASHED : ENGINE_FAILED;
    set_status(s, q->e, q->seat, status, q->e->uci.error);
}

/* Whether an engine seat is to move in the last position and can. */
static int engine_to_move(struct session *s)
{
    int side = session_side_to_move(s);
    const struct seat *t = &s->seat[side];
    if (!t->engine || s->analysis || session_over(s) || (t->e.status != ENGINE_OK && t->e.status != ENGINE_THINKING))
        return -1;
    return side;
}

static void run_engine_move(struct session *s, int side)
{
    struct engine *e = &s->seat[side].e;
    struct search q;
    struct uci_reply reply;
    const struct limits *limits[MAX_PLAYERS];
    struct clock now[MAX_PLAYERS];
    long long generation = s->generation;
    search_prepare(s, &q, e, side, s->rec.tree.main[s->rec.nmoves]);
    for (int p = 0; p < s->nseats; p++) {
        limits[p] = &s->limits;
        now[p] = s->clock[p];
        now[p].left = session_clock_left(s, p);
    }
    clock_go_args(limits, now, s->rec.v->colour_letter, s->nseats, side, &q.go);
    /* A time per move beside a clock (the page's default against a person) sets the engine's pace; a
     * tenth of its clock at most, so that the clock stays in force. */
    if (session_clocked(s) && s->limits.movetime) {
        long long pace = now[side].left / 10 < s->limits.movetime ? now[side].left / 10 : s->limits.movetime;
        text_printf(&q.go, " movetime %lld", pace > MS ? pace / MS : 1);
    }
    long long allowance = clock_allowance(&now[side], &s->limits);
    q.limit = allowance >= 0 ? allowance + STALL_GRACE : SEARCH_TIMEOUT;
    s->job = JOB_ENGINE;
    s->job_seat = side;
    set_status(s, e, side, ENGINE_THINKING, "");
    pthread_mutex_unlock(&s->lock);
    enum uci_status st = search_run(s, &q, &reply);
    pthread_mutex_lock(&s->lock);
    s->job = JOB_NONE;
    move_t m;
    char err[256];
    if (st == UCI_CANCELLED || s->generation != generation) {
        if (e->status == ENGINE_THINKING)
            set_status(s, e, side, ENGINE_OK, "");
    } else if (st != UCI_OK) {
        search_failed(s, &q, st);
    } else if (!game_parse_move(&s->rec.game, reply.move, &m, err, sizeof err)) {
        char message[300];
        snprintf(message, sizeof message, "made an illegal move: '%s'", reply.move[0] ? reply.move : "(none)");
        set_status(s, e, side, ENGINE_FAILED, message);
        /* Its idea of the position is wrong: it starts afresh. */
        e->restart = true;
    } else if (session_charge_clock(s)) {
        flow_scored(&s->flow, side, &reply);
        session_play(s, m);
        set_status(s, e, side, ENGINE_OK, "");
    } else {
        set_status(s, e, side, ENGINE_OK, "lost on time");
    }
}

static void run_analysis(struct session *s, bool hint)
{
    struct search q;
    struct uci_reply reply;
    long long generation = s->generation;
    search_prepare(s, &q, &s->helper, -1, s->node);
    q.multipv = hint ? 1 : s->multipv;
    if (hint) {
        text_printf(&q.go, " movetime %lld", HINT_TIME / MS);
        q.limit = HINT_TIME + STALL_GRACE;
    } else {
        text_printf(&q.go, " infinite");
        q.limit = UCI_UNTIL_CANCELLED;
    }
    int asked = s->hint_asked;
    s->analysis_done = s->analysis_wanted;
    s->job = hint ? JOB_HINT : JOB_ANALYSIS;
    s->job_seat = -1;
    pthread_mutex_unlock(&s->lock);
    enum uci_status st = search_run(s, &q, &reply);
    pthread_mutex_lock(&s->lock);
    s->job = JOB_NONE;
    if (st != UCI_OK && st != UCI_CANCELLED)
        search_failed(s, &q, st);
    if (hint) {
        bool valid = st == UCI_OK && s->generation == generation;
        snprintf(s->hint, sizeof s->hint, "%s", valid ? reply.move : "");
        s->hint_done = asked;
        pthread_cond_broadcast(&s->changed);
    }
}

/* An info line of the running search, as the stream's analysis lines. Bound lines (a fail high or
 * low) are skipped: the exact line of the same depth follows. */
static void on_info(void *ctx, const char *text)
{
    struct session *s = ctx;
    struct line l = { 0 };
    int multipv = 1;
    bool scored = false, has_pv = false, bound = false;
    char *copy = strdup(text), *save, *word;
    if (!copy)
        return;
    /* Past "info": a name and its value, but flags (no value), score and wdl (several values), and
     * pv, string, refutation and currline (the rest of the line). */
    strtok_r(copy, " ", &save);
    for (word = strtok_r(NULL, " ", &save); word; word = strtok_r(NULL, " ", &save)) {
        if (!strcmp(word, "lowerbound") || !strcmp(word, "upperbound")) {
            bound = true;
            continue;
        }
        if (!strcmp(word, "pv")) {
            has_pv = true;
            for (char *m = strtok_r(NULL, " ", &save); m; m = strtok_r(NULL, " ", &save))
                snprintf(l.pv + strlen(l.pv), sizeof l.pv - strlen(l.pv), "%s%s", l.pv[0] ? " " : "", m);
            break;
        }
        if (!strcmp(word, "string") || !strcmp(word, "refutation") || !strcmp(word, "currline"))
            break;
        char *value = strtok_r(NULL, " ", &save);
        if (!value)
            break;
        if (!strcmp(word, "depth"))
            l.depth = atoi(value);
        else if (!strcmp(word, "multipv"))
            multipv = atoi(value);
        else if (!strcmp(word, "nodes"))
            l.nodes = atoll(value);
        else if (!strcmp(word, "nps"))
            l.nps = atoll(value);
        else if (!strcmp(word, "wdl"))
            strtok_r(NULL, " ", &save), strtok_r(NULL, " ", &save);
        else if (!strcmp(word, "score") && (!strcmp(value, "cp") || !strcmp(value, "mate"))) {
            char *n = strtok_r(NULL, " ", &save);
            l.mate = !strcmp(value, "mate");
            l.score = n ? atoi(n) : 0;
            scored = n != NULL;
        }
    }
    free(copy);
    if (bound || !scored || !has_pv || multipv < 1 || multipv > MAX_LINES)
        return;
    pthread_mutex_lock(&s->lock);
    s->lines[multipv - 1] = l;
    if (multipv == 1)
        shares_record(&s->shares, s->analysis_army, l.mate, l.score);
    if (multipv > s->nlines)
        s->nlines = multipv;
    s->analysis_version++;
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->lock);
}

/* Ends the processes the page asked to restart; the worker starts them again when needed. */
static void restart_engines(struct session *s)
{
    for (int k = 0; k <= s->nseats; k++) {
        struct engine *e = k < s->nseats ? &s->seat[k].e : &s->helper;
        if (e->restart) {
            uci_client_end(&e->uci, false);
            e->restart = false;
            e->new_game = true;
        }
    }
}

static bool analysable(struct session *s)
{
    struct game *g = (struct game *)session_shown(s);
    return s->helper.status == ENGINE_OK && game_status(g).outcome == GAME_ONGOING;
}

void *worker_main(void *arg)
{
    struct session *s = arg;
    pthread_mutex_lock(&s->lock);
    while (!s->ending) {
        restart_engines(s);
        int side = engine_to_move(s);
        if (side >= 0) {
            run_engine_move(s, side);
        } else if (s->hint_asked != s->hint_done) {
            if (analysable(s))
                run_analysis(s, true);
            else
                s->hint_done = s->hint_asked, s->hint[0] = 0, pthread_cond_broadcast(&s->changed);
        } else if (s->analyse && s->analysis_done != s->analysis_wanted && analysable(s)) {
            run_analysis(s, false);
        } else if (session_clock_runs(s, session_side_to_move(s))) {
            /* Waits for the flag of the army to move at the latest. */
            long long wait = session_clock_left(s, session_side_to_move(s));
            if (wait > 0)
                session_wait(s, &s->wake, wait);
            else
                session_lose_on_time(s, session_side_to_move(s));
        } else {
            pthread_cond_wait(&s->wake, &s->lock);
        }
    }
    pthread_mutex_unlock(&s->lock);
    for (int k = 0; k < s->nseats; k++)
        uci_client_end(&s->seat[k].e.uci, true);
    uci_client_end(&s->helper.uci, true);
    return NULL;
}

void worker_engine_init(struct session *s, struct engine *e)
{
    e->uci = (struct uci_client){ .timeout = ENGINE_TIMEOUT, .on_info = on_info, .info_ctx = s };
    e->new_game = true;
}

void worker_analyse(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)text, (void)len;
    int on;
    json_int_t multipv = s->multipv;
    if (json_unpack((json_t *)body, "{s:b, s?I}", "on", &on, "multipv", &multipv) || multipv < 1
        || multipv > MAX_LINES) {
        reply_error(r, 400, "{\"on\": true|false, \"multipv\": 1..%d} expected", MAX_LINES);
        return;
    }
    s->analyse = on;
    s->multipv = (int)multipv;
    session_interrupt(s, false);
    session_state_changed(s);
    reply_json(r, 200, session_json_state(s));
}

void worker_hint(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)body, (void)text, (void)len;
    if (!analysable(s)) {
        reply_error(r, 409, s->helper.status != ENGINE_OK ? "the analysis engine has failed" : "the game is over");
        return;
    }
    int asked = ++s->hint_asked;
    session_interrupt(s, false);
    while (s->hint_done - asked < 0 && !s->ending)
        pthread_cond_wait(&s->changed, &s->lock);
    if (s->ending || !s->hint[0] || s->hint_done != asked)
        reply_error(r, 409, "no hint: the position changed or the engine failed");
    else
        reply_json(r, 200, json_pack("{s:s}", "move", s->hint));
}

void worker_restart(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)text, (void)len;
    json_t *which = NULL;
    json_unpack((json_t *)body, "{s:o}", "seat", &which);
    json_int_t seat = json_is_integer(which) ? json_integer_value(which) : -1;
    if (!which || !(json_is_null(which) || json_is_integer(which)) || seat < -1 || seat >= s->nseats
        || (seat >= 0 && !s->seat[seat].engine)) {
        reply_error(r, 400, "{\"seat\": an engine's seat, or null for the analysis engine} expected");
        return;
    }
    struct engine *e = seat >= 0 ? &s->seat[seat].e : &s->helper;
    e->restart = true;
    if ((s->job == JOB_ENGINE && s->job_seat == seat) || (seat < 0 && (s->job == JOB_ANALYSIS || s->job == JOB_HINT)))
        atomic_store(&s->cancel, true);
    set_status(s, e, (int)seat, ENGINE_OK, "restarted");
    session_interrupt(s, false);
    reply_json(r, 200, session_json_state(s));
}
