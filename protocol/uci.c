/* The UCI command loop: reads the GUI's commands, runs perfts and searches on their own threads and
 * answers; each option is declared once, in the option table. */
#include "uci.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include <xxhash.h>

#include "../bench/bench.h"
#include "../books/book.h"
#include "../engine/game.h"
#include "../engine/skill.h"
#include "../engine/threads.h"
#include "../eval/trace.h"
#include "../engine/score.h"
#include "../eval/nnue.h"
#include "../eval/weights.h"
#include "../rules/registry.h"
#include "../rules/diagram.h"
#include "../util/file.h"
#include "../util/number.h"
#include "../util/version.h"
#include "uci_input.h"
#include "uci_options.h"

enum { MAX_TOKENS = 8192, ERR_LEN = 512, MAX_PERFT_DEPTH = 30, MAX_OVERHEAD = 5000, MAX_BOOK_DEPTH = 1000 };
/* The defaults of the spin options that uci_loop sets up before any setoption. */
enum { DEFAULT_THREADS = 1, DEFAULT_MULTIPV = 1, DEFAULT_OVERHEAD = 10 };

/* The life of the job the loop started last: RUNNING, STOPPING once a stop or quit has reached it,
 * ENDED once its own thread has said its last line, NONE once the loop has joined it. */
enum job_state { JOB_NONE, JOB_RUNNING, JOB_STOPPING, JOB_ENDED };
/* What it is. Only stop ends an infinite search, only stop or ponderhit a pondering one; quit lets
 * a perft finish (scripts pipe "go perft N", "quit"). */
enum job_kind { JOB_SEARCH, JOB_INFINITE, JOB_PONDER, JOB_PERFT, JOB_BENCH };
/* What job_update is told of: the job started, ended or was joined, or what it is due changed (a
 * stop, quit or ponderhit read, or the loop stopping an endless search). */
enum job_event { JOB_STARTED, JOB_ENDED_NOW, JOB_JOINED, JOB_DUE_CHANGED };

struct uci {
    struct game game;
    bool debug;
    pthread_t worker;    /* a perft's or bench's thread */
    atomic_bool stop;
    int perft_depth;
    int bench_args[3];   /* depth, threads, hash MB */
    struct search_pool pool;
    struct search_pool bench_pool;  /* bench's own, so that it leaves the game's hash alone */
    struct eval_weights weights; /* what the next search and eval use (option Evaluation) */
    char weights_path[4096];     /* EvalWeights: "" for the variant's built-in weights */
    /* The input thread answers stop, ponderhit and isready while the loop waits, so the job's state
     * is shared with it under input's lock, and changed by job_update alone. The counts tie stop and
     * ponderhit to the go (or bench) commands read before them: a stop read after the n-th go stops
     * that job even if the loop has not started it yet. */
    struct uci_input input;
    enum job_state job;
    enum job_kind kind;
    bool quitting;       /* quit was read: every job but a perft stops */
    uint64_t gos_read;   /* go and bench commands read by the input thread */
    uint64_t gos_run;    /* ... and started by the loop: the job is number gos_run */
    uint64_t stop_through, ponderhit_through;  /* the gos_read a stop, a ponderhit was read after */
    int threads, multipv;
    size_t hash_mb;
    int64_t move_overhead;
    bool ponder;
    struct book book;           /* the current variant's book (load_book); empty if none */
    char book_path[4096];       /* BookFile: "" for none */
    bool own_book;
    bool analyse;              /* UCI_AnalyseMode: the GUI analyses, so no book move */
    bool limit_strength;       /* UCI_LimitStrength: play about as strong as elo */
    bool use_nnue;             /* UseNNUE */
    int elo;
    enum book_variety book_variety;
    int book_depth;             /* the last fullmove number the book is used for; 0: no limit */
    uint64_t book_seed, book_draws;
};

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

/* One whole line to stdout, never interleaved with the worker's lines. */
static void say(const char *fmt, ...)
{
    va_list ap;
    pthread_mutex_lock(&out_lock);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
    pthread_mutex_unlock(&out_lock);
}

static void say_error(const char *msg)
{
    /* Multi-line messages (variant files) become one line each. */
    for (const char *s = msg; *s;) {
        size_t n = strcspn(s, "\n");
        say("info string error: %.*s", (int)n, s);
        s += n + (s[n] == '\n');
    }
}

static bool line_is_isready(const char *line, size_t len);

/* With input's lock held: a stop was read after the job's go, or quit and the job is no perft. */
static bool job_stop_due(const struct uci *u)
{
    return u->gos_run <= u->stop_through || (u->quitting && u->kind != JOB_PERFT);
}

/* With input's lock held: the one place where the job's state changes, on an event, and then what is
 * due: a job that a stop or quit has reached stops, a pondering search that a ponderhit has reached
 * plays on its clock. The loop waits for a stopped job as for any short command, so once the job no
 * longer runs, isready is no longer answered out of turn. */
