/* Search limits of one engine in a match (tc=, st=, nodes=, depth=, timemargin=) and the clock the
 * runner keeps for it. Times are in microseconds. */
#ifndef TC_H
#define TC_H

#include <stdbool.h>

#include "../util/text.h"

struct limits {
    int moves;                 /* moves per period of a clock (tc=40/60): 0 for the whole game */
    long long base, inc;       /* the clock: base 0 means no clock */
    long long movetime;        /* st=: a fixed time per move, or 0 */
    long long nodes;           /* 0: no limit */
    int depth;                 /* 0: no limit */
    long long margin;          /* timemargin= (given in ms): overstep allowed before a loss on time */
};

struct clock {
    long long left;            /* time on the clock */
    int moves;                 /* moves made in the current period */
};

/* "[moves/]seconds[+increment]", seconds also as m:ss ("40/1:00+0.6"). */
bool tc_parse(const char *text, struct limits *l);
/* A non-negative decimal number of seconds (st=, timeout=). */
bool tc_parse_seconds(const char *text, long long *us);
/* Appends the limits for the TimeControl tag and the report: "40/60+0.6", "st=0.5", "nodes=2000 depth=4". */
void tc_format(const struct limits *l, struct text *out);

void clock_start(struct clock *c, const struct limits *l);
/* How long the engine may think now before losing on time; -1: no time limit. */
long long clock_allowance(const struct clock *c, const struct limits *l);
/* Charges a move that took `elapsed`; false if that lost on time. */
bool clock_charge(struct clock *c, const struct limits *l, long long elapsed);
/* The arguments of 'go' for the side to move: <letter>time for every army's clock, then <letter>inc
 * ("wtime btime winc binc", "rtime wtime btime rinc winc binc") [and movestogo], or movetime; then
 * nodes and depth; appended to out. letters: the armies' colour letters, one per army. */
void clock_go_args(const struct limits *const l[], const struct clock c[], const char *letters, int narmies,
                   int side, struct text *out);

#endif
