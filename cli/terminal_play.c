/* sennight play: a human against the engine in the terminal, the board drawn after every move. */
#include "terminal_play.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "../engine/engine.h"
#include "../games/pgn.h"
#include "../rules/diagram.h"
#include "../rules/registry.h"
#include "../util/file.h"

enum { FEN_LEN = 2048, ERR_LEN = 512, MOVE_LEN = 16, QUOTE_LEN = 24, TEXT_LEN = 4096, THINK_WIDTH = 78,
       LIST_WIDTH = 76 };

const char play_usage[] = "usage: sennight play [--variant NAME] [--side LETTER] [--time SECONDS] [--threads N] "
                            "[--hash MB] [--fen FEN] [--colour | --no-colour]\n";

struct options {
    const char *variant, *fen, *side;
    double seconds, threads, hash_mb;
    int colour;                 /* 1: always, 0: never, -1: on a terminal */
};

struct played {
    move_t move;
    int side;
    char text[MOVE_LEN];        /* UCI, to replay the game */
    char san[SAN_LEN];          /* as shown */
};

struct human_game {
    struct game g;
    struct search_pool *pool;
    char start_fen[FEN_LEN];
    struct played *moves;
    int nmoves, cap;
    int human;                  /* the player the human moves; the engine moves the others */
    int64_t think_ms;
    bool ansi;                  /* stdout is a terminal that takes escape codes */
    bool colour;
    struct search_report last;  /* the latest line the running search reported */
    move_t best;                /* the move it chose */
    char since[TEXT_LEN];       /* the engine's moves since the human's last: "e6 (w), Nf8 (b)" */
};

struct command {
    const char *name, *arg, *help;  /* arg: what follows the name ("FILE"), NULL for nothing */
    bool (*run)(struct human_game *p, const char *arg);   /* false: leave */
};

/* ------------------------------------------------------------------------------------------- */
/* Options */

static bool parse_number(const char *s, double lo, double hi, bool integer, double *out)
{
    char *end;
    double x = strtod(s, &end);
    if (end == s || *end || !(x >= lo && x <= hi) || (integer && x != (double)(long)x))
        return false;
    *out = x;
    return true;
}

/* 1: run, 0: --help, -1: a bad option (reported). */
static int options_parse(int argc, char **argv, struct options *o)
{
    *o = (struct options){ .variant = "glinski", .seconds = 2, .threads = 1, .hash_mb = TT_DEFAULT_MB, .colour = -1 };
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return 0;
        bool colour = !strcmp(a, "--colour") || !strcmp(a, "--color");
        if (colour || !strcmp(a, "--no-colour") || !strcmp(a, "--no-color")) {
            o->colour = colour;
            continue;
        }
        bool ok = val != NULL;
        if (ok && !strcmp(a, "--variant"))
            o->variant = val;
        else if (ok && !strcmp(a, "--fen"))
            o->fen = val;
        else if (ok && !strcmp(a, "--side"))
            o->side = val;
        else if (ok && !strcmp(a, "--time"))
            ok = parse_number(val, 0.01, 86400, false, &o->seconds);
        else if (ok && !strcmp(a, "--threads"))
            ok = parse_number(val, 1, MAX_THREADS, true, &o->threads);
        else if (ok && !strcmp(a, "--hash"))
            ok = parse_number(val, 1, TT_MAX_MB, true, &o->hash_mb);
        else
            ok = false;
        if (!ok) {
            fprintf(stderr, "sennight play: bad option '%s'%s%s%s\n", a, val ? " '" : "", val ? val : "",
                    val ? "'" : "");
            return -1;
        }
        i++;
    }
    return 1;
}

static bool find_variant(const char *name, const struct variant **v, char *err)
{
    *v = registry_find(name);
    if (*v)
        return true;
    int n = snprintf(err, ERR_LEN, "unknown variant '%s'; known:", name);
    for (int i = 0; i < registry_count() && n > 0 && n < ERR_LEN; i++)
        n += snprintf(err + n, (size_t)(ERR_LEN - n), " %s", registry_get(i)->name);
    return false;
}