static void job_update(struct uci *u, enum job_event e)
{
    if (e == JOB_STARTED)
        u->job = JOB_RUNNING;
    else if (e == JOB_ENDED_NOW && u->job != JOB_NONE)
        u->job = JOB_ENDED;
    else if (e == JOB_JOINED)
        u->job = JOB_NONE;
    if (u->job == JOB_RUNNING && job_stop_due(u)) {
        u->job = JOB_STOPPING;
        atomic_store(&u->stop, true);
        pool_stop(&u->pool);
        pool_stop(&u->bench_pool);
    }
    if ((u->job == JOB_RUNNING || u->job == JOB_STOPPING) && u->kind == JOB_PONDER
        && u->gos_run == u->ponderhit_through) {
        u->kind = u->pool.sh.limits.infinite ? JOB_INFINITE : JOB_SEARCH;
        pool_ponderhit(&u->pool);
    }
    if (u->job != JOB_RUNNING)
        u->input.waiting_job = false;
}

/* Called by the job's own thread as it ends: the loop's wait for it will be short. */
static void job_ended(struct uci *u)
{
    input_lock(&u->input);
    job_update(u, JOB_ENDED_NOW);
    input_unlock(&u->input);
}

/* Before a command that changes the engine's state: a count or a timed search is waited for,
 * an infinite or pondering search (which only stop ends) is stopped. While the loop waits for a
 * job that still runs and that no stop has reached, isready is answered at once, those already
 * queued included, as the UCI spec asks of an engine that is calculating. */
static void join_worker(struct uci *u)
{
    input_lock(&u->input);
    if (u->job == JOB_NONE) {
        input_unlock(&u->input);
        return;
    }
    /* Never lowered: the input thread may already have read a stop for a later go. */
    if ((u->kind == JOB_INFINITE || u->kind == JOB_PONDER) && u->stop_through < u->gos_run)
        u->stop_through = u->gos_run;
    job_update(u, JOB_DUE_CHANGED);
    u->input.waiting_job = u->job == JOB_RUNNING;
    if (u->input.waiting_job)
        for (int n = input_remove_if(&u->input, line_is_isready); n > 0; n--)
            say("readyok");
    bool thread = u->kind == JOB_PERFT || u->kind == JOB_BENCH;
    input_unlock(&u->input);
    if (thread)
        pthread_join(u->worker, NULL);
    else
        pool_wait(&u->pool);
    input_lock(&u->input);
    job_update(u, JOB_JOINED);
    input_unlock(&u->input);
}

static void *perft_worker(void *arg)
{
    struct uci *u = arg;
    struct game *g = &u->game;
    move_t list[MAX_MOVES];
    int n = game_legal_moves(g, list);
    uint64_t total = 0;
    bool stopped = false;
    for (int i = 0; i < n && !stopped; i++) {
        g->ops->position_make(g->pos, list[i]);
        uint64_t count = g->ops->perft(g->pos, u->perft_depth - 1, &u->stop);
        g->ops->position_unmake(g->pos, list[i]);
        total += count;
        stopped = atomic_load(&u->stop);
        if (!stopped) {
            char text[16];
            move_to_text(g->v, list[i], text);
            say("%s: %llu", text, (unsigned long long)count);
        }
    }
    job_ended(u);
    say("");
    if (stopped)
        say("info string perft stopped");
    say("Nodes searched: %llu", (unsigned long long)total);
    return NULL;
}

static void cmd_debug(struct uci *u, char **tok, int n)
{
    if (n == 2 && (!strcmp(tok[1], "on") || !strcmp(tok[1], "off")))
        u->debug = !strcmp(tok[1], "on");
    else
        say_error("usage: debug on|off");
}

/* isready waits for a stopped job, so that its bestmove comes before readyok, but never for one
 * still calculating (UCI: "immediately ... without stopping the search"). */
static void cmd_isready(struct uci *u, char **tok, int n)
{
    (void)tok, (void)n;
    input_lock(&u->input);
    bool calculating = u->job == JOB_RUNNING;
    input_unlock(&u->input);
    if (!calculating)
        join_worker(u);
    say("readyok");
}

static void announce_book(struct uci *u, const char *path)
{
    say("info string book %s: %zu entries, %zu positions, variant %s", path, u->book.n, u->book.npositions,
        u->game.v->name);
}

/* The current variant's book, looked up when OwnBook is on or BookFile is set (docs/books.md): a
 * BookFile directory's <variant>.bin; a BookFile book if it is this variant's; otherwise the shipped
 * books/<variant>.bin. Announced in one line; an error is reported and leaves no book. */
static void load_book(struct uci *u)
{
    char err[ERR_LEN * 2], path[sizeof u->book_path + NAME_LEN + 8], relative[NAME_LEN + 16];
    const char *name = u->game.v->name;
    struct stat st;
    bool dir = u->book_path[0] && !stat(u->book_path, &st) && S_ISDIR(st.st_mode);
    book_close(&u->book);
    if (!u->own_book && !u->book_path[0])
        return;
    if (u->book_path[0] && !dir) {
        if (!book_open(&u->book, u->book_path, NULL, err, sizeof err)) {
            say_error(err);
            return;
        }
        if (u->book.v == u->game.v) {
            announce_book(u, u->book_path);
            return;
        }
        book_close(&u->book);
    }
    snprintf(relative, sizeof relative, "books/%s.bin", name);
    bool found = dir ? (size_t)snprintf(path, sizeof path, "%s/%s.bin", u->book_path, name) < sizeof path && !stat(path, &st)
                     : file_find_shipped(relative, path, sizeof path);
    if (!found)
        say("info string no book for variant %s%s%s", name, dir ? " in " : "", dir ? u->book_path : "");
    else if (book_open(&u->book, path, u->game.v, err, sizeof err))
        announce_book(u, path);
    else
        say_error(err);
}

