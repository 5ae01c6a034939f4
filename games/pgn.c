/* Writing the match runner's game records: PGN-like, with the variant and the starting FEN. */
#include "pgn.h"

#include <stdlib.h>
#include <string.h>

enum { LINE_WIDTH = 79 };

static int gcd(int a, int b)
{
    return b ? gcd(b, a % b) : a;
}

/* A score as a reduced fraction: "1", "0", "1/2", "3/4". */
static void score_text(int num, int den, char *out, size_t len)
{
    int d = gcd(num, den);
    num /= d, den /= d;
    if (den == 1)
        snprintf(out, len, "%d", num);
    else
        snprintf(out, len, "%d/%d", num, den);
}

void pgn_result(const struct game_record *r, char *out, size_t len)
{
    char score[16];
    size_t n = 0;
    if (!game_record_scored(r)) {
        snprintf(out, len, "*");
        return;
    }
    for (int c = 0; c < r->narmies && n < len; c++) {
        score_text(r->num[c], r->den, score, sizeof score);
        n += (size_t)snprintf(out + n, len - n, "%s%s", c ? "-" : "", score);
    }
}

const char *pgn_termination(enum termination term)
{
    static const char *const names[TERM_COUNT] = {
        [TERM_CHECKMATE] = "checkmate",         [TERM_STALEMATE] = "stalemate",
        [TERM_REPETITION] = "repetition",       [TERM_FIFTY_MOVES] = "100-ply rule",
        [TERM_LAST_ARMY] = "last army",
        [TERM_ADJUDICATED_DRAW] = "adjudication", [TERM_RESIGNATION] = "adjudication",
        [TERM_TIME] = "time forfeit",           [TERM_ILLEGAL] = "illegal move",
        [TERM_CRASH] = "engine crash",          [TERM_STALL] = "stalled connection",
        [TERM_ABANDONED] = "abandoned",         [TERM_FATAL] = "abandoned",
    };
    return names[term];
}

void pgn_evaluation(const struct uci_reply *reply, char *out, size_t len)
{
    int n = 0, ms = (int)(reply->elapsed / 1000), score = reply->score, distance = UCI_MATE_SCORE - abs(score);
    if (reply->has_score && reply->depth > 0) {
        /* UCI gives mates in moves; cutechess writes them in plies. */
        if (distance < 1000)
            n = snprintf(out, len, "%sM%d/%d ", score > 0 ? "+" : "-", score > 0 ? 2 * distance - 1 : 2 * distance,
                         reply->depth);
        else
            n = snprintf(out, len, "%s%.2f/%d ", score > 0 ? "+" : "", score / 100.0, reply->depth);
    }
    int precision = ms < 100 ? 3 : ms < 1000 ? 2 : ms < 10000 ? 1 : 0;
    if (n >= 0 && (size_t)n < len)
        snprintf(out + n, len - (size_t)n, "%.*fs", ms ? precision : 0, ms / 1000.0);
}

void pgn_eval_comment(int score, char *out, size_t len)
{
    int distance = UCI_MATE_SCORE - abs(score);
    if (distance < 1000)
        snprintf(out, len, "[%%eval #%s%d]", score > 0 ? "" : "-", distance);
    else
        snprintf(out, len, "[%%eval %.2f]", score / 100.0);
}

/* Appends one movetext token, wrapping lines at LINE_WIDTH. */
static void put_token(FILE *f, const char *token, int *column)
{
    int n = (int)strlen(token);
    if (*column && *column + 1 + n > LINE_WIDTH) {
        fputc('\n', f);
        *column = 0;
    }
    *column += fprintf(f, "%s%s", *column ? " " : "", token);
}

/* A tag pair, with quotes and backslashes in the value escaped as PGN asks. */
static void put_tag(FILE *f, const char *name, const char *value)
{
    fprintf(f, "[%s \"", name);
    for (const char *c = value; *c; c++) {
        if (*c == '"' || *c == '\\')
            fputc('\\', f);
        fputc(*c, f);
    }
    fputs("\"]\n", f);
}

void pgn_write(FILE *f, const struct pgn_tags *tags, const struct game_record *r)
{
    char result[64], number[32], token[sizeof r->reason + 2];
    pgn_result(r, result, sizeof result);
    snprintf(number, sizeof number, "%d", tags->round);
    put_tag(f, "Event", tags->event);
    put_tag(f, "Site", "?");
    put_tag(f, "Date", tags->date);
    put_tag(f, "Round", number);
    if (tags->has_seed) {
        snprintf(number, sizeof number, "%llu", tags->seed);
        put_tag(f, "Seed", number);
    }
    for (int c = 0; c < r->narmies; c++)
        put_tag(f, play_colour_name(tags->v, c), tags->player[c]);
    put_tag(f, "Result", result);
    put_tag(f, "Variant", tags->v->name);
    put_tag(f, "FEN", r->fen);
    put_tag(f, "SetUp", "1");
    put_tag(f, "TimeControl", tags->time_control);
    snprintf(number, sizeof number, "%d", r->nmoves);
    put_tag(f, "PlyCount", number);
    put_tag(f, "Termination", pgn_termination(r->term));
    fputc('\n', f);
    int column = 0;
    size_t held = 0;
    const char *movetext = text_str(&r->movetext);
    while (*movetext) {
        int n = (int)strcspn(movetext, "\n");
        snprintf(token + held, sizeof token - held, "%.*s", n, movetext);
        movetext += n + (movetext[n] == '\n');
        /* A variation's "(" is a line of its own, written against the move after it. */
        held = strcmp(token + held, "(") ? 0 : held + 1;
        if (!held)
            put_token(f, token, &column);
    }
    if (r->reason[0]) {
        /* The reason quotes engine output, which must not close the comment early. */
        snprintf(token, sizeof token, "{%s}", r->reason);
        for (char *c = token + 1; c[1]; c++)
            if (*c == '{' || *c == '}')
                *c = '|';
        put_token(f, token, &column);
    }
    put_token(f, result, &column);
    fputs("\n\n", f);
}
