/* HTTP on libmicrohttpd: routing, Host and Origin checks, size limits, static files, the SSE stream. */
#include "server.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../rules/registry.h"
#include "../util/number.h"
#include "board_json.h"
#include "engine_list.h"
#include "hosts.h"
#include "reply.h"
#include "session_create.h"
#include "session_requests.h"
#include "session_stream.h"
#include "www.h"

enum {
    MAX_BODY = 64 * 1024,
    /* A game record: the fifty-move rule ends any game of a built-in variant within 90 000 plies
     * (each capture or pawn step may restart its count), about 1 MB as the server writes it. */
    MAX_RECORD = 2 * 1024 * 1024,
    MAX_URL = 4 * 1024,
    SSE_BLOCK = 16 * 1024,
};

static struct {
    struct MHD_Daemon *daemon;
} server;

/* One request: its URL's length with the query (from MHD's URI logger) and its body. */
struct request {
    size_t url_len, max_body;
    bool started;
    bool too_big;
    char *body;
    size_t len;
};

static void *request_begin(void *cls, const char *uri, struct MHD_Connection *c)
{
    (void)cls, (void)c;
    struct request *r = calloc(1, sizeof *r);
    if (r)
        r->url_len = strlen(uri);
    return r;
}

static void request_end(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode toe)
{
    (void)cls, (void)c, (void)toe;
    struct request *r = *con_cls;
    if (r)
        free(r->body);
    free(r);
    *con_cls = NULL;
}

static enum MHD_Result send_response(struct MHD_Connection *c, int status, struct MHD_Response *resp,
                                     const char *type)
{
    if (!resp)
        return MHD_NO;
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    enum MHD_Result ret = MHD_queue_response(c, (unsigned)status, resp);
    MHD_destroy_response(resp);
    return ret;
}

static enum MHD_Result send_reply(struct MHD_Connection *c, struct reply *r)
{
    struct MHD_Response *resp;
    const char *type = "application/json";
    if (r->text) {
        resp = MHD_create_response_from_buffer(strlen(r->text), r->text, MHD_RESPMEM_MUST_FREE);
        type = "text/plain; charset=utf-8";
    } else {
        char *json = r->json ? json_dumps(r->json, JSON_COMPACT | JSON_REAL_PRECISION(8)) : NULL;
        json_decref(r->json);
        if (!json)
            return MHD_NO;
        resp = MHD_create_response_from_buffer(strlen(json), json, MHD_RESPMEM_MUST_FREE);
    }
    if (resp)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    return send_response(c, r->status, resp, type);
}

static enum MHD_Result send_error(struct MHD_Connection *c, int status, const char *message)
{
    struct reply r = { 0 };
    reply_error(&r, status, "%s", message);
    return send_reply(c, &r);
}

/* Counts the Host and Origin headers (names compared case-insensitively, as MHD does). */
static enum MHD_Result count_header(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
    (void)kind, (void)value;
    int *counts = cls;
    counts[0] += !strcasecmp(key, MHD_HTTP_HEADER_HOST);
    counts[1] += !strcasecmp(key, MHD_HTTP_HEADER_ORIGIN);
    return MHD_YES;
}

/* MHD's lookup gives the first of repeated headers: a request could name this host first and a
 * foreign origin second, so one that repeats either is refused. */
static bool repeats_origin(struct MHD_Connection *c)
{
    int counts[2] = { 0, 0 };
    MHD_get_connection_values(c, MHD_HEADER_KIND, count_header, counts);
    return counts[0] > 1 || counts[1] > 1;
}

static bool own_origin(struct MHD_Connection *c)
{
    const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
    const char *origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ORIGIN);
    if (!host || !hosts_own(host))
        return false;
    return !origin || (!strncmp(origin, "http://", 7) && hosts_own(origin + 7));
}

static enum MHD_Result serve_file(struct MHD_Connection *c, const char *url)
{
    const char *path = strcmp(url, "/") ? url : "/index.html";
    for (const struct www_file *f = www_files; f->path; f++)
        if (!strcmp(f->path, path)) {
            struct MHD_Response *resp = MHD_create_response_from_buffer(f->len, (void *)f->bytes,
                                                                        MHD_RESPMEM_PERSISTENT);
            if (resp)
                MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
            return send_response(c, 200, resp, f->type);
        }
    return send_error(c, 404, "unknown path");
}