/* The table's scores and evaluations are the old evaluation's: a changed one starts from an empty
 * table, as after ucinewgame. */
static void evaluation_changed(struct uci *u)
{
    pool_clear(&u->pool);
}

/* The variant's built-in weights with the file's on top ("": none) into the game; one error line
 * and the game's weights kept on failure. */
static bool apply_weights(struct uci *u, const char *path)
{
    char err[ERR_LEN];
    struct eval_params p;
    bool ok = path[0] ? weights_load_file(u->game.v, path, &p, err, sizeof err)
                      : weights_for_variant(u->game.v, &p, err, sizeof err);
    if (!ok || !game_load_weights(&u->game, &p, err, sizeof err)) {
        say_error(err);
        return false;
    }
    return true;
}

static void select_variant(struct uci *u, const char *name)
{
    char err[ERR_LEN];
    const struct variant *v = registry_find(name), *old = u->game.v;
    if (!v) {
        snprintf(err, sizeof err, "unknown variant '%s' (the command 'variants' lists them)", name);
        say_error(err);
    } else if (!game_init(&u->game, v, false, err, sizeof err)) {
        say_error(err);
    } else {
        /* A new game has the variant's built-in weights: the EvalWeights file goes on top again. */
        if (u->weights_path[0])
            apply_weights(u, u->weights_path);
        if (old != v)
            load_book(u);
    }
}

static void list_variants(const char *prefix)
{
    char line[4096];
    size_t len = (size_t)snprintf(line, sizeof line, "%s", prefix);
    for (int i = 0; i < registry_count() && len + NAME_LEN + 2 < sizeof line; i++)
        len += (size_t)snprintf(line + len, sizeof line - len, " %s", registry_get(i)->name);
    say("%s", line);
}

/* Joins words with single spaces; false if they do not fit. */
static bool join_words(char *out, size_t len, char **words, int n)
{
    size_t used = 0;
    out[0] = 0;
    for (int i = 0; i < n && n > 0; i++) {
        int w = snprintf(out + used, len - used, "%s%s", i ? " " : "", words[i]);
        if (w < 0 || used + (size_t)w >= len)
            return false;
        used += (size_t)w;
    }
    return true;
}

/* The UCI_Variant combo: every registered variant; the first, glinski, is the default uci_loop starts with. */
static const char *variant_name(int i)
{
    return i < registry_count() ? registry_get(i)->name : NULL;
}

static void set_variant(struct uci *u, long x, const char *value)
{
    (void)x;
    select_variant(u, value);
}

static void set_variant_path(struct uci *u, long x, const char *value)
{
    (void)u, (void)x;
    char err[ERR_LEN * 4];
    if (!value[0] || !strcmp(value, "<empty>"))
        return;
    if (registry_add_file(value, false, err, sizeof err) < 0)
        say_error(err);
    else
        list_variants("info string variants:");
}

static void set_hash(struct uci *u, long x, const char *value)
{
    (void)value;
    if (!pool_configure(&u->pool, u->threads, (size_t)x))
        say_error("Hash: cannot allocate that much; the table keeps its size");
    else
        u->hash_mb = (size_t)x;
}

static void set_threads(struct uci *u, long x, const char *value)
{
    (void)value;
    if (!pool_configure(&u->pool, (int)x, u->hash_mb))
        say_error("Threads: cannot reconfigure the threads; their number stays");
    else
        u->threads = (int)x;
}

static void set_book_file(struct uci *u, long x, const char *value)
{
    (void)x;
    snprintf(u->book_path, sizeof u->book_path, "%s", strcmp(value, "<empty>") ? value : "");
    load_book(u);
}

/* EvalWeights: a weights file on top of the variant's built-in weights; "<empty>" the built-in ones. */
static void set_eval_weights(struct uci *u, long x, const char *value)
{
    (void)x;
    const char *path = strcmp(value, "<empty>") ? value : "";
    /* The built-in weights again are no change (GUIs send every option's default at start). */
    const bool builtin_still = !path[0] && !u->weights_path[0];
    /* Kept even when it does not fit the variant in use: a GUI may set it before UCI_Variant, and
     * selecting a variant applies it again. */
    snprintf(u->weights_path, sizeof u->weights_path, "%s", path);
    if (apply_weights(u, path) && !builtin_still)
        evaluation_changed(u);
}

