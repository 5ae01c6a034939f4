/* The engine options that the page may set (Threads, Hash, MultiPV, ...), per engine of the list. */
#ifndef OPTIONS_H
#define OPTIONS_H

#include <jansson.h>
#include <stddef.h>

#include "reply.h"

struct session;

/* POST .../options {"engine", "name", "value"}, the session's lock held (let go while a process of
 * the engine checks the value). */
void options_set(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r);

#endif