static bool find_side(const struct variant *v, const char *letter, int *side, char *err)
{
    for (int s = 0; s < v->nplayers; s++)
        if (strlen(letter) == 1 && tolower((unsigned char)letter[0]) == v->colour_letter[s]) {
            *side = s;
            return true;
        }
    int n = snprintf(err, ERR_LEN, "unknown side '%s'; %s has", letter, v->name);
    for (int s = 0; s < v->nplayers && n > 0 && n < ERR_LEN; s++)
        n += snprintf(err + n, (size_t)(ERR_LEN - n), " %c", v->colour_letter[s]);
    return false;
}

static bool play_start(struct human_game *p, const struct options *o, char *err)
{
    const struct variant *v;
    if (!registry_init(err, ERR_LEN) || !find_variant(o->variant, &v, err))
        return false;
    p->human = 0;
    if ((o->side && !find_side(v, o->side, &p->human, err)) || !game_init(&p->g, v, false, err, ERR_LEN)
        || !game_set_position(&p->g, o->fen, NULL, 0, err, ERR_LEN))
        return false;
    if (!pool_configure(p->pool, (int)o->threads, (size_t)o->hash_mb)) {
        snprintf(err, ERR_LEN, "cannot set up %d threads and %d MB of hash", (int)o->threads, (int)o->hash_mb);
        return false;
    }
    game_fen(&p->g, p->start_fen, sizeof p->start_fen);
    p->think_ms = (int64_t)(o->seconds * 1000 + 0.5);
    const char *term = getenv("TERM"), *no_colour = getenv("NO_COLOR");
    p->ansi = isatty(STDOUT_FILENO) && term && strcmp(term, "dumb");
    p->colour = o->colour > 0 || (o->colour < 0 && p->ansi && !(no_colour && *no_colour));
    return true;
}

/* ------------------------------------------------------------------------------------------- */
/* The game: the start position and the moves played */

static int play_side(const struct human_game *p)
{
    return game_side(&p->g);
}

static bool play_over(struct human_game *p)
{
    return game_status(&p->g).outcome != GAME_ONGOING;
}

/* The position is replayed from the start after every change, so that moves, undo and new share
 * one path and the position always carries the history that repetitions need. */
static bool play_sync(struct human_game *p, char *err)
{
    char **texts = calloc((size_t)p->nmoves + 1, sizeof *texts);
    if (!texts) {
        snprintf(err, ERR_LEN, "out of memory");
        return false;
    }
    for (int i = 0; i < p->nmoves; i++)
        texts[i] = p->moves[i].text;
    bool ok = game_set_position(&p->g, p->start_fen, texts, p->nmoves, err, ERR_LEN);
    free(texts);
    return ok;
}

static bool play_move(struct human_game *p, move_t m)
{
    char err[ERR_LEN];
    if (p->nmoves == p->cap) {
        int cap = p->cap ? 2 * p->cap : 64;
        struct played *grown = realloc(p->moves, (size_t)cap * sizeof *grown);
        if (!grown) {
            printf("cannot play: out of memory\n");
            return false;
        }
        p->moves = grown;
        p->cap = cap;
    }
    struct played *pl = &p->moves[p->nmoves++];
    pl->move = m;
    pl->side = play_side(p);
    move_to_text(p->g.v, m, pl->text);
    san_write(&p->g, m, pl->san);
    if (!play_sync(p, err)) {
        p->nmoves--;
        printf("cannot play: %s\n", err);
        return false;
    }
    return true;
}

/* ------------------------------------------------------------------------------------------- */
/* Output */

static void score_text(int score, int armies, char *out, size_t len)
{
    if (score >= SCORE_MATE_BOUND)
        snprintf(out, len, "mate in %d", score_mate_moves(score, armies));
    else if (score <= -SCORE_MATE_BOUND)
        snprintf(out, len, "mated in %d", -score_mate_moves(score, armies));
    else
        snprintf(out, len, "%+.2f", score / 100.0);
}

static void count_text(uint64_t n, char *out, size_t len)
{
    if (n < 10000)
        snprintf(out, len, "%llu", (unsigned long long)n);
    else if (n < 10000000)
        snprintf(out, len, "%lluk", (unsigned long long)(n / 1000));
    else
        snprintf(out, len, "%.1fM", (double)n / 1e6);
}

/* The text as typed, shortened and with unprintable bytes as '?', fit to quote back. */
static void quote(const char *text, char *out)
{
    size_t n = 0;
    for (; text[n] && n < QUOTE_LEN; n++)
        out[n] = isprint((unsigned char)text[n]) ? text[n] : '?';
    strcpy(out + n, text[n] ? "..." : "");
}

