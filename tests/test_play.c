/* Terminal play (`sennight play`, cli/terminal_play.c) through the real executable ($SENNIGHT): scripted
 * input over pipes, plain output (--no-colour) unless colour is forced, 0.1 s per engine move. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../cli/terminal_play.h"
#include "engine_pipe.h"
#include "tests.h"

#define GLINSKI_START "6/P5p/RP4pr/N1P3p1n/Q2P2p2q/BBB1P1p1bbb/K2P2p2k/N1P3p1n/RP4pr/P5p/6 w - - 0 1"
#define HAYNIE_START "2ppfb/3ppnr/P3ppwq/PP3ppbk/FPP3ppwr/BNPP3ppnb/RWPP3ppf/QBPP3pp/KWPP3p/RNPP3/BFPP2 w - - 0 1"
/* Black to move mates with d2b1, or stalemates White with b6b4 (Glinski: 3/4 to Black). */
#define MATE_IN_ONE "K5/4r2/8/1q7/10/11/10/9/8/7/5k b - - 0 1"
#define STALEMATE_IN_ONE "K5/5q1/6r1/9/10/11/10/9/8/7/5k b - - 0 1"
/* White's pawn on g2 is blocked by a black pawn and has nothing to take. */
#define BLOCKED_PAWN "6/7/8/9/10/11/KPp7/9/8/7/5k w - - 0 1"
#define INTRO "'help' lists the commands."

/* Everything the game printed so far (prompts end up at the start of the next line), and how far
 * the test has looked. */
struct session {
    struct proc pipe;
    char *out;
    size_t len, cap, seen;
};

static int reply_ms(void)
{
    return (int)(test_timeout(5.0) * 1000);
}

/* Starts `sennight play --no-colour --time 0.1` with more arguments (NULL-terminated; later
 * options override earlier ones). */
static void session_start(struct session *s, const char *const *args)
{
    const char *argv[PIPE_MAX_ARGS + 1] = { "play", "--no-colour", "--time", "0.1" };
    int n = 4;
    for (int i = 0; args && args[i]; i++)
        argv[n++] = args[i];
    *s = (struct session){ 0 };
    pipe_start(&s->pipe, argv);
}

static void session_append(struct session *s, const char *line)
{
    size_t n = strlen(line);
    if (s->len + n + 2 > s->cap) {
        s->cap = 2 * (s->len + n + 2);
        s->out = realloc(s->out, s->cap);
        ck_assert(s->out != NULL);
    }
    memcpy(s->out + s->len, line, n);
    s->len += n;
    s->out[s->len++] = '\n';
    s->out[s->len] = 0;
}

/* Reads until the output not yet looked at holds the text; returns its offset in s->out and marks
 * everything up to the end of its line as seen. */
static size_t session_expect(struct session *s, const char *text)
{
    for (;;) {
        const char *hit = s->out ? strstr(s->out + s->seen, text) : NULL;
        if (hit) {
            size_t at = (size_t)(hit - s->out);
            s->seen = (size_t)(strchr(hit, '\n') - s->out) + 1;
            return at;
        }
        const char *line = pipe_read_line(&s->pipe, reply_ms());
        ck_assert_msg(line != NULL, "no '%s' in the output; after what was seen:\n%s", text,
                      s->out ? s->out + s->seen : "");
        session_append(s, line);
    }
}

static void session_send(struct session *s, const char *line)
{
    ck_assert_msg(pipe_send(&s->pipe, line, reply_ms()), "cannot send '%s'", line);
}

/* Sends a line and expects a reply holding the text. */
static size_t session_ask(struct session *s, const char *line, const char *text)
{
    session_send(s, line);
    return session_expect(s, text);
}

/* How often the text occurs in s->out between two offsets. */
static int count_between(const struct session *s, size_t from, size_t to, const char *text)
{
    int n = 0;
    for (const char *p = s->out + from; (p = strstr(p, text)) && p < s->out + to; p++)
        n++;
    return n;
}

