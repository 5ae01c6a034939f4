/* The names the GUI's server answers to: the address it listens on, the names given with --name,
 * loopback names where a loopback connection reaches it. */
#include "hosts.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

enum { MAX_NAMES = 64, NAME_LEN = 256 };

static struct {
    char name[MAX_NAMES][NAME_LEN];
    bool loopback[MAX_NAMES];
    int count;
    atomic_int port;            /* set once listening, while requests may already be read */
    bool network;
} hosts;

static void name_add(const char *name, bool loopback)
{
    if (hosts.count == MAX_NAMES || strlen(name) >= NAME_LEN)
        return;
    for (int i = 0; i < hosts.count; i++)
        if (!strcasecmp(hosts.name[i], name))
            return;
    snprintf(hosts.name[hosts.count], NAME_LEN, "%s", name);
    hosts.loopback[hosts.count++] = loopback;
}

/* The machine's IPv4 addresses: those a server bound to 0.0.0.0 is reached by. */
static void interfaces_add(void)
{
    struct ifaddrs *list;
    if (getifaddrs(&list))
        return;
    for (struct ifaddrs *i = list; i; i = i->ifa_next) {
        char text[INET_ADDRSTRLEN];
        if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET)
            continue;
        struct in_addr a = ((struct sockaddr_in *)i->ifa_addr)->sin_addr;
        if (inet_ntop(AF_INET, &a, text, sizeof text))
            name_add(text, ntohl(a.s_addr) >> 24 == 127);
    }
    freeifaddrs(list);
}

void hosts_init(const char *addr, const char *const *names, int nnames, bool network)
{
    struct in_addr a = { 0 };
    bool any = inet_pton(AF_INET, addr, &a) == 1 && a.s_addr == htonl(INADDR_ANY);
    bool loopback = !strcmp(addr, "localhost") || (inet_pton(AF_INET, addr, &a) == 1 && ntohl(a.s_addr) >> 24 == 127);
    hosts.count = 0;
    hosts.network = network;
    if (!any)
        name_add(addr, loopback);
    for (int i = 0; i < nnames; i++)
        name_add(names[i], false);
    if (any)
        interfaces_add();
    if (loopback || any) {
        name_add("127.0.0.1", true);
        name_add("localhost", true);
        name_add("[::1]", true);
    }
}

void hosts_listen(int port)
{
    atomic_store(&hosts.port, port);
}

bool hosts_own(const char *value)
{
    const char *colon = strrchr(value, ':');
    char port[16];
    int listening = atomic_load(&hosts.port);
    snprintf(port, sizeof port, "%d", listening);
    if (!listening || !colon || strcmp(colon + 1, port))
        return false;
    size_t len = (size_t)(colon - value);
    for (int i = 0; i < hosts.count; i++)
        if (strlen(hosts.name[i]) == len && !strncasecmp(hosts.name[i], value, len))
            return true;
    return false;
}

json_t *hosts_network_json(void)
{
    if (!hosts.network)
        return json_null();
    json_t *list = json_array();
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < hosts.count; i++)
            if (hosts.loopback[i] == (pass == 1))
                json_array_append_new(list, json_sprintf("%s:%d", hosts.name[i], atomic_load(&hosts.port)));
    return json_pack("{s:o}", "hosts", list);
}