/* An open event stream: the session's, and the text not yet sent. */
struct stream {
    struct session_stream *st;
    char *pending;
    size_t at;
};

static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    struct stream *s = cls;
    if (!s->pending) {
        s->pending = session_stream_next(s->st);
        s->at = 0;
        if (!s->pending)
            return MHD_CONTENT_READER_END_OF_STREAM;
    }
    size_t n = strlen(s->pending + s->at);
    n = n < max ? n : max;
    memcpy(buf, s->pending + s->at, n);
    s->at += n;
    if (!s->pending[s->at]) {
        free(s->pending);
        s->pending = NULL;
    }
    return (ssize_t)n;
}

static void stream_free(void *cls)
{
    struct stream *s = cls;
    session_stream_close(s->st);
    free(s->pending);
    free(s);
}

/* The event stream: each connection has a thread of its own, so reading may wait for events. */
static enum MHD_Result serve_events(struct MHD_Connection *c, const char *id)
{
    struct reply r = { 0 };
    struct stream *s = calloc(1, sizeof *s);
    if (!s)
        return send_error(c, 503, "out of memory");
    if (!(s->st = session_stream_open(id, &r))) {
        free(s);
        return send_reply(c, &r);
    }
    struct MHD_Response *resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, SSE_BLOCK, stream_read, s,
                                                                  stream_free);
    if (!resp) {
        stream_free(s);
        return MHD_NO;
    }
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    return send_response(c, 200, resp, "text/event-stream");
}

static enum MHD_Result serve_variant(struct MHD_Connection *c, const char *name)
{
    const struct variant *v = registry_find(name);
    struct reply r = { .status = 200 };
    if (v)
        r.json = board_variant(v);
    else
        reply_error(&r, 404, "unknown variant '%s'", name);
    return send_reply(c, &r);
}

static enum MHD_Result serve_guide(struct MHD_Connection *c)
{
    const char *name = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "variant");
    const char *piece = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "piece");
    const char *cell = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "cell");
    const char *army_text = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "army");
    const struct variant *v = name ? registry_find(name) : NULL;
    struct reply r = { .status = 200 };
    char err[256];
    long army = 0;
    if (!v)
        reply_error(&r, 404, "unknown variant '%s'", name ? name : "");
    else if (army_text && !number_parse(army_text, 0, v->narmies - 1, &army))
        reply_error(&r, 400, "no army %s in %s", army_text, v->name);
    else if (!(r.json = board_guide(v, piece, (int)army, cell, err, sizeof err)))
        reply_error(&r, 400, "%s", err);
    return send_reply(c, &r);
}

/* /api/session/<id>[/<action>] */
static enum MHD_Result serve_session(struct MHD_Connection *c, const char *rest, const char *method,
                                     const struct request *req)
{
    char id[64], action[64] = "";
    struct reply r = { 0 };
    size_t n = strcspn(rest, "/");
    if (n == 0 || n >= sizeof id || strlen(rest + n) >= sizeof action + 1)
        return send_error(c, 404, "unknown path");
    memcpy(id, rest, n);
    id[n] = 0;
    if (rest[n])
        snprintf(action, sizeof action, "%s", rest + n + 1);
    if (!strcmp(action, "events") && !strcmp(method, "GET"))
        return serve_events(c, id);
    json_t *body = NULL;
    bool record = !strcmp(action, "pgn");
    if (!strcmp(method, "POST") && !record && req->len) {
        json_error_t error;
        if (!(body = json_loadb(req->body, req->len, 0, &error)))
            return send_error(c, 400, "malformed JSON");
    }
    const char *token = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Sennight-Token");
    session_request(id, action, method, body, req->body ? req->body : "", req->len, token, &r);
    json_decref(body);
    return send_reply(c, &r);
}

