/* The protocol as a GUI sees it: scripts run through the real executable ($SENNIGHT), sessions run
 * in-process on one engine, and a fuzz test of the command reader. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../games/uci_options.h"
#include "../protocol/uci.h"
#include "../util/clock.h"
#include "engine_pipe.h"
#include "tests.h"

#define GLINSKI_BOARD "6/P5p/RP4pr/N1P3p1n/Q2P2p2q/BBB1P1p1bbb/K2P2p2k/N1P3p1n/RP4pr/P5p/6"
#define GLINSKI_START GLINSKI_BOARD " w - - 0 1"
#define MCCOOEY_START "6/7/P6p/RP5pr/QNP4pnq/BBBP3pbbb/KNP4pnk/RP5pr/P6p/7/6 w - - 0 1"
/* Glinski after e4e6: a double step, so the FEN has an en-passant cell. */
#define GLINSKI_E4E6 "6/P5p/RP4pr/N1P3p1n/Q4Pp2q/BBB1P1p1bbb/K2P2p2k/N1P3p1n/RP4pr/P5p/6 b - e5 0 1"
/* Kings on g1 and g10 with a White rook between them on g5. */
#define ROOK_CHECK_BOARD "6/7/8/9/10/11/K3R4k/9/8/7/6"

/* ------------------------------------------------------------------------------------------- */
/* Output lines collected from the engine. */

struct lines {
    char **v;
    int n, cap;
};

static void lines_add(struct lines *l, const char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 32;
        l->v = realloc(l->v, (size_t)l->cap * sizeof *l->v);
        ck_assert(l->v != NULL);
    }
    l->v[l->n] = strdup(s);
    ck_assert(l->v[l->n] != NULL);
    l->n++;
}

static void lines_free(struct lines *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    *l = (struct lines){ 0 };
}

static bool has_prefix(const char *s, const char *prefix)
{
    return !strncmp(s, prefix, strlen(prefix));
}

static int lines_count(const struct lines *l, const char *prefix)
{
    int count = 0;
    for (int i = 0; i < l->n; i++)
        count += has_prefix(l->v[i], prefix);
    return count;
}

/* The first line with the prefix, or NULL. */
static const char *lines_find(const struct lines *l, const char *prefix)
{
    for (int i = 0; i < l->n; i++)
        if (has_prefix(l->v[i], prefix))
            return l->v[i];
    return NULL;
}

/* All the lines on one line, for failure messages. */
static const char *lines_show(const struct lines *l)
{
    static char text[4096];
    size_t len = 0;
    snprintf(text, sizeof text, "(nothing)");
    for (int i = 0; i < l->n && len + 4 < sizeof text; i++)
        len += (size_t)snprintf(text + len, sizeof text - len, "%s%s", i ? " | " : "", l->v[i]);
    return text;
}

/* The line for a failure message: printable, with other bytes as \xNN, cut short. */
static const char *show_bytes(const char *data, size_t len)
{
    static char text[160];
    size_t n = 0, i;
    for (i = 0; i < len && n < 100; i++) {
        unsigned char c = (unsigned char)data[i];
        n += (size_t)snprintf(text + n, sizeof text - n, c >= 32 && c < 127 ? "%c" : "\\x%02x", c);
    }
    snprintf(text + n, sizeof text - n, "%s (%zu bytes)", i < len ? "..." : "", len);
    return text;
}

/* ------------------------------------------------------------------------------------------- */
/* The engine under test. */

/* How long one reply may take: generous, as a hang is the only thing it has to catch. */
static int reply_ms(void)
{
    return (int)(test_timeout(5.0) * 1000);
}


/* Fails the test once the engine stops answering, saying whether it hung (and is killed) or ended. */
static void engine_lost(struct proc *p, const char *waiting_for, const struct lines *got)
{
    struct proc_exit e = pipe_wait(p, 200);
    ck_abort_msg("%s: the engine %s (exit status %d, signal %d); it printed: %s", waiting_for,
                 e.killed ? "hung" : "ended", e.code, e.signal, got ? lines_show(got) : "");
}

static void engine_write(struct proc *p, const char *data, size_t len)
{
    if (!pipe_write(p, data, len, reply_ms()))
        engine_lost(p, "writing", NULL);
}

static void engine_send(struct proc *p, const char *line)
{
    if (!pipe_send(p, line, reply_ms()))
        engine_lost(p, line, NULL);
}

/* Reads lines up to and including the first that starts with the prefix. */
static struct lines engine_read_until(struct proc *p, const char *prefix, int timeout_ms)
{
    struct lines out = { 0 };
    const char *line;
    while ((line = pipe_read_line(p, timeout_ms)) != NULL) {
        lines_add(&out, line);
        if (has_prefix(line, prefix))
            return out;
    }
    engine_lost(p, prefix, &out);
    return out;
}

/* Sends the lines and reads up to the first starting with the prefix, which must come within a second. */
static struct lines engine_answer_soon(struct proc *p, const char *lines, const char *prefix)
{
    long long sent = clock_ms();
    engine_send(p, lines);
    struct lines out = engine_read_until(p, prefix, reply_ms());
    long long took = clock_ms() - sent;
    ck_assert_msg(took < test_timeout(1.0) * 1000, "'%s' took %lld ms", prefix, took);
    return out;
}

/* Sends isready; returns what the engine printed before its readyok. */
static struct lines engine_sync(struct proc *p)
{
    engine_send(p, "isready");
    struct lines out = engine_read_until(p, "readyok", reply_ms());
    ck_assert_str_eq(out.v[out.n - 1], "readyok");
    free(out.v[--out.n]);
    return out;
}

/* Sends the script (lines separated by newlines); returns what it printed. */
static struct lines engine_run(struct proc *p, const char *script)
{
    engine_send(p, script);
    return engine_sync(p);
}

/* Runs the script and checks that it printed nothing at all. */
static void engine_run_silent(struct proc *p, const char *script)
{
    struct lines out = engine_run(p, script);
    ck_assert_msg(out.n == 0, "'%s' printed: %s", script, lines_show(&out));
    lines_free(&out);
}

static void engine_quit(struct proc *p)
{
    engine_send(p, "quit");
    struct proc_exit e = pipe_wait(p, reply_ms());
    ck_assert_msg(!e.killed, "the engine did not exit after quit");
    ck_assert_msg(e.exited && e.code == 0, "the engine ended with status %d, signal %d", e.code, e.signal);
    proc_end(p, 0, NULL, 0);
}

/* What `d` reports. */
struct state {
    char fen[512];
    char key[64];
};

static struct state engine_state(struct proc *p)
{
    struct state s;
    struct lines out = engine_run(p, "d");
    const char *fen = lines_find(&out, "Fen: "), *key = lines_find(&out, "Key: ");
    ck_assert_msg(fen && key, "d printed no Fen/Key: %s", lines_show(&out));
    ck_assert_int_eq(lines_count(&out, "Fen: "), 1);
    ck_assert_msg(strlen(key) == 5 + 16 && strspn(key + 5, "0123456789abcdef") == 16, "bad %s", key);
    snprintf(s.fen, sizeof s.fen, "%s", fen + 5);
    snprintf(s.key, sizeof s.key, "%s", key + 5);
    lines_free(&out);
    return s;
}

static void expect_fen(struct proc *p, const char *fen)
{
    ck_assert_str_eq(engine_state(p).fen, fen);
}

/* Runs the script: it must print one error line and nothing else, and leave the variant and
 * position as they were. */
static void expect_rejected(struct proc *p, const char *script)
{
    struct state before = engine_state(p);
    struct lines out = engine_run(p, script);
    ck_assert_msg(out.n == 1 && has_prefix(out.v[0], "info string error: "), "'%s': expected one error line, got: %s",
                  script, lines_show(&out));
    lines_free(&out);
    struct state after = engine_state(p);
    ck_assert_msg(!strcmp(before.fen, after.fen) && !strcmp(before.key, after.key),
                  "'%s' changed the position from %s to %s", script, before.fen, after.fen);
}

/* The `variants` listing: one name per line. */
static struct lines engine_variant_names(struct proc *p)
{
    struct lines out = engine_run(p, "variants"), names = { 0 };
    for (int i = 0; i < out.n; i++) {
        char name[64];
        ck_assert_msg(sscanf(out.v[i], "%63s", name) == 1, "bad variants line '%s'", out.v[i]);
        lines_add(&names, name);
    }
    lines_free(&out);
    ck_assert_msg(names.n >= 4, "variants lists %d variants", names.n);
    return names;
}

/* The first legal move, from `go perft 1`. */
static void engine_first_move(struct proc *p, char *move, size_t len)
{
    engine_send(p, "go perft 1");
    struct lines out = engine_read_until(p, "Nodes searched:", reply_ms());
    ck_assert_msg(out.n > 2 && strchr(out.v[0], ':'), "no legal move: %s", lines_show(&out));
    snprintf(move, len, "%.*s", (int)strcspn(out.v[0], ":"), out.v[0]);
    lines_free(&out);
}

/* Variant files under /tmp, written by an unchecked fixture: it runs in the runner itself, so the
 * files are removed even when a test fails. */
enum variant_file { FILE_BROKEN, FILE_MANY_ERRORS, FILE_HALF_GOOD, FILE_BUILTIN_NAME, FILE_USER, FILE_FUZZ, NFILES };

/* Three errors on lines 5, 6 and 7, plus those found at the end of the section. */
static const char broken_variants[] = "# three mistakes\n"
                                      "[proto-broken]\n"
                                      "description = broken\n"
                                      "board = hexagon 6\n"
                                      "players = 5\n"
                                      "orientation = sideways\n"
                                      "frobnicate = 1\n";

static char file_paths[NFILES][64];

static void file_write(enum variant_file f, const char *text)
{
    snprintf(file_paths[f], sizeof file_paths[f], "/tmp/sennight-protocol-XXXXXX");
    int fd = mkstemp(file_paths[f]);
    bool ok = fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text);
    if (fd >= 0)
        close(fd);
    if (!ok)
        file_paths[f][0] = 0;
}

static void files_create(void)
{
    char many[8192] = "[proto-many]\n";
    for (int i = 0; i < 150; i++)
        snprintf(many + strlen(many), sizeof many - strlen(many), "bogus%d = 1\n", i);
    const char *texts[NFILES] = {
        [FILE_BROKEN] = broken_variants,
        [FILE_MANY_ERRORS] = many,
        [FILE_HALF_GOOD] = "[proto-good:glinski]\ndescription = fine\n\n[proto-bad:glinski]\nstart = 6 w\n",
        [FILE_BUILTIN_NAME] = "[mccooey:glinski]\ndescription = a second mccooey\n",
        [FILE_USER] = "# a user variant\n[proto-test:glinski]\ndescription = protocol test\n",
        [FILE_FUZZ] = "[proto-fuzz:mccooey]\ndescription = fuzz\n",
    };
    for (int f = 0; f < NFILES; f++)
        file_write(f, texts[f]);
}

