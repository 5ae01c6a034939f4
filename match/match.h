/* The match runner: two UCI engines (three in a three-player variant, in every seating) play a series
 * of games over pipes, refereed by the engine's own move generator, with Elo and SPRT on per-game
 * scores (docs/match.md). */
#ifndef MATCH_H
#define MATCH_H

#include <stdio.h>

#include "match_game.h"
#include "stats.h"

enum { MAX_CONCURRENCY = 64 };

struct match_conf {
    struct engine_conf engine[MAX_PLAYERS];
    int nengines;                   /* one per army: the variant's number of players */
    const struct variant *v;
    int games;                      /* in all: -games times -rounds */
    int concurrency;
    char openings[1024];            /* a FEN/EPD file, or empty for the variant's start position */
    bool random_order, repeat;
    bool no_openings;               /* -noopenings: the start position, the shipped suite not looked for */
    bool no_suite;                  /* no -openings, and no shipped suite for the variant was found */
    unsigned long long seed;
    struct adjudication adj;
    bool use_sprt;
    struct sprt sprt;
    char pgn[1024];                 /* the game record file, or empty */
    char event[128];
    int rating_interval;            /* games between Elo reports; 0: at the end only */
};

struct match_result {
    int games;                      /* games scored */
    struct tally tally[MAX_PLAYERS];    /* by engine */
    struct tally seat[MAX_PLAYERS];     /* by colour, whichever engine played it */
    struct tally engine_seat[MAX_PLAYERS][MAX_PLAYERS]; /* by engine, then colour */
    /* [e][f] for engines e < f: 1 when e finished ahead of f (the better score, or the later to leave
     * the board), 1/2 level, 0 behind. */
    struct tally pair[MAX_PLAYERS][MAX_PLAYERS];
    int terminations[TERM_COUNT];
    int faults[MAX_PLAYERS][TERM_COUNT]; /* by engine: games lost on time, by an illegal move, a crash, a stall */
    double llr;
    enum sprt_verdict verdict;
    bool interrupted;
    char error[512];                /* why the match could not go on, if it could not */
};

/* The arguments after 'sennight match'; false with a message on bad ones. */
bool match_parse(int argc, char **argv, struct match_conf *c, char *err, size_t errlen);
/* Plays the match, printing progress and the report to out. Returns 0 when it ran to its end or
 * the SPRT stopped it, 1 when it could not go on, 130 when interrupted by a signal. */
int match_run(const struct match_conf *c, struct match_result *r, FILE *out);
/* 'sennight match ...'; also prints the usage on bad arguments (exit status 2). */
int match_main(int argc, char **argv);

#endif
