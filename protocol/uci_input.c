/* The UCI input thread and its queue of lines for the command loop. */
#include "uci_input.h"

#include <stdlib.h>
#include <string.h>

struct input_line {
    struct input_line *next;
    size_t len;
    char text[];
};

static void queue_push(struct uci_input *q, const char *line, size_t len)
{
    struct input_line *l = malloc(sizeof *l + len + 1);
    if (!l)
        return;   /* out of memory: the line is lost, as if never sent */
    l->next = NULL;
    l->len = len;
    memcpy(l->text, line, len + 1);
    if (q->tail)
        q->tail->next = l;
    else
        q->head = l;
    q->tail = l;
    q->waiting_line = false;
    pthread_cond_signal(&q->arrived);
}

/* Reads one stream until its end or a line the hook marks last, then marks the input ended. */
static void input_read_stream(struct uci_input *q, FILE *in, char **line, size_t *cap)
{
    bool last = false;
    for (ssize_t len; !last && (len = getline(line, cap, in)) >= 0;) {
        pthread_mutex_lock(&q->lock);
        enum input_action a = q->hook(q->ctx, *line, (size_t)len, q->waiting_line || q->waiting_job);
        if (a != INPUT_DONE)
            queue_push(q, *line, (size_t)len);
        last = a == INPUT_LAST;
        pthread_mutex_unlock(&q->lock);
    }
    pthread_mutex_lock(&q->lock);
    q->in = NULL;
    q->ended = true;
    pthread_cond_signal(&q->arrived);
    pthread_mutex_unlock(&q->lock);
}

/* The reader thread: one stream after another, as input_start gives them, until input_free. */
static void *input_read(void *arg)
{
    struct uci_input *q = arg;
    char *line = NULL;
    size_t cap = 0;
    pthread_mutex_lock(&q->lock);
    for (;;) {
        while (!q->in && !q->closing)
            pthread_cond_wait(&q->given, &q->lock);
        if (q->closing)
            break;
        FILE *in = q->in;
        pthread_mutex_unlock(&q->lock);
        input_read_stream(q, in, &line, &cap);
        pthread_mutex_lock(&q->lock);
    }
    pthread_mutex_unlock(&q->lock);
    free(line);
    return NULL;
}

/* The thread is made once, at the first stream: a caller running many sessions (the fuzz harness)
 * would otherwise pay for a thread's creation and teardown on each. */
static bool input_create(struct uci_input *q)
{
    pthread_mutex_init(&q->lock, NULL);
    pthread_cond_init(&q->arrived, NULL);
    pthread_cond_init(&q->given, NULL);
    q->started = !pthread_create(&q->reader, NULL, input_read, q);
    if (!q->started) {
        pthread_cond_destroy(&q->given);
        pthread_cond_destroy(&q->arrived);
        pthread_mutex_destroy(&q->lock);
    }
    return q->started;
}

bool input_start(struct uci_input *q, FILE *in,
                 enum input_action (*hook)(void *ctx, const char *line, size_t len, bool idle), void *ctx)
{
    if (!q->started && !input_create(q))
        return false;
    pthread_mutex_lock(&q->lock);
    q->head = q->tail = NULL;
    q->ended = q->waiting_line = q->waiting_job = false;
    q->hook = hook;
    q->ctx = ctx;
    q->in = in;
    pthread_cond_signal(&q->given);
    pthread_mutex_unlock(&q->lock);
    return true;
}

char *input_next(struct uci_input *q, size_t *len)
{
    pthread_mutex_lock(&q->lock);
    while (!q->head && !q->ended) {
        q->waiting_line = true;
        pthread_cond_wait(&q->arrived, &q->lock);
    }
    q->waiting_line = false;
    struct input_line *l = q->head;
    char *text = NULL;
    if (l) {
        q->head = l->next;
        if (!q->head)
            q->tail = NULL;
        /* The text moves to the start of the block, so the caller frees one pointer. */
        *len = l->len;
        text = memmove(l, l->text, l->len + 1);
    }
    pthread_mutex_unlock(&q->lock);
    return text;
}

void input_lock(struct uci_input *q)
{
    pthread_mutex_lock(&q->lock);
}

void input_unlock(struct uci_input *q)
{
    pthread_mutex_unlock(&q->lock);
}

int input_remove_if(struct uci_input *q, bool (*pick)(const char *line, size_t len))
{
    int removed = 0;
    struct input_line **link = &q->head, *last = NULL;
    while (*link) {
        struct input_line *l = *link;
        if (pick(l->text, l->len)) {
            *link = l->next;
            free(l);
            removed++;
        } else {
            last = l;
            link = &l->next;
        }
    }
    q->tail = last;
    return removed;
}

void input_finish(struct uci_input *q)
{
    pthread_mutex_lock(&q->lock);
    while (!q->ended)
        pthread_cond_wait(&q->arrived, &q->lock);
    for (struct input_line *l = q->head, *next; l; l = next) {
        next = l->next;
        free(l);
    }
    q->head = q->tail = NULL;
    pthread_mutex_unlock(&q->lock);
}

void input_free(struct uci_input *q)
{
    if (!q->started)
        return;
    pthread_mutex_lock(&q->lock);
    q->closing = true;
    pthread_cond_signal(&q->given);
    pthread_mutex_unlock(&q->lock);
    pthread_join(q->reader, NULL);
    pthread_cond_destroy(&q->given);
    pthread_cond_destroy(&q->arrived);
    pthread_mutex_destroy(&q->lock);
    q->started = false;
}