static void set_clear_hash(struct uci *u, long x, const char *v) { (void)x, (void)v; pool_clear(&u->pool); }
static void set_multipv(struct uci *u, long x, const char *v) { (void)v; u->multipv = (int)x; }
static void set_ponder(struct uci *u, long x, const char *v) { (void)v; u->ponder = x; }
static void set_move_overhead(struct uci *u, long x, const char *v) { (void)v; u->move_overhead = x; }
static void set_evaluation(struct uci *u, long x, const char *v)
{
    (void)v;
    if (u->weights.material_only != (int)x)
        evaluation_changed(u);
    u->weights.material_only = (int)x;
}
static void set_search3(struct uci *u, long x, const char *v) { (void)v; u->pool.search3 = (enum search3)x; }
static void set_own_book(struct uci *u, long x, const char *v)
{
    (void)v;
    u->own_book = x;
    load_book(u);
}

/* UseNNUE and EvalFile (docs/nnue.md) take effect for the current game at once and for every game
 * set up later; UseNNUE true and a file answer in one line, the defaults silently. */
static void announce_nnue(struct uci *u, const struct variant *file_variant, const char *file)
{
    char what[ERR_LEN];
    u->game.ops->nnue_attach(u->game.tb, u->game.pos);
    nnue_describe(u->game.v, what, sizeof what);
    if (file_variant && file_variant != u->game.v)
        say("info string EvalFile %s: a net for %s; %s keeps its evaluation: %s", file, file_variant->name,
            u->game.v->name, what);
    else
        say("info string evaluation: %s", what);
}

static void set_use_nnue(struct uci *u, long x, const char *v)
{
    (void)v;
    nnue_use(x);
    u->game.ops->nnue_attach(u->game.tb, u->game.pos);
    if (u->use_nnue != (x != 0))
        evaluation_changed(u);
    u->use_nnue = x;
    if (x)
        announce_nnue(u, NULL, "");
}

/* A file that is no net of a known variant definition is refused and changes nothing; <empty>
 * returns to the shipped nets. */
static void set_eval_file(struct uci *u, long x, const char *value)
{
    (void)x;
    char err[ERR_LEN * 4];
    const struct variant *v;
    if (!strcmp(value, "<empty>")) {
        nnue_clear_files();
        u->game.ops->nnue_attach(u->game.tb, u->game.pos);
    } else if ((v = nnue_add_file(value, err, sizeof err))) {
        announce_nnue(u, v, value);
    } else {
        say_error(err);
        return;
    }
    /* The files' nets evaluate only with UseNNUE on. */
    if (u->use_nnue)
        evaluation_changed(u);
}

static void set_analyse(struct uci *u, long x, const char *v) { (void)v; u->analyse = x; }
static void set_limit_strength(struct uci *u, long x, const char *v) { (void)v; u->limit_strength = x; }
static void set_elo(struct uci *u, long x, const char *v) { (void)v; u->elo = (int)x; }
static void set_book_variety(struct uci *u, long x, const char *v) { (void)v; u->book_variety = (enum book_variety)x; }
static void set_book_depth(struct uci *u, long x, const char *v) { (void)v; u->book_depth = (int)x; }

/* Every option, in the order `uci` declares them. A listed combo value's index is what its setter
 * stores, so index 0, the default, is also the zeroed state uci_loop starts from. */
static const struct uci_option options[] = {
    { "UCI_Variant",       OPTION_COMBO_OF(variant_name),                                       set_variant },
    { "VariantPath",       OPTION_STRING,                                                       set_variant_path },
    { "Hash",              OPTION_SPIN(TT_DEFAULT_MB, 1, TT_MAX_MB),                            set_hash },
    { "Clear Hash",        OPTION_BUTTON,                                                       set_clear_hash },
    { "Threads",           OPTION_SPIN(DEFAULT_THREADS, 1, MAX_THREADS),                        set_threads },
    { "MultiPV",           OPTION_SPIN(DEFAULT_MULTIPV, 1, MAX_MULTIPV),                        set_multipv },
    { "Ponder",            OPTION_CHECK(false),                                                 set_ponder },
    { "Move Overhead",     OPTION_SPIN(DEFAULT_OVERHEAD, 0, MAX_OVERHEAD),                      set_move_overhead },
    { "Evaluation",        OPTION_COMBO("full", "material"),                                    set_evaluation },
    { "EvalWeights",       OPTION_STRING,                                                       set_eval_weights },
    { "UseNNUE",           OPTION_CHECK(false),                                                 set_use_nnue },
    { "EvalFile",          OPTION_STRING,                                                       set_eval_file },
    { "ThreePlayerSearch", OPTION_COMBO([SEARCH3_BRS] = "brs", [SEARCH3_PARANOID] = "paranoid"), set_search3 },
    { "OwnBook",           OPTION_CHECK(false),                                                 set_own_book },
    { "UCI_AnalyseMode",   OPTION_CHECK(false),                                                 set_analyse },
    { "UCI_LimitStrength", OPTION_CHECK(false),                                                 set_limit_strength },
    { "UCI_Elo",           OPTION_SPIN(SKILL_ELO_DEFAULT, SKILL_ELO_MIN, SKILL_ELO_MAX),        set_elo },
    { "BookFile",          OPTION_STRING,                                                       set_book_file },
    { "BookVariety",       OPTION_COMBO([BOOK_WEIGHTED] = "weighted", [BOOK_BEST] = "best"),    set_book_variety },
    { "BookDepth",         OPTION_SPIN(0, 0, MAX_BOOK_DEPTH),                                   set_book_depth },
};

