/* The sub-commands' command lines (datagen, book, tune, match) read through one table of options: each
 * option's name, what its value is and where it goes in the command's own struct. Every mistake is
 * one line in err: "unknown option '-x'", "-x needs a value", "-x: a number from 1 to 9 is expected,
 * not '0'", "-x: a or b is expected, not 'c'", "-x does not go with this command", "at most 8 -x". */
#ifndef ARGS_H
#define ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { ARGS_MAX_WORDS = 256 };

enum arg_kind {
    ARG_TEXT,     /* the next argument (const char *) */
    ARG_BUFFER,   /* the next argument copied into char[size], refused if longer */
    ARG_INT,      /* a whole number from lo to hi (int) */
    ARG_LONG,     /* a whole number from lo to hi (long long) */
    ARG_REAL,     /* a number from lo to hi (double) */
    ARG_CHOICE,   /* one of the words in choices, stored as its index (int) */
    ARG_SET,      /* no value: the bool becomes lo != 0 */
    ARG_WORDS,    /* the arguments up to the next that starts with '-', added to a struct arg_words */
};

/* The words of an ARG_WORDS option, or a command's words that are no option. */
struct arg_words {
    const char *word[ARGS_MAX_WORDS];
    int n;
};

struct arg_option {
    const char *name;
    enum arg_kind kind;
    size_t at;                    /* where the value goes: offsetof the command's struct */
    long long lo, hi;             /* ARG_INT, ARG_LONG: the bounds; ARG_SET: the value */
    double rlo, rhi;              /* ARG_REAL: the bounds */
    size_t size;                  /* ARG_BUFFER: the buffer's size */
    const char *const *choices;   /* ARG_CHOICE: NULL-terminated */
    /* Repeated: at is an array of `repeat` values and count_at the int counting them (0: given once, a
     * later value replaces an earlier one; ARG_WORDS add up). */
    int repeat;
    size_t count_at;
    unsigned modes;               /* the modes (bits) the option goes with; 0: every one */
};

/* One entry of a table: ARG("--games", ARG_LONG, struct args, games, .lo = 1, .hi = 100). */
#define ARG(option, kind_, type, field, ...) \
    { .name = (option), .kind = (kind_), .at = offsetof(type, field), __VA_ARGS__ }

/* The size of a field (ARG_BUFFER's size). */
#define ARG_SIZE(type, field) sizeof(((type *)0)->field)

struct arg_table {
    const struct arg_option *option;
    int n;
    /* With words, the arguments that are no option go to the struct arg_words at words_at; without,
     * each is an unknown option. */
    bool words;
    size_t words_at;
};

#define ARG_TABLE(options, words, words_at) \
    { (options), (int)(sizeof(options) / sizeof *(options)), (words), (words_at) }

/* Reads argv into out (defaults set by the caller) for the mode (one bit, or 0); *given (may be NULL)
 * gets bit k for each option[k] read (k < 64). An argument is an option if the table names it; one
 * that starts with '-' and is not lone is an unknown option; any other is a word. False with one
 * line in err at the first mistake. */
bool args_parse(const struct arg_table *t, void *out, unsigned mode, int argc, char **argv, uint64_t *given,
                char *err, size_t errlen);
/* Whether args_parse read the option of that name. */
bool args_given(const struct arg_table *t, uint64_t given, const char *name);

#endif
