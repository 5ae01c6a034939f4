/* One game session per browser tab: the game (struct game, as the match runner keeps it), seats,
 * clocks, engine processes driven by a worker thread, analysis, hints, and the event stream. */
#include "session.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../client/tc.h"
#include "../client/uci_client.h"
#include "../engine/engine.h"
#include "../games/game_record.h"
#include "../games/option_line.h"
#include "../games/pgn.h"
#include "../games/records.h"
#include "../rules/fen_variant.h"
#include "../rules/registry.h"
#include "../util/clock.h"
#include "board_json.h"
#include "seats.h"
#include "tree_record.h"
#include "actions.h"
#include "material.h"
#include "review.h"
#include "shares.h"

/* Times in microseconds, as engine_process and the clocks count them. */
#define MS 1000LL
#define SECONDS 1000000LL
enum {
    MAX_SESSIONS = 16,
    EVENT_RING = 32,            /* engine events a slow stream may fall behind by */
    MAX_LINES = 5,              /* MultiPV lines */
    MAX_OPTIONS = 8,            /* options the page may set per engine */
    PV_LEN = 1024,
};
static const long long IDLE_LIMIT = 30 * SECONDS;       /* a session without a stream for this long ends */
static const long long KEEPALIVE = 5 * SECONDS;
static const long long ANALYSIS_GAP = 100 * MS;         /* at most 10 analysis events per second */
static const long long HINT_TIME = 500 * MS;
static const long long DEFAULT_MOVETIME = 1 * SECONDS;  /* engines' limit when the page sets none */
static const long long ENGINE_TIMEOUT = 10 * SECONDS;   /* handshake, isready, stop */
static const long long SEARCH_TIMEOUT = 300 * SECONDS;  /* depth and node limits */
static const long long STALL_GRACE = 2 * SECONDS;       /* past its time, an engine is taken for hung */
static const long long REVIEW_GAP = 100 * MS;           /* a running review's progress: at most 10 events a second */
static const long long REVIEW_NODES = 20000;            /* a review's budget per search when the page sets none */
/* A clock, increment or move time in ms: a week, far from overflowing the microsecond sums. */
#define MAX_TIME_MS (7 * 24 * 3600 * 1000LL)

static const char *const allowed_options[] = { "Threads", "Hash", "MultiPV", "OwnBook", "UCI_LimitStrength", "UCI_Elo" };

enum engine_status { ENGINE_OK, ENGINE_THINKING, ENGINE_CRASHED, ENGINE_HUNG, ENGINE_FAILED };
static const char *const status_names[] = { "ok", "thinking", "crashed", "hung", "failed" };

/* An engine process of the session: a seat's, or the helper that analyses and gives hints. */
struct engine {
    int id;                     /* in the engine list */
    int elo;                    /* 0: full strength */
    enum engine_status status;
    char message[256];
    struct uci_client uci;      /* touched by the worker thread only */
    bool new_game;              /* ucinewgame before its next search */
    bool restart;               /* the page asked for a fresh process */
    int options_seen;           /* the version of its engine's options it has */
};

struct seat {
    bool engine;
    struct engine e;
};

struct played {
    move_t m;
    char uci[16];
    char san[SAN_LEN];          /* written in the position before it (docs/notation.md) */
    int army;
    unsigned left;              /* armies that left the board after it */
    struct captures captured;
};

/* A game from its start: the variant, the position after every move, the moves; the tree holds them
 * as its main line, with the variations. */
struct record {
    const struct variant *v;
    struct game game;
    char start[1024];
    double start_material[MAX_PLAYERS];     /* each army's, in pawns */
    struct played *moves;
    int nmoves, cap;
    struct tree tree;
};

struct line {
    int depth;
    bool mate;
    int score;
    long long nodes, nps;
    char pv[PV_LEN];
};

enum job { JOB_NONE, JOB_ENGINE, JOB_HINT, JOB_ANALYSIS };

struct session {
    char id[17];
    pthread_mutex_t lock;
    pthread_cond_t wake;        /* the worker: something to do */
    pthread_cond_t changed;     /* streams and waiting requests: something to tell */
    int refs;                   /* under sessions.lock */
    struct session *next;
    pthread_t worker;
    bool ending;
    int streams;
    long long idle_since;
    struct record rec;
    struct game view;           /* the shown position when it is not the last */
    int node;                   /* the shown node of the tree */
    int ply;                    /* its ply */
    bool analysis;              /* the main line was edited: no engine plays, no clock runs */
    int nseats;
    struct seat seat[MAX_PLAYERS];
    struct seat_keys keys;      /* who may move, and change the game (served to the network) */
    const char *caller;         /* the token of the request being served, or NULL */
    struct engine helper;
    struct limits limits;
    struct clock clock[MAX_PLAYERS];
    long long turn_start;       /* when the clock of the army to move started */
    int forfeit;                /* the army that lost on time, or -1 */
    bool aborted;               /* ended before every army had moved */
    struct flow flow;           /* resigned, drawn by agreement, a draw offer */
    struct shares shares;       /* each army's latest search score, for the share bars */
    /* The worker's job; a change that makes it obsolete sets cancel. */
    enum job job;
    int job_seat;
    atomic_bool cancel;
    long long generation;       /* counts changes of the game */
    bool analyse;
    int multipv;
    long long analysis_wanted, analysis_done;
    int hint_asked, hint_done;
    char hint[32];
    /* Lines of the running search (analysis, or a seat's), for the stream. */
    int analysis_seat;          /* -1: the helper */
    int analysis_army;          /* the army the running search scores for */
    struct line lines[MAX_LINES];
    int nlines;
    long long analysis_version;
    /* Options set by the page, per engine of the list. */
    struct uci_option option[MAX_GUI_ENGINES][MAX_OPTIONS];
    int noptions[MAX_GUI_ENGINES], options_version[MAX_GUI_ENGINES];
    /* The stream: STATE by version, engine events in a ring. */
    long long state_version;
    char *events[EVENT_RING];
    long long nevents;
    struct review *review;      /* of the game's moves (a prefix of them), or NULL */
    long long review_changes;   /* counts reviews started and dropped */
};

struct session_stream {
    struct session *s;
    long long state_seen, analysis_seen, next_event, analysis_sent, review_changes_seen, review_seen;
};

static struct {
    pthread_mutex_t lock;
    pthread_cond_t stop;
    struct session *list;
    int count;
    bool closing;
    pthread_t reaper;
    const struct gui_engine *engines;
    int nengines;
} sessions = { .lock = PTHREAD_MUTEX_INITIALIZER, .stop = PTHREAD_COND_INITIALIZER };

