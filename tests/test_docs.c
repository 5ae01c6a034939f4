/* Docs that cannot drift: every example session of the documentation (a fenced block labelled
 * `uci-session` in README.md or a docs/ page) is run through the engine ($SENNIGHT) and the engine's
 * output compared with the block's, allowing for what a run measures (docs/protocol.md#example-sessions
 * states the convention). Paths are relative to the repository root, where the tests run. */
#include <ctype.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_pipe.h"
#include "tests.h"
#include "../util/file.h"
#include "../util/text.h"

enum { MAX_SESSIONS = 64, MAX_BLOCK_LINES = 512, MAX_LINE = 1024, MAX_TOKENS = 256 };

/* One session: its block's lines, the fence's indentation removed. */
struct session {
    char where[128];    /* file:line of the opening fence */
    int n;
    char *lines[MAX_BLOCK_LINES];
};

static struct session sessions[MAX_SESSIONS];
static int nsessions;
/* Whatever made the documentation unreadable as sessions, one line per problem. */
static struct text doc_errors;

static const char *const doc_files[] = { "README.md", "docs" };

static bool is_input(const char *line)
{
    return !strncmp(line, "> ", 2);
}

static bool is_gap(const char *line)
{
    return !strcmp(line, "...");
}

/* The fence's indentation when the line opens or closes a fenced block, else -1; label gets what
 * follows the backticks. */
static int fence_indent(const char *line, const char **label)
{
    int indent = 0;
    while (line[indent] == ' ')
        indent++;
    if (strncmp(line + indent, "```", 3))
        return -1;
    *label = line + indent + 3;
    return indent;
}

/* Every `uci-session` block of the file; an unlabelled block with input lines is an error, so that a
 * session cannot escape the check by a forgotten label. */
static void docs_read_file(const char *path)
{
    char err[512];
    char *text = file_read(path, SIZE_MAX, NULL, err, sizeof err);
    if (!text) {
        text_printf(&doc_errors, "%s\n", err);
        return;
    }
    struct session *s = NULL;
    int indent = -1, line_no = 0, block_line = 0;
    bool unlabelled = false, input_seen = false;
    for (char *line = text, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        line_no++;
        const char *label = "";
        int fence = fence_indent(line, &label);
        if (indent < 0) {
            if (fence < 0)
                continue;
            indent = fence;
            block_line = line_no;
            unlabelled = !*label;
            input_seen = false;
            s = NULL;
            if (!strcmp(label, "uci-session")) {
                if (nsessions == MAX_SESSIONS) {
                    text_printf(&doc_errors, "%s:%d: more than %d sessions\n", path, line_no, MAX_SESSIONS);
                    continue;
                }
                s = &sessions[nsessions++];
                snprintf(s->where, sizeof s->where, "%s:%d", path, line_no);
            }
            continue;
        }
        if (fence == indent && !*label) {
            if (s && (!s->n || !is_input(s->lines[0])))
                text_printf(&doc_errors, "%s: the session does not start with an input line\n", s->where);
            if (unlabelled && input_seen)
                text_printf(&doc_errors, "%s:%d: a block with '> ' input lines is not labelled uci-session\n",
                            path, block_line);
            indent = -1;
            continue;
        }
        for (int k = 0; k < indent && *line == ' '; k++)
            line++;
        input_seen |= is_input(line);
        if (!s)
            continue;
        if (s->n == MAX_BLOCK_LINES)
            text_printf(&doc_errors, "%s: more than %d lines\n", s->where, MAX_BLOCK_LINES);
        else
            s->lines[s->n++] = strdup(line);
    }
    if (indent >= 0)
        text_printf(&doc_errors, "%s:%d: the block is never closed\n", path, block_line);
    free(text);
}

static void docs_read(void)
{
    for (size_t i = 0; i < sizeof doc_files / sizeof *doc_files; i++) {
        DIR *dir = opendir(doc_files[i]);
        if (!dir) {
            docs_read_file(doc_files[i]);
            continue;
        }
        /* In name order, so that failures are reported the same way each run. */
        struct dirent **names;
        int n = scandir(doc_files[i], &names, NULL, alphasort);
        for (int k = 0; k < n; k++) {
            size_t len = strlen(names[k]->d_name);
            if (len > 3 && !strcmp(names[k]->d_name + len - 3, ".md")) {
                char path[512];
                snprintf(path, sizeof path, "%s/%s", doc_files[i], names[k]->d_name);
                docs_read_file(path);
            }
            free(names[k]);
        }
        free(names);
        closedir(dir);
    }
}

