/* The evaluation's weights as data: names, the built-in files, reading and writing them. */
#include "weights.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../rules/registry.h"
#include "../util/file.h"
#include "values.h"

enum { WEIGHT_LIMIT = 10000, WEIGHTS_FILE_MAX = 1 << 20, MAX_ANCESTRY = 8 };

const char *const eval_term_names[NUM_TERMS] = { "material", "piece-cell", "mobility", "royal safety",
                                                 "pawns",    "threats",    "triad",    "tempo",
                                                 "balance" };

const struct weight_family weight_families[] = {
    { "value", W_VALUE, MAX_TYPES, BY_TYPE, TERM_MATERIAL, 0 },
    { "mobility", W_MOBILITY, MAX_TYPES, BY_PIECE, TERM_MOBILITY, 0 },
    { "threat", W_THREAT, MAX_TYPES, BY_TYPE, TERM_THREATS, 0 },
    { "hanging", W_HANGING, MAX_TYPES, BY_TYPE, TERM_THREATS, 0 },
    { "passed", W_PASSED, MAX_TYPES, BY_PAWN, TERM_PAWNS, 0 },
    { "protected", W_PROTECTED, MAX_TYPES, BY_PAWN, TERM_PAWNS, 0 },
    { "isolated", W_ISOLATED, MAX_TYPES, BY_PAWN, TERM_PAWNS, 0 },
    { "blocked", W_BLOCKED, MAX_TYPES, BY_PAWN, TERM_PAWNS, 0 },
    { "doubled", W_DOUBLED, MAX_TYPES, BY_PAWN, TERM_PAWNS, 0 },
    { "leader", W_LEADER, MAX_TYPES, BY_TYPE, TERM_BALANCE, 3 },
    { "centre", W_CENTRE, RIM_MAX, BY_NUMBER, TERM_PST, 0 },
    { "royal-centre", W_ROYAL_CENTRE, RIM_MAX, BY_NUMBER, TERM_PST, 0 },
    { "advance", W_ADVANCE, ADVANCE_MAX, BY_NUMBER, TERM_PST, 0 },
    { "safety", W_SAFETY, SAFETY_MAX, BY_NUMBER, TERM_ROYAL, 0 },
    { "shield", W_SHIELD, 1, BY_NONE, TERM_ROYAL, 0 },
    { "shelter", W_SHELTER, 1, BY_NONE, TERM_ROYAL, 0 },
    { "triad", W_TRIAD, TRIAD_MAX, BY_NUMBER, TERM_TRIAD, 0 },
    { "tempo", W_TEMPO, 1, BY_NONE, TERM_TEMPO, 0 },
    { NULL, 0, 0, BY_NONE, 0, 0 },
};

const struct eval_weights eval_weights_default = {
    .stalemate_scale = 2000,
};

const struct weight_family *weights_family(int id, int *index)
{
    const struct weight_family *f = weight_families;
    while (f->name && !(id >= f->first && id < f->first + f->count))
        f++;
    *index = id - f->first;
    return f;
}

static bool type_fits(const struct variant *v, enum weight_index by, int t)
{
    const struct piece_def *pd = &v->piece[t];
    return t < v->ntypes && !pd->royal && (by == BY_TYPE || (by == BY_PAWN) == pd->pawn);
}

bool weights_applies(const struct variant *v, int id)
{
    int k;
    const struct weight_family *f = weights_family(id, &k);
    if (v->nplayers < f->min_players)
        return false;
    return f->by == BY_NONE || f->by == BY_NUMBER || type_fits(v, f->by, k);
}

/* A piece's name in weight names: with different armies a later army's piece whose name an earlier
 * army's piece has too gets its army's first colour letter ("rook@r"), so that every name is one weight. */
static const char *piece_weight_name(const struct variant *v, int t)
{
    static _Thread_local char buf[NAME_LEN + 3];
    const struct piece_def *pd = &v->piece[t];
    for (int o = 0; o < v->ntypes; o++)
        if (v->piece[o].army < pd->army && !strcmp(v->piece[o].name, pd->name)) {
            int first = 0;
            while (v->army[first] != pd->army)
                first++;
            snprintf(buf, sizeof buf, "%s@%c", pd->name, v->colour_letter[first]);
            return buf;
        }
    return pd->name;
}