static void files_remove(void)
{
    for (int f = 0; f < NFILES; f++)
        if (file_paths[f][0])
            unlink(file_paths[f]);
}

static const char *variant_file(enum variant_file f)
{
    ck_assert_msg(file_paths[f][0], "cannot write variant files under /tmp");
    return file_paths[f];
}

/* ------------------------------------------------------------------------------------------- */
/* Scripts. */

START_TEST(test_uci_handshake)
{
    struct proc p;
    pipe_start(&p, NULL);
    engine_send(&p, "uci");
    struct lines out = engine_read_until(&p, "uciok", reply_ms());
    ck_assert_str_eq(out.v[out.n - 1], "uciok");
    ck_assert_msg(lines_find(&out, "id name ") && lines_find(&out, "id author "), "%s", lines_show(&out));
    const char *combo = lines_find(&out, "option name UCI_Variant type combo ");
    ck_assert_msg(combo && strstr(combo, " default glinski "), "%s", lines_show(&out));
    ck_assert_msg(lines_find(&out, "option name VariantPath type string"), "%s", lines_show(&out));
    struct lines names = engine_variant_names(&p);
    for (int i = 0; i < names.n; i++) {
        char var[80];
        snprintf(var, sizeof var, " var %s", names.v[i]);
        const char *at = strstr(combo, var);
        ck_assert_msg(at && (at[strlen(var)] == ' ' || !at[strlen(var)]), "%s not in: %s", names.v[i], combo);
    }
    ck_assert_msg(strstr(combo, " var full-house") && strstr(combo, " var haynie"), "%s", combo);
    lines_free(&names);
    lines_free(&out);
    engine_quit(&p);
}
END_TEST

/* ------------------------------------------------------------------------------------------- */
/* The command line. */

struct run {
    int status;
    char out[8192], err[8192];
};

/* The file's text, from its start, cut to fit; closes it. */
static void read_whole(FILE *f, char *text, size_t len)
{
    ssize_t n = pread(fileno(f), text, len - 1, 0);
    text[n > 0 ? n : 0] = 0;
    fclose(f);
}

/* Runs the executable with the arguments (NULL-terminated), stdout and stderr apart. */
static struct run *run_sennight(const char *const *args)
{
    static struct run r;
    char *argv[8] = { (char *)pipe_engine_path() };
    for (int i = 0; args[i] && i < 6; i++)
        argv[i + 1] = (char *)args[i];
    FILE *out = tmpfile(), *err = tmpfile();
    ck_assert(out && err);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        dup2(fileno(out), STDOUT_FILENO);
        dup2(fileno(err), STDERR_FILENO);
        execv(argv[0], argv);
        _exit(127);
    }
    int status;
    ck_assert(waitpid(pid, &status, 0) == pid);
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    read_whole(out, r.out, sizeof r.out);
    read_whole(err, r.err, sizeof r.err);
    return &r;
}

/* --version and id name agree; --help is on stdout; a mistake gets the usage on stderr; `variants`
 * lists what the UCI command does. */
START_TEST(test_command_line)
{
    struct run *r = run_sennight((const char *[]){ "--version", NULL });
    char version[256];
    ck_assert_msg(r->status == 0 && !r->err[0] && sscanf(r->out, "Sennight %255s", version) == 1, "%d '%s' '%s'",
                  r->status, r->out, r->err);
    char expected[300];
    snprintf(expected, sizeof expected, "Sennight %s\n", version);
    ck_assert_str_eq(r->out, expected);
    struct proc p;
    pipe_start(&p, NULL);
    engine_send(&p, "uci");
    struct lines out = engine_read_until(&p, "uciok", reply_ms());
    snprintf(expected, sizeof expected, "id name Sennight %s", version);
    ck_assert_str_eq(out.v[0], expected);
    lines_free(&out);
    out = engine_run(&p, "variants");
    char listed[8192] = "";
    for (int i = 0; i < out.n; i++)
        snprintf(listed + strlen(listed), sizeof listed - strlen(listed), "%s\n", out.v[i]);
    lines_free(&out);
    engine_quit(&p);
    r = run_sennight((const char *[]){ "variants", NULL });
    ck_assert_msg(r->status == 0 && !r->err[0], "%d '%s'", r->status, r->err);
    ck_assert_str_eq(r->out, listed);
    r = run_sennight((const char *[]){ "variants", "glinski", NULL });
    ck_assert_msg(r->status == 2 && !r->out[0] && strstr(r->err, "usage: sennight variants"), "%d '%s'", r->status, r->err);
    static const char *const commands[] = { "play", "bench", "match", "book build|show|merge|openings", "gui",
                                            "perft-speed", "check", "variants", "--version", "--help" };
    r = run_sennight((const char *[]){ "--help", NULL });
    ck_assert_msg(r->status == 0 && !r->err[0] && !strncmp(r->out, "usage: sennight [", 17), "%d '%s' '%s'", r->status,
                  r->out, r->err);
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        ck_assert_msg(strstr(r->out, commands[i]), "--help does not list %s: %s", commands[i], r->out);
    char help[8192];
    snprintf(help, sizeof help, "%s", r->out);
    /* Every sub-command's --help: its own usage on stdout, and success. */
    static const char *const subcommands[] = { "play", "bench", "match", "book", "datagen", "tune", "gui",
                                               "perft-speed", "check", "variants" };
    for (size_t i = 0; i < sizeof subcommands / sizeof *subcommands; i++) {
        char start[64];
        snprintf(start, sizeof start, "usage: sennight %s", subcommands[i]);
        r = run_sennight((const char *[]){ subcommands[i], "--help", NULL });
        ck_assert_msg(r->status == 0 && !r->err[0] && !strncmp(r->out, start, strlen(start)), "%s --help: %d '%s' '%s'",
                      subcommands[i], r->status, r->out, r->err);
    }
    r = run_sennight((const char *[]){ "frobnicate", NULL });
    ck_assert_msg(r->status == 2 && !r->out[0] && strstr(r->err, "sennight: unknown command 'frobnicate'\n")
                      && strstr(r->err, help), "%d '%s' '%s'", r->status, r->out, r->err);
}
END_TEST

/* Whether two files hold the same bytes. */
static bool same_file(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    bool same = fa && fb;
    for (int ca = 0, cb = 0; same && ca != EOF; same = ca == cb)
        ca = getc(fa), cb = getc(fb);
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

/* The Makefile installs ./sennight by renaming a copy into place (install_exe): a copy onto an
 * executable that runs (the GUI in another terminal) failed with "Text file busy", and with it
 * `make play`, `make gui` and `make demo`. Here a running copy of $SENNIGHT is replaced by $TOY_ENGINE. */
START_TEST(test_install_while_running)
{
    char dir[] = "/tmp/sennight-install-XXXXXX", target[64], cmd[1024];
    const char *toy = getenv("TOY_ENGINE") && *getenv("TOY_ENGINE") ? getenv("TOY_ENGINE") : "build/test/toy_engine";
    ck_assert(mkdtemp(dir));
    snprintf(target, sizeof target, "%s/sennight", dir);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", pipe_engine_path(), target);
    ck_assert_int_eq(system(cmd), 0);
    struct proc running = { 0 };
    char err[256];
    ck_assert_msg(proc_start(&running, (char *const[]){ target, NULL }, true, err, sizeof err), "%s", err);
    snprintf(cmd, sizeof cmd, "make -s --no-print-directory MODE=test '--eval=install-probe: ; @$(call install_exe,%s,%s)' "
             "install-probe", toy, target);
    int status = system(cmd);
    bool installed = same_file(toy, target);
    proc_end(&running, 0, NULL, 0);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
    ck_assert_msg(status == 0 && installed, "make's install over a running executable: status %d, %s", status,
                  installed ? "installed" : "not installed");
}
END_TEST

/* One declaration of the uci reply: option name <name> type <type> [default <d>] [min <a> max <b>].
 * Commands print name and def with %.63s: GCC's value ranges lose their size on some targets and warn. */
struct declared {
    char name[64], type[16], def[64];
    long min, max;
};

static struct declared declared_of(const char *line)
{
    struct declared d = { 0 };
    const char *type = strstr(line, " type "), *def, *min;
    ck_assert_msg(has_prefix(line, "option name ") && type, "%s", line);
    snprintf(d.name, sizeof d.name, "%.*s", (int)(type - line - 12), line + 12);
    ck_assert_int_eq(sscanf(type, " type %15s", d.type), 1);
    if ((def = strstr(type, " default ")))
        ck_assert_int_eq(sscanf(def, " default %63s", d.def), 1);
    if ((min = strstr(type, " min ")))
        ck_assert_int_eq(sscanf(min, " min %ld max %ld", &d.min, &d.max), 2);
    return d;
}

/* The options of the uci reply, in its order. */
static int engine_options(struct proc *p, struct declared *d, int max)
{
    engine_send(p, "uci");
    struct lines out = engine_read_until(p, "uciok", reply_ms());
    int n = 0;
    for (int i = 0; i < out.n; i++)
        if (has_prefix(out.v[i], "option name ")) {
            ck_assert_int_lt(n, max);
            d[n++] = declared_of(out.v[i]);
        }
    lines_free(&out);
    return n;
}

/* docs/protocol.md's table of options lists each declared option, in the same order and of the same
 * type, and each accepts its own default silently. */
START_TEST(test_options_documented_and_defaults_accepted)
{
    struct proc p;
    struct declared d[64];
    pipe_start(&p, NULL);
    int n = engine_options(&p, d, 64);
    FILE *f = fopen("docs/protocol.md", "r");
    ck_assert_msg(f != NULL, "docs/protocol.md: %s", strerror(errno));
    char line[4096], name[64], type[16];
    bool in_options = false;
    int documented = 0;
    while (fgets(line, sizeof line, f)) {
        if (has_prefix(line, "## "))
            in_options = !strcmp(line, "## Options\n");
        if (!in_options || sscanf(line, "| `%63[^`]` | %15[a-z]", name, type) != 2)
            continue;
        ck_assert_msg(documented < n, "'%s' is documented but not declared", name);
        ck_assert_str_eq(name, d[documented].name);
        ck_assert_str_eq(type, d[documented].type);
        documented++;
    }
    fclose(f);
    ck_assert_int_eq(documented, n);
    for (int i = 0; i < n; i++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "setoption name %.63s%s%.63s", d[i].name, d[i].def[0] ? " value " : "", d[i].def);
        engine_run_silent(&p, cmd);
    }
    engine_quit(&p);
}
END_TEST

