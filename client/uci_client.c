/* The UCI client: engine handshake, new game and go/bestmove exchanges over engine_process. */
#include "uci_client.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/text.h"
#include "../util/clock.h"

enum {
    MAX_ARGS = 64,
    EXIT_GRACE = 200000,   /* for an engine whose output ended to finish exiting, or to obey quit */
};

static void set_error(struct uci_client *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_error(struct uci_client *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->error, sizeof c->error, fmt, ap);
    va_end(ap);
}

/* The engine failed: it is ended at once and must be started again before it is used again. */
static enum uci_status broken(struct uci_client *c, enum uci_status st)
{
    char why[64] = "not running";
    proc_end(&c->proc, st == UCI_CRASHED ? EXIT_GRACE : 0, why, sizeof why);
    c->ready = false;
    if (st == UCI_CRASHED) {
        size_t n = strlen(c->error);
        snprintf(c->error + n, sizeof c->error - n, " (%s)", why);
    }
    return st;
}

/* What a failed read means while waiting for `what`. */
static enum uci_status read_failure(struct uci_client *c, enum proc_read r, const char *what, long long waited)
{
    if (r == PROC_CANCELLED)
        return UCI_CANCELLED;
    if (r == PROC_EOF) {
        set_error(c, "crashed while %s", what);
        return broken(c, UCI_CRASHED);
    }
    set_error(c, "gave no answer within %.3g s while %s", (double)waited / 1e6, what);
    return broken(c, UCI_TIMEOUT);
}

static enum uci_status tell(struct uci_client *c, const char *line)
{
    if (proc_send(&c->proc, line, clock_us() + c->timeout))
        return UCI_OK;
    set_error(c, "crashed: stopped taking input");
    return broken(c, UCI_CRASHED);
}

/* Whether an 'option name UCI_Variant ...' line lists the variant among its 'var' values. */
static bool lists_variant(const char *line, const char *variant)
{
    size_t n = strlen(variant);
    for (const char *p = strstr(line, " var "); p; p = strstr(p + 1, " var ")) {
        const char *name = p + 5;
        if (!strncmp(name, variant, n) && (name[n] == ' ' || name[n] == 0))
            return true;
    }
    return false;
}

/* Notes the name of an 'option name <name> type ...' line (names may hold spaces). */
static void note_option(struct uci_client *c, const char *line)
{
    const char *name = line + 12, *type = strstr(name, " type ");
    size_t n = strlen(c->listed), len = type ? (size_t)(type - name) : strlen(name);
    if (n + len + 2 <= sizeof c->listed)
        snprintf(c->listed + n, sizeof c->listed - n, "%.*s\n", (int)len, name);
}

bool uci_client_has_option(const struct uci_client *c, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = c->listed; *p; p = strchr(p, '\n') + 1)
        if (!strncmp(p, name, len) && p[len] == '\n')
            return true;
    return false;
}

/* Reads lines until one is exactly `want`; with a variant, notes whether an 'option name UCI_Variant'
 * line leaves it out. */
static enum uci_status expect(struct uci_client *c, const char *want, const char *what, const atomic_bool *cancel,
                              const char *variant, bool *unsupported)
{
    long long deadline = clock_us() + c->timeout;
    const char *line;
    for (;;) {
        enum proc_read r = proc_read_line(&c->proc, deadline, cancel, &line);
        if (r != PROC_LINE)
            return read_failure(c, r, what, c->timeout);
        if (!strcmp(line, want))
            return UCI_OK;
        if (!strncmp(line, "option name ", 12))
            note_option(c, line);
        if (variant && !strncmp(line, "option name UCI_Variant ", 24))
            *unsupported = !lists_variant(line, variant);
    }
}

static enum uci_status spawn(struct uci_client *c, const char *command)
{
    char *cmd = strdup(command), *argv[MAX_ARGS + 1], *save;
    int argc = 0;
    if (!cmd) {
        set_error(c, "cannot start: out of memory");
        return UCI_FATAL;
    }
    for (char *t = strtok_r(cmd, " ", &save); t && argc < MAX_ARGS; t = strtok_r(NULL, " ", &save))
        argv[argc++] = t;
    argv[argc] = NULL;
    /* In a group of its own: a ^C to the caller must not reach it, and its helpers die with it. */
    bool started = argc && proc_start(&c->proc, argv, true, c->error, sizeof c->error);
    free(cmd);
    if (!started) {
        if (!argc)
            set_error(c, "has no command");
        return UCI_FATAL;
    }
    return UCI_OK;
}

enum uci_status uci_client_start(struct uci_client *c, const char *cmd, const struct uci_option *options,
                                 int noptions, const char *variant, const atomic_bool *cancel)
{
    if (c->ready)
        return UCI_OK;
    /* A start cancelled half-way left it running, but not ready. */
    proc_end(&c->proc, 0, NULL, 0);
    enum uci_status st = spawn(c, cmd);
    bool unsupported = false;
    c->listed[0] = 0;
    if (st == UCI_OK)
        st = tell(c, "uci");
    if (st == UCI_OK)
        st = expect(c, "uciok", "waiting for uciok", cancel, variant, &unsupported);
    for (int i = 0; i < noptions && st == UCI_OK; i++)
        st = uci_client_set_option(c, options[i].name, options[i].value);
    /* An option such as VariantPath may have added the variant: the engine is asked for its list again. */
    if (st == UCI_OK && unsupported && noptions) {
        unsupported = false;
        c->listed[0] = 0;
        st = tell(c, "uci");
        if (st == UCI_OK)
            st = expect(c, "uciok", "waiting for uciok after the options", cancel, variant, &unsupported);
    }
    if (st == UCI_OK && unsupported) {
        set_error(c, "does not play the variant '%s' (not in its UCI_Variant option)", variant);
        return broken(c, UCI_FATAL);
    }
    if (st == UCI_OK)
        st = uci_client_set_option(c, "UCI_Variant", variant);
    if (st == UCI_OK)
        st = tell(c, "isready");
    if (st == UCI_OK)
        st = expect(c, "readyok", "waiting for readyok after the options", cancel, NULL, NULL);
    c->ready = st == UCI_OK;
    return st;
}

