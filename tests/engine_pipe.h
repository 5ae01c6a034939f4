/* Drives the real engine executable over pipes: the protocol tests (tests/test_protocol.c) talk to
 * it exactly as a GUI would. No call blocks for longer than its timeout. */
#ifndef ENGINE_PIPE_H
#define ENGINE_PIPE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct engine_pipe {
    pid_t pid;          /* 0 once the engine has been reaped */
    int to_engine;      /* its stdin; -1 once closed */
    int from_engine;    /* its stdout; -1 once it reached end of file */
    char *buf;          /* output read but not yet returned as lines */
    size_t len, cap;
    size_t consumed;    /* bytes of buf already returned by pipe_read_line */
};

struct pipe_exit {
    bool exited;        /* ended by exit(); code is valid */
    int code;
    int signal;         /* the signal that ended it, 0 if none */
    bool killed;        /* did not end in time and was killed with SIGKILL */
};

/* The engine path: $SENNIGHT, or ./sennight. */
const char *pipe_engine_path(void);
/* Starts the engine; false (errno set) if it cannot be run. */
bool pipe_start(struct engine_pipe *p);
/* The same with command-line arguments (a NULL-terminated list of at most PIPE_MAX_ARGS). */
enum { PIPE_MAX_ARGS = 32 };
bool pipe_start_args(struct engine_pipe *p, const char *const *args);
/* Writes raw bytes (NUL and newlines included), reading the engine's output meanwhile so that
 * neither side can block the other; false on timeout or if the engine closed its input. */
bool pipe_write(struct engine_pipe *p, const char *data, size_t len, int timeout_ms);
/* Writes the text and a newline. */
bool pipe_send(struct engine_pipe *p, const char *line, int timeout_ms);
/* The next output line without its newline, valid until the next call on p; NULL on timeout or
 * once the engine's output has ended. */
const char *pipe_read_line(struct engine_pipe *p, int timeout_ms);
/* Closes the engine's stdin (end of file). */
void pipe_close_input(struct engine_pipe *p);
/* Waits for the engine to exit, killing it if it takes longer; its output stays readable. */
struct pipe_exit pipe_wait(struct engine_pipe *p, int timeout_ms);
/* Kills the engine if it is still running and frees everything. */
void pipe_free(struct engine_pipe *p);

#endif
