/* A game session of the GUI, one per browser tab: the game (struct game, as the match runner keeps
 * it) with its move tree, seats (people and UCI engines), clocks, the worker's job, analysis lines,
 * and the events that the page's stream reads. This header is the state that the session's files
 * share (docs/gui.md#layout-of-the-code); session.c says what the state means (whose turn, whether
 * the game is over, the clocks) and makes the changes that several of them make (a move played, a
 * new game). */
#ifndef SESSION_H
#define SESSION_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "../client/tc.h"
#include "../client/uci_client.h"
#include "actions.h"
#include "engine_list.h"
#include "record.h"
#include "seats.h"
#include "shares.h"

/* Times in microseconds, as engine_process and the clocks count them. */
#define MS 1000LL
#define SECONDS 1000000LL
enum {
    EVENT_RING = 32,            /* engine events a slow stream may fall behind by */
    MAX_LINES = 5,              /* MultiPV lines */
    MAX_OPTIONS = 8,            /* options the page may set per engine */
    PV_LEN = 1024,
};
static const long long ENGINE_TIMEOUT = 10 * SECONDS;   /* handshake, isready, stop */

enum engine_status { ENGINE_OK, ENGINE_THINKING, ENGINE_CRASHED, ENGINE_HUNG, ENGINE_FAILED };

/* An engine process of the session: a seat's, or the helper that analyses and gives hints. */
struct engine {
    int id;                     /* in the engine list */
    int elo;                    /* 0: full strength */
    enum engine_status status;
    char message[256];
    struct uci_client uci;      /* touched by the worker thread only */
    bool new_game;              /* ucinewgame before its next search */
    bool restart;               /* the page asked for a fresh process */
    int options_seen;           /* the version of its engine's options it has */
};

struct seat {
    bool engine;
    struct engine e;
};

/* A line of the running search, as the stream's analysis shows it. */
struct line {
    int depth;
    bool mate;
    int score;
    long long nodes, nps;
    char pv[PV_LEN];
};

enum job { JOB_NONE, JOB_ENGINE, JOB_HINT, JOB_ANALYSIS };

struct session {
    char id[17];
    pthread_mutex_t lock;
    pthread_cond_t wake;        /* the worker: something to do */
    pthread_cond_t changed;     /* streams and waiting requests: something to tell */
    int refs;                   /* under the list's lock (sessions.c) */
    struct session *next;
    pthread_t worker;
    bool ending;
    int streams;
    long long idle_since;
    struct record rec;
    struct game view;           /* the shown position when it is not the last */
    int node;                   /* the shown node of the tree */
    int ply;                    /* its ply */
    bool analysis;              /* the main line was edited: no engine plays, no clock runs */
    int nseats;
    struct seat seat[MAX_PLAYERS];
    struct seat_keys keys;      /* who may move, and change the game (served to the network) */
    const char *caller;         /* the token of the request being served, or NULL */
    struct engine helper;
    struct limits limits;
    struct clock clock[MAX_PLAYERS];
    long long turn_start;       /* when the clock of the army to move started */
    int forfeit;                /* the army that lost on time, or -1 */
    bool aborted;               /* ended before every army had moved */
    struct flow flow;           /* resigned, drawn by agreement, a draw offer */
    struct shares shares;       /* each army's latest search score, for the share bars */
    /* The worker's job; a change that makes it obsolete sets cancel. */
    enum job job;
    int job_seat;
    atomic_bool cancel;
    long long generation;       /* counts changes of the game */
    bool analyse;
    int multipv;
    long long analysis_wanted, analysis_done;
    int hint_asked, hint_done;
    char hint[32];
    /* Lines of the running search (analysis, or a seat's), for the stream. */
    int analysis_seat;          /* -1: the helper */
    int analysis_army;          /* the army the running search scores for */
    struct line lines[MAX_LINES];
    int nlines;
    long long analysis_version;
    /* Options set by the page, per engine of the list. */
    struct uci_option option[MAX_GUI_ENGINES][MAX_OPTIONS];
    int noptions[MAX_GUI_ENGINES], options_version[MAX_GUI_ENGINES];
    /* The stream: STATE by version, engine events in a ring. */
    long long state_version;
    char *events[EVENT_RING];
    long long nevents;
    struct review *review;      /* of the game's moves (a prefix of them), or NULL */
    long long review_changes;   /* counts reviews started and dropped */
};

/* The session's lock, and its conditions on the monotonic clock (which clock_us reads). */
void session_locks_init(struct session *s);
/* Waits on one of the session's conditions, its lock held, for at most `wait` microseconds. */
void session_wait(struct session *s, pthread_cond_t *cond, long long wait);
/* Frees a session whose worker has ended, or never started. */
void session_free(struct session *s);

/* What the state means (the session's lock held, as for the changes below). */
/* Whether the shown position is the game's last. */
bool session_at_end(const struct session *s);
/* The shown position. */
const struct game *session_shown(const struct session *s);
/* The army to move at the game's end. */
int session_side_to_move(const struct session *s);
bool session_clocked(const struct session *s);
/* Ended by the rules, on time, aborted, resigned or drawn by agreement. */
bool session_over(struct session *s);
/* Whether a move at an earlier position makes a variation (an analysis board): the game is over, no
 * engine plays in it, or its main line was edited. In a game against an engine the main line is the game. */
bool session_analysis_board(struct session *s);
/* Whether a person may move in the shown position: at the end of a game going on on their turn (any
 * turn once the main line was edited), before it on an analysis board while the position's game goes on. */
bool session_movable(struct session *s);
/* Whether an army's clock runs now. As on lichess, it starts with the army's first move: the time
 * taken over that move (reading the board, the piece guide) is not counted. */
bool session_clock_runs(struct session *s, int army);
/* A game may be aborted until every army has moved. */
bool session_abortable(struct session *s);
/* Time left on an army's clock now. */
long long session_clock_left(struct session *s, int army);

/* The changes. */
/* The STATE changed: the streams send it again. */
void session_state_changed(struct session *s);
/* Something the worker may care about changed; a change of the game makes every search obsolete,
 * any other change (the shown position, the analysis settings, a hint) only the analysis. */
void session_interrupt(struct session *s, bool game_changed);
/* The shown node's ply and position (in s->view unless it is the game's last); false only without memory. */
bool session_show_node(struct session *s);
/* The game changed: the view follows it when it showed the last position (follow), and goes there
 * when its node is gone. */
void session_game_changed(struct session *s, bool follow);
void session_lose_on_time(struct session *s, int side);
/* Charges the army to move for the time since its turn began; false if its flag fell. */
bool session_charge_clock(struct session *s);
/* Plays m at the game's end. */
void session_play(struct session *s, move_t m);
/* The review of moves taken back or replaced is of another game. */
void session_drop_review(struct session *s);
/* A new game (rec, taken over) replaces the session's: engines start it afresh (with a new variant,
 * as new processes). */
void session_replace_game(struct session *s, struct record *rec);

#endif
