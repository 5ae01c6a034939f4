/* A new session (POST /api/session, docs/gui.md#http-api). */
#ifndef SESSION_CREATE_H
#define SESSION_CREATE_H

#include <jansson.h>

#include "reply.h"

/* {"variant", "fen", "moves", "seats", "clock", "limits"} → 201 {"id", "state", "tokens"}. */
void session_create(const json_t *body, struct reply *r);

#endif
