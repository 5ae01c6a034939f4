/* The engine under test ($SENNIGHT) as a child process (client/engine_process.h), with timeouts in
 * milliseconds: the suites talk to the real executable exactly as a GUI would. */
#ifndef ENGINE_PIPE_H
#define ENGINE_PIPE_H

#include <stdbool.h>
#include <stddef.h>

#include "../client/engine_process.h"

/* The engine path: $SENNIGHT, or ./sennight. */
const char *pipe_engine_path(void);
/* Starts the engine with the arguments (a NULL-terminated list of at most PIPE_MAX_ARGS, or NULL);
 * fails the test if it cannot be run. */
enum { PIPE_MAX_ARGS = 32 };
void pipe_start(struct proc *p, const char *const *args);
/* proc_write, proc_send, proc_wait with a timeout. */
bool pipe_write(struct proc *p, const char *data, size_t len, int timeout_ms);
bool pipe_send(struct proc *p, const char *line, int timeout_ms);
struct proc_exit pipe_wait(struct proc *p, int timeout_ms);
/* The next output line without its newline, valid until the next call on p; NULL on timeout or
 * once the engine's output has ended. */
const char *pipe_read_line(struct proc *p, int timeout_ms);
/* Runs the engine with the arguments to its end: its output lines into out, the first line of its
 * standard error into err and their number into *err_lines; returns its exit status. */
int pipe_run(const char *const *args, char *out, size_t outlen, char *err, size_t errlen, int *err_lines);

#endif
