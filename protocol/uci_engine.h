/* The UCI server's state and what its files (uci.c: the loop; uci_job.c: searches, counts and bench;
 * uci_settings.c: the options; uci_commands.c: the other commands; uci_output.c: the lines it prints)
 * share. Internal to protocol/uci*.c. */
#ifndef UCI_ENGINE_H
#define UCI_ENGINE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "../engine/engine.h"
#include "../eval/nnue.h"
#include "../eval/weights.h"
#include "../games/book.h"
#include "../util/say.h"
#include "uci_input.h"

enum { MAX_TOKENS = 8192, ERR_LEN = 512, MAX_PERFT_DEPTH = 30, MAX_OVERHEAD = 5000, MAX_BOOK_DEPTH = 1000 };
/* Spin options' defaults, which the option table declares and settings_reset sets. */
enum { DEFAULT_THREADS = 1, DEFAULT_MULTIPV = 1, DEFAULT_OVERHEAD = 10 };
/* The life of the job the loop started last: RUNNING, STOPPING once a stop or quit has reached it,
 * ENDED once its own thread has said its last line, NONE once the loop has joined it. */
enum job_state { JOB_NONE, JOB_RUNNING, JOB_STOPPING, JOB_ENDED };
/* What it is. Only stop ends an infinite search, only stop or ponderhit a pondering one; quit lets
 * a perft finish (scripts pipe "go perft N", "quit"). */
enum job_kind { JOB_SEARCH, JOB_INFINITE, JOB_PONDER, JOB_PERFT, JOB_BENCH };
/* What job_update is told of: the job started, ended or was joined, or what it is due changed (a
 * stop, quit or ponderhit read, or the loop stopping an endless search). */
enum job_event { JOB_ON_START, JOB_ON_END, JOB_ON_JOIN, JOB_ON_DUE };

/* A game of a variant played before, with the weights epoch it was set up in (uci_shelf.c). */
struct shelved {
    struct game game;
    uint64_t weights_epoch, used;
};
enum { SHELF_SIZE = 8 };

struct uci {
    struct game game;
    struct shelved shelf[SHELF_SIZE];
    uint64_t shelf_clock;
    uint64_t weights_epoch;      /* counts the changes of EvalWeights: shelved games of another are stale */
    bool debug;
    pthread_t worker;    /* a perft's or bench's thread */
    atomic_bool stop;
    int perft_depth;
    int bench_args[3];   /* depth, threads, hash MB */
    struct search_pool *pool;
    bool table_used;     /* a search has run since the pool's table and histories were last cleared */
    bool infinite;       /* the last go's: what a pondering search becomes on ponderhit */
    struct search_pool *bench_pool; /* bench's own, so that it leaves the game's hash alone */
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
    struct nnue_choice nets;   /* UseNNUE and EvalFile: the nets of the session's games */
    int elo;
    enum book_variety book_variety;
    int book_depth;             /* the last fullmove number the book is used for; 0: no limit */
    uint64_t book_seed, book_draws;
};

/* uci_output.c, beside util/say.h's say. "info string error: <msg>", one line for each line of msg. */
void say_error(const char *msg);
/* The search's callbacks (ctx: the struct uci): info lines for an iteration, and for progress. */
void say_report(void *ctx, const struct search_report *r);
void say_progress(void *ctx, const struct search_progress *p);

/* uci_job.c. Before a command that changes the engine's state: waits for the job (stopping an endless
 * search first). */
void job_join(struct uci *u);
/* With input's lock held, the input thread's part: a go or bench read, or a stop, quit or ponderhit,
 * which apply to the go commands read before them (command: the line's command word). */
void job_heard(struct uci *u, const char *command);
void cmd_go(struct uci *u, char **tok, int n);
void cmd_bench(struct uci *u, char **tok, int n);
void cmd_isready(struct uci *u, char **tok, int n);

/* uci_shelf.c. Makes v's game the current one, the start position on the board: the shelved one if
 * its weights are those in use (built: false), else a new one; the current game goes on the shelf.
 * On failure one error in err and the current game kept. */
bool shelf_switch(struct uci *u, const struct variant *v, bool *built, char *err, size_t errlen);
void shelf_free(struct uci *u);

/* uci_settings.c. */
void cmd_uci(struct uci *u, char **tok, int n);
void cmd_setoption(struct uci *u, char **tok, int n);
/* Every option but UCI_Variant back to its default, as its setter takes it. */
void settings_reset(struct uci *u);
/* A new game of the named variant, with the EvalWeights file on top and its book; one error line if
 * there is no such variant or it cannot be set up. */
void select_variant(struct uci *u, const char *name);
/* Empties the pool's table and histories, as ucinewgame, Clear Hash and a change of evaluation do; a
 * table no search has used since is empty already (memset of a large table costs milliseconds). */
void table_clear(struct uci *u);
/* Joins words with single spaces; false if they do not fit. */
bool join_words(char *out, size_t len, char **words, int n);

/* uci_commands.c. */
void cmd_debug(struct uci *u, char **tok, int n);
void cmd_ucinewgame(struct uci *u, char **tok, int n);
void cmd_variant(struct uci *u, char **tok, int n);
void cmd_position(struct uci *u, char **tok, int n);
void cmd_d(struct uci *u, char **tok, int n);
void cmd_eval(struct uci *u, char **tok, int n);
void cmd_variants(struct uci *u, char **tok, int n);
void cmd_check(struct uci *u, char **tok, int n);

/* uci.c: whether the queued line is an isready (job_join answers those at once). */
bool uci_line_is_isready(const char *line, size_t len);

#endif
