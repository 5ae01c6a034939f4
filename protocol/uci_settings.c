/* The UCI server's options: the table `uci` declares and `setoption` sets, what each option changes,
 * and the variant's book and weights that options choose. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../engine/engine.h"
#include "../eval/nnue.h"
#include "../games/uci_options.h"
#include "../rules/registry.h"
#include "../util/file.h"
#include "../util/version.h"
#include "uci_engine.h"

static void announce_book(struct uci *u, const char *path)
{
    say("info string book %s: %zu entries, %zu positions, variant %s", path, u->book.n, u->book.npositions,
        u->game.v->name);
}

/* The current variant's book, looked up when OwnBook is on or BookFile is set (docs/books.md): a
 * BookFile directory's <variant>.bin; a BookFile book if it is this variant's; otherwise the shipped
 * books/<variant>.bin. Announced in one line; an error is reported and leaves no book. */
static void load_book(struct uci *u)
{
    char err[ERR_LEN * 2], path[sizeof u->book_path + NAME_LEN + 8], relative[NAME_LEN + 16];
    const char *name = u->game.v->name;
    struct stat st;
    bool dir = u->book_path[0] && !stat(u->book_path, &st) && S_ISDIR(st.st_mode);
    book_close(&u->book);
    if (!u->own_book && !u->book_path[0])
        return;
    if (u->book_path[0] && !dir) {
        if (!book_open(&u->book, u->book_path, NULL, err, sizeof err)) {
            say_error(err);
            return;
        }
        if (u->book.v == u->game.v) {
            announce_book(u, u->book_path);
            return;
        }
        book_close(&u->book);
    }
    snprintf(relative, sizeof relative, "books/%s.bin", name);
    bool found = dir ? (size_t)snprintf(path, sizeof path, "%s/%s.bin", u->book_path, name) < sizeof path
                           && !stat(path, &st)
                     : file_find_shipped(relative, path, sizeof path);
    if (!found)
        say("info string no book for variant %s%s%s", name, dir ? " in " : "", dir ? u->book_path : "");
    else if (book_open(&u->book, path, u->game.v, err, sizeof err))
        announce_book(u, path);
    else
        say_error(err);
}

/* The table's scores and evaluations are the old evaluation's: a changed one starts from an empty
 * table, as after ucinewgame. */
static void evaluation_changed(struct uci *u)
{
    table_clear(u);
}

void table_clear(struct uci *u)
{
    if (u->table_used)
        pool_clear(u->pool);
    u->table_used = false;
}

/* The variant's built-in weights with the file's on top ("": none) into the game; one error line
 * and the game's weights kept on failure. */
static bool apply_weights(struct uci *u, const char *path)
{
    char err[ERR_LEN];
    struct eval_params p;
    bool ok = path[0] ? weights_load_file(u->game.v, path, &p, err, sizeof err)
                      : weights_for_variant(u->game.v, &p, err, sizeof err);
    if (!ok || !game_load_weights(&u->game, &p, err, sizeof err)) {
        say_error(err);
        return false;
    }
    return true;
}

void select_variant(struct uci *u, const char *name)
{
    char err[ERR_LEN];
    const struct variant *v = registry_find(name), *old = u->game.v;
    bool built;
    if (!v) {
        snprintf(err, sizeof err, "unknown variant '%s' (the command 'variants' lists them)", name);
        say_error(err);
    } else if (!shelf_switch(u, v, &built, err, sizeof err)) {
        say_error(err);
    } else {
        /* A new game has the variant's built-in weights: the EvalWeights file goes on top again. */
        if (built && u->weights_path[0])
            apply_weights(u, u->weights_path);
        if (old != v)
            load_book(u);
    }
}

static void list_variants(const char *prefix)
{
    char line[4096];
    size_t len = (size_t)snprintf(line, sizeof line, "%s", prefix);
    for (int i = 0; i < registry_count() && len + NAME_LEN + 2 < sizeof line; i++)
        len += (size_t)snprintf(line + len, sizeof line - len, " %s", registry_get(i)->name);
    say("%s", line);
}

/* Joins words with single spaces; false if they do not fit. */
bool join_words(char *out, size_t len, char **words, int n)
{
    size_t used = 0;
    out[0] = 0;
    for (int i = 0; i < n && n > 0; i++) {
        int w = snprintf(out + used, len - used, "%s%s", i ? " " : "", words[i]);
        if (w < 0 || used + (size_t)w >= len)
            return false;
        used += (size_t)w;
    }
    return true;
}

/* The UCI_Variant combo: every registered variant; the first, glinski, is the default uci_new starts with. */
static const char *variant_name(int i)
{
    return i < registry_count() ? registry_get(i)->name : NULL;
}

