#include "player.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    MAX_ARGS = 64,
    EXIT_GRACE = 200000,   /* for an engine whose output ended to finish exiting, or to obey quit */
};

static void set_error(struct player *pl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_error(struct player *pl, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pl->error, sizeof pl->error, fmt, ap);
    va_end(ap);
}

/* The engine failed: it is ended at once and must be started again before its next game. */
static enum player_status broken(struct player *pl, enum player_status st)
{
    char why[64] = "not running";
    proc_end(&pl->proc, st == PLAYER_CRASHED ? EXIT_GRACE : 0, why, sizeof why);
    pl->ready = false;
    if (st == PLAYER_CRASHED) {
        size_t n = strlen(pl->error);
        snprintf(pl->error + n, sizeof pl->error - n, " (%s)", why);
    }
    return st;
}

/* What a failed read means while waiting for `what`. */
static enum player_status read_failure(struct player *pl, enum proc_read r, const char *what, long long waited)
{
    if (r == PROC_CANCELLED)
        return PLAYER_CANCELLED;
    if (r == PROC_EOF) {
        set_error(pl, "crashed while %s", what);
        return broken(pl, PLAYER_CRASHED);
    }
    set_error(pl, "gave no answer within %.3g s while %s", (double)waited / 1e6, what);
    return broken(pl, PLAYER_TIMEOUT);
}

static enum player_status tell(struct player *pl, const char *line)
{
    if (proc_send(&pl->proc, line, proc_now() + pl->conf->timeout))
        return PLAYER_OK;
    set_error(pl, "crashed: stopped taking input");
    return broken(pl, PLAYER_CRASHED);
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

/* Reads lines until one is exactly `want`; with a variant, notes whether an 'option name UCI_Variant'
 * line leaves it out. */
static enum player_status expect(struct player *pl, const char *want, const char *what, const atomic_bool *cancel,
                                 const char *variant, bool *unsupported)
{
    long long deadline = proc_now() + pl->conf->timeout;
    const char *line;
    for (;;) {
        enum proc_read r = proc_read_line(&pl->proc, deadline, cancel, &line);
        if (r != PROC_LINE)
            return read_failure(pl, r, what, pl->conf->timeout);
        if (!strcmp(line, want))
            return PLAYER_OK;
        if (variant && !strncmp(line, "option name UCI_Variant ", 24))
            *unsupported = !lists_variant(line, variant);
    }
}

static enum player_status spawn(struct player *pl)
{
    char cmd[sizeof pl->conf->cmd], *argv[MAX_ARGS + 1], *save;
    int argc = 0;
    snprintf(cmd, sizeof cmd, "%s", pl->conf->cmd);
    for (char *t = strtok_r(cmd, " ", &save); t && argc < MAX_ARGS; t = strtok_r(NULL, " ", &save))
        argv[argc++] = t;
    argv[argc] = NULL;
    /* In a group of its own: a ^C to the runner must not reach it, and its helpers die with it. */
    if (!argc || !proc_start(&pl->proc, argv, true, pl->error, sizeof pl->error)) {
        if (!argc)
            set_error(pl, "has no command");
        return PLAYER_FATAL;
    }
    return PLAYER_OK;
}

enum player_status player_start(struct player *pl, const char *variant, const atomic_bool *cancel)
{
    if (pl->ready)
        return PLAYER_OK;
    enum player_status st = spawn(pl);
    bool unsupported = false;
    if (st == PLAYER_OK)
        st = tell(pl, "uci");
    if (st == PLAYER_OK)
        st = expect(pl, "uciok", "waiting for uciok", cancel, variant, &unsupported);
    struct text line_out = { 0 };
    for (int i = 0; i < pl->conf->noptions && st == PLAYER_OK; i++) {
        text_clear(&line_out);
        text_printf(&line_out, "setoption name %s value %s", pl->conf->option[i].name, pl->conf->option[i].value);
        st = tell(pl, text_str(&line_out));
    }
    /* An option such as VariantPath may have added the variant: the engine is asked for its list again. */
    if (st == PLAYER_OK && unsupported && pl->conf->noptions) {
        unsupported = false;
        st = tell(pl, "uci");
        if (st == PLAYER_OK)
            st = expect(pl, "uciok", "waiting for uciok after the options", cancel, variant, &unsupported);
    }
    if (st == PLAYER_OK && unsupported) {
        text_free(&line_out);
        set_error(pl, "does not play the variant '%s' (not in its UCI_Variant option)", variant);
        return broken(pl, PLAYER_FATAL);
    }
    text_clear(&line_out);
    text_printf(&line_out, "setoption name UCI_Variant value %s", variant);
    if (st == PLAYER_OK)
        st = tell(pl, text_str(&line_out));
    text_free(&line_out);
    if (st == PLAYER_OK)
        st = tell(pl, "isready");
    if (st == PLAYER_OK)
        st = expect(pl, "readyok", "waiting for readyok after the options", cancel, NULL, NULL);
    pl->ready = st == PLAYER_OK;
    return st;
}

enum player_status player_new_game(struct player *pl, const atomic_bool *cancel)
{
    enum player_status st = tell(pl, "ucinewgame");
    if (st == PLAYER_OK)
        st = tell(pl, "isready");
    if (st == PLAYER_OK)
        st = expect(pl, "readyok", "waiting for readyok after ucinewgame", cancel, NULL, NULL);
    return st;
}

static long clamp(long n, long limit)
{
    return n < -limit ? -limit : n > limit ? limit : n;
}

/* 'info ... score cp <n>' or 'score mate <n>' into r. */
static void read_score(const char *line, struct reply *r)
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
    if (!mate)
        r->score = (int)clamp(n, MATE_SCORE);
    else
        r->score = (int)(n > 0 ? MATE_SCORE - clamp(n, 1000) : -MATE_SCORE - clamp(n, 1000));
}

enum player_status player_go(struct player *pl, const char *position, const char *go_args, long long limit,
                             const atomic_bool *cancel, struct reply *r)
{
    *r = (struct reply){ 0 };
    struct text go = { 0 };
    text_printf(&go, "go%s", go_args);
    enum player_status st = tell(pl, position);
    if (st == PLAYER_OK)
        st = tell(pl, text_str(&go));
    text_free(&go);
    if (st != PLAYER_OK)
        return st;
    long long start = proc_now(), wait = limit >= 0 ? limit : pl->conf->timeout;
    const char *line;
    for (;;) {
        enum proc_read rd = proc_read_line(&pl->proc, start + wait, cancel, &line);
        if (rd != PROC_LINE)
            return read_failure(pl, rd, "thinking", wait);
        if (!strncmp(line, "info ", 5)) {
            read_score(line, r);
        } else if (!strncmp(line, "bestmove", 8) && (line[8] == ' ' || line[8] == 0)) {
            r->elapsed = proc_now() - start;
            sscanf(line + 8, "%31s", r->move);
            return PLAYER_OK;
        }
    }
}

void player_stop(struct player *pl, bool healthy)
{
    if (pl->proc.pid && healthy)
        proc_send(&pl->proc, "quit", proc_now() + EXIT_GRACE);
    proc_end(&pl->proc, healthy ? EXIT_GRACE : 0, NULL, 0);
    pl->ready = false;
}
