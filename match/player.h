/* One UCI engine of a match: its configuration, its process and the UCI exchanges the runner needs
 * (handshake, new game, one search). Every wait has a deadline, and a failure says what happened. */
#ifndef PLAYER_H
#define PLAYER_H

#include <stdatomic.h>
#include <stdbool.h>

#include "../protocol/engine_process.h"
#include "tc.h"

enum { MAX_ENGINE_OPTIONS = 32, MATE_SCORE = 30000 };

struct engine_conf {
    char name[64];
    char cmd[1024];                 /* the program and its arguments, split at spaces */
    int noptions;
    struct {
        char name[64], value[256];
    } option[MAX_ENGINE_OPTIONS];   /* sent with setoption after uciok */
    struct limits limits;
    long long timeout;              /* for uciok, readyok and searches without a clock */
};

struct player {
    const struct engine_conf *conf;
    struct proc proc;
    bool ready;                     /* running and through the handshake */
    char error[256];                /* what went wrong last */
};

enum player_status {
    PLAYER_OK,
    PLAYER_CRASHED,     /* its output ended or it stopped taking input */
    PLAYER_TIMEOUT,     /* no answer before the deadline */
    PLAYER_CANCELLED,   /* the match is stopping */
    PLAYER_FATAL,       /* cannot run, or does not play the variant: the match cannot go on */
};

/* An answer to 'go'. */
struct reply {
    char move[32];      /* the text after 'bestmove' (empty if none) */
    long long elapsed;  /* from sending 'go' to reading 'bestmove' */
    bool has_score;
    int score;          /* the last 'info score', centipawns for the mover; mates as ±(MATE_SCORE - plies) */
};

/* Starts the engine if it is not ready: uci, the options, the variant, isready. */
enum player_status player_start(struct player *pl, const char *variant, const atomic_bool *cancel);
/* ucinewgame, isready. */
enum player_status player_new_game(struct player *pl, const atomic_bool *cancel);
/* Sends the position and 'go<args>', and waits for bestmove until `limit` after 'go' (-1: the
 * engine's timeout). */
enum player_status player_go(struct player *pl, const char *position, const char *go_args, long long limit,
                             const atomic_bool *cancel, struct reply *r);
/* Ends the engine: 'quit' and a short wait when it is healthy, at once otherwise. */
void player_stop(struct player *pl, bool healthy);

#endif
