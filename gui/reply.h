/* The answer to a request on the GUI's API (docs/gui.md#http-api): a status with a JSON body, or a
 * text (a game record); gui/server.c sends it. */
#ifndef REPLY_H
#define REPLY_H

#include <jansson.h>

struct reply {
    int status;
    json_t *json;
    char *text;
};

/* {"error": "<message>"} with the status. */
void reply_error(struct reply *r, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The JSON body (owned by the reply from now on) with the status. */
void reply_json(struct reply *r, int status, json_t *json);

#endif