/* A spin refuses numbers outside its bounds with one line and keeps its value. */
START_TEST(test_option_out_of_range)
{
    struct proc p;
    struct declared d[64];
    pipe_start(&p, NULL);
    int n = engine_options(&p, d, 64);
    for (int i = 0; i < n; i++) {
        if (strcmp(d[i].type, "spin"))
            continue;
        char cmd[256], want[256];
        snprintf(want, sizeof want, "info string error: %.63s: a number from %ld to %ld is expected", d[i].name,
                 d[i].min, d[i].max);
        for (long x = d[i].min - 1; x <= d[i].max + 1; x += d[i].max - d[i].min + 2) {
            snprintf(cmd, sizeof cmd, "setoption name %.63s value %ld", d[i].name, x);
            struct lines out = engine_run(&p, cmd);
            ck_assert_msg(out.n == 1 && !strcmp(out.v[0], want), "'%s': %s", cmd, lines_show(&out));
            lines_free(&out);
        }
    }
    engine_run_silent(&p, "setoption name multipv value 2");
    expect_rejected(&p, "setoption name MultiPV value 65");
    engine_send(&p, "go depth 1");
    struct lines out = engine_read_until(&p, "bestmove", reply_ms());
    ck_assert_msg(lines_find(&out, "info depth 1 seldepth") && strstr(lines_show(&out), " multipv 2 "), "%s",
                  lines_show(&out));
    lines_free(&out);
    engine_quit(&p);
}
END_TEST

static const char *const shapes[] = { "star", "hexagon", "ring", NULL };

static const char *shape_at(int i)
{
    return shapes[i];
}

/* A table of every type, for the reader alone (no setters). */
static const struct uci_option test_options[] = {
    { "Size",  OPTION_SPIN(3, 1, 9),                     NULL },
    { "Flag",  OPTION_CHECK(true),                       NULL },
    { "Shape", OPTION_COMBO("star", "hexagon", "ring"),  NULL },
    { "Board", OPTION_COMBO_OF(shape_at),                NULL },
    { "Path",  OPTION_STRING,                            NULL },
    { "Reset", OPTION_BUTTON,                            NULL },
};

/* The option table's reader: declarations, lookup, and each type's check. */
START_TEST(test_option_reader)
{
    const struct uci_option *table = test_options;
    static const char *const declared[] = {
        "option name Size type spin default 3 min 1 max 9",
        "option name Flag type check default true",
        "option name Shape type combo default star var star var hexagon var ring",
        "option name Board type combo default star var star var hexagon var ring",
        "option name Path type string default <empty>",
        "option name Reset type button",
    };
    static const struct {
        const char *name, *value;
        long x;        /* the value passed to the setter */
        const char *error;
    } cases[] = {
        { "size",  "9",        9, NULL },
        { "SIZE",  "0",        0, "Size: a number from 1 to 9 is expected" },
        { "Size",  "10",       0, "Size: a number from 1 to 9 is expected" },
        { "Size",  "3x",       0, "Size: a number from 1 to 9 is expected" },
        { "Size",  "",         0, "Size: a number from 1 to 9 is expected" },
        { "Flag",  "true",     1, NULL },
        { "Flag",  "false",    0, NULL },
        { "Flag",  "True",     0, "Flag: true or false is expected" },
        { "Shape", "ring",     2, NULL },
        { "Shape", "Ring",     0, "Shape: star, hexagon or ring is expected" },
        { "Board", "anything", 0, NULL },
        { "Path",  "",         0, NULL },
        { "Reset", "x",        0, NULL },
    };
    const size_t n = sizeof test_options / sizeof *test_options;
    for (size_t i = 0; i < n; i++) {
        struct text line = { 0 };
        option_declare(&table[i], &line);
        ck_assert_str_eq(text_str(&line), declared[i]);
        text_free(&line);
    }
    ck_assert_ptr_null(option_find(table, n, "Siz"));
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const struct uci_option *o = option_find(table, n, cases[i].name);
        char err[128] = "";
        long x = -1;
        ck_assert_msg(o != NULL, "%s not found", cases[i].name);
        bool ok = option_parse(o, cases[i].value, &x, err, sizeof err);
        ck_assert_msg(ok == !cases[i].error && (ok ? x == cases[i].x : !strcmp(err, cases[i].error)),
                      "%s = '%s': %s, x %ld, '%s'", cases[i].name, cases[i].value, ok ? "accepted" : "refused", x, err);
    }
}
END_TEST

START_TEST(test_isready)
{
    struct proc p;
    pipe_start(&p, NULL);
    engine_send(&p, "isready");
    ck_assert_str_eq(pipe_read_line(&p, reply_ms()), "readyok");
    for (int i = 0; i < 50; i++)
        engine_send(&p, "isready");
    for (int i = 0; i < 50; i++) {
        const char *line = pipe_read_line(&p, reply_ms());
        ck_assert_msg(line && !strcmp(line, "readyok"), "reply %d to isready: %s", i, line ? line : "(none)");
    }
    engine_quit(&p);
}
END_TEST

/* JoclyBoard never sends uci: every command must work from a cold start. */
START_TEST(test_stream_without_uci)
{
    struct proc p;
    pipe_start(&p, NULL);
    engine_run_silent(&p, "ucinewgame\nvariant mccooey\nposition startpos moves e3e5 e8e6");
    expect_fen(&p, "6/7/P6p/RP5pr/QN2Pp2nq/BBBP3pbbb/KNP4pnk/RP5pr/P6p/7/6 w - e7 0 2");
    engine_run_silent(&p, "ucinewgame\nposition startpos");
    expect_fen(&p, MCCOOEY_START);
    engine_quit(&p);
}
END_TEST

START_TEST(test_promotion_letters)
{
    static const char *const ok[][2] = {
        { "f10f11Q", "5k/7/8/9/10/10Q/K9/9/8/7/6 b - - 0 1" },
        { "f10f11q", "5k/7/8/9/10/10Q/K9/9/8/7/6 b - - 0 1" },
        { "f10f11N", "5k/7/8/9/10/10N/K9/9/8/7/6 b - - 0 1" },
        { "f10f11b", "5k/7/8/9/10/10B/K9/9/8/7/6 b - - 0 1" },
    };
    struct proc p;
    pipe_start(&p, NULL);
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "position fen 5k/7/8/9/10/9P1/K9/9/8/7/6 w - - 0 1 moves %s", ok[i][0]);
        engine_run_silent(&p, cmd);
        expect_fen(&p, ok[i][1]);
    }
    engine_run_silent(&p, "position fen 5k/7/8/9/10/9P1/K9/9/8/7/6 w - - 0 1");
    expect_rejected(&p, "position fen 5k/7/8/9/10/9P1/K9/9/8/7/6 w - - 0 1 moves f10f11");
    expect_rejected(&p, "position fen 5k/7/8/9/10/9P1/K9/9/8/7/6 w - - 0 1 moves f10f11K");
    expect_rejected(&p, "position fen 5k/7/8/9/10/9P1/K9/9/8/7/6 w - - 0 1 moves f10f11P");
    expect_rejected(&p, "position fen 5k/7/8/9/10/9P1/K9/9/8/7/6 w - - 0 1 moves f10f11x");
    engine_quit(&p);
}
END_TEST

START_TEST(test_position_moves)
{
    struct proc p;
    pipe_start(&p, NULL);
    expect_fen(&p, GLINSKI_START);
    engine_run_silent(&p, "position startpos moves e4e5 g7g6 d1c3");
    expect_fen(&p, "6/P5p/RPN3pr/2P3p1n/Q3P1p2q/BBB1P1p1bbb/K2P1p3k/N1P3p1n/RP4pr/P5p/6 b - - 1 2");
    engine_run_silent(&p, "position startpos moves e4e6");
    expect_fen(&p, GLINSKI_E4E6);
    engine_run_silent(&p, "position startpos moves");
    expect_fen(&p, GLINSKI_START);
    /* Any amount of white space between words. */
    engine_run_silent(&p, "  position \t startpos\tmoves   f5f6 \r");
    expect_fen(&p, "6/P5p/RP4pr/N1P3p1n/Q2P2p2q/BBB2Pp1bbb/K2P2p2k/N1P3p1n/RP4pr/P5p/6 b - - 0 1");
    engine_quit(&p);
}
END_TEST

/* Three players: position announces every army the turn resolution takes off, in the order they
 * leave, and d shows the resolved position. Red's Rook f6 sees White's General i6: White leaves at
 * once. In the second game White steps its knight off the f file and Black, about to move, sees Red's
 * General down the file. */
START_TEST(test_position_eliminations)
{
    struct proc p;
    pipe_start(&p, NULL);
    engine_run_silent(&p, "setoption name UCI_Variant value wellisch");
    struct lines out = engine_run(&p, "position fen 2bG3/7/8/9/10/5rR3wG1/10/9/rG7/7/6 r - - 9 30");
    ck_assert_msg(out.n == 1 && !strcmp(out.v[0], "info string eliminated w"), "%s", lines_show(&out));
    lines_free(&out);
    expect_fen(&p, "2bG3/7/8/9/10/5rR5/10/9/rG7/7/6 r - - 9 30");
    out = engine_run(&p, "position fen 6/5bG1/2rR5/9/10/rG3wE3bR2/10/9/8/7/wG5 r - - 0 1 moves f1f2 f5d4");
    ck_assert_msg(out.n == 1 && !strcmp(out.v[0], "info string eliminated r"), "%s", lines_show(&out));
    lines_free(&out);
    expect_fen(&p, "6/5bG1/8/3wE5/10/8bR2/10/9/8/7/wG5 b - - 2 1");
    /* A refused command announces nothing and keeps the position. */
    expect_rejected(&p, "position startpos moves f1f2");
    expect_fen(&p, "6/5bG1/8/3wE5/10/8bR2/10/9/8/7/wG5 b - - 2 1");
    /* Red alone on the board has won: no move is legal any more, go answers at once. */
    engine_run_silent(&p, "position fen 6/7/8/9/10/5rR5/10/9/rG7/7/6 r - - 9 30");
    engine_send(&p, "go depth 5");
    out = engine_read_until(&p, "bestmove", reply_ms());
    ck_assert_msg(out.n == 1 && !strcmp(out.v[0], "bestmove (none)"), "%s", lines_show(&out));
    lines_free(&out);
    expect_rejected(&p, "position fen 6/7/8/9/10/5rR5/10/9/rG7/7/6 r - - 9 30 moves f6f7");
    /* A front end that sends White's and Black's clocks only: Red plays on the shortest clock. */
    engine_run_silent(&p, "position startpos");
    engine_send(&p, "go wtime 400 btime 300");
    out = engine_read_until(&p, "bestmove", reply_ms());
    ck_assert_msg(out.n && has_prefix(out.v[out.n - 1], "bestmove ") && strcmp(out.v[out.n - 1], "bestmove (none)"),
                  "%s", lines_show(&out));
    lines_free(&out);
    engine_quit(&p);
}
END_TEST

