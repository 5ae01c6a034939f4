/* A session's event stream (GET /api/session/<id>/events, docs/gui.md#http-api). */
#ifndef SESSION_STREAM_H
#define SESSION_STREAM_H

#include "reply.h"

struct session_stream;

/* NULL (and r set) for an unknown session. */
struct session_stream *session_stream_open(const char *id, struct reply *r);
/* The next part of the stream as Server-Sent Events text (to free), after waiting at most a few
 * seconds (then a comment that keeps the connection open); NULL once the session has ended. */
char *session_stream_next(struct session_stream *st);
void session_stream_close(struct session_stream *st);

#endif
