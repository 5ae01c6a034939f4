/* The match runner (match/match.c) playing short matches between toy engines
 * (tests/fixtures/toy_engine.c, path in $TOY_ENGINE) that mate, stalemate, crash, hang, play
 * illegal moves, think too long, never answer uci, or report scores for adjudication; three-player
 * matches between toy engines and between copies of the real engine ($SENNIGHT); the UCI client
 * (client/uci_client.c) on its own, as the GUI drives it. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../games/pgn.h"
#include "../match/match.h"
#include "../match/results.h"
#include "../util/clock.h"
#include "engine_pipe.h"
#include "tests.h"

/* Black to move stalemates White with b6b4 (Glinski: 3/4 to Black), or mates with d2b1. */
#define STALEMATE_IN_ONE "K5/5q1/6r1/9/10/11/10/9/8/7/5k b - - 0 1"
#define MATE_IN_ONE "K5/4r2/8/1q7/10/11/10/9/8/7/5k b - - 0 1"

/* wellisch: White gone, Black's Vicereine mates Red with c3f3. */
#define THREE_MATE_IN_ONE "6/5bG1/2bV5/9/10/rG10/10/9/8/7/6 b - - 0 1"
#define THREE_START                                                                                           \
    "bEbRbGbVbRbE/bPbPbPbEbPbPbP/3bPbP3/9/rP8wP/rErP7wPwE/rRrPrP4wPwPwR/rVrErP3wPwEwG/rGrP4wPwV/rRrP3wPwR/" \
    "rErP2wPwE r - - 0 1"
#define THREE_VARIANTS "option.VariantPath=tests/fixtures/three-player.ini"

enum { MAX_RUN_ARGS = 64 };

struct run {
    struct match_result r;
    int status;
    char out[1 << 16];
    double seconds;
};

static const char *toy_path(void)
{
    const char *path = getenv("TOY_ENGINE");
    return path && *path ? path : "build/test/toy_engine";
}

/* "cmd=<toy> <arguments>" in a buffer that lives as long as the test. */
static const char *toy(const char *arguments)
{
    static char cmds[8][1024];
    static int next;
    char *cmd = cmds[next++ % 8];
    snprintf(cmd, sizeof cmds[0], "cmd=%s%s%s", toy_path(), *arguments ? " " : "", arguments);
    return cmd;
}

/* "<key>=<seconds × TEST_TIME_SCALE>". */
static const char *scaled(const char *key, double seconds)
{
    static char texts[8][64];
    static int next;
    char *text = texts[next++ % 8];
    snprintf(text, sizeof texts[0], "%s=%g", key, test_timeout(seconds));
    return text;
}

static int open_descriptors(void)
{
    int n = 0;
    for (int fd = 0; fd < 1024; fd++)
        n += fcntl(fd, F_GETFD) != -1;
    return n;
}

/* Parses and runs a match from the NULL-terminated arguments; its output goes to run->out. The
 * runner must leave the descriptors of its process as it found them. */
static void run_match(struct run *run, ...)
{
    char *argv[MAX_RUN_ARGS], err[512];
    int argc = 0;
    va_list ap;
    va_start(ap, run);
    for (char *a = va_arg(ap, char *); a && argc < MAX_RUN_ARGS; a = va_arg(ap, char *))
        argv[argc++] = a;
    va_end(ap);
    static struct match_conf c;
    ck_assert_msg(match_parse(argc, argv, &c, err, sizeof err), "%s", err);
    int descriptors = open_descriptors();
    FILE *out = tmpfile();
    ck_assert(out != NULL);
    int64_t start = clock_us();
    run->status = match_run(&c, &run->r, out);
    run->seconds = (double)(clock_us() - start) * 1e-6;
    rewind(out);
    size_t n = fread(run->out, 1, sizeof run->out - 1, out);
    run->out[n] = 0;
    fclose(out);
    ck_assert_int_eq(open_descriptors(), descriptors);
}

static void assert_output_has(const struct run *run, const char *text)
{
    ck_assert_msg(strstr(run->out, text) != NULL, "no '%s' in:\n%s", text, run->out);
}

/* Every engine process has been reaped: the runner leaves no child behind. */
static void assert_no_children(void)
{
    ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1);
    ck_assert_int_eq(errno, ECHILD);
}