/* Each variant's start FEN, read back from `d`, must be accepted by `position fen` unchanged. */
START_TEST(test_fen_round_trip)
{
    static const char *const known[][2] = {
        { "glinski", GLINSKI_START },
        { "mccooey", MCCOOEY_START },
        { "haynie", "2ppfb/3ppnr/P3ppwq/PP3ppbk/FPP3ppwr/BNPP3ppnb/RWPP3ppf/QBPP3pp/KWPP3p/RNPP3/BFPP2 w - - 0 1" },
        { "full-house", "6/P5p/RP4pr/NHP3phn/QTEP2petq/KBBBP1pbbbk/UMSP2psmu/NYP3pyn/RP4pr/P5p/6 w - - 0 1" },
    };
    struct proc p;
    pipe_start(&p, NULL);
    struct lines names = engine_variant_names(&p);
    for (int i = 0; i < names.n; i++) {
        char cmd[700], move[16];
        snprintf(cmd, sizeof cmd, "variant %s", names.v[i]);
        engine_run_silent(&p, cmd);
        struct state start = engine_state(&p);
        for (size_t k = 0; k < sizeof known / sizeof *known; k++)
            if (!strcmp(names.v[i], known[k][0]))
                ck_assert_str_eq(start.fen, known[k][1]);
        engine_first_move(&p, move, sizeof move);
        snprintf(cmd, sizeof cmd, "position startpos moves %s", move);
        engine_run_silent(&p, cmd);
        ck_assert_str_ne(engine_state(&p).fen, start.fen);
        snprintf(cmd, sizeof cmd, "position fen %s", start.fen);
        engine_run_silent(&p, cmd);
        struct state back = engine_state(&p);
        ck_assert_str_eq(back.fen, start.fen);
        ck_assert_str_eq(back.key, start.key);
    }
    lines_free(&names);
    engine_quit(&p);
}
END_TEST

/* Non-start FENs: two-digit runs, an en-passant cell, clocks; the key must not depend on the route. */
START_TEST(test_fen_fields_round_trip)
{
    struct proc p;
    pipe_start(&p, NULL);
    engine_run_silent(&p, "position fen " ROOK_CHECK_BOARD " b - - 7 42");
    expect_fen(&p, ROOK_CHECK_BOARD " b - - 7 42");
    engine_run_silent(&p, "position startpos moves e4e6");
    struct state played = engine_state(&p);
    engine_run_silent(&p, "position fen " GLINSKI_E4E6);
    struct state set = engine_state(&p);
    ck_assert_str_eq(set.fen, GLINSKI_E4E6);
    ck_assert_str_eq(set.key, played.key);
    engine_quit(&p);
}
END_TEST

/* Whatever clocks a position reaches, the FEN that d prints is accepted again. */
START_TEST(test_fen_large_clocks)
{
    struct proc p;
    pipe_start(&p, NULL);
    engine_run_silent(&p, "position fen 6/7/8/9/10/11/K8k/9/8/7/6 w - - 100000 100000 moves g1h1 g10h9 h1g1 h9g10");
    struct state reached = engine_state(&p);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "position fen %s", reached.fen);
    engine_run_silent(&p, cmd);
    ck_assert_str_eq(engine_state(&p).fen, reached.fen);
    engine_quit(&p);
}
END_TEST

/* Every kind of bad line: one error line each, the position untouched. */
START_TEST(test_bad_input_rejected)
{
    static const char *const bad[] = {
        "foo",
        "foo bar baz",
        "1234",
        "UCI",
        "position",
        "position junk",
        "position fen",
        "position startpos junk",
        "position startpos e4e5",
        "position startpos moves zz",
        "position startpos moves e4e5 e4e5",
        "position startpos moves f5f6 f5f7",
        "position startpos moves e4e9",
        "position startpos moves e4e5e6",
        "position fen 7/P5p/RP4pr/N1P3p1n/Q2P2p2q/BBB1P1p1bbb/K2P2p2k/N1P3p1n/RP4pr/P5p/6 w - - 0 1",
        "position fen 5/P5p/RP4pr/N1P3p1n/Q2P2p2q/BBB1P1p1bbb/K2P2p2k/N1P3p1n/RP4pr/P5p/6 w - - 0 1",
        "position fen 6/P5p/RP4pr/N1P3p1n/Q2P2p2q/BBB1P1p1bbb/K2P2p2k/N1P3p1n/RP4pr/P5p w - - 0 1",
        "position fen 6/P5p/RP4pr/N1P3p1n/Q2P2p2q/BBB1P1p1bbb/K2P2p2k/N1P3p1n/RP4pr/P5p/6/6 w - - 0 1",
        "position fen 6/P5p//RP4pr/N1P3p1n/Q2P2p2q/BBB1P1p1bbb/K2P2p2k/N1P3p1n/RP4pr/P5p/6 w - - 0 1",
        "position fen 6/P5p/RP4pr/N1P3p1n/Z2P2p2q/BBB1P1p1bbb/K2P2p2k/N1P3p1n/RP4pr/P5p/6 w - - 0 1",
        "position fen 6/P5p/RP4pr/N1P3p1n/Q2P2p2q/BBB1P1p1bbb/K2P2p2K/N1P3p1n/RP4pr/P5p/6 w - - 0 1",
        "position fen 6/7/8/9/10/11/10/9/8/7/6 w - - 0 1",
        "position fen 6/7/8/9/10/11/rK9/9/8/7/6 w - - 0 1",
        "position fen " ROOK_CHECK_BOARD " w - - 0 1",
        "position fen " GLINSKI_BOARD " x - - 0 1",
        "position fen " GLINSKI_BOARD " r - - 0 1",
        "position fen " GLINSKI_BOARD " wb - - 0 1",
        "position fen " GLINSKI_BOARD " w - z9 0 1",
        "position fen " GLINSKI_BOARD " w - e3 0 1",
        "position fen " GLINSKI_BOARD " w - e5x 0 1",
        "position fen " GLINSKI_BOARD " w - f12 0 1",
        "position fen " GLINSKI_BOARD " w a1 - 0 1",
        "position fen " GLINSKI_BOARD " w - - x 1",
        "position fen " GLINSKI_BOARD " w - - -1 1",
        "position fen " GLINSKI_BOARD " w - - 0 0",
        "position fen " GLINSKI_BOARD " w - - 0 1x",
        "position fen " GLINSKI_BOARD " w - - 0 1 junk",
        "position fen " GLINSKI_BOARD,
        "position fen " GLINSKI_START " moves f5f6 e4e5",
        "go perft",
        "go perft x",
        "go perft -1",
        "go perft 0",
        "go perft 1.5",
        "go perft 2x",
        "go perft 2 3",
        "go perft 1000",
        "go perft 2147483648",
        "go perft 99999999999999999999",
        "setoption",
        "setoption name",
        "setoption value x",
        "setoption name Foo value 1",
        "setoption name UCI_Variant",
        "setoption name UCI_Variant value",
        "setoption name UCI_Variant value nope",
        "setoption name UCI_Variant value Glinski",
        "setoption name VariantPath value /nonexistent/sennight/variants.ini",
        "debug",
        "debug maybe",
        "debug on off",
        "variant",
        "variant nope",
        "variant glinski mccooey",
        "check",
        "check a b",
        "check /nonexistent/sennight/variants.ini",
    };
    struct proc p;
    pipe_start(&p, NULL);
    engine_run_silent(&p, "position startpos moves e4e6");
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        expect_rejected(&p, bad[i]);
    expect_fen(&p, GLINSKI_E4E6);
    engine_quit(&p);
}
END_TEST

START_TEST(test_illegal_move_rejects_list)
{
    struct proc p;
    pipe_start(&p, NULL);
    engine_run_silent(&p, "variant mccooey\nposition startpos moves e3e5");
    struct state before = engine_state(&p);
    struct lines out = engine_run(&p, "position startpos moves c1c2 e8e6 c2c3 c7c7");
    ck_assert_msg(out.n == 1 && strstr(out.v[0], "c7c7"), "%s", lines_show(&out));
    lines_free(&out);
    ck_assert_str_eq(engine_state(&p).fen, before.fen);
    engine_quit(&p);
}
END_TEST

/* A failed variant selection keeps both the variant and the position. */
START_TEST(test_bad_variant_kept)
{
    static const char *const bad[] = {
        "setoption name UCI_Variant value nope",
        "setoption name UCI_Variant value",
        "variant nope",
        "variant mccooey haynie",
        "setoption name Unknown value glinski",
    };
    struct proc p;
    pipe_start(&p, NULL);
    engine_run_silent(&p, "setoption name UCI_Variant value mccooey\nposition startpos moves e3e5");
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        expect_rejected(&p, bad[i]);
    engine_run_silent(&p, "ucinewgame");
    expect_fen(&p, MCCOOEY_START);
    engine_quit(&p);
}
END_TEST

START_TEST(test_variant_selection)
{
    struct proc p;
    pipe_start(&p, NULL);
    engine_run_silent(&p, "setoption name UCI_Variant value mccooey");
    expect_fen(&p, MCCOOEY_START);
    engine_run_silent(&p, "position startpos moves e3e5\nsetoption name UCI_Variant value mccooey");
    expect_fen(&p, MCCOOEY_START);
    engine_run_silent(&p, "position startpos moves e3e5\nucinewgame");
    expect_fen(&p, MCCOOEY_START);
    engine_run_silent(&p, "variant glinski\nposition startpos moves e4e6");
    expect_fen(&p, GLINSKI_E4E6);
    engine_run_silent(&p, "variant glinski");
    expect_fen(&p, GLINSKI_START);
    engine_quit(&p);
}
END_TEST

/* The evaluation's tempo line of `eval` in the engine's current variant. */
static void expect_tempo(struct proc *p, const char *weights, const char *tempo)
{
    struct lines out = engine_run(p, "eval");
    const char *w = lines_find(&out, "weights "), *t = lines_find(&out, "tempo ");
    ck_assert_msg(w && strstr(w, weights), "expected weights '%s': %s", weights, lines_show(&out));
    ck_assert_msg(t && strstr(t, tempo), "expected tempo '%s': %s", tempo, lines_show(&out));
    lines_free(&out);
}

/* A variant selected again starts from its start position with the weights in use, whether its game
 * is set up anew or taken back from those kept (uci_shelf.c): one kept from before an EvalWeights
 * change is not taken back. */