/* How an expected line is compared. The engine's statements (options, messages, FENs, keys) are
 * exact; its reports of a search, a count or a measurement may differ in every number and move, as
 * the next run searches at another speed. */
enum line_kind { LINE_EXACT, LINE_MEASURED, LINE_VERSION };

static const struct {
    const char *prefix;
    enum line_kind kind;
} line_kinds[] = {
    { "id name ", LINE_VERSION },       /* the version follows the name */
    { "info string book move ", LINE_MEASURED },  /* a weighted random choice */
    { "info string bench stopped ", LINE_MEASURED },
    { "info string ", LINE_EXACT },
    { "option ", LINE_EXACT },
    { "id ", LINE_EXACT },
    { "Fen: ", LINE_EXACT },
    { "Key: ", LINE_EXACT },
};

static enum line_kind line_kind(const char *line)
{
    for (size_t i = 0; i < sizeof line_kinds / sizeof *line_kinds; i++)
        if (!strncmp(line, line_kinds[i].prefix, strlen(line_kinds[i].prefix)))
            return line_kinds[i].kind;
    return LINE_MEASURED;
}

static bool is_word_char(char c)
{
    return isalnum((unsigned char)c) || c == '-' || c == '_' || c == '.';
}

/* Words (letters, digits, '-', '_', '.') and single punctuation characters; white space separates. */
static int tokenize(const char *line, char *buf, const char *tokens[MAX_TOKENS])
{
    int n = 0;
    while (*line && n < MAX_TOKENS) {
        if (isspace((unsigned char)*line)) {
            line++;
            continue;
        }
        tokens[n++] = buf;
        if (is_word_char(*line))
            while (is_word_char(*line))
                *buf++ = *line++;
        else
            *buf++ = *line++;
        *buf++ = 0;
    }
    return n;
}

static bool is_integer(const char *t)
{
    t += *t == '-';
    if (!*t)
        return false;
    while (isdigit((unsigned char)*t))
        t++;
    return !*t;
}

/* A cell name: a file letter and a rank of one or two digits; returns what follows it. */
static const char *skip_cell(const char *t)
{
    if (!islower((unsigned char)t[0]) || !isdigit((unsigned char)t[1]))
        return NULL;
    return t + 2 + !!isdigit((unsigned char)t[2]);
}

/* Move text: two cells and an optional piece letter (promotion, fission). */
static bool is_move(const char *t)
{
    const char *rest = skip_cell(t);
    rest = rest ? skip_cell(rest) : NULL;
    return rest && (!*rest || (isalpha((unsigned char)rest[0]) && !rest[1]));
}

/* Token by token: an integer matches any integer, a run of moves any run of moves (a principal
 * variation is as long as the search made it); anything else is exact. A line with nothing measured
 * in it must be equal, spacing included. */
static bool measured_match(const char *expected, const char *actual)
{
    static char ebuf[2 * MAX_LINE], abuf[2 * MAX_LINE];
    const char *e[MAX_TOKENS], *a[MAX_TOKENS];
    if (strlen(expected) >= MAX_LINE || strlen(actual) >= MAX_LINE)
        return false;
    int ne = tokenize(expected, ebuf, e), na = tokenize(actual, abuf, a), i = 0, j = 0;
    bool measured = false;
    while (i < ne && j < na) {
        if (is_move(e[i]) && is_move(a[j])) {
            while (i < ne && is_move(e[i]))
                i++;
            while (j < na && is_move(a[j]))
                j++;
        } else if (is_integer(e[i]) && is_integer(a[j])) {
            i++, j++;
        } else if (!strcmp(e[i], a[j])) {
            i++, j++;
            continue;
        } else {
            return false;
        }
        measured = true;
    }
    return measured && i == ne && j == na;
}

static bool line_matches(const char *expected, const char *actual)
{
    if (!strcmp(expected, actual))
        return true;
    switch (line_kind(expected)) {
    case LINE_EXACT:
        return false;
    case LINE_VERSION: {
        /* The words up to the version. */
        const char *space = strrchr(expected, ' ');
        size_t len = (size_t)(space - expected) + 1;
        return !strncmp(expected, actual, len) && actual[len] && !strchr(actual + len, ' ');
    }
    case LINE_MEASURED:
        break;
    }
    return measured_match(expected, actual);
}

