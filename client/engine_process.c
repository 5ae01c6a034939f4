/* Child processes on pipes with deadlines: spawn, line reads, writes that drain, exit and kill. */
#include "engine_process.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../util/clock.h"

enum {
    READ_CHUNK = 1 << 14,
    MAX_LINE = 1 << 20,      /* a longer unterminated line is returned in pieces */
    MAX_BUFFER = 1 << 24,    /* output beyond this, unread by the runner, is left in the pipe */
    SLICE_MS = 20,           /* how often a wait looks at the cancel flag */
    EXIT_POLL_MS = 2,        /* how often a wait for exit looks at the child */
    MAX_LIVE = 1024,
};

static _Atomic pid_t live[MAX_LIVE];
/* pipe() and fork() under one lock: a child forked by another thread between the two would
 * inherit pipe ends before they are marked close-on-exec and keep an engine's stdin open. */
static pthread_mutex_t spawn_lock = PTHREAD_MUTEX_INITIALIZER;

static void live_set(pid_t old, pid_t pid)
{
    for (int i = 0; i < MAX_LIVE; i++) {
        pid_t expected = old;
        if (atomic_compare_exchange_strong(&live[i], &expected, pid))
            return;
    }
}

void proc_kill_all(void)
{
    for (int i = 0; i < MAX_LIVE; i++) {
        pid_t pid = atomic_load(&live[i]);
        if (pid > 0) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
        }
    }
}