static void set_variant(struct uci *u, long x, const char *value)
{
    (void)x;
    select_variant(u, value);
}

static void set_variant_path(struct uci *u, long x, const char *value)
{
    (void)u, (void)x;
    char err[ERR_LEN * 4];
    if (!value[0] || !strcmp(value, "<empty>"))
        return;
    if (registry_add_file(value, false, game_validate_variant, err, sizeof err) < 0)
        say_error(err);
    else
        list_variants("info string variants:");
}

static void set_hash(struct uci *u, long x, const char *value)
{
    (void)value;
    if (!pool_configure(u->pool, u->threads, (size_t)x))
        say_error("Hash: cannot allocate that much; the table keeps its size");
    else
        u->hash_mb = (size_t)x;
}

static void set_threads(struct uci *u, long x, const char *value)
{
    (void)value;
    if (!pool_configure(u->pool, (int)x, u->hash_mb))
        say_error("Threads: cannot reconfigure the threads; their number stays");
    else
        u->threads = (int)x;
}

static void set_book_file(struct uci *u, long x, const char *value)
{
    (void)x;
    snprintf(u->book_path, sizeof u->book_path, "%s", strcmp(value, "<empty>") ? value : "");
    load_book(u);
}

/* EvalWeights: a weights file on top of the variant's built-in weights; "<empty>" the built-in ones. */
static void set_eval_weights(struct uci *u, long x, const char *value)
{
    (void)x;
    const char *path = strcmp(value, "<empty>") ? value : "";
    /* The built-in weights again are no change (GUIs send every option's default at start). */
    if (!path[0] && !u->weights_path[0])
        return;
    /* Kept even when it does not fit the variant in use: a GUI may set it before UCI_Variant, and
     * selecting a variant applies it again. */
    snprintf(u->weights_path, sizeof u->weights_path, "%s", path);
    u->weights_epoch++;
    if (apply_weights(u, path))
        evaluation_changed(u);
}

static void set_clear_hash(struct uci *u, long x, const char *v) { (void)x, (void)v; table_clear(u); }

static void set_multipv(struct uci *u, long x, const char *v) { (void)v; u->multipv = (int)x; }

static void set_ponder(struct uci *u, long x, const char *v) { (void)v; u->ponder = x; }

static void set_move_overhead(struct uci *u, long x, const char *v) { (void)v; u->move_overhead = x; }

static void set_evaluation(struct uci *u, long x, const char *v)
{
    (void)v;
    if (u->weights.material_only != (int)x)
        evaluation_changed(u);
    u->weights.material_only = (int)x;
}

static void set_search3(struct uci *u, long x, const char *v) { (void)v; pool_set_search3(u->pool, (enum search3)x); }

static void set_own_book(struct uci *u, long x, const char *v)
{
    (void)v;
    u->own_book = x;
    load_book(u);
}

/* UseNNUE and EvalFile (docs/nnue.md) are the session's choice of nets: they take effect for its
 * game at once and for every game it sets up later; UseNNUE true and a file answer in one line, the
 * defaults silently. */
static void announce_nnue(struct uci *u, const struct variant *file_variant, const char *file)
{
    char what[ERR_LEN];
    game_use_nets(&u->game, &u->nets);
    nnue_describe(&u->nets, u->game.v, what, sizeof what);
    if (file_variant && file_variant != u->game.v)
        say("info string EvalFile %s: a net for %s; %s keeps its evaluation: %s", file, file_variant->name,
            u->game.v->name, what);
    else
        say("info string evaluation: %s", what);
}

static void set_use_nnue(struct uci *u, long x, const char *v)
{
    (void)v;
    bool was = u->nets.use;
    u->nets.use = x;
    game_use_nets(&u->game, &u->nets);
    if (was != u->nets.use)
        evaluation_changed(u);
    if (x)
        announce_nnue(u, NULL, "");
}

/* A file that is no net of a known variant definition is refused and changes nothing; <empty>
 * returns to the shipped nets. */
static void set_eval_file(struct uci *u, long x, const char *value)
{
    (void)x;
    char err[ERR_LEN * 4];
    const struct variant *v;
    if (!strcmp(value, "<empty>")) {
        nnue_choice_clear(&u->nets);
        game_use_nets(&u->game, &u->nets);
    } else if ((v = nnue_choice_add_file(&u->nets, value, err, sizeof err))) {
        announce_nnue(u, v, value);
    } else {
        say_error(err);
        return;
    }
    /* The files' nets evaluate only with UseNNUE on. */
    if (u->nets.use)
        evaluation_changed(u);
}

static void set_analyse(struct uci *u, long x, const char *v) { (void)v; u->analyse = x; }

static void set_limit_strength(struct uci *u, long x, const char *v) { (void)v; u->limit_strength = x; }

