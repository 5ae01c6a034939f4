/* A child process on two pipes, for the match runner, the UCI client and the tests: started without a
 * shell, written and read line by line with deadlines, waited for, ended with its whole group. Every
 * live child is listed, so that a signal or exit can kill them all (proc_kill_all). Times are
 * microseconds on the monotonic clock; a deadline of -1 is none. Callers ignore SIGPIPE, so that a
 * write to a child that has died fails instead of ending them. */
#ifndef ENGINE_PROCESS_H
#define ENGINE_PROCESS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* How a child ended. */
struct proc_exit {
    bool exited;        /* by exit(): code is its status */
    int code;
    int signal;         /* the signal that ended it, 0 if none */
    bool killed;        /* still running at the deadline, so killed */
};

/* Zeroed, or after proc_end: nothing to end. */
struct proc {
    pid_t pid;          /* 0: not running (never started, or reaped) */
    bool open;          /* from proc_start to proc_end: the descriptors and the buffer are its own */
    int to, from;       /* its stdin and stdout; -1 once closed */
    struct proc_exit exit;  /* how it ended, once reaped */
    char *buf;          /* output read but not yet returned */
    size_t len, cap, used;
};

enum proc_read { PROC_LINE, PROC_TIMEOUT, PROC_EOF, PROC_CANCELLED };

/* Runs argv[0] (looked up in PATH when it has no '/'); false with a message if it cannot be run.
 * With own_group it leads a process group of its own: a terminal's ^C reaches the caller alone, and
 * proc_end also kills whatever it started. Without, it stays in the caller's group, so that whoever
 * kills that group (a test harness on a timeout) kills it too. */
bool proc_start(struct proc *p, char *const argv[], bool own_group, char *err, size_t errlen);
/* Writes the bytes (NULs and newlines included), reading the child's output meanwhile so that
 * neither side can block the other; false if the child is gone or takes no input until the deadline. */
bool proc_write(struct proc *p, const char *data, size_t len, long long deadline);
/* Writes the line and a newline. */
bool proc_send(struct proc *p, const char *line, long long deadline);
/* The next line of output without its newline, valid until the next call on p. Waits until the
 * deadline (-1: no deadline) or until *cancel becomes true. */
enum proc_read proc_read_line(struct proc *p, long long deadline, const atomic_bool *cancel, const char **line);
/* Closes the child's stdin (end of file); its output stays readable. */
void proc_close_input(struct proc *p);
/* Waits until the child exits or the deadline passes, reading its output meanwhile (it stays
 * readable); kills its process group and reaps it. Once reaped, says again how it ended. */
struct proc_exit proc_wait(struct proc *p, long long deadline);
/* Closes the child's stdin, gives it `grace` to exit (proc_wait) and frees everything; writes how it
 * ended ("exited with status 0", "killed by signal 11") when why is not NULL. */
void proc_end(struct proc *p, long long grace, char *why, size_t whylen);
/* Kills every live child; async-signal-safe. */
void proc_kill_all(void);

#endif
