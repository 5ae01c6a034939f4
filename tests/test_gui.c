/* `sennight gui` ($SENNIGHT) as a child process, driven over plain HTTP as the page drives it: the
 * page's files, variants and boards, games, moves, FEN, three-player eliminations, the event stream
 * with an engine's thinking and moves, the Host/Origin and size checks, a crashing engine ($TOY_ENGINE)
 * restarted with the game kept, and SIGTERM. */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "engine_pipe.h"
#include "tests.h"
#include "../util/clock.h"

#define WELLISCH_MATE "6/7/8/9/10/rG1wV8/10/2rE6/8/3bG3/wG5 b - - 0 1"

extern const char variants_builtin_ini[];

struct gui {
    struct proc p;
    char addr[32];      /* the address it listens on */
    int port;
    char ready[512];    /* its ready line */
};

static int ms(double seconds)
{
    return (int)(test_timeout(seconds) * 1000);
}

/* Starts the server with these arguments and reads its ready line. */
static void gui_start_args(struct gui *g, const char *const *args)
{
    pipe_start(&g->p, args);
    const char *line = pipe_read_line(&g->p, ms(10));
    ck_assert_msg(line, "no ready line");
    snprintf(g->ready, sizeof g->ready, "%s", line);
    ck_assert_msg(sscanf(line, "Sennight GUI: http://%31[0-9.]:%d/", g->addr, &g->port) == 2, "ready line '%s'", line);
    ck_assert_msg(!pipe_read_line(&g->p, 50), "more than one line on stdout");
}

/* Starts the server, with another engine when `engine` is not NULL. */
static void gui_start(struct gui *g, const char *engine)
{
    const char *args[] = { "gui", "--port", "0", "--no-browser", engine ? "--engine" : NULL, engine, NULL };
    gui_start_args(g, args);
    ck_assert_str_eq(g->addr, "127.0.0.1");
}

/* SIGTERM: a clean exit (under the sanitizers: no leak, no error). */
static void gui_stop(struct gui *g)
{
    kill(g->p.pid, SIGTERM);
    struct proc_exit e = pipe_wait(&g->p, ms(5));
    ck_assert_msg(e.exited && e.code == 0, "exit: exited %d code %d signal %d", e.exited, e.code, e.signal);
    proc_end(&g->p, 0, NULL, 0);
}

static int gui_connect(const struct gui *g)
{
    struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons((uint16_t)g->port) };
    ck_assert_int_eq(inet_pton(AF_INET, g->addr, &addr.sin_addr), 1);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert_int_ge(fd, 0);
    ck_assert_msg(!connect(fd, (struct sockaddr *)&addr, sizeof addr), "connect: %s", strerror(errno));
    return fd;
}

/* Sends a request: HTTP/1.0, so that every answer (the stream too) is plain bytes up to the close. */
static int http_send(const struct gui *g, const char *method, const char *path, const char *headers, const char *body,
                     size_t len)
{
    int fd = gui_connect(g);
    char host[64];
    snprintf(host, sizeof host, "Host: %s:%d\r\n", g->addr, g->port);
    size_t cap = strlen(path) + (headers ? strlen(headers) : 0) + len + 256;
    char *req = malloc(cap);
    int n = snprintf(req, cap, "%s %s HTTP/1.0\r\n%s%sContent-Length: %zu\r\n\r\n", method, path,
                     headers && strstr(headers, "Host:") ? "" : host, headers ? headers : "", len);
    memcpy(req + n, body ? body : "", len);
    for (size_t sent = 0, total = (size_t)n + len; sent < total;) {
        ssize_t w = send(fd, req + sent, total - sent, MSG_NOSIGNAL);
        if (w <= 0)
            break;  /* the server may answer (413) before reading everything */
        sent += (size_t)w;
    }
    free(req);
    return fd;
}

/* Reads into buf (growing) until the peer closes or the deadline; false on timeout. */
static bool read_some(int fd, char **buf, size_t *len, size_t *cap, long long deadline)
{
    struct pollfd pfd = { .fd = fd, .events = POLLIN };
    long long left = deadline - clock_us();
    if (left <= 0 || poll(&pfd, 1, (int)(left / 1000) + 1) <= 0)
        return false;
    if (*len + 4096 > *cap) {
        *cap = 2 * *cap + 8192;
        *buf = realloc(*buf, *cap);
    }
    ssize_t n = recv(fd, *buf + *len, *cap - *len - 1, 0);
    if (n <= 0)
        return false;
    *len += (size_t)n;
    (*buf)[*len] = 0;
    return true;
}

struct response {
    int status;
    char *text;         /* the whole answer */
    const char *body;
    json_t *json;       /* the body as JSON when it is */
};

static void response_free(struct response *r)
{
    free(r->text);
    json_decref(r->json);
    *r = (struct response){ 0 };
}

static struct response http(const struct gui *g, const char *method, const char *path, const char *headers,
                            const char *body)
{
    struct response r = { 0 };
    int fd = http_send(g, method, path, headers, body, body ? strlen(body) : 0);
    size_t len = 0, cap = 0;
    long long deadline = clock_us() + ms(20) * 1000LL;
    while (read_some(fd, &r.text, &len, &cap, deadline))
        ;
    close(fd);
    ck_assert_msg(r.text && sscanf(r.text, "HTTP/1.%*d %d", &r.status) == 1, "no answer to %s %s", method, path);
    char *end = strstr(r.text, "\r\n\r\n");
    ck_assert(end);
    r.body = end + 4;
    r.json = json_loads(r.body, 0, NULL);
    return r;
}

/* A header's value in the answer, or NULL. */
static const char *header(const struct response *r, const char *name, char *out, size_t len)
{
    for (const char *line = strstr(r->text, "\r\n"); line && line + 2 < r->body; line = strstr(line + 2, "\r\n"))
        if (!strncasecmp(line + 2, name, strlen(name)) && line[2 + strlen(name)] == ':') {
            snprintf(out, len, "%.*s", (int)strcspn(line + 4 + strlen(name), "\r"), line + 4 + strlen(name));
            return out;
        }
    return NULL;
}

/* A request that must answer with `status` and JSON; returns the JSON (owned by the caller). */
static json_t *api(const struct gui *g, const char *method, const char *path, const char *body, int status)
{
    struct response r = http(g, method, path, NULL, body);
    ck_assert_msg(r.status == status, "%s %s: %d, expected %d: %s", method, path, r.status, status, r.body);
    ck_assert_msg(r.json, "%s %s: not JSON: %s", method, path, r.body);
    json_t *json = json_incref(r.json);
    response_free(&r);
    return json;
}

static const char *str(json_t *obj, const char *key)
{
    const char *s = json_string_value(json_object_get(obj, key));
    ck_assert_msg(s, "no string '%s'", key);
    return s;
}

/* A new session; its id is written to id. */
static json_t *new_session(const struct gui *g, const char *request, char *id)
{
    json_t *reply = api(g, "POST", "/api/session", request, 201);
    snprintf(id, 64, "%s", str(reply, "id"));
    json_t *state = json_incref(json_object_get(reply, "state"));
    json_decref(reply);
    return state;
}

static json_t *session_post(const struct gui *g, const char *id, const char *action, const char *body, int status)
{
    char path[256];
    snprintf(path, sizeof path, "/api/session/%s/%s", id, action);
    return api(g, "POST", path, body, status);
}

static json_t *session_state(const struct gui *g, const char *id)
{
    char path[256];
    snprintf(path, sizeof path, "/api/session/%s", id);
    return api(g, "GET", path, NULL, 200);
}

/* ---- the event stream ---- */

struct stream {
    int fd;
    char *buf;
    size_t len, cap;
};

static void stream_open(struct stream *s, const struct gui *g, const char *id)
{
    char path[256];
    snprintf(path, sizeof path, "/api/session/%s/events", id);
    *s = (struct stream){ .fd = http_send(g, "GET", path, NULL, NULL, 0) };
    long long deadline = clock_us() + ms(5) * 1000LL;
    char *end;
    while (!(end = s->buf ? strstr(s->buf, "\r\n\r\n") : NULL))
        ck_assert_msg(read_some(s->fd, &s->buf, &s->len, &s->cap, deadline), "no stream");
    ck_assert_msg(strstr(s->buf, " 200 ") && strstr(s->buf, "text/event-stream"), "%s", s->buf);
    s->len -= (size_t)(end + 4 - s->buf);
    memmove(s->buf, end + 4, s->len + 1);
}

static void stream_close(struct stream *s)
{
    close(s->fd);
    free(s->buf);
}

typedef bool (*event_match)(json_t *data, const void *ctx);

/* Reads events until one named `name` whose data matches (any, without match); NULL at the deadline. */
static json_t *stream_wait(struct stream *s, const char *name, event_match match, const void *ctx, double seconds)
{
    long long deadline = clock_us() + ms(seconds) * 1000LL;
    for (;;) {
        char *end;
        while ((end = s->buf ? strstr(s->buf, "\n\n") : NULL)) {
            *end = 0;
            char event[32] = "", *data = strstr(s->buf, "data: ");
            sscanf(s->buf, "event: %31s", event);
            json_t *json = data ? json_loads(data + 6, 0, NULL) : NULL;
            s->len -= (size_t)(end + 2 - s->buf);
            memmove(s->buf, end + 2, s->len + 1);
            if (json && !strcmp(event, name) && (!match || match(json, ctx)))
                return json;
            json_decref(json);
        }
        if (!read_some(s->fd, &s->buf, &s->len, &s->cap, deadline))
            return NULL;
    }
}

/* ---- tests ---- */

/* The page's files that exist now (the page grows meanwhile): index.html, and one module. */
START_TEST(test_page_served)
{
    struct gui g;
    char type[128], module[300] = "";
    gui_start(&g, NULL);
    DIR *dir = opendir("gui/www");
    for (struct dirent *e; dir && (e = readdir(dir));)
        if (strlen(e->d_name) > 3 && !strcmp(e->d_name + strlen(e->d_name) - 3, ".js"))
            snprintf(module, sizeof module, "/%s", e->d_name);
    if (dir)
        closedir(dir);
    if (!access("gui/www/index.html", R_OK)) {
        struct response r = http(&g, "GET", "/", NULL, NULL);
        ck_assert_int_eq(r.status, 200);
        ck_assert_str_eq(header(&r, "Content-Type", type, sizeof type), "text/html; charset=utf-8");
        response_free(&r);
    }
    if (module[0]) {
        struct response r = http(&g, "GET", module, NULL, NULL);
        ck_assert_int_eq(r.status, 200);
        ck_assert_str_eq(header(&r, "Content-Type", type, sizeof type), "text/javascript; charset=utf-8");
        response_free(&r);
    }
    json_decref(api(&g, "GET", "/no-such-file.js", NULL, 404));
    json_decref(api(&g, "GET", "/api/nothing", NULL, 404));
    gui_stop(&g);
}
END_TEST