static enum MHD_Result route(struct MHD_Connection *c, const char *url, const char *method, const struct request *req)
{
    bool get = !strcmp(method, "GET") || !strcmp(method, "HEAD"), post = !strcmp(method, "POST");
    if (!get && !post)
        return send_error(c, 405, "method not allowed");
    if (strncmp(url, "/api/", 5))
        return get ? serve_file(c, url) : send_error(c, 405, "method not allowed");
    if (!strcmp(url, "/api/variants") && get) {
        struct reply r = { .status = 200 };
        r.json = json_pack("{s:o, s:o, s:o}", "variants", board_variants(), "engines", engine_list_json(), "network",
                           hosts_network_json());
        return send_reply(c, &r);
    }
    if (!strncmp(url, "/api/variant/", 13) && get)
        return serve_variant(c, url + 13);
    if (!strcmp(url, "/api/guide") && get)
        return serve_guide(c);
    if (!strcmp(url, "/api/session") && post) {
        struct reply r = { 0 };
        json_error_t error;
        json_t *body = json_loadb(req->body ? req->body : "", req->len, 0, &error);
        if (!body)
            return send_error(c, 400, "malformed JSON");
        session_create(body, &r);
        json_decref(body);
        return send_reply(c, &r);
    }
    if (!strncmp(url, "/api/session/", 13))
        return serve_session(c, url + 13, get ? "GET" : "POST", req);
    return send_error(c, 404, "unknown path");
}

/* The most body a request may have: a game record (POST .../pgn) more than the JSON of the rest. */
static size_t body_limit(const char *url, const char *method)
{
    size_t n = strlen(url);
    bool record = !strcmp(method, "POST") && !strncmp(url, "/api/session/", 13) && n > 4
               && !strcmp(url + n - 4, "/pgn");
    return record ? MAX_RECORD : MAX_BODY;
}

static enum MHD_Result send_too_big(struct MHD_Connection *c, const struct request *req)
{
    return send_error(c, 413, req->max_body == MAX_RECORD ? "the record is over 2 MB" : "the body is over 64 KB");
}

/* Called once with the headers, then for each part of the body, then once more at its end. */
static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_size, void **con_cls)
{
    (void)cls, (void)version;
    struct request *req = *con_cls;
    if (!req)
        return MHD_NO;
    if (!req->started) {
        req->started = true;
        req->max_body = body_limit(url, method);
        const char *length = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (req->url_len > MAX_URL)
            return send_error(c, 413, "the URL is over 4 KB");
        if (repeats_origin(c))
            return send_error(c, 403, "more than one Host or Origin header");
        if (!own_origin(c))
            return send_error(c, 403, "a foreign Host or Origin");
        if (length && strtoull(length, NULL, 10) > req->max_body)
            return send_too_big(c, req);
        if (!strcmp(method, "POST"))
            return MHD_YES;
    }
    if (*upload_size) {
        if (req->len + *upload_size > req->max_body) {
            req->too_big = true;
        } else if (!req->too_big) {
            char *grown = realloc(req->body, req->len + *upload_size + 1);
            if (!grown)
                return MHD_NO;
            memcpy(grown + req->len, upload_data, *upload_size);
            req->body = grown;
            req->len += *upload_size;
            req->body[req->len] = 0;
        }
        *upload_size = 0;
        return MHD_YES;
    }
    if (req->too_big)
        return send_too_big(c, req);
    return route(c, url, method, req);
}

bool server_start(const char *host, int port, int *bound, char *err, size_t errlen)
{
    struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    const char *numeric = strcmp(host, "localhost") ? host : "127.0.0.1";
    if (inet_pton(AF_INET, numeric, &addr.sin_addr) != 1 || port < 0 || port > 65535) {
        snprintf(err, errlen, "cannot listen on %s:%d: an IPv4 address and a port are expected", host, port);
        return false;
    }
    server.daemon = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION,
                                     (uint16_t)port, NULL, NULL, handle, NULL, MHD_OPTION_SOCK_ADDR, &addr,
                                     MHD_OPTION_URI_LOG_CALLBACK, request_begin, NULL,
                                     MHD_OPTION_NOTIFY_COMPLETED, request_end, NULL,
                                     MHD_OPTION_CONNECTION_TIMEOUT, 120u, MHD_OPTION_END);
    if (!server.daemon) {
        snprintf(err, errlen, "cannot listen on %s:%d", host, port);
        return false;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(server.daemon, MHD_DAEMON_INFO_BIND_PORT);
    *bound = info ? info->port : port;
    return true;
}

void server_stop(void)
{
    if (server.daemon)
        MHD_stop_daemon(server.daemon);
    server.daemon = NULL;
}