/* An expected block as the states of a small automaton over output lines: state j means the first
 * j expected lines are matched; a gap ("...") matches any number of lines. */
struct block {
    const char *const *pattern;
    int n;
    bool leading_gap;   /* the block before ended in a gap: its lines may run on into this one */
    bool state[MAX_BLOCK_LINES + 1];
};

static void block_close(struct block *b)
{
    for (int j = 0; j < b->n; j++)
        if (b->state[j] && is_gap(b->pattern[j]))
            b->state[j + 1] = true;
}

static void block_start(struct block *b, const char *const *pattern, int n, bool leading_gap)
{
    *b = (struct block){ .pattern = pattern, .n = n, .leading_gap = leading_gap };
    b->state[0] = true;
    block_close(b);
}

/* Feeds one output line; false if no state survives. */
static bool block_feed(struct block *b, const char *line)
{
    bool next[MAX_BLOCK_LINES + 1] = { 0 }, alive = false;
    for (int j = 0; j <= b->n; j++) {
        if (!b->state[j])
            continue;
        bool gap = j < b->n && is_gap(b->pattern[j]);
        /* Before the first line is matched, a leading gap absorbs the previous block's run-on. */
        if (gap || (j == 0 && b->leading_gap))
            next[j] = alive = true;
        if (j < b->n && !gap && line_matches(b->pattern[j], line))
            next[j + 1] = alive = true;
    }
    memcpy(b->state, next, sizeof next);
    block_close(b);
    return alive;
}

static bool block_complete(const struct block *b)
{
    return b->state[b->n];
}

static bool block_ends_in_gap(const struct block *b)
{
    return b->n && is_gap(b->pattern[b->n - 1]);
}

/* What the failure message shows: the block expected and the lines the engine printed for it. */
static void report(struct text *msg, const struct session *s, const char *input, const struct block *b,
                   const struct text *got, const char *why)
{
    text_printf(msg, "%s: after '> %s' %s.\nexpected:\n", s->where, input, why);
    for (int j = 0; j < b->n; j++)
        text_printf(msg, "  %s\n", b->pattern[j]);
    text_printf(msg, "the engine printed:\n%s", text_str(got));
}

static void session_run(const struct session *s)
{
    struct proc p;
    pipe_start(&p, NULL);
    struct block b;
    struct text got = { 0 }, msg = { 0 };
    bool leading_gap = false;
    int wait_ms = (int)(test_timeout(60) * 1000);
    for (int i = 0; i < s->n;) {
        const char *input = s->lines[i++] + 2;
        int first = i;
        while (i < s->n && !is_input(s->lines[i]))
            i++;
        bool last = i == s->n;
        ck_assert_msg(pipe_send(&p, input, wait_ms), "%s: the engine takes no input: '%s'", s->where, input);
        /* The last block reads to the end of the output, so nothing may follow it. */
        if (last)
            proc_close_input(&p);
        block_start(&b, (const char *const *)s->lines + first, i - first, leading_gap);
        text_clear(&got);
        while (last || !block_complete(&b)) {
            const char *line = pipe_read_line(&p, wait_ms);
            if (!line)
                break;
            text_printf(&got, "  %s\n", line);
            if (!block_feed(&b, line)) {
                report(&msg, s, input, &b, &got, "the last line printed matches nothing expected");
                ck_abort_msg("%s", text_str(&msg));
            }
        }
        if (!block_complete(&b)) {
            report(&msg, s, input, &b, &got,
                   last ? "the output ended before the expected lines" : "the expected lines did not come");
            ck_abort_msg("%s", text_str(&msg));
        }
        /* A block without lines lets the run-on pass to the next. */
        if (b.n)
            leading_gap = block_ends_in_gap(&b);
    }
    struct proc_exit end = pipe_wait(&p, wait_ms);
    ck_assert_msg(end.exited && end.code == 0, "%s: the engine did not exit cleanly at the end of input", s->where);
    proc_end(&p, 0, NULL, 0);
    text_free(&got);
    text_free(&msg);
}

START_TEST(test_docs_readable)
{
    ck_assert_msg(!doc_errors.s, "%s", text_str(&doc_errors));
    /* The README's example and the protocol's five sessions at least. */
    int readme = 0, protocol = 0;
    for (int i = 0; i < nsessions; i++) {
        readme += !strncmp(sessions[i].where, "README.md:", 10);
        protocol += !strncmp(sessions[i].where, "docs/protocol.md:", 17);
    }
    ck_assert_int_ge(readme, 1);
    ck_assert_int_ge(protocol, 5);
}
END_TEST