/* A formatted string to free, or NULL. */
static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *format(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *out = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (out) {
        va_start(ap, fmt);
        vsnprintf(out, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    return out;
}

/* Waits on cond (made by cond_init) for at most `wait` microseconds. */
static void cond_wait_for(pthread_cond_t *cond, pthread_mutex_t *lock, long long wait)
{
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    long long ns = until.tv_nsec + wait % SECONDS * 1000;
    until.tv_sec += (time_t)(wait / SECONDS + ns / 1000000000);
    until.tv_nsec = ns % 1000000000;
    pthread_cond_timedwait(cond, lock, &until);
}

/* Condition variables on the monotonic clock, which clock_us reads. */
static void cond_init(pthread_cond_t *cond)
{
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(cond, &attr);
    pthread_condattr_destroy(&attr);
}

void reply_error(struct reply *r, int status, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* One line, whatever the message quotes. */
    for (char *c = msg; *c; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' ';
    r->status = status;
    r->json = json_pack("{s:s}", "error", msg);
}

static void reply_json(struct reply *r, int status, json_t *json)
{
    r->status = status;
    r->json = json;
}

/* ---- the game record ---- */

static bool record_push(struct record *rec, move_t m)
{
    if (rec->nmoves == rec->cap) {
        int cap = rec->cap ? 2 * rec->cap : 64;
        struct played *grown = realloc(rec->moves, (size_t)cap * sizeof *grown);
        if (!grown)
            return false;
        rec->moves = grown;
        rec->cap = cap;
    }
    struct played *p = &rec->moves[rec->nmoves++];
    struct setup before, after;
    p->m = m;
    p->army = game_side(&rec->game);
    move_to_text(rec->v, m, p->uci);
    san_write(&rec->game, m, p->san);
    game_setup(&rec->game, &before);
    p->left = game_play(&rec->game, m, NULL);
    game_setup(&rec->game, &after);
    material_captures(rec->v, &before, &after, p->army, p->left, move_to(m), &p->captured);
    return true;
}

/* Plays m at the game's end and adds it to the tree's main line. */
static bool record_extend(struct record *rec, move_t m)
{
    struct tree_node node;
    tree_node_of(&rec->game, m, &node);
    int id = tree_add(&rec->tree, rec->tree.main[rec->tree.plies], &node);
    if (id < 0)
        return false;
    if (!record_push(rec, m)) {
        tree_delete(&rec->tree, id);
        return false;
    }
    rec->tree.node[id].left = rec->moves[rec->nmoves - 1].left;
    return true;
}

/* The game again from its start along the tree's main line, after the tree changed; false only
 * without memory. */
static bool record_replay(struct record *rec)
{
    char err[256];
    rec->nmoves = 0;
    bool ok = game_set_position(&rec->game, rec->start, NULL, 0, err, sizeof err);
    for (int k = 1; ok && k <= rec->tree.plies; k++)
        ok = record_push(rec, rec->tree.node[rec->tree.main[k]].move);
    return ok;
}

static void record_free(struct record *rec)
{
    game_free(&rec->game);
    free(rec->moves);
    tree_free(&rec->tree);
    *rec = (struct record){ 0 };
}

/* The main line's first n moves' texts, for a review's engine; to free. */
static char **record_texts(const struct record *rec, int n)
{
    char **texts = malloc((size_t)(n + 1) * sizeof *texts);
    for (int i = 0; texts && i < n; i++)
        texts[i] = (char *)rec->moves[i].uci;
    return texts;
}

/* Sets g to the position after the first n moves; false only without memory. */
static bool record_position(const struct record *rec, struct game *g, int n)
{
    char err[256];
    return tree_position(&rec->tree, rec->tree.main[n], rec->start, g, err, sizeof err);
}

/* A game of v from fen (NULL: the start) with the moves, all legal; false with err if not. */
static bool record_load(struct record *rec, const struct variant *v, const char *fen, const char *const *moves, int n,
                        char *err, size_t errlen)
{
    *rec = (struct record){ .v = v };
    snprintf(rec->start, sizeof rec->start, "%s", fen ? fen : v->start_fen);
    if (strlen(fen ? fen : "") >= sizeof rec->start) {
        snprintf(err, errlen, "the FEN is too long");
        return false;
    }
    if (!tree_init(&rec->tree)) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    bool ok = game_init(&rec->game, v, false, err, errlen)
              && game_set_position(&rec->game, rec->start, NULL, 0, err, errlen);
    if (ok) {
        struct setup setup;
        game_setup(&rec->game, &setup);
        material_values(v, &setup, rec->start_material);
    }
    for (int i = 0; ok && i < n; i++) {
        move_t m;
        char why[256];
        struct game_status st = game_status(&rec->game);
        /* A record that plays on past the end of its game (a repetition, say) is not this game. */
        if (st.outcome != GAME_ONGOING) {
            game_status_text(&rec->game, st, why, sizeof why);
            snprintf(err, errlen, "move %d '%s': the game ended after move %d (%s)", i + 1, moves[i], i, why);
            ok = false;
            break;
        }
        ok = game_parse_move(&rec->game, moves[i], &m, why, sizeof why);
        if (!ok)
            snprintf(err, errlen, "move %d '%s': %s", i + 1, moves[i], why);
        else if (!(ok = record_extend(rec, m)))
            snprintf(err, errlen, "out of memory");
    }
    if (!ok)
        record_free(rec);
    return ok;
}

/* ---- state ---- */

/* Whether the shown position is the game's last. */
static bool at_end(const struct session *s)
{
    return s->node == s->rec.tree.main[s->rec.nmoves];
}

static const struct game *shown(const struct session *s)
{
    return at_end(s) ? &s->rec.game : &s->view;
}

static int side_to_move(const struct session *s)
{
    return game_side(&s->rec.game);
}

static bool clocked(const struct session *s)
{
    return s->limits.base > 0;
}

static bool game_over(struct session *s)
{
    return s->forfeit >= 0 || s->aborted || flow_over(&s->flow) || game_status(&s->rec.game).outcome != GAME_ONGOING;
}

/* Whether a move at an earlier position makes a variation (an analysis board): the game is over, no
 * engine plays in it, or its main line was edited. In a game against an engine the main line is the game. */
static bool analysis_board(struct session *s)
{
    bool engine = false;
    for (int k = 0; k < s->nseats; k++)
        engine |= s->seat[k].engine;
    return !engine || s->analysis || game_over(s);
}

/* Whether a person may move in the shown position: at the end of a game going on on their turn (any
 * turn once the main line was edited), before it on an analysis board while the position's game goes on. */
static bool movable(struct session *s)
{
    if (at_end(s))
        return !game_over(s) && (s->analysis || !s->seat[side_to_move(s)].engine);
    return analysis_board(s) && game_status(&s->view).outcome == GAME_ONGOING;
}

static bool has_moved(const struct session *s, int army)
{
    for (int i = 0; i < s->rec.nmoves; i++)
        if (s->rec.moves[i].army == army)
            return true;
    return false;
}

/* Whether an army's clock runs now. As on lichess, it starts with the army's first move: the time
 * taken over that move (reading the board, the piece guide) is not counted. */
static bool clock_runs(struct session *s, int army)
{
    return clocked(s) && !s->analysis && army == side_to_move(s) && has_moved(s, army) && !game_over(s);
}

/* A game may be aborted until every army has moved. */
static bool abortable(struct session *s)
{
    for (int a = 0; a < s->nseats; a++)
        if (!has_moved(s, a))
            return !game_over(s);
    return false;
}

/* Time left on an army's clock now. */
static long long clock_left(struct session *s, int army)
{
    long long left = s->clock[army].left;
    if (clock_runs(s, army))
        left -= clock_us() - s->turn_start;
    return left > 0 ? left : 0;
}

static json_t *cells_json(const struct variant *v, const bool *mark)
{
    json_t *list = json_array();
    for (int c = 0; c < v->geo.ncells; c++)
        if (mark[c])
            json_array_append_new(list, json_string(v->geo.name[c]));
    return list;
}

static json_t *letter_json(const struct variant *v, int army)
{
    char letter[2] = { v->colour_letter[army], 0 };
    return json_string(letter);
}

/* Each army's points out of one: {"w": 1, "b": 0}. */
static json_t *points_json(const struct variant *v, const int *score, int den)
{
    json_t *points = json_object();
    for (int p = 0; p < v->nplayers; p++) {
        char letter[2] = { v->colour_letter[p], 0 };
        json_object_set_new(points, letter, json_real((double)score[p] / den));
    }
    return points;
}

/* The result: the engine's line, why the game ended and each army's points (none for an abort). */
static json_t *result_json(struct session *s)
{
    static const char *const reasons[] = { "", "checkmate", "stalemate", "repetition", "100-ply rule", "last army" };
    const struct variant *v = s->rec.v;
    char text[256];
    if (s->forfeit >= 0) {
        /* The armies still on the board share the point the loser forfeits. */
        unsigned armies = game_armies(&s->rec.game) & ~(1u << s->forfeit);
        snprintf(text, sizeof text, "time forfeit: %c loses on time", v->colour_letter[s->forfeit]);
        return json_pack("{s:s, s:s, s:o}", "text", text, "reason", "time", "points", flow_shared_points(v, armies));
    }
    if (flow_over(&s->flow))
        return flow_result_json(&s->flow, v, game_armies(&s->rec.game));
    if (s->aborted)
        return json_pack("{s:s, s:s, s:n}", "text", "aborted", "reason", "aborted", "points");
    struct game_status st = game_status(&s->rec.game);
    if (st.outcome == GAME_ONGOING)
        return json_null();
    game_status_text(&s->rec.game, st, text, sizeof text);
    return json_pack("{s:s, s:s, s:o}", "text", text, "reason", reasons[st.outcome], "points",
                     points_json(v, st.score, st.den));
}

static json_t *engine_json(const struct engine *e, int seat)
{
    return json_pack("{s:o, s:s, s:s}", "seat", seat < 0 ? json_null() : json_integer(seat), "status",
                     status_names[e->status], "message", e->message);
}

static json_t *seats_json(const struct session *s)
{
    json_t *list = json_array();
    for (int k = 0; k < s->nseats; k++) {
        const struct seat *t = &s->seat[k];
        json_array_append_new(list, json_pack("{s:o, s:s, s:o, s:o, s:s, s:s, s:b}", "army", letter_json(s->rec.v, k),
                                              "kind", t->engine ? "engine" : "human", "engine",
                                              t->engine ? json_integer(t->e.id) : json_null(), "elo",
                                              t->engine && t->e.elo ? json_integer(t->e.elo) : json_null(), "status",
                                              t->engine ? status_names[t->e.status] : "ok", "message",
                                              t->engine ? t->e.message : "", "joined", s->keys.joined[k]));
    }
    return list;
}

static json_t *clocks_json(struct session *s)
{
    if (!clocked(s))
        return json_null();
    json_t *clocks = json_object();
    for (int p = 0; p < s->nseats; p++) {
        char letter[2] = { s->rec.v->colour_letter[p], 0 };
        json_object_set_new(clocks, letter, json_integer(clock_left(s, p) / MS));
    }
    json_object_set_new(clocks, "running",
                        clock_runs(s, side_to_move(s)) ? letter_json(s->rec.v, side_to_move(s)) : json_null());
    return clocks;
}

static json_t *state_json(struct session *s)
{
    const struct variant *v = s->rec.v;
    struct game *g = (struct game *)shown(s);
    struct setup setup;
    char fen[2048], text[SETUP_PIECE_TEXT];
    int side = game_side(g);
    game_setup(g, &setup);
    game_fen(g, fen, sizeof fen);
    json_t *pieces = json_array(), *legal = json_array(), *moves = json_array(), *eliminated = json_array();
    bool check[MAX_CELLS] = { false };
    bool in_check = game_in_check(g);
    for (int c = 0; c < v->geo.ncells; c++) {
        if (!setup.piece[c])
            continue;
        setup_piece_text(v, setup.piece[c], text);
        json_array_append_new(pieces, json_pack("{s:s, s:s}", "cell", v->geo.name[c], "piece", text));
        check[c] = in_check && piece_colour(setup.piece[c]) == side && v->piece[piece_type(setup.piece[c])].royal;
    }
    if (movable(s)) {
        move_t list[MAX_MOVES];
        int n = game_legal_moves(g, list);
        for (int i = 0; i < n; i++) {
            move_to_text(v, list[i], text);
            json_array_append_new(legal, json_string(text));
        }
    }
    for (int i = 0; i < s->rec.nmoves; i++) {
        const struct played *p = &s->rec.moves[i];
        json_t *left = json_array();
        for (int a = 0; a < v->nplayers; a++)
            if (p->left >> a & 1)
                json_array_append_new(left, letter_json(v, a));
        json_array_append_new(moves, json_pack("{s:s, s:s, s:o, s:o, s:i}", "uci", p->uci, "san", p->san, "army",
                                               letter_json(v, p->army), "eliminated", left, "node",
                                               s->rec.tree.main[i + 1]));
    }
    unsigned armies = game_armies(g);
    for (int a = 0; a < v->nplayers; a++)
        if (!(armies >> a & 1))
            json_array_append_new(eliminated, letter_json(v, a));
    json_t *from_to = json_array();
    if (s->ply) {
        move_t m = s->rec.tree.node[s->node].move;
        json_array_append_new(from_to, json_string(v->geo.name[move_from(m)]));
        json_array_append_new(from_to, json_string(v->geo.name[move_to(m)]));
    }
    json_t *material = material_json(v, &setup, s->rec.start_material);
    /* The game's captures as far as the shown line follows it (a variation's own are not kept). */
    int on = s->node;
    while (!tree_on_main(&s->rec.tree, on))
        on = s->rec.tree.node[on].parent;
    for (int i = 0; i < s->rec.tree.node[on].depth; i++)
        material_add(v, material, s->rec.moves[i].army, &s->rec.moves[i].captured);
    /* The version orders the STATEs: a reply to a request may reach the page after the stream's newer one. */
    json_t *state = json_pack(
        "{s:s, s:I, s:s, s:s, s:s, s:i, s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:b, s:i}", "id",
        s->id, "version", (json_int_t)s->state_version, "variant", v->name, "start", s->rec.start, "fen", fen, "ply",
        s->ply, "plies", s->rec.nmoves, "turn", letter_json(v, side), "pieces", pieces, "legal", legal, "check",
        cells_json(v, check), "last", from_to, "moves", moves, "result", result_json(s), "eliminated", eliminated,
        "seats", seats_json(s), "clocks", clocks_json(s), "abortable", abortable(s), "analysing", s->analyse, "multipv",
        s->multipv);
    json_object_set_new(state, "node", json_integer(s->node));
    json_object_set_new(state, "variations", tree_variations_json(&s->rec.tree, v->colour_letter, v->nplayers));
    json_object_set_new(state, "analysis_board", json_boolean(analysis_board(s)));
    json_object_set_new(state, "draw", flow_draw_json(&s->flow, v, s->rec.nmoves));
    json_object_set_new(state, "material", material);
    json_object_set_new(state, "shares", shares_json(&s->shares, v, armies));
    return state;
}

/* ---- changes and events ---- */

static void state_changed(struct session *s)
{
    s->state_version++;
    pthread_cond_broadcast(&s->changed);
}

/* Something the worker may care about changed; a change of the game makes every search obsolete,
 * any other change (the shown position, the analysis settings, a hint) only the analysis. */
static void interrupt(struct session *s, bool game_changed)
{
    s->generation += game_changed;
    s->analysis_wanted++;
    if (s->job != JOB_NONE && (game_changed || s->job == JOB_ANALYSIS))
        atomic_store(&s->cancel, true);
    pthread_cond_signal(&s->wake);
}

static void engine_event(struct session *s, const struct engine *e, int seat)
{
    char **slot = &s->events[s->nevents % EVENT_RING];
    json_t *event = engine_json(e, seat);
    free(*slot);
    *slot = json_dumps(event, JSON_COMPACT);
    json_decref(event);
    s->nevents++;
    pthread_cond_broadcast(&s->changed);
}

static void set_status(struct session *s, struct engine *e, int seat, enum engine_status st, const char *message)
{
    e->status = st;
    snprintf(e->message, sizeof e->message, "%s", message);
    engine_event(s, e, seat);
    state_changed(s);
}

/* The shown node's ply and position (in s->view unless it is the game's last); false only without memory. */
static bool show_node(struct session *s)
{
    char err[256];
    s->ply = s->rec.tree.node[s->node].depth;
    return at_end(s) || tree_position(&s->rec.tree, s->node, s->rec.start, &s->view, err, sizeof err);
}

/* The view follows the game when it showed the last position, and goes there when its node is gone. */
static void game_changed(struct session *s, bool follow)
{
    if (follow || !tree_has(&s->rec.tree, s->node))
        s->node = s->rec.tree.main[s->rec.nmoves];
    show_node(s);
    s->turn_start = clock_us();
    interrupt(s, true);
    state_changed(s);
}

static void lose_on_time(struct session *s, int side)
{
    s->clock[side].left = 0;
    s->forfeit = side;
    interrupt(s, true);
    state_changed(s);
}

/* Charges the army to move for the time since its turn began; false if its flag fell. */
static bool charge_clock(struct session *s)
{
    int side = side_to_move(s);
    if (!clock_runs(s, side) || clock_charge(&s->clock[side], &s->limits, clock_us() - s->turn_start))
        return true;
    lose_on_time(s, side);
    return false;
}

static void play_move(struct session *s, move_t m)
{
    bool follow = at_end(s);
    if (!record_extend(&s->rec, m))
        return;
    game_changed(s, follow);
}

/* ---- engines (the worker thread) ---- */

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
    *q = (struct search){ .e = e, .seat = seat, .cmd = sessions.engines[e->id].cmd, .variant = s->rec.v->name,
                          .new_game = e->new_game, .elo = e->elo, .limit = -1 };
    q->noptions = s->noptions[e->id];
    memcpy(q->option, s->option[e->id], sizeof s->option[e->id]);
    q->send_options = e->options_seen != s->options_version[e->id];
    e->options_seen = s->options_version[e->id];
    e->new_game = false;
    position_text(s, node, &q->position);
    s->analysis_seat = seat;
    s->analysis_army = seat >= 0 ? seat : game_side(shown(s));
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
    int side = side_to_move(s);
    const struct seat *t = &s->seat[side];
    if (!t->engine || s->analysis || game_over(s) || (t->e.status != ENGINE_OK && t->e.status != ENGINE_THINKING))
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
        now[p].left = clock_left(s, p);
    }
    clock_go_args(limits, now, s->rec.v->colour_letter, s->nseats, side, &q.go);
    /* A time per move beside a clock (the page's default against a person) sets the engine's pace; a
     * tenth of its clock at most, so that the clock stays in force. */
    if (clocked(s) && s->limits.movetime) {
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
    } else if (charge_clock(s)) {
        flow_scored(&s->flow, side, &reply);
        play_move(s, m);
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

static json_t *analysis_json(const struct session *s)
{
    json_t *lines = json_array();
    for (int i = 0; i < s->nlines; i++) {
        const struct line *l = &s->lines[i];
        json_t *pv = json_array();
        char copy[PV_LEN], *save;
        snprintf(copy, sizeof copy, "%s", l->pv);
        for (char *m = strtok_r(copy, " ", &save); m; m = strtok_r(NULL, " ", &save))
            json_array_append_new(pv, json_string(m));
        json_array_append_new(lines, json_pack("{s:i, s:i, s:{s:i}, s:o, s:I, s:I}", "multipv", i + 1, "depth", l->depth,
                                               "score", l->mate ? "mate" : "cp", l->score, "pv", pv, "nodes",
                                               (json_int_t)l->nodes, "nps", (json_int_t)l->nps));
    }
    json_t *seat = s->analysis_seat < 0 ? json_null() : json_integer(s->analysis_seat);
    return json_pack("{s:o, s:i, s:o, s:o}", "seat", seat, "depth", s->nlines ? s->lines[0].depth : 0, "lines", lines,
                     "shares", shares_json(&s->shares, s->rec.v, game_armies(shown(s))));
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
    struct game *g = (struct game *)shown(s);
    return s->helper.status == ENGINE_OK && game_status(g).outcome == GAME_ONGOING;
}

static void *worker_main(void *arg)
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
        } else if (clock_runs(s, side_to_move(s))) {
            /* Waits for the flag of the army to move at the latest. */
            long long wait = clock_left(s, side_to_move(s));
            if (wait > 0)
                cond_wait_for(&s->wake, &s->lock, wait);
            else
                lose_on_time(s, side_to_move(s));
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

/* ---- the list of sessions ---- */

static void session_free(struct session *s)
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

static void session_release(struct session *s)
{
    pthread_mutex_lock(&sessions.lock);
    bool last = --s->refs == 0;
    pthread_mutex_unlock(&sessions.lock);
    if (last)
        session_free(s);
}

/* Ends a session taken off the list: its worker, its engines, then the list's reference. */
static void session_end(struct session *s)
{
    pthread_mutex_lock(&s->lock);
    s->ending = true;
    atomic_store(&s->cancel, true);
    pthread_cond_signal(&s->wake);
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->lock);
    pthread_join(s->worker, NULL);
    session_release(s);
}

static void unlink_session(struct session *s)
{
    for (struct session **p = &sessions.list; *p; p = &(*p)->next)
        if (*p == s) {
            *p = s->next;
            sessions.count--;
            return;
        }
}

/* A session by id, with a reference for the caller; NULL (and r set) if there is none. */
static struct session *session_find(const char *id, struct reply *r)
{
    struct session *s = NULL;
    pthread_mutex_lock(&sessions.lock);
    for (s = sessions.list; s && strcmp(s->id, id); s = s->next)
        ;
    if (s)
        s->refs++;
    pthread_mutex_unlock(&sessions.lock);
    if (!s)
        reply_error(r, 404, "no session '%s'", id);
    return s;
}

/* The session that has been without a stream the longest, or NULL; with sessions.lock held. */
static struct session *oldest_idle(long long before)
{
    struct session *oldest = NULL;
    long long since = before;
    for (struct session *s = sessions.list; s; s = s->next) {
        pthread_mutex_lock(&s->lock);
        if (!s->streams && s->idle_since < since)
            oldest = s, since = s->idle_since;
        pthread_mutex_unlock(&s->lock);
    }
    return oldest;
}

static void *reaper_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&sessions.lock);
    while (!sessions.closing) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec++;
        pthread_cond_timedwait(&sessions.stop, &sessions.lock, &until);
        struct session *s = sessions.closing ? NULL : oldest_idle(clock_us() - IDLE_LIMIT);
        if (s) {
            unlink_session(s);
            pthread_mutex_unlock(&sessions.lock);
            session_end(s);
            pthread_mutex_lock(&sessions.lock);
        }
    }
    pthread_mutex_unlock(&sessions.lock);
    return NULL;
}