static void session_fen(struct session *s, char *fen, size_t len)
{
    size_t at = session_ask(s, "fen", "Fen: ") + strlen("Fen: ");
    size_t n = strcspn(s->out + at, "\n");
    ck_assert(n < len);
    memcpy(fen, s->out + at, n);
    fen[n] = 0;
}

static void expect_fen(struct session *s, const char *want)
{
    char fen[2048];
    session_fen(s, fen, sizeof fen);
    ck_assert_str_eq(fen, want);
}

/* Ends the input (after `quit` when asked) and expects a clean exit. */
static void session_end(struct session *s, bool quit)
{
    if (quit)
        session_send(s, "quit");
    proc_close_input(&s->pipe);
    struct proc_exit e = pipe_wait(&s->pipe, reply_ms());
    ck_assert_msg(e.exited && e.code == 0, "play ended with exited %d code %d signal %d killed %d", e.exited, e.code,
                  e.signal, e.killed);
    proc_end(&s->pipe, 0, NULL, 0);
    free(s->out);
}

/* A board was drawn between the offsets, with exactly the two cells of the last move marked. */
static void expect_board(const struct session *s, size_t from, size_t to)
{
    ck_assert_msg(count_between(s, from, to, "      a   b   c   d   e   f   g   h   i   k   l\n") == 1,
                  "no board in:\n%.*s", (int)(to - from), s->out + from);
    ck_assert_int_eq(count_between(s, from, to, "["), 2);
    ck_assert_int_eq(count_between(s, from, to, "]"), 2);
}

/* Plays the first legal move the game lists and waits for the engine's reply. */
static void play_first_move(struct session *s)
{
    char move[16];
    session_ask(s, "moves", "legal moves:");
    ck_assert(sscanf(s->out + session_expect(s, "  "), "%15s", move) == 1);
    session_ask(s, move, "Sennight played ");
}

START_TEST(test_play_move_and_reply)
{
    struct session s;
    session_start(&s, NULL);
    size_t intro = session_expect(&s, INTRO);
    ck_assert_int_eq(count_between(&s, 0, intro, "["), 0);
    size_t mine = session_ask(&s, "f5f6", "You played f6.");
    size_t reply = session_expect(&s, "Sennight played ");
    ck_assert_msg(count_between(&s, mine, reply, "  depth  1  ") == 1, "no thinking shown:\n%s", s.out + mine);
    ck_assert(count_between(&s, mine, reply, " pv ") >= 1);
    expect_board(&s, intro, mine);
    expect_board(&s, mine, reply);
    char fen[2048];
    session_fen(&s, fen, sizeof fen);
    ck_assert_msg(strstr(fen, " w ") && !strcmp(fen + strlen(fen) - 2, " 2"), "after one move each: %s", fen);
    session_end(&s, true);
}
END_TEST

START_TEST(test_play_illegal_moves_explained)
{
    static const char *const cases[][2] = {
        { "f5f8", "illegal move 'f5f8': legal moves from f5 are f6\n" },
        { "C1C2", "illegal move 'c1c2': legal moves from c1 are Rcf4 Rd2 Re3\n" },
        { "Qf4", "illegal move 'Qf4' ('moves' lists the legal moves)\n" },
        { "Rf4", "ambiguous move 'Rf4': it may be Rcf4, Rif4 ('moves' lists the legal moves)\n" },
        { "x9", "there is no cell x9 on this board\n" },
        { "e12e13", "there is no cell e12 on this board\n" },
        { "f7f6", "no piece of yours on f7\n" },
        { "a1a2", "no piece of yours on a1\n" },
        { "hello", "'hello' is neither a move nor a command" },
        { "f5f6 f7f6", "one move or command per line, please\n" },
    };
    struct session s;
    session_start(&s, NULL);
    session_expect(&s, INTRO);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        session_ask(&s, cases[i][0], cases[i][1]);
    expect_fen(&s, GLINSKI_START);
    session_end(&s, true);

    session_start(&s, (const char *const[]){ "--fen", BLOCKED_PAWN, NULL });
    session_expect(&s, INTRO);
    session_ask(&s, "g2g3", "your pawn on g2 has no legal move\n");
    session_end(&s, true);
}
END_TEST