START_TEST(test_variants_listed)
{
    struct gui g;
    gui_start(&g, NULL);
    json_t *reply = api(&g, "GET", "/api/variants", NULL, 200), *list = json_object_get(reply, "variants");
    int sections = 0;
    for (const char *line = variants_builtin_ini; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        sections += *line == '[';
    ck_assert_int_eq((int)json_array_size(list), sections);
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v) {
        const struct variant *known = test_variant(str(v, "name"));
        ck_assert_int_eq(json_integer_value(json_object_get(v, "players")), known->nplayers);
        ck_assert_int_eq(json_integer_value(json_object_get(v, "cells")), known->geo.ncells);
    }
    json_t *engine = json_array_get(json_object_get(reply, "engines"), 0);
    ck_assert_str_eq(str(engine, "name"), "Sennight");
    json_decref(reply);
    json_decref(api(&g, "GET", "/api/variant/no-such-variant", NULL, 404));
    gui_stop(&g);
}
END_TEST

static double number(json_t *j)
{
    ck_assert(json_is_number(j));
    return json_number_value(j);
}

/* Every cell: a unique name, a colour, a hexagon of six corners around its centre; neighbours (one
 * step on the axial grid) touch; Glinski files are vertical, Wellisch rows horizontal. */
static void check_board(const struct gui *g, const char *name, int ncells, int nplayers)
{
    char path[128];
    snprintf(path, sizeof path, "/api/variant/%s", name);
    json_t *v = api(g, "GET", path, NULL, 200), *cells = json_object_get(json_object_get(v, "board"), "cells");
    const struct variant *known = test_variant(name);
    ck_assert_int_eq((int)json_array_size(cells), ncells);
    ck_assert_int_eq((int)json_array_size(json_object_get(v, "armies")), nplayers);
    ck_assert_str_eq(str(v, "orientation"), known->orientation == ORIENT_GLINSKI ? "glinski" : "wellisch");
    for (int p = 0; p < nplayers; p++) {
        json_t *army = json_array_get(json_object_get(v, "armies"), (size_t)p);
        ck_assert_int_eq(json_integer_value(json_object_get(army, "rotation")), known->rotation[p] * 60);
        ck_assert_int_eq(json_integer_value(json_object_get(army, "army")), known->army[p]);
    }
    json_t *pieces = json_object_get(v, "pieces");
    ck_assert_int_eq((int)json_array_size(pieces), known->ntypes);
    for (int t = 0; t < known->ntypes; t++)
        ck_assert_str_eq(str(json_array_get(pieces, (size_t)t), "description"), known->piece[t].description);
    double x[MAX_CELLS], y[MAX_CELLS], radius = 0;
    for (int c = 0; c < ncells; c++) {
        json_t *cell = json_array_get(cells, (size_t)c), *points = json_object_get(cell, "points");
        ck_assert_str_eq(str(cell, "name"), known->geo.name[c]);
        ck_assert_int_eq(json_integer_value(json_object_get(cell, "colour")), geo_colour_of(&known->geo, c));
        x[c] = number(json_object_get(cell, "x"));
        y[c] = number(json_object_get(cell, "y"));
        ck_assert_int_eq((int)json_array_size(points), 6);
        for (int k = 0; k < 6; k++) {
            json_t *pt = json_array_get(points, (size_t)k);
            double d = hypot(number(json_array_get(pt, 0)) - x[c], number(json_array_get(pt, 1)) - y[c]);
            radius = radius ? radius : d;
            ck_assert_msg(fabs(d - radius) < 0.05, "%s: a corner %g from the centre", known->geo.name[c], d);
        }
    }
    for (int a = 0; a < ncells; a++)
        for (int b = 0; b < ncells; b++) {
            int dq = known->geo.q[b] - known->geo.q[a], dr = known->geo.r[b] - known->geo.r[a];
            bool neighbour = geo_distance((struct vec){ 0, 0 }, (struct vec){ dq, dr }) == 1;
            if (neighbour)
                ck_assert_msg(fabs(hypot(x[b] - x[a], y[b] - y[a]) - radius * sqrt(3)) < 0.05, "%s-%s",
                              known->geo.name[a], known->geo.name[b]);
            /* Up the file (Glinski) or along the rank (Wellisch): the same x, or the same y. */
            if (neighbour && dq == 0 && dr == 1 && known->orientation == ORIENT_GLINSKI)
                ck_assert(fabs(x[a] - x[b]) < 0.01 && y[b] < y[a]);
            if (neighbour && dq == 1 && dr == 0 && known->orientation == ORIENT_WELLISCH)
                ck_assert(fabs(y[a] - y[b]) < 0.01 && x[b] > x[a]);
        }
    json_decref(v);
}

START_TEST(test_boards)
{
    struct gui g;
    gui_start(&g, NULL);
    check_board(&g, "glinski", 91, 2);
    check_board(&g, "flatstar", 73, 2);
    check_board(&g, "nd-mccooey", 169, 2);
    check_board(&g, "wellisch", 91, 3);
    check_board(&g, "haynie", 91, 2);
    json_t *guide = api(&g, "GET", "/api/guide?variant=glinski&piece=N", NULL, 200);
    ck_assert_str_eq(str(guide, "cell"), "f6");
    ck_assert_int_eq((int)json_array_size(json_object_get(guide, "moves")), 12);
    json_decref(guide);
    json_decref(api(&g, "GET", "/api/guide?variant=glinski&piece=Z", NULL, 400));
    /* Four players, different armies: B is White's Vicbaba (D F) and Red's Bishop, from the centre. */
    check_board(&g, "nd-wellisch-4p", 169, 4);
    guide = api(&g, "GET", "/api/guide?variant=nd-wellisch-4p&piece=B", NULL, 200);
    ck_assert_int_eq((int)json_array_size(json_object_get(guide, "moves")), 12);
    json_decref(guide);
    guide = api(&g, "GET", "/api/guide?variant=nd-wellisch-4p&piece=B&army=1", NULL, 200);
    ck_assert_int_eq((int)json_array_size(json_object_get(guide, "moves")), 18);
    json_decref(guide);
    json_decref(api(&g, "GET", "/api/guide?variant=nd-wellisch-4p&piece=B&army=2", NULL, 400));
    gui_stop(&g);
}
END_TEST

static bool has_string(json_t *list, const char *s)
{
    size_t i;
    json_t *e;
    json_array_foreach(list, i, e) {
        if (json_is_string(e) && !strcmp(json_string_value(e), s))
            return true;
    }
    return false;
}

START_TEST(test_moves)
{
    struct gui g;
    char id[64];
    gui_start(&g, NULL);
    json_t *state = new_session(&g, "{\"variant\": \"glinski\", \"fen\": null, \"seats\": [{\"kind\": \"human\"}, "
                                    "{\"kind\": \"human\", \"elo\": null}], \"clock\": null, \"limits\": null}", id);
    ck_assert_str_eq(str(state, "fen"), test_variant("glinski")->start_fen);
    ck_assert(has_string(json_object_get(state, "legal"), "f5f6"));
    ck_assert_int_eq((int)json_array_size(json_object_get(state, "legal")), 51);
    json_decref(state);
    json_t *abort = session_post(&g, id, "abort", NULL, 200);
    ck_assert_str_eq(str(json_object_get(abort, "result"), "text"), "aborted");
    ck_assert_int_eq((int)json_array_size(json_object_get(abort, "legal")), 0);
    json_decref(abort);
    json_decref(session_post(&g, id, "abort", NULL, 409));
    json_decref(session_post(&g, id, "move", "{\"move\": \"f5f6\"}", 409));
    state = new_session(&g, "{\"variant\": \"glinski\"}", id);
    long long version = json_integer_value(json_object_get(state, "version"));
    json_decref(state);
    /* Moves as terminal play takes them; a letter naming another piece is refused. */
    json_decref(session_post(&g, id, "move", "{\"move\": \"Nf5f6\"}", 400));
    state = session_post(&g, id, "move", "{\"move\": \"Pf5-f6\"}", 200);
    ck_assert(json_integer_value(json_object_get(state, "version")) > version);
    ck_assert(json_is_true(json_object_get(state, "abortable")));
    ck_assert_int_eq(json_integer_value(json_object_get(state, "plies")), 1);
    ck_assert_str_eq(str(state, "turn"), "b");
    ck_assert_str_eq(json_string_value(json_array_get(json_object_get(state, "last"), 1)), "f6");
    /* Each move carries its UCI text and its SAN (docs/notation.md), for the move list. */
    ck_assert_str_eq(str(json_array_get(json_object_get(state, "moves"), 0), "uci"), "f5f6");
    ck_assert_str_eq(str(json_array_get(json_object_get(state, "moves"), 0), "san"), "f6");
    char fen[1024];
    snprintf(fen, sizeof fen, "%s", str(state, "fen"));
    json_decref(state);
    /* Illegal, malformed, not JSON: refused, nothing changes. */
    json_t *err = session_post(&g, id, "move", "{\"move\": \"f7f3\"}", 400);
    ck_assert(json_is_string(json_object_get(err, "error")));
    json_decref(err);
    json_decref(session_post(&g, id, "move", "{\"mov\": 1}", 400));
    json_decref(session_post(&g, id, "move", "{\"move\": ", 400));
    state = session_state(&g, id);
    ck_assert_str_eq(str(state, "fen"), fen);
    ck_assert_int_eq(json_integer_value(json_object_get(state, "plies")), 1);
    json_decref(state);
    /* The view of an earlier position (between two people its moves would make variations), then undo. */
    state = session_post(&g, id, "view", "{\"ply\": 0}", 200);
    ck_assert_str_eq(str(state, "fen"), test_variant("glinski")->start_fen);
    ck_assert_int_eq((int)json_array_size(json_object_get(state, "legal")), 51);
    json_decref(state);
    json_decref(session_post(&g, id, "view", "{\"ply\": 1}", 200));
    state = session_post(&g, id, "undo", NULL, 200);
    ck_assert_int_eq(json_integer_value(json_object_get(state, "plies")), 0);
    json_decref(state);
    json_decref(api(&g, "POST", "/api/session", "{\"variant\": \"nope\"}", 404));
    /* A game created with its moves (the page's address holds them), in UCI or SAN; a bad one is refused. */
    state = new_session(&g, "{\"variant\": \"glinski\", \"moves\": [\"f5f6\", \"e6\", \"c1f4\"]}", id);
    ck_assert_int_eq(json_integer_value(json_object_get(state, "plies")), 3);
    ck_assert_str_eq(str(json_array_get(json_object_get(state, "moves"), 2), "san"), "Rcf4");
    ck_assert_str_eq(str(state, "turn"), "b");
    json_decref(state);
    err = api(&g, "POST", "/api/session", "{\"variant\": \"glinski\", \"moves\": [\"f5f6\", \"f5f6\"]}", 400);
    ck_assert_str_eq(str(err, "error"), "move 2 'f5f6': illegal move 'f5f6'");
    json_decref(err);
    json_decref(api(&g, "POST", "/api/session", "{\"variant\": \"glinski\", \"moves\": [\"f5f6\", 7]}", 400));
    json_decref(api(&g, "POST", "/api/session", "{\"variant\": \"glinski\", \"moves\": \"f5f6\"}", 400));
    json_decref(api(&g, "GET", "/api/session/0123456789abcdef", NULL, 404));
    gui_stop(&g);
}
END_TEST

