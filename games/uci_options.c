/* The reader of the UCI option table: declarations for `uci`, lookup and type checks for `setoption`. */
#include "uci_options.h"
#include "option_line.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../util/number.h"

static const char *const type_names[] = {
    [OPTION_TYPE_SPIN] = "spin", [OPTION_TYPE_CHECK] = "check", [OPTION_TYPE_COMBO] = "combo",
    [OPTION_TYPE_STRING] = "string", [OPTION_TYPE_BUTTON] = "button",
};

/* A combo's i-th value, NULL past the last. */
static const char *combo_value(const struct uci_option *o, int i)
{
    return o->vars ? o->vars[i] : o->var(i);
}

const struct uci_option *option_find(const struct uci_option *table, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcasecmp(table[i].name, name))
            return &table[i];
    return NULL;
}

bool option_default(const struct uci_option *o, long *x, const char **value)
{
    *x = o->type == OPTION_TYPE_SPIN || o->type == OPTION_TYPE_CHECK ? o->def : 0;
    *value = o->type == OPTION_TYPE_COMBO ? combo_value(o, 0) : o->type == OPTION_TYPE_STRING ? "<empty>" : "";
    return o->type != OPTION_TYPE_BUTTON;
}

void option_declare(const struct uci_option *o, struct text *line)
{
    text_printf(line, "option name %s type %s", o->name, type_names[o->type]);
    switch (o->type) {
    case OPTION_TYPE_SPIN:
        text_printf(line, " default %ld min %ld max %ld", o->def, o->min, o->max);
        break;
    case OPTION_TYPE_CHECK:
        text_printf(line, " default %s", o->def ? "true" : "false");
        break;
    case OPTION_TYPE_COMBO:
        text_printf(line, " default %s", combo_value(o, 0));
        for (int i = 0; combo_value(o, i); i++)
            text_printf(line, " var %s", combo_value(o, i));
        break;
    case OPTION_TYPE_STRING:
        text_printf(line, " default <empty>");
        break;
    case OPTION_TYPE_BUTTON:
        break;
    }
}

/* "<name>: a, b or c is expected". */
static void combo_expected(const struct uci_option *o, char *err, size_t errlen)
{
    size_t len = (size_t)snprintf(err, errlen, "%s:", o->name);
    for (int i = 0; o->vars[i] && len < errlen; i++)
        len += (size_t)snprintf(err + len, errlen - len, "%s %s", !i ? "" : o->vars[i + 1] ? "," : " or",
                                o->vars[i]);
    if (len < errlen)
        snprintf(err + len, errlen - len, " is expected");
}

bool option_parse(const struct uci_option *o, const char *value, long *x, char *err, size_t errlen)
{
    *x = 0;
    switch (o->type) {
    case OPTION_TYPE_SPIN:
        if (number_parse(value, o->min, o->max, x))
            return true;
        snprintf(err, errlen, "%s: a number from %ld to %ld is expected", o->name, o->min, o->max);
        return false;
    case OPTION_TYPE_CHECK:
        *x = !strcmp(value, "true");
        if (*x || !strcmp(value, "false"))
            return true;
        snprintf(err, errlen, "%s: true or false is expected", o->name);
        return false;
    case OPTION_TYPE_COMBO:
        if (!o->vars)
            return true;
        for (; o->vars[*x]; ++*x)
            if (!strcmp(o->vars[*x], value))
                return true;
        combo_expected(o, err, errlen);
        return false;
    case OPTION_TYPE_STRING:
    case OPTION_TYPE_BUTTON:
        break;
    }
    return true;
}

enum { MAX_DECLARED_VARS = 256 };

/* The number after " <word> " in a declaration, or `otherwise`. */
static long declared_number(const char *line, const char *word, long otherwise)
{
    const char *at = strstr(line, word);
    return at ? strtol(at + strlen(word), NULL, 10) : otherwise;
}

bool option_line_check(const char *line, const char *value, char *err, size_t errlen)
{
    const char *name = line + strlen("option name "), *type = strstr(name, " type ");
    char copy[8192], label[256];
    const char *vars[MAX_DECLARED_VARS + 1] = { NULL };
    if (strncmp(line, "option name ", 12) || !type || strlen(line) >= sizeof copy)
        return true;
    snprintf(label, sizeof label, "%.*s", (int)(type - name), name);
    struct uci_option o = { .name = label, .type = OPTION_TYPE_STRING };
    for (size_t t = 0; t < sizeof type_names / sizeof *type_names; t++) {
        size_t len = strlen(type_names[t]);
        if (!strncmp(type + 6, type_names[t], len) && (type[6 + len] == ' ' || !type[6 + len]))
            o.type = (enum option_type)t;
    }
    o.min = declared_number(type, " min ", 0);
    o.max = declared_number(type, " max ", 0);
    /* A combo's values, each after " var " (and up to the next). */
    snprintf(copy, sizeof copy, "%s", type);
    int n = 0;
    for (char *v = strstr(copy, " var "); v && n < MAX_DECLARED_VARS; v = strstr(v, " var ")) {
        *v = 0;
        vars[n++] = v += 5;
    }
    o.vars = o.type == OPTION_TYPE_COMBO && n ? vars : NULL;
    long x;
    return option_parse(&o, value, &x, err, errlen);
}