START_TEST(test_play_undo)
{
    struct session s;
    char after_one[2048];
    session_start(&s, NULL);
    session_expect(&s, INTRO);
    session_ask(&s, "undo", "nothing to undo: you have not moved yet\n");
    session_ask(&s, "f5f6", "Sennight played ");
    session_fen(&s, after_one, sizeof after_one);
    play_first_move(&s);
    session_ask(&s, "undo", "Took back 2 moves.");
    expect_fen(&s, after_one);
    session_ask(&s, "undo", "Took back 2 moves.");
    expect_fen(&s, GLINSKI_START);
    session_ask(&s, "f5f6", "Sennight played ");
    session_ask(&s, "new", "New game.");
    expect_fen(&s, GLINSKI_START);
    session_end(&s, true);
}
END_TEST

START_TEST(test_play_end_of_input)
{
    struct session s;
    session_start(&s, NULL);
    session_end(&s, false);
    session_start(&s, NULL);
    session_expect(&s, INTRO);
    session_end(&s, true);
    /* While the engine thinks. */
    session_start(&s, NULL);
    session_send(&s, "f5f6");
    session_end(&s, false);
}
END_TEST

START_TEST(test_play_commands)
{
    struct session s;
    session_start(&s, (const char *const[]){ "--variant", "mccooey", NULL });
    session_expect(&s, "mccooey: you play w");
    session_ask(&s, "help", "  undo         take back your last move and the engine's reply\n");
    session_expect(&s, "  save FILE    write the game to FILE as PGN");
    session_ask(&s, "HINT", "hint: ");
    session_ask(&s, "board", "      a   b   c   d   e   f   g   h   i   k   l\n");
    session_ask(&s, "moves", "legal moves:");
    session_end(&s, true);
}
END_TEST

/* Moves as players write them: a piece letter first, '-' or 'x' between the cells; a letter that
 * names another piece is refused with what stands there. Then the moves played, and the game saved
 * as the match runner's PGN. */
START_TEST(test_play_written_moves_history_and_pgn)
{
    struct session s;
    char dir[TEST_DIR_LEN], path[TEST_DIR_LEN + 16], line[128];
    test_dir_make(dir, "play-pgn");
    ck_assert(dir[0]);
    snprintf(path, sizeof path, "%s/game.pgn", dir);
    session_start(&s, NULL);
    session_expect(&s, INTRO);
    session_ask(&s, "history", "no moves yet\n");
    session_ask(&s, "Bc1c2", "the piece on c1 is a rook (R), not B\n");
    session_ask(&s, "Kd2d3", "there is no piece on d2, so no K\n");
    session_ask(&s, "f5-f8", "illegal move 'f5f8': legal moves from f5 are f6\n");
    expect_fen(&s, GLINSKI_START);
    session_ask(&s, "Pf5xf6", "You played f6.");
    size_t reply = session_expect(&s, "Sennight played ") + strlen("Sennight played ");
    char engine[16];
    ck_assert(sscanf(s.out + reply, "%15[^ .]", engine) == 1);
    session_ask(&s, "history", "2 moves:\n");
    snprintf(line, sizeof line, "  1. f6 %s\n", engine);
    session_expect(&s, line);
    session_ask(&s, "save", "usage: save FILE\n");
    session_ask(&s, "save /nonexistent-dir/game.pgn", "cannot save: /nonexistent-dir/game.pgn: cannot write");
    snprintf(line, sizeof line, "save %s", path);
    session_ask(&s, line, "saved 2 moves to ");
    session_end(&s, true);

    FILE *f = fopen(path, "r");
    ck_assert(f != NULL);
    char pgn[4096];
    pgn[fread(pgn, 1, sizeof pgn - 1, f)] = 0;
    fclose(f);
    snprintf(line, sizeof line, "\n1. f6 %s *\n", engine);
    static const char *const want[] = { "[White \"Human\"]\n", "[Black \"Sennight\"]\n", "[Result \"*\"]\n",
                                        "[Variant \"glinski\"]\n", "[FEN \"" GLINSKI_START "\"]\n", "[PlyCount \"2\"]\n" };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        ck_assert_msg(strstr(pgn, want[i]), "no %s in:\n%s", want[i], pgn);
    ck_assert_msg(strstr(pgn, line), "no '%s' in:\n%s", line, pgn);
    test_dir_remove(dir);
}
END_TEST