START_TEST(test_docs_session)
{
    session_run(&sessions[_i]);
}
END_TEST

/* The matcher itself, so that a lenient rule cannot hide a difference it should catch. */
START_TEST(test_docs_matching)
{
    /* Measured: numbers, moves and spacing are free, words and their order are not. */
    ck_assert(line_matches("info depth 1 seldepth 1 multipv 1 score cp -4 nodes 50 nps 50000 hashfull 0 time 1 pv c8f8",
                           "info depth 3 seldepth 7 multipv 1 score cp 12 nodes 950 nps 9500 hashfull 2 time 100 pv c8f8 c1f4 f10d6"));
    ck_assert(!line_matches("info depth 1 score cp 4 pv c8f8", "info depth 1 score mate 4 pv c8f8"));
    ck_assert(!line_matches("info depth 1 score cp 4 pv c8f8", "info depth 1 score cp 4"));
    ck_assert(!line_matches("bestmove c7c5 ponder i2i4", "bestmove c7c5"));
    ck_assert(line_matches("bestmove c7c5 ponder i2i4", "bestmove f10f11q ponder e3a1i"));
    ck_assert(line_matches("Position  1/21 glinski     566291 nodes    672 ms  bestmove c1f4",
                           "Position  1/21 glinski 48160 nodes 27 ms bestmove f2b6"));
    ck_assert(!line_matches("Position  1/21 glinski 566291 nodes", "Position  1/21 mccooey 566291 nodes"));
    ck_assert(line_matches("info string book move i1f4 (weight 16 of 48)", "info string book move c1f4 (weight 21 of 42)"));
    /* A line with nothing measured, such as a diagram's, is exact. */
    ck_assert(!line_matches(" a6   .       p  l6", " a6 . p l6"));
    /* Statements are exact. */
    ck_assert(!line_matches("info string error: Threads: a number from 1 to 256 is expected",
                            "info string error: Threads: a number from 1 to 512 is expected"));
    ck_assert(!line_matches("option name Hash type spin default 16 min 1 max 1048576",
                            "option name Hash type spin default 32 min 1 max 1048576"));
    ck_assert(!line_matches("Key: 074fd582efe075c6", "Key: 074fd582efe075c7"));
    ck_assert(line_matches("id name Sennight 798e3ed", "id name Sennight v1.0-3-gabcdef-dirty"));
    ck_assert(!line_matches("id name Sennight 798e3ed", "id name Stockfish 16"));

    /* Gaps: any number of lines, and a block completes only once every line is matched. */
    const char *const pattern[] = { "info depth 1 pv c8f8", "...", "bestmove c7c5" };
    struct block b;
    block_start(&b, pattern, 3, false);
    ck_assert(!block_complete(&b));
    ck_assert(block_feed(&b, "info depth 1 pv f5f6"));
    ck_assert(block_feed(&b, "info depth 2 pv f5f6 c8f8"));
    ck_assert(block_feed(&b, "info nodes 100 time 1000"));
    ck_assert(!block_complete(&b));
    ck_assert(block_feed(&b, "bestmove f5f6"));
    ck_assert(block_complete(&b));
    /* The gap is still open: a line after the end (the last block reads on) is no longer complete. */
    ck_assert(block_feed(&b, "readyok"));
    ck_assert(!block_complete(&b));
    block_start(&b, pattern, 3, false);
    ck_assert(!block_feed(&b, "readyok"));
    /* After a block that ended in a gap, lines that run on are absorbed. */
    const char *const stopped[] = { "bestmove c7c5" };
    block_start(&b, stopped, 1, true);
    ck_assert(block_feed(&b, "info nodes 100 time 1000"));
    ck_assert(block_feed(&b, "bestmove f5f6"));
    ck_assert(block_complete(&b));
}
END_TEST

Suite *suite_docs(void)
{
    docs_read();
    Suite *s = suite_create("docs");
    TCase *tc = tcase_create("docs");
    tcase_set_timeout(tc, test_timeout(240));
    tcase_add_test(tc, test_docs_readable);
    tcase_add_test(tc, test_docs_matching);
    tcase_add_loop_test(tc, test_docs_session, 0, nsessions);
    suite_add_tcase(s, tc);
    return s;
}