/* The id of the variation move with that UCI text in a STATE, or -1. */
static int variation_id(json_t *state, const char *uci)
{
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(state, "variations"), i, v) {
        if (!strcmp(str(v, "uci"), uci))
            return (int)json_integer_value(json_object_get(v, "id"));
    }
    return -1;
}

/* The session's record, from its movetext on. */
static void movetext(const struct gui *g, const char *id, char *out, size_t len)
{
    char path[128];
    snprintf(path, sizeof path, "/api/session/%s/pgn", id);
    struct response r = http(g, "GET", path, NULL, NULL);
    ck_assert_int_eq(r.status, 200);
    const char *moves = strstr(r.body, "\n\n");
    snprintf(out, len, "%s", moves ? moves + 2 : "");
    response_free(&r);
}

/* Plays `moves` (NULL-terminated) in session `id`, each answered 200. */
static void play_moves(const struct gui *g, const char *id, const char *const *moves)
{
    char body[64];
    for (; *moves; moves++) {
        snprintf(body, sizeof body, "{\"move\": \"%s\"}", *moves);
        json_decref(session_post(g, id, "move", body, 200));
    }
}

/* The move tree: a move at an earlier position of a game between people makes a variation, a line is
 * played whole or not at all, variations are promoted and deleted, and the record keeps them. */
START_TEST(test_variations)
{
    struct gui g;
    char id[64], again[64], text[1024], body[1100], back[1024];
    gui_start(&g, NULL);
    json_decref(new_session(&g, "{\"variant\": \"glinski\"}", id));
    play_moves(&g, id, (const char *const[]){ "f5f6", "e7e6", "e4e5", NULL });
    json_decref(session_post(&g, id, "view", "{\"ply\": 1}", 200));
    json_t *state = session_post(&g, id, "move", "{\"move\": \"d6\"}", 200);
    int d6 = variation_id(state, "d7d6");
    ck_assert_int_gt(d6, 0);
    ck_assert_int_eq(json_integer_value(json_object_get(state, "node")), d6);
    ck_assert_int_eq(json_integer_value(json_object_get(state, "plies")), 3);
    ck_assert_int_eq(json_integer_value(json_object_get(state, "ply")), 2);
    ck_assert(json_is_true(json_object_get(state, "analysis_board")));
    json_decref(state);
    /* A line with an illegal move changes nothing; a legal one goes on from the shown move. */
    json_t *err = session_post(&g, id, "line", "{\"moves\": [\"e4e5\", \"a1a9\"]}", 400);
    ck_assert_msg(strstr(str(err, "error"), "move 2 of the line"), "%s", str(err, "error"));
    json_decref(err);
    json_decref(session_post(&g, id, "line", "{\"moves\": []}", 400));
    state = session_post(&g, id, "line", "{\"moves\": [\"e4e5\", \"c7c6\"]}", 200);
    ck_assert_int_eq((int)json_array_size(json_object_get(state, "variations")), 3);
    int c6 = variation_id(state, "c7c6");
    json_decref(state);
    movetext(&g, id, text, sizeof text);
    ck_assert_msg(strstr(text, "1. f6 e6 (1... d6 2. e5 c6) 2. e5 *"), "%s", text);
    /* The record loads back to the same tree. */
    json_decref(new_session(&g, "{\"variant\": \"glinski\"}", again));
    snprintf(body, sizeof body, "[Variant \"glinski\"]\n\n%s", text);
    json_decref(session_post(&g, again, "pgn", body, 200));
    movetext(&g, again, back, sizeof back);
    ck_assert_str_eq(back, text);
    /* Promoted: the variation is the game; the old moves a variation of it. */
    state = session_post(&g, id, "promote", (snprintf(body, sizeof body, "{\"node\": %d}", c6), body), 200);
    ck_assert_int_eq(json_integer_value(json_object_get(state, "plies")), 4);
    ck_assert_str_eq(str(json_array_get(json_object_get(state, "moves"), 1), "uci"), "d7d6");
    int e6 = variation_id(state, "e7e6");
    ck_assert_int_gt(e6, 0);
    json_decref(state);
    /* Deleted: the variation and what follows it. */
    state = session_post(&g, id, "delete", (snprintf(body, sizeof body, "{\"node\": %d}", e6), body), 200);
    ck_assert_int_eq((int)json_array_size(json_object_get(state, "variations")), 0);
    ck_assert_int_eq(json_integer_value(json_object_get(state, "plies")), 4);
    json_decref(state);
    json_decref(session_post(&g, id, "view", body, 400));
    json_decref(session_post(&g, id, "promote", "{\"node\": 0}", 400));
    json_decref(session_post(&g, id, "delete", "{\"node\": \"x\"}", 400));
    /* Against an engine the main line is the game: no variation from an earlier position. */
    json_decref(new_session(&g, "{\"variant\": \"glinski\", \"seats\": [{\"kind\": \"human\"}, {\"kind\": \"engine\"}],"
                                " \"limits\": {\"depth\": 1}}", id));
    json_decref(session_post(&g, id, "move", "{\"move\": \"f5f6\"}", 200));
    state = session_post(&g, id, "view", "{\"ply\": 0}", 200);
    ck_assert(json_is_false(json_object_get(state, "analysis_board")));
    ck_assert_int_eq((int)json_array_size(json_object_get(state, "legal")), 0);
    json_decref(state);
    err = session_post(&g, id, "move", "{\"move\": \"e4e5\"}", 409);
    ck_assert_str_eq(str(err, "error"), "an earlier position is shown");
    json_decref(err);
    json_decref(session_post(&g, id, "line", "{\"moves\": [\"e4e5\"]}", 409));
    json_decref(session_post(&g, id, "delete", "{\"node\": 1}", 409));
    gui_stop(&g);
}
END_TEST

START_TEST(test_fen_and_pgn)
{
    struct gui g;
    char id[64], path[128];
    const char *fen = "6/P5p/RP4pr/N1P3p1n/Q2P2p2q/BBB1P1p1bbb/K2P2p2k/N1P3p1n/RP4pr/P5p/6 b - - 3 7";
    gui_start(&g, NULL);
    json_decref(new_session(&g, "{\"variant\": \"glinski\"}", id));
    char body[1100];
    snprintf(body, sizeof body, "{\"fen\": \"%s\"}", fen);
    json_t *state = session_post(&g, id, "fen", body, 200);
    ck_assert_str_eq(str(state, "fen"), fen);
    json_decref(state);
    json_decref(session_post(&g, id, "fen", "{\"fen\": \"6/P5p/RP4pr w - - 0 1\"}", 400));
    /* Another board's FEN is refused with the variants it belongs to. */
    snprintf(body, sizeof body, "{\"fen\": \"%s\"}", test_variant("nd-wellisch")->start_fen);
    strstr(body, "5ppb/")[3] = '1'; /* not its starting position, which would start a game of it */
    json_t *err = session_post(&g, id, "fen", body, 400);
    ck_assert_msg(strstr(str(err, "error"), "169 cells") && strstr(str(err, "error"), "nd-wellisch"), "%s",
                  str(err, "error"));
    json_decref(err);
    state = session_state(&g, id);
    ck_assert_str_eq(str(state, "fen"), fen);
    ck_assert_str_eq(str(state, "start"), fen);
    json_decref(state);
    json_decref(session_post(&g, id, "move", "{\"move\": \"f7f6\"}", 200));
    /* The record out, and back in as a new game. */
    snprintf(path, sizeof path, "/api/session/%s/pgn", id);
    struct response r = http(&g, "GET", path, NULL, NULL);
    ck_assert_int_eq(r.status, 200);
    ck_assert_msg(strstr(r.body, "[Variant \"glinski\"]") && strstr(r.body, "7... f6"), "%s", r.body);
    char record[4096];
    snprintf(record, sizeof record, "%s", r.body);
    response_free(&r);
    json_decref(session_post(&g, id, "undo", NULL, 200));
    state = session_post(&g, id, "pgn", record, 200);
    ck_assert_int_eq(json_integer_value(json_object_get(state, "plies")), 1);
    ck_assert_str_eq(str(state, "start"), fen);
    json_decref(state);
    json_decref(session_post(&g, id, "pgn", "[Event \"x\"]\n\n1. a1a9 *\n", 400));
    /* A match record, with the engines' evaluations after the moves. */
    state = session_post(&g, id, "pgn", "[Variant \"glinski\"]\n\n1. c1f4 {+0.35/12 0.52s} c8f8 {-M4/9 1.5s} *\n", 200);
    ck_assert_int_eq(json_integer_value(json_object_get(state, "plies")), 2);
    json_decref(state);
    /* SAN, with its marks and annotations. */
    state = session_post(&g, id, "pgn", "[Variant \"glinski\"]\n\n1. Rcf4! Rcf8 2. f6 *\n", 200);
    ck_assert_int_eq(json_integer_value(json_object_get(state, "plies")), 3);
    json_decref(state);
    /* McCooey's starting position given to a Glinski game (the same board) starts a McCooey game. */
    snprintf(body, sizeof body, "{\"fen\": \"%s\"}", test_variant("mccooey")->start_fen);
    state = session_post(&g, id, "fen", body, 200);
    ck_assert_str_eq(str(state, "variant"), "mccooey");
    ck_assert_msg(strstr(str(state, "notice"), "mccooey"), "%s", str(state, "notice"));
    json_decref(state);
    gui_stop(&g);
}
END_TEST

