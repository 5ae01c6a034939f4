/* The event stream of a session (Server-Sent Events): STATE after every change, the analysis lines at
 * most ten times a second, engine events, the review's progress, keep-alive comments. */
#include "session_stream.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/clock.h"
#include "review.h"
#include "session.h"
#include "session_json.h"
#include "sessions.h"

static const long long KEEPALIVE = 5 * SECONDS;
static const long long ANALYSIS_GAP = 100 * MS;         /* at most 10 analysis events per second */
static const long long REVIEW_GAP = 100 * MS;           /* a running review's progress: at most 10 events a second */

struct session_stream {
    struct session *s;
    long long state_seen, analysis_seen, next_event, analysis_sent, review_changes_seen, review_seen;
};

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

struct session_stream *session_stream_open(const char *id, struct reply *r)
{
    struct session *s = sessions_find(id, r);
    struct session_stream *st = s ? calloc(1, sizeof *st) : NULL;
    if (s && !st) {
        sessions_release(s);
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
            out = sse("state", session_json_state(s));
            break;
        }
        if (st->analysis_seen != s->analysis_version) {
            if (now >= st->analysis_sent + ANALYSIS_GAP) {
                st->analysis_seen = s->analysis_version;
                st->analysis_sent = now;
                out = sse("analysis", session_json_analysis(s));
                break;
            }
            until = st->analysis_sent + ANALYSIS_GAP < until ? st->analysis_sent + ANALYSIS_GAP : until;
        }
        long long review = s->review ? review_version(s->review) : -1;
        if (st->review_changes_seen != s->review_changes || st->review_seen != review) {
            st->review_changes_seen = s->review_changes;
            st->review_seen = review;
            out = sse("review", session_json_review(s));
            break;
        }
        /* The review's thread does not wake the streams: while it runs, they look every REVIEW_GAP. */
        if (s->review && review_running(s->review))
            until = now + REVIEW_GAP < until ? now + REVIEW_GAP : until;
        if (now >= deadline) {
            out = strdup(": keep-alive\n\n");
            break;
        }
        session_wait(s, &s->changed, until - now);
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
    sessions_release(s);
    free(st);
}
