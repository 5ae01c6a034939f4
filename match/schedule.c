/* The schedule of a match: seatings, pairings and openings by game number. */
#include "schedule.h"

int schedule_seatings(int n)
{
    return n < 2 ? 1 : n * schedule_seatings(n - 1);
}

int schedule_pairings(const struct match_conf *c)
{
    int n = c->nengines;
    return c->tournament == TOURNAMENT_GAUNTLET ? n - 1 : c->tournament == TOURNAMENT_ROUND_ROBIN ? n * (n - 1) / 2 : 1;
}

/* The k-th order (lexicographic) of the n engines over the colours: for two 0 1, then 1 0; for three
 * 0 1 2, 0 2 1, 1 0 2, 1 2 0, 2 0 1, 2 1 0. Over n! games every engine plays every colour equally often,
 * and with three engines each one follows each other one in the turn order equally often. */
static void seat_engines(int n, int k, int engine_of[])
{
    int unseated[MAX_PLAYERS];
    for (int e = 0; e < n; e++)
        unseated[e] = e;
    for (int colour = 0; colour < n; colour++) {
        int rest = schedule_seatings(n - 1 - colour), pick = k / rest;
        k %= rest;
        engine_of[colour] = unseated[pick];
        for (int i = pick; i + 1 < n - colour; i++)
            unseated[i] = unseated[i + 1];
    }
}

/* The engines of pairing p, in the order 0 1 2 ... (round robin: 0-1, 0-2, ..., 1-2, ...). */
static void pairing_engines(const struct match_conf *c, int p, int engines[MAX_PLAYERS])
{
    int n = c->nengines;
    if (c->tournament == TOURNAMENT_MATCH) {
        for (int e = 0; e < n; e++)
            engines[e] = e;
        return;
    }
    if (c->tournament == TOURNAMENT_GAUNTLET) {
        engines[0] = 0;
        engines[1] = p + 1;
        return;
    }
    int first = 0;
    while (p >= n - 1 - first)
        p -= n - 1 - first++;
    engines[0] = first;
    engines[1] = first + 1 + p;
}

/* A unit is the n! games that seat the engines of a pairing in every order: with -repeat they share
 * an opening. Units go to the pairings in turn, so that every pairing plays the same openings. */
void schedule_game(const struct match_conf *c, int i, int engine_of[MAX_PLAYERS], int *opening)
{
    int n = c->v->nplayers, unit = schedule_seatings(n), u = i / unit, pairings = schedule_pairings(c);
    int engines[MAX_PLAYERS], seat[MAX_PLAYERS];
    pairing_engines(c, u % pairings, engines);
    seat_engines(n, i % unit, seat);
    for (int colour = 0; colour < n; colour++)
        engine_of[colour] = engines[seat[colour]];
    *opening = c->repeat ? u / pairings : u / pairings * unit + i % unit;
}
