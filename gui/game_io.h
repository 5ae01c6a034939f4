/* The game in and out as text (docs/gui.md#http-api), the session's lock held. */
#ifndef GAME_IO_H
#define GAME_IO_H

#include <jansson.h>
#include <stddef.h>

#include "reply.h"

struct session;

/* POST .../fen {"fen": F}: a new game from the position (another variant's start: a game of it). */
void game_io_fen(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r);
/* GET .../pgn (text NULL): the game as `sennight match -pgnout` writes it, with its variations and
 * review; POST .../pgn: a record of one game (text, len) replaces the session's. */
void game_io_pgn(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r);

#endif
