/* Game sessions of the GUI, one per browser tab: the game kept with the project's own rules, its
 * seats (people and UCI engines), clocks, analysis, and the events that the page's stream reads. */
#ifndef SESSION_H
#define SESSION_H

#include <jansson.h>
#include <stddef.h>

#include "reply.h"

/* Starts the reaper of abandoned sessions. */
void sessions_start(void);
/* Ends every session with its engines; later requests get 503. */
void sessions_stop(void);
/* POST /api/session. */
void session_create(const json_t *body, struct reply *r);
/* /api/session/<id>[/<action>] but the stream: body is the request's JSON (NULL if none), text and
 * len its raw bytes (a game record), token the asker's (X-Sennight-Token; NULL: none). */
void session_request(const char *id, const char *action, const char *method, const json_t *body, const char *text,
                     size_t len, const char *token, struct reply *r);

/* GET /api/session/<id>/events: NULL (and r set) for an unknown session. */
struct session_stream *session_stream_open(const char *id, struct reply *r);
/* The next part of the stream as Server-Sent Events text (to free), after waiting at most a few
 * seconds (then a comment that keeps the connection open); NULL once the session has ended. */
char *session_stream_next(struct session_stream *st);
void session_stream_close(struct session_stream *st);

#endif
