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

static void *input_read(void *arg)
{
    struct uci_input *q = arg;
    char *line = NULL;
    size_t cap = 0;
    bool last = false;
    for (ssize_t len; !last && (len = getline(&line, &cap, q->in)) >= 0;) {
        pthread_mutex_lock(&q->lock);
        enum input_action a = q->hook(q->ctx, line, (size_t)len, q->waiting_line || q->waiting_job);
        if (a != INPUT_DONE)
            queue_push(q, line, (size_t)len);
        last = a == INPUT_LAST;
        pthread_mutex_unlock(&q->lock);
    }
    free(line);
    pthread_mutex_lock(&q->lock);
    q->ended = true;
    pthread_cond_signal(&q->arrived);
    pthread_mutex_unlock(&q->lock);
    return NULL;
}

bool input_start(struct uci_input *q, FILE *in,
                 enum input_action (*hook)(void *ctx, const char *line, size_t len, bool idle), void *ctx)
{
    *q = (struct uci_input){ .in = in, .hook = hook, .ctx = ctx };
    pthread_mutex_init(&q->lock, NULL);
    pthread_cond_init(&q->arrived, NULL);
    if (pthread_create(&q->reader, NULL, input_read, q)) {
        pthread_cond_destroy(&q->arrived);
        pthread_mutex_destroy(&q->lock);
        return false;
    }
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

void input_free(struct uci_input *q)
{
    pthread_join(q->reader, NULL);
    for (struct input_line *l = q->head, *next; l; l = next) {
        next = l->next;
        free(l);
    }
    pthread_cond_destroy(&q->arrived);
    pthread_mutex_destroy(&q->lock);
}
