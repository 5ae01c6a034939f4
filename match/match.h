/* The match runner: two UCI engines (three in a three-player variant, in every seating; more in a
 * gauntlet or round robin) play a series of games over pipes, refereed by the engine's own move
 * generator, with Elo and SPRT on per-game scores; a run may be cut into shards whose records are
 * scored together afterwards (docs/match.md). */
#ifndef MATCH_H
#define MATCH_H

#include <stdio.h>

#include "match_game.h"
#include "stats.h"

enum { MAX_CONCURRENCY = 64, MAX_ENGINES = 16, MAX_RESULT_FILES = 256 };

/* How the engines meet: all in every game (two, or three in a three-player variant), or in pairs. */
enum tournament { TOURNAMENT_MATCH, TOURNAMENT_GAUNTLET, TOURNAMENT_ROUND_ROBIN };

struct match_conf {
    struct engine_conf engine[MAX_ENGINES];
    int nengines;                   /* one per army in a match; 3 or more in a tournament */
    enum tournament tournament;
    const struct variant *v;
    int games;                      /* of the whole schedule: -games times -rounds, per pairing */
    int shard, nshards;             /* this process plays block `shard` (from 1) of nshards (--shard K/N) */
    int concurrency;
    char openings[1024];            /* a FEN/EPD file, or empty for the variant's start position */
    bool random_order, repeat;
    bool no_openings;               /* -noopenings: the start position, the shipped suite not looked for */
    bool no_suite;                  /* no -openings, and no shipped suite for the variant was found */
    unsigned long long seed;
    bool seeded;                    /* -seed was given */
    struct adjudication adj;
    bool use_sprt;
    struct sprt sprt;
    char pgn[1024];                 /* the game record file, or empty */
    char event[128];
    int rating_interval;            /* games between Elo reports; 0: at the end only */
    const char *results[MAX_RESULT_FILES]; /* --results: record files to score instead of playing */
    int nresults;
};

struct match_result {
    int games;                      /* games scored */
    struct tally tally[MAX_ENGINES];    /* by engine */
    struct tally seat[MAX_PLAYERS];     /* by colour, whichever engine played it */
    struct tally engine_seat[MAX_ENGINES][MAX_PLAYERS]; /* by engine, then colour */
    /* [e][f] for engines e < f that met: two players, e's scores against f; three, 1 when e finished
     * ahead of f (the better score, or the later to leave the board), 1/2 level, 0 behind. */
    struct tally pair[MAX_ENGINES][MAX_ENGINES];
    int terminations[TERM_COUNT];
    int faults[MAX_ENGINES][TERM_COUNT]; /* by engine: games lost on time, by an illegal move, a crash, a stall */
    double llr;
    enum sprt_verdict verdict;
    bool interrupted;
    int repeated[2];                /* the first two games found with the same start and moves, or 0 */
    char error[512];                /* why the match could not go on, if it could not */
};

/* The arguments after 'sennight match'; false with a message on bad ones. */
bool match_parse(int argc, char **argv, struct match_conf *c, char *err, size_t errlen);
/* Plays the match (this shard's games), printing progress and the report to out, warnings to stderr.
 * Returns 0 when it ran to its end or the SPRT stopped it, 1 when it could not go on, 130 when
 * interrupted by a signal. */
int match_run(const struct match_conf *c, struct match_result *r, FILE *out);
/* 'sennight match ...'; also prints the usage on bad arguments (exit status 2). */
int match_main(int argc, char **argv);
extern const char match_usage[];

#endif