START_TEST(test_variant_switch_back)
{
    char path[] = "/tmp/sennight-weights-XXXXXX";
    int fd = mkstemp(path);
    ck_assert(fd >= 0 && write(fd, "tempo 40 40\n", 12) == 12);
    close(fd);
    char set[256];
    snprintf(set, sizeof set, "setoption name EvalWeights value %s", path);
    struct proc p;
    pipe_start(&p, NULL);
    engine_run_silent(&p, "position startpos moves e4e6\nsetoption name UCI_Variant value mccooey");
    engine_run_silent(&p, "position startpos moves e3e5\nsetoption name UCI_Variant value glinski");
    expect_fen(&p, GLINSKI_START);
    expect_tempo(&p, "built-in glinski", "15      8");
    engine_run_silent(&p, "setoption name UCI_Variant value mccooey");
    expect_fen(&p, MCCOOEY_START);
    engine_run_silent(&p, set);
    expect_tempo(&p, path, "40     40");
    engine_run_silent(&p, "setoption name UCI_Variant value glinski");
    expect_tempo(&p, path, "40     40");
    engine_run_silent(&p, "setoption name EvalWeights value <empty>\nsetoption name UCI_Variant value mccooey");
    expect_tempo(&p, "built-in mccooey", "26      4");
    engine_run_silent(&p, "setoption name UCI_Variant value glinski");
    expect_tempo(&p, "built-in glinski", "15      8");
    expect_fen(&p, GLINSKI_START);
    engine_quit(&p);
    unlink(path);
}
END_TEST

static void expect_file_errors(struct proc *p, const char *script, const char *path)
{
    char where[300];
    struct state before = engine_state(p);
    struct lines out = engine_run(p, script);
    ck_assert_msg(out.n >= 3 && lines_count(&out, "info string error: ") == out.n, "%s", lines_show(&out));
    for (int line = 5; line <= 7; line++) {
        snprintf(where, sizeof where, "info string error: %s:%d: ", path, line);
        ck_assert_msg(lines_find(&out, where), "no error for line %d: %s", line, lines_show(&out));
    }
    lines_free(&out);
    ck_assert_str_eq(engine_state(p).fen, before.fen);
}

START_TEST(test_variant_file_errors)
{
    const char *path = variant_file(FILE_BROKEN);
    char cmd[128];
    struct proc p;
    pipe_start(&p, NULL);
    engine_run_silent(&p, "variant mccooey\nposition startpos moves e3e5");
    snprintf(cmd, sizeof cmd, "check %s", path);
    expect_file_errors(&p, cmd, path);
    snprintf(cmd, sizeof cmd, "setoption name VariantPath value %s", path);
    expect_file_errors(&p, cmd, path);
    expect_rejected(&p, "variant proto-broken");
    struct lines out = engine_run(&p, "uci");
    ck_assert_msg(!strstr(lines_show(&out), "proto-broken"), "%s", lines_show(&out));
    lines_free(&out);
    engine_quit(&p);
}
END_TEST

/* However many mistakes a file has, each error line is whole: "<file>:<line>: message", and a last
 * "<file>: N more errors not shown" counts what did not fit. */
START_TEST(test_variant_file_many_errors)
{
    const char *path = variant_file(FILE_MANY_ERRORS);
    char cmd[128], where[128];
    snprintf(where, sizeof where, "info string error: %s:", path);
    struct proc p;
    pipe_start(&p, NULL);
    engine_run_silent(&p, "position startpos moves e4e6");
    static const char *const commands[] = { "check ", "setoption name VariantPath value " };
    for (size_t c = 0; c < sizeof commands / sizeof *commands; c++) {
        snprintf(cmd, sizeof cmd, "%s%s", commands[c], path);
        struct lines out = engine_run(&p, cmd);
        ck_assert_msg(out.n >= 1, "%s: no error", cmd);
        for (int i = 0; i < out.n; i++) {
            const char *rest = has_prefix(out.v[i], where) ? out.v[i] + strlen(where) : "";
            size_t digits = strspn(rest, "0123456789");
            if (i == out.n - 1 && rest[0] == ' ' && strstr(rest, " more errors not shown"))
                continue;
            ck_assert_msg(digits && has_prefix(rest + digits, ": "), "%s: bad error line '%s'", cmd, out.v[i]);
        }
        ck_assert_msg(strstr(out.v[out.n - 1], "more errors not shown"), "%s: no count of unshown errors", cmd);
        lines_free(&out);
    }
    expect_fen(&p, GLINSKI_E4E6);
    engine_quit(&p);
}
END_TEST

/* A file with one good and one bad variant adds neither; a built-in name may not be reused. */
START_TEST(test_variant_file_all_or_nothing)
{
    const char *bad = variant_file(FILE_HALF_GOOD), *dup = variant_file(FILE_BUILTIN_NAME);
    char cmd[128];
    struct proc p;
    pipe_start(&p, NULL);
    engine_run_silent(&p, "position startpos moves e4e6");
    snprintf(cmd, sizeof cmd, "setoption name VariantPath value %s", bad);
    expect_rejected(&p, cmd);
    expect_rejected(&p, "variant proto-good");
    snprintf(cmd, sizeof cmd, "setoption name VariantPath value %s", dup);
    expect_rejected(&p, cmd);
    engine_run_silent(&p, "variant mccooey");
    expect_fen(&p, MCCOOEY_START);
    engine_quit(&p);
}
END_TEST

START_TEST(test_variant_file_loads)
{
    const char *path = variant_file(FILE_USER);
    char cmd[128], want[160];
    struct proc p;
    pipe_start(&p, NULL);
    snprintf(cmd, sizeof cmd, "check %s", path);
    struct lines out = engine_run(&p, cmd);
    snprintf(want, sizeof want, "info string %s: 1 variant, no errors", path);
    ck_assert_msg(out.n == 1 && !strcmp(out.v[0], want), "%s", lines_show(&out));
    lines_free(&out);
    /* check only validates: the variant is not added. */
    expect_rejected(&p, "variant proto-test");
    snprintf(cmd, sizeof cmd, "setoption name VariantPath value %s", path);
    out = engine_run(&p, cmd);
    ck_assert_msg(out.n == 1 && has_prefix(out.v[0], "info string variants: ") && strstr(out.v[0], " proto-test"),
                  "%s", lines_show(&out));
    lines_free(&out);
    out = engine_run(&p, "uci\nvariants");
    const char *combo = lines_find(&out, "option name UCI_Variant ");
    ck_assert_msg(combo && strstr(combo, " var proto-test"), "%s", lines_show(&out));
    ck_assert_msg(lines_find(&out, "proto-test 2 91 protocol test"), "%s", lines_show(&out));
    lines_free(&out);
    engine_run_silent(&p, "setoption name UCI_Variant value proto-test\nposition startpos moves e4e6");
    expect_fen(&p, GLINSKI_E4E6);
    /* Loading it a second time is an error that changes nothing. */
    expect_rejected(&p, cmd);
    engine_quit(&p);
}
END_TEST

/* Castling (protocol.md: written as the royal's own move) in the castling test variants: White's
 * Grandduke h1 castles to f1 with the Rook e1 (to g1) or to k1 with l1 (to i1); Black's h15 to k13 with
 * l12 (to i14). */
#define CASTLE_HOME "8/9/10/11/R10r/13/14/K13k/14/13/R10r/11/10/9/8"
#define CASTLED "8/9/10/11/11r/K12/R13/15/13r/12k/R11/11/10/9/8 w - - 2 2"
START_TEST(test_castling)
{
    struct proc p;
    pipe_start(&p, NULL);
    struct lines out = engine_run(&p, "setoption name VariantPath value tests/fixtures/castling.ini");
    ck_assert_msg(out.n == 1 && strstr(out.v[0], " castle-nd castle-tri"), "%s", lines_show(&out));
    lines_free(&out);
    engine_run_silent(&p, "variant castle-nd\nposition fen " CASTLE_HOME " w e1,e12,l1,l12 - 0 1 moves h1f1 h15k13");
    struct state played = engine_state(&p);
    ck_assert_str_eq(played.fen, CASTLED);
    engine_run_silent(&p, "position fen " CASTLED);
    ck_assert_str_eq(engine_state(&p).key, played.key);
    /* Not without the right, nor through the Unicorns of the start, nor written as the Rook's move. */
    expect_rejected(&p, "position fen " CASTLE_HOME " w l1 - 0 1 moves h1f1");
    expect_rejected(&p, "position startpos moves h1k1");
    expect_rejected(&p, "position fen " CASTLE_HOME " w e1,e12,l1,l12 - 0 1 moves h1e1");
    expect_rejected(&p, "position fen " CASTLE_HOME " w e1,e5 - 0 1");
    /* Castling mates Black's Grandduke i14, walled in by its own pawns, along the file i (so does l1i1):
     * the search finds it, also when told to search castling alone. */
    static const char mate[] = "position fen 8/9/10/11/12/13/13p/K11ppp/13k/11pp/R11/11/10/9/8 w l1 - 0 1";
    engine_run_silent(&p, mate);
    const char *const goes[] = { "go depth 3", "go depth 3 searchmoves h1k1" };
    for (int i = 0; i < 2; i++) {
        engine_send(&p, goes[i]);
        out = engine_read_until(&p, "bestmove", reply_ms());
        const char *best = out.v[out.n - 1];
        ck_assert_msg(lines_find(&out, "info depth 3 ") && strstr(lines_find(&out, "info depth 3 "), " score mate 1 ")
                          && (!strcmp(best, "bestmove h1k1") || (!i && !strcmp(best, "bestmove l1i1"))),
                      "%s: %s", goes[i], lines_show(&out));
        lines_free(&out);
    }
    engine_quit(&p);
}
END_TEST

START_TEST(test_unknown_words_skipped)
{
    struct proc p;
    pipe_start(&p, NULL);
    engine_run_silent(&p, "joho debug on\njoho debug off");
    engine_run_silent(&p, "xyzzy 42 position startpos moves e4e6");
    expect_fen(&p, GLINSKI_E4E6);
    engine_send(&p, "joho isready");
    ck_assert_str_eq(pipe_read_line(&p, reply_ms()), "readyok");
    engine_quit(&p);
}
END_TEST

/* UCI: stop and ponderhit with nothing to stop are ignored; blank lines too. */
START_TEST(test_silent_commands)
{
    struct proc p;
    pipe_start(&p, NULL);
    engine_run_silent(&p, "stop\nponderhit\ndebug on\ndebug off\n\n \t \r\nucinewgame\nposition startpos");
    expect_fen(&p, GLINSKI_START);
    engine_quit(&p);
}
END_TEST

