/* Who may act on a game served to the network (docs/gui.md#playing-over-the-network): its creator,
 * the people invited to its seats, and spectators. Each holds a secret token; a spectator none. */
#ifndef SEATS_H
#define SEATS_H

#include <stdbool.h>
#include <stddef.h>

#include "../rules/variant.h"

enum {
    SEAT_TOKEN_BYTES = 16,                      /* 128 random bits */
    SEAT_TOKEN_LEN = 2 * SEAT_TOKEN_BYTES,      /* as hex */
    SEAT_CREATOR = -1,                          /* the right to change the whole game */
};

struct seat_keys {
    int nseats;
    char creator[SEAT_TOKEN_LEN + 1];
    char seat[MAX_PLAYERS][SEAT_TOKEN_LEN + 1]; /* "" for an engine's seat */
    bool joined[MAX_PLAYERS];                   /* its invitation was taken up in another browser */
};

/* What a token may do for a seat. */
enum seat_verdict {
    SEAT_ALLOWED,
    SEAT_WATCHER,       /* no token, or none of this game's: a spectator */
    SEAT_TAKEN,         /* the creator's token on a seat that plays from another browser */
    SEAT_OTHER,         /* another seat's token */
};

/* Whether tokens are checked: only for a server that was told to listen on the network (--host). */
void seats_require_tokens(bool on);
bool seats_tokens_required(void);

/* A fresh token from the kernel's random source; false if there is none (no token is made up). */
bool seat_token_new(char token[SEAT_TOKEN_LEN + 1]);
/* Whether two tokens are equal, in a time that does not depend on where they differ. */
bool seat_token_equal(const char *a, const char *b);

/* Tokens for the creator and for each seat where human[k]; false if there is no random source. */
bool seat_keys_init(struct seat_keys *k, int nseats, const bool *human);
/* May `token` (NULL: none) act for `seat` (0..nseats-1, or SEAT_CREATOR)? A seat's own token acts for
 * it, the creator's for every seat not joined from another browser. Always allowed when tokens are not
 * required. */
enum seat_verdict seat_keys_allow(const struct seat_keys *k, const char *token, int seat);
/* Takes up seat `seat`'s invitation `token`: the seat gets a fresh token, written to `fresh` and known
 * to the joiner alone, so that the invitation (and the creator's copy of it) moves it no more. */
bool seat_keys_join(struct seat_keys *k, int seat, const char *token, char fresh[SEAT_TOKEN_LEN + 1]);

#endif