/* The first legal move of the state from `from`. */
static const char *legal_from(json_t *state, const char *from, char *out)
{
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(state, "legal"), i, m) {
        if (!strncmp(json_string_value(m), from, strlen(from))) {
            snprintf(out, 16, "%s", json_string_value(m));
            return out;
        }
    }
    ck_abort_msg("no legal move from %s", from);
    return NULL;
}

/* Records up to 2 MB load (the longest game of a built-in variant writes about 1 MB), and a record
 * that plays on past its game's end (here a threefold repetition) is refused with the reason. */
START_TEST(test_long_records)
{
    struct gui g;
    char id[64], black[16];
    gui_start(&g, NULL);
    json_decref(new_session(&g, "{\"variant\": \"glinski\"}", id));
    json_t *state = session_post(&g, id, "move", "{\"move\": \"d1c3\"}", 200);
    legal_from(state, "d9", black);
    json_decref(state);
    /* 10 000 plies of knights going out and back: over 64 KB. */
    size_t cap = 256 * 1024, len = 0;
    char *record = malloc(cap);
    len += (size_t)snprintf(record, cap, "[Variant \"glinski\"]\n\n");
    for (int cycle = 0; cycle < 2500; cycle++)
        len += (size_t)snprintf(record + len, cap - len, "%d. d1c3 %s %d. c3d1 %sd9 ", 2 * cycle + 1, black,
                                2 * cycle + 2, black + 2);
    snprintf(record + len, cap - len, "*\n");
    ck_assert_int_gt((int)strlen(record), 64 * 1024);
    json_t *err = session_post(&g, id, "pgn", record, 400);
    ck_assert_msg(strstr(str(err, "error"), "move 9 'd1c3': the game ended after move 8")
                  && strstr(str(err, "error"), "repetition"), "%s", str(err, "error"));
    json_decref(err);
    /* A game of one move with 100 KB of comment: within a record's limit. */
    len = (size_t)snprintf(record, cap, "[Variant \"glinski\"]\n\n1. f5f6 {");
    memset(record + len, 'x', 100 * 1024);
    snprintf(record + len + 100 * 1024, cap - len - 100 * 1024, "} *\n");
    state = session_post(&g, id, "pgn", record, 200);
    ck_assert_int_eq(json_integer_value(json_object_get(state, "plies")), 1);
    json_decref(state);
    free(record);
    /* Over 2 MB: refused before it is read. */
    size_t big = 2 * 1024 * 1024 + 1;
    record = malloc(big + 1);
    memset(record, ' ', big);
    record[big] = 0;
    char path[128];
    snprintf(path, sizeof path, "/api/session/%s/pgn", id);
    struct response r = http(&g, "POST", path, NULL, record);
    ck_assert_int_eq(r.status, 413);
    ck_assert_msg(strstr(r.body, "the record is over 2 MB"), "%s", r.body);
    response_free(&r);
    free(record);
    gui_stop(&g);
}
END_TEST

/* Black's move leaves Red mated and Black under White's capture threat: both leave, White wins. */
START_TEST(test_three_player_elimination)
{
    struct gui g;
    char id[64];
    gui_start(&g, NULL);
    json_t *state = new_session(&g, "{\"variant\": \"wellisch\", \"fen\": \"" WELLISCH_MATE "\"}", id);
    ck_assert_int_eq((int)json_array_size(json_object_get(state, "seats")), 3);
    ck_assert_str_eq(str(state, "turn"), "b");
    /* No army has a score yet: even shares of the points (gui/shares.c). */
    for (const char *army = "wrb"; *army; army++) {
        double share = json_real_value(json_object_get(json_object_get(state, "shares"), (char[]){ *army, 0 }));
        ck_assert_msg(fabs(share - 1.0 / 3) < 1e-4, "%c's share at the start %f", *army, share);
    }
    json_decref(state);
    state = session_post(&g, id, "move", "{\"move\": \"k4k3\"}", 200);
    ck_assert(json_real_value(json_object_get(json_object_get(state, "shares"), "w")) == 1);
    ck_assert(json_real_value(json_object_get(json_object_get(state, "shares"), "r")) == 0);
    json_t *eliminated = json_object_get(state, "eliminated");
    ck_assert_int_eq((int)json_array_size(eliminated), 2);
    ck_assert(has_string(eliminated, "r") && has_string(eliminated, "b"));
    ck_assert(has_string(json_object_get(json_array_get(json_object_get(state, "moves"), 0), "eliminated"), "r"));
    ck_assert_str_eq(str(json_array_get(json_object_get(state, "moves"), 0), "san"), "Gk3#");
    ck_assert_str_eq(str(json_object_get(state, "result"), "text"), "last army on the board: w scores 1/1, r 0/1, b 0/1");
    ck_assert_int_eq((int)json_array_size(json_object_get(state, "legal")), 0);
    json_decref(state);
    json_decref(session_post(&g, id, "move", "{\"move\": \"f1f2\"}", 409));
    gui_stop(&g);
}
END_TEST

static bool state_with_plies(json_t *data, const void *ctx)
{
    return json_integer_value(json_object_get(data, "plies")) == *(const int *)ctx;
}

static bool engine_status(json_t *data, const void *ctx)
{
    return !strcmp(json_string_value(json_object_get(data, "status")), ctx);
}

/* Human against engine 0: the stream carries its thinking (analysis lines of seat 1) and its move. */
START_TEST(test_engine_replies)
{
    struct gui g;
    struct stream s;
    char id[64];
    int two = 2;
    gui_start(&g, NULL);
    json_decref(new_session(&g, "{\"variant\": \"glinski\", \"seats\": [{\"kind\": \"human\"}, {\"kind\": \"engine\", "
                                "\"engine\": 0}], \"limits\": {\"depth\": 4}}", id));
    stream_open(&s, &g, id);
    json_t *state = stream_wait(&s, "state", NULL, NULL, 5);
    ck_assert(state);
    json_decref(state);
    json_decref(session_post(&g, id, "move", "{\"move\": \"f5f6\"}", 200));
    json_t *info = stream_wait(&s, "analysis", NULL, NULL, 10);
    ck_assert_msg(info, "no analysis event");
    ck_assert_int_eq(json_integer_value(json_object_get(info, "seat")), 1);
    json_decref(info);
    state = stream_wait(&s, "state", state_with_plies, &two, 20);
    ck_assert_msg(state, "no engine move");
    ck_assert_str_eq(str(state, "turn"), "w");
    ck_assert(json_array_size(json_object_get(state, "legal")) > 0);
    json_decref(state);
    /* A stream opened later (a reload) gets the last lines at once, though no search runs. */
    struct stream late;
    stream_open(&late, &g, id);
    info = stream_wait(&late, "analysis", NULL, NULL, 3);
    ck_assert_msg(info, "a new stream gets no analysis lines");
    ck_assert_int_eq(json_integer_value(json_object_get(info, "seat")), 1);
    ck_assert(json_array_size(json_object_get(info, "lines")) > 0);
    json_decref(info);
    stream_close(&late);
    /* Analysis of the position, two lines, then a hint. */
    json_decref(session_post(&g, id, "analyse", "{\"on\": true, \"multipv\": 2}", 200));
    info = stream_wait(&s, "analysis", NULL, NULL, 10);
    while (info && json_array_size(json_object_get(info, "lines")) < 2) {
        json_decref(info);
        info = stream_wait(&s, "analysis", NULL, NULL, 10);
    }
    ck_assert_msg(info, "no analysis with two lines");
    ck_assert(json_is_null(json_object_get(info, "seat")));
    json_decref(info);
    json_t *hint = session_post(&g, id, "hint", NULL, 200);
    ck_assert(json_is_string(json_object_get(hint, "move")));
    json_decref(hint);
    json_decref(session_post(&g, id, "options", "{\"engine\": 0, \"name\": \"Hash\", \"value\": 8}", 200));
    json_decref(session_post(&g, id, "options", "{\"engine\": 0, \"name\": \"Debug\", \"value\": 1}", 400));
    /* Values the engine refuses: refused with its own words, not taken and sent to it unseen. */
    static const struct {
        const char *option, *error;
    } refused[] = {
        { "\"Threads\", \"value\": 1000", "Threads: a number from 1 to 256 is expected" },
        { "\"Threads\", \"value\": \"0\"", "Threads: a number from 1 to 256 is expected" },
        { "\"MultiPV\", \"value\": 0", "MultiPV: a number from 1 to 64 is expected" },
        { "\"UCI_Elo\", \"value\": 99999", "UCI_Elo: a number from 500 to 2500 is expected" },
        { "\"OwnBook\", \"value\": \"maybe\"", "OwnBook: true or false is expected" },
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        char body[256];
        snprintf(body, sizeof body, "{\"engine\": 0, \"name\": %s}", refused[i].option);
        json_t *err = session_post(&g, id, "options", body, 400);
        ck_assert_str_eq(str(err, "error"), refused[i].error);
        json_decref(err);
    }
    json_decref(session_post(&g, id, "options", "{\"engine\": 0, \"name\": \"OwnBook\", \"value\": true}", 200));
    stream_close(&s);
    gui_stop(&g);
}
END_TEST