void sessions_start(const struct gui_engine *engines, int n)
{
    sessions.engines = engines;
    sessions.nengines = n;
    pthread_create(&sessions.reaper, NULL, reaper_main, NULL);
}

void sessions_stop(void)
{
    pthread_mutex_lock(&sessions.lock);
    sessions.closing = true;
    pthread_cond_signal(&sessions.stop);
    pthread_mutex_unlock(&sessions.lock);
    pthread_join(sessions.reaper, NULL);
    for (;;) {
        pthread_mutex_lock(&sessions.lock);
        struct session *s = sessions.list;
        if (s)
            unlink_session(s);
        pthread_mutex_unlock(&sessions.lock);
        if (!s)
            break;
        session_end(s);
    }
}

json_t *sessions_engines(void)
{
    json_t *list = json_array();
    for (int i = 0; i < sessions.nengines; i++)
        json_array_append_new(list, json_pack("{s:i, s:s}", "id", i, "name", sessions.engines[i].name));
    return list;
}

/* ---- creating a session ---- */

static void random_id(char *id)
{
    unsigned char bytes[8] = { 0 };
    int fd = open("/dev/urandom", O_RDONLY);
    /* Without /dev/urandom the ids are still distinct, only guessable. */
    if (fd < 0 || read(fd, bytes, sizeof bytes) != (ssize_t)sizeof bytes) {
        static atomic_uint counter;
        unsigned long long n = (unsigned long long)clock_us() ^ (unsigned long long)atomic_fetch_add(&counter, 1) << 40;
        memcpy(bytes, &n, sizeof bytes);
    }
    if (fd >= 0)
        close(fd);
    for (int i = 0; i < 8; i++)
        snprintf(id + 2 * i, 3, "%02x", bytes[i]);
}

