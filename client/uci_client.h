/* A UCI engine as a child process, for the match runner and the GUI: the handshake (uci, options,
 * variant, isready), new games, and searches (position and go, bestmove with the last score). Every
 * wait has a deadline; a failure is classified, said in `error`, and leaves the engine ended, so that
 * the next uci_client_start starts it afresh. */
#ifndef UCI_CLIENT_H
#define UCI_CLIENT_H

#include <stdatomic.h>
#include <stdbool.h>

#include "engine_process.h"

enum { UCI_MATE_SCORE = 30000 };

struct uci_option {
    char name[64], value[256];
};

/* Zeroed, with a timeout and optionally on_info: not running. */
struct uci_client {
    long long timeout;              /* for uciok, readyok, taking input, and searches without a limit */
    /* Given every 'info' line of a search as it comes, when set (analysis in the GUI). */
    void (*on_info)(void *ctx, const char *line);
    void *info_ctx;
    struct proc proc;
    bool ready;                     /* running and through the handshake */
    char listed[4096];              /* the names of the options it declared, each followed by '\n' */
    char error[256];                /* what went wrong last */
};

enum uci_status {
    UCI_OK,
    UCI_CRASHED,        /* its output ended or it stopped taking input */
    UCI_TIMEOUT,        /* no answer before the deadline */
    UCI_CANCELLED,      /* *cancel became true */
    UCI_FATAL,          /* cannot run, or does not play the variant */
};

/* An answer to 'go'. */
struct uci_reply {
    char move[32];      /* the text after 'bestmove' (empty if none) */
    long long elapsed;  /* from sending 'go' to reading 'bestmove' */
    bool has_score;
    int score;          /* the last 'info score', centipawns for the mover; 'mate n' as ±(UCI_MATE_SCORE - |n|) */
    int depth;          /* the depth of that info line, 0 if it gave none */
};

/* Unless it is ready: runs `cmd` (the program and its arguments, split at spaces), then uci, the
 * options (setoption), the variant (UCI_Variant, which must list it if it lists values), isready. */
enum uci_status uci_client_start(struct uci_client *c, const char *cmd, const struct uci_option *options,
                                 int noptions, const char *variant, const atomic_bool *cancel);
/* ucinewgame, isready. */
enum uci_status uci_client_new_game(struct uci_client *c, const atomic_bool *cancel);
/* Sends the position and 'go<args>', and waits for bestmove until `limit` after 'go' (-1: the
 * timeout; UCI_UNTIL_CANCELLED: no deadline, for 'go infinite'). When cancelled the engine is still
 * searching: uci_client_stop ends the search. */
enum { UCI_UNTIL_CANCELLED = -2 };
enum uci_status uci_client_go(struct uci_client *c, const char *position, const char *go_args, long long limit,
                              const atomic_bool *cancel, struct uci_reply *r);
/* 'stop', and the bestmove that ends the search, within the timeout. */
enum uci_status uci_client_stop(struct uci_client *c, struct uci_reply *r);
/* Whether the engine declared the option (by name, as written in its 'option name' line). */
bool uci_client_has_option(const struct uci_client *c, const char *name);
/* Sends `command` and reads up to the line `until`, giving each line before it to each(ctx, line). */
enum uci_status uci_client_ask(struct uci_client *c, const char *command, const char *until,
                               void (*each)(void *ctx, const char *line), void *ctx);
/* 'setoption name <name> value <value>', between searches. */
enum uci_status uci_client_set_option(struct uci_client *c, const char *name, const char *value);
/* Ends the engine: 'quit' and a short wait when it is healthy, at once otherwise. */
void uci_client_end(struct uci_client *c, bool healthy);

#endif