static void cmd_uci(struct uci *u, char **tok, int n)
{
    (void)u, (void)tok, (void)n;
    struct text line = { 0 };
    say("id name Sennight %s", sennight_version);
    say("id author the Sennight developers");
    for (size_t i = 0; i < sizeof options / sizeof *options; i++) {
        text_clear(&line);
        option_declare(&options[i], &line);
        say("%s", text_str(&line));
    }
    text_free(&line);
    say("uciok");
}

/* setoption name <id> [value <x>]: both may contain spaces. Options take effect between searches:
 * setoption is no while_busy command, so uci_execute has stopped or waited for the running search
 * before it gets here, and a search keeps the copy of the weights it started with. */
static void cmd_setoption(struct uci *u, char **tok, int n)
{
    int vi = n;
    for (int i = 2; i < n; i++)
        if (!strcmp(tok[i], "value")) {
            vi = i;
            break;
        }
    if (n < 3 || strcmp(tok[1], "name") || vi == 2) {
        say_error("usage: setoption name <id> [value <x>]");
        return;
    }
    char name[256] = "", value[4096] = "";
    if (!join_words(name, sizeof name, tok + 2, vi - 2) || !join_words(value, sizeof value, tok + vi + 1, n - vi - 1)) {
        say_error("setoption: name or value too long");
        return;
    }
    char err[ERR_LEN];
    long x;
    const struct uci_option *o = option_find(options, sizeof options / sizeof *options, name);
    if (!o) {
        snprintf(err, sizeof err, "unknown option '%s'", name);
        say_error(err);
    } else if (!option_parse(o, value, &x, err, sizeof err)) {
        say_error(err);
    } else {
        o->set(u, x, value);
    }
}

static void cmd_ucinewgame(struct uci *u, char **tok, int n)
{
    (void)tok, (void)n;
    char err[ERR_LEN];
    pool_clear(&u->pool);
    if (!game_set_position(&u->game, NULL, NULL, 0, err, sizeof err))
        say_error(err);
}

static void cmd_variant(struct uci *u, char **tok, int n)
{
    if (n != 2)
        say_error("usage: variant <name>");
    else
        select_variant(u, tok[1]);
}

static void cmd_position(struct uci *u, char **tok, int n)
{
    char fen[2048] = "", err[ERR_LEN];
    int i = 1;
    bool start = n > 1 && !strcmp(tok[1], "startpos");
    if (start) {
        i = 2;
    } else if (n > 1 && !strcmp(tok[1], "fen")) {
        for (i = 2; i < n && strcmp(tok[i], "moves"); i++)
            ;
        if (i == 2) {
            say_error("position fen: missing FEN");
            return;
        }
        if (!join_words(fen, sizeof fen, tok + 2, i - 2)) {
            say_error("position fen: FEN too long");
            return;
        }
    } else {
        say_error("usage: position startpos|fen <fen> [moves <m1> ...]");
        return;
    }
    if (i < n && strcmp(tok[i], "moves")) {
        snprintf(err, sizeof err, "position: unexpected '%s' (expected 'moves')", tok[i]);
        say_error(err);
        return;
    }
    int first = i < n ? i + 1 : n;
    if (!game_set_position(&u->game, start ? NULL : fen, tok + first, n - first, err, sizeof err)) {
        say_error(err);
        return;
    }
    for (int i = 0; i < u->game.neliminated; i++)
        say("info string eliminated %c", u->game.v->colour_letter[u->game.eliminated[i]]);
}


static void format_score(char *out, size_t len, int score, int armies)
{
    if (score >= SCORE_MATE_BOUND || score <= -SCORE_MATE_BOUND)
        snprintf(out, len, "mate %d", score_mate_moves(score, armies));
    else
        snprintf(out, len, "cp %d", score);
}

static unsigned long long nodes_per_second(uint64_t nodes, int64_t ms)
{
    return (unsigned long long)(ms > 0 ? nodes * 1000 / (uint64_t)ms : nodes);
}

static void search_report(void *ctx, const struct search_report *r)
{
    struct uci *u = ctx;
    char score[32], pv[MAX_PLY * 8 + 1] = "";
    size_t len = 0;
    for (int i = 0; i < r->pvlen; i++) {
        char m[16];
        move_to_text(u->game.v, r->pv[i], m);
        len += (size_t)snprintf(pv + len, sizeof pv - len, " %s", m);
    }
    format_score(score, sizeof score, r->score, r->armies);
    say("info depth %d seldepth %d multipv %d score %s%s nodes %llu nps %llu hashfull %d time %lld pv%s", r->depth,
        r->seldepth, r->multipv, score, r->bound == BOUND_LOWER ? " lowerbound" : r->bound == BOUND_UPPER ? " upperbound" : "",
        (unsigned long long)r->nodes, nodes_per_second(r->nodes, r->time_ms), r->hashfull, (long long)r->time_ms, pv);
}