static bool parse_seats(const json_t *list, struct session *s, char *err, size_t errlen)
{
    if (!list || json_is_null(list))
        return true;
    if (!json_is_array(list) || (int)json_array_size(list) != s->nseats) {
        snprintf(err, errlen, "seats: one per army (%d) expected", s->nseats);
        return false;
    }
    for (int k = 0; k < s->nseats; k++) {
        const char *kind;
        json_int_t engine = 0;
        json_t *elo = NULL;
        if (json_unpack(json_array_get(list, (size_t)k), "{s:s, s?I, s?o}", "kind", &kind, "engine", &engine, "elo", &elo)
            || (strcmp(kind, "human") && strcmp(kind, "engine")) || engine < 0 || engine >= sessions.nengines
            || (elo && !json_is_null(elo) && !json_is_integer(elo))) {
            snprintf(err, errlen, "seat %d: {\"kind\": \"human\"|\"engine\", \"engine\": 0..%d, \"elo\": n|null} expected",
                     k, sessions.nengines - 1);
            return false;
        }
        s->seat[k].engine = !strcmp(kind, "engine");
        s->seat[k].e.id = (int)engine;
        s->seat[k].e.elo = elo && json_is_integer(elo) ? (int)json_integer_value(elo) : 0;
    }
    return true;
}

static bool parse_limits(json_t *clock, json_t *limits, struct limits *l, char *err, size_t errlen)
{
    json_int_t base = 0, inc = 0, movetime = 0, depth = 0, nodes = 0;
    if (clock && !json_is_null(clock)
        && (json_unpack(clock, "{s:I, s?I}", "base_ms", &base, "inc_ms", &inc) || base <= 0 || inc < 0
            || base > MAX_TIME_MS || inc > MAX_TIME_MS)) {
        snprintf(err, errlen, "clock: {\"base_ms\": 1..%lld, \"inc_ms\": 0..%lld} expected", MAX_TIME_MS, MAX_TIME_MS);
        return false;
    }
    if (limits && !json_is_null(limits)
        && (json_unpack(limits, "{s?I, s?I, s?I}", "movetime_ms", &movetime, "depth", &depth, "nodes", &nodes)
            || movetime < 0 || movetime > MAX_TIME_MS || depth < 0 || depth > 1000 || nodes < 0)) {
        snprintf(err, errlen, "limits: {\"movetime_ms\": 0..%lld | \"depth\": 0..1000 | \"nodes\": n >= 0} expected",
                 MAX_TIME_MS);
        return false;
    }
    *l = (struct limits){ .base = base * MS, .inc = inc * MS, .movetime = movetime * MS, .depth = (int)depth,
                          .nodes = nodes };
    return true;
}

