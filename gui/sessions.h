/* The list of sessions: at most 16, each found by its id with a counted reference; one without an
 * event stream for 30 s is ended by a reaper thread, and the longest idle one makes room for a new
 * one. */
#ifndef SESSIONS_H
#define SESSIONS_H

#include <stdbool.h>

#include "reply.h"

struct session;

/* Starts the reaper of abandoned sessions. */
void sessions_start(void);
/* Ends every session with its engines; later creations get 503. */
void sessions_stop(void);

/* A session by id, with a reference for the caller; NULL (and r set) if there is none. */
struct session *sessions_find(const char *id, struct reply *r);
/* Gives back a reference: the last frees the session. */
void sessions_release(struct session *s);
/* Reserves a place for one more session, counted at once so that concurrent creations cannot pass
 * the limit together (nor allocate their games first): the oldest one without a stream goes. False:
 * every place is taken by a session with a stream. */
bool sessions_reserve(void);
/* Gives back a place that sessions_reserve reserved for a session that was not made. */
void sessions_unreserve(void);
/* Puts a session made in its reserved place on the list (which holds its reference); false, the place
 * given back, when the server is stopping. */
bool sessions_add(struct session *s);
/* Ends a session taken off the list, or never put on it: its worker, its engines, then the list's
 * reference. */
void sessions_end(struct session *s);

#endif