START_TEST(test_foreign_requests)
{
    struct gui g;
    gui_start(&g, NULL);
    struct response r = http(&g, "GET", "/api/variants", "Host: evil.example:80\r\n", NULL);
    ck_assert_int_eq(r.status, 403);
    response_free(&r);
    char origin[128];
    snprintf(origin, sizeof origin, "Origin: http://evil.example:%d\r\n", g.port);
    r = http(&g, "POST", "/api/session", origin, "{\"variant\": \"glinski\"}");
    ck_assert_int_eq(r.status, 403);
    response_free(&r);
    snprintf(origin, sizeof origin, "Origin: http://127.0.0.1:%d\r\n", g.port);
    r = http(&g, "GET", "/api/variants", origin, NULL);
    ck_assert_int_eq(r.status, 200);
    response_free(&r);
    /* This host first and a foreign one second: the first would pass, so any repeat is refused. */
    char twice[256];
    snprintf(twice, sizeof twice, "Origin: http://127.0.0.1:%d\r\nOrigin: http://evil.example:%d\r\n", g.port, g.port);
    r = http(&g, "POST", "/api/session", twice, "{\"variant\": \"glinski\"}");
    ck_assert_msg(r.status == 403, "two Origin headers: %d", r.status);
    response_free(&r);
    snprintf(twice, sizeof twice, "Host: 127.0.0.1:%d\r\nhost: evil.example:%d\r\n", g.port, g.port);
    r = http(&g, "GET", "/api/variants", twice, NULL);
    ck_assert_msg(r.status == 403, "two Host headers: %d", r.status);
    response_free(&r);
    /* Over 64 KB of body, over 4 KB of URL. */
    size_t big = 70 * 1024;
    char *body = malloc(big + 1);
    memset(body, ' ', big);
    body[big] = 0;
    r = http(&g, "POST", "/api/session", NULL, body);
    ck_assert_int_eq(r.status, 413);
    response_free(&r);
    char url[5000] = "/api/guide?variant=";
    memset(url + strlen(url), 'x', sizeof url - strlen(url) - 1);
    url[sizeof url - 1] = 0;
    r = http(&g, "GET", url, NULL, NULL);
    ck_assert_int_eq(r.status, 413);
    response_free(&r);
    free(body);
    gui_stop(&g);
}
END_TEST

/* Clocks and limits beyond a week in ms are refused: times are microseconds inside, and a signed
 * multiply of a huge value overflowed (UBSan aborted; a release build wrapped to a tiny clock). */
/* The Host and Origin a request names: its status. */
static int status_named(const struct gui *g, const char *header_line)
{
    struct response r = http(g, "GET", "/api/variants", header_line, NULL);
    int status = r.status;
    response_free(&r);
    return status;
}

/* --host: the address, the names given with --name (any case) and the loopback names are this server's;
 * nothing else is, and --name needs --host. */
START_TEST(test_network_hosts)
{
    struct gui g;
    const char *args[] = { "gui", "--port", "0", "--no-browser", "--host", "127.0.0.2", "--name", "box.lan", "--name",
                           "Sennight.example", NULL };
    gui_start_args(&g, args);
    char expected[256], line[128];
    snprintf(expected, sizeof expected, "(listening on the network at 127.0.0.2 port %d", g.port);
    ck_assert_msg(strstr(g.ready, expected), "ready line '%s'", g.ready);
    const char *own[] = { "127.0.0.2", "box.lan", "BOX.LAN", "sennight.example", "localhost", "127.0.0.1" };
    for (size_t i = 0; i < sizeof own / sizeof *own; i++) {
        snprintf(line, sizeof line, "Host: %s:%d\r\n", own[i], g.port);
        ck_assert_msg(status_named(&g, line) == 200, "%s refused", line);
        snprintf(line, sizeof line, "Host: 127.0.0.2:%d\r\nOrigin: http://%s:%d\r\n", g.port, own[i], g.port);
        ck_assert_msg(status_named(&g, line) == 200, "%s refused", line);
    }
    const char *foreign[] = { "evil.example:%d", "box.lan:%d0", "box.lan.evil.example:%d", "box.lan", "lan:%d",
                              "127.0.0.3:%d" };
    for (size_t i = 0; i < sizeof foreign / sizeof *foreign; i++) {
        char name[64];
        snprintf(name, sizeof name, foreign[i], g.port);
        snprintf(line, sizeof line, "Host: %s\r\n", name);
        ck_assert_msg(status_named(&g, line) == 403, "%s taken", line);
        snprintf(line, sizeof line, "Host: box.lan:%d\r\nOrigin: http://%s\r\n", g.port, name);
        ck_assert_msg(status_named(&g, line) == 403, "%s taken", line);
    }
    snprintf(line, sizeof line, "Origin: https://box.lan:%d\r\n", g.port);
    ck_assert_int_eq(status_named(&g, line), 403);
    /* The page learns the names an invite link may use. */
    json_t *variants = api(&g, "GET", "/api/variants", NULL, 200);
    json_t *hosts = json_object_get(json_object_get(variants, "network"), "hosts");
    /* The names first, loopback ones (127.0.0.2 is one) last. */
    snprintf(expected, sizeof expected, "box.lan:%d", g.port);
    ck_assert_str_eq(json_string_value(json_array_get(hosts, 0)), expected);
    snprintf(expected, sizeof expected, "127.0.0.2:%d", g.port);
    ck_assert_str_eq(json_string_value(json_array_get(hosts, 2)), expected);
    json_decref(variants);
    gui_stop(&g);
    /* On loopback only (no --host) there is no network, and --name alone is a mistake. */
    gui_start(&g, NULL);
    variants = api(&g, "GET", "/api/variants", NULL, 200);
    ck_assert(json_is_null(json_object_get(variants, "network")));
    json_decref(variants);
    gui_stop(&g);
    const char *lone[] = { "gui", "--port", "0", "--no-browser", "--name", "box.lan", NULL };
    const char *bad[] = { "gui", "--port", "0", "--no-browser", "--host", "127.0.0.1", "--name", "box.lan:80", NULL };
    for (int i = 0; i < 2; i++) {
        pipe_start(&g.p, i ? bad : lone);
        struct proc_exit e = pipe_wait(&g.p, ms(5));
        ck_assert_msg(e.exited && e.code == 2, "%s: exited %d code %d", i ? "a port in --name" : "--name alone",
                      e.exited, e.code);
        proc_end(&g.p, 0, NULL, 0);
    }
}
END_TEST

/* A POST with a token (NULL: none) that must answer with `status`; returns the JSON. */
static json_t *post_as(const struct gui *g, const char *id, const char *action, const char *body, const char *token,
                       int status)
{
    char path[256], header_line[128] = "";
    snprintf(path, sizeof path, "/api/session/%s/%s", id, action);
    if (token)
        snprintf(header_line, sizeof header_line, "X-Sennight-Token: %s\r\n", token);
    struct response r = http(g, "POST", path, header_line, body);
    ck_assert_msg(r.status == status, "%s as %s: %d, expected %d: %s", action, token ? token : "a spectator", r.status,
                  status, r.body);
    json_t *json = json_incref(r.json);
    response_free(&r);
    return json;
}

static void assert_error(json_t *reply, const char *words)
{
    const char *error = json_string_value(json_object_get(reply, "error"));
    ck_assert_msg(error && strstr(error, words), "error '%s', expected '%s'", error ? error : "(none)", words);
    json_decref(reply);
}

/* Served with --host, a seat moves, resigns and offers draws with its token only: the creator's for every
 * seat not joined, an invited player's for their seat; spectators watch; the rest is the creator's. */
START_TEST(test_network_seats)
{
    struct gui g;
    const char *args[] = { "gui", "--port", "0", "--no-browser", "--host", "127.0.0.1", NULL };
    gui_start_args(&g, args);
    json_t *reply = api(&g, "POST", "/api/session", "{\"variant\": \"glinski\"}", 201);
    char id[64], creator[64], invite_w[64], invite_b[64], black[64];
    snprintf(id, sizeof id, "%s", str(reply, "id"));
    json_t *tokens = json_object_get(reply, "tokens");
    snprintf(creator, sizeof creator, "%s", str(tokens, "creator"));
    snprintf(invite_w, sizeof invite_w, "%s", json_string_value(json_array_get(json_object_get(tokens, "seats"), 0)));
    snprintf(invite_b, sizeof invite_b, "%s", json_string_value(json_array_get(json_object_get(tokens, "seats"), 1)));
    ck_assert_uint_eq(strlen(creator), 32);
    ck_assert_str_ne(invite_w, invite_b);
    json_decref(reply);
    /* Spectators read the game but never change it. */
    assert_error(post_as(&g, id, "move", "{\"move\": \"f5f6\"}", NULL, 403), "you are watching this game");
    assert_error(post_as(&g, id, "move", "{\"move\": \"f5f6\"}", "0123456789abcdef0123456789abcdef", 403), "watching");
    json_decref(post_as(&g, id, "move", "{\"move\": \"f5f6\"}", creator, 200));
    /* Black takes up the invitation: a token of its own; the invitation is spent. */
    reply = post_as(&g, id, "join", "{\"seat\": 1}", invite_b, 200);
    snprintf(black, sizeof black, "%s", str(reply, "token"));
    ck_assert_str_ne(black, invite_b);
    ck_assert(json_is_true(json_object_get(json_array_get(json_object_get(json_object_get(reply, "state"), "seats"), 1),
                                           "joined")));
    json_decref(reply);
    assert_error(post_as(&g, id, "join", "{\"seat\": 1}", invite_b, 403), "taken up already");
    assert_error(post_as(&g, id, "join", "{\"seat\": 0}", invite_b, 403), "White's seat");
    /* Black's move: not the creator's any more, nor White's, nor the spent invitation's. */
    assert_error(post_as(&g, id, "move", "{\"move\": \"e7e6\"}", creator, 403), "Black plays from another browser");
    assert_error(post_as(&g, id, "move", "{\"move\": \"e7e6\"}", invite_w, 403), "not your move: Black is to move");
    assert_error(post_as(&g, id, "move", "{\"move\": \"e7e6\"}", invite_b, 403), "watching");
    json_decref(post_as(&g, id, "move", "{\"move\": \"e7e6\"}", black, 200));
    assert_error(post_as(&g, id, "move", "{\"move\": \"e4e5\"}", black, 403), "not your move: White is to move");
    /* Taking back, a new position, analysis: the creator's alone. */
    assert_error(post_as(&g, id, "undo", NULL, black, 403), "only the game's creator");
    assert_error(post_as(&g, id, "undo", NULL, NULL, 403), "only the game's creator");
    assert_error(post_as(&g, id, "analyse", "{\"on\": true}", black, 403), "only the game's creator");
    /* Resigning and draw offers: each seat's player for its own army; never a spectator. */
    assert_error(post_as(&g, id, "resign", "{\"army\": \"w\"}", black, 403), "another seat than White");
    assert_error(post_as(&g, id, "resign", "{\"army\": \"b\"}", creator, 403), "Black plays from another browser");
    assert_error(post_as(&g, id, "draw", "{\"army\": \"b\"}", NULL, 403), "you are watching this game");
    assert_error(post_as(&g, id, "draw", "{\"army\": \"x\"}", black, 403), "only the game's creator");
    reply = post_as(&g, id, "draw", "{\"army\": \"b\"}", black, 200);
    json_t *offers = json_object_get(json_object_get(reply, "draw"), "offers");
    ck_assert_str_eq(json_string_value(json_array_get(offers, 0)), "b");
    json_decref(reply);
    json_decref(post_as(&g, id, "draw", "{\"army\": \"w\", \"accept\": false}", creator, 200));
    /* Stepping back is each page's own: the game stays at its last move for the others. */
    reply = post_as(&g, id, "view", "{\"ply\": 0}", NULL, 200);
    ck_assert_int_eq(json_integer_value(json_object_get(reply, "ply")), 0);
    ck_assert_int_eq(json_array_size(json_object_get(reply, "pieces")), 36);
    json_decref(reply);
    json_t *state = session_state(&g, id);
    ck_assert_int_eq(json_integer_value(json_object_get(state, "ply")), 2);
    json_decref(state);
    state = post_as(&g, id, "undo", NULL, creator, 200);
    ck_assert_int_eq(json_integer_value(json_object_get(state, "plies")), 1);
    json_decref(state);
    gui_stop(&g);
}
END_TEST