static void session_engine_init(struct session *s, struct engine *e)
{
    e->uci = (struct uci_client){ .timeout = ENGINE_TIMEOUT, .on_info = on_info, .info_ctx = s };
    e->new_game = true;
}

/* Reserves a place for one more session, counted at once so that concurrent creations cannot pass
 * the limit together (nor allocate their games first): the oldest one without a stream goes. */
static bool make_room(void)
{
    pthread_mutex_lock(&sessions.lock);
    struct session *victim = sessions.count < MAX_SESSIONS ? NULL : oldest_idle(clock_us() + 1);
    bool full = sessions.count >= MAX_SESSIONS && !victim;
    if (victim)
        unlink_session(victim);
    sessions.count += !full;
    pthread_mutex_unlock(&sessions.lock);
    if (victim)
        session_end(victim);
    return !full;
}

/* Gives back a place that make_room reserved for a session that was not made. */
static void free_room(void)
{
    pthread_mutex_lock(&sessions.lock);
    sessions.count--;
    pthread_mutex_unlock(&sessions.lock);
}

/* The creator's tokens: {"creator": T, "seats": [T|null...]} (null: an engine's seat). */
static json_t *tokens_json(const struct seat_keys *k)
{
    json_t *seats = json_array();
    for (int i = 0; i < k->nseats; i++)
        json_array_append_new(seats, k->seat[i][0] ? json_string(k->seat[i]) : json_null());
    return json_pack("{s:s, s:o}", "creator", k->creator, "seats", seats);
}

/* Whether list (NULL: none) is an array of strings; with texts, they are put there (not copied). */
static bool moves_texts(const json_t *list, const char **texts)
{
    size_t i;
    json_t *move;
    if (!list)
        return true;
    if (!json_is_array(list))
        return false;
    json_array_foreach(list, i, move) {
        if (!json_is_string(move))
            return false;
        if (texts)
            texts[i] = json_string_value(move);
    }
    return true;
}

void session_create(const json_t *body, struct reply *r)
{
    const char *name = NULL;
    json_t *fen_json = NULL, *moves_json = NULL, *seats = NULL, *clock = NULL, *limits = NULL;
    char err[512];
    if (json_unpack((json_t *)body, "{s:s, s?o, s?o, s?o, s?o, s?o}", "variant", &name, "fen", &fen_json, "moves",
                    &moves_json, "seats", &seats, "clock", &clock, "limits", &limits)
        || (fen_json && !json_is_string(fen_json) && !json_is_null(fen_json))
        || !moves_texts(moves_json, NULL)) {
        reply_error(r, 400, "{\"variant\": name, \"fen\", \"moves\": [moves], \"seats\", \"clock\", \"limits\"} "
                            "expected");
        return;
    }
    const char *fen = json_string_value(fen_json);
    const struct variant *v = registry_find(name);
    if (!v) {
        reply_error(r, 404, "unknown variant '%s'", name);
        return;
    }
    struct session *s = calloc(1, sizeof *s);
    if (!s) {
        reply_error(r, 503, "out of memory");
        return;
    }
    s->nseats = v->nplayers;
    s->forfeit = -1;
    flow_reset(&s->flow, true);
    s->multipv = 1;
    s->analysis_seat = -1;
    s->refs = 1;
    if (!parse_seats(seats, s, err, sizeof err) || !parse_limits(clock, limits, &s->limits, err, sizeof err)) {
        reply_error(r, 400, "%s", err);
        free(s);
        return;
    }
    bool human[MAX_PLAYERS];
    for (int k = 0; k < s->nseats; k++)
        human[k] = !s->seat[k].engine;
    if (!seat_keys_init(&s->keys, s->nseats, human)) {
        reply_error(r, 503, "no random source for the seats' tokens");
        free(s);
        return;
    }
    if (!make_room()) {
        reply_error(r, 503, "too many sessions");
        free(s);
        return;
    }
    /* On the heap: a body of 64 KB may list thousands of moves. */
    int nmoves = (int)json_array_size(moves_json);
    const char **moves = malloc(((size_t)nmoves + 1) * sizeof *moves);
    bool loaded = moves && moves_texts(moves_json, moves) && record_load(&s->rec, v, fen, moves, nmoves, err, sizeof err);
    if (!loaded) {
        reply_error(r, moves ? 400 : 503, "%s", moves ? err : "out of memory");
        free(moves);
        free_room();
        free(s);
        return;
    }
    free(moves);
    if (!game_init(&s->view, v, false, err, sizeof err)) {
        reply_error(r, 503, "%s", err);
        free_room();
        record_free(&s->rec);
        free(s);
        return;
    }
    if (!s->limits.base && !s->limits.movetime && !s->limits.depth && !s->limits.nodes)
        s->limits.movetime = DEFAULT_MOVETIME;
    for (int k = 0; k < s->nseats; k++) {
        session_engine_init(s, &s->seat[k].e);
        clock_start(&s->clock[k], &s->limits);
    }
    session_engine_init(s, &s->helper);
    random_id(s->id);
    s->node = s->rec.tree.main[s->rec.nmoves];
    s->ply = s->rec.nmoves;
    s->turn_start = s->idle_since = clock_us();
    pthread_mutex_init(&s->lock, NULL);
    cond_init(&s->wake);
    cond_init(&s->changed);
    if (pthread_create(&s->worker, NULL, worker_main, s)) {
        reply_error(r, 503, "out of threads");
        free_room();
        session_free(s);
        return;
    }
    pthread_mutex_lock(&sessions.lock);
    bool closing = sessions.closing;
    if (!closing) {
        s->next = sessions.list;
        sessions.list = s;
    } else {
        sessions.count--;
    }
    pthread_mutex_unlock(&sessions.lock);
    pthread_mutex_lock(&s->lock);
    json_t *state = state_json(s);
    pthread_mutex_unlock(&s->lock);
    if (closing) {
        json_decref(state);
        reply_error(r, 503, "the server is stopping");
        session_end(s);
        return;
    }
    reply_json(r, 201, json_pack("{s:s, s:o, s:o}", "id", s->id, "state", state, "tokens", tokens_json(&s->keys)));
}

/* ---- requests on a session (its lock held) ---- */

static void do_state(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)body, (void)text, (void)len;
    reply_json(r, 200, state_json(s));
}

/* Plays a move, as terminal play takes it ("f5f6", "f5-f6", "Pf5f6", SAN), in the shown position: at
 * the game's end it is the game's next move; before it, on an analysis board, it goes into the tree (the
 * line that has it already, or a new variation) and is shown. 200, or the error's status with err. */
static int play_here(struct session *s, const char *text, char *err, size_t errlen)
{
    struct game *g = (struct game *)shown(s);
    move_t m;
    if (!movable(s)) {
        snprintf(err, errlen, "%s", at_end(s) ? game_over(s) ? "the game is over" : "not a person's turn"
                                    : analysis_board(s) ? "the game is over in this line"
                                                        : "an earlier position is shown");
        return 409;
    }
    if (!game_parse_move(g, text, &m, err, errlen))
        return 400;
    if (at_end(s)) {
        if (!charge_clock(s))
            return snprintf(err, errlen, "lost on time"), 409;
        play_move(s, m);
        return 200;
    }
    struct tree_node node;
    tree_node_of(g, m, &node);
    node.left = game_play(g, m, NULL);
    int id = tree_find(&s->rec.tree, s->node, node.uci);
    if (id < 0 && (id = tree_add(&s->rec.tree, s->node, &node)) < 0) {
        show_node(s);
        return snprintf(err, errlen, "out of memory"), 503;
    }
    s->node = id;
    s->ply = s->rec.tree.node[id].depth;
    interrupt(s, false);
    state_changed(s);
    return 200;
}

