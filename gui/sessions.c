/* The list of sessions: at most MAX_SESSIONS, found by id, counted references, the idle ones ended. */
#include "sessions.h"

#include <string.h>
#include <time.h>

#include "../util/clock.h"
#include "session.h"

enum { MAX_SESSIONS = 16 };
static const long long IDLE_LIMIT = 30 * SECONDS;       /* a session without a stream for this long ends */

static struct {
    pthread_mutex_t lock;
    pthread_cond_t stop;
    struct session *list;
    int count;
    bool closing;
    pthread_t reaper;
} sessions = { .lock = PTHREAD_MUTEX_INITIALIZER, .stop = PTHREAD_COND_INITIALIZER };

void sessions_release(struct session *s)
{
    pthread_mutex_lock(&sessions.lock);
    bool last = --s->refs == 0;
    pthread_mutex_unlock(&sessions.lock);
    if (last)
        session_free(s);
}

void sessions_end(struct session *s)
{
    pthread_mutex_lock(&s->lock);
    s->ending = true;
    atomic_store(&s->cancel, true);
    pthread_cond_signal(&s->wake);
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->lock);
    pthread_join(s->worker, NULL);
    sessions_release(s);
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

struct session *sessions_find(const char *id, struct reply *r)
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
            sessions_end(s);
            pthread_mutex_lock(&sessions.lock);
        }
    }
    pthread_mutex_unlock(&sessions.lock);
    return NULL;
}

void sessions_start(void)
{
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
        sessions_end(s);
    }
}

bool sessions_reserve(void)
{
    pthread_mutex_lock(&sessions.lock);
    struct session *victim = sessions.count < MAX_SESSIONS ? NULL : oldest_idle(clock_us() + 1);
    bool full = sessions.count >= MAX_SESSIONS && !victim;
    if (victim)
        unlink_session(victim);
    sessions.count += !full;
    pthread_mutex_unlock(&sessions.lock);
    if (victim)
        sessions_end(victim);
    return !full;
}

void sessions_unreserve(void)
{
    pthread_mutex_lock(&sessions.lock);
    sessions.count--;
    pthread_mutex_unlock(&sessions.lock);
}

bool sessions_add(struct session *s)
{
    pthread_mutex_lock(&sessions.lock);
    bool open = !sessions.closing;
    if (open) {
        s->next = sessions.list;
        sessions.list = s;
    } else {
        sessions.count--;
    }
    pthread_mutex_unlock(&sessions.lock);
    return open;
}