/* A line such as "e4e5: 20". */
static bool perft_line(const char *line, char *move, unsigned long long *count)
{
    int from, to, end = 0;
    char f1, f2;
    if (sscanf(line, "%c%d%c%d", &f1, &from, &f2, &to) != 4
        || sscanf(line, "%15[a-z0-9A-Z]: %llu%n", move, count, &end) != 2)
        return false;
    return !line[end] && strchr("abcdefghikl", f1) && strchr("abcdefghikl", f2) && from > 0 && to > 0;
}

/* Runs go perft and checks the divide format; returns the total. */
static unsigned long long engine_perft(struct proc *p, int depth, int moves)
{
    char cmd[32], move[16];
    snprintf(cmd, sizeof cmd, "go perft %d", depth);
    engine_send(p, cmd);
    struct lines out = engine_read_until(p, "Nodes searched: ", reply_ms());
    unsigned long long sum = 0, count, total;
    ck_assert_msg(out.n == moves + 2, "%s: %d lines, not %d", cmd, out.n, moves + 2);
    for (int i = 0; i < moves; i++) {
        ck_assert_msg(perft_line(out.v[i], move, &count) && count > 0, "%s: bad line '%s'", cmd, out.v[i]);
        for (int k = 0; k < i; k++)
            ck_assert_msg(strncmp(out.v[k], move, strlen(move)) || out.v[k][strlen(move)] != ':', "%s twice", move);
        sum += count;
    }
    ck_assert_str_eq(out.v[moves], "");
    ck_assert_msg(sscanf(out.v[moves + 1], "Nodes searched: %llu", &total) == 1, "%s", out.v[moves + 1]);
    ck_assert_msg(sum == total, "%s: the lines add up to %llu, total %llu", cmd, sum, total);
    lines_free(&out);
    return total;
}

START_TEST(test_perft_divide)
{
    struct proc p;
    pipe_start(&p, NULL);
    ck_assert_uint_eq(engine_perft(&p, 1, 51), 51);
    ck_assert_uint_eq(engine_perft(&p, 2, 51), 2586);
    ck_assert_uint_eq(engine_perft(&p, 3, 51), 137858);
    engine_run_silent(&p, "variant mccooey");
    ck_assert_uint_eq(engine_perft(&p, 1, 31), 31);
    ck_assert_uint_eq(engine_perft(&p, 2, 31), 947);
    ck_assert_uint_eq(engine_perft(&p, 3, 31), 33307);
    expect_fen(&p, MCCOOEY_START);
    engine_quit(&p);
}
END_TEST

/* Long enough that only stop can end it. */
#define LONG_PERFT "go perft 7"

START_TEST(test_perft_stop)
{
    struct proc p;
    pipe_start(&p, NULL);
    engine_run_silent(&p, "position startpos moves e4e6");
    engine_send(&p, LONG_PERFT);
    nanosleep(&(struct timespec){ .tv_nsec = 100 * 1000 * 1000 }, NULL);
    long long sent = clock_ms();
    engine_send(&p, "stop");
    struct lines out = engine_read_until(&p, "Nodes searched: ", reply_ms());
    long long took = clock_ms() - sent;
    ck_assert_msg(took < test_timeout(1.0) * 1000, "stop took %lld ms", took);
    ck_assert_msg(out.n >= 3 && !strcmp(out.v[out.n - 2], "info string perft stopped") && !strcmp(out.v[out.n - 3], ""),
                  "%s", lines_show(&out));
    unsigned long long sum = 0, count, total;
    char move[16];
    for (int i = 0; i < out.n - 3; i++) {
        ck_assert_msg(perft_line(out.v[i], move, &count), "bad line '%s'", out.v[i]);
        sum += count;
    }
    ck_assert(sscanf(out.v[out.n - 1], "Nodes searched: %llu", &total) == 1);
    ck_assert_msg(sum <= total, "lines %llu > total %llu", sum, total);
    lines_free(&out);
    /* The interrupted count must have put the position back. */
    expect_fen(&p, GLINSKI_E4E6);
    engine_quit(&p);
}
END_TEST

START_TEST(test_isready_during_perft)
{
    struct proc p;
    pipe_start(&p, NULL);
    engine_send(&p, LONG_PERFT);
    long long sent = clock_ms();
    engine_send(&p, "debug on");
    engine_send(&p, "isready");
    const char *line = pipe_read_line(&p, reply_ms());
    long long took = clock_ms() - sent;
    ck_assert_msg(line && !strcmp(line, "readyok"), "got %s", line ? line : "(nothing)");
    ck_assert_msg(took < test_timeout(1.0) * 1000, "readyok took %lld ms", took);
    engine_send(&p, "stop");
    struct lines out = engine_read_until(&p, "Nodes searched: ", reply_ms());
    ck_assert_msg(lines_find(&out, "info string perft stopped"), "%s", lines_show(&out));
    lines_free(&out);
    engine_quit(&p);
}
END_TEST

START_TEST(test_quit)
{
    struct proc p;
    pipe_start(&p, NULL);
    engine_send(&p, "quit");
    struct proc_exit e = pipe_wait(&p, reply_ms());
    ck_assert_msg(!e.killed && e.exited && e.code == 0, "status %d, signal %d", e.code, e.signal);
    ck_assert_ptr_null(pipe_read_line(&p, reply_ms()));
    proc_end(&p, 0, NULL, 0);
    /* End of input is a quit too. */
    pipe_start(&p, NULL);
    engine_run_silent(&p, "position startpos moves e4e6");
    proc_close_input(&p);
    e = pipe_wait(&p, reply_ms());
    ck_assert_msg(!e.killed && e.exited && e.code == 0, "at end of input: status %d, signal %d", e.code, e.signal);
    proc_end(&p, 0, NULL, 0);
}
END_TEST

/* Collects everything the engine prints until its output ends. */
static struct lines engine_read_all(struct proc *p)
{
    struct lines out = { 0 };
    for (const char *line; (line = pipe_read_line(p, reply_ms())) != NULL;)
        lines_add(&out, line);
    return out;
}

/* Sends the script, which ends with quit, and checks that the engine exits cleanly within a second. */
static void send_quit_expect_exit(struct proc *p, const char *script)
{
    long long sent = clock_ms();
    engine_send(p, script);
    struct proc_exit e = pipe_wait(p, reply_ms());
    long long took = clock_ms() - sent;
    ck_assert_msg(!e.killed && e.exited && e.code == 0, "status %d, signal %d", e.code, e.signal);
    ck_assert_msg(took < test_timeout(1.0) * 1000, "quit took %lld ms", took);
}

/* bench is a job like go perft: isready is answered while it runs, stop ends it with its totals so
 * far, quit at once. */
START_TEST(test_bench_job)
{
    struct proc p;
    pipe_start(&p, NULL);
    engine_send(&p, "bench 12");
    struct lines out = engine_answer_soon(&p, "isready", "readyok");
    ck_assert_msg(!lines_find(&out, "Nodes searched"), "bench over before isready: %s", lines_show(&out));
    lines_free(&out);
    out = engine_answer_soon(&p, "stop", "Nodes searched: ");
    const char *stopped = lines_find(&out, "info string bench stopped after ");
    int done, total;
    ck_assert_msg(stopped && sscanf(stopped, "info string bench stopped after %d of %d positions", &done, &total) == 2
                      && done < total && lines_count(&out, "Position ") == done, "%s", lines_show(&out));
    lines_free(&out);
    out = engine_read_until(&p, "Nodes/second: ", reply_ms());
    lines_free(&out);
    /* The engine goes on as before: a position, then a bench that quit ends. */
    engine_run_silent(&p, "position startpos moves e4e6");
    expect_fen(&p, GLINSKI_E4E6);
    send_quit_expect_exit(&p, "bench 12\nquit");
    proc_end(&p, 0, NULL, 0);
}
END_TEST

/* Scripts pipe "go perft N" then quit, or just end their input: either way the whole count is
 * printed (stop is what abandons a count). */
START_TEST(test_perft_finishes_before_quit)
{
    for (int quit = 0; quit < 2; quit++) {
        struct proc p;
        pipe_start(&p, NULL);
        engine_send(&p, quit ? "go perft 3\nquit" : "go perft 3");
        proc_close_input(&p);
        struct proc_exit e = pipe_wait(&p, reply_ms());
        ck_assert_msg(!e.killed && e.exited && e.code == 0, "status %d, signal %d", e.code, e.signal);
        struct lines out = engine_read_all(&p);
        ck_assert_msg(out.n == 53 && !strcmp(out.v[52], "Nodes searched: 137858"), "%s", lines_show(&out));
        lines_free(&out);
        proc_end(&p, 0, NULL, 0);
    }
}
END_TEST

/* A GUI may send position before stop while a search with a far limit runs: isready is answered at
 * once, stop ends the search, and the position then applies (no head-of-line blocking). */
START_TEST(test_no_head_of_line_blocking)
{
    struct proc p;
    pipe_start(&p, NULL);
    engine_send(&p, "go depth 1000");
    nanosleep(&(struct timespec){ .tv_nsec = 200 * 1000 * 1000 }, NULL);
    struct lines out = engine_answer_soon(&p, "position startpos moves e4e6\nisready", "readyok");
    ck_assert_msg(!lines_find(&out, "bestmove"), "the search ended by itself: %s", lines_show(&out));
    lines_free(&out);
    out = engine_answer_soon(&p, "stop", "bestmove ");
    lines_free(&out);
    expect_fen(&p, GLINSKI_E4E6);
    engine_quit(&p);
}
END_TEST

/* The same ended by quit: the search stops and the engine exits at once. */
START_TEST(test_quit_while_blocked)
{
    struct proc p;
    pipe_start(&p, NULL);
    engine_send(&p, "go depth 1000\nposition startpos\nisready");
    struct lines out = engine_read_until(&p, "readyok", reply_ms());
    lines_free(&out);
    send_quit_expect_exit(&p, "quit");
    proc_end(&p, 0, NULL, 0);
}
END_TEST

/* A stop read before the loop starts the go it follows still stops that go. */
START_TEST(test_stop_before_go_starts)
{
    struct proc p;
    pipe_start(&p, NULL);
    engine_send(&p, "go perft 30\nd\ngo depth 1000\nstop");
    struct lines out = engine_read_until(&p, "bestmove ", reply_ms());
    ck_assert_msg(lines_find(&out, "info string perft stopped"), "%s", lines_show(&out));
    lines_free(&out);
    engine_quit(&p);
}
END_TEST

/* Reads until the n-th bestmove or until the deadline (ms on clock_ms); returns how many came. */
static int engine_count_bestmoves(struct proc *p, int n, long long deadline)
{
    int got = 0;
    for (const char *line; got < n && clock_ms() < deadline;) {
        if (!(line = pipe_read_line(p, (int)(deadline - clock_ms()))))
            break;
        got += has_prefix(line, "bestmove ");
    }
    return got;
}