void weights_name(const struct variant *v, int id, char *name, size_t len)
{
    int k;
    const struct weight_family *f = weights_family(id, &k);
    if (f->by == BY_NONE)
        snprintf(name, len, "%s", f->name);
    else if (f->by == BY_NUMBER)
        snprintf(name, len, "%s.%d", f->name, k);
    else
        snprintf(name, len, "%s.%s", f->name, piece_weight_name(v, k));
}

static bool parse_int(const char *s, int *x)
{
    char *end;
    errno = 0;
    long n = strtol(s, &end, 10);
    if (errno || end == s || *end || n < -WEIGHT_LIMIT || n > WEIGHT_LIMIT)
        return false;
    *x = (int)n;
    return true;
}

/* The weight ids a name sets: one, or with a bare per-type family name every type it applies to (maybe
 * none: a family default names no type). An error leaves why set, and *absent when the name is well
 * formed but names a piece the variant lacks or a family for another number of players. */
static int name_ids(const struct variant *v, const char *name, int *ids, char *why, size_t len, bool *absent)
{
    const char *dot = strchr(name, '.');
    size_t stem = dot ? (size_t)(dot - name) : strlen(name);
    const struct weight_family *f = weight_families;
    while (f->name && !(strlen(f->name) == stem && !strncmp(f->name, name, stem)))
        f++;
    if (!f->name) {
        snprintf(why, len, "unknown weight \"%.*s\"", (int)stem, name);
        return 0;
    }
    int n = 0;
    if (dot && v->nplayers < f->min_players) {
        *absent = true;
        snprintf(why, len, "\"%s\": %s weights are for variants of %d or more players", name, f->name, f->min_players);
        return 0;
    }
    if (f->by == BY_NONE || f->by == BY_NUMBER) {
        int k = 0;
        if ((f->by == BY_NONE) != !dot || (dot && (!parse_int(dot + 1, &k) || k < 0 || k >= f->count))) {
            snprintf(why, len, f->by == BY_NONE ? "\"%s\" takes no index" : "\"%s\" needs an index 0..%d", f->name,
                     f->count - 1);
            return 0;
        }
        ids[n++] = f->first + k;
        return n;
    }
    for (int t = 0; t < v->ntypes; t++)
        if (type_fits(v, f->by, t) && (!dot || !strcmp(piece_weight_name(v, t), dot + 1)))
            ids[n++] = f->first + t;
    *absent = dot && !n;
    if (dot && !n)
        snprintf(why, len, "\"%s\": %s has no such %s", name, v->name, f->by == BY_PAWN ? "pawn" : "piece");
    return n;
}

/* weights_parse; lenient skips the lines that name a piece or a family the variant does not have (an
 * ancestor's file read for a descendant that changed its pieces). */
static bool parse_text(const struct variant *v, const char *text, const char *source, bool lenient,
                       struct eval_params *p, char *err, size_t errlen)
{
    struct eval_params next = *p;
    int lineno = 0;
    size_t len = strlen(text);
    if (len && text[len - 1] != '\n') {
        int lines = 1;
        for (const char *c = text; *c; c++)
            lines += *c == '\n';
        snprintf(err, errlen, "%s:%d: the last line has no newline: the file was cut short?", source, lines);
        return false;
    }
    for (const char *line = text; *line;) {
        const char *eol = strchr(line, '\n');
        size_t n = eol ? (size_t)(eol - line) : strlen(line);
        char buf[256], *tok[4], *save = NULL, why[160] = "";
        lineno++;
        if (n >= sizeof buf) {
            snprintf(err, errlen, "%s:%d: line too long", source, lineno);
            return false;
        }
        memcpy(buf, line, n);
        buf[n] = 0;
        line += n + (eol != NULL);
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = 0;
        int ntok = 0;
        for (char *t = strtok_r(buf, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save))
            if (ntok < 4)
                tok[ntok++] = t;
            else
                ntok = 5;
        if (!ntok)
            continue;
        int ids[MAX_TYPES + 1], mg, eg, nids = 0;
        bool absent = false;
        if (!strcmp(tok[0], "lazy-margin")) {
            if (ntok != 2 || !parse_int(tok[1], &mg) || mg < 0)
                snprintf(why, sizeof why, "expected \"lazy-margin <centipawns>\", from 0 to %d", WEIGHT_LIMIT);
            else
                next.lazy_margin = mg;
        } else if (ntok != 3)
            snprintf(why, sizeof why, "expected \"<weight> <mg> <eg>\"");
        else if (!parse_int(tok[1], &mg) || !parse_int(tok[2], &eg))
            snprintf(why, sizeof why, "weights are integers from %d to %d", -WEIGHT_LIMIT, WEIGHT_LIMIT);
        else
            nids = name_ids(v, tok[0], ids, why, sizeof why, &absent);
        if (why[0] && !(absent && lenient)) {
            snprintf(err, errlen, "%s:%d: %s", source, lineno, why);
            return false;
        }
        for (int i = 0; i < nids; i++)
            if (weights_applies(v, ids[i]))
                next.w[ids[i]] = (struct phased){ mg, eg };
    }
    snprintf(next.source, sizeof next.source, "%s", source);
    *p = next;
    return true;
}