static void do_move(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)text, (void)len;
    const char *move;
    char err[256];
    if (json_unpack((json_t *)body, "{s:s}", "move", &move)) {
        reply_error(r, 400, "{\"move\": \"f5f6\"} expected");
        return;
    }
    int status = play_here(s, move, err, sizeof err);
    if (status != 200)
        reply_error(r, status, "%s", err);
    else
        reply_json(r, 200, state_json(s));
}

/* A line of moves from the shown position (an analysis line clicked), checked whole before any is played. */
static void do_line(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)text, (void)len;
    json_t *list = NULL;
    char err[512], why[256];
    struct game g = { 0 };
    if (json_unpack((json_t *)body, "{s:o}", "moves", &list) || !json_is_array(list) || !json_array_size(list)) {
        reply_error(r, 400, "{\"moves\": [\"f5f6\", ...]} expected");
        return;
    }
    bool ok = game_init(&g, s->rec.v, false, err, sizeof err)
              && tree_position(&s->rec.tree, s->node, s->rec.start, &g, err, sizeof err);
    for (size_t i = 0; ok && i < json_array_size(list); i++) {
        const char *move = json_string_value(json_array_get(list, i));
        move_t m;
        ok = move && game_status(&g).outcome == GAME_ONGOING && game_parse_move(&g, move, &m, why, sizeof why);
        if (ok)
            game_play(&g, m, NULL);
        else
            snprintf(err, sizeof err, "move %zu of the line: %s", i + 1,
                     !move ? "not a string" : game_status(&g).outcome != GAME_ONGOING ? "the game is over there" : why);
    }
    game_free(&g);
    int status = ok ? 200 : 400;
    for (size_t i = 0; status == 200 && i < json_array_size(list); i++)
        status = play_here(s, json_string_value(json_array_get(list, i)), err, sizeof err);
    if (status != 200)
        reply_error(r, status, "%s", err);
    else
        reply_json(r, 200, state_json(s));
}

/* The tree's main line changed (a variation promoted or deleted): the game follows it, as an analysis
 * board from now on. */
static bool main_changed(struct session *s)
{
    s->analysis = true;
    s->forfeit = -1;
    s->aborted = false;
    if (!record_replay(&s->rec))
        return false;
    game_changed(s, false);
    return true;
}

/* The node a request on the tree names ({"node": id}, a move's), or -1 with the reply set. */
static int tree_request(struct session *s, const json_t *body, struct reply *r)
{
    json_int_t id = -1;
    if (json_unpack((json_t *)body, "{s:I}", "node", &id) || id <= 0 || id > INT32_MAX
        || !tree_has(&s->rec.tree, (int)id)) {
        reply_error(r, 400, "{\"node\": the id of a move in the tree} expected");
        return -1;
    }
    if (!analysis_board(s)) {
        reply_error(r, 409, "variations are edited on an analysis board: a game over, or one without engines");
        return -1;
    }
    return (int)id;
}

static void do_promote(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)text, (void)len;
    int id = tree_request(s, body, r);
    if (id < 0)
        return;
    if (!tree_on_main(&s->rec.tree, id)) {
        tree_promote(&s->rec.tree, id);
        if (!main_changed(s)) {
            reply_error(r, 503, "out of memory");
            return;
        }
    }
    reply_json(r, 200, state_json(s));
}

static void do_delete(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)text, (void)len;
    int id = tree_request(s, body, r);
    if (id < 0)
        return;
    bool main = tree_on_main(&s->rec.tree, id);
    int parent = s->rec.tree.node[id].parent;
    tree_delete(&s->rec.tree, id);
    /* A shown move that is gone shows the position it was played from. */
    if (!tree_has(&s->rec.tree, s->node))
        s->node = parent;
    if (main && !main_changed(s)) {
        reply_error(r, 503, "out of memory");
        return;
    }
    if (!main) {
        show_node(s);
        interrupt(s, false);
        state_changed(s);
    }
    reply_json(r, 200, state_json(s));
}

/* The review of moves taken back or replaced is of another game. */
static void review_drop(struct session *s)
{
    if (!s->review)
        return;
    review_free(s->review);
    s->review = NULL;
    s->review_changes++;
    pthread_cond_broadcast(&s->changed);
}

static void do_undo(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)body, (void)text, (void)len;
    bool person = false;
    for (int k = 0; k < s->nseats; k++)
        person |= !s->seat[k].engine;
    /* Against an engine, back to a person's turn: the army that played move n is to move after n. */
    int n = s->rec.nmoves - 1;
    while (n > 0 && person && s->seat[s->rec.moves[n].army].engine)
        n--;
    if (n < 0) {
        reply_error(r, 409, "no move to take back");
        return;
    }
    s->rec.nmoves = n;
    tree_cut(&s->rec.tree, s->rec.tree.main[n]);
    if (!record_position(&s->rec, &s->rec.game, n)) {
        reply_error(r, 503, "out of memory");
        return;
    }
    s->forfeit = -1;
    s->aborted = false;
    flow_reset(&s->flow, false);
    review_drop(s);
    game_changed(s, true);
    reply_json(r, 200, state_json(s));
}

static void do_abort(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)body, (void)text, (void)len;
    if (!abortable(s)) {
        reply_error(r, 409,
                    game_over(s) ? "the game is over" : "every army has moved: the game can no longer be aborted");
        return;
    }
    s->aborted = true;
    interrupt(s, true);
    state_changed(s);
    reply_json(r, 200, state_json(s));
}

/* Served to the network, each page steps through the moves on its own: the STATE at that ply goes to
 * the asker alone, so that one page looking back never holds up the players. */
static void personal_view(struct session *s, int node, struct reply *r)
{
    struct game there = { 0 }, live = s->view;
    char err[256];
    int shown_node = s->node, shown_ply = s->ply;
    if (!game_init(&there, s->rec.v, false, err, sizeof err)) {
        reply_error(r, 503, "%s", err);
        return;
    }
    s->view = there;
    s->node = node;
    if (show_node(s))
        reply_json(r, 200, state_json(s));
    else
        reply_error(r, 503, "out of memory");
    there = s->view;
    s->view = live;
    s->node = shown_node;
    s->ply = shown_ply;
    game_free(&there);
}

static void do_view(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)text, (void)len;
    json_int_t ply = -1, node = -1;
    if (json_unpack((json_t *)body, "{s?I, s?I}", "ply", &ply, "node", &node) || (ply < 0) == (node < 0)
        || ply > s->rec.nmoves || node > INT32_MAX || (node >= 0 && !tree_has(&s->rec.tree, (int)node))) {
        reply_error(r, 400, "{\"ply\": 0..%d} or {\"node\": the id of a position in the tree} expected",
                    s->rec.nmoves);
        return;
    }
    int target = node >= 0 ? (int)node : s->rec.tree.main[ply];
    if (seats_tokens_required()) {
        personal_view(s, target, r);
        return;
    }
    int shown_before = s->node;
    s->node = target;
    if (!show_node(s)) {
        s->node = shown_before;
        show_node(s);
        reply_error(r, 503, "out of memory");
        return;
    }
    interrupt(s, false);
    state_changed(s);
    reply_json(r, 200, state_json(s));
}

/* A new game replaces the session's: engines start it afresh (with a new variant, as new processes). */
static void replace_game(struct session *s, struct record *rec)
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
    review_drop(s);
    game_changed(s, true);
}

static void do_fen(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)text, (void)len;
    const char *fen;
    char err[512];
    struct record rec;
    char boards[256];
    if (json_unpack((json_t *)body, "{s:s}", "fen", &fen)) {
        reply_error(r, 400, "{\"fen\": FEN} expected");
        return;
    }
    /* Another variant's starting position (McCooey's given to Glinski, on the same board) is a game of it. */
    const struct variant *v = fen_start_variant(s->rec.v, fen);
    if (!record_load(&rec, v ? v : s->rec.v, fen, NULL, 0, err, sizeof err)) {
        if (fen_fitting_variants(s->rec.v, fen, boards, sizeof boards))
            reply_error(r, 400, "not a position of %s (%d cells): this FEN is one of %s", s->rec.v->name,
                        s->rec.v->geo.ncells, boards);
        else
            reply_error(r, 400, "%s", err);
        return;
    }
    char notice[160] = "";
    if (v && v != s->rec.v)
        snprintf(notice, sizeof notice, "the starting position of %s: loaded as a game of %s", v->name, v->name);
    replace_game(s, &rec);
    json_t *state = state_json(s);
    if (notice[0])
        json_object_set_new(state, "notice", json_string(notice));
    reply_json(r, 200, state);
}

