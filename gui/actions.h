/* The game flow beside the moves (docs/gui.md#the-game-flow): a person resigns, offers or answers a
 * draw; an engine seat answers an offer by its last search score. A rematch restarts the session's
 * game (session.c) after checking its request here. */
#ifndef ACTIONS_H
#define ACTIONS_H

#include <jansson.h>
#include <stdbool.h>

#include "../games/game_record.h"
#include "../client/uci_client.h"

/* An engine accepts a draw when its last search scored its own prospects at most this (centipawns). */
enum { DRAW_ACCEPT_CP = 30 };

struct flow {
    int resigned;               /* the army that resigned, or -1 */
    bool agreed;                /* drawn by agreement */
    unsigned offers;            /* armies that offered or accepted a draw at ply offer_ply */
    int offer_ply;
    char message[160];          /* the last answer to an offer, shown at ply message_ply */
    int message_ply;
    bool scored[MAX_PLAYERS];
    int score[MAX_PLAYERS];     /* each engine seat's last search score, centipawns for itself */
};

/* What the requests need of the session's game. */
struct flow_game {
    const struct variant *v;
    int nseats, plies;
    bool engine[MAX_PLAYERS];
    unsigned armies;            /* on the board */
    bool over;                  /* ended by the rules, on time, aborted, or by this flow */
};

/* Clears the end and the offers; a new game clears the engines' scores too. */
void flow_reset(struct flow *f, bool new_game);
bool flow_over(const struct flow *f);
/* An engine seat's search ended with `reply`. */
void flow_scored(struct flow *f, int seat, const struct uci_reply *reply);

/* The army (its seat) a resign or draw request acts for, or -1 if it names none: only that seat's
 * player may make it (session_allowed, seats.h). */
int flow_army(const struct variant *v, const json_t *body);
/* POST .../resign {"army": "w"}: an HTTP status, with err unless 200. */
int flow_resign(struct flow *f, const struct flow_game *g, const json_t *body, char *err, size_t len);
/* POST .../draw {"army": "w", "accept": true|false}: offers, accepts or declines a draw. */
int flow_draw(struct flow *f, const struct flow_game *g, const json_t *body, char *err, size_t len);
/* POST .../rematch {"swap": true|false}: whether the seats move on by one army. */
int flow_rematch(const struct flow_game *g, const json_t *body, bool *swap, char *err, size_t len);

/* Each army's points ({"w": 0.5, ...}) when the armies in `share` split the point. */
json_t *flow_shared_points(const struct variant *v, unsigned share);
/* The result when this flow ended the game ({"text", "reason", "points", "army"}), else NULL. */
json_t *flow_result_json(const struct flow *f, const struct variant *v, unsigned armies);
/* {"offers": ["w"], "message": "..."}: the standing offer and the last answer, at ply `plies`. */
json_t *flow_draw_json(const struct flow *f, const struct variant *v, int plies);
/* The record's end when this flow ended the game. */
void flow_record(const struct flow *f, const struct variant *v, struct game_record *r, unsigned armies);

#endif