bool weights_parse(const struct variant *v, const char *text, const char *source, struct eval_params *p, char *err,
                   size_t errlen)
{
    return parse_text(v, text, source, false, p, err, errlen);
}

static const char *builtin_text(const char *name)
{
    for (const struct weights_file *f = weights_builtin; f->name; f++)
        if (!strcmp(f->name, name))
            return f->text;
    return NULL;
}

bool weights_default(const struct variant *v, struct eval_params *p, char *err, size_t errlen)
{
    int value[MAX_TYPES];
    memset(p, 0, sizeof *p);
    values_of(v, value);
    for (int t = 0; t < v->ntypes; t++)
        p->w[W_VALUE + t] = (struct phased){ value[t], value[t] };
    const char *family = builtin_text("default");
    return family && weights_parse(v, family, "built-in default", p, err, errlen);
}

bool weights_for_variant(const struct variant *v, struct eval_params *p, char *err, size_t errlen)
{
    if (!weights_default(v, p, err, errlen))
        return false;
    /* The variant's ancestors (a variant file's parent sections) from the root down: a family shares
     * its root's file, and each descendant's own file overrides lines of it. */
    const char *chain[MAX_ANCESTRY] = { v->name };
    int n = 1;
    for (const struct variant *a = v; n < MAX_ANCESTRY && a->parent[0] && (a = registry_find(a->parent)); n++)
        chain[n] = a->name;
    for (int i = n - 1; i >= 0; i--) {
        const char *text = builtin_text(chain[i]);
        char source[NAME_LEN + 16];
        snprintf(source, sizeof source, "built-in %s", chain[i]);
        if (text && !parse_text(v, text, source, i > 0, p, err, errlen))
            return false;
    }
    return true;
}

bool weights_load_file(const struct variant *v, const char *path, struct eval_params *p, char *err, size_t errlen)
{
    size_t n;
    char *text = file_read(path, WEIGHTS_FILE_MAX, &n, err, errlen);
    if (!text)
        return false;
    struct eval_params next;
    bool ok = false;
    if (strlen(text) != n)
        snprintf(err, errlen, "%s: not a text file", path);
    else
        ok = weights_for_variant(v, &next, err, errlen) && weights_parse(v, text, path, &next, err, errlen);
    free(text);
    if (ok)
        *p = next;
    return ok;
}

void weights_write(const struct variant *v, const struct eval_params *p, struct text *out)
{
    text_printf(out, "# Sennight evaluation weights for %s: <weight> <middlegame> <endgame> (docs/eval.md)\n", v->name);
    text_printf(out, "%-24s %6d\n", "lazy-margin", p->lazy_margin);
    for (int id = 0; id < NUM_WEIGHTS; id++) {
        char name[NAME_LEN + 32];
        if (!weights_applies(v, id))
            continue;
        weights_name(v, id, name, sizeof name);
        text_printf(out, "%-24s %6d %6d\n", name, p->w[id].mg, p->w[id].eg);
    }
}