START_TEST(test_huge_times)
{
    struct gui g;
    char id[64], body[256];
    static const char *const fields[] = { "\"clock\": {\"base_ms\": %s}",
                                          "\"clock\": {\"base_ms\": 1000, \"inc_ms\": %s}",
                                          "\"limits\": {\"movetime_ms\": %s}" };
    static const char *const values[] = { "9223372036854775807", "18446744073709552", "9223372036854776", "604800001" };
    gui_start(&g, NULL);
    for (size_t f = 0; f < sizeof fields / sizeof *fields; f++)
        for (size_t v = 0; v < sizeof values / sizeof *values; v++) {
            int n = snprintf(body, sizeof body, "{\"variant\": \"glinski\", ");
            n += snprintf(body + n, sizeof body - (size_t)n, fields[f], values[v]);
            snprintf(body + n, sizeof body - (size_t)n, "}");
            json_t *err = api(&g, "POST", "/api/session", body, 400);
            ck_assert_msg(strstr(str(err, "error"), "604800000"), "%s: %s", body, str(err, "error"));
            json_decref(err);
        }
    json_t *state = new_session(&g, "{\"variant\": \"glinski\", \"clock\": {\"base_ms\": 604800000, "
                                    "\"inc_ms\": 604800000}}", id);
    ck_assert_int_ge(json_integer_value(json_object_get(json_object_get(state, "clocks"), "w")), 604790000);
    json_decref(state);
    gui_stop(&g);
}
END_TEST

/* The server's resident memory in kB. */
static long server_rss(pid_t pid)
{
    char path[64], line[256];
    long kb = -1;
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb;
}

enum { BURST = 48 };

struct creation {
    const struct gui *g;
    pthread_barrier_t *start;
    int status;
    char id[64];
};

/* One POST /api/session after the barrier; the status and the id, without asserting (a thread). */
static void *create_at_once(void *arg)
{
    struct creation *c = arg;
    const char *body = "{\"variant\": \"nd-mccooey\"}";
    pthread_barrier_wait(c->start);
    int fd = http_send(c->g, "POST", "/api/session", NULL, body, strlen(body));
    char *buf = NULL;
    size_t len = 0, cap = 0;
    long long deadline = clock_us() + ms(20) * 1000LL;
    while (read_some(fd, &buf, &len, &cap, deadline))
        ;
    close(fd);
    const char *id = buf ? strstr(buf, "\"id\":\"") : NULL;
    if (!buf || sscanf(buf, "HTTP/1.%*d %d", &c->status) != 1)
        c->status = -1;
    if (id)
        snprintf(c->id, sizeof c->id, "%.*s", (int)strcspn(id + 6, "\""), id + 6);
    free(buf);
    return NULL;
}

/* Sessions created all at once stay within the limit of 16, and so does the server's memory: each
 * creation reserves its place before it allocates its games. */
START_TEST(test_concurrent_sessions)
{
    struct gui g;
    pthread_t thread[BURST];
    struct creation c[BURST];
    pthread_barrier_t start;
    char path[128];
    gui_start(&g, NULL);
    long before = server_rss(g.p.pid), peak = before;
    for (int round = 0; round < 3; round++) {
        pthread_barrier_init(&start, NULL, BURST);
        for (int i = 0; i < BURST; i++) {
            c[i] = (struct creation){ .g = &g, .start = &start };
            ck_assert(!pthread_create(&thread[i], NULL, create_at_once, &c[i]));
        }
        for (int i = 0; i < BURST; i++)
            pthread_join(thread[i], NULL);
        pthread_barrier_destroy(&start);
        int alive = 0;
        for (int i = 0; i < BURST; i++) {
            ck_assert_msg(c[i].status == 201 || c[i].status == 503, "creation: %d", c[i].status);
            if (c[i].status != 201)
                continue;
            snprintf(path, sizeof path, "/api/session/%s", c[i].id);
            struct response r = http(&g, "GET", path, NULL, NULL);
            alive += r.status == 200;
            response_free(&r);
        }
        long rss = server_rss(g.p.pid);
        peak = rss > peak ? rss : peak;
        printf("concurrent sessions, round %d: %d alive of %d asked, RSS %ld kB (%ld kB at the start)\n", round,
               alive, BURST, rss, before);
        ck_assert_msg(alive <= 16, "%d sessions alive", alive);
    }
    /* 16 sessions of two 169-cell games each (about 5 MB a session): far below BURST sessions' worth.
     * AddressSanitizer holds freed memory back (its quarantine) and has its own allocator, so under
     * it the figure is printed only. */
#ifndef __SANITIZE_ADDRESS__
    ck_assert_msg(peak - before < 160 * 1024, "RSS from %ld kB to %ld kB", before, peak);
#endif
    gui_stop(&g);
}
END_TEST

static const char *toy_engine(const char *arguments)
{
    static char cmd[1024];
    const char *path = getenv("TOY_ENGINE");
    snprintf(cmd, sizeof cmd, "%s %s", path && *path ? path : "build/test/toy_engine", arguments);
    return cmd;
}

/* A person against the toy engine (with the arguments): the server, a game, its stream, the
 * person's first move and the toy's reply (written to reply). */
static void toy_game(struct gui *g, struct stream *s, char *id, const char *arguments, char *reply)
{
    int plies = 2;
    gui_start(g, toy_engine(arguments));
    json_decref(new_session(g, "{\"variant\": \"glinski\", \"seats\": [{\"kind\": \"human\"}, {\"kind\": \"engine\", "
                               "\"engine\": 1}]}", id));
    stream_open(s, g, id);
    json_decref(session_post(g, id, "move", "{\"move\": \"f5f6\"}", 200));
    json_t *state = stream_wait(s, "state", state_with_plies, &plies, 10);
    ck_assert_msg(state, "no first engine move");
    snprintf(reply, 16, "%s", str(json_array_get(json_object_get(state, "moves"), 1), "uci"));
    json_decref(state);
}

/* The toy crashes at its second search: reported, the game kept, and a restart plays on. */
START_TEST(test_engine_crash)
{
    struct gui g;
    struct stream s;
    char id[64], reply[16];
    int plies = 4;
    toy_game(&g, &s, id, "crash=2", reply);
    json_decref(session_post(&g, id, "move", "{\"move\": \"e4e5\"}", 200));
    json_t *event = stream_wait(&s, "engine", engine_status, "crashed", 10);
    ck_assert_msg(event, "no crash reported");
    ck_assert_int_eq(json_integer_value(json_object_get(event, "seat")), 1);
    json_decref(event);
    json_t *state = session_state(&g, id);
    ck_assert_int_eq(json_integer_value(json_object_get(state, "plies")), 3);
    ck_assert_str_eq(str(json_array_get(json_object_get(state, "seats"), 1), "status"), "crashed");
    json_decref(state);
    json_decref(session_post(&g, id, "restart", "{\"seat\": 1}", 200));
    state = stream_wait(&s, "state", state_with_plies, &plies, 10);
    ck_assert_msg(state, "no move after the restart");
    ck_assert_str_eq(str(json_array_get(json_object_get(state, "moves"), 1), "uci"), reply);
    json_decref(state);
    stream_close(&s);
    gui_stop(&g);
}
END_TEST

/* An engine's own refusal of a value its declaration allows comes back, and so does an option it lacks. */
START_TEST(test_engine_refuses_option)
{
    struct gui g;
    char id[64];
    gui_start(&g, toy_engine("refuse=Hash"));
    json_decref(new_session(&g, "{\"variant\": \"glinski\"}", id));
    json_t *err = session_post(&g, id, "options", "{\"engine\": 1, \"name\": \"Hash\", \"value\": 8}", 400);
    ck_assert_str_eq(str(err, "error"), "Hash: the toy takes no value");
    json_decref(err);
    err = session_post(&g, id, "options", "{\"engine\": 1, \"name\": \"Hash\", \"value\": 101}", 400);
    ck_assert_str_eq(str(err, "error"), "Hash: a number from 1 to 100 is expected");
    json_decref(err);
    err = session_post(&g, id, "options", "{\"engine\": 1, \"name\": \"Threads\", \"value\": 2}", 400);
    ck_assert_str_eq(str(err, "error"), "the engine has no option 'Threads'");
    json_decref(err);
    gui_stop(&g);
}
END_TEST

/* The server's children: its engines, which are in process groups of their own, so that only the
 * server ends them. Returns the last one, or 0. */
static double points_of(json_t *state, const char *army)
{
    return number(json_object_get(json_object_get(json_object_get(state, "result"), "points"), army));
}

/* Resigning between people: bad requests refused with 4xx, the result, the record, no second end, a
 * rematch; with three armies. */