static int count(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = strstr(text, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

static void temp_path(char *path, size_t len, const char *contents)
{
    snprintf(path, len, "/tmp/sennight-match-XXXXXX");
    int fd = mkstemp(path);
    ck_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    ck_assert(f != NULL);
    fputs(contents, f);
    fclose(f);
}

/* The most read_file returns, its terminator included. */
#define READ_MAX (1 << 16)

static char *read_file(const char *path)
{
    static char text[READ_MAX];
    FILE *f = fopen(path, "r");
    ck_assert(f != NULL);
    text[fread(text, 1, sizeof text - 1, f)] = 0;
    fclose(f);
    return text;
}

START_TEST(test_results_and_record)
{
    struct run run;
    char book[64], pgn[64];
    /* An EPD line with operations, a comment, a blank line and a FEN. */
    temp_path(book, sizeof book, "# test book\n" STALEMATE_IN_ONE "\n\n" MATE_IN_ONE " bm d2b1; id \"mate\";\n");
    temp_path(pgn, sizeof pgn, "");
    char file[80];
    snprintf(file, sizeof file, "file=%s", book);
    run_match(&run, "-engine", toy(""), "name=first", "-engine", toy(""), "name=second", "-each", "depth=1",
              "-games", "4", "-concurrency", "2", "-openings", file, "-pgnout", pgn, NULL);
    ck_assert_msg(run.status == 0, "%s", run.out);
    /* Pair 1 (stalemate): first as White is stalemated (1/4), then stalemates (3/4). Pair 2 (mate):
     * first is mated, then mates. */
    const struct tally *t = &run.r.tally[0];
    ck_assert_int_eq(run.r.games, 4);
    ck_assert_int_eq(t->games, 4);
    ck_assert_int_eq(t->wins, 1);
    ck_assert_int_eq(t->losses, 1);
    ck_assert_int_eq(t->draws, 0);
    ck_assert_int_eq(t->stalemates_given, 1);
    ck_assert_int_eq(t->stalemates_received, 1);
    ck_assert(t->sum == 2.0 && t->sum_sq == 1 + 0.5625 + 0.0625);
    ck_assert_int_eq(run.r.tally[1].stalemates_given, 1);
    ck_assert(run.r.tally[1].sum == 2.0);
    ck_assert_int_eq(run.r.terminations[TERM_STALEMATE], 2);
    ck_assert_int_eq(run.r.terminations[TERM_CHECKMATE], 2);
    assert_output_has(&run, "1/4-3/4 {White is stalemated}");
    assert_output_has(&run, "Score of first vs second: 1 - 1 - 0, stalemates 1 - 1 [0.500] 4");
    assert_output_has(&run, "Terminations: checkmate 2, stalemate 2");
    assert_output_has(&run, "Engine failures: none");
    const char *record = read_file(pgn);
    ck_assert_int_eq(count(record, "[Event \"Sennight match\"]"), 4);
    ck_assert_int_eq(count(record, "[Variant \"glinski\"]"), 4);
    ck_assert_int_eq(count(record, "[SetUp \"1\"]"), 4);
    ck_assert_int_eq(count(record, "[FEN \"" STALEMATE_IN_ONE "\"]"), 2);
    ck_assert_int_eq(count(record, "[FEN \"" MATE_IN_ONE "\"]"), 2);
    ck_assert_int_eq(count(record, "[Result \"1/4-3/4\"]"), 2);
    ck_assert_int_eq(count(record, "[Result \"0-1\"]"), 2);
    ck_assert_int_eq(count(record, "[Termination \"stalemate\"]"), 2);
    /* Each move with the time it took (the toys give no score), then the ending. */
    ck_assert_int_eq(count(record, "1... Qb4 {0"), 2);
    ck_assert_int_eq(count(record, "s} {White is stalemated} 1/4-3/4"), 2);
    ck_assert_int_eq(count(record, "1... Qb1# {0"), 2);
    ck_assert_int_eq(count(record, "s} {Black mates} 0-1"), 2);
    ck_assert_int_eq(count(record, "[White \"first\"]\n[Black \"second\"]"), 2);
    unlink(pgn);
    unlink(book);
    assert_no_children();
}
END_TEST

/* The second engine fails in every game; it is restarted for the next one and loses each. */
static void assert_second_fails(const struct run *run, enum termination term, int games)
{
    ck_assert_msg(run->status == 0, "%s", run->out);
    ck_assert_int_eq(run->r.games, games);
    ck_assert_int_eq(run->r.tally[0].wins, games);
    ck_assert_int_eq(run->r.tally[1].losses, games);
    ck_assert_int_eq(run->r.terminations[term], games);
    ck_assert_int_eq(run->r.faults[1][term], games);
    ck_assert_int_eq(run->r.faults[0][term], 0);
    assert_no_children();
}

START_TEST(test_crash)
{
    struct run run;
    run_match(&run, "-engine", toy(""), "name=good", "-engine", toy("crash=2"), "name=bad", "-each", "depth=1",
              "-games", "4", "-noopenings", NULL);
    assert_second_fails(&run, TERM_CRASH, 4);
    assert_output_has(&run, "(bad) crashed while thinking (exited with status 3)");
    assert_output_has(&run, "Engine failures: bad: engine crash 4\n");
}
END_TEST

START_TEST(test_hang)
{
    struct run run;
    run_match(&run, "-engine", toy(""), "name=good", "-engine", toy("hang=1"), "name=bad", scaled("timeout", 0.1),
              "-each", "nodes=1000", "-games", "2", "-concurrency", "2", "-noopenings", NULL);
    assert_second_fails(&run, TERM_STALL, 2);
    assert_output_has(&run, "(bad) gave no answer within");
    ck_assert_msg(run.seconds < test_timeout(2), "took %.2f s", run.seconds);
}
END_TEST

START_TEST(test_illegal_move)
{
    struct run run;
    run_match(&run, "-engine", toy(""), "name=good", "-engine", toy("illegal=2"), "name=bad", "-each", "depth=1",
              "-games", "2", "-noopenings", NULL);
    assert_second_fails(&run, TERM_ILLEGAL, 2);
    assert_output_has(&run, "(bad) makes an illegal move: 'a1a9'");
}
END_TEST

START_TEST(test_time_losses)
{
    struct run run;
    /* A fixed time per move, then a clock, with no margin: the slow engine oversteps both on its first
     * move (it waits 150 ms before answering, however fast the build). */
    run_match(&run, "-engine", toy(""), "name=good", "depth=1", "-engine", toy("slow=150"), "name=bad", "st=0.05",
              "timemargin=0", "-games", "1", "-noopenings", NULL);
    assert_second_fails(&run, TERM_TIME, 1);
    /* It answered after its 150 ms wait, however late a loaded machine woke it. */
    const char *late = strstr(run.out, "(bad) loses on time: ");
    ck_assert_msg(late != NULL, "no time loss in:\n%s", run.out);
    ck_assert_int_ge(atoi(late + strlen("(bad) loses on time: ")), 150);
    assert_output_has(&run, "allowed 50 ms");
    run_match(&run, "-engine", toy(""), "name=good", "depth=1", "-engine", toy("slow=150"), "name=bad",
              "tc=40/0.1+0", "timemargin=0", "-games", "1", "-noopenings", NULL);
    assert_second_fails(&run, TERM_TIME, 1);
}
END_TEST

/* The default margin (200 ms) forgives what a loaded machine adds to an answer given in time: an engine
 * read 50 ms late at st=0.1 plays on (both think it level, so the game is drawn after two moves each);
 * one 300 ms late still loses on time. */
START_TEST(test_default_time_margin)
{
    struct run run;
    run_match(&run, "-engine", toy("score=0"), "name=good", "depth=1", "-engine", toy("slow=150 score=0"),
              "name=late", "st=0.1", "-draw", "movenumber=1", "movecount=2", "score=10", "-games", "1",
              "-noopenings", NULL);
    ck_assert_msg(run.status == 0 && run.r.terminations[TERM_TIME] == 0, "%s", run.out);
    ck_assert_int_eq(run.r.terminations[TERM_ADJUDICATED_DRAW], 1);
    run_match(&run, "-engine", toy(""), "name=good", "depth=1", "-engine", toy("slow=400"), "name=bad", "st=0.1",
              "-games", "1", "-noopenings", NULL);
    assert_second_fails(&run, TERM_TIME, 1);
    assert_output_has(&run, "allowed 300 ms");
}
END_TEST

START_TEST(test_no_uciok)
{
    struct run run;
    run_match(&run, "-engine", toy(""), "name=good", "-engine", toy("nouci"), "name=bad", scaled("timeout", 0.1),
              "-each", "depth=1", "-games", "1", "-noopenings", NULL);
    assert_second_fails(&run, TERM_STALL, 1);
    assert_output_has(&run, "(bad) gave no answer within");
    assert_output_has(&run, "while waiting for uciok");
}
END_TEST

START_TEST(test_adjudication)
{
    struct run run;
    /* The second engine thinks it is lost: it resigns on its third such move. */
    run_match(&run, "-engine", toy("score=0"), "name=good", "-engine", toy("score=-700"), "name=bad", "-each",
              "depth=1", "-resign", "movecount=3", "score=600", "-games", "2", "-noopenings", NULL);
    ck_assert_msg(run.status == 0, "%s", run.out);
    ck_assert_int_eq(run.r.terminations[TERM_RESIGNATION], 2);
    ck_assert(run.r.tally[0].sum == 2);
    assert_output_has(&run, "resigns (adjudication)");
    assert_output_has(&run, "Terminations: resignation 2");
    /* Both think it is level: a draw once 3 full moves are played with 2 moves each within 10 cp. */
    run_match(&run, "-engine", toy("score=5"), "-engine", toy("score=-10"), "-each", "depth=1", "-draw",
              "movenumber=3", "movecount=2", "score=10", "-games", "2", "-noopenings", NULL);
    ck_assert_int_eq(run.r.terminations[TERM_ADJUDICATED_DRAW], 2);
    ck_assert_int_eq(run.r.tally[0].draws, 2);
    assert_output_has(&run, "Draw by adjudication");
    assert_output_has(&run, "Terminations: adjudicated draw 2");
    assert_no_children();
}
END_TEST

START_TEST(test_sprt_stops_the_match)
{
    struct run run;
    char book[64], file[80];
    temp_path(book, sizeof book, MATE_IN_ONE "\n");
    snprintf(file, sizeof file, "file=%s", book);
    /* Black mates at once: the first engine scores 0, 1, 0, ... After three games the mean is 1/3,
     * the variance 2/9, and with s1 = 10/11 the LLR is 0.40909 × (2 - 3 × 1.40909) / (4/9) = -2.0501,
     * below ln(0.2 / 0.8) = -1.3863: H0 is accepted and the 97 other games are never played. */
    run_match(&run, "-engine", toy(""), "-engine", toy(""), "-each", "depth=1", "-openings", file, "-games", "100",
              "-sprt", "elo0=0", "elo1=400", "alpha=0.2", "beta=0.2", NULL);
    ck_assert_msg(run.status == 0, "%s", run.out);
    ck_assert_int_eq(run.r.games, 3);
    ck_assert_int_eq(run.r.verdict, SPRT_ACCEPT_H0);
    ck_assert_msg(run.r.llr > -2.0502 && run.r.llr < -2.0500, "llr %f", run.r.llr);
    assert_output_has(&run, "SPRT: llr -2.050, lbound -1.386, ubound 1.386, elo0 0, elo1 400 - H0 was accepted");
    unlink(book);
    assert_no_children();
}
END_TEST

/* SIGINT once the runner has set its own handler (before that Check's would kill the test), whatever
 * the machine's load. */
static void *interrupt_soon(void *arg)
{
    const struct sigaction *check = arg;
    struct sigaction now;
    do {
        nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
        sigaction(SIGINT, NULL, &now);
    } while (now.sa_handler == check->sa_handler);
    nanosleep(&(struct timespec){ 0, 200 * 1000 * 1000 }, NULL);
    kill(getpid(), SIGINT);
    return NULL;
}

START_TEST(test_interrupt)
{
    struct run run;
    pthread_t thread;
    struct sigaction check;
    sigaction(SIGINT, NULL, &check);
    ck_assert_int_eq(pthread_create(&thread, NULL, interrupt_soon, &check), 0);
    run_match(&run, "-engine", toy("hang=1"), "-engine", toy("hang=1"), "-each", "depth=1", "timeout=60", "-games",
              "10", "-concurrency", "3", "-noopenings", NULL);
    pthread_join(thread, NULL);
    ck_assert_int_eq(run.status, 130);
    ck_assert(run.r.interrupted);
    ck_assert_int_eq(run.r.games, 0);
    assert_output_has(&run, "Interrupted");
    ck_assert_msg(run.seconds < test_timeout(2), "took %.2f s", run.seconds);
    assert_no_children();
}
END_TEST

static void assert_refused(const char *expected, ...)
{
    char *argv[MAX_RUN_ARGS], err[512];
    int argc = 0;
    va_list ap;
    va_start(ap, expected);
    for (char *a = va_arg(ap, char *); a && argc < MAX_RUN_ARGS; a = va_arg(ap, char *))
        argv[argc++] = a;
    va_end(ap);
    static struct match_conf c;
    ck_assert_msg(!match_parse(argc, argv, &c, err, sizeof err), "accepted; expected '%s'", expected);
    ck_assert_msg(strstr(err, expected) != NULL, "'%s' is not '%s'", err, expected);
}

START_TEST(test_bad_arguments)
{
    assert_refused("two -engine", "-engine", toy(""), "-each", "depth=1", NULL);
    assert_refused("no cmd=", "-engine", "name=x", "-engine", toy(""), "-each", "depth=1", NULL);
    assert_refused("has no limit", "-engine", toy(""), "-engine", toy(""), NULL);
    assert_refused("tc= and st=", "-engine", toy(""), "-engine", toy(""), "-each", "tc=10", "st=1", NULL);
    assert_refused("bad engine setting 'tc=40/'", "-engine", toy(""), "-engine", toy(""), "-each", "tc=40/", NULL);
    assert_refused("bad engine setting 'depth=0'", "-engine", toy(""), "-engine", toy(""), "-each", "depth=0", NULL);
    assert_refused("unknown variant 'chess'", "-engine", toy(""), "-engine", toy(""), "-each", "depth=1", "-variant",
                   "chess", NULL);
    assert_refused("-sprt needs", "-engine", toy(""), "-engine", toy(""), "-each", "depth=1", "-sprt", "elo0=5",
                   "elo1=0", "alpha=0.05", "beta=0.05", NULL);
    assert_refused("-games: a number from 1 to 1000000 is expected, not 'x'", "-engine", toy(""), "-engine", toy(""),
                   "-each", "depth=1", "-games", "x", NULL);
    assert_refused("-concurrency: a number from 1 to 64 is expected, not '0'", "-engine", toy(""), "-engine", toy(""),
                   "-each", "depth=1", "-concurrency", "0", NULL);
    assert_refused("-rounds needs a value", "-engine", toy(""), "-engine", toy(""), "-each", "depth=1", "-rounds", NULL);
    assert_refused("unknown option '-frobnicate'", "-engine", toy(""), "-engine", toy(""), "-each", "depth=1",
                   "-frobnicate", "1", NULL);
    assert_refused("--results needs record files", "--results", "-games", "2", NULL);
    assert_refused("-draw and -resign need", "-engine", toy(""), "-engine", toy(""), "-each", "depth=1", "-resign",
                   "score=5", NULL);
}
END_TEST

START_TEST(test_match_cannot_start)
{
    struct run run;
    char book[64], file[80];
    run_match(&run, "-engine", "cmd=/nonexistent/engine", "-engine", toy(""), "-each", "depth=1", "-games", "4",
              "-noopenings", NULL);
    ck_assert_int_eq(run.status, 1);
    ck_assert_int_eq(run.r.games, 0);
    assert_output_has(&run, "Error: White (engine) cannot run '/nonexistent/engine'");
    temp_path(book, sizeof book, MATE_IN_ONE "\nK5/4r2/8/1q7/10/11/10/9/8/7/5 b - - 0 1\n");
    snprintf(file, sizeof file, "file=%s", book);
    run_match(&run, "-engine", toy(""), "-engine", toy(""), "-each", "depth=1", "-openings", file, NULL);
    ck_assert_int_eq(run.status, 1);
    assert_output_has(&run, ":2: bad FEN");
    unlink(book);
    /* A variant the runner loaded but the engines do not list in UCI_Variant. */
    char variants[64];
    temp_path(variants, sizeof variants, "[runner-only:glinski]\n");
    run_match(&run, "-engine", toy(""), "-engine", toy(""), "-each", "depth=1", "-variantfile", variants,
              "-variant", "runner-only", NULL);
    ck_assert_int_eq(run.status, 1);
    assert_output_has(&run, "does not play the variant 'runner-only'");
    unlink(variants);
    assert_no_children();
}
END_TEST

/* A directory under /tmp, with books/openings/glinski.epd holding the text unless it is NULL. */
static void suite_dir(char *dir, size_t len, const char *suite)
{
    char path[256];
    snprintf(dir, len, "/tmp/sennight-suite-XXXXXX");
    ck_assert(mkdtemp(dir) != NULL);
    if (!suite)
        return;
    snprintf(path, sizeof path, "%s/books", dir);
    ck_assert(!mkdir(path, 0755));
    snprintf(path, sizeof path, "%s/books/openings", dir);
    ck_assert(!mkdir(path, 0755));
    snprintf(path, sizeof path, "%s/books/openings/glinski.epd", dir);
    FILE *f = fopen(path, "w");
    ck_assert(f && fputs(suite, f) >= 0 && !fclose(f));
}

static void suite_dir_remove(const char *dir)
{
    static const char *const inside[] = { "books/openings/glinski.epd", "books/openings", "books", "sennight" };
    char path[256];
    for (size_t i = 0; i < sizeof inside / sizeof *inside; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, inside[i]);
        if (unlink(path))
            rmdir(path);
    }
    rmdir(dir);
}

/* The path from the directory cwd; each call's text lives until the next. */
static const char *absolute(const char *cwd, const char *path)
{
    static char text[4200];
    snprintf(text, sizeof text, "%s%s%s", *path == '/' ? "" : cwd, *path == '/' ? "" : "/", path);
    return text;
}

static void copy_executable(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    char buf[1 << 16];
    size_t n;
    ck_assert_msg(in && out, "cannot copy %s to %s", from, to);
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        ck_assert(fwrite(buf, 1, n, out) == n);
    ck_assert(!fclose(in) && !fclose(out) && !chmod(to, 0755));
}

/* Without -openings the runner plays the shipped suite books/openings/<variant>.epd in random order,
 * found next to the executable or in the current directory; -noopenings and a missing suite start
 * every game from the array. */
START_TEST(test_shipped_suite)
{
    struct run run;
    char with[64], without[64], cwd[2048], toy_cmd[4300], engine[4200], copy[128];
    ck_assert(getcwd(cwd, sizeof cwd));
    /* The runs below leave the current directory: the programs' paths must not depend on it. */
    snprintf(toy_cmd, sizeof toy_cmd, "cmd=%s", absolute(cwd, toy_path()));
    snprintf(engine, sizeof engine, "%s", absolute(cwd, pipe_engine_path()));
    suite_dir(with, sizeof with, "# shipped\n" MATE_IN_ONE " id \"mate\"; ce -30000;\n");
    suite_dir(without, sizeof without, NULL);
    char pgn[64], start[1100];
    temp_path(pgn, sizeof pgn, "");
    snprintf(start, sizeof start, "[FEN \"%s\"]", test_variant("glinski")->start_fen);
    ck_assert(!chdir(with));
    run_match(&run, "-engine", toy_cmd, "-engine", toy_cmd, "-each", "depth=1", "-games", "2", "-seed", "7", NULL);
    ck_assert_msg(run.status == 0, "%s", run.out);
    assert_output_has(&run, ", 1 openings from books/openings/glinski.epd (random, seed 7), colours reversed in pairs\n");
    ck_assert_int_eq(run.r.terminations[TERM_CHECKMATE], 2);
    run_match(&run, "-engine", toy_cmd, "-engine", toy_cmd, "-each", "depth=1", "-games", "2", "-noopenings", "-pgnout",
              pgn, NULL);
    ck_assert_msg(run.status == 0 && !strstr(run.out, "openings") && !strstr(run.out, "opening suite"), "%s", run.out);
    ck_assert_int_eq(count(read_file(pgn), start), 2);
    ck_assert(!chdir(without));
    run_match(&run, "-engine", toy_cmd, "-engine", toy_cmd, "-each", "depth=1", "-games", "2", "-pgnout", pgn, NULL);
    assert_output_has(&run, "No opening suite books/openings/glinski.epd next to the executable or in the current "
                            "directory: every game starts from the variant's array\nMatch ");
    ck_assert_int_eq(count(read_file(pgn), start), 4);
    /* The executable's own directory, from anywhere. */
    snprintf(copy, sizeof copy, "%s/sennight", with);
    copy_executable(engine, copy);
    char *saved = getenv("SENNIGHT") ? strdup(getenv("SENNIGHT")) : NULL;
    setenv("SENNIGHT", copy, 1);
    struct proc p;
    pipe_start(&p, (const char *const[]){ "match", "-engine", toy_cmd, "-engine", toy_cmd, "-each", "depth=1", "-games",
                                          "2", "-seed", "7", NULL });
    if (saved)
        setenv("SENNIGHT", saved, 1);
    else
        unsetenv("SENNIGHT");
    free(saved);
    char out[8192] = "", want[256];
    size_t len = 0;
    for (const char *line; (line = pipe_read_line(&p, (int)(test_timeout(10) * 1000)));)
        if (len < sizeof out)
            len += (size_t)snprintf(out + len, sizeof out - len, "%s\n", line);
    struct proc_exit x = pipe_wait(&p, (int)(test_timeout(2) * 1000));
    proc_end(&p, 0, NULL, 0);
    ck_assert_msg(x.exited && x.code == 0, "%s", out);
    /* The executable's real path, whatever links lead to /tmp. */
    snprintf(want, sizeof want, "%s/books/openings/glinski.epd (random, seed 7)", strrchr(with, '/'));
    ck_assert_msg(strstr(out, want) && strstr(out, "Terminations: checkmate 2"), "no '%s' in:\n%s", want, out);
    ck_assert(!chdir(cwd));
    suite_dir_remove(with);
    suite_dir_remove(without);
    unlink(pgn);
    assert_no_children();
    assert_refused("-openings and -noopenings exclude each other", "-engine", toy(""), "-engine", toy(""), "-each",
                   "depth=1", "-openings", "file=x.epd", "-noopenings", NULL);
}
END_TEST

/* The runner's registry with the test variants too; the engines are given their file as VariantPath. */
static void three_player_variants(void)
{
    char err[512];
    ck_assert_msg(test_registry_init(err, sizeof err), "%s", err);
}

/* Every engine played every colour equally often, and the points of every game add up to 1. */
/* Every one of n engines played every game, every colour equally often, and the points add up. */
static void assert_multi_player_balance(const struct run *run, int games, int n)
{
    double points = 0;
    ck_assert_msg(run->status == 0, "%s", run->out);
    ck_assert_int_eq(run->r.games, games);
    for (int e = 0; e < n; e++) {
        points += run->r.tally[e].sum;
        ck_assert_int_eq(run->r.tally[e].games, games);
        ck_assert_int_eq(run->r.seat[e].games, games);
        for (int colour = 0; colour < n; colour++)
            ck_assert_int_eq(run->r.engine_seat[e][colour].games, games / n);
    }
    ck_assert_msg(fabs(points - games) < 1e-9, "%g points in %d games", points, games);
    assert_no_children();
}

START_TEST(test_three_player_match)
{
    struct run run;
    char book[64], pgn[64], file[80];
    three_player_variants();
    temp_path(book, sizeof book, "# Black mates, then the start\n" THREE_MATE_IN_ONE " id \"mate\";\n" THREE_START "\n");
    temp_path(pgn, sizeof pgn, "");
    snprintf(file, sizeof file, "file=%s", book);
    run_match(&run, "-variant", "wellisch", "-engine", toy(""), "name=a", "-engine", toy(""), "name=b", "-engine",
              toy(""), "name=c", "-each", "depth=1", THREE_VARIANTS, "-games", "12", "-concurrency", "2", "-openings", file,
              "-pgnout", pgn, NULL);
    assert_multi_player_balance(&run, 12, 3);
    /* Games 1-6: whoever sits Black wins at once; 7-12: the toys shuffle pieces until the start position
     * comes back a third time, a third of the point each. */
    for (int e = 0; e < 3; e++) {
        const struct tally *t = &run.r.tally[e];
        ck_assert(t->wins == 2 && t->losses == 4 && t->draws == 6);
        ck_assert_int_eq(run.r.engine_seat[e][2].wins, 2);
    }
    ck_assert(run.r.seat[2].wins == 6 && run.r.seat[0].wins == 0 && run.r.seat[1].wins == 0);
    /* A pair: the Black one finished ahead; with neither Black, Red (mated on the first move) finished
     * ahead of White (missing from the start); level in the draws. */
    const struct tally *ab = &run.r.pair[0][1];
    ck_assert(ab->games == 12 && ab->wins == 3 && ab->losses == 3 && ab->draws == 6);
    ck_assert_int_eq(run.r.terminations[TERM_LAST_ARMY], 6);
    ck_assert_int_eq(run.r.terminations[TERM_REPETITION], 6);
    assert_output_has(&run, "Finished game 2 (a vs c vs b): 0-0-1 {Black is the last army on the board}");
    assert_output_has(&run, "Finished game 7 (a vs b vs c): 1/3-1/3-1/3 {Draw by threefold repetition, shared by "
                            "Red, White and Black}");
    assert_output_has(&run, "Score of a, b, c: 4.00 - 4.00 - 4.00 [0.333 0.333 0.333] 12");
    assert_output_has(&run, "a ahead of b: 3 - 3 - 6 [0.500] 12");
    assert_output_has(&run, "Black         8.00     12   66.7%     6     0     6");
    const char *record = read_file(pgn);
    ck_assert_int_eq(count(record, "[Red \"a\"]\n[White \"c\"]\n[Black \"b\"]"), 2);
    ck_assert_int_eq(count(record, "[Result \"0-0-1\"]"), 6);
    ck_assert_int_eq(count(record, "[Result \"1/3-1/3-1/3\"]"), 6);
    ck_assert_int_eq(count(record, "[Termination \"last army\"]"), 6);
    ck_assert_int_eq(count(record, "1... Vf3# {0"), 6);
    ck_assert_int_eq(count(record, "s} {Red eliminated (mated)}"), 6);
    ck_assert_int_eq(count(record, "{Black is the last army on the board}"), 6);
    ck_assert_int_eq(count(record, "\n1. "), 6);
    unlink(pgn);
    unlink(book);
}
END_TEST

/* A three-player failure: the engine at fault scores 0 and the game ends, the other armies on the board
 * sharing the point. The crashing engine is restarted for every game and crashes on its first move. */
START_TEST(test_three_player_failure)
{
    struct run run;
    three_player_variants();
    run_match(&run, "-variant", "wellisch", "-engine", toy(""), "name=a", "-engine", toy(""), "name=b", "-engine",
              toy("crash=1"), "name=bad", "-each", "depth=1", THREE_VARIANTS, "-games", "6", NULL);
    assert_multi_player_balance(&run, 6, 3);
    ck_assert(run.r.tally[0].sum == 3 && run.r.tally[0].draws == 6);
    ck_assert(run.r.tally[2].sum == 0 && run.r.tally[2].losses == 6);
    ck_assert_int_eq(run.r.faults[2][TERM_CRASH], 6);
    ck_assert_int_eq(run.r.pair[0][2].wins, 6);
    ck_assert_int_eq(run.r.pair[0][1].draws, 6);
    assert_output_has(&run, "Finished game 1 (a vs b vs bad): 1/2-1/2-0 {Black (bad) crashed while thinking");
    assert_output_has(&run, "Finished game 6 (bad vs b vs a): 0-1/2-1/2 {Red (bad) crashed while thinking");
    assert_output_has(&run, "Engine failures: bad: engine crash 6\n");
}
END_TEST

/* Three copies of the real engine on a clock (go rtime wtime btime rinc winc binc) and a depth. */
START_TEST(test_three_player_real_engine)
{
    struct run run;
    char engine[1024];
    three_player_variants();
    snprintf(engine, sizeof engine, "cmd=%s", pipe_engine_path());
    run_match(&run, "-variant", "wellisch", "-engine", engine, "-engine", engine, "-engine", engine, "-each",
              "depth=1", "tc=60+0.1", THREE_VARIANTS, "-games", "6", NULL);
    assert_multi_player_balance(&run, 6, 3);
    assert_output_has(&run, "Match sennight vs sennight-2 vs sennight-3: wellisch, 6 games, 60+0.1 depth=1");
    assert_output_has(&run, "Engine failures: none");
}
END_TEST

START_TEST(test_three_player_refused)
{
    three_player_variants();
    assert_refused("variant 'wellisch' has 3 players: give 3 -engine arguments, not 2", "-variant",
                   "wellisch", "-engine", toy(""), "-engine", toy(""), "-each", "depth=1", "-games", "6", NULL);
    assert_refused("variant 'glinski' has 2 players: give two -engine arguments, or -tournament gauntlet or round-robin for 3", "-engine", toy(""),
                   "-engine", toy(""), "-engine", toy(""), "-each", "depth=1", NULL);
    assert_refused("variant 'wellisch' has 3 players: give 3 -engine arguments, not 4", "-variant", "wellisch", "-engine", toy(""), "-engine",
                   toy(""), "-engine", toy(""), "-engine", toy(""), "-each", "depth=1", NULL);
    assert_refused("-games (times -rounds) must be a multiple of 6, not 4", "-variant", "wellisch", "-engine",
                   toy(""), "-engine", toy(""), "-engine", toy(""), "-each", "depth=1", "-games", "2", "-rounds", "2",
                   NULL);
    assert_refused("-draw, -resign and -sprt are for two-player matches", "-variant", "wellisch", "-engine",
                   toy(""), "-engine", toy(""), "-engine", toy(""), "-each", "depth=1", "-games", "6", "-sprt",
                   "elo0=0", "elo1=5", "alpha=0.05", "beta=0.05", NULL);
}
END_TEST

/* Four engines (nd-wellisch-4p): all 24 orders over White, Red, Black and Green, so every engine sits
 * at every colour 6 times; three engines or 12 games are refused. */
START_TEST(test_four_player_match)
{
    struct run run;
    run_match(&run, "-variant", "nd-wellisch-4p", "-engine", toy(""), "name=a", "-engine", toy(""), "name=b",
              "-engine", toy(""), "name=c", "-engine", toy(""), "name=d", "-each", "depth=1", "-games", "24",
              "-concurrency", "2", "-noopenings", NULL);
    assert_multi_player_balance(&run, 24, 4);
    assert_output_has(&run, "Match a vs b vs c vs d: nd-wellisch-4p, 24 games");
    assert_output_has(&run, "   White      Red    Black    Green\n");
    assert_output_has(&run, "Finished game 24 (d vs c vs b vs a)");
    assert_refused("variant 'nd-wellisch-4p' has 4 players: give 4 -engine arguments, not 3", "-variant",
                   "nd-wellisch-4p", "-engine", toy(""), "-engine", toy(""), "-engine", toy(""), "-each", "depth=1",
                   "-games", "24", NULL);
    assert_refused("a 4-player match plays the engines in their 24 seatings in turn: -games (times -rounds) must be a "
                   "multiple of 24, not 12", "-variant", "nd-wellisch-4p", "-engine", toy(""), "-engine", toy(""),
                   "-engine", toy(""), "-engine", toy(""), "-each", "depth=1", "-games", "12", NULL);
}
END_TEST

START_TEST(test_time_control)
{
    struct limits l = { 0 }, two = { 0 };
    struct text text = { 0 };
    ck_assert(tc_parse("40/60+0.6", &l));
    ck_assert(l.moves == 40 && l.base == 60000000 && l.inc == 600000);
    ck_assert(tc_parse("1:30", &two) && two.moves == 0 && two.base == 90000000 && two.inc == 0);
    const char *bad[] = { "", "x", "0", "-1", "40/", "/60", "0/60", "60+", "60+x", "1:60", "1.5:30", "60s" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        ck_assert_msg(!tc_parse(bad[i], &two), "accepted '%s'", bad[i]);
    tc_format(&l, &text);
    ck_assert_str_eq(text_str(&text), "40/60+0.6");
    /* Two moves in 1 s, 0.1 s increment: 1 - 0.4 + 0.1 = 0.7 s; 0.7 - 0.5 + 0.1 = 0.3 s, and the
     * second move of the period adds the base: 1.3 s. Taking longer than that loses. */
    struct clock c[2];
    ck_assert(tc_parse("2/1+0.1", &two));
    clock_start(&c[1], &two);
    ck_assert_int_eq(clock_allowance(&c[1], &two), 1000000);
    ck_assert(clock_charge(&c[1], &two, 400000) && c[1].left == 700000 && c[1].moves == 1);
    ck_assert(clock_charge(&c[1], &two, 500000) && c[1].left == 1300000 && c[1].moves == 0);
    clock_start(&c[0], &l);
    const struct limits *both[2] = { &l, &two };
    text_clear(&text);
    clock_go_args(both, c, "wb", 2, 1, &text);
    ck_assert_str_eq(text_str(&text), " wtime 60000 btime 1300 winc 600 binc 100 movestogo 2");
    struct clock saved = c[1];
    ck_assert(!clock_charge(&c[1], &two, 1300001));
    /* A 20 ms margin forgives the overstep; the clock is then empty but for the increment. */
    two.margin = 20000;
    c[1] = saved;
    ck_assert(clock_charge(&c[1], &two, 1310000) && c[1].left == 100000);
    /* A fixed time per move, with nodes and depth. */
    struct limits st = { .movetime = 50000, .nodes = 2000, .depth = 4 };
    clock_start(&c[0], &st);
    ck_assert_int_eq(clock_allowance(&c[0], &st), 50000);
    ck_assert(clock_charge(&c[0], &st, 50000) && !clock_charge(&c[0], &st, 50001));
    const struct limits *fixed[2] = { &st, &st };
    text_clear(&text);
    clock_go_args(fixed, c, "wb", 2, 0, &text);
    ck_assert_str_eq(text_str(&text), " movetime 50 nodes 2000 depth 4");
    text_clear(&text);
    tc_format(&st, &text);
    ck_assert_str_eq(text_str(&text), "st=0.05 nodes=2000 depth=4");
    ck_assert_int_eq(clock_allowance(&c[0], &(struct limits){ .depth = 3 }), -1);
    /* Three armies: every clock, then every increment. */
    struct clock three_clocks[3];
    const struct limits *three[3] = { &l, &l, &two };
    for (int i = 0; i < 3; i++)
        clock_start(&three_clocks[i], three[i]);
    text_clear(&text);
    clock_go_args(three, three_clocks, "rwb", 3, 1, &text);
    ck_assert_str_eq(text_str(&text), " rtime 60000 wtime 60000 btime 1000 rinc 600 winc 600 binc 100 movestogo 40");
    text_free(&text);
}
END_TEST

static void count_info(void *ctx, const char *line)
{
    int *n = ctx;
    *n += !strncmp(line, "info ", 5);
}

/* The UCI client without the runner, as the GUI drives it: the real engine's info lines come as it
 * searches; a crash and a hang are told apart, and the next start brings the engine back. */
START_TEST(test_uci_client)
{
    int descriptors = open_descriptors(), infos = 0;
    struct uci_client c = { .timeout = (long long)(test_timeout(5) * 1e6), .on_info = count_info, .info_ctx = &infos };
    struct uci_reply r;
    ck_assert_int_eq(uci_client_start(&c, pipe_engine_path(), NULL, 0, "glinski", NULL), UCI_OK);
    ck_assert_int_eq(uci_client_new_game(&c, NULL), UCI_OK);
    ck_assert_int_eq(uci_client_go(&c, "position fen " MATE_IN_ONE, " depth 3", -1, NULL, &r), UCI_OK);
    ck_assert_str_eq(r.move, "d2b1");
    ck_assert(r.has_score && r.score == UCI_MATE_SCORE - 1);
    ck_assert_int_gt(infos, 0);
    uci_client_end(&c, true);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s crash=1", toy_path());
    ck_assert_int_eq(uci_client_start(&c, cmd, NULL, 0, "glinski", NULL), UCI_OK);
    ck_assert_int_eq(uci_client_go(&c, "position startpos", " depth 1", -1, NULL, &r), UCI_CRASHED);
    ck_assert_str_eq(c.error, "crashed while thinking (exited with status 3)");
    ck_assert_int_eq(uci_client_start(&c, cmd, NULL, 0, "glinski", NULL), UCI_OK);
    uci_client_end(&c, true);
    snprintf(cmd, sizeof cmd, "%s hang=1", toy_path());
    ck_assert_int_eq(uci_client_start(&c, cmd, NULL, 0, "glinski", NULL), UCI_OK);
    ck_assert_int_eq(uci_client_go(&c, "position startpos", " depth 1", 100000, NULL, &r), UCI_TIMEOUT);
    ck_assert_str_eq(c.error, "gave no answer within 0.1 s while thinking");
    ck_assert(!c.ready);
    ck_assert_int_eq(uci_client_start(&c, "", NULL, 0, "glinski", NULL), UCI_FATAL);
    ck_assert_str_eq(c.error, "has no command");
    ck_assert_int_eq(open_descriptors(), descriptors);
    assert_no_children();
}
END_TEST

/* Scores the record files as 'sennight match --results' does, with the output in run->out. */
static void run_results(struct run *run, const char *const *files, int nfiles, const char *sprt_elo1)
{
    static struct match_conf c;
    char err[512], elo1[32];
    char *argv[16] = { "--results" };
    int argc = 1;
    for (int f = 0; f < nfiles; f++)
        argv[argc++] = (char *)files[f];
    if (sprt_elo1) {
        snprintf(elo1, sizeof elo1, "elo1=%s", sprt_elo1);
        argv[argc++] = "-sprt";
        argv[argc++] = "elo0=0";
        argv[argc++] = elo1;
        argv[argc++] = "alpha=0.05";
        argv[argc++] = "beta=0.05";
    }
    ck_assert_msg(match_parse(argc, argv, &c, err, sizeof err), "%s", err);
    FILE *out = tmpfile();
    ck_assert(out != NULL);
    run->status = results_main(&c, &run->r, out);
    rewind(out);
    run->out[fread(run->out, 1, sizeof run->out - 1, out)] = 0;
    fclose(out);
}

/* The report a run ends with: from the last "Score of" line (two engines; three engines' score line
 * names them all), or from the table. */
static const char *final_report(const char *out, const char *from)
{
    const char *at = NULL;
    for (const char *p = strstr(out, from); p; p = strstr(p + 1, from))
        at = p;
    ck_assert_msg(at != NULL, "no '%s' in:\n%s", from, out);
    return at;
}

/* Two runs scored alike: every tally, termination, failure and the SPRT. */
static void assert_same_results(const struct match_result *a, const struct match_result *b)
{
    ck_assert_int_eq(a->games, b->games);
    ck_assert(!memcmp(a->tally, b->tally, sizeof a->tally));
    ck_assert(!memcmp(a->seat, b->seat, sizeof a->seat));
    ck_assert(!memcmp(a->engine_seat, b->engine_seat, sizeof a->engine_seat));
    ck_assert(!memcmp(a->pair, b->pair, sizeof a->pair));
    ck_assert(!memcmp(a->terminations, b->terminations, sizeof a->terminations));
    ck_assert(!memcmp(a->faults, b->faults, sizeof a->faults));
    ck_assert(a->llr == b->llr && a->verdict == b->verdict);
}

/* The records of a run and of its two shards, and the openings; no engine left behind. */
static void remove_shard_files(char pgn[3][64], const char *book)
{
    for (int i = 0; i < 3; i++)
        unlink(pgn[i]);
    unlink(book);
    assert_no_children();
}

/* The record files scored together give the run's results and its final report (from `from`). */
static void assert_merged(const struct run *whole, const char *const *files, int nfiles, const char *sprt_elo1,
                          const char *from)
{
    static struct run merged;
    run_results(&merged, files, nfiles, sprt_elo1);
    ck_assert_msg(merged.status == 0, "%s", merged.out);
    assert_same_results(&whole->r, &merged.r);
    ck_assert_str_eq(final_report(whole->out, from), final_report(merged.out, from));
}

/* "[Round "k"]" up to the movetext: the game's number, players, result, start and ending; the same
 * whichever shard played it. */
static void game_header(const char *records, int round, char *out, size_t len)
{
    char tag[32];
    snprintf(tag, sizeof tag, "[Round \"%d\"]", round);
    const char *at = strstr(records, tag);
    ck_assert_msg(at != NULL, "no game %d in:\n%s", round, records);
    const char *end = strstr(at, "\n\n");
    snprintf(out, len, "%.*s", (int)(end - at), at);
}

/* Two shards of a match, each game by the schedule (a colour-reversed pair cut in two), scored together
 * from their records, give exactly the statistics of the unsharded run over the same games; the same
 * file twice is refused. */
START_TEST(test_shards_merge)
{
    struct run all, part, merged;
    char book[64], file[80], pgn[3][64];
    char openings[2400];
    snprintf(openings, sizeof openings, STALEMATE_IN_ONE "\n" MATE_IN_ONE "\n%s\n", test_variant("glinski")->start_fen);
    temp_path(book, sizeof book, openings);
    snprintf(file, sizeof file, "file=%s", book);
    for (int i = 0; i < 3; i++)
        temp_path(pgn[i], sizeof pgn[i], "");
    /* Stalemates, mates, and games from the array; played two at a time, so scored out of order. */
    const char *shards[] = { "1/1", "1/2", "2/2" };
    for (int i = 0; i < 3; i++) {
        run_match(i ? &part : &all, "-engine", toy(""), "name=first", "-engine", toy("score=30"), "name=second",
                  "-each", "depth=1", "-games", "7", "-concurrency", "2", "-openings", file, "order=random",
                  "-seed", "5", "-sprt", "elo0=0", "elo1=5", "alpha=0.05", "beta=0.05", "--shard", shards[i],
                  "-pgnout", pgn[i], NULL);
        ck_assert_msg((i ? part.status : all.status) == 0, "%s", i ? part.out : all.out);
    }
    assert_output_has(&part, ", shard 2/2: games 4 to 7\n");
    ck_assert_int_eq(part.r.games, 4);
    ck_assert_msg(all.r.terminations[TERM_STALEMATE] && all.r.terminations[TERM_CHECKMATE], "%s", all.out);
    /* Game 4 is the second of a pair whose first game the other shard played. */
    const char *files[] = { pgn[2], pgn[1] };
    char *whole = strdup(read_file(pgn[0])), *first = strdup(read_file(pgn[1])), *split = malloc(2 << 16);
    snprintf(split, 2 << 16, "%s%s", first, read_file(pgn[2]));
    free(first);
    for (int round = 1; round <= 7; round++) {
        char a[2048], b[2048];
        game_header(whole, round, a, sizeof a);
        game_header(split, round, b, sizeof b);
        ck_assert_str_eq(a, b);
    }
    free(whole);
    free(split);
    assert_merged(&all, files, 2, "5", "Score of");
    run_results(&merged, files, 2, "5");
    assert_output_has(&merged, "Results of 7 games from 2 record files: glinski\n");
    const char *twice[] = { pgn[1], pgn[1] };
    run_results(&merged, twice, 2, NULL);
    ck_assert_int_eq(merged.status, 1);
    /* With -seed missing, shards would shuffle the openings differently, and (their seeds from the
     * clock) their records would be scored as two runs, in an order the clock chose. */
    assert_refused("--shard needs -seed", "-engine", toy(""), "-engine", toy(""), "-each", "depth=1", "-openings",
                   file, "order=random", "--shard", "1/2", NULL);
    assert_refused("--shard needs -seed", "-engine", toy(""), "-engine", toy(""), "-each", "depth=1", "-openings",
                   file, "--shard", "2/2", NULL);
    assert_refused("--shard: K/N with 1 <= K <= N <= 1000000 is expected, not '3/2'", "-engine", toy(""), "-engine",
                   toy(""), "-each", "depth=1", "--shard", "3/2", NULL);
    assert_refused("--results scores record files: it takes no -engine", "--results", pgn[0], "-engine", toy(""), NULL);
    remove_shard_files(pgn, book);
}
END_TEST

/* Three players: shards of 12 games scored together give the unsharded run's tallies by engine, seat,
 * engine and seat, and pair. */
START_TEST(test_three_player_shards)
{
    struct run all, part;
    char book[64], pgn[3][64], file[80];
    three_player_variants();
    temp_path(book, sizeof book, THREE_MATE_IN_ONE "\n" THREE_START "\n");
    snprintf(file, sizeof file, "file=%s", book);
    const char *shards[] = { "1/1", "1/2", "2/2" };
    for (int i = 0; i < 3; i++) {
        temp_path(pgn[i], sizeof pgn[i], "");
        run_match(i ? &part : &all, "-variant", "wellisch", "-engine", toy(""), "name=a", "-engine", toy(""),
                  "name=b", "-engine", toy("crash=3"), "name=c", "-each", "depth=1", THREE_VARIANTS, "-games", "12",
                  "-openings", file, "-seed", "3", "--shard", shards[i], "-pgnout", pgn[i], NULL);
        ck_assert_msg((i ? part.status : all.status) == 0, "%s", i ? part.out : all.out);
    }
    const char *files[] = { pgn[1], pgn[2] };
    assert_merged(&all, files, 2, NULL, "Score of");
    ck_assert_int_gt(all.r.faults[2][TERM_CRASH], 0);
    remove_shard_files(pgn, book);
}
END_TEST

/* Three engines in pairs: a gauntlet (the first against each other one) and a round robin, the
 * per-pairing scores and each engine's Elo; their records scored again give the same table. */
START_TEST(test_tournaments)
{
    struct run run;
    char book[64], pgn[64], file[80];
    temp_path(book, sizeof book, MATE_IN_ONE "\n");
    temp_path(pgn, sizeof pgn, "");
    snprintf(file, sizeof file, "file=%s", book);
    /* Whoever is Black mates at once; "bad" crashes on its first search. */
    run_match(&run, "-engine", toy(""), "name=a", "-engine", toy(""), "name=b", "-engine", toy("crash=1"), "name=bad",
              "-each", "depth=1", "-tournament", "gauntlet", "-games", "2", "-openings", file, "-pgnout", pgn, NULL);
    ck_assert_msg(run.status == 0, "%s", run.out);
    assert_output_has(&run, "Tournament (gauntlet) a, b, bad: glinski, 4 games, depth=1, concurrency 1, 2 pairings of 2 games");
    ck_assert_int_eq(run.r.games, 4);
    ck_assert(run.r.pair[0][1].games == 2 && run.r.pair[0][1].wins == 1 && run.r.pair[0][1].losses == 1);
    ck_assert(run.r.pair[0][2].games == 2 && run.r.pair[0][2].wins == 2);
    ck_assert_int_eq(run.r.pair[1][2].games, 0);
    ck_assert(run.r.tally[0].games == 4 && run.r.tally[1].games == 2 && run.r.tally[2].games == 2);
    assert_output_has(&run, "Score of a vs bad: 1 - 0 - 0, stalemates 0 - 0 [1.000] 1\n");
    assert_output_has(&run, "Pairings (first engine's W - L - D):\na vs b: 1 - 1 - 0, stalemates 0 - 0 [0.500] 2, "
                            "Elo 0.0 +/- ");
    assert_output_has(&run, "a vs bad: 2 - 0 - 0, stalemates 0 - 0 [1.000] 2, Elo inf");
    assert_output_has(&run, "   1 a                       190.8      inf      4   75.0%");
    /* Game 4 seats bad as White, mated before its first move. */
    assert_output_has(&run, "Engine failures: bad: engine crash 1\n");
    const char *files[] = { pgn };
    assert_merged(&run, files, 1, NULL, "\nRank");
    /* A round robin: every pair meets, each engine plays 2 of the 3 pairings. */
    run_match(&run, "-engine", toy(""), "name=a", "-engine", toy(""), "name=b", "-engine", toy(""), "name=c", "-each",
              "depth=1", "-tournament", "round-robin", "-games", "2", "-rounds", "2", "-openings", file, NULL);
    ck_assert_msg(run.status == 0, "%s", run.out);
    ck_assert_int_eq(run.r.games, 12);
    for (int e = 0; e < 3; e++) {
        ck_assert(run.r.tally[e].games == 8 && run.r.tally[e].sum == 4);
        for (int f = e + 1; f < 3; f++)
            ck_assert(run.r.pair[e][f].games == 4 && run.r.pair[e][f].wins == 2);
    }
    assert_refused("-sprt is for a match of two engines, not a tournament", "-engine", toy(""), "-engine", toy(""),
                   "-engine", toy(""), "-each", "depth=1", "-tournament", "gauntlet", "-sprt", "elo0=0", "elo1=5",
                   "alpha=0.05", "beta=0.05", NULL);
    three_player_variants();
    assert_refused("-tournament is for two-player variants", "-variant", "wellisch", "-engine", toy(""), "-engine",
                   toy(""), "-engine", toy(""), "-each", "depth=1", "-tournament", "round-robin", "-games", "6", NULL);
    assert_refused("-tournament: gauntlet or round-robin is expected, not 'swiss'", "-engine", toy(""), "-engine",
                   toy(""), "-engine", toy(""), "-each", "depth=1", "-tournament", "swiss", NULL);
    unlink(pgn);
    unlink(book);
    assert_no_children();
}
END_TEST

/* cutechess-style evaluations after each move; proto=uci accepted, other protocols refused. */
START_TEST(test_move_comments)
{
    struct uci_reply reply = { .has_score = true, .score = 35, .depth = 12, .elapsed = 523000 };
    char text[64];
    pgn_evaluation(&reply, text, sizeof text);
    ck_assert_str_eq(text, "+0.35/12 0.52s");
    reply = (struct uci_reply){ .has_score = true, .score = -120, .depth = 3, .elapsed = 45000 };
    pgn_evaluation(&reply, text, sizeof text);
    ck_assert_str_eq(text, "-1.20/3 0.045s");
    /* 'mate 3' is 5 plies; 'mate -2' is mated in 4. */
    reply = (struct uci_reply){ .has_score = true, .score = UCI_MATE_SCORE - 3, .depth = 20, .elapsed = 12345000 };
    pgn_evaluation(&reply, text, sizeof text);
    ck_assert_str_eq(text, "+M5/20 12s");
    reply = (struct uci_reply){ .has_score = true, .score = -UCI_MATE_SCORE + 2, .depth = 9, .elapsed = 1500000 };
    pgn_evaluation(&reply, text, sizeof text);
    ck_assert_str_eq(text, "-M4/9 1.5s");
    reply = (struct uci_reply){ .has_score = true, .score = 0, .depth = 1 };
    pgn_evaluation(&reply, text, sizeof text);
    ck_assert_str_eq(text, "0.00/1 0s");
    reply = (struct uci_reply){ .elapsed = 2000 };
    pgn_evaluation(&reply, text, sizeof text);
    ck_assert_str_eq(text, "0.002s");
    /* The toy reports 'info depth 1 score cp 30'; the records still read back (--results). */
    struct run run;
    char pgn[64];
    temp_path(pgn, sizeof pgn, "");
    run_match(&run, "-engine", toy("score=30"), "proto=uci", "-engine", toy("score=-30"), "-each", "depth=1", "proto=uci",
              "-games", "2", "-noopenings", "-pgnout", pgn, NULL);
    ck_assert_msg(run.status == 0, "%s", run.out);
    const char *record = read_file(pgn);
    ck_assert_msg(strstr(record, "1. ") && strstr(record, " {+0.30/1 0") && strstr(record, " {-0.30/1 0"), "%s", record);
    const char *files[] = { pgn };
    assert_merged(&run, files, 1, NULL, "Score of");
    assert_refused("engine 1: proto=xboard is not spoken here: only UCI engines play (proto=uci)", "-engine", toy(""),
                   "proto=xboard", "-engine", toy(""), "-each", "depth=1", NULL);
    unlink(pgn);
    assert_no_children();
}
END_TEST

/* The final Elo and SPRT lines come once when the games are a multiple of -ratinginterval; the
 * periodic ones carry an ETA; two identical deterministic engines are found out. */
START_TEST(test_rating_lines)
{
    struct run run;
    run_match(&run, "-engine", toy(""), "-engine", toy(""), "-each", "depth=1", "-games", "4", "-ratinginterval", "2",
              "-noopenings", "-sprt", "elo0=0", "elo1=5", "alpha=0.05", "beta=0.05", NULL);
    ck_assert_msg(run.status == 0, "%s", run.out);
    ck_assert_int_eq(count(run.out, "Elo difference"), 2);
    ck_assert_int_eq(count(run.out, "SPRT: llr"), 2);
    ck_assert_int_eq(count(run.out, "Progress: 2 of 4 games, 0:0"), 1);
    ck_assert_int_eq(count(run.out, ", ETA 0:0"), 1);
    /* Game 2 repeats game 1 with the colours reversed: the toys play the first legal move. */
    ck_assert(run.r.repeated[0] == 1 && run.r.repeated[1] == 2);
}
END_TEST

/* The headline example of docs/match.md runs as written on a fresh clone: shipped suite, the engine
 * itself twice, every flag parsed; here with 2 games and a node limit added so that it is quick. */
START_TEST(test_documented_example)
{
    FILE *f = fopen("docs/match.md", "r");
    char doc[1 << 15], *argv[64], pgn[64], engine[1100];
    int argc = 0;
    ck_assert(f != NULL);
    doc[fread(doc, 1, sizeof doc - 1, f)] = 0;
    fclose(f);
    char *block = strstr(doc, "```sh\n./sennight match ");
    ck_assert(block != NULL);
    block += strlen("```sh\n./sennight match ");
    *strstr(block, "```") = 0;
    temp_path(pgn, sizeof pgn, "");
    snprintf(engine, sizeof engine, "cmd=%s", pipe_engine_path());
    for (char *word = strtok(block, " \\\n"); word && argc < 56; word = strtok(NULL, " \\\n")) {
        if (!strcmp(word, "cmd=./sennight"))
            word = engine;
        else if (argc && !strcmp(argv[argc - 1], "-games"))
            word = "2";
        else if (argc && !strcmp(argv[argc - 1], "-pgnout"))
            word = pgn;
        argv[argc++] = word;
    }
    argv[argc++] = "-each";
    argv[argc++] = "nodes=300";
    static struct match_conf c;
    static struct match_result r;
    char err[512];
    ck_assert_msg(match_parse(argc, argv, &c, err, sizeof err), "%s", err);
    FILE *out = tmpfile();
    ck_assert_int_eq(match_run(&c, &r, out), 0);
    fclose(out);
    ck_assert_int_eq(r.games, 2);
    ck_assert_int_eq(count(read_file(pgn), "[Event "), 2);
    unlink(pgn);
    assert_no_children();
}
END_TEST

/* The arguments of a small deterministic match: toys from the openings of `file` ("file=<path>"), two
 * games each, colours reversed. */
static int cluster_match_args(const char **argv, const char *file)
{
    int argc = 0;
    const char *args[] = { "-engine", toy(""), "name=first", "-engine", toy("score=30"), "name=second", "-each",
                           "depth=1", "-games", "6", "-openings", file, NULL };
    while (args[argc]) {
        argv[argc] = args[argc];
        argc++;
    }
    argv[argc] = NULL;
    return argc;
}

/* A shell command: the words single-quoted, after the environment settings `env`. */
static void shell_command(char *cmd, size_t len, const char *env, const char *const *words)
{
    size_t n = (size_t)snprintf(cmd, len, "%s", env);
    for (; *words && n < len; words++)
        n += (size_t)snprintf(cmd + n, len - n, " '%s'", *words);
    ck_assert(n < len);
}

/* The unsharded run of the cluster tests, in process. */
static void cluster_reference(struct run *run, const char *file)
{
    const char *argv[MAX_RUN_ARGS];
    cluster_match_args(argv, file);
    run_match(run, argv[0], argv[1], argv[2], argv[3], argv[4], argv[5], argv[6], argv[7], argv[8], argv[9], argv[10],
              argv[11], NULL);
}

/* A directory for a cluster run's shards, and the openings. */
static void cluster_setup(char *dir, size_t len, char *book, size_t booklen, char *file, size_t filelen)
{
    char openings[2400];
    snprintf(dir, len, "/tmp/sennight-shards-XXXXXX");
    ck_assert(mkdtemp(dir) != NULL);
    snprintf(openings, sizeof openings, STALEMATE_IN_ONE "\n" MATE_IN_ONE "\n%s\n", test_variant("glinski")->start_fen);
    temp_path(book, booklen, openings);
    snprintf(file, filelen, "file=%s", book);
}

static void cluster_cleanup(const char *dir, const char *book)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
    unlink(book);
}

/* bench/cluster/parallel-match.sh: two shards by GNU Parallel on this machine (-j2), merged by
 * --results, report exactly what one run over the same games reports. */
START_TEST(test_cluster_parallel)
{
    struct run all;
    char dir[64], book[64], file[80], env[256], cmd[8192], report[READ_MAX];
    const char *words[MAX_RUN_ARGS] = { "bench/cluster/parallel-match.sh", pipe_engine_path() };
    cluster_setup(dir, sizeof dir, book, sizeof book, file, sizeof file);
    cluster_match_args(words + 2, file);
    snprintf(env, sizeof env, "SHARDS=2 JOBS=2 OUT='%s'", dir);
    shell_command(cmd, sizeof cmd, env, words);
    snprintf(cmd + strlen(cmd), sizeof cmd - strlen(cmd), " >'%s/out.txt' 2>&1", dir);
    ck_assert_msg(system(cmd) == 0, "%s failed:\n%s", cmd, read_file(absolute(dir, "out.txt")));
    snprintf(report, sizeof report, "%s", read_file(absolute(dir, "out.txt")));
    cluster_reference(&all, file);
    ck_assert_msg(strstr(report, "Results of 6 games from 2 record files: glinski\n"), "%s", report);
    ck_assert_str_eq(final_report(all.out, "Score of"), final_report(report, "Score of"));
    ck_assert(strstr(read_file(absolute(dir, "shard-2.log")), "shard 2/2: games 4 to 6\n"));
    /* Without -seed, the script gives both shards one seed from the clock: the records are one run's. */
    char digits[32], seed[64];
    const char *tag = strstr(read_file(absolute(dir, "shard-1.pgn")), "[Seed \"");
    ck_assert(tag && sscanf(tag, "[Seed \"%20[0-9]", digits) == 1);
    snprintf(seed, sizeof seed, "[Seed \"%s\"]", digits);
    ck_assert_int_eq(count(read_file(absolute(dir, "shard-1.pgn")), seed), 3);
    ck_assert_int_eq(count(read_file(absolute(dir, "shard-2.pgn")), seed), 3);
    cluster_cleanup(dir, book);
    assert_no_children();
}
END_TEST

/* bench/cluster/match-array.sbatch as a Slurm array of two tasks would run it (the task's variables
 * set by hand), merged by --results: the statistics of one run over the same games. */
START_TEST(test_cluster_slurm)
{
    struct run all;
    char dir[64], book[64], file[80], env[256], cmd[8192], pgn[2][4200];
    const char *words[MAX_RUN_ARGS] = { "bench/cluster/match-array.sbatch", pipe_engine_path() };
    cluster_setup(dir, sizeof dir, book, sizeof book, file, sizeof file);
    cluster_match_args(words + 2, file);
    for (int task = 1; task <= 2; task++) {
        snprintf(env, sizeof env, "SLURM_ARRAY_JOB_ID=4242 SLURM_ARRAY_TASK_ID=%d SLURM_ARRAY_TASK_COUNT=2 OUT='%s' sh",
                 task, dir);
        shell_command(cmd, sizeof cmd, env, words);
        snprintf(cmd + strlen(cmd), sizeof cmd - strlen(cmd), " >/dev/null");
        ck_assert_msg(system(cmd) == 0, "%s failed", cmd);
        snprintf(pgn[task - 1], sizeof pgn[0], "%s/shard-%d.pgn", dir, task);
    }
    cluster_reference(&all, file);
    ck_assert_int_eq(count(read_file(pgn[0]), "[Seed \"4242\"]"), 3);
    ck_assert_int_eq(count(read_file(pgn[1]), "[Seed \"4242\"]"), 3);
    const char *files[] = { pgn[0], pgn[1] };
    assert_merged(&all, files, 2, NULL, "Score of");
    cluster_cleanup(dir, book);
    assert_no_children();
}
END_TEST

/* --results refuses what does not make one run, with the file, line and reason. */
START_TEST(test_results_refused)
{
    static const struct {
        const char *body, *error;
    } bad[] = {
        { "[Round \"1\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n[Variant \"glinski\"]\n[FEN \"" MATE_IN_ONE
          "\"]\n[Termination \"checkmate\"]\n\n1... d2b1 1-0\n",
          ":1: the Result and Termination (checkmate) are not where the moves lead" },
        { "[Round \"1\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n[Variant \"glinski\"]\n\n1-0\n",
          ":1: a FEN tag and a Result of 2 scores are expected" },
        { "[Round \"1\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n[Variant \"chess\"]\n\n*\n",
          ":1: unknown variant 'chess'" },
        { "[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n[Variant \"glinski\"]\n\n0-1\n", ":1: no game number" },
        { "[Round \"1\"]\n[White \"a\"]\n[Result \"0-1\"]\n[Variant \"glinski\"]\n[FEN \"" MATE_IN_ONE "\"]\n\n0-1\n",
          ":1: no Black tag" },
        { "[Round \"1\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n[Variant \"glinski\"]\n[FEN \"" MATE_IN_ONE
          "\"]\n[Termination \"boredom\"]\n\n1... d2b1 0-1\n",
          ":1: unknown Termination 'boredom'" },
        { "[Round \"1\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n[Variant \"glinski\"]\n[FEN \"" MATE_IN_ONE
          "\"]\n[Termination \"checkmate\"]\n\n1... a1a9 0-1\n", ":1: " },
        { "[Round \"1\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"0-1-1\"]\n[Variant \"glinski\"]\n[FEN \"" MATE_IN_ONE
          "\"]\n\n1... d2b1 0-1\n", "a Result of 2 scores" },
        { "[Round \"1\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n[Variant \"glinski\"]\n[FEN \"" MATE_IN_ONE
          "\"]\n\n1... d2b1 {Black mates\n", "unterminated comment" },
        { "[Round \"1\"]\n[Seed \"-3\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n[Variant \"glinski\"]\n[FEN \""
          MATE_IN_ONE "\"]\n\n1... d2b1 0-1\n", ":1: a Seed tag of digits is expected, not '-3'" },
        { "", "no games in the record files" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        struct run run;
        char pgn[64];
        temp_path(pgn, sizeof pgn, bad[i].body);
        const char *files[] = { pgn };
        run_results(&run, files, 1, NULL);
        ck_assert_msg(run.status == 1 && strstr(run.r.error, bad[i].error), "record %zu: '%s', not '%s'", i,
                      run.r.error, bad[i].error);
        ck_assert_msg(!strchr(run.r.error, '\n'), "'%s' is more than one line", run.r.error);
        unlink(pgn);
    }
}
END_TEST

/* A mate in one as game `round` of the run with `seed`: Black mates White. */
static void mate_record(char *path, size_t len, int round, const char *seed)
{
    char body[512];
    snprintf(body, sizeof body,
             "[Round \"%d\"]\n%s%s%s[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n[Variant \"glinski\"]\n"
             "[FEN \"" MATE_IN_ONE "\"]\n[Termination \"checkmate\"]\n\n1... d2b1 0-1\n",
             round, seed ? "[Seed \"" : "", seed ? seed : "", seed ? "\"]\n" : "");
    temp_path(path, len, body);
}

/* Game 1 of two runs with different seeds (a match continued with a new -seed) is two games; game 1
 * of the same run twice, or of two records without a Seed tag, is a shard given twice. */
START_TEST(test_results_runs_by_seed)
{
    static const struct {
        const char *seed[2];
        int status, games;
    } cases[] = {
        { { "29", "43" }, 0, 2 },
        { { "29", "29" }, 1, 0 },
        { { NULL, NULL }, 1, 0 },
        { { NULL, "43" }, 0, 2 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char pgn[2][64];
        struct run run;
        for (int f = 0; f < 2; f++)
            mate_record(pgn[f], sizeof pgn[f], 1, cases[i].seed[f]);
        const char *files[] = { pgn[0], pgn[1] };
        run_results(&run, files, 2, NULL);
        ck_assert_msg(run.status == cases[i].status, "case %zu: status %d, error '%s'", i, run.status, run.r.error);
        if (run.status)
            ck_assert_msg(strstr(run.r.error, "game 1 again") && strstr(run.r.error, "a shard given twice?"), "%s",
                          run.r.error);
        else
            ck_assert_int_eq(run.r.games, cases[i].games);
        for (int f = 0; f < 2; f++)
            unlink(pgn[f]);
    }
}
END_TEST

Suite *suite_match(void)
{
    Suite *s = suite_create("match");
    TCase *tc = tcase_create("match");
    tcase_set_timeout(tc, test_timeout(20));
    tcase_add_test(tc, test_results_and_record);
    tcase_add_test(tc, test_crash);
    tcase_add_test(tc, test_hang);
    tcase_add_test(tc, test_illegal_move);
    tcase_add_test(tc, test_time_losses);
    tcase_add_test(tc, test_default_time_margin);
    tcase_add_test(tc, test_no_uciok);
    tcase_add_test(tc, test_adjudication);
    tcase_add_test(tc, test_sprt_stops_the_match);
    tcase_add_test(tc, test_interrupt);
    tcase_add_test(tc, test_bad_arguments);
    tcase_add_test(tc, test_match_cannot_start);
    tcase_add_test(tc, test_shipped_suite);
    tcase_add_test(tc, test_time_control);
    tcase_add_test(tc, test_three_player_match);
    tcase_add_test(tc, test_three_player_failure);
    tcase_add_test(tc, test_three_player_real_engine);
    tcase_add_test(tc, test_three_player_refused);
    tcase_add_test(tc, test_four_player_match);
    tcase_add_test(tc, test_uci_client);
    tcase_add_test(tc, test_shards_merge);
    tcase_add_test(tc, test_three_player_shards);
    tcase_add_test(tc, test_tournaments);
    tcase_add_test(tc, test_move_comments);
    tcase_add_test(tc, test_rating_lines);
    tcase_add_test(tc, test_documented_example);
    tcase_add_test(tc, test_results_refused);
    tcase_add_test(tc, test_results_runs_by_seed);
    bool parallel = !system("command -v parallel >/dev/null 2>&1");
    test_add_unless(tc, test_cluster_parallel, parallel ? NULL : "GNU parallel is not installed (make deps-test)");
    tcase_add_test(tc, test_cluster_slurm);
    suite_add_tcase(s, tc);
    return s;
}
