/* The sub-commands' options, read through one table. */
#include "args.h"

#include <stdio.h>
#include <string.h>

#include "number.h"

static const struct arg_option *option_find(const struct arg_table *t, const char *name)
{
    for (int k = 0; k < t->n; k++)
        if (!strcmp(t->option[k].name, name))
            return &t->option[k];
    return NULL;
}

/* Where option o's next value goes: its field, or its array's next slot (NULL when full). */
static void *option_slot(const struct arg_option *o, void *out, size_t size, char *err, size_t errlen)
{
    char *base = (char *)out + o->at;
    if (!o->repeat)
        return base;
    int *count = (int *)((char *)out + o->count_at);
    if (*count == o->repeat) {
        snprintf(err, errlen, "at most %d %s", o->repeat, o->name);
        return NULL;
    }
    return base + size * (size_t)(*count)++;
}

static bool choice_read(const struct arg_option *o, const char *value, int *index, char *err, size_t errlen)
{
    int n = 0;
    for (; o->choices[n]; n++)
        if (!strcmp(o->choices[n], value)) {
            *index = n;
            return true;
        }
    size_t len = (size_t)snprintf(err, errlen, "%s: ", o->name);
    for (int i = 0; i < n && len < errlen; i++)
        len += (size_t)snprintf(err + len, errlen - len, "%s%s", o->choices[i],
                                i == n - 1 ? "" : i == n - 2 ? " or " : ", ");
    if (len < errlen)
        snprintf(err + len, errlen - len, " is expected, not '%s'", value);
    return false;
}

/* The value of option o at argv[*i + 1] (ARG_WORDS: those that follow up to the next option). */
static bool value_read(const struct arg_option *o, void *out, int argc, char **argv, int *i, char *err,
                       size_t errlen)
{
    if (o->kind == ARG_SET) {
        *(bool *)((char *)out + o->at) = o->lo != 0;
        return true;
    }
    if (o->kind == ARG_WORDS) {
        struct arg_words *w = option_slot(o, out, sizeof *w, err, errlen);
        while (w && *i + 1 < argc && argv[*i + 1][0] != '-' && w->n < ARGS_MAX_WORDS)
            w->word[w->n++] = argv[++*i];
        return w != NULL;
    }
    if (++*i == argc) {
        snprintf(err, errlen, "%s needs a value", o->name);
        return false;
    }
    const char *value = argv[*i];
    long whole;
    double real;
    int index;
    bool ok = true;
    switch (o->kind) {
    case ARG_TEXT: {
        const char **slot = option_slot(o, out, sizeof *slot, err, errlen);
        if (!slot)
            return false;
        *slot = value;
        return true;
    }
    case ARG_BUFFER:
        if (strlen(value) < o->size) {
            memcpy((char *)out + o->at, value, strlen(value) + 1);
            return true;
        }
        snprintf(err, errlen, "%s: at most %zu characters, not %zu", o->name, o->size - 1, strlen(value));
        return false;
    case ARG_INT:
    case ARG_LONG:
        ok = number_parse(value, (long)o->lo, (long)o->hi, &whole);
        if (ok && o->kind == ARG_INT)
            *(int *)((char *)out + o->at) = (int)whole;
        else if (ok)
            *(long long *)((char *)out + o->at) = whole;
        else
            snprintf(err, errlen, "%s: a number from %lld to %lld is expected, not '%s'", o->name, o->lo, o->hi,
                     value);
        return ok;
    case ARG_REAL:
        if ((ok = number_parse_real(value, o->rlo, o->rhi, &real)))
            *(double *)((char *)out + o->at) = real;
        else
            snprintf(err, errlen, "%s: a number from %g to %g is expected, not '%s'", o->name, o->rlo, o->rhi, value);
        return ok;
    case ARG_CHOICE:
        if ((ok = choice_read(o, value, &index, err, errlen)))
            *(int *)((char *)out + o->at) = index;
        return ok;
    case ARG_SET:
    case ARG_WORDS:
        break;   /* read above: no single value */
    }
    return false;
}

bool args_parse(const struct arg_table *t, void *out, unsigned mode, int argc, char **argv, uint64_t *given,
                char *err, size_t errlen)
{
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        const struct arg_option *o = option_find(t, arg);
        /* A lone '-' is a word: a FEN's empty field. */
        bool word = !o && (arg[0] != '-' || !arg[1]);
        if (word && t->words) {
            struct arg_words *w = (struct arg_words *)((char *)out + t->words_at);
            if (w->n == ARGS_MAX_WORDS) {
                snprintf(err, errlen, "too many arguments");
                return false;
            }
            w->word[w->n++] = arg;
            continue;
        }
        if (!o) {
            snprintf(err, errlen, "unknown option '%s'", arg);
            return false;
        }
        if (o->modes && !(o->modes & mode)) {
            snprintf(err, errlen, "%s does not go with this command", arg);
            return false;
        }
        if (!value_read(o, out, argc, argv, &i, err, errlen))
            return false;
        if (given && o - t->option < 64)
            *given |= 1ull << (o - t->option);
    }
    return true;
}

bool args_given(const struct arg_table *t, uint64_t given, const char *name)
{
    const struct arg_option *o = option_find(t, name);
    return o && (given >> (o - t->option) & 1);
}
