/* The engine options that the page may set, each value checked by a process of the engine first. */
#include "options.h"

#include <stdio.h>
#include <string.h>

#include "../games/option_line.h"
#include "session.h"

static const char *const allowed_options[] = { "Threads", "Hash", "MultiPV", "OwnBook", "UCI_LimitStrength",
                                               "UCI_Elo" };

/* What an engine says of a value for one of its options, as a probe of its own process finds it. */
struct option_probe {
    const char *name;
    char declaration[8192];     /* its 'option name <name> type ...' line, empty if none */
    char error[256];            /* the first error line it printed after the setoption */
};

static void probe_declaration(void *ctx, const char *line)
{
    struct option_probe *p = ctx;
    size_t n = strlen(p->name);
    if (!strncmp(line, "option name ", 12) && !strncmp(line + 12, p->name, n) && !strncmp(line + 12 + n, " type ", 6))
        snprintf(p->declaration, sizeof p->declaration, "%s", line);
}

static void probe_error(void *ctx, const char *line)
{
    struct option_probe *p = ctx;
    if (p->error[0] || strncmp(line, "info string ", 12) || !strstr(line + 12, "error"))
        return;
    const char *text = line + 12;
    snprintf(p->error, sizeof p->error, "%s", strncmp(text, "error: ", 7) ? text : text + 7);
}

/* The HTTP status of setting an option, 200 if the engine takes the value: a process of the engine
 * is asked, so that a refusal (by its declaration's type and bounds, or its own error line) comes
 * back to the page instead of reaching the session's engines unseen. */
static int option_verdict(const char *cmd, const char *variant, const char *name, const char *value, char *err,
                          size_t errlen)
{
    struct uci_client c = { .timeout = ENGINE_TIMEOUT };
    struct option_probe p = { .name = name };
    atomic_bool never = false;
    int status = 200;
    enum uci_status st = uci_client_start(&c, cmd, NULL, 0, variant, &never);
    if (st == UCI_OK)
        st = uci_client_ask(&c, "uci", "uciok", probe_declaration, &p);
    if (st == UCI_OK && !p.declaration[0]) {
        snprintf(err, errlen, "the engine has no option '%s'", name);
        status = 400;
    } else if (st == UCI_OK && !option_line_check(p.declaration, value, err, errlen)) {
        status = 400;
    } else if (st == UCI_OK) {
        st = uci_client_set_option(&c, name, value);
        if (st == UCI_OK)
            st = uci_client_ask(&c, "isready", "readyok", probe_error, &p);
        if (st == UCI_OK && p.error[0]) {
            snprintf(err, errlen, "%s", p.error);
            status = 400;
        }
    }
    if (st != UCI_OK) {
        snprintf(err, errlen, "the engine could not be asked: %s", c.error);
        status = 503;
    }
    uci_client_end(&c, st == UCI_OK);
    return status;
}

void options_set(struct session *s, const json_t *body, const char *text, size_t len, struct reply *r)
{
    (void)text, (void)len;
    json_int_t id = 0;
    const char *name;
    json_t *value;
    size_t known = sizeof allowed_options / sizeof *allowed_options, i = 0;
    if (json_unpack((json_t *)body, "{s?I, s:s, s:o}", "engine", &id, "name", &name, "value", &value) || id < 0
        || id >= engine_list_count() || !(json_is_string(value) || json_is_integer(value) || json_is_boolean(value))) {
        reply_error(r, 400, "{\"engine\": 0..%d, \"name\": N, \"value\": V} expected", engine_list_count() - 1);
        return;
    }
    while (i < known && strcmp(name, allowed_options[i]))
        i++;
    if (i == known) {
        reply_error(r, 400, "option '%s' is not one the page may set", name);
        return;
    }
    char text_value[256];
    if (json_is_string(value))
        snprintf(text_value, sizeof text_value, "%s", json_string_value(value));
    else if (json_is_integer(value))
        snprintf(text_value, sizeof text_value, "%" JSON_INTEGER_FORMAT, json_integer_value(value));
    else
        snprintf(text_value, sizeof text_value, "%s", json_is_true(value) ? "true" : "false");
    if (strpbrk(text_value, "\r\n")) {
        reply_error(r, 400, "an option's value is one line");
        return;
    }
    char err[512];
    const char *variant = s->rec.v->name;
    pthread_mutex_unlock(&s->lock);
    int status = option_verdict(engine_list_get((int)id)->cmd, variant, name, text_value, err, sizeof err);
    pthread_mutex_lock(&s->lock);
    if (status != 200) {
        reply_error(r, status, "%s", err);
        return;
    }
    struct uci_option *list = s->option[id];
    int n = 0;
    while (n < s->noptions[id] && strcmp(list[n].name, name))
        n++;
    snprintf(list[n].name, sizeof list[n].name, "%s", name);
    snprintf(list[n].value, sizeof list[n].value, "%s", text_value);
    s->noptions[id] += n == s->noptions[id];
    s->options_version[id]++;
    reply_json(r, 200, json_pack("{s:I, s:s, s:s}", "engine", id, "name", name, "value", text_value));
}
