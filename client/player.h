/* An engine as the front end runs it: its configuration (the match runner's -engine arguments) and,
 * at the board, its process behind the UCI client, kept from game to game. */
#ifndef PLAYER_H
#define PLAYER_H

#include "tc.h"
#include "uci_client.h"

enum { MAX_ENGINE_OPTIONS = 32 };

/* One engine of the match, as its -engine arguments give it. */
struct engine_conf {
    char name[64];
    char cmd[1024];                 /* the program and its arguments, split at spaces */
    int noptions;
    struct uci_option option[MAX_ENGINE_OPTIONS];   /* sent with setoption after uciok */
    struct limits limits;
    long long timeout;              /* for uciok, readyok and searches without a clock */
};

/* An engine at the board: its configuration and its process, kept from game to game. */
struct player {
    const struct engine_conf *conf;
    struct uci_client uci;          /* uci.timeout is conf->timeout */
};

#endif
