/* The session's worker thread (docs/gui.md#layout-of-the-code): it plays the engine seats' moves, runs
 * the analysis and the hints, each search with the session unlocked so that requests never wait for
 * an engine, and waits for the flag of the army to move; and the requests that give it work or take
 * it back. */
#ifndef WORKER_H
#define WORKER_H

#include <jansson.h>
#include <stddef.h>

#include "reply.h"

struct session;
struct engine;

/* The thread's body (pthread_create's arg: the session), until the session ends. */
void *worker_main(void *arg);
/* An engine of the session, not started: the worker starts its process when it first searches. */
void worker_engine_init(struct session *s, struct engine *e);

/* Requests, the session's lock held. POST .../analyse {"on", "multipv"}. */
void worker_analyse(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r);
/* POST .../hint: waits for the analysis engine's move. */
void worker_hint(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r);
/* POST .../restart {"seat": n|null}: a fresh process for a seat's engine or the analysis engine. */
void worker_restart(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r);

#endif
