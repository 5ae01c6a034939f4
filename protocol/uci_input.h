/* The UCI input thread: stdin is read line by line on its own thread, so that the commands a GUI must
 * have answered at once (stop, isready, ponderhit, quit) are seen while the command loop waits for a
 * search, and every other line is queued for the loop in the order it came. */
#ifndef UCI_INPUT_H
#define UCI_INPUT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

enum input_action {
    INPUT_QUEUE,   /* the loop runs the line in its turn */
    INPUT_DONE,    /* the hook has dealt with it */
    INPUT_LAST,    /* queue it and read no further (quit) */
};

struct input_line;

/* Zeroed before the first input_start. */
struct uci_input {
    FILE *in;                  /* the stream being read; NULL while the reader waits for one */
    pthread_t reader;
    bool started;              /* the reader thread exists (the lock and conditions too) */
    bool closing;              /* input_free: the reader thread ends */
    pthread_mutex_t lock;      /* guards the queue, the flags and whatever the hook touches */
    pthread_cond_t arrived;    /* a line queued, or the stream ended */
    pthread_cond_t given;      /* a stream given to the reader, or closing */
    struct input_line *head, *tail;
    bool ended;                /* nothing more will be queued */
    bool waiting_line;         /* the loop waits for a line and the queue is empty */
    bool waiting_job;          /* the loop waits for a search or count to end */
    /* Called by the reader, the lock held, with each line as read (len bytes, NUL-terminated);
     * idle says whether the loop waits (for a line or for a job). */
    enum input_action (*hook)(void *ctx, const char *line, size_t len, bool idle);
    void *ctx;
};

/* Starts reading in on the reader thread, made at the first call; false if it cannot start. The
 * previous stream must be finished (input_finish). */
bool input_start(struct uci_input *q, FILE *in,
                 enum input_action (*hook)(void *ctx, const char *line, size_t len, bool idle), void *ctx);
/* The next queued line (the caller frees it) and its length; NULL once input has ended and every
 * line has been taken. */
char *input_next(struct uci_input *q, size_t *len);
void input_lock(struct uci_input *q);
void input_unlock(struct uci_input *q);
/* With the lock held: removes the queued lines that pick accepts, returning how many. */
int input_remove_if(struct uci_input *q, bool (*pick)(const char *line, size_t len));
/* Waits for the reader to finish the stream (input ended or quit read) and frees what is still queued;
 * the stream is the caller's again. */
void input_finish(struct uci_input *q);
/* Ends the reader thread (no stream being read). */
void input_free(struct uci_input *q);

#endif
