/* The GUI's HTTP server (libmicrohttpd): the page's files, the JSON API of docs/gui.md, the event
 * stream. */
#ifndef SERVER_H
#define SERVER_H

#include <stdbool.h>
#include <stddef.h>

/* Listens on host:port (port 0: any free port) and serves from its own threads; false with err if it
 * cannot. *bound is the port it listens on. */
bool server_start(const char *host, int port, int *bound, char *err, size_t errlen);
/* Closes every connection and stops the threads. */
void server_stop(void);

#endif