/* With three players, the message after the engine's moves names both armies' moves. */
START_TEST(test_play_three_players_name_every_move)
{
    struct session s;
    session_start(&s, (const char *const[]){ "--variant", "wellisch", "--side", "r", NULL });
    session_expect(&s, "you play r");
    session_ask(&s, "g3g4", "You played gg4.");
    size_t second = session_expect(&s, "Sennight played ");
    second = session_expect(&s, "Sennight played ");
    char a[16], b[16];
    ck_assert_msg(sscanf(s.out + second, "Sennight played %15[^ ] (w), %15[^ ] (b).", a, b) == 2,
                  "the second message names one move: %.80s", s.out + second);
    session_ask(&s, "history", "3 moves:\n");
    char line[64];
    snprintf(line, sizeof line, "  1. gg4 %s %s\n", a, b);
    session_expect(&s, line);
    session_end(&s, true);
}
END_TEST

START_TEST(test_play_human_mates)
{
    struct session s;
    session_start(&s, (const char *const[]){ "--fen", MATE_IN_ONE, "--side", "b", NULL });
    session_expect(&s, "you play b");
    session_ask(&s, "d2b1", "Result: checkmate: w scores 0/1, b 1/1\n");
    session_expect(&s, "You win.");
    session_ask(&s, "a1a2", "the game is over: type 'new', 'undo' or 'quit'\n");
    session_ask(&s, "hint", "the game is over: no hint\n");
    session_ask(&s, "undo", "Took back 1 move.");
    expect_fen(&s, MATE_IN_ONE);
    session_end(&s, true);

    session_start(&s, (const char *const[]){ "--fen", STALEMATE_IN_ONE, "--side", "B", NULL });
    session_ask(&s, "b6b4", "Result: stalemate: w scores 1/4, b 3/4\n");
    session_expect(&s, "You score 3/4.");
    session_end(&s, true);
}
END_TEST

START_TEST(test_play_engine_mates)
{
    struct session s;
    session_start(&s, (const char *const[]){ "--fen", MATE_IN_ONE, NULL });
    session_expect(&s, "Sennight played Qb1#. Its score: mate in 1");
    session_expect(&s, "Result: checkmate: w scores 0/1, b 1/1\n");
    session_expect(&s, "Sennight wins.");
    session_end(&s, true);
}
END_TEST

/* play_main in this process with its stderr caught: the status, and what it printed in err. The
 * options are all wrong, so it returns before reading any input. */
static int play_main_caught(const char *const *args, char *err, size_t len)
{
    char *argv[8];
    int argc = 0;
    while (args[argc] && argc < 8) {
        argv[argc] = (char *)args[argc];
        argc++;
    }
    FILE *f = tmpfile();
    ck_assert(f != NULL);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    dup2(fileno(f), STDERR_FILENO);
    int status = play_main(argc, argv);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    rewind(f);
    err[fread(err, 1, len - 1, f)] = 0;
    fclose(f);
    return status;
}

START_TEST(test_play_bad_options)
{
    /* Status 1: the game cannot be set up; 2: the command line is wrong (the usage follows). */
    static const struct {
        const char *args[3], *message;
        int status;
    } cases[] = {
        { { "--variant", "nope" }, "sennight play: unknown variant 'nope'; known: glinski mccooey", 1 },
        { { "--fen", "zz w" }, "sennight play: bad FEN: unknown piece in file a\n", 1 },
        { { "--side", "r" }, "sennight play: unknown side 'r'; glinski has w b\n", 1 },
        { { "--time", "soon" }, "sennight play: bad option '--time' 'soon'\nusage: sennight play [", 2 },
        { { "--threads", "0" }, "sennight play: bad option '--threads' '0'\n", 2 },
        { { "--hash", "1.5" }, "sennight play: bad option '--hash' '1.5'\n", 2 },
        { { "--frobnicate" }, "sennight play: bad option '--frobnicate'\n", 2 },
        { { "--variant" }, "sennight play: bad option '--variant'\n", 2 },
    };
    char err[1024];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int status = play_main_caught(cases[i].args, err, sizeof err);
        ck_assert_msg(status == cases[i].status && !strncmp(err, cases[i].message, strlen(cases[i].message)),
                      "%s %s: status %d, said:\n%s", cases[i].args[0], cases[i].args[1] ? cases[i].args[1] : "",
                      status, err);
    }
}
END_TEST