START_TEST(test_resign)
{
    struct gui g;
    char id[64];
    gui_start(&g, NULL);
    json_decref(new_session(&g, "{\"variant\": \"glinski\"}", id));
    json_decref(session_post(&g, id, "rematch", NULL, 409));
    json_decref(session_post(&g, id, "resign", NULL, 400));
    json_decref(session_post(&g, id, "resign", "{\"army\": 1}", 400));
    json_decref(session_post(&g, id, "resign", "{\"army\": \"r\"}", 400));
    json_decref(session_post(&g, id, "resign", "{\"army\": \"wb\"}", 400));
    json_decref(session_post(&g, id, "move", "{\"move\": \"f5f6\"}", 200));
    json_t *state = session_post(&g, id, "resign", "{\"army\": \"w\"}", 200);
    json_t *result = json_object_get(state, "result");
    ck_assert_str_eq(str(result, "reason"), "resignation");
    ck_assert_str_eq(str(result, "army"), "w");
    ck_assert(points_of(state, "w") == 0 && points_of(state, "b") == 1);
    ck_assert_int_eq((int)json_array_size(json_object_get(state, "legal")), 0);
    ck_assert(!json_is_true(json_object_get(state, "abortable")));
    json_decref(state);
    json_t *err = session_post(&g, id, "resign", "{\"army\": \"b\"}", 409);
    ck_assert_str_eq(str(err, "error"), "the game is over");
    json_decref(err);
    json_decref(session_post(&g, id, "resign", "{\"army\": \"w\"}", 409));
    json_decref(session_post(&g, id, "draw", "{\"army\": \"b\"}", 409));
    json_decref(session_post(&g, id, "move", "{\"move\": \"f7f6\"}", 409));
    json_decref(session_post(&g, id, "abort", NULL, 409));
    char path[256];
    snprintf(path, sizeof path, "/api/session/%s/pgn", id);
    struct response r = http(&g, "GET", path, NULL, NULL);
    ck_assert_int_eq(r.status, 200);
    ck_assert_msg(strstr(r.body, "[Result \"0-1\"]") && strstr(r.body, "{White resigns}"), "%s", r.body);
    response_free(&r);
    /* A rematch: the same start, seats and clock, no result. */
    json_decref(session_post(&g, id, "rematch", "{\"swap\": \"yes\"}", 400));
    state = session_post(&g, id, "rematch", NULL, 200);
    ck_assert(json_is_null(json_object_get(state, "result")));
    ck_assert_int_eq(json_integer_value(json_object_get(state, "plies")), 0);
    ck_assert_str_eq(str(state, "fen"), test_variant("glinski")->start_fen);
    json_decref(state);
    json_decref(session_post(&g, id, "rematch", "{}", 409));
    /* Three armies: the one that resigns scores 0, the two others on the board share the point. */
    json_decref(new_session(&g, "{\"variant\": \"nd-mccooey-3p\"}", id));
    state = session_post(&g, id, "resign", "{\"army\": \"b\"}", 200);
    ck_assert(points_of(state, "b") == 0 && points_of(state, "r") == 0.5 && points_of(state, "w") == 0.5);
    json_decref(state);
    gui_stop(&g);
}
END_TEST

/* A draw between people: offered, declined, offered again and accepted; an offer lapses with a move. */
START_TEST(test_draw_between_people)
{
    struct gui g;
    char id[64];
    gui_start(&g, NULL);
    json_decref(new_session(&g, "{\"variant\": \"glinski\"}", id));
    json_decref(session_post(&g, id, "draw", "{\"army\": \"w\", \"accept\": 1}", 400));
    json_decref(session_post(&g, id, "draw", "{\"army\": \"b\", \"accept\": false}", 409));
    json_t *state = session_post(&g, id, "draw", "{\"army\": \"w\"}", 200);
    json_t *draw = json_object_get(state, "draw");
    ck_assert(json_is_null(json_object_get(state, "result")));
    ck_assert(has_string(json_object_get(draw, "offers"), "w"));
    ck_assert_str_eq(str(draw, "message"), "White offers a draw");
    json_decref(state);
    /* The one who offered cannot decline its own offer. */
    json_decref(session_post(&g, id, "draw", "{\"army\": \"w\", \"accept\": false}", 409));
    state = session_post(&g, id, "draw", "{\"army\": \"b\", \"accept\": false}", 200);
    draw = json_object_get(state, "draw");
    ck_assert_int_eq((int)json_array_size(json_object_get(draw, "offers")), 0);
    ck_assert_str_eq(str(draw, "message"), "Black declines the draw");
    json_decref(state);
    json_decref(session_post(&g, id, "draw", "{\"army\": \"w\"}", 200));
    json_decref(session_post(&g, id, "move", "{\"move\": \"f5f6\"}", 200));
    state = session_post(&g, id, "draw", "{\"army\": \"b\"}", 200);
    ck_assert_msg(json_is_null(json_object_get(state, "result")), "an offer outlived the move after it");
    json_decref(state);
    state = session_post(&g, id, "draw", "{\"army\": \"w\"}", 200);
    ck_assert_str_eq(str(json_object_get(state, "result"), "reason"), "agreement");
    ck_assert(points_of(state, "w") == 0.5 && points_of(state, "b") == 0.5);
    json_decref(state);
    json_decref(session_post(&g, id, "draw", "{\"army\": \"w\"}", 409));
    gui_stop(&g);
}
END_TEST

/* The toy engine scores every position `score`: at most +0.30 it accepts a draw, above it declines. */
static void engine_draw(const char *score, bool accepted, const char *message)
{
    struct gui g;
    struct stream s;
    char id[64], reply[16], arguments[64];
    snprintf(arguments, sizeof arguments, "score=%s", score);
    gui_start(&g, toy_engine(arguments));
    json_decref(new_session(&g, "{\"variant\": \"glinski\", \"seats\": [{\"kind\": \"human\"}, {\"kind\": \"engine\", "
                                "\"engine\": 1}]}", id));
    json_t *state = session_post(&g, id, "draw", "{\"army\": \"w\"}", 200);
    ck_assert_str_eq(str(json_object_get(state, "draw"), "message"),
                     "Black declines the draw: it has not searched this game yet");
    json_decref(state);
    json_decref(session_post(&g, id, "draw", "{\"army\": \"b\"}", 400));
    gui_stop(&g);
    toy_game(&g, &s, id, arguments, reply);
    state = session_post(&g, id, "draw", "{\"army\": \"w\"}", 200);
    ck_assert_int_eq(json_is_null(json_object_get(state, "result")), !accepted);
    ck_assert_str_eq(str(json_object_get(state, "draw"), "message"), message);
    json_decref(state);
    stream_close(&s);
    gui_stop(&g);
}

START_TEST(test_engine_answers_draw)
{
    engine_draw("30", true, "Draw agreed");
    engine_draw("31", false, "Black declines the draw (+0.31)");
}
END_TEST

/* A rematch with the sides swapped: the engine has White and moves first. */
START_TEST(test_rematch_swap)
{
    struct gui g;
    struct stream s;
    char id[64], reply[16];
    int one = 1;
    toy_game(&g, &s, id, "", reply);
    json_decref(session_post(&g, id, "resign", "{\"army\": \"b\"}", 400));
    json_decref(session_post(&g, id, "resign", "{\"army\": \"w\"}", 200));
    json_t *state = session_post(&g, id, "rematch", "{\"swap\": true}", 200);
    json_t *seats = json_object_get(state, "seats");
    ck_assert_str_eq(str(json_array_get(seats, 0), "kind"), "engine");
    ck_assert_str_eq(str(json_array_get(seats, 1), "kind"), "human");
    json_decref(state);
    state = stream_wait(&s, "state", state_with_plies, &one, 10);
    ck_assert_msg(state, "the engine does not open the rematch");
    ck_assert(json_array_size(json_object_get(state, "legal")) > 0);
    json_decref(state);
    stream_close(&s);
    gui_stop(&g);
}
END_TEST

/* The first capture of a game found by playing captures first: the captor's list and the material. */
START_TEST(test_captured_material)
{
    struct gui g;
    char id[64];
    gui_start(&g, NULL);
    json_t *state = new_session(&g, "{\"variant\": \"glinski\"}", id);
    double start = number(json_object_get(json_object_get(json_object_get(state, "material"), "w"), "value"));
    ck_assert_msg(start > 30 && start < 60, "White's material %g", start);
    for (int ply = 0; ply < 40; ply++) {
        json_t *legal = json_object_get(state, "legal"), *pieces = json_object_get(state, "pieces");
        const char *chosen = json_string_value(json_array_get(legal, 0));
        char victim[8] = "", body[64];
        size_t i, k;
        json_t *m, *p;
        json_array_foreach(legal, i, m) {
            /* "f10f11q": the cell after the first one's digits, up to the suffix */
            const char *uci = json_string_value(m), *at = uci + 1 + strspn(uci + 1, "0123456789");
            char to[8];
            snprintf(to, sizeof to, "%.*s", (int)(1 + strspn(at + 1, "0123456789")), at);
            json_array_foreach(pieces, k, p) {
                if (!victim[0] && !strcmp(str(p, "cell"), to))
                    chosen = uci, snprintf(victim, sizeof victim, "%s", str(p, "piece"));
            }
        }
        const char *mover = json_string_value(json_object_get(state, "turn"));
        char army[2] = { mover[0], 0 };
        snprintf(body, sizeof body, "{\"move\": \"%s\"}", chosen);
        json_decref(state);
        state = session_post(&g, id, "move", body, 200);
        if (victim[0]) {
            json_t *mine = json_object_get(json_object_get(state, "material"), army);
            ck_assert_msg(has_string(json_object_get(mine, "captured"), victim), "%s took %s", army, victim);
            ck_assert_int_eq((int)json_array_size(json_object_get(mine, "captured")), 1);
            const char *other = army[0] == 'w' ? "b" : "w";
            double lost = number(json_object_get(json_object_get(json_object_get(state, "material"), other), "value"));
            ck_assert_msg(lost < start, "%s's material %g after the capture", other, lost);
            json_t *theirs = json_object_get(json_object_get(state, "material"), other);
            ck_assert_msg(number(json_object_get(theirs, "start")) == start, "%s's material at the start", other);
            /* The view of the position before: nothing taken yet. */
            char view[64];
            snprintf(view, sizeof view, "{\"ply\": %d}", ply);
            json_decref(state);
            state = session_post(&g, id, "view", view, 200);
            mine = json_object_get(json_object_get(state, "material"), army);
            ck_assert_int_eq((int)json_array_size(json_object_get(mine, "captured")), 0);
            json_decref(state);
            gui_stop(&g);
            return;
        }
    }
    ck_abort_msg("no capture in 40 plies");
}
END_TEST