static void search_progress(void *ctx, const struct search_progress *p)
{
    struct uci *u = ctx;
    char m[16];
    move_to_text(u->game.v, p->currmove, m);
    say("info depth %d currmove %s currmovenumber %d", p->depth, m, p->currmove_number);
    say("info nodes %llu nps %llu hashfull %d time %lld", (unsigned long long)p->nodes,
        nodes_per_second(p->nodes, p->time_ms), p->hashfull, (long long)p->time_ms);
}

static void search_done(void *ctx, move_t best, move_t ponder)
{
    struct uci *u = ctx;
    char b[16], p[16];
    job_ended(u);
    if (best == MOVE_NONE) {
        say("bestmove (none)");
        return;
    }
    move_to_text(u->game.v, best, b);
    if (ponder == MOVE_NONE) {
        say("bestmove %s", b);
        return;
    }
    move_to_text(u->game.v, ponder, p);
    say("bestmove %s ponder %s", b, p);
}

/* go: wtime btime rtime (the army's letter + time), inc, movestogo, depth, nodes, mate, movetime,
 * infinite, ponder, searchmoves. */
static bool parse_go(struct uci *u, char **tok, int n, struct search_limits *l)
{
    const struct variant *v = u->game.v;
    memset(l, 0, sizeof *l);
    for (int p = 0; p < MAX_PLAYERS; p++)
        l->time[p] = l->inc[p] = -1;
    char err[ERR_LEN];
    for (int i = 1; i < n; i++) {
        const char *w = tok[i];
        long x = 0;
        const char *colour = strlen(w) == 5 && !strcmp(w + 1, "time") ? w : strlen(w) == 4 && !strcmp(w + 1, "inc") ? w : NULL;
        const char *mine = colour ? memchr(v->colour_letter, colour[0], (size_t)v->nplayers) : NULL;
        if (!strcmp(w, "infinite")) {
            l->infinite = true;
        } else if (!strcmp(w, "ponder")) {
            l->ponder = true;
        } else if (!strcmp(w, "searchmoves")) {
            while (i + 1 < n && l->nsearchmoves < MAX_SEARCHMOVES
                   && game_parse_move(&u->game, tok[i + 1], &l->searchmoves[l->nsearchmoves], err, sizeof err)) {
                l->nsearchmoves++;
                i++;
            }
            if (!l->nsearchmoves) {
                say_error("go searchmoves: no legal move follows");
                return false;
            }
        } else if (i + 1 < n && (colour || !strcmp(w, "movestogo") || !strcmp(w, "depth") || !strcmp(w, "nodes")
                                 || !strcmp(w, "mate") || !strcmp(w, "movetime"))
                   && number_parse(tok[i + 1], colour && strstr(w, "time") ? -1000000000L : 0, 1000000000000L, &x)) {
            i++;
            if (colour && !mine)
                ;   /* a colour this variant does not have: ignored, as GUIs send both clocks */
            else if (colour && w[1] == 't')
                l->time[mine - v->colour_letter] = x < 1 ? 1 : x;
            else if (colour)
                l->inc[mine - v->colour_letter] = x;
            else if (!strcmp(w, "movestogo"))
                l->movestogo = (int)(x < 1000 ? x : 1000);
            else if (!strcmp(w, "depth"))
                l->depth = (int)(x < MAX_PLY - 1 ? x : MAX_PLY - 1);
            else if (!strcmp(w, "nodes"))
                l->nodes = (uint64_t)x;
            else if (!strcmp(w, "mate"))
                l->mate = (int)(x < MAX_PLY / 2 ? x : MAX_PLY / 2);
            else
                l->movetime = x < 1 ? 1 : x;
        } else {
            snprintf(err, sizeof err, "go: unexpected '%s'", w);
            say_error(err);
            return false;
        }
    }
    int side = u->game.ops->position_side(u->game.pos);
    /* A front end that knows two clocks only (wtime, btime) still gets a timed move from the third
     * army: it plays on the shortest clock given. */
    int shortest = -1;
    for (int p = 0; p < v->nplayers; p++)
        if (l->time[p] >= 0 && (shortest < 0 || l->time[p] < l->time[shortest]))
            shortest = p;
    if (l->time[side] < 0 && shortest >= 0) {
        l->time[side] = l->time[shortest];
        l->inc[side] = l->inc[shortest];
    }
    /* A bare go searches until stop, as GUIs expect for analysis. */
    if (l->time[side] < 0 && !l->movetime && !l->depth && !l->nodes && !l->mate)
        l->infinite = true;
    return true;
}

/* A book move is played at once, except in analysis (infinite, mate, searchmoves) and pondering;
 * returns whether one was. */