/* Pieces of one army (upper or lower case letters) in a FEN's board field. */
static int fen_pieces(const char *fen, bool upper)
{
    int n = 0;
    for (; *fen && *fen != ' '; fen++)
        n += upper ? (*fen >= 'A' && *fen <= 'Z') : (*fen >= 'a' && *fen <= 'z');
    return n;
}

/* The colour diagram forced on a pipe: a reset and a name closing every row, every piece one bold
 * letter in its army's colour, the last move's two cells (two lines each in Glinski) marked. */
static void expect_colour_board(const char *variant, const char *fen, int rows, const char *move, const char *san)
{
    static const char white[] = "\033[1;38;5;231m", black[] = "\033[1;38;5;16m", mark[] = "\033[48;5;67m";
    struct session s;
    char played[32];
    session_start(&s, (const char *const[]){ "--variant", variant, "--colour", NULL });
    size_t intro = session_expect(&s, INTRO);
    ck_assert_int_eq(count_between(&s, 0, intro, "\033[0m "), rows);
    ck_assert_int_eq(count_between(&s, 0, intro, white), fen_pieces(fen, true));
    ck_assert_int_eq(count_between(&s, 0, intro, black), fen_pieces(fen, false));
    ck_assert_int_eq(count_between(&s, 0, intro, mark), 0);
    snprintf(played, sizeof played, "You played %s.", san);
    size_t mine = session_ask(&s, move, played);
    ck_assert_int_eq(count_between(&s, intro, mine, "\033[0m "), rows);
    ck_assert_int_eq(count_between(&s, intro, mine, white), fen_pieces(fen, true));
    ck_assert(count_between(&s, intro, mine, mark) >= 2);
    session_end(&s, true);
}

