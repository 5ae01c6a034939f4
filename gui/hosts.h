/* The names the GUI's server answers to, for its Host and Origin checks: a page from any other name
 * (DNS rebinding included) is refused. */
#ifndef HOSTS_H
#define HOSTS_H

#include <jansson.h>
#include <stdbool.h>

/* The names for a server bound to `addr` (IPv4): the address, each of `names` (--name), the loopback
 * names when the address is a loopback one or 0.0.0.0, and with 0.0.0.0 every IPv4 address of the
 * machine's interfaces. `network`: listening was asked for with --host (the invite links). Before the
 * server starts. */
void hosts_init(const char *addr, const char *const *names, int nnames, bool network);
/* The port the server listens on, once it does: no name is this server's before. */
void hosts_listen(int port);
/* Whether `value` ("name:port", as a Host header or an Origin after "http://") names this server. */
bool hosts_own(const char *value);
/* For the page: null on loopback only, else {"hosts": ["name:port"...]}, the names an invite link may
 * use (the loopback ones last). */
json_t *hosts_network_json(void);

#endif
