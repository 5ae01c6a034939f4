/* Requests on the moves and the shown position (docs/gui.md#http-api), the session's lock held: each
 * answers with the new STATE. */
#ifndef MOVES_H
#define MOVES_H

#include <jansson.h>
#include <stddef.h>

#include "reply.h"

struct session;

/* POST .../move {"move": "f5f6"}: the game's next move, or a variation on an analysis board. */
void moves_play(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r);
/* POST .../line {"moves": [...]}: a line from the shown position, checked whole first. */
void moves_line(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r);
/* POST .../promote {"node": id}: the line through the move becomes the main line. */
void moves_promote(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r);
/* POST .../delete {"node": id}: the move and every move after it. */
void moves_delete(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r);
/* POST .../undo: the last move taken back (against an engine, back to a person's turn). */
void moves_undo(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r);
/* POST .../view {"ply"} or {"node"}: the position shown. */
void moves_view(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r);

#endif