static const char *seat_name(const struct session *s, int k)
{
    return s->seat[k].engine ? sessions.engines[s->seat[k].e.id].name : "Human";
}

/* A main-line move's marks from the game's review (ctx; NULL: none), for the PGN export. */
static bool review_marks(void *review, int ply, const char **nag, char *comment, size_t len)
{
    return review && review_annotation(review, ply, nag, comment, len);
}

/* The game as `sennight match -pgnout` writes it. */
static void pgn_get(struct session *s, struct reply *r)
{
    struct game g = { 0 };
    struct game_record rec = { .culprit = -1, .den = 1, .narmies = s->nseats, .term = TERM_ABANDONED };
    char err[256], date[16];
    struct text tc = { 0 };
    if (!game_init(&g, s->rec.v, false, err, sizeof err) || !record_position(&s->rec, &g, 0)) {
        game_free(&g);
        reply_error(r, 503, "%s", err);
        return;
    }
    snprintf(rec.fen, sizeof rec.fen, "%s", s->rec.start);
    for (int c = 0; c < rec.narmies; c++)
        rec.left[c] = game_armies(&g) >> c & 1 ? -1 : 0;
    if (!tree_record_write(&s->rec.tree, s->rec.start, &g, &rec, review_marks, s->review)) {
        game_record_free(&rec);
        game_free(&g);
        reply_error(r, 503, "out of memory");
        return;
    }
    struct game_status st = game_status(&g);
    if (s->forfeit >= 0) {
        game_record_fault(&rec, TERM_TIME, s->forfeit, game_armies(&g));
        snprintf(rec.reason, sizeof rec.reason, "%s loses on time", play_colour_name(s->rec.v, s->forfeit));
    } else if (flow_over(&s->flow)) {
        flow_record(&s->flow, s->rec.v, &rec, game_armies(&g));
    } else if (st.outcome != GAME_ONGOING) {
        game_record_end(s->rec.v, &rec, st, game_side(&g), game_armies(&g));
    }
    time_t now = time(NULL);
    struct tm tm;
    strftime(date, sizeof date, "%Y.%m.%d", localtime_r(&now, &tm));
    tc_format(&s->limits, &tc);
    struct pgn_tags tags = { .v = s->rec.v, .event = "Sennight GUI", .date = date, .round = 1,
                             .time_control = tc.len ? text_str(&tc) : "-" };
    for (int k = 0; k < s->nseats; k++)
        tags.player[k] = seat_name(s, k);
    size_t size;
    FILE *f = open_memstream(&r->text, &size);
    if (f) {
        pgn_write(f, &tags, &rec);
        fclose(f);
    }
    r->status = f ? 200 : 503;
    text_free(&tc);
    game_record_free(&rec);
    game_free(&g);
}

/* A record of one game replaces the session's game; the variant may change but not the number of armies. */
static void pgn_post(struct session *s, const char *text, size_t len, struct reply *r)
{
    struct records records;
    struct record_game game;
    struct record rec;
    char err[512];
    if (!records_open_text(&records, text ? text : "", len, "record", err, sizeof err)) {
        reply_error(r, 400, "%s", err);
        return;
    }
    int found = records_next(&records, &game, err, sizeof err);
    const struct variant *v = found > 0 && game.variant ? registry_find(game.variant) : found > 0 ? s->rec.v : NULL;
    if (found <= 0)
        reply_error(r, 400, "%s", found < 0 ? err : "no game in the record");
    else if (!v)
        reply_error(r, 404, "unknown variant '%s'", game.variant);
    else if (v->nplayers != s->nseats)
        reply_error(r, 400, "the record's variant has %d armies, the session %d", v->nplayers, s->nseats);
    else {
        /* On the heap: a record of up to 2 MB may hold hundreds of thousands of moves. */
        const char **moves = malloc(((size_t)game.nmoves + 1) * sizeof *moves);
        for (int i = 0; moves && i < game.nmoves; i++)
            moves[i] = game.moves[i].text;
        if (!moves) {
            reply_error(r, 503, "out of memory");
        } else if (!record_load(&rec, v, game.fen, moves, game.nmoves, err, sizeof err)) {
            reply_error(r, 400, "%s", err);
        } else if (!tree_record_read(&rec.tree, v, rec.start, &game, err, sizeof err)) {
            reply_error(r, 400, "%s", err);
            record_free(&rec);
        } else {
            replace_game(s, &rec);
            reply_json(r, 200, state_json(s));
        }
        free(moves);
    }
    records_close(&records);
}

static void do_pgn(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)body;
    if (text)
        pgn_post(s, text, len, r);
    else
        pgn_get(s, r);
}

static void do_analyse(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)text, (void)len;
    int on;
    json_int_t multipv = s->multipv;
    if (json_unpack((json_t *)body, "{s:b, s?I}", "on", &on, "multipv", &multipv) || multipv < 1 || multipv > MAX_LINES) {
        reply_error(r, 400, "{\"on\": true|false, \"multipv\": 1..%d} expected", MAX_LINES);
        return;
    }
    s->analyse = on;
    s->multipv = (int)multipv;
    interrupt(s, false);
    state_changed(s);
    reply_json(r, 200, state_json(s));
}

static void do_hint(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)body, (void)text, (void)len;
    if (!analysable(s)) {
        reply_error(r, 409, s->helper.status != ENGINE_OK ? "the analysis engine has failed" : "the game is over");
        return;
    }
    int asked = ++s->hint_asked;
    interrupt(s, false);
    while (s->hint_done - asked < 0 && !s->ending)
        pthread_cond_wait(&s->changed, &s->lock);
    if (s->ending || !s->hint[0] || s->hint_done != asked)
        reply_error(r, 409, "no hint: the position changed or the engine failed");
    else
        reply_json(r, 200, json_pack("{s:s}", "move", s->hint));
}

/* What an engine says of a value for one of its options, as a probe of its own process finds it. */
struct option_probe {
    const char *name;
    char declaration[8192];     /* its 'option name <name> type ...' line, empty if none */
    char error[256];            /* the first error line it printed after the setoption */
};

static void probe_declaration(void *ctx, const char *line)
{
    struct option_probe *p = ctx;
    size_t n = strlen(p->name);
    if (!strncmp(line, "option name ", 12) && !strncmp(line + 12, p->name, n) && !strncmp(line + 12 + n, " type ", 6))
        snprintf(p->declaration, sizeof p->declaration, "%s", line);
}

static void probe_error(void *ctx, const char *line)
{
    struct option_probe *p = ctx;
    if (p->error[0] || strncmp(line, "info string ", 12) || !strstr(line + 12, "error"))
        return;
    const char *text = line + 12;
    snprintf(p->error, sizeof p->error, "%s", strncmp(text, "error: ", 7) ? text : text + 7);
}

/* The HTTP status of setting an option, 200 if the engine takes the value: a process of the engine
 * is asked, so that a refusal (by its declaration's type and bounds, or its own error line) comes
 * back to the page instead of reaching the session's engines unseen. */
static int option_verdict(const char *cmd, const char *variant, const char *name, const char *value, char *err,
                          size_t errlen)
{
    struct uci_client c = { .timeout = ENGINE_TIMEOUT };
    struct option_probe p = { .name = name };
    atomic_bool never = false;
    int status = 200;
    enum uci_status st = uci_client_start(&c, cmd, NULL, 0, variant, &never);
    if (st == UCI_OK)
        st = uci_client_ask(&c, "uci", "uciok", probe_declaration, &p);
    if (st == UCI_OK && !p.declaration[0]) {
        snprintf(err, errlen, "the engine has no option '%s'", name);
        status = 400;
    } else if (st == UCI_OK && !option_line_check(p.declaration, value, err, errlen)) {
        status = 400;
    } else if (st == UCI_OK) {
        st = uci_client_set_option(&c, name, value);
        if (st == UCI_OK)
            st = uci_client_ask(&c, "isready", "readyok", probe_error, &p);
        if (st == UCI_OK && p.error[0]) {
            snprintf(err, errlen, "%s", p.error);
            status = 400;
        }
    }
    if (st != UCI_OK) {
        snprintf(err, errlen, "the engine could not be asked: %s", c.error);
        status = 503;
    }
    uci_client_end(&c, st == UCI_OK);
    return status;
}