/* Every stop ends the go it follows, however close the pairs come: a batch of go infinite/stop
 * pairs (a GUI's own order with position between them too), sent at once or a line at a time with
 * a pause, gets a bestmove for each pair at once and then a readyok. */
START_TEST(test_stop_pairs_each_end_their_go)
{
    static const int pairs[] = { 1, 2, 3, 5, 200 };
    static const int pauses_us[] = { 0, 50, 300, 2000 };
    struct proc p;
    pipe_start(&p, NULL);
    for (int round = 0; round < 3; round++)
        for (size_t k = 0; k < sizeof pairs / sizeof *pairs; k++)
            for (size_t d = 0; d < sizeof pauses_us / sizeof *pauses_us; d++)
                for (int gui = 0; gui < 2; gui++) {
                    static const char *const lines[2][3] = { { "go infinite", "stop", NULL },
                                                             { "position startpos", "go infinite", "stop" } };
                    /* 200 pairs go in one write only; with pauses, 5 are enough. */
                    const int n = pairs[k] > 5 && d ? 5 : pairs[k];
                    static char batch[200 * 64];
                    size_t len = 0;
                    for (int i = 0; i < n; i++)
                        for (int l = 0; l < 3 && lines[gui][l]; l++) {
                            const char *line = gui && l == 0 && i % 2 ? "position startpos moves e4e5" : lines[gui][l];
                            if (pauses_us[d]) {
                                engine_send(&p, line);
                                nanosleep(&(struct timespec){ .tv_nsec = pauses_us[d] * 1000L }, NULL);
                            } else {
                                len += (size_t)snprintf(batch + len, sizeof batch - len, "%s\n", line);
                            }
                        }
                    if (len)
                        engine_write(&p, batch, len);
                    int got = engine_count_bestmoves(&p, n, clock_ms() + test_timeout(3.0) * 1000);
                    ck_assert_msg(got == n, "%d go infinite/stop pairs%s, %d us apart (round %d): %d bestmoves",
                                  n, gui ? " with position" : "", pauses_us[d], round, got);
                    struct lines out = engine_sync(&p);
                    ck_assert_msg(!lines_find(&out, "bestmove"), "a bestmove too many: %s", lines_show(&out));
                    lines_free(&out);
                }
    engine_quit(&p);
}
END_TEST

/* go's limits as docs/protocol.md gives them: a movetime below 1 ms counts as 1 ms (no endless
 * search), a depth above 127 as 127 and a mate above 64 as 64 (searches that stop ends, with no
 * error), and a number beyond 10^12 is refused. */
START_TEST(test_go_limits_clamped)
{
    static const char *const endless[] = { "go depth 128", "go depth 99999999999", "go mate 65" };
    struct proc p;
    pipe_start(&p, NULL);
    engine_send(&p, "go movetime 0");
    ck_assert_msg(engine_count_bestmoves(&p, 1, clock_ms() + test_timeout(1.0) * 1000) == 1,
                  "go movetime 0: no bestmove within a second");
    struct lines out;
    for (size_t i = 0; i < sizeof endless / sizeof *endless; i++) {
        engine_send(&p, endless[i]);
        out = engine_sync(&p);
        ck_assert_msg(!lines_find(&out, "info string error") && !lines_find(&out, "bestmove"), "'%s': %s", endless[i],
                      lines_show(&out));
        lines_free(&out);
        out = engine_answer_soon(&p, "stop", "bestmove ");
        ck_assert_msg(!lines_find(&out, "info string error"), "'%s': %s", endless[i], lines_show(&out));
        lines_free(&out);
    }
    out = engine_run(&p, "go depth 1000000000001");
    ck_assert_msg(out.n == 1 && !strcmp(out.v[0], "info string error: go: unexpected 'depth'"), "%s", lines_show(&out));
    lines_free(&out);
    engine_quit(&p);
}
END_TEST

/* ponderhit read just after go ponder turns it into the timed search it was. */
START_TEST(test_ponderhit_early)
{
    struct proc p;
    pipe_start(&p, NULL);
    long long sent = clock_ms();
    engine_send(&p, "go ponder movetime 300\nponderhit");
    struct lines out = engine_read_until(&p, "bestmove ", test_timeout(5.0) * 1000);
    long long took = clock_ms() - sent;
    ck_assert_msg(took < test_timeout(2.0) * 1000, "bestmove took %lld ms", took);
    lines_free(&out);
    engine_quit(&p);
}
END_TEST

/* A NUL byte is just a byte: a line with no command word, NUL or not, is an error. */
START_TEST(test_nul_bytes)
{
    static const char *const lines[] = { "foo\0bar\n", "\0foo\n", "\0\n", " \0 x\n" };
    static const size_t lens[] = { 8, 5, 2, 5 };
    struct proc p;
    pipe_start(&p, NULL);
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        engine_write(&p, lines[i], lens[i]);
        struct lines out = engine_sync(&p);
        ck_assert_msg(out.n == 1 && has_prefix(out.v[0], "info string error: "), "%s: %s",
                      show_bytes(lines[i], lens[i]), lines_show(&out));
        lines_free(&out);
    }
    engine_quit(&p);
}
END_TEST

/* ------------------------------------------------------------------------------------------- */
/* Fuzzing. */

/* xorshift64*: the same lines on every run and machine. */
static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

static unsigned rng_below(uint64_t *s, unsigned n)
{
    return (unsigned)(rng_next(s) >> 33) % n;
}

static const char *rng_pick(uint64_t *s, const char *const *list, size_t n)
{
    return list[rng_below(s, (unsigned)n)];
}

#define PICK(s, list) rng_pick(s, list, sizeof list / sizeof *list)

static const char *const command_words[] = {
    "uci", "debug", "isready", "setoption", "ucinewgame", "position", "go",
    "stop", "ponderhit", "variant", "d", "variants", "check", "quit",
};

static bool is_space(char c)
{
    return c && strchr(" \t\r\v\f", c);
}

/* Whether some white-space separated word of the line is a command. */
static bool has_command_word(const char *line, size_t len)
{
    for (size_t i = 0; i < len;) {
        size_t n = 0;
        while (i + n < len && !is_space(line[i + n]))
            n++;
        for (size_t c = 0; n && c < sizeof command_words / sizeof *command_words; c++)
            if (strlen(command_words[c]) == n && !memcmp(command_words[c], line + i, n))
                return true;
        i += n ? n : 1;
    }
    return false;
}

static bool is_blank(const char *line, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!is_space(line[i]))
            return false;
    return true;
}

/* A line of random bytes, never a newline: sometimes empty, white space only, or 100 KB long, with
 * or without NUL bytes (a NUL must not hide the rest of the line). */
static size_t fuzz_bytes_line(uint64_t *s, char *line, size_t cap)
{
    static const char spaces[] = " \t\r";
    unsigned kind = rng_below(s, 40), word = 2u << rng_below(s, 12);
    size_t len = kind == 0 ? 0 : kind <= 2 ? cap : 1 + rng_below(s, kind < 8 ? 40 : 200);
    for (size_t i = 0; i < len; i++) {
        char c = kind == 3 ? spaces[rng_below(s, 3)] : (char)rng_below(s, 256);
        if (kind == 2 && !c)
            c = 'x';
        /* Words of random mean length: from a few bytes to one huge word. */
        line[i] = c == '\n' || rng_below(s, word) == 0 ? ' ' : c;
    }
    return len;
}

enum { LONG_LINE = 100 * 1024 };

struct fuzz_report {
    int violations;
    char first[200];
};

/* Sends the line and an isready, and checks its reply against the rule for lines without a command. */
static void fuzz_check_line(struct proc *p, const char *line, size_t len, struct fuzz_report *r)
{
    engine_write(p, line, len);
    engine_write(p, "\n", 1);
    struct lines out = engine_sync(p);
    bool command = has_command_word(line, len), blank = is_blank(line, len);
    bool one_error = out.n == 1 && has_prefix(out.v[0], "info string error: ");
    if (!command && !blank && !one_error && !r->violations++)
        snprintf(r->first, sizeof r->first, "%s", show_bytes(line, len));
    lines_free(&out);
}

/* What every fuzz run ends with: d's FEN is accepted again, and quit exits cleanly. */
static void fuzz_finish(struct proc *p)
{
    char cmd[600];
    struct state last = engine_state(p);
    snprintf(cmd, sizeof cmd, "position fen %s", last.fen);
    engine_run_silent(p, cmd);
    ck_assert_str_eq(engine_state(p).fen, last.fen);
    engine_quit(p);
}

START_TEST(test_fuzz_bytes)
{
    uint64_t seed = 0x5e4417e5eed0001ULL;
    char *line = malloc(LONG_LINE);
    struct fuzz_report report = { 0 };
    ck_assert(line != NULL);
    for (int run = 0; run < 3; run++) {
        struct proc p;
        pipe_start(&p, NULL);
        for (int i = 0; i < 1000; i++) {
            size_t len = fuzz_bytes_line(&seed, line, LONG_LINE);
            fuzz_check_line(&p, line, len, &report);
        }
        fuzz_finish(&p);
    }
    free(line);
    ck_assert_msg(!report.violations, "%d line(s) without a command got no single error line, first: %s",
                  report.violations, report.first);
}
END_TEST

/* Words for lines that look like commands. No depth above 3 reaches go perft. */
static const char *const fuzz_words[] = {
    "name", "value", "UCI_Variant", "VariantPath", "Hash", "Threads", "glinski", "mccooey", "haynie",
    "full-house", "nope", "startpos", "fen", "moves", "perft", "on", "off", "-", "w", "b", "r", "0", "1",
    "2", "3", "-1", "31", "1000", "2147483648", "-2147483649", "99999999999999999999", "1.5", "0x10",
    "+2", "e5", "z9", "f5f6", "e4e5", "e4e6", "d1e3", "b1b2", "e3e5", "f10f11Q", "e4e9", "0000", "e4",
    "/", "//", "6/P5p", "K3R4k", "<empty>", "/dev/null", "/nonexistent", "joho", "proto-fuzz", "",
};

static const char *const fuzz_moves[] = {
    "f5f6", "e4e5", "e4e6", "d1c3", "b1b2", "g7g6", "e7e6", "e3e5", "c1c3", "e8e6", "f10f11Q",
    "f10f11q", "a1a1", "z9z9", "e4", "e4e5e6", "0000", "f5f6x", "e4e5Q", "E4E5",
};

/* Move lists legal from the Glinski or McCooey start, so that some positions do change. */
static const char *const fuzz_games[] = {
    "", "e4e6", "f5f6", "e4e5 g7g6 d1c3", "b1b2 b7b6", "e3e5 e8e6", "c1c2", "E4E6 G7G6",
};

