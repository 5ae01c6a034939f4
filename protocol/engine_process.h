/* A child process on two pipes: started without a shell in its own process group, read line by line
 * with deadlines, ended with its whole group. Every live child is listed, so that a signal or exit
 * can kill them all (proc_kill_all). Times are microseconds on the monotonic clock. */
#ifndef ENGINE_PROCESS_H
#define ENGINE_PROCESS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Zeroed, or after proc_end: not running. */
struct proc {
    pid_t pid;          /* 0: not running */
    int to, from;       /* its stdin and stdout; -1 once closed */
    char *buf;          /* output read but not yet returned */
    size_t len, cap, used;
};

enum proc_read { PROC_LINE, PROC_TIMEOUT, PROC_EOF, PROC_CANCELLED };

long long proc_now(void);
/* Runs argv[0] (looked up in PATH when it has no '/'); false with a message if it cannot be run. */
bool proc_start(struct proc *p, char *const argv[], char *err, size_t errlen);
/* Writes the line and a newline; false if the child is gone or takes no input until the deadline. */
bool proc_send(struct proc *p, const char *line, long long deadline);
/* The next line of output without its newline, valid until the next call on p. Waits until the
 * deadline (-1: no deadline) or until *cancel becomes true. */
enum proc_read proc_read_line(struct proc *p, long long deadline, const atomic_bool *cancel, const char **line);
/* Closes the child's stdin, gives it `grace` to exit, kills its process group and reaps it; writes
 * how it ended ("exited with status 0", "killed by signal 11") when why is not NULL. */
void proc_end(struct proc *p, long long grace, char *why, size_t whylen);
/* Kills every live child; async-signal-safe. */
void proc_kill_all(void);

#endif