static bool play_book_move(struct uci *u, const struct search_limits *l)
{
    struct book_move m[MAX_MOVES];
    struct setup s;
    char text[16];
    if (!u->own_book || u->analyse || !u->book.n || l->infinite || l->ponder || l->mate || l->nsearchmoves)
        return false;
    u->game.ops->position_get(u->game.pos, &s);
    if (u->book_depth && s.fullmove > u->book_depth)
        return false;
    int n = book_probe(&u->book, &u->game, m, NULL);
    uint64_t random = XXH3_64bits_withSeed(&u->book_draws, sizeof u->book_draws, u->book_seed), total = 0;
    u->book_draws++;
    int i = book_pick(m, n, u->book_variety, random);
    if (i < 0)
        return false;
    for (int k = 0; k < n; k++)
        total += m[k].weight;
    move_to_text(u->game.v, m[i].move, text);
    say("info string book move %s (weight %u of %llu)", text, m[i].weight, (unsigned long long)total);
    say("bestmove %s", text);
    return true;
}

/* Runs a count (perft, bench) on the worker thread. A stop read after its go, before it started,
 * takes effect at once (job_update); the thread's job_ended waits for the lock held here. */
static void start_job(struct uci *u, void *(*run)(void *), enum job_kind kind)
{
    atomic_store(&u->stop, false);
    input_lock(&u->input);
    u->kind = kind;
    if (pthread_create(&u->worker, NULL, run, u))
        say_error("cannot start a thread");
    else
        job_update(u, JOB_STARTED);
    input_unlock(&u->input);
}

static void start_perft(struct uci *u, char **tok, int n)
{
    long depth;
    if (n != 3 || !number_parse(tok[2], 1, MAX_PERFT_DEPTH, &depth)) {
        say_error("usage: go perft <depth 1..30>");
        return;
    }
    u->perft_depth = (int)depth;
    start_job(u, perft_worker, JOB_PERFT);
}

static void start_search(struct uci *u, char **tok, int n)
{
    struct search_limits l;
    if (!parse_go(u, tok, n, &l) || play_book_move(u, &l))
        return;
    l.elo = u->limit_strength ? u->elo : 0;
    u->pool.done = search_done;
    u->pool.done_ctx = u;
    u->pool.sh.report = search_report;
    u->pool.sh.progress = search_progress;
    u->pool.sh.report_ctx = u;
    input_lock(&u->input);
    u->kind = l.ponder ? JOB_PONDER : l.infinite ? JOB_INFINITE : JOB_SEARCH;
    if (!pool_go(&u->pool, &u->game, &l, &u->weights, u->multipv, u->move_overhead))
        say_error("cannot start the search (out of memory or threads)");
    else
        job_update(u, JOB_STARTED);
    input_unlock(&u->input);
}

/* go and bench are jobs that stop refers to by their count (uci_hear counts those read). */
static void job_count(struct uci *u)
{
    input_lock(&u->input);
    u->gos_run++;
    input_unlock(&u->input);
}

static void cmd_go(struct uci *u, char **tok, int n)
{
    job_count(u);
    if (n >= 2 && !strcmp(tok[1], "perft"))
        start_perft(u, tok, n);
    else
        start_search(u, tok, n);
}

static void cmd_d(struct uci *u, char **tok, int n)
{
    (void)tok, (void)n;
    struct setup s;
    char fen[2048];
    u->game.ops->position_get(u->game.pos, &s);
    pthread_mutex_lock(&out_lock);
    diagram_print(stdout, u->game.v, &s);
    fflush(stdout);
    pthread_mutex_unlock(&out_lock);
    game_fen(&u->game, fen, sizeof fen);
    say("Fen: %s", fen);
    say("Key: %016llx", (unsigned long long)u->game.ops->position_key(u->game.pos));
    if (u->game.ops->position_in_check(u->game.pos))
        say("Checkers: yes");
    char result[128];
    game_status_text(&u->game, game_status(&u->game), result, sizeof result);
    if (result[0])
        say("Result: %s", result);
}

/* eval: the weights in use, every term for every army (middlegame and endgame parts), the blend. */
static void cmd_eval(struct uci *u, char **tok, int n)
{
    (void)tok, (void)n;
    const struct variant *v = u->game.v;
    const struct eval_params *p = u->game.ops->eval_params(u->game.tb);
    struct eval_trace tr;
    int term[MAX_PLAYERS][NUM_TERMS][2];
    if (u->game.ops->position_in_check(u->game.pos)) {
        say("info string eval: the side to move is in check; the search does not evaluate such positions");
        return;
    }
    u->game.ops->evaluate(u->game.pos, &u->weights, &tr);
    say("weights %s, lazy margin %d cp", p->source, p->lazy_margin);
    if (tr.material_only) {
        say("Final evaluation: %d cp (side to move %c), Evaluation is material only", tr.total,
            v->colour_letter[u->game.ops->position_side(u->game.pos)]);
        return;
    }
    trace_terms(&tr, p, v->nplayers, term);
    char head[128] = "term         ";
    for (int pl = 0; pl < v->nplayers; pl++)
        snprintf(head + strlen(head), sizeof head - strlen(head), " |   %c mg    %c eg", v->colour_letter[pl], v->colour_letter[pl]);
    say("%s", head);
    for (int t = 0; t < NUM_TERMS; t++) {
        char line[128];
        int len = snprintf(line, sizeof line, "%-13s", eval_term_names[t]);
        for (int pl = 0; pl < v->nplayers; pl++)
            len += snprintf(line + len, sizeof line - (size_t)len, " | %6d %6d", term[pl][t][0], term[pl][t][1]);
        say("%s", line);
    }
    say("phase %d/256 (256: middlegame)", tr.phase);
    say("Final evaluation: %d cp (side to move %c)", tr.total, v->colour_letter[u->game.ops->position_side(u->game.pos)]);
    int net = u->game.ops->nnue_evaluate(u->game.pos);
    if (net != SCORE_NONE)
        say("NNUE evaluation: %d cp (side to move %c), what the search uses", net,
            v->colour_letter[u->game.ops->position_side(u->game.pos)]);
}