static void do_options(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)text, (void)len;
    json_int_t id = 0;
    const char *name;
    json_t *value;
    size_t known = sizeof allowed_options / sizeof *allowed_options, i = 0;
    if (json_unpack((json_t *)body, "{s?I, s:s, s:o}", "engine", &id, "name", &name, "value", &value) || id < 0
        || id >= sessions.nengines || !(json_is_string(value) || json_is_integer(value) || json_is_boolean(value))) {
        reply_error(r, 400, "{\"engine\": 0..%d, \"name\": N, \"value\": V} expected", sessions.nengines - 1);
        return;
    }
    while (i < known && strcmp(name, allowed_options[i]))
        i++;
    if (i == known) {
        reply_error(r, 400, "option '%s' is not one the page may set", name);
        return;
    }
    char text_value[256];
    if (json_is_string(value))
        snprintf(text_value, sizeof text_value, "%s", json_string_value(value));
    else if (json_is_integer(value))
        snprintf(text_value, sizeof text_value, "%" JSON_INTEGER_FORMAT, json_integer_value(value));
    else
        snprintf(text_value, sizeof text_value, "%s", json_is_true(value) ? "true" : "false");
    if (strpbrk(text_value, "\r\n")) {
        reply_error(r, 400, "an option's value is one line");
        return;
    }
    char err[512];
    const char *variant = s->rec.v->name;
    pthread_mutex_unlock(&s->lock);
    int status = option_verdict(sessions.engines[id].cmd, variant, name, text_value, err, sizeof err);
    pthread_mutex_lock(&s->lock);
    if (status != 200) {
        reply_error(r, status, "%s", err);
        return;
    }
    struct uci_option *list = s->option[id];
    int n = 0;
    while (n < s->noptions[id] && strcmp(list[n].name, name))
        n++;
    snprintf(list[n].name, sizeof list[n].name, "%s", name);
    snprintf(list[n].value, sizeof list[n].value, "%s", text_value);
    s->noptions[id] += n == s->noptions[id];
    s->options_version[id]++;
    reply_json(r, 200, json_pack("{s:I, s:s, s:s}", "engine", id, "name", name, "value", text_value));
}

static void do_restart(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
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
    interrupt(s, false);
    reply_json(r, 200, state_json(s));
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
    state_changed(s);
    reply_json(r, 200, json_pack("{s:I, s:s, s:o}", "seat", seat, "token", token, "state", state_json(s)));
}

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
    int seat = move ? side_to_move(s) : own >= 0 ? own : SEAT_CREATOR;
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

/* ---- the game flow (actions.c) ---- */

static void flow_game_of(struct session *s, struct flow_game *g)
{
    *g = (struct flow_game){ .v = s->rec.v, .nseats = s->nseats, .plies = s->rec.nmoves,
                             .armies = game_armies(&s->rec.game), .over = game_over(s) };
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
    if (game_over(s))
        interrupt(s, true);
    state_changed(s);
    reply_json(r, 200, state_json(s));
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
    replace_game(s, &rec);
    reply_json(r, 200, state_json(s));
}

static json_t *review_event(struct session *s)
{
    return s->review ? review_json(s->review) : json_pack("{s:s}", "state", "none");
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
    struct review *review = texts ? review_start(sessions.engines[0].cmd, s->rec.v, s->rec.start,
                                                 (const char *const *)texts, s->rec.nmoves, budget, err, sizeof err)
                                  : NULL;
    free(texts);
    if (!review) {
        reply_error(r, 503, "%s", texts ? err : "out of memory");
        return;
    }
    review_drop(s);
    s->review = review;
    reply_json(r, 200, review_json(review));
}

static void do_review_get(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)body, (void)text, (void)len;
    reply_json(r, 200, review_event(s));
}

typedef void (*action_fn)(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r);

static const struct {
    const char *name, *method;
    action_fn fn;
} actions[] = {
    { "", "GET", do_state },       { "move", "POST", do_move },       { "undo", "POST", do_undo },
    { "abort", "POST", do_abort }, { "view", "POST", do_view },       { "fen", "POST", do_fen },
    { "pgn", "GET", do_pgn },      { "pgn", "POST", do_pgn },         { "analyse", "POST", do_analyse },
    { "hint", "POST", do_hint },   { "options", "POST", do_options }, { "restart", "POST", do_restart },
    { "join", "POST", do_join },
    { "line", "POST", do_line },   { "promote", "POST", do_promote }, { "delete", "POST", do_delete },
    { "resign", "POST", do_resign }, { "draw", "POST", do_draw },     { "rematch", "POST", do_rematch },
    { "review", "GET", do_review_get }, { "review", "POST", do_review },
};

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
    struct session *s = session_find(id, r);
    if (!s)
        return;
    pthread_mutex_lock(&s->lock);
    s->idle_since = clock_us();
    s->caller = token;
    if (session_allowed(s, action, body, method, r))
        actions[i].fn(s, body, !strcmp(method, "POST") && actions[i].fn == do_pgn ? text : NULL, len, r);
    s->caller = NULL;
    pthread_mutex_unlock(&s->lock);
    session_release(s);
}

/* ---- the event stream ---- */

struct session_stream *session_stream_open(const char *id, struct reply *r)
{
    struct session *s = session_find(id, r);
    struct session_stream *st = s ? calloc(1, sizeof *st) : NULL;
    if (s && !st) {
        session_release(s);
        reply_error(r, 503, "out of memory");
        return NULL;
    }
    if (!s)
        return NULL;
    pthread_mutex_lock(&s->lock);
    s->streams++;
    /* A stream opened during a search (a reload, a reconnection) gets its lines at once. */
    *st = (struct session_stream){ .s = s, .state_seen = -1,
                                   .analysis_seen = s->analysis_version - (s->nlines > 0), .next_event = s->nevents,
                                   .review_changes_seen = s->review_changes - (s->review != NULL), .review_seen = -1 };
    pthread_mutex_unlock(&s->lock);
    return st;
}

static char *sse(const char *event, json_t *data)
{
    char *json = json_dumps(data, JSON_COMPACT), *out = json ? format("event: %s\ndata: %s\n\n", event, json) : NULL;
    json_decref(data);
    free(json);
    return out;
}

char *session_stream_next(struct session_stream *st)
{
    struct session *s = st->s;
    char *out = NULL;
    long long deadline = clock_us() + KEEPALIVE;
    pthread_mutex_lock(&s->lock);
    while (!s->ending) {
        long long now = clock_us(), until = deadline;
        if (st->next_event < s->nevents) {
            if (s->nevents - st->next_event > EVENT_RING)
                st->next_event = s->nevents - EVENT_RING;
            const char *event = s->events[st->next_event++ % EVENT_RING];
            out = format("event: engine\ndata: %s\n\n", event ? event : "{}");
            break;
        }
        if (st->state_seen != s->state_version) {
            st->state_seen = s->state_version;
            out = sse("state", state_json(s));
            break;
        }
        if (st->analysis_seen != s->analysis_version) {
            if (now >= st->analysis_sent + ANALYSIS_GAP) {
                st->analysis_seen = s->analysis_version;
                st->analysis_sent = now;
                out = sse("analysis", analysis_json(s));
                break;
            }
            until = st->analysis_sent + ANALYSIS_GAP < until ? st->analysis_sent + ANALYSIS_GAP : until;
        }
        long long review = s->review ? review_version(s->review) : -1;
        if (st->review_changes_seen != s->review_changes || st->review_seen != review) {
            st->review_changes_seen = s->review_changes;
            st->review_seen = review;
            out = sse("review", review_event(s));
            break;
        }
        /* The review's thread does not wake the streams: while it runs, they look every REVIEW_GAP. */
        if (s->review && review_running(s->review))
            until = now + REVIEW_GAP < until ? now + REVIEW_GAP : until;
        if (now >= deadline) {
            out = strdup(": keep-alive\n\n");
            break;
        }
        cond_wait_for(&s->changed, &s->lock, until - now);
    }
    pthread_mutex_unlock(&s->lock);
    /* An allocation that failed ends this stream; the page opens another. */
    return out;
}

void session_stream_close(struct session_stream *st)
{
    struct session *s = st->s;
    pthread_mutex_lock(&s->lock);
    s->streams--;
    s->idle_since = clock_us();
    pthread_mutex_unlock(&s->lock);
    session_release(s);
    free(st);
}
