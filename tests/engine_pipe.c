#include "engine_pipe.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { READ_CHUNK = 1 << 16, WAIT_SLICE_MS = 5, MAX_LIVE = 64 };

/* Engines not yet reaped. A test that fails half-way leaves without pipe_free, and an engine in
 * the middle of a long perft would otherwise outlive it for hours. */
static pid_t live[MAX_LIVE];

static void live_kill_all(void)
{
    for (int i = 0; i < MAX_LIVE; i++)
        if (live[i] > 0)
            kill(live[i], SIGKILL);
}

static void live_replace(pid_t old, pid_t pid)
{
    static bool registered;
    if (!registered)
        registered = !atexit(live_kill_all);
    for (int i = 0; i < MAX_LIVE; i++)
        if (live[i] == old) {
            live[i] = pid;
            return;
        }
}

static long long clock_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static int ms_left(long long deadline)
{
    long long left = deadline - clock_ms();
    return left < 0 ? 0 : (int)left;
}

const char *pipe_engine_path(void)
{
    const char *path = getenv("SENNIGHT");
    return path && *path ? path : "./sennight";
}

static void fd_close(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* Every pipe end is close-on-exec, so that an engine never holds another engine's stdin open. */
static bool pipe_pair(int fds[2])
{
    if (pipe(fds))
        return false;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return true;
}

static void child_exec(char *const *argv, int in, int out)
{
    dup2(in, STDIN_FILENO);
    dup2(out, STDOUT_FILENO);
    signal(SIGPIPE, SIG_DFL);
    execv(argv[0], argv);
    _exit(127);
}

bool pipe_start(struct engine_pipe *p)
{
    return pipe_start_args(p, NULL);
}

bool pipe_start_args(struct engine_pipe *p, const char *const *args)
{
    const char *path = pipe_engine_path();
    /* Built before the fork: the child only execs. */
    char *argv[PIPE_MAX_ARGS + 2] = { (char *)path };
    int in[2], out[2], n = 0;
    *p = (struct engine_pipe){ .to_engine = -1, .from_engine = -1 };
    while (args && args[n] && n < PIPE_MAX_ARGS) {
        argv[n + 1] = (char *)args[n];
        n++;
    }
    if (args && args[n]) {
        errno = E2BIG;
        return false;
    }
    if (access(path, X_OK) || !pipe_pair(in))
        return false;
    if (!pipe_pair(out)) {
        close(in[0]), close(in[1]);
        return false;
    }
    /* A write to an engine that has died must fail with EPIPE, not kill the test. */
    signal(SIGPIPE, SIG_IGN);
    p->pid = fork();
    if (p->pid == 0)
        child_exec(argv, in[0], out[1]);
    close(in[0]), close(out[1]);
    p->to_engine = in[1];
    p->from_engine = out[0];
    if (p->pid < 0) {
        pipe_free(p);
        return false;
    }
    live_replace(0, p->pid);
    /* Partial writes let pipe_write keep reading while the engine is slow to take its input. */
    fcntl(p->to_engine, F_SETFL, fcntl(p->to_engine, F_GETFL) | O_NONBLOCK);
    return true;
}

/* Moves whatever the engine has written into buf; closes from_engine at the end of its output. */
static void pipe_take(struct engine_pipe *p)
{
    if (p->consumed) {
        memmove(p->buf, p->buf + p->consumed, p->len - p->consumed);
        p->len -= p->consumed;
        p->consumed = 0;
    }
    if (p->cap < p->len + READ_CHUNK + 1) {
        size_t cap = p->len + READ_CHUNK + 1;
        char *grown = realloc(p->buf, cap);
        if (!grown) {
            fd_close(&p->from_engine);
            return;
        }
        p->buf = grown;
        p->cap = cap;
    }
    ssize_t n;
    do
        n = read(p->from_engine, p->buf + p->len, READ_CHUNK);
    while (n < 0 && errno == EINTR);
    if (n <= 0)
        fd_close(&p->from_engine);
    else
        p->len += (size_t)n;
}

bool pipe_write(struct engine_pipe *p, const char *data, size_t len, int timeout_ms)
{
    long long deadline = clock_ms() + timeout_ms;
    while (len > 0 && p->to_engine >= 0) {
        struct pollfd fds[2] = { { p->to_engine, POLLOUT, 0 }, { p->from_engine, POLLIN, 0 } };
        int ready = poll(fds, 2, ms_left(deadline));
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0)
            return false;
        if (fds[1].revents)
            pipe_take(p);
        if (!fds[0].revents)
            continue;
        ssize_t n = write(p->to_engine, data, len);
        if (n < 0 && errno != EAGAIN && errno != EINTR)
            return false;
        if (n > 0)
            data += n, len -= (size_t)n;
    }
    return len == 0;
}