/* A variation's captures are its own: not the game's at the same ply, nor read past the game's end. */
START_TEST(test_variation_material)
{
    struct gui g;
    char id[64];
    gui_start(&g, NULL);
    json_decref(new_session(&g, "{\"variant\": \"glinski\"}", id));
    /* 2. Qxb4: White takes Black's queen in the game. */
    json_decref(session_post(&g, id, "line", "{\"moves\": [\"g1g2\", \"e10b4\", \"e1b4\"]}", 200));
    json_decref(session_post(&g, id, "view", "{\"ply\": 2}", 200));
    const char *const lines[] = { "{\"moves\": [\"f5f6\"]}", "{\"moves\": [\"e7e6\", \"e4e5\"]}" };
    for (int i = 0; i < 2; i++) {
        json_t *state = session_post(&g, id, "line", lines[i], 200);
        ck_assert_int_eq(json_integer_value(json_object_get(state, "ply")), 3 + 2 * i);
        for (const char *army = "w"; army; army = army[0] == 'w' ? "b" : NULL) {
            json_t *mine = json_object_get(json_object_get(state, "material"), army);
            ck_assert_msg(json_array_size(json_object_get(mine, "captured")) == 0, "%s took %zu pieces at ply %d",
                          army, json_array_size(json_object_get(mine, "captured")), 3 + 2 * i);
        }
        json_decref(state);
    }
    json_t *state = session_post(&g, id, "view", "{\"ply\": 3}", 200);
    json_t *white = json_object_get(json_object_get(state, "material"), "w");
    ck_assert_int_eq((int)json_array_size(json_object_get(white, "captured")), 1);
    json_decref(state);
    gui_stop(&g);
}
END_TEST

static pid_t server_child(pid_t server)
{
    char path[320];
    pid_t child = 0;
    snprintf(path, sizeof path, "/proc/%d/task", server);
    DIR *dir = opendir(path);
    for (struct dirent *e; dir && (e = readdir(dir));) {
        snprintf(path, sizeof path, "/proc/%d/task/%s/children", server, e->d_name);
        FILE *f = fopen(path, "r");
        for (int pid; f && fscanf(f, "%d", &pid) == 1;)
            child = pid;
        if (f)
            fclose(f);
    }
    if (dir)
        closedir(dir);
    return child;
}

/* SIGTERM with a session and its engine running: a clean exit, the engine ended. */
START_TEST(test_sigterm)
{
    struct gui g;
    struct stream s;
    char id[64], reply[16];
    toy_game(&g, &s, id, "", reply);
    pid_t engine = server_child(g.p.pid);
    ck_assert_int_gt(engine, 0);
    gui_stop(&g);
    ck_assert(!stream_wait(&s, "state", NULL, NULL, 1));
    ck_assert_msg(kill(engine, 0) == -1 && errno == ESRCH, "engine %d still running", engine);
    stream_close(&s);
}
END_TEST

/* ---- the game review ---- */

/* The review, asked until it is no longer running (at most `seconds`). */
static json_t *review_finished(const struct gui *g, const char *id, double seconds)
{
    char path[256];
    snprintf(path, sizeof path, "/api/session/%s/review", id);
    long long deadline = clock_us() + ms(seconds) * 1000LL;
    for (;;) {
        json_t *review = api(g, "GET", path, NULL, 200);
        if (strcmp(str(review, "state"), "running") || clock_us() > deadline)
            return review;
        json_decref(review);
        poll(NULL, 0, 50);
    }
}

/* A Glinski game whose first move gives the queen away: the review marks it ?? with another move,
 * streams its progress, writes [%eval] and the NAG in the record, which loads back; bad requests are
 * refused, a stop keeps what was reviewed, a takeback drops the review. */
START_TEST(test_review_blunder)
{
    static const char *const moves[] = { "e1b4", "e10b4", "i2i3", "i7i6", NULL };
    struct gui g;
    struct stream s;
    char id[64], path[256];
    gui_start(&g, NULL);
    json_decref(new_session(&g, "{\"variant\": \"glinski\"}", id));
    json_t *err = session_post(&g, id, "review", "{\"on\": true}", 409);
    ck_assert_str_eq(str(err, "error"), "no moves to review");
    json_decref(err);
    play_moves(&g, id, moves);
    json_decref(session_post(&g, id, "review", "{}", 400));
    json_decref(session_post(&g, id, "review", "{\"on\": true, \"nodes\": -1}", 400));
    json_decref(session_post(&g, id, "review", "{\"on\": true, \"nodes\": \"many\"}", 400));
    json_decref(session_post(&g, id, "review", "{\"on\": true, \"nodes\": 5, \"movetime_ms\": 5}", 400));
    json_decref(session_post(&g, id, "review", "{\"on\": true, \"movetime_ms\": 3600000}", 400));
    json_decref(session_post(&g, id, "review", "{\"on\": false}", 409));
    stream_open(&s, &g, id);
    json_t *review = session_post(&g, id, "review", "{\"on\": true, \"nodes\": 3000}", 200);
    ck_assert_str_eq(str(review, "state"), "running");
    ck_assert_int_eq(json_integer_value(json_object_get(review, "total")), 4);
    json_decref(review);
    /* Its progress comes on the stream, up to the end. */
    json_t *done = NULL;
    for (json_t *e; !done && (e = stream_wait(&s, "review", NULL, NULL, 30));)
        if (!strcmp(str(e, "state"), "done"))
            done = e;
        else
            json_decref(e);
    ck_assert_msg(done, "no finished review on the stream");
    json_t *first = json_array_get(json_object_get(done, "moves"), 0);
    ck_assert_str_eq(str(first, "judgement"), "blunder");
    ck_assert_str_eq(str(first, "san"), "Qb4");
    ck_assert_str_ne(str(first, "best"), "e1b4");
    ck_assert(json_real_value(json_object_get(first, "drop")) >= 0.15);
    json_t *accuracy = json_object_get(done, "accuracy");
    ck_assert(json_real_value(json_object_get(accuracy, "w")) < json_real_value(json_object_get(accuracy, "b")));
    json_decref(done);
    stream_close(&s);
    /* The record carries the review, and loads back (which drops the review of the old game). */
    snprintf(path, sizeof path, "/api/session/%s/pgn", id);
    struct response r = http(&g, "GET", path, NULL, NULL);
    ck_assert_msg(strstr(r.body, "1. Qb4?? {[%eval -") && strstr(r.body, "Qxb4 {[%eval "), "%s", r.body);
    char *record = strdup(r.body);
    response_free(&r);
    json_t *state = session_post(&g, id, "pgn", record, 200);
    ck_assert_int_eq(json_integer_value(json_object_get(state, "plies")), 4);
    json_decref(state);
    free(record);
    review = review_finished(&g, id, 1);
    ck_assert_str_eq(str(review, "state"), "none");
    json_decref(review);
    /* Stopped: what was reviewed stays; taken back: the review goes. */
    json_decref(session_post(&g, id, "review", "{\"on\": true, \"movetime_ms\": 2000}", 200));
    review = session_post(&g, id, "review", "{\"on\": false}", 200);
    ck_assert_str_eq(str(review, "state"), "stopped");
    ck_assert_int_lt(json_integer_value(json_object_get(review, "done")), 4);
    json_decref(review);
    json_decref(session_post(&g, id, "undo", NULL, 200));
    review = review_finished(&g, id, 1);
    ck_assert_str_eq(str(review, "state"), "none");
    json_decref(review);
    gui_stop(&g);
}
END_TEST

/* A three-player game: each army's moves judged by its expected share, an accuracy for each army. */
START_TEST(test_review_three_players)
{
    struct gui g;
    char id[64];
    gui_start(&g, NULL);
    json_t *state = new_session(&g, "{\"variant\": \"nd-mccooey-3p\"}", id);
    for (int i = 0; i < 6; i++) {
        char body[64];
        snprintf(body, sizeof body, "{\"move\": \"%s\"}",
                 json_string_value(json_array_get(json_object_get(state, "legal"), 0)));
        json_decref(state);
        state = session_post(&g, id, "move", body, 200);
    }
    json_decref(state);
    json_decref(session_post(&g, id, "review", "{\"on\": true, \"nodes\": 1000}", 200));
    json_t *review = review_finished(&g, id, 30);
    ck_assert_str_eq(str(review, "state"), "done");
    ck_assert_int_eq((int)json_array_size(json_object_get(review, "moves")), 6);
    ck_assert_int_eq((int)json_object_size(json_object_get(review, "accuracy")), 3);
    /* An even position is a third of the points for the army to move. */
    double before = json_real_value(json_object_get(json_array_get(json_object_get(review, "moves"), 0), "before"));
    ck_assert_msg(before > 0.2 && before < 0.45, "expected share at the start %f", before);
    json_decref(review);
    gui_stop(&g);
}
END_TEST

Suite *suite_gui(void)
{
    Suite *s = suite_create("gui");
    TCase *tc = tcase_create("server");
    tcase_set_timeout(tc, test_timeout(30));
    tcase_add_test(tc, test_page_served);
    tcase_add_test(tc, test_variants_listed);
    tcase_add_test(tc, test_boards);
    tcase_add_test(tc, test_moves);
    tcase_add_test(tc, test_fen_and_pgn);
    tcase_add_test(tc, test_variations);
    tcase_add_test(tc, test_long_records);
    tcase_add_test(tc, test_three_player_elimination);
    tcase_add_test(tc, test_engine_replies);
    tcase_add_test(tc, test_foreign_requests);
    tcase_add_test(tc, test_network_hosts);
    tcase_add_test(tc, test_network_seats);
    tcase_add_test(tc, test_huge_times);
    tcase_add_test(tc, test_concurrent_sessions);
    tcase_add_test(tc, test_engine_crash);
    tcase_add_test(tc, test_engine_refuses_option);
    tcase_add_test(tc, test_sigterm);
    tcase_add_test(tc, test_resign);
    tcase_add_test(tc, test_draw_between_people);
    tcase_add_test(tc, test_engine_answers_draw);
    tcase_add_test(tc, test_rematch_swap);
    tcase_add_test(tc, test_captured_material);
    tcase_add_test(tc, test_variation_material);
    tcase_add_test(tc, test_review_blunder);
    tcase_add_test(tc, test_review_three_players);
    suite_add_tcase(s, tc);
    suite_add_tcase(s, tcase_review());
    return s;
}