static void set_elo(struct uci *u, long x, const char *v) { (void)v; u->elo = (int)x; }

static void set_book_variety(struct uci *u, long x, const char *v) { (void)v; u->book_variety = (enum book_variety)x; }

static void set_book_depth(struct uci *u, long x, const char *v) { (void)v; u->book_depth = (int)x; }

/* Every option, in the order `uci` declares them. A listed combo value's index is what its setter
 * stores; settings_reset gives each setter its default (index 0 for a combo). */
static const struct uci_option options[] = {
    { "UCI_Variant",       OPTION_COMBO_OF(variant_name),                                       set_variant },
    { "VariantPath",       OPTION_STRING,                                                       set_variant_path },
    { "Hash",              OPTION_SPIN(TT_DEFAULT_MB, 1, TT_MAX_MB),                            set_hash },
    { "Clear Hash",        OPTION_BUTTON,                                                       set_clear_hash },
    { "Threads",           OPTION_SPIN(DEFAULT_THREADS, 1, MAX_THREADS),                        set_threads },
    { "MultiPV",           OPTION_SPIN(DEFAULT_MULTIPV, 1, MAX_MULTIPV),                        set_multipv },
    { "Ponder",            OPTION_CHECK(false),                                                 set_ponder },
    { "Move Overhead",     OPTION_SPIN(DEFAULT_OVERHEAD, 0, MAX_OVERHEAD),                      set_move_overhead },
    { "Evaluation",        OPTION_COMBO("full", "material"),                                    set_evaluation },
    { "EvalWeights",       OPTION_STRING,                                                       set_eval_weights },
    { "UseNNUE",           OPTION_CHECK(false),                                                 set_use_nnue },
    { "EvalFile",          OPTION_STRING,                                                       set_eval_file },
    { "ThreePlayerSearch", OPTION_COMBO([SEARCH3_BRS] = "brs", [SEARCH3_PARANOID] = "paranoid"), set_search3 },
    { "OwnBook",           OPTION_CHECK(false),                                                 set_own_book },
    { "UCI_AnalyseMode",   OPTION_CHECK(false),                                                 set_analyse },
    { "UCI_LimitStrength", OPTION_CHECK(false),                                                 set_limit_strength },
    { "UCI_Elo",           OPTION_SPIN(SKILL_ELO_DEFAULT, SKILL_ELO_MIN, SKILL_ELO_MAX),        set_elo },
    { "BookFile",          OPTION_STRING,                                                       set_book_file },
    { "BookVariety",       OPTION_COMBO([BOOK_WEIGHTED] = "weighted", [BOOK_BEST] = "best"),    set_book_variety },
    { "BookDepth",         OPTION_SPIN(0, 0, MAX_BOOK_DEPTH),                                   set_book_depth },
};

void cmd_uci(struct uci *u, char **tok, int n)
{
    (void)u, (void)tok, (void)n;
    struct text line = { 0 };
    say("id name Sennight %s", sennight_version);
    say("id author the Sennight developers");
    for (size_t i = 0; i < sizeof options / sizeof *options; i++) {
        text_clear(&line);
        option_declare(&options[i], &line);
        say("%s", text_str(&line));
    }
    text_free(&line);
    say("uciok");
}

/* setoption name <id> [value <x>]: both may contain spaces. Options take effect between searches:
 * setoption is no while_busy command, so uci_execute has stopped or waited for the running search
 * before it gets here, and a search keeps the copy of the weights it started with. */
void cmd_setoption(struct uci *u, char **tok, int n)
{
    int vi = n;
    for (int i = 2; i < n; i++)
        if (!strcmp(tok[i], "value")) {
            vi = i;
            break;
        }
    if (n < 3 || strcmp(tok[1], "name") || vi == 2) {
        say_error("usage: setoption name <id> [value <x>]");
        return;
    }
    char name[256] = "", value[4096] = "";
    if (!join_words(name, sizeof name, tok + 2, vi - 2) || !join_words(value, sizeof value, tok + vi + 1, n - vi - 1)) {
        say_error("setoption: name or value too long");
        return;
    }
    char err[ERR_LEN];
    long x;
    const struct uci_option *o = option_find(options, sizeof options / sizeof *options, name);
    if (!o) {
        snprintf(err, sizeof err, "unknown option '%s'", name);
        say_error(err);
    } else if (!option_parse(o, value, &x, err, sizeof err)) {
        say_error(err);
    } else {
        o->set(u, x, value);
    }
}

void settings_reset(struct uci *u)
{
    for (size_t i = 0; i < sizeof options / sizeof *options; i++) {
        long x;
        const char *value;
        if (options[i].set != set_variant && option_default(&options[i], &x, &value))
            options[i].set(u, x, value);
    }
}
