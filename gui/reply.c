/* The answer to a request. */
#include "reply.h"

#include <stdarg.h>
#include <stdio.h>

void reply_error(struct reply *r, int status, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* One line, whatever the message quotes. */
    for (char *c = msg; *c; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' ';
    r->status = status;
    r->json = json_pack("{s:s}", "error", msg);
}

void reply_json(struct reply *r, int status, json_t *json)
{
    r->status = status;
    r->json = json;
}