/* Where the name occurs in the text as a word of its own: its offset, or -1; *count gets how often. */
static long find_word(const char *text, const char *word, int *count)
{
    long at = -1;
    size_t n = strlen(word);
    *count = 0;
    for (const char *p = text; (p = strstr(p, word)); p++)
        if ((p == text || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\n' || !p[n])) {
            at = at < 0 ? p - text : at;
            ++*count;
        }
    return at;
}

/* The first board of a session (in colour: as a terminal without colours shows it): each cell named
 * at most once (every one exactly once: all), and the given cells named once with the given pieces
 * (or ' ' for none) right above their names (a cell without a piece after it: only named). */
static void expect_cells_named(const char *variant, bool colour, bool all, const char *const *above)
{
    struct session s;
    session_start(&s, (const char *const[]){ "--variant", variant, colour ? "--colour" : "--no-colour", NULL });
    size_t end = session_expect(&s, INTRO);
    char *plain = malloc(end + 1), *o = plain;
    ck_assert(plain != NULL);
    for (const char *p = s.out; p < s.out + end; p++)
        if (*p == '\033')
            p += strcspn(p, "m");
        else
            *o++ = *p;
    *o = 0;
    const struct variant *v = test_variant(variant);
    int count;
    for (int c = 0; c < v->geo.ncells; c++) {
        find_word(plain, v->geo.name[c], &count);
        ck_assert_msg(all ? count == 1 : count <= 1, "%s named %d times:\n%s", v->geo.name[c], count, plain);
    }
    /* Pairs of a cell and the piece above its name. */
    for (int i = 0; above && above[i]; i += 2) {
        long at = find_word(plain, above[i], &count);
        ck_assert_msg(count == 1, "%s is not named once:\n%s", above[i], plain);
        if (!above[i + 1])
            break;
        long line = at;
        while (line > 0 && plain[line - 1] != '\n')
            line--;
        long prev = line - 1;
        while (prev > 0 && plain[prev - 1] != '\n')
            prev--;
        ck_assert_msg(line > 0 && prev + (at - line) < line && plain[prev + (at - line)] == above[i + 1][0],
                      "no %s above %s:\n%s", above[i + 1], above[i], plain);
    }
    free(plain);
    session_end(&s, true);
}

START_TEST(test_play_colour)
{
    expect_colour_board("glinski", GLINSKI_START, 22, "f5f6", "f6");
    expect_colour_board("haynie", HAYNIE_START, 11, "e3e4", "ee4");
    static const char *const glinski[] = { "c1", "R", "e1", "Q", "g1", "K", "f11", "b", "f6", " ", "a1", " ", NULL };
    expect_cells_named("glinski", true, true, glinski);
    /* Wellisch orientation, and plain diagrams: the empty cells are named, and the rows at their
     * ends where a piece stands there. */
    static const char *const empty[] = { "f6", NULL }, *const haynie[] = { "e5", NULL };
    expect_cells_named("haynie", true, false, haynie);
    expect_cells_named("glinski", false, false, empty);
    expect_cells_named("haynie", false, false, haynie);
}
END_TEST

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

START_TEST(test_play_garbage)
{
    static const char *const words[] = { "moves", "fen", "board", "help", "undo", "new", "e4e5", "k1k2", "x9",
                                         "F10F11Q", "f11", "q", "e4e5 e7e5", "  fen  ", "\t", "e4e4e4e4e4e4e4e4e4e4" };
    struct session s;
    uint64_t seed = 0x9e3779b97f4a7c15u;
    char line[1 << 12];
    session_start(&s, NULL);
    session_expect(&s, INTRO);
    /* A long line, lines of random bytes (NUL included), then random words and commands. */
    char *long_line = malloc(1 << 20);
    ck_assert(long_line != NULL);
    memset(long_line, 'e', 1 << 20);
    long_line[(1 << 20) - 1] = '\n';
    ck_assert(pipe_write(&s.pipe, long_line, 1 << 20, reply_ms()));
    free(long_line);
    for (int i = 0; i < 50; i++) {
        size_t n = rng_next(&seed) % sizeof line;
        for (size_t k = 0; k < n; k++)
            line[k] = (char)(rng_next(&seed) >> 24);
        ck_assert(pipe_write(&s.pipe, line, n, reply_ms()));
        ck_assert(pipe_write(&s.pipe, "\n", 1, reply_ms()));
    }
    for (int i = 0; i < 60; i++)
        session_send(&s, words[rng_next(&seed) % (sizeof words / sizeof *words)]);
    session_ask(&s, "sync-1", "'sync-1' is neither a move nor a command");
    session_ask(&s, "new", "New game.");
    expect_fen(&s, GLINSKI_START);
    session_end(&s, true);
}
END_TEST

Suite *suite_play(void)
{
    Suite *s = suite_create("play");
    TCase *tc = tcase_create("terminal");
    tcase_set_timeout(tc, test_timeout(20));
    tcase_add_test(tc, test_play_move_and_reply);
    tcase_add_test(tc, test_play_illegal_moves_explained);
    tcase_add_test(tc, test_play_undo);
    tcase_add_test(tc, test_play_end_of_input);
    tcase_add_test(tc, test_play_commands);
    tcase_add_test(tc, test_play_written_moves_history_and_pgn);
    tcase_add_test(tc, test_play_three_players_name_every_move);
    tcase_add_test(tc, test_play_human_mates);
    tcase_add_test(tc, test_play_engine_mates);
    tcase_add_test(tc, test_play_colour);
    tcase_add_test(tc, test_play_bad_options);
    tcase_add_test(tc, test_play_garbage);
    suite_add_tcase(s, tc);
    return s;
}