static void fd_close(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

static bool pipe_cloexec(int fds[2])
{
    if (pipe(fds))
        return false;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return true;
}

/* Only async-signal-safe calls between fork and exec; an exec failure is reported through `status`. */
static void child_exec(char *const argv[], bool own_group, int in, int out, int status)
{
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    /* Ignored signals stay ignored across exec: the engine must die of a broken pipe or ^C as usual. */
    signal(SIGPIPE, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    if (own_group)
        setpgid(0, 0);
    dup2(in, STDIN_FILENO);
    dup2(out, STDOUT_FILENO);
    execvp(argv[0], argv);
    int e = errno;
    ssize_t ignored = write(status, &e, sizeof e);
    (void)ignored;
    _exit(127);
}

bool proc_start(struct proc *p, char *const argv[], bool own_group, char *err, size_t errlen)
{
    int in[2] = { -1, -1 }, out[2] = { -1, -1 }, status[2] = { -1, -1 }, e = 0;
    *p = (struct proc){ .to = -1, .from = -1 };
    pthread_mutex_lock(&spawn_lock);
    bool piped = pipe_cloexec(in) && pipe_cloexec(out) && pipe_cloexec(status);
    pid_t pid = piped ? fork() : -1;
    if (pid == 0)
        child_exec(argv, own_group, in[0], out[1], status[1]);
    e = errno;
    pthread_mutex_unlock(&spawn_lock);
    close(in[0]), close(out[1]), close(status[1]);
    if (pid < 0) {
        snprintf(err, errlen, "cannot start '%s': %s", argv[0], strerror(e));
        close(in[1]), close(out[0]), close(status[0]);
        return false;
    }
    p->to = in[1];
    p->from = out[0];
    p->open = true;
    /* Also from this side: the group must exist before a kill may name it. */
    if (own_group)
        setpgid(pid, pid);
    p->pid = pid;
    live_set(0, pid);
    ssize_t n;
    while ((n = read(status[0], &e, sizeof e)) < 0 && errno == EINTR)
        continue;
    close(status[0]);
    if (n == sizeof e) {
        snprintf(err, errlen, "cannot run '%s': %s", argv[0], strerror(e));
        proc_end(p, 0, NULL, 0);
        return false;
    }
    /* Non-blocking input: a child that stops reading must not block the caller. */
    fcntl(p->to, F_SETFL, fcntl(p->to, F_GETFL) | O_NONBLOCK);
    return true;
}

/* Reads what the child has written; closes `from` at the end of its output. */
static void proc_fill(struct proc *p)
{
    if (p->used) {
        memmove(p->buf, p->buf + p->used, p->len - p->used);
        p->len -= p->used;
        p->used = 0;
    }
    if (p->len >= MAX_BUFFER)
        return;
    if (p->cap < p->len + READ_CHUNK + 1) {
        size_t cap = p->len + READ_CHUNK + 1;
        char *grown = realloc(p->buf, cap);
        if (!grown)
            return;
        p->buf = grown;
        p->cap = cap;
    }
    ssize_t n;
    while ((n = read(p->from, p->buf + p->len, READ_CHUNK)) < 0 && errno == EINTR)
        continue;
    if (n > 0)
        p->len += (size_t)n;
    else if (n == 0 || errno != EAGAIN)
        fd_close(&p->from);
}

static int wait_ms(long long deadline)
{
    if (deadline < 0)
        return SLICE_MS;
    long long left = (deadline - clock_us() + 999) / 1000;
    return left < 0 ? 0 : left < SLICE_MS ? (int)left : SLICE_MS;
}

bool proc_write(struct proc *p, const char *data, size_t len, long long deadline)
{
    size_t done = 0;
    while (done < len && p->to >= 0) {
        ssize_t n = write(p->to, data + done, len - done);
        if (n > 0) {
            done += (size_t)n;
            continue;
        }
        if (n < 0 && errno != EAGAIN && errno != EINTR)
            break;
        if (deadline >= 0 && clock_us() >= deadline)
            break;
        /* Keep reading while waiting, so that a child blocked on its own output can go on. */
        struct pollfd fds[2] = { { p->to, POLLOUT, 0 }, { p->from, POLLIN, 0 } };
        if (poll(fds, 2, wait_ms(deadline)) > 0 && fds[1].revents)
            proc_fill(p);
    }
    return done == len;
}

bool proc_send(struct proc *p, const char *line, long long deadline)
{
    /* One write for the line and its newline, as a child reading whole lines expects. */
    size_t len = strlen(line);
    char *data = malloc(len + 1);
    if (!data)
        return false;
    memcpy(data, line, len);
    data[len] = '\n';
    bool sent = proc_write(p, data, len + 1, deadline);
    free(data);
    return sent;
}

/* Cuts the next line out of buf: a complete one, an overlong piece, or the rest at end of output. */
static char *proc_cut_line(struct proc *p)
{
    char *start = p->buf + p->used;
    size_t avail = p->len - p->used;
    char *nl = avail ? memchr(start, '\n', avail) : NULL;
    if (!nl && !(avail >= MAX_LINE || (p->from < 0 && avail)))
        return NULL;
    size_t n = nl ? (size_t)(nl - start) : avail;
    p->used += n + (nl != NULL);
    if (n && start[n - 1] == '\r')
        n--;
    start[n] = 0;
    return start;
}

enum proc_read proc_read_line(struct proc *p, long long deadline, const atomic_bool *cancel, const char **line)
{
    for (;;) {
        if (p->buf && (*line = proc_cut_line(p)))
            return PROC_LINE;
        if (p->from < 0)
            return PROC_EOF;
        if (cancel && atomic_load(cancel))
            return PROC_CANCELLED;
        if (deadline >= 0 && clock_us() >= deadline)
            return PROC_TIMEOUT;
        struct pollfd fd = { p->from, POLLIN, 0 };
        if (poll(&fd, 1, wait_ms(deadline)) > 0)
            proc_fill(p);
    }
}

void proc_close_input(struct proc *p)
{
    if (p->open)
        fd_close(&p->to);
}

/* Whether the child has exited (or cannot be waited for), without reaping it. */
static bool proc_exited(const struct proc *p)
{
    siginfo_t info;
    int r;
    do {
        info.si_pid = 0;
        r = waitid(P_PID, (id_t)p->pid, &info, WEXITED | WNOHANG | WNOWAIT);
    } while (r < 0 && errno == EINTR);
    return r < 0 || info.si_pid;
}

struct proc_exit proc_wait(struct proc *p, long long deadline)
{
    if (p->pid <= 0)
        return p->exit;
    bool running;
    /* Waiting without reaping, so that the group id cannot be reused before the group is killed. */
    while ((running = !proc_exited(p)) && (deadline < 0 || clock_us() < deadline)) {
        /* Keep reading, so that a child still writing its output can finish. */
        struct pollfd fd = { p->from, POLLIN, 0 };
        if (poll(&fd, 1, EXIT_POLL_MS) > 0)
            proc_fill(p);
    }
    /* Its own group, with whatever it started; for a child in the caller's group -pid names none. */
    kill(-p->pid, SIGKILL);
    kill(p->pid, SIGKILL);
    int status = 0;
    pid_t reaped;
    while ((reaped = waitpid(p->pid, &status, 0)) < 0 && errno == EINTR)
        continue;
    live_set(p->pid, 0);
    p->pid = 0;
    /* Reaped by someone else, how it ended is unknown: it must not pass for a clean exit. */
    if (reaped < 0)
        return p->exit = (struct proc_exit){ 0 };
    return p->exit = (struct proc_exit){
        .exited = WIFEXITED(status),
        .code = WIFEXITED(status) ? WEXITSTATUS(status) : 0,
        .signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0,
        .killed = running && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
    };
}

static void describe_exit(struct proc_exit e, char *why, size_t whylen)
{
    if (e.exited)
        snprintf(why, whylen, "exited with status %d", e.code);
    else if (e.signal)
        snprintf(why, whylen, "killed by signal %d", e.signal);
    else
        snprintf(why, whylen, "ended");
}

void proc_end(struct proc *p, long long grace, char *why, size_t whylen)
{
    /* A zeroed struct proc never ran: its descriptors 0 are not its own. */
    if (!p->open)
        return;
    fd_close(&p->to);
    struct proc_exit e = proc_wait(p, clock_us() + grace);
    if (why)
        describe_exit(e, why, whylen);
    fd_close(&p->from);
    free(p->buf);
    *p = (struct proc){ .to = -1, .from = -1 };
}
