/* Requests on a session: /api/session/<id>[/<action>] but the stream (docs/gui.md#http-api). */
#ifndef SESSION_REQUESTS_H
#define SESSION_REQUESTS_H

#include <jansson.h>
#include <stddef.h>

#include "reply.h"

/* body is the request's JSON (NULL if none), text and len its raw bytes (a game record), token the
 * asker's (X-Sennight-Token; NULL: none). */
void session_request(const char *id, const char *action, const char *method, const json_t *body, const char *text,
                     size_t len, const char *token, struct reply *r);

#endif