void uci_variants(void)
{
    for (int i = 0; i < registry_count(); i++) {
        const struct variant *v = registry_get(i);
        say("%s %d %d %s", v->name, v->nplayers, v->geo.ncells, v->description);
    }
}

static void cmd_variants(struct uci *u, char **tok, int n)
{
    (void)u, (void)tok, (void)n;
    uci_variants();
}

static void cmd_check(struct uci *u, char **tok, int n)
{
    (void)u;
    char err[ERR_LEN * 8];
    if (n != 2) {
        say_error("usage: check <variant file>");
        return;
    }
    int count = registry_add_file(tok[1], true, err, sizeof err);
    if (count < 0)
        say_error(err);
    else
        say("info string %s: %d variant%s, no errors", tok[1], count, count == 1 ? "" : "s");
}

static void *bench_worker(void *arg)
{
    struct uci *u = arg;
    struct bench_result r;
    bench_run(u->bench_args[0], u->bench_args[1], (size_t)u->bench_args[2], &u->weights, &u->bench_pool, &u->stop, say,
              &r);
    /* Only now: an isready read while the job ran is answered after its last line. */
    job_ended(u);
    return NULL;
}

/* bench [depth] [threads] [hash], as `sennight bench`, with the session's weights: a job like go
 * perft, which stop and quit end early. */
static void cmd_bench(struct uci *u, char **tok, int n)
{
    long arg[3] = { BENCH_DEPTH, 1, 16 }, hi[3] = { 64, MAX_THREADS, TT_MAX_MB };
    job_count(u);
    for (int i = 1; i < n && i <= 3; i++)
        if (n > 4 || !number_parse(tok[i], 1, hi[i - 1], &arg[i - 1])) {
            say_error("usage: bench [depth 1..64] [threads] [hash MB]");
            return;
        }
    for (int i = 0; i < 3; i++)
        u->bench_args[i] = (int)arg[i];
    start_job(u, bench_worker, JOB_BENCH);
}

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

static bool line_is_isready(const char *line, size_t len)
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
    if (!strcmp(name, "go") || !strcmp(name, "bench")) {
        u->gos_read++;
    } else if (!strcmp(name, "stop")) {
        u->stop_through = u->gos_read;
        job_update(u, JOB_DUE_CHANGED);
        return INPUT_DONE;
    } else if (!strcmp(name, "quit")) {
        u->quitting = true;
        job_update(u, JOB_DUE_CHANGED);
        return INPUT_LAST;
    } else if (!strcmp(name, "ponderhit")) {
        u->ponderhit_through = u->gos_read;
        job_update(u, JOB_DUE_CHANGED);
        return INPUT_DONE;
    } else if (!strcmp(name, "isready") && idle && u->job != JOB_STOPPING) {
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
            join_worker(u);
        /* quit has already stopped the job unless it is a perft, which ends first (uci_hear). */
        if (!strcmp(c->name, "quit")) {
            join_worker(u);
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
    /* A new game of the first variant: game_init (which builds the move tables) only if another is in use. */
    if (u->game.v != registry_get(0))
        select_variant(u, registry_get(0)->name);
    for (size_t i = 0; i < sizeof options / sizeof *options; i++) {
        long x;
        const char *value;
        if (options[i].set != set_variant && option_default(&options[i], &x, &value))
            options[i].set(u, x, value);
    }
    cmd_ucinewgame(u, NULL, 0);
}

void uci_free(struct uci *u)
{
    if (!u)
        return;
    book_close(&u->book);
    pool_free(&u->pool);
    pool_free(&u->bench_pool);
    game_free(&u->game);
    free(u);
}

struct uci *uci_new(char *err, size_t errlen)
{
    struct uci *u = calloc(1, sizeof *u);
    bool pools = u && pool_init(&u->pool);
    if (pools && !pool_init(&u->bench_pool)) {
        pool_free(&u->pool);
        pools = false;
    }
    if (!pools) {
        free(u);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    u->book_seed = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
    /* The table and threads first, which the options' setters resize; then every option's default. */
    u->threads = DEFAULT_THREADS;
    u->hash_mb = TT_DEFAULT_MB;
    bool ready = registry_init(err, errlen) && game_init(&u->game, registry_get(0), false, err, errlen);
    if (ready && !(ready = pool_configure(&u->pool, u->threads, u->hash_mb)))
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
    join_worker(u);
    input_free(&u->input);
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