bool pipe_send(struct engine_pipe *p, const char *line, int timeout_ms)
{
    long long deadline = clock_ms() + timeout_ms;
    return pipe_write(p, line, strlen(line), timeout_ms) && pipe_write(p, "\n", 1, ms_left(deadline));
}

/* Cuts the next complete line out of buf, or the unterminated rest once the output has ended. */
static const char *pipe_cut_line(struct engine_pipe *p)
{
    char *start = p->buf + p->consumed;
    size_t avail = p->len - p->consumed;
    char *nl = avail ? memchr(start, '\n', avail) : NULL;
    if (!nl && (p->from_engine >= 0 || !avail))
        return NULL;
    size_t n = nl ? (size_t)(nl - start) : avail;
    start[n] = 0;
    p->consumed += n + (nl != NULL);
    return start;
}

const char *pipe_read_line(struct engine_pipe *p, int timeout_ms)
{
    long long deadline = clock_ms() + timeout_ms;
    for (;;) {
        const char *line = p->buf ? pipe_cut_line(p) : NULL;
        if (line || p->from_engine < 0)
            return line;
        struct pollfd fd = { p->from_engine, POLLIN, 0 };
        int ready = poll(&fd, 1, ms_left(deadline));
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0)
            return NULL;
        pipe_take(p);
    }
}

void pipe_close_input(struct engine_pipe *p)
{
    fd_close(&p->to_engine);
}

static void pipe_reap(struct engine_pipe *p, int *status)
{
    while (waitpid(p->pid, status, 0) < 0 && errno == EINTR)
        continue;
    live_replace(p->pid, 0);
    p->pid = 0;
}

static struct pipe_exit exit_of(int status, bool killed)
{
    return (struct pipe_exit){
        .exited = WIFEXITED(status),
        .code = WIFEXITED(status) ? WEXITSTATUS(status) : 0,
        .signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0,
        .killed = killed,
    };
}

struct pipe_exit pipe_wait(struct engine_pipe *p, int timeout_ms)
{
    long long deadline = clock_ms() + timeout_ms;
    int status = 0;
    bool killed = false;
    while (p->pid > 0) {
        pid_t done = waitpid(p->pid, &status, WNOHANG);
        if (done != 0) {
            live_replace(p->pid, 0);
            p->pid = 0;
            /* Reaped by someone else: how it ended is unknown, so it must not pass for a clean exit. */
            if (done < 0)
                return (struct pipe_exit){ .exited = false };
            break;
        }
        if (!ms_left(deadline)) {
            kill(p->pid, SIGKILL);
            pipe_reap(p, &status);
            killed = true;
            break;
        }
        /* Keep reading so that an engine still printing can finish; a closed fd just sleeps. */
        struct pollfd fd = { p->from_engine, POLLIN, 0 };
        if (poll(&fd, 1, WAIT_SLICE_MS) > 0)
            pipe_take(p);
    }
    return exit_of(status, killed);
}

void pipe_free(struct engine_pipe *p)
{
    if (p->pid > 0) {
        int status;
        kill(p->pid, SIGKILL);
        pipe_reap(p, &status);
    }
    fd_close(&p->to_engine);
    fd_close(&p->from_engine);
    free(p->buf);
    *p = (struct engine_pipe){ .to_engine = -1, .from_engine = -1 };
}
