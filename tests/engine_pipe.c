/* The suites' way to run the engine under test: engine_process with millisecond timeouts. */
#include "engine_pipe.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "../util/clock.h"

static long long deadline_ms(int timeout_ms)
{
    return clock_us() + timeout_ms * 1000LL;
}

const char *pipe_engine_path(void)
{
    const char *path = getenv("SENNIGHT");
    return path && *path ? path : "./sennight";
}

void pipe_start(struct proc *p, const char *const *args)
{
    static bool registered;
    /* A test that fails half-way leaves without proc_end, and an engine in the middle of a long
     * perft would otherwise outlive it for hours. */
    if (!registered)
        registered = !atexit(proc_kill_all);
    /* A write to an engine that has died must fail, not kill the test. */
    signal(SIGPIPE, SIG_IGN);
    char *argv[PIPE_MAX_ARGS + 2] = { (char *)pipe_engine_path() }, err[256];
    int n = 0;
    while (args && args[n] && n < PIPE_MAX_ARGS) {
        argv[n + 1] = (char *)args[n];
        n++;
    }
    ck_assert_msg(!args || !args[n], "more than %d arguments", PIPE_MAX_ARGS);
    /* In the test's process group, which Check kills when the test times out. */
    ck_assert_msg(proc_start(p, argv, false, err, sizeof err), "%s (set SENNIGHT)", err);
}

bool pipe_write(struct proc *p, const char *data, size_t len, int timeout_ms)
{
    return proc_write(p, data, len, deadline_ms(timeout_ms));
}

bool pipe_send(struct proc *p, const char *line, int timeout_ms)
{
    return proc_send(p, line, deadline_ms(timeout_ms));
}

struct proc_exit pipe_wait(struct proc *p, int timeout_ms)
{
    return proc_wait(p, deadline_ms(timeout_ms));
}

const char *pipe_read_line(struct proc *p, int timeout_ms)
{
    const char *line;
    return proc_read_line(p, deadline_ms(timeout_ms), NULL, &line) == PROC_LINE ? line : NULL;
}

int pipe_run(const char *const *args, char *out, size_t outlen, char *err, size_t errlen, int *err_lines)
{
    char path[] = "/tmp/sennight-tune-err-XXXXXX";
    int fd = mkstemp(path), saved = dup(STDERR_FILENO);
    ck_assert(fd >= 0 && saved >= 0);
    /* The child inherits standard error from this process while it starts. */
    fflush(stderr);
    ck_assert(dup2(fd, STDERR_FILENO) >= 0);
    struct proc p;
    pipe_start(&p, args);
    dup2(saved, STDERR_FILENO);
    close(saved);
    out[0] = 0;
    for (const char *line; (line = pipe_read_line(&p, (int)(test_timeout(60) * 1000)));)
        snprintf(out + strlen(out), outlen - strlen(out), "%s\n", line);
    struct proc_exit x = pipe_wait(&p, (int)(test_timeout(60) * 1000));
    proc_end(&p, 0, NULL, 0);
    ck_assert(x.exited);
    FILE *f = fdopen(fd, "r");
    ck_assert(f && !fseek(f, 0, SEEK_SET));
    *err_lines = 0;
    err[0] = 0;
    for (char line[1024]; fgets(line, sizeof line, f); ++*err_lines)
        if (!*err_lines)
            snprintf(err, errlen, "%s", line);
    fclose(f);
    unlink(path);
    return x.code;
}
