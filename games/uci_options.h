/* UCI options as data: one table row per option (name, type, default, bounds or values, setter), from
 * which `uci` prints each declaration and `setoption` finds the option and checks a value by its type
 * before the setter runs. */
#ifndef UCI_OPTIONS_H
#define UCI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "../util/text.h"

enum option_type { OPTION_TYPE_SPIN, OPTION_TYPE_CHECK, OPTION_TYPE_COMBO, OPTION_TYPE_STRING, OPTION_TYPE_BUTTON };

struct uci;

struct uci_option {
    const char *name;
    enum option_type type;
    long def, min, max;         /* spin: the default and bounds; check: the default, 0 or 1 */
    const char *const *vars;    /* combo: the values, NULL-terminated; the first is the default */
    /* combo: instead of vars, the i-th value known only at run time (NULL past the last); the setter
     * checks the value, as it alone knows what to say of a value not listed */
    const char *(*var)(int i);
    /* x: a spin's number, a check's 0 (false) or 1 (true), a listed combo value's index; else 0 */
    void (*set)(struct uci *u, long x, const char *value);
};

/* The columns each type uses, so that a row reads: name, type and its data, setter. A string's
 * default is always <empty>. */
#define OPTION_SPIN(def, min, max) OPTION_TYPE_SPIN, def, min, max, NULL, NULL
#define OPTION_CHECK(def)          OPTION_TYPE_CHECK, def, 0, 1, NULL, NULL
#define OPTION_COMBO(...)          OPTION_TYPE_COMBO, 0, 0, 0, (const char *const[]){ __VA_ARGS__, NULL }, NULL
#define OPTION_COMBO_OF(var)       OPTION_TYPE_COMBO, 0, 0, 0, NULL, var
#define OPTION_STRING              OPTION_TYPE_STRING, 0, 0, 0, NULL, NULL
#define OPTION_BUTTON              OPTION_TYPE_BUTTON, 0, 0, 0, NULL, NULL

/* The option of the table named name, compared case-insensitively; NULL if none. */
const struct uci_option *option_find(const struct uci_option *table, size_t n, const char *name);

/* o's default as its setter takes it: *x as option_parse gives it, and the value as text (a combo's
 * first value, a string's "<empty>", "" for a spin or check); false for a button, which has none. */
bool option_default(const struct uci_option *o, long *x, const char **value);

/* Appends o's declaration, the line `uci` prints for it: "option name <name> type <type> ...". */
void option_declare(const struct uci_option *o, struct text *line);

/* Checks value against o's type and bounds or values: true with *x set (see set above), or false with
 * the type's message in err, e.g. "Hash: a number from 1 to 1048576 is expected". */
bool option_parse(const struct uci_option *o, const char *value, long *x, char *err, size_t errlen);

#endif