static void print_result(struct human_game *p)
{
    struct game_status st = game_status(&p->g);
    char text[256];
    if (st.outcome == GAME_ONGOING)
        return;
    game_status_text(&p->g, st, text, sizeof text);
    int mine = st.score[p->human];
    printf("Result: %s\n", text);
    if (mine == st.den)
        printf("You win.");
    else if (mine == 0)
        printf("Sennight wins.");
    else if (2 * mine == st.den)
        printf("Draw.");
    else
        printf("You score %d/%d.", mine, st.den);
    printf(" Type 'new' for another game, 'undo' to take back your last move, or 'quit'.\n");
}

/* The board (on a terminal, on a cleared screen) with the last move marked, a message, the result. */
static void show(struct human_game *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void show(struct human_game *p, const char *fmt, ...)
{
    /* Cells named on the board, so that a move is read off it rather than counted out. */
    struct diagram_style st = { .colour = p->colour, .names = true, .mark = { CELL_NONE, CELL_NONE } };
    struct setup s;
    if (p->nmoves) {
        st.mark[0] = move_from(p->moves[p->nmoves - 1].move);
        st.mark[1] = move_to(p->moves[p->nmoves - 1].move);
    }
    game_setup(&p->g, &s);
    if (p->ansi)
        fputs("\033[H\033[2J", stdout);
    diagram_draw(stdout, p->g.v, &s, &st);
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    /* On the same line, so that the board, this line and the prompt fit 24 lines. */
    if (play_side(p) == p->human && game_in_check(&p->g) && !play_over(p))
        printf(" You are in check.");
    for (int i = 0; i < p->g.neliminated; i++)
        printf("%s%c", i ? " " : " Eliminated: ", p->g.v->colour_letter[p->g.eliminated[i]]);
    putchar('\n');
    print_result(p);
}

static int compare_text(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* Space-separated legal moves in SAN, all or those from one cell (-1: all), sorted; returns how many. */
static int legal_list(struct human_game *p, int from, char *out, size_t len)
{
    move_t list[MAX_MOVES];
    char texts[MAX_MOVES][SAN_LEN];
    int n = game_legal_moves(&p->g, list), k = 0;
    for (int i = 0; i < n; i++)
        if (from < 0 || move_from(list[i]) == from)
            san_write(&p->g, list[i], texts[k++]);
    qsort(texts, (size_t)k, sizeof *texts, compare_text);
    size_t used = 0;
    out[0] = 0;
    for (int i = 0; i < k && used + SAN_LEN < len; i++)
        used += (size_t)snprintf(out + used, len - used, "%s%s", i ? " " : "", texts[i]);
    return k;
}

/* A move to show as an example: the first legal move here in the list's order, so that it is a move
 * of this variant; two cell names when the game is over. */
static void example_move(struct human_game *p, char *out, size_t len)
{
    char list[TEXT_LEN];
    if (!legal_list(p, -1, list, sizeof list))
        snprintf(out, len, "two cell names");
    else
        snprintf(out, len, "%.*s", (int)strcspn(list, " "), list);
}

/* Whether a cell of the board is named in the text (a move in SAN names its target). */
static bool names_cell(const struct geometry *geo, const char *text)
{
    for (; *text; text++)
        if (geo_parse_cell(geo, text, NULL) != CELL_NONE)
            return true;
    return false;
}

/* The piece letter that names what stands on the from-cell of a move written as two cells. */
static bool letter_fits(struct human_game *p, const struct setup *s, int from, char letter)
{
    const struct variant *v = p->g.v;
    if (!letter || (s->piece[from] && v->piece[piece_type(s->piece[from])].letter == toupper((unsigned char)letter)))
        return true;
    if (!s->piece[from])
        printf("there is no piece on %s, so no %c\n", v->geo.name[from], toupper((unsigned char)letter));
    else
        printf("the piece on %s is a %s (%c), not %c\n", v->geo.name[from], v->piece[piece_type(s->piece[from])].name,
               v->piece[piece_type(s->piece[from])].letter, toupper((unsigned char)letter));
    return false;
}

/* Why a move the game refused (err) is wrong, in one line. Written as two cells (a piece letter first,
 * '-', 'x' or ':' between them allowed: "Nc1e3", "f5-f6"): what stands on the first and where it may
 * go; otherwise the reader's reason. */
static void explain_illegal(struct human_game *p, const char *text, const char *err)
{
    const struct variant *v = p->g.v;
    char lower[QUOTE_LEN + 1], q[QUOTE_LEN + 4], list[TEXT_LEN], example[SAN_LEN + 16];
    struct setup s;
    size_t len = 0;
    for (; text[len] && len < QUOTE_LEN; len++)
        lower[len] = (char)tolower((unsigned char)text[len]);
    lower[len] = 0;
    int n = 0, from = geo_parse_cell(&v->geo, lower, &n), to = CELL_NONE;
    char letter = 0;
    if (from == CELL_NONE && isalpha((unsigned char)lower[0]) && (from = geo_parse_cell(&v->geo, lower + 1, &n)) != CELL_NONE)
        letter = text[0];
    const char *rest = lower + (letter != 0) + n;
    rest += *rest && strchr("-x:", *rest) && geo_parse_cell(&v->geo, rest + 1, NULL) != CELL_NONE;
    if (from != CELL_NONE)
        to = geo_parse_cell(&v->geo, rest, NULL);
    if (to == CELL_NONE) {
        int digits = (int)strspn(text + 1, "0123456789");
        example_move(p, example, sizeof example);
        quote(text, q);
        if (from == CELL_NONE && isalpha((unsigned char)text[0]) && digits)
            printf("there is no cell %.*s on this board\n", 1 + (digits < 2 ? digits : 2), text);
        else if (names_cell(&v->geo, text))
            printf("%s ('moves' lists the legal moves)\n", err);
        else
            printf("'%s' is neither a move nor a command: moves look like %s ('moves' lists them); "
                   "'help' lists the commands\n", q, example);
        return;
    }
    snprintf(q, sizeof q, "%s%s", v->geo.name[from], rest);
    game_setup(&p->g, &s);
    if (!letter_fits(p, &s, from, letter))
        return;
    if (!s.piece[from] || piece_colour(s.piece[from]) != play_side(p)) {
        printf("no piece of yours on %s\n", v->geo.name[from]);
        return;
    }
    const char *check = game_in_check(&p->g) ? " (you are in check)" : "";
    if (!legal_list(p, from, list, sizeof list))
        printf("your %s on %s has no legal move%s\n", v->piece[piece_type(s.piece[from])].name, v->geo.name[from],
               check);
    else
        printf("illegal move '%s': legal moves from %s are %s%s\n", q, v->geo.name[from], list, check);
}

/* ------------------------------------------------------------------------------------------- */
/* The engine thinking */

static void think_report(void *ctx, const struct search_report *r)
{
    struct human_game *p = ctx;
    if (r->multipv != 1)
        return;
    p->last = *r;
    if (r->bound != BOUND_EXACT)
        return;
    char score[32], nodes[32], line[TEXT_LEN];
    score_text(r->score, r->armies, score, sizeof score);
    count_text(r->nodes, nodes, sizeof nodes);
    int n = snprintf(line, sizeof line, "  depth %2d  %-10s %6s nodes %5.1f s  pv ", r->depth, score, nodes,
                     (double)r->time_ms / 1000);
    /* The game stands still while its search runs: the line is written from its position. */
    if (n > 0 && n < (int)sizeof line)
        san_line(&p->g, r->pv, r->pvlen, line + n, sizeof line - (size_t)n);
    /* On a terminal one line is rewritten in place; elsewhere each iteration is a line. */
    if (p->ansi)
        printf("\r\033[K%.*s", THINK_WIDTH, line);
    else
        printf("%s\n", line);
    fflush(stdout);
}

static void keep_best(void *ctx, move_t best, move_t ponder)
{
    (void)ponder;
    ((struct human_game *)ctx)->best = best;
}

/* Searches the position for the side to move; MOVE_NONE if the search cannot start. */
static move_t think(struct human_game *p)
{
    struct search_limits l = { .movetime = p->think_ms };
    const struct search_callbacks cb = { think_report, NULL, keep_best, p };
    for (int i = 0; i < MAX_PLAYERS; i++)
        l.time[i] = l.inc[i] = -1;
    p->last = (struct search_report){ 0 };
    p->best = MOVE_NONE;
    /* The search and the player take turns: nothing changes the weights while one runs. */
    if (!pool_go(p->pool, &p->g, &l, NULL, 1, 0, &cb)) {
        printf("cannot start the search (out of memory or threads)\n");
        return MOVE_NONE;
    }
    pool_wait(p->pool);
    if (p->ansi)
        fputs("\r\033[K", stdout);
    return p->best;
}

/* " Its score: +0.35 at depth 12." from the searching side's view, if the latest line reported
 * starts with the move chosen (a stopped iteration may have found a better one). */
static void last_score(const struct human_game *p, move_t best, const char *whose, char *out, size_t len)
{
    const struct search_report *r = &p->last;
    char score[32];
    out[0] = 0;
    if (!r->pvlen || r->pv[0] != best)
        return;
    score_text(r->score, r->armies, score, sizeof score);
    snprintf(out, len, " %s score: %s%s at depth %d.", whose,
             r->bound == BOUND_LOWER ? "at least " : r->bound == BOUND_UPPER ? "at most " : "", score, r->depth);
}

/* Every move the engine made since the human's, so that with three players the human hears of both
 * armies' moves, not only of the last. */
static bool engine_move(struct human_game *p)
{
    char score[128];
    int side = play_side(p);
    move_t m = think(p);
    if (m == MOVE_NONE || !play_move(p, m))
        return false;
    const char *text = p->moves[p->nmoves - 1].san;
    size_t n = strlen(p->since);
    if (p->g.v->nplayers > 2)
        snprintf(p->since + n, sizeof p->since - n, "%s%s (%c)", n ? ", " : "", text, p->g.v->colour_letter[side]);
    else
        snprintf(p->since, sizeof p->since, "%s", text);
    last_score(p, m, "Its", score, sizeof score);
    show(p, "Sennight played %s.%s", p->since, score);
    return true;
}

static void human_move(struct human_game *p, const char *text)
{
    char err[ERR_LEN];
    move_t m;
    if (play_over(p)) {
        printf("the game is over: type 'new', 'undo' or 'quit'\n");
    } else if (!game_parse_move(&p->g, text, &m, err, sizeof err)) {
        explain_illegal(p, text, err);
    } else if (play_move(p, m)) {
        p->since[0] = 0;
        show(p, "You played %s.", p->moves[p->nmoves - 1].san);
    }
}

/* ------------------------------------------------------------------------------------------- */
/* Commands */

static bool cmd_help(struct human_game *p, const char *arg);

/* Words wrapped at spaces (a word longer than a line is cut), indented. */
static void print_wrapped(const char *s)
{
    while (*s) {
        size_t take = strlen(s);
        if (take > LIST_WIDTH) {
            take = LIST_WIDTH;
            while (take && s[take] != ' ')
                take--;
            take = take ? take : LIST_WIDTH;
        }
        printf("  %.*s\n", (int)take, s);
        s += take + (s[take] == ' ');
    }
}

static bool cmd_moves(struct human_game *p, const char *arg)
{
    (void)arg;
    char list[MAX_MOVES * SAN_LEN];
    int n = play_over(p) ? 0 : legal_list(p, -1, list, sizeof list);
    if (!n) {
        printf("no moves: the game is over\n");
        return true;
    }
    printf("%d legal moves:\n", n);
    print_wrapped(list);
    return true;
}

static bool cmd_undo(struct human_game *p, const char *arg)
{
    (void)arg;
    char err[ERR_LEN];
    int n = p->nmoves;
    while (n > 0 && p->moves[n - 1].side != p->human)
        n--;
    if (!n) {
        printf("nothing to undo: you have not moved yet\n");
        return true;
    }
    int taken = p->nmoves - (n - 1);
    p->nmoves = n - 1;
    p->since[0] = 0;
    if (!play_sync(p, err))
        printf("cannot undo: %s\n", err);
    else
        show(p, "Took back %d move%s.", taken, taken == 1 ? "" : "s");
    return true;
}

static bool cmd_hint(struct human_game *p, const char *arg)
{
    (void)arg;
    char text[SAN_LEN], score[128];
    if (play_over(p)) {
        printf("the game is over: no hint\n");
        return true;
    }
    move_t m = think(p);
    if (m != MOVE_NONE) {
        san_write(&p->g, m, text);
        last_score(p, m, "Your", score, sizeof score);
        printf("hint: %s.%s\n", text, score);
    }
    return true;
}

static bool cmd_fen(struct human_game *p, const char *arg)
{
    (void)arg;
    char fen[FEN_LEN];
    game_fen(&p->g, fen, sizeof fen);
    printf("Fen: %s\n", fen);
    return true;
}

static bool cmd_board(struct human_game *p, const char *arg)
{
    (void)arg;
    show(p, "%s", "");
    return true;
}

static bool cmd_new(struct human_game *p, const char *arg)
{
    (void)arg;
    char err[ERR_LEN];
    int old = p->nmoves;
    p->nmoves = 0;
    if (!play_sync(p, err)) {
        p->nmoves = old;
        printf("cannot start a new game: %s\n", err);
        return true;
    }
    pool_clear(p->pool);
    p->since[0] = 0;
    show(p, "New game.");
    return true;
}

static bool cmd_quit(struct human_game *p, const char *arg)
{
    (void)p, (void)arg;
    return false;
}

/* The game as the match runner records it (games/game_record.h): its moves replayed on a game of
 * their own from the first position, the result once the game is over. */
static bool play_record(struct human_game *p, struct game_record *rec, char *err)
{
    struct game g = { 0 };
    *rec = (struct game_record){ .culprit = -1, .den = 1, .narmies = p->g.v->nplayers, .term = TERM_ABANDONED };
    size_t len = strlen(p->start_fen);
    if (len >= sizeof rec->fen) {
        snprintf(err, ERR_LEN, "the first position's FEN is too long for a record");
        return false;
    }
    memcpy(rec->fen, p->start_fen, len + 1);
    bool ok = game_init(&g, p->g.v, false, err, ERR_LEN) && game_set_position(&g, p->start_fen, NULL, 0, err, ERR_LEN);
    int fullmove = 0;
    for (int c = 0; ok && c < rec->narmies; c++)
        rec->left[c] = game_armies(&g) >> c & 1 ? -1 : 0;
    for (int i = 0; ok && i < p->nmoves; i++)
        game_record_move(p->g.v, &g, rec, p->moves[i].move, &fullmove, NULL);
    struct game_status st = ok ? game_status(&g) : (struct game_status){ .outcome = GAME_ONGOING };
    if (st.outcome != GAME_ONGOING)
        game_record_end(p->g.v, rec, st, game_side(&g), game_armies(&g));
    game_free(&g);
    return ok;
}

static bool cmd_history(struct human_game *p, const char *arg)
{
    (void)arg;
    struct game_record rec;
    char err[ERR_LEN];
    if (!p->nmoves) {
        printf("no moves yet\n");
        return true;
    }
    if (!play_record(p, &rec, err)) {
        printf("cannot list the moves: %s\n", err);
        game_record_free(&rec);
        return true;
    }
    char *line = strdup(text_str(&rec.movetext));
    for (char *c = line; c && *c; c++)
        *c = *c == '\n' ? ' ' : *c;
    printf("%d move%s:\n", p->nmoves, p->nmoves == 1 ? "" : "s");
    print_wrapped(line ? line : "");
    free(line);
    game_record_free(&rec);
    return true;
}

struct saved {
    const struct human_game *p;
    const struct game_record *rec;
};

static bool write_pgn(FILE *f, const void *ctx)
{
    const struct saved *s = ctx;
    char date[16];
    time_t now = time(NULL);
    struct tm tm;
    strftime(date, sizeof date, "%Y.%m.%d", localtime_r(&now, &tm));
    struct pgn_tags tags = { .v = s->p->g.v, .event = "Sennight terminal game", .date = date, .round = 1,
                             .time_control = "-" };
    for (int c = 0; c < s->p->g.v->nplayers; c++)
        tags.player[c] = c == s->p->human ? "Human" : "Sennight";
    pgn_write(f, &tags, s->rec);
    return !ferror(f);
}

/* The game as `sennight match -pgnout` writes its records, the file replaced whole. */
static bool cmd_save(struct human_game *p, const char *arg)
{
    struct game_record rec;
    char err[ERR_LEN];
    if (!*arg) {
        printf("usage: save FILE\n");
        return true;
    }
    if (!play_record(p, &rec, err) || !file_replace(arg, write_pgn, &(struct saved){ p, &rec }, err, sizeof err))
        printf("cannot save: %s\n", err);
    else
        printf("saved %d move%s to %s\n", p->nmoves, p->nmoves == 1 ? "" : "s", arg);
    game_record_free(&rec);
    return true;
}

static const struct command commands[] = {
    { "moves", NULL, "list your legal moves", cmd_moves },
    { "undo", NULL, "take back your last move and the engine's reply", cmd_undo },
    { "hint", NULL, "let the engine suggest a move", cmd_hint },
    { "history", NULL, "list the moves played", cmd_history },
    { "save", "FILE", "write the game to FILE as PGN (as the match runner writes its records)", cmd_save },
    { "fen", NULL, "print the position as FEN", cmd_fen },
    { "board", NULL, "draw the board again", cmd_board },
    { "new", NULL, "start again from the first position", cmd_new },
    { "help", NULL, "this list", cmd_help },
    { "quit", NULL, "leave (so does end of input)", cmd_quit },
};

static bool cmd_help(struct human_game *p, const char *arg)
{
    (void)arg;
    char example[SAN_LEN + 16];
    example_move(p, example, sizeof example);
    printf("Type a move in algebraic notation, as %s ('moves' lists them; docs/notation.md), or as its\n"
           "two cells and a promotion letter if any (f5f6, Nc1e3, f5-f6).\n"
           "Scores are in pawns from the view of the side that searched; mates count moves.\n", example);
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        char name[32];
        snprintf(name, sizeof name, "%s%s%s", commands[i].name, commands[i].arg ? " " : "",
                 commands[i].arg ? commands[i].arg : "");
        printf("  %-12s %s\n", name, commands[i].help);
    }
    return true;
}

/* One input line: a command or a move; false to leave. */
static bool play_line(struct human_game *p, char *line, size_t len)
{
    if (memchr(line, 0, len)) {
        printf("the line holds a NUL byte: ignored\n");
        return true;
    }
    char *word = line + strspn(line, " \t\r\n"), *end = word + strcspn(word, " \t\r\n");
    char *rest = end + strspn(end, " \t\r\n");
    if (!*word)
        return true;
    /* What follows a command's name is its argument, as typed (a file name keeps its case). */
    for (size_t n = strlen(rest); n && strchr(" \t\r\n", rest[n - 1]); n--)
        rest[n - 1] = 0;
    *end = 0;
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (!strcasecmp(word, commands[i].name) && (*rest == 0 || commands[i].arg))
            return commands[i].run(p, rest);
    if (*rest) {
        printf("one move or command per line, please\n");
        return true;
    }
    human_move(p, word);
    return true;
}

static void prompt(struct human_game *p)
{
    if (play_over(p))
        printf("new, undo or quit: ");
    else
        printf("your move (%c): ", p->g.v->colour_letter[p->human]);
    fflush(stdout);
}

/* Until quit or end of input; 1 if the engine could not move. */
static int play_loop(struct human_game *p)
{
    char *line = NULL;
    size_t cap = 0;
    int status = 0;
    show(p, "%s: you play %c, Sennight thinks %.1f s a move; 'help' lists the commands.", p->g.v->name,
         p->g.v->colour_letter[p->human], (double)p->think_ms / 1000);
    for (bool running = true; running;) {
        if (!play_over(p) && play_side(p) != p->human) {
            running = engine_move(p);
            status = !running;
            continue;
        }
        prompt(p);
        ssize_t len = getline(&line, &cap, stdin);
        if (len < 0) {
            putchar('\n');
            break;
        }
        running = play_line(p, line, (size_t)len);
    }
    free(line);
    return status;
}

int play_main(int argc, char **argv)
{
    struct options o;
    int parsed = options_parse(argc, argv, &o);
    if (parsed <= 0) {
        fputs(play_usage, parsed ? stderr : stdout);
        return parsed ? 2 : 0;
    }
    char err[ERR_LEN];
    struct human_game *p = calloc(1, sizeof *p);
    bool ready = p && (p->pool = pool_new());
    int status = 1;
    if (!ready)
        fprintf(stderr, "sennight play: out of memory\n");
    else if (!play_start(p, &o, err))
        fprintf(stderr, "sennight play: %s\n", err);
    else
        status = play_loop(p);
    if (ready) {
        pool_free(p->pool);
        game_free(&p->g);
        free(p->moves);
    }
    free(p);
    return status;
}
