/* `sennight gui`: the arguments, the engines, the server, the ready line, the browser, the signals. */
#include "gui.h"

#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "../client/engine_process.h"
#include "../rules/registry.h"
#include "engine_list.h"
#include "hosts.h"
#include "seats.h"
#include "server.h"
#include "sessions.h"

const char gui_usage[] =
    "usage: sennight gui [--port N] [--host ADDR [--name HOST]...] [--engine \"CMD\"]... [--no-browser]\n";

enum { MAX_NAMES = 16 };

/* A host name as a browser sends it in Host: no port, no path, no spaces. */
static bool name_valid(const char *name)
{
    return *name && strlen(name) < 200 && !name[strcspn(name, ":/ []@?#\\")];
}

static int usage(void)
{
    fputs(gui_usage, stderr);
    return 2;
}

/* An engine's name in the page: its program's file name. */
static void engine_add(struct gui_engine *e, const char *cmd)
{
    const char *program = cmd + strspn(cmd, " "), *slash;
    size_t len = strcspn(program, " ");
    while ((slash = memchr(program, '/', len)))
        len -= (size_t)(slash + 1 - program), program = slash + 1;
    snprintf(e->name, sizeof e->name, "%.*s", (int)len, program);
    snprintf(e->cmd, sizeof e->cmd, "%s", cmd);
}

/* xdg-open, when there is one; its output goes nowhere, so that stdout holds the ready line alone. */
static pid_t open_browser(const char *url)
{
    posix_spawn_file_actions_t files;
    posix_spawnattr_t attr;
    sigset_t none;
    pid_t pid = 0;
    char *argv[] = { "xdg-open", (char *)url, NULL };
    extern char **environ;
    sigemptyset(&none);
    posix_spawn_file_actions_init(&files);
    for (int fd = 0; fd <= 2; fd++)
        posix_spawn_file_actions_addopen(&files, fd, "/dev/null", fd ? O_WRONLY : O_RDONLY, 0);
    posix_spawnattr_init(&attr);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
    if (posix_spawnp(&pid, "xdg-open", &files, &attr, argv, environ))
        pid = 0;
    posix_spawn_file_actions_destroy(&files);
    posix_spawnattr_destroy(&attr);
    return pid;
}

int gui_main(int argc, char **argv)
{
    static struct gui_engine engines[MAX_GUI_ENGINES];
    int nengines = 1, port = 0, bound, nnames = 0;
    const char *host = "127.0.0.1", *names[MAX_NAMES];
    bool network = false;
    bool browser = true;
    char err[4096];
    engine_add(&engines[0], "/proc/self/exe");
    snprintf(engines[0].name, sizeof engines[0].name, "Sennight");
    for (int i = 0; i < argc; i++) {
        bool value = i + 1 < argc;
        char *end;
        if (!strcmp(argv[i], "--port") && value) {
            port = (int)strtol(argv[++i], &end, 10);
            if (*end || port < 0 || port > 65535 || end == argv[i])
                return usage();
        } else if (!strcmp(argv[i], "--host") && value) {
            host = argv[++i];
            network = true;
        } else if (!strcmp(argv[i], "--name") && value && nnames < MAX_NAMES && name_valid(argv[i + 1])) {
            names[nnames++] = argv[++i];
        } else if (!strcmp(argv[i], "--engine") && value && nengines < MAX_GUI_ENGINES) {
            engine_add(&engines[nengines++], argv[++i]);
        } else if (!strcmp(argv[i], "--no-browser")) {
            browser = false;
        } else {
            return usage();
        }
    }
    if (nnames && !network) {
        fputs("sennight gui: --name names the server on the network: give --host too\n", stderr);
        return 2;
    }
    if (!registry_init(err, sizeof err)) {
        fprintf(stderr, "sennight gui: %s\n", err);
        return 1;
    }
    /* The signals wait for sigwait below: every thread started from here on has them blocked. */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    signal(SIGPIPE, SIG_IGN);
    atexit(proc_kill_all);
    /* A session's game tables are large blocks (0.9 MB on 169 cells): kept mapped on their own, they
     * go back to the system when the session ends. glibc would otherwise raise its threshold after
     * the first free and carve them from heaps that the many connection threads keep fragmented
     * (the server grew to about 350 MB for 16 sessions). */
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    seats_require_tokens(network);
    engine_list_set(engines, nengines);
    sessions_start();
    hosts_init(host, names, nnames, network);
    if (!server_start(host, port, &bound, err, sizeof err)) {
        fprintf(stderr, "sennight gui: %s\n", err);
        sessions_stop();
        return 1;
    }
    hosts_listen(bound);
    /* 0.0.0.0 is every address: this machine's browser goes through the loopback one. */
    char url[300];
    snprintf(url, sizeof url, "http://%s:%d/", strcmp(host, "0.0.0.0") ? host : "127.0.0.1", bound);
    if (network)
        printf("Sennight GUI: %s (listening on the network at %s port %d: invite links let others play)\n", url,
               host, bound);
    else
        printf("Sennight GUI: %s\n", url);
    fflush(stdout);
    pid_t opener = browser ? open_browser(url) : 0;
    int sig;
    sigwait(&stop, &sig);
    sessions_stop();
    server_stop();
    if (opener > 0)
        waitpid(opener, NULL, WNOHANG);
    return 0;
}