static const char *const fuzz_depths[] = { "1", "2", "3", "+2", "0", "-1", "1000", "x", "", "2 3" };

static const char *const fuzz_fens[] = {
    GLINSKI_START, MCCOOEY_START, GLINSKI_E4E6, ROOK_CHECK_BOARD " b - - 7 42",
    "2ppfb/3ppnr/P3ppwq/PP3ppbk/FPP3ppwr/BNPP3ppnb/RWPP3ppf/QBPP3pp/KWPP3p/RNPP3/BFPP2 w - - 0 1",
    "5k/7/8/9/10/9P1/K9/9/8/7/6 w - - 0 1",
};

static const char *const fuzz_mutations = "0123456789/pPkKqQnNbBrRzZ -wbe()";

/* A FEN with a few random characters replaced, dropped or doubled. */
static void fuzz_fen(uint64_t *s, char *out, size_t cap)
{
    snprintf(out, cap, "%s", PICK(s, fuzz_fens));
    for (unsigned k = rng_below(s, 4); k > 0; k--) {
        size_t len = strlen(out), at = rng_below(s, (unsigned)len);
        unsigned how = rng_below(s, 3);
        if (how == 0)
            out[at] = fuzz_mutations[rng_below(s, (unsigned)strlen(fuzz_mutations))];
        else if (how == 1)
            memmove(out + at, out + at + 1, len - at);
        else if (len + 1 < cap)
            memmove(out + at + 1, out + at, len - at + 1);
    }
}

static void append(char *line, size_t cap, const char *word)
{
    size_t len = strlen(line);
    snprintf(line + len, cap - len, "%s%s", len ? " " : "", word);
}

/* The command part of a line: a real command word with plausible or broken arguments. */
static void fuzz_command(uint64_t *s, char *line, size_t cap, const char *file)
{
    static const char *const commands[] = {
        "uci", "debug", "setoption", "ucinewgame", "position", "go", "stop", "ponderhit", "variant", "d",
        "variants", "check",
    };
    const char *cmd = PICK(s, commands);
    char fen[256];
    append(line, cap, cmd);
    unsigned form = rng_below(s, 4), words = rng_below(s, 6);
    if (!strcmp(cmd, "position") && form < 3) {
        fuzz_fen(s, fen, sizeof fen);
        append(line, cap, form == 0 ? "startpos" : "fen");
        if (form)
            append(line, cap, fen);
        append(line, cap, "moves");
        append(line, cap, PICK(s, fuzz_games));
        for (unsigned i = 0; i < words % 3; i++)
            append(line, cap, PICK(s, fuzz_moves));
        return;
    }
    if (!strcmp(cmd, "go") && form < 3) {
        append(line, cap, "perft");
        append(line, cap, PICK(s, fuzz_depths));
        return;
    }
    if (!strcmp(cmd, "setoption") && form < 3) {
        static const char *const names[] = { "UCI_Variant", "VariantPath", "Hash", "" };
        append(line, cap, "name");
        append(line, cap, PICK(s, names));
        append(line, cap, "value");
        append(line, cap, form == 0 ? file : PICK(s, fuzz_words));
        return;
    }
    if (!strcmp(cmd, "check") && form == 0)
        append(line, cap, file);
    for (unsigned i = 0; i < words; i++)
        append(line, cap, PICK(s, fuzz_words));
}

/* A line of command-like words: mostly commands, sometimes only junk that must be an error. */
static bool fuzz_words_line(uint64_t *s, char *line, size_t cap, const char *file)
{
    static const char *const junk[] = { "joho", "xyzzy", "42", "Position", "GO", "quitt", "fen", "moves" };
    line[0] = 0;
    if (rng_below(s, 5) == 0)
        append(line, cap, PICK(s, junk));
    if (rng_below(s, 8) == 0) {
        append(line, cap, PICK(s, junk));
        return false;
    }
    fuzz_command(s, line, cap, file);
    return true;
}

START_TEST(test_fuzz_commands)
{
    uint64_t seed = 0xc0ffee15900dULL;
    const char *files[] = { variant_file(FILE_BROKEN), variant_file(FILE_FUZZ) };
    char line[1024];
    for (int run = 0; run < 4; run++) {
        struct proc p;
        pipe_start(&p, NULL);
        for (int batch = 0; batch < 100; batch++) {
            int size = 1 + (int)rng_below(&seed, 12), junk_lines = 0;
            for (int i = 0; i < size; i++) {
                junk_lines += !fuzz_words_line(&seed, line, sizeof line, files[rng_below(&seed, 2)]);
                engine_send(&p, line);
            }
            /* Batches are piped without waiting, as a GUI may; isready must still be answered. A
             * count still running would answer it at once, ahead of the batch's errors: stop first. */
            engine_send(&p, "stop");
            struct lines out = engine_sync(&p);
            ck_assert_msg(lines_count(&out, "info string error: ") >= junk_lines, "run %d batch %d: %s", run, batch,
                          lines_show(&out));
            lines_free(&out);
        }
        fuzz_finish(&p);
    }
}
END_TEST

/* What one session on the engine prints for the script (the caller frees it). */
static char *session_output(struct uci *u, const char *script)
{
    FILE *in = fmemopen((void *)script, strlen(script), "r"), *out = tmpfile();
    int saved = dup(STDOUT_FILENO);
    ck_assert(in && out && saved >= 0);
    fflush(stdout);
    ck_assert(dup2(fileno(out), STDOUT_FILENO) >= 0);
    bool ran = uci_session(u, in);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    fclose(in);
    ck_assert(ran);
    long len = ftell(out);
    char *text = calloc(1, (size_t)len + 1);
    ck_assert(text && len >= 0);
    rewind(out);
    ck_assert_uint_eq(fread(text, 1, (size_t)len, out), (size_t)len);
    fclose(out);
    return text;
}

/* One engine, many sessions (uci_session and uci_reset, as the fuzz harness runs them): each session
 * reads its own stream, to its end or to quit, and after a reset answers as a new engine does. */
START_TEST(test_sessions_on_one_engine)
{
    static const char *const scripts[] = {
        "variant mccooey\nposition startpos moves e3e5\nd\nisready\n",
        "setoption name MultiPV value 3\nvariant shafran\nquit\nisready\n",
        "uci\nd\neval\nisready\n",
    };
    enum { NSCRIPTS = sizeof scripts / sizeof *scripts };
    char err[512], *fresh[NSCRIPTS];
    for (int i = 0; i < NSCRIPTS; i++) {
        struct uci *u = uci_new(err, sizeof err);
        ck_assert_msg(u, "%s", err);
        fresh[i] = session_output(u, scripts[i]);
        uci_free(u);
    }
    ck_assert_ptr_nonnull(strstr(fresh[0], "readyok"));
    ck_assert_ptr_null(strstr(fresh[1], "readyok"));
    struct uci *u = uci_new(err, sizeof err);
    ck_assert_msg(u, "%s", err);
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < NSCRIPTS; i++) {
            uci_reset(u);
            char *got = session_output(u, scripts[i]);
            size_t at = 0;
            while (got[at] && got[at] == fresh[i][at])
                at++;
            ck_assert_msg(!strcmp(got, fresh[i]), "round %d, script %d, from byte %zu: got '%.200s', new '%.200s'",
                          round, i, at, got + at, fresh[i] + at);
            free(got);
        }
    uci_free(u);
    for (int i = 0; i < NSCRIPTS; i++)
        free(fresh[i]);
}
END_TEST

Suite *suite_protocol(void)
{
    Suite *s = suite_create("protocol");
    TCase *tc = tcase_create("scripts");
    tcase_add_unchecked_fixture(tc, files_create, files_remove);
    tcase_set_timeout(tc, test_timeout(20));
    tcase_add_test(tc, test_uci_handshake);
    tcase_add_test(tc, test_options_documented_and_defaults_accepted);
    tcase_add_test(tc, test_option_out_of_range);
    tcase_add_test(tc, test_option_reader);
    tcase_add_test(tc, test_isready);
    tcase_add_test(tc, test_stream_without_uci);
    tcase_add_test(tc, test_promotion_letters);
    tcase_add_test(tc, test_position_moves);
    tcase_add_test(tc, test_position_eliminations);
    tcase_add_test(tc, test_fen_round_trip);
    tcase_add_test(tc, test_fen_fields_round_trip);
    tcase_add_test(tc, test_fen_large_clocks);
    tcase_add_test(tc, test_bad_input_rejected);
    tcase_add_test(tc, test_illegal_move_rejects_list);
    tcase_add_test(tc, test_bad_variant_kept);
    tcase_add_test(tc, test_variant_selection);
    tcase_add_test(tc, test_variant_switch_back);
    tcase_add_test(tc, test_variant_file_errors);
    tcase_add_test(tc, test_variant_file_many_errors);
    tcase_add_test(tc, test_variant_file_all_or_nothing);
    tcase_add_test(tc, test_variant_file_loads);
    tcase_add_test(tc, test_castling);
    tcase_add_test(tc, test_unknown_words_skipped);
    tcase_add_test(tc, test_silent_commands);
    tcase_add_test(tc, test_perft_divide);
    tcase_add_test(tc, test_perft_stop);
    tcase_add_test(tc, test_isready_during_perft);
    tcase_add_test(tc, test_quit);
    tcase_add_test(tc, test_perft_finishes_before_quit);
    tcase_add_test(tc, test_bench_job);
    tcase_add_test(tc, test_command_line);
    tcase_add_test(tc, test_install_while_running);
    tcase_add_test(tc, test_no_head_of_line_blocking);
    tcase_add_test(tc, test_quit_while_blocked);
    tcase_add_test(tc, test_stop_before_go_starts);
    tcase_add_test(tc, test_go_limits_clamped);
    tcase_add_test(tc, test_ponderhit_early);
    tcase_add_test(tc, test_nul_bytes);
    tcase_add_test(tc, test_sessions_on_one_engine);
    suite_add_tcase(s, tc);
    /* Its own case, so that the race can be run alone and often (CK_RUN_CASE=stops). */
    tc = tcase_create("stops");
    tcase_set_timeout(tc, test_timeout(60));
    tcase_add_test(tc, test_stop_pairs_each_end_their_go);
    suite_add_tcase(s, tc);
    tc = tcase_create("fuzz");
    tcase_add_unchecked_fixture(tc, files_create, files_remove);
    tcase_set_timeout(tc, test_timeout(60));
    tcase_add_test(tc, test_fuzz_bytes);
    tcase_add_test(tc, test_fuzz_commands);
    suite_add_tcase(s, tc);
    return s;
}
