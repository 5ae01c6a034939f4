/* The UCI server's loop: reads the GUI's commands (an input thread acts on stop, ponderhit, quit and
 * isready as they arrive, uci_input.c) and runs each in turn; an engine made once can run many
 * sessions (uci_new, uci_session, uci_reset). */
#include "uci.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../rules/registry.h"
#include "uci_engine.h"

struct command {
    const char *name;
    void (*run)(struct uci *u, char **tok, int n);
    bool while_busy;   /* run at once while a job runs */
};

/* stop, ponderhit and quit are acted on by the input thread as soon as they are read (uci_hear). */
static const struct command commands[] = {
    { "uci", cmd_uci, false },         { "debug", cmd_debug, true },
    { "isready", cmd_isready, true },  { "setoption", cmd_setoption, false },
    { "ucinewgame", cmd_ucinewgame, false }, { "position", cmd_position, false },
    { "go", cmd_go, false },           { "stop", NULL, true },
    { "ponderhit", NULL, true },       { "variant", cmd_variant, false },
    { "d", cmd_d, false },             { "variants", cmd_variants, false },
    { "check", cmd_check, false },     { "quit", NULL, true },
    { "eval", cmd_eval, false },       { "bench", cmd_bench, false },
};

static const char *const SPACE = " \t\r\n\v\f";

static const struct command *command_named(const char *word, size_t len)
{
    for (size_t c = 0; c < sizeof commands / sizeof *commands; c++)
        if (strlen(commands[c].name) == len && !memcmp(word, commands[c].name, len))
            return &commands[c];
    return NULL;
}

/* The line's command: as the UCI spec says, unknown words before a command are skipped. */
static const struct command *command_of_line(const char *line, size_t len)
{
    if (memchr(line, 0, len))
        return NULL;
    for (const char *w = line + strspn(line, SPACE); *w; w += strspn(w, SPACE)) {
        size_t n = strcspn(w, SPACE);
        const struct command *c = command_named(w, n);
        if (c)
            return c;
        w += n;
    }
    return NULL;
}

bool uci_line_is_isready(const char *line, size_t len)
{
    const struct command *c = command_of_line(line, len);
    return c && c->run == cmd_isready;
}

/* The input thread's hook, input's lock held: stop, ponderhit and quit act at once on the go they
 * follow, and isready is answered at once while the loop waits. */
static enum input_action uci_hear(void *ctx, const char *line, size_t len, bool idle)
{
    struct uci *u = ctx;
    const struct command *c = command_of_line(line, len);
    const char *name = c ? c->name : "";
    job_heard(u, name);
    if (!strcmp(name, "stop") || !strcmp(name, "ponderhit"))
        return INPUT_DONE;
    if (!strcmp(name, "quit"))
        return INPUT_LAST;
    if (!strcmp(name, "isready") && idle && u->job != JOB_STOPPING) {
        say("readyok");
        return INPUT_DONE;
    }
    return INPUT_QUEUE;
}

/* Runs one line of len bytes; returns false on quit. */
static bool uci_execute(struct uci *u, char *line, size_t len)
{
    char *tok[MAX_TOKENS + 1];
    char *save;
    int n = 0;
    if (memchr(line, 0, len)) {
        say_error("line contains a NUL byte");
        return true;
    }
    for (char *t = strtok_r(line, SPACE, &save); t && n <= MAX_TOKENS; t = strtok_r(NULL, SPACE, &save))
        tok[n++] = t;
    if (n > MAX_TOKENS) {
        say_error("line has too many words");
        return true;
    }
    for (int i = 0; i < n; i++) {
        const struct command *c = command_named(tok[i], strlen(tok[i]));
        if (!c)
            continue;
        if (!c->while_busy)
            job_join(u);
        /* quit has already stopped the job unless it is a perft, which ends first (uci_hear). */
        if (!strcmp(c->name, "quit")) {
            job_join(u);
            return false;
        }
        if (c->run)
            c->run(u, tok + i, n - i);
        return true;
    }
    if (n) {
        char err[ERR_LEN];
        snprintf(err, sizeof err, "unknown command '%.64s'", tok[0]);
        say_error(err);
    }
    return true;
}

void uci_reset(struct uci *u)
{
    u->debug = false;
    u->quitting = false;
    u->gos_read = u->gos_run = u->stop_through = u->ponderhit_through = 0;
    u->weights = eval_weights_default;
    u->book_draws = 0;
    /* A new game of the first variant, from the shelf if another is in use. */
    if (u->game.v != registry_get(0))
        select_variant(u, registry_get(0)->name);
    settings_reset(u);
    table_clear(u);
    /* A game still at its start is kept: setting it up again costs a new position. */
    char fen[2048];
    game_fen(&u->game, fen, sizeof fen);
    if (strcmp(fen, u->game.v->start_fen))
        cmd_ucinewgame(u, NULL, 0);
}

void uci_free(struct uci *u)
{
    if (!u)
        return;
    input_free(&u->input);
    book_close(&u->book);
    pool_free(u->pool);
    pool_free(u->bench_pool);
    game_free(&u->game);
    shelf_free(u);
    nnue_choice_clear(&u->nets);
    free(u);
}

struct uci *uci_new(char *err, size_t errlen)
{
    struct uci *u = calloc(1, sizeof *u);
    if (u && (!(u->pool = pool_new()) || !(u->bench_pool = pool_new()))) {
        pool_free(u->pool);
        free(u);
        u = NULL;
    }
    if (!u) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    u->book_seed = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
    /* The table and threads first, which the options' setters resize; then every option's default. */
    u->threads = DEFAULT_THREADS;
    u->hash_mb = TT_DEFAULT_MB;
    u->game.nets = &u->nets;
    bool ready = registry_init(err, errlen) && game_init(&u->game, registry_get(0), false, err, errlen);
    if (ready && !(ready = pool_configure(u->pool, u->threads, u->hash_mb)))
        snprintf(err, errlen, "out of memory for the hash table");
    if (!ready) {
        uci_free(u);
        return NULL;
    }
    uci_reset(u);
    return u;
}

bool uci_session(struct uci *u, FILE *in)
{
    if (!input_start(&u->input, in, uci_hear, u))
        return false;
    char *line;
    size_t len;
    bool running = true;
    while (running && (line = input_next(&u->input, &len))) {
        running = uci_execute(u, line, len);
        free(line);
    }
    /* At the end of input a count or timed search still finishes, so that piped scripts see it. */
    job_join(u);
    input_finish(&u->input);
    return true;
}

int uci_loop(FILE *in)
{
    char err[ERR_LEN];
    struct uci *u = uci_new(err, sizeof err);
    if (!u) {
        fprintf(stderr, "sennight: cannot start: %s\n", err);
        return 1;
    }
    bool ok = uci_session(u, in);
    if (!ok)
        fprintf(stderr, "sennight: cannot start: no thread for the input\n");
    uci_free(u);
    return ok ? 0 : 1;
}
