/* A new session from the page's request: its game, seats, clocks and tokens; its worker started. */
#include "session_create.h"

#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../rules/registry.h"
#include "../util/clock.h"
#include "record.h"
#include "seats.h"
#include "session.h"
#include "session_json.h"
#include "sessions.h"
#include "worker.h"

static const long long DEFAULT_MOVETIME = 1 * SECONDS;  /* engines' limit when the page sets none */
/* A clock, increment or move time in ms: a week, far from overflowing the microsecond sums. */
#define MAX_TIME_MS (7 * 24 * 3600 * 1000LL)

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
        if (json_unpack(json_array_get(list, (size_t)k), "{s:s, s?I, s?o}", "kind", &kind, "engine", &engine, "elo",
                        &elo)
            || (strcmp(kind, "human") && strcmp(kind, "engine")) || engine < 0 || engine >= engine_list_count()
            || (elo && !json_is_null(elo) && !json_is_integer(elo))) {
            snprintf(err, errlen,
                     "seat %d: {\"kind\": \"human\"|\"engine\", \"engine\": 0..%d, \"elo\": n|null} expected", k,
                     engine_list_count() - 1);
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
    shares_reset(&s->shares);
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
    if (!sessions_reserve()) {
        reply_error(r, 503, "too many sessions");
        free(s);
        return;
    }
    /* On the heap: a body of 64 KB may list thousands of moves. */
    int nmoves = (int)json_array_size(moves_json);
    const char **moves = malloc(((size_t)nmoves + 1) * sizeof *moves);
    bool loaded = moves && moves_texts(moves_json, moves)
                  && record_load(&s->rec, v, fen, moves, nmoves, err, sizeof err);
    if (!loaded) {
        reply_error(r, moves ? 400 : 503, "%s", moves ? err : "out of memory");
        free(moves);
        sessions_unreserve();
        free(s);
        return;
    }
    free(moves);
    if (!game_init(&s->view, v, false, err, sizeof err)) {
        reply_error(r, 503, "%s", err);
        sessions_unreserve();
        record_free(&s->rec);
        free(s);
        return;
    }
    if (!s->limits.base && !s->limits.movetime && !s->limits.depth && !s->limits.nodes)
        s->limits.movetime = DEFAULT_MOVETIME;
    for (int k = 0; k < s->nseats; k++) {
        worker_engine_init(s, &s->seat[k].e);
        clock_start(&s->clock[k], &s->limits);
    }
    worker_engine_init(s, &s->helper);
    random_id(s->id);
    s->node = s->rec.tree.main[s->rec.nmoves];
    s->ply = s->rec.nmoves;
    s->turn_start = s->idle_since = clock_us();
    session_locks_init(s);
    if (pthread_create(&s->worker, NULL, worker_main, s)) {
        reply_error(r, 503, "out of threads");
        sessions_unreserve();
        session_free(s);
        return;
    }
    bool closing = !sessions_add(s);
    pthread_mutex_lock(&s->lock);
    json_t *state = session_json_state(s);
    pthread_mutex_unlock(&s->lock);
    if (closing) {
        json_decref(state);
        reply_error(r, 503, "the server is stopping");
        sessions_end(s);
        return;
    }
    reply_json(r, 201, json_pack("{s:s, s:o, s:o}", "id", s->id, "state", state, "tokens", tokens_json(&s->keys)));
}