enum uci_status uci_client_new_game(struct uci_client *c, const atomic_bool *cancel)
{
    enum uci_status st = tell(c, "ucinewgame");
    if (st == UCI_OK)
        st = tell(c, "isready");
    if (st == UCI_OK)
        st = expect(c, "readyok", "waiting for readyok after ucinewgame", cancel, NULL, NULL);
    return st;
}

static long clamp(long n, long limit)
{
    return n < -limit ? -limit : n > limit ? limit : n;
}

/* 'info ... [depth <d>] ... score cp <n>' or 'score mate <n>' into r. */
static void read_score(const char *line, struct uci_reply *r)
{
    const char *p = strstr(line, " score "), *string = strstr(line, " string ");
    /* 'info string' is free text to the end of the line. */
    if (!p || (string && string < p))
        return;
    bool mate = !strncmp(p, " score mate ", 12);
    if (!mate && strncmp(p, " score cp ", 10))
        return;
    const char *number = p + (mate ? 12 : 10);
    char *end;
    long n = strtol(number, &end, 10);
    if (end == number)
        return;
    r->has_score = true;
    const char *depth = strstr(line, " depth ");
    r->depth = depth && (!string || depth < string) ? atoi(depth + 7) : 0;
    if (!mate)
        r->score = (int)clamp(n, UCI_MATE_SCORE);
    else
        r->score = (int)(n > 0 ? UCI_MATE_SCORE - clamp(n, 1000) : -UCI_MATE_SCORE - clamp(n, 1000));
}

/* Reads the search's output to bestmove, until the deadline (-1: none) or *cancel. */
static enum uci_status await_bestmove(struct uci_client *c, long long start, long long deadline,
                                      const atomic_bool *cancel, struct uci_reply *r)
{
    const char *line;
    for (;;) {
        enum proc_read rd = proc_read_line(&c->proc, deadline, cancel, &line);
        if (rd != PROC_LINE)
            return read_failure(c, rd, "thinking", deadline - start);
        if (!strncmp(line, "info ", 5)) {
            read_score(line, r);
            if (c->on_info)
                c->on_info(c->info_ctx, line);
        } else if (!strncmp(line, "bestmove", 8) && (line[8] == ' ' || line[8] == 0)) {
            r->elapsed = clock_us() - start;
            sscanf(line + 8, "%31s", r->move);
            return UCI_OK;
        }
    }
}

enum uci_status uci_client_go(struct uci_client *c, const char *position, const char *go_args, long long limit,
                              const atomic_bool *cancel, struct uci_reply *r)
{
    *r = (struct uci_reply){ 0 };
    struct text go = { 0 };
    text_printf(&go, "go%s", go_args);
    enum uci_status st = tell(c, position);
    if (st == UCI_OK)
        st = tell(c, text_str(&go));
    text_free(&go);
    if (st != UCI_OK)
        return st;
    long long start = clock_us();
    if (limit == UCI_UNTIL_CANCELLED)
        return await_bestmove(c, start, -1, cancel, r);
    return await_bestmove(c, start, start + (limit >= 0 ? limit : c->timeout), cancel, r);
}

enum uci_status uci_client_stop(struct uci_client *c, struct uci_reply *r)
{
    *r = (struct uci_reply){ 0 };
    enum uci_status st = tell(c, "stop");
    long long start = clock_us();
    return st == UCI_OK ? await_bestmove(c, start, start + c->timeout, NULL, r) : st;
}

enum uci_status uci_client_ask(struct uci_client *c, const char *command, const char *until,
                               void (*each)(void *ctx, const char *line), void *ctx)
{
    enum uci_status st = tell(c, command);
    long long deadline = clock_us() + c->timeout;
    const char *line;
    while (st == UCI_OK) {
        enum proc_read r = proc_read_line(&c->proc, deadline, NULL, &line);
        if (r != PROC_LINE) {
            char what[128];
            snprintf(what, sizeof what, "waiting for %s", until);
            return read_failure(c, r, what, c->timeout);
        }
        if (!strcmp(line, until))
            break;
        each(ctx, line);
    }
    return st;
}

enum uci_status uci_client_set_option(struct uci_client *c, const char *name, const char *value)
{
    struct text line = { 0 };
    text_printf(&line, "setoption name %s value %s", name, value);
    enum uci_status st = tell(c, text_str(&line));
    text_free(&line);
    return st;
}

void uci_client_end(struct uci_client *c, bool healthy)
{
    if (c->proc.pid && healthy)
        proc_send(&c->proc, "quit", clock_us() + EXIT_GRACE);
    proc_end(&c->proc, healthy ? EXIT_GRACE : 0, NULL, 0);
    c->ready = false;
}
