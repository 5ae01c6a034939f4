/* The search: mates in every variant, proved by an exhaustive solver; stalemate sought or avoided as
 * each variant scores it; and, through the real executable ($SENNIGHT) as a GUI drives it, the go
 * limits, stop, ponder, quit, MultiPV, threads, option errors and determinism. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../engine/skill.h"
#include "../engine/threads.h"
#include "../eval/weights.h"
#include "engine_pipe.h"
#include "reference.h"
#include "tests.h"
#include "../util/clock.h"

/* A Glinski middlegame (from the bench list): long searches, many legal moves. */
#define MIDDLEGAME "6/2PN2p/1P3p1r/1R2P1pb1/Q2P2p1k1/1BB2Ppr1qb/KBNP1P4/1R4p2/1P3np1/P3pn1/6 w - - 5 16"
/* Glinski after f5f6: Black to move. */
#define GLINSKI_F5F6 "6/P5p/RP4pr/N1P3p1n/Q2P2p2q/BBB2Pp1bbb/K2P2p2k/N1P3p1n/RP4pr/P5p/6 b - - 0 1"

/* Queen and rook against the king on b7: only h2e7 mates in 2. */
#define QUEEN_ROOK_MATE "6/6k/4K3/9/10/11/10/RQ7/8/7/6 w - - 0 1"

struct mate_position {
    const char *variant, *fen;
    int moves;                 /* the side to move mates in this many moves (at least 2), not fewer */
};

/* Each has one mating first move only, as the exhaustive solver below found. */
static const struct mate_position mates[] = {
    { "glinski", QUEEN_ROOK_MATE, 2 },
    /* Black promotes first, b2b1q, and mates with queen and rook. */
    { "glinski", "6/1p1k3/8/9/10/11/9K/9/8/7/3r2 b - - 0 1", 3 },
    /* Black queen and bishop: b2e8. */
    { "mccooey", "6/1q5/8/4P4/10/11/1b7K/6k2/8/7/6 b - - 0 1", 2 },
    /* Queen and knight: h6f4. */
    { "mccooey", "6/7/6K1/9/10/2k8/10/5Q3/2N5/7/6 w - - 0 1", 3 },
    /* Wellisch orientation, Black to move: the quiet king move d3f4, although i3h3 mates in 3. */
    { "haynie", "6/f6/8/2k6/10/7P3/10/K8/2q5/7/6 b - - 0 1", 2 },
    /* Rook and firzan: the king steps aside, e9d7. */
    { "haynie", "5k/7/8/4R4/8K1/11/4F5/9/8/7/6 w - - 0 1", 3 },
    /* Sailor and Pacey's unicorn: k7b3, although k7e6 mates in 3. */
    { "full-house", "6/7/8/9/1k8/7U3/K9/9/8/6S/6 w - - 0 1", 2 },
    /* Sailor and unicorn again: h4e6. */
    { "full-house", "6/7/8/6k2/1K8/11/8U1/3S5/8/7/6 w - - 0 1", 3 },
};

enum { MOVE_TEXT = 16, PV_MAX = MAX_PLY };

/* ------------------------------------------------------------------------------------------- */
/* An exhaustive mate solver on the engine's move generator, independent of the search. */

static bool defender_mated(struct game *g, int n);

/* Whether the side to move mates within n (>= 1) of its moves whatever the defence. */
static bool mates_within(struct game *g, int n)
{
    move_t list[MAX_MOVES];
    int count = g->ops->movegen_legal(g->pos, list);
    bool found = false;
    for (int i = 0; i < count && !found; i++) {
        g->ops->position_make(g->pos, list[i]);
        found = defender_mated(g, n - 1);
        g->ops->position_unmake(g->pos, list[i]);
    }
    return found;
}

/* Whether the side to move is checkmated now or, whatever it plays, within n more enemy moves. */
static bool defender_mated(struct game *g, int n)
{
    move_t list[MAX_MOVES];
    int count = g->ops->movegen_legal(g->pos, list);
    if (!count)
        return g->ops->position_in_check(g->pos);
    bool mated = n > 0;
    for (int i = 0; i < count && mated; i++) {
        g->ops->position_make(g->pos, list[i]);
        mated = mates_within(g, n);
        g->ops->position_unmake(g->pos, list[i]);
    }
    return mated;
}

static move_t parse_move(struct game *g, const char *text)
{
    char err[256];
    move_t m = MOVE_NONE;
    ck_assert_msg(game_parse_move(g, text, &m, err, sizeof err), "%s", err);
    return m;
}

/* ------------------------------------------------------------------------------------------- */
/* Searches through the pool, as bench.c drives it. */

struct pool_result {
    move_t best;
    int score, depth;
};

static void keep_report(void *ctx, const struct search_report *r)
{
    struct pool_result *res = ctx;
    if (r->multipv == 1 && r->bound == BOUND_EXACT) {
        res->score = r->score;
        res->depth = r->depth;
    }
}

static void keep_best(void *ctx, move_t best, move_t ponder)
{
    (void)ponder;
    ((struct pool_result *)ctx)->best = best;
}

struct pool_run {
    struct search_pool *pool;
    struct pool_result res;
    int depth;
};

/* Starts one search of the game's position to the depth, with a fresh table, the three-player
 * algorithm and the weights; only: the one root move searched, or MOVE_NONE for all. */
static void pool_start(struct pool_run *run, struct game *g, int depth, move_t only, enum search3 algorithm,
                       const struct eval_weights *w)
{
    struct search_limits l = { .depth = depth, .nsearchmoves = only != MOVE_NONE, .searchmoves = { only } };
    for (int p = 0; p < MAX_PLAYERS; p++)
        l.time[p] = l.inc[p] = -1;
    run->res = (struct pool_result){ MOVE_NONE, SCORE_NONE, 0 };
    run->depth = depth;
    const struct search_callbacks cb = { keep_report, NULL, keep_best, &run->res };
    ck_assert((run->pool = pool_new()));
    pool_set_search3(run->pool, algorithm);
    ck_assert(pool_configure(run->pool, 1, 1));
    ck_assert(pool_go(run->pool, g, &l, w, 1, 0, &cb));
}

/* Waits for the search pool_start started, which must complete its depth. */
static struct pool_result pool_finish(struct pool_run *run)
{
    pool_wait(run->pool);
    pool_free(run->pool);
    ck_assert_msg(run->res.depth == run->depth, "the search reported depth %d of %d", run->res.depth, run->depth);
    return run->res;
}

static struct pool_result pool_search3(struct game *g, int depth, move_t only, enum search3 algorithm)
{
    struct pool_run run;
    pool_start(&run, g, depth, only, algorithm, &eval_weights_default);
    return pool_finish(&run);
}

static struct pool_result pool_search(struct game *g, int depth, move_t only)
{
    return pool_search3(g, depth, only, SEARCH3_BRS);
}

/* What a stalemate is worth to the side that delivers it: the two sides' scores differ by
 * num/den - (den-num)/den of a point, and a whole point is stalemate_scale (eval/weights.h). */
static int stalemate_worth(const struct variant *v)
{
    return eval_weights_default.stalemate_scale * (2 * v->stalemate_num - v->stalemate_den) / v->stalemate_den;
}

/* The score of a stalemate delivered within a few plies, allowing for a preference for the nearest. */
static bool near(int score, int target)
{
    return abs(score - target) <= 10;
}

/* Whether playing the move leaves the opponent stalemated. */
static bool stalemates(struct game *g, move_t m)
{
    g->ops->position_make(g->pos, m);
    bool stalemate = game_status(g).outcome == GAME_STALEMATE;
    g->ops->position_unmake(g->pos, m);
    return stalemate;
}

/* ------------------------------------------------------------------------------------------- */
/* The executable: what one command printed up to its bestmove (or up to readyok). */

/* An info line of a finished iteration. */
struct info {
    int depth, multipv, score, hashfull, pvlen;
    bool mate;                     /* score mate N, not cp N */
    unsigned long long nodes;
    char pv[PV_MAX][MOVE_TEXT];
};

/* Bounds from a failed aspiration window are only in the transcript. */
struct search_out {
    struct info *info;
    int ninfo;
    int lines, errors, bestmoves;  /* every line, info string error lines, bestmove lines */
    char bestmove[MOVE_TEXT], ponder[MOVE_TEXT];
    long long ms;                  /* from the command to the (first) bestmove */
    char transcript[1 << 16];      /* every line but progress, without time and nps, which vary run to run */
    size_t len;
};

/* How long anything may take before the engine counts as hung. */
static int hang_ms(void)
{
    return (int)(test_timeout(10.0) * 1000);
}

/* Slack on top of a time limit: scheduling, pipes and, under the sanitizers, slower code. */
static long long slack_ms(void)
{
    return (long long)(test_timeout(0.25) * 1000);
}

static void pause_ms(long ms)
{
    struct timespec t = { ms / 1000, ms % 1000 * 1000000 };
    while (nanosleep(&t, &t) && errno == EINTR)
        continue;
}

static void engine_send(struct proc *p, const char *text)
{
    ck_assert_msg(pipe_send(p, text, hang_ms()), "the engine does not take '%s'", text);
}

static const char *next_word(char **save)
{
    const char *t = strtok_r(NULL, " ", save);
    return t ? t : "";
}

static struct info parse_info(const char *line)
{
    char buf[8192], *save, *t;
    struct info in = { 0 };
    snprintf(buf, sizeof buf, "%s", line);
    strtok_r(buf, " ", &save);
    while ((t = strtok_r(NULL, " ", &save)) && strcmp(t, "pv")) {
        if (!strcmp(t, "depth"))
            in.depth = atoi(next_word(&save));
        else if (!strcmp(t, "multipv"))
            in.multipv = atoi(next_word(&save));
        else if (!strcmp(t, "hashfull"))
            in.hashfull = atoi(next_word(&save));
        else if (!strcmp(t, "nodes"))
            in.nodes = strtoull(next_word(&save), NULL, 10);
        else if (!strcmp(t, "cp") || !strcmp(t, "mate")) {
            in.mate = t[0] == 'm';
            in.score = atoi(next_word(&save));
        }
    }
    while ((t = strtok_r(NULL, " ", &save)) && in.pvlen < PV_MAX)
        snprintf(in.pv[in.pvlen++], MOVE_TEXT, "%s", t);
    return in;
}

/* Appends a word and a separator to the transcript, cutting it short when full. */
static void transcript_add(struct search_out *out, const char *word, const char *sep)
{
    size_t room = sizeof out->transcript - out->len;
    size_t n = (size_t)snprintf(out->transcript + out->len, room, "%s%s", word, sep);
    out->len += n < room ? n : room - 1;
}

/* Adds the line to the transcript without its time and nps fields; the progress lines (currmove and
 * a node count) come by the clock, so a loaded machine prints others, and are left out. */
static void transcribe(struct search_out *out, const char *line)
{
    char buf[8192], *save;
    if (strstr(line, " currmove ") || !strncmp(line, "info nodes ", 11))
        return;
    snprintf(buf, sizeof buf, "%s", line);
    for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        if (!strcmp(t, "time") || !strcmp(t, "nps"))
            strtok_r(NULL, " ", &save);
        else
            transcript_add(out, t, " ");
    }
    transcript_add(out, "", "| ");
}

static void take_line(struct search_out *out, const char *line, long long t0)
{
    out->lines++;
    transcribe(out, line);
    if (!strncmp(line, "info depth ", 11) && !strstr(line, "lowerbound") && !strstr(line, "upperbound")
        && !strstr(line, " currmove ")) {
        out->info = realloc(out->info, (size_t)(out->ninfo + 1) * sizeof *out->info);
        ck_assert(out->info != NULL);
        out->info[out->ninfo++] = parse_info(line);
    } else if (!strncmp(line, "info string error", 17)) {
        out->errors++;
    } else if (!strncmp(line, "bestmove ", 9) && !out->bestmoves++) {
        out->ms = clock_ms() - t0;
        sscanf(line, "bestmove %15s ponder %15s", out->bestmove, out->ponder);
    }
}

static void out_free(struct search_out *out)
{
    free(out->info);
    free(out);
}

/* Reads lines up to the first that starts with the prefix, which ends the reading. */
static struct search_out *read_until(struct proc *p, const char *prefix, long long t0)
{
    struct search_out *out = calloc(1, sizeof *out);
    ck_assert(out != NULL);
    const char *line;
    while ((line = pipe_read_line(p, hang_ms())) != NULL) {
        take_line(out, line, t0);
        if (!strncmp(line, prefix, strlen(prefix)))
            return out;
    }
    struct proc_exit e = pipe_wait(p, 200);
    ck_abort_msg("waiting for %s: the engine %s (status %d, signal %d) after: %s", prefix, e.killed ? "hung" : "ended",
                 e.code, e.signal, out->transcript);
}

/* Sends the command and reads up to its bestmove. */
static struct search_out *until_bestmove(struct proc *p, const char *cmd)
{
    long long t0 = clock_ms();
    engine_send(p, cmd);
    return read_until(p, "bestmove", t0);
}

/* isready: what the engine printed before its readyok, which is not counted. */
static struct search_out *engine_sync(struct proc *p)
{
    long long t0 = clock_ms();
    engine_send(p, "isready");
    struct search_out *out = read_until(p, "readyok", t0);
    out->lines--;
    return out;
}

/* Sends the command; it must print nothing. */
static void engine_silent(struct proc *p, const char *cmd)
{
    engine_send(p, cmd);
    struct search_out *out = engine_sync(p);
    ck_assert_msg(out->lines == 0, "'%s' printed: %s", cmd, out->transcript);
    out_free(out);
}

static const struct info *last_info(const struct search_out *out)
{
    ck_assert_msg(out->ninfo > 0, "no info depth line: %s", out->transcript);
    return &out->info[out->ninfo - 1];
}

static void engine_quit(struct proc *p)
{
    engine_send(p, "quit");
    struct proc_exit e = pipe_wait(p, hang_ms());
    ck_assert_msg(!e.killed && e.exited && e.code == 0, "quit: status %d, signal %d%s", e.code, e.signal,
                  e.killed ? ", hung" : "");
    proc_end(p, 0, NULL, 0);
}

/* The bestmove, and its ponder move after it, are legal in the Glinski position (NULL: start). */
static void assert_legal(const char *fen, const struct search_out *out)
{
    struct game g;
    test_game(&g, "glinski", fen, false);
    ck_assert_msg(strcmp(out->bestmove, "(none)"), "bestmove (none) with legal moves: %s", out->transcript);
    g.ops->position_make(g.pos, parse_move(&g, out->bestmove));
    if (out->ponder[0])
        parse_move(&g, out->ponder);
    game_free(&g);
}

/* ------------------------------------------------------------------------------------------- */
/* Mates. */

START_TEST(test_mate)
{
    const struct mate_position *mp = &mates[_i];
    struct proc p;
    char cmd[512];
    pipe_start(&p, NULL);
    snprintf(cmd, sizeof cmd, "setoption name UCI_Variant value %s\nposition fen %s", mp->variant, mp->fen);
    engine_silent(&p, cmd);
    snprintf(cmd, sizeof cmd, "go depth %d", 2 * mp->moves + 1);
    struct search_out *out = until_bestmove(&p, cmd);
    const struct info *in = last_info(out);
    ck_assert_msg(in->mate && in->score == mp->moves && !strcmp(in->pv[0], out->bestmove),
                  "%s %s: expected score mate %d: %s", mp->variant, mp->fen, mp->moves, out->transcript);
    /* The principal variation ends in checkmate... */
    struct game g;
    char err[256], *pv[PV_MAX];
    test_game(&g, mp->variant, mp->fen, false);
    ck_assert_int_eq(in->pvlen, 2 * mp->moves - 1);
    for (int i = 0; i < in->pvlen; i++)
        pv[i] = (char *)in->pv[i];
    ck_assert_msg(game_set_position(&g, mp->fen, pv, in->pvlen, err, sizeof err), "%s", err);
    ck_assert_int_eq(game_status(&g).outcome, GAME_CHECKMATE);
    /* ... the first move mates against every defence, and there is no quicker mate. */
    ck_assert(game_set_position(&g, mp->fen, NULL, 0, err, sizeof err));
    ck_assert_msg(!mates_within(&g, mp->moves - 1), "a quicker mate exists");
    g.ops->position_make(g.pos, parse_move(&g, out->bestmove));
    ck_assert_msg(defender_mated(&g, mp->moves - 1), "%s does not force mate in %d", out->bestmove, mp->moves);
    game_free(&g);
    out_free(out);
    engine_quit(&p);
}
END_TEST

START_TEST(test_go_mate)
{
    struct proc p;
    pipe_start(&p, NULL);
    engine_silent(&p, "position fen " QUEEN_ROOK_MATE);
    /* It stops by itself once the mate is found. */
    struct search_out *out = until_bestmove(&p, "go mate 2");
    const struct info *in = last_info(out);
    ck_assert_msg(in->mate && in->score == 2 && !strcmp(out->bestmove, "h2e7"), "%s", out->transcript);
    out_free(out);
    engine_quit(&p);
}
END_TEST

/* ------------------------------------------------------------------------------------------- */
/* Stalemate: Glinski scores it 3/4 to the stalemating side, McCooey a draw. */

/* King and bishop cannot mate; d5c3 leaves the king on a1 without a move. */
#define BISHOP_STALEMATE "k5/7/8/4K4/10/11/5B4/9/8/7/6 w - - 0 1"

START_TEST(test_glinski_seeks_stalemate)
{
    struct game g;
    test_game(&g, "glinski", BISHOP_STALEMATE, false);
    move_t stalemate = parse_move(&g, "d5c3");
    ck_assert(stalemates(&g, stalemate));
    struct pool_result r = pool_search(&g, 6, MOVE_NONE);
    ck_assert_uint_eq(r.best, stalemate);
    ck_assert_msg(near(r.score, stalemate_worth(g.v)), "score %d, a 3/4 stalemate is worth %d", r.score,
                  stalemate_worth(g.v));
    game_free(&g);
}
END_TEST

START_TEST(test_mccooey_keeps_the_bishop)
{
    struct game g;
    test_game(&g, "mccooey", BISHOP_STALEMATE, false);
    move_t stalemate = parse_move(&g, "d5c3");
    ck_assert(stalemates(&g, stalemate));
    ck_assert_int_eq(stalemate_worth(g.v), 0);
    struct pool_result r = pool_search(&g, 6, MOVE_NONE);
    ck_assert_uint_ne(r.best, stalemate);
    ck_assert_int_gt(r.score, 0);
    game_free(&g);
}
END_TEST

/* The engine plays both sides; returns the final status after at most max_plies. */
static struct game_status play_out(struct game *g, int depth, int max_plies)
{
    struct game_status st = game_status(g);
    for (int ply = 0; ply < max_plies && st.outcome == GAME_ONGOING; ply++) {
        g->ops->position_make(g->pos, pool_search(g, depth, MOVE_NONE).best);
        st = game_status(g);
    }
    return st;
}

/* Queen against king, g1c6 stalemates: the winning side plays on to mate, in both variants. */
START_TEST(test_queen_mates_rather_than_stalemates)
{
    static const char *const variants[] = { "mccooey", "glinski" };
    for (size_t i = 0; i < sizeof variants / sizeof *variants; i++) {
        struct game g;
        test_game(&g, variants[i], "2k3/7/1K6/9/10/11/Q9/9/8/7/6 w - - 0 1", false);
        ck_assert(stalemates(&g, parse_move(&g, "g1c6")));
        struct game_status st = play_out(&g, 6, 40);
        ck_assert_msg(st.outcome == GAME_CHECKMATE && g.ops->position_side(g.pos) == 1,
                      "%s: the game ended with outcome %d, %c to move", variants[i], st.outcome,
                      g.v->colour_letter[g.ops->position_side(g.pos)]);
        game_free(&g);
    }
}
END_TEST

/* Taking the knight, i7l6, walks into k4i6 and a stalemate that scores White 1/4. */
START_TEST(test_glinski_avoids_being_stalemated)
{
    const char *fen = "6/7/8/9/10/11/10/9/4P1K1/3k3/5n w - - 0 1";
    struct game g;
    char err[256], *trap[] = { "i7l6", "k4i6" };
    test_game(&g, "glinski", fen, false);
    ck_assert_msg(game_set_position(&g, fen, trap, 2, err, sizeof err), "%s", err);
    ck_assert_int_eq(game_status(&g).outcome, GAME_STALEMATE);
    ck_assert(game_set_position(&g, fen, NULL, 0, err, sizeof err));
    move_t careless = parse_move(&g, "i7l6");
    struct pool_result r = pool_search(&g, 6, careless);
    ck_assert_msg(near(r.score, -stalemate_worth(g.v)), "i7l6 scores %d, being stalemated is worth %d", r.score,
                  -stalemate_worth(g.v));
    r = pool_search(&g, 6, MOVE_NONE);
    ck_assert_uint_ne(r.best, careless);
    ck_assert_int_gt(r.score, -stalemate_worth(g.v));
    game_free(&g);
}
END_TEST

/* ------------------------------------------------------------------------------------------- */
/* go limits through the executable. */

START_TEST(test_go_depth)
{
    struct proc p;
    pipe_start(&p, NULL);
    struct search_out *out = until_bestmove(&p, "go depth 5");
    for (int i = 0; i < out->ninfo; i++)
        ck_assert_msg(out->info[i].depth == i + 1, "depths out of order: %s", out->transcript);
    ck_assert_int_eq(last_info(out)->depth, 5);
    ck_assert_str_eq(last_info(out)->pv[0], out->bestmove);
    assert_legal(NULL, out);
    out_free(out);
    engine_quit(&p);
}
END_TEST

enum { NODE_LIMIT = 20000, NODE_SLACK = 256 };

/* go nodes in a fresh engine; the transcript of the search. */
static struct search_out *search_nodes(void)
{
    struct proc p;
    char cmd[64];
    pipe_start(&p, NULL);
    engine_silent(&p, "position fen " MIDDLEGAME);
    snprintf(cmd, sizeof cmd, "go nodes %d", NODE_LIMIT);
    struct search_out *out = until_bestmove(&p, cmd);
    engine_quit(&p);
    return out;
}

START_TEST(test_go_nodes)
{
    struct search_out *a = search_nodes(), *b = search_nodes();
    for (int i = 0; i < a->ninfo; i++)
        ck_assert_uint_le(a->info[i].nodes, NODE_LIMIT + NODE_SLACK);
    assert_legal(MIDDLEGAME, a);
    ck_assert_str_eq(a->transcript, b->transcript);
    out_free(a);
    out_free(b);
}
END_TEST

START_TEST(test_go_movetime)
{
    struct proc p;
    pipe_start(&p, NULL);
    engine_silent(&p, "position fen " MIDDLEGAME);
    struct search_out *out = until_bestmove(&p, "go movetime 200");
    ck_assert_msg(out->ms >= 100 && out->ms <= 200 + slack_ms(), "movetime 200 answered in %lld ms", out->ms);
    assert_legal(MIDDLEGAME, out);
    out_free(out);
    engine_quit(&p);
}
END_TEST

/* A third of a clock is the most the engine may spend on one move (engine/timeman.c). */
START_TEST(test_go_clock)
{
    struct proc p;
    pipe_start(&p, NULL);
    struct search_out *out = until_bestmove(&p, "go wtime 1000 btime 1000 winc 10 binc 10");
    ck_assert_msg(out->ms <= 1000 / 3 + slack_ms(), "a 1 s clock answered in %lld ms", out->ms);
    assert_legal(NULL, out);
    out_free(out);
    /* Black reads its own clock, not White's. */
    engine_silent(&p, "position fen " GLINSKI_F5F6);
    out = until_bestmove(&p, "go wtime 100000 btime 1000 winc 0 binc 10");
    ck_assert_msg(out->ms <= 1000 / 3 + slack_ms(), "a 1 s clock for Black answered in %lld ms", out->ms);
    assert_legal(GLINSKI_F5F6, out);
    out_free(out);
    engine_quit(&p);
}
END_TEST

/* After the command the engine stays responsive, and for ms after it no bestmove comes. */
static void assert_thinking(struct proc *p, const char *cmd, long ms)
{
    engine_send(p, cmd);
    for (int i = 0; i < 2; i++) {
        pause_ms(i * ms);
        struct search_out *out = engine_sync(p);
        ck_assert_msg(out->bestmoves == 0, "'%s' answered before stop: %s", cmd, out->transcript);
        out_free(out);
    }
}

/* Stop: exactly one bestmove, at once. */
static struct search_out *stop_search(struct proc *p)
{
    struct search_out *out = until_bestmove(p, "stop");
    ck_assert_msg(out->ms <= slack_ms(), "stop answered in %lld ms", out->ms);
    struct search_out *after = engine_sync(p);
    ck_assert_msg(after->bestmoves == 0, "a second bestmove: %s", after->transcript);
    out_free(after);
    return out;
}

START_TEST(test_go_infinite)
{
    /* A bare go is infinite too; the mate in 2 runs out of depths at once and still waits. */
    static const struct {
        const char *fen, *go;
    } cases[] = { { NULL, "go infinite" }, { NULL, "go" }, { QUEEN_ROOK_MATE, "go infinite" } };
    struct proc p;
    char cmd[512];
    pipe_start(&p, NULL);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(cmd, sizeof cmd, "position %s%s", cases[i].fen ? "fen " : "startpos", cases[i].fen ? cases[i].fen : "");
        engine_silent(&p, cmd);
        assert_thinking(&p, cases[i].go, 100);
        struct search_out *out = stop_search(&p);
        assert_legal(cases[i].fen, out);
        out_free(out);
    }
    engine_quit(&p);
}
END_TEST

START_TEST(test_ponder)
{
    struct proc p;
    pipe_start(&p, NULL);
    /* Pondering outlasts the engine's whole share of the clock without answering. */
    assert_thinking(&p, "go ponder wtime 1000 btime 1000", 1000 / 3 + 50);
    struct search_out *out = until_bestmove(&p, "ponderhit");
    ck_assert_msg(out->ms <= 1000 / 3 + slack_ms(), "ponderhit answered in %lld ms", out->ms);
    assert_legal(NULL, out);
    out_free(out);
    assert_thinking(&p, "go ponder wtime 1000 btime 1000", 50);
    out = stop_search(&p);
    assert_legal(NULL, out);
    out_free(out);
    engine_quit(&p);
}
END_TEST

/* The pool in-process: a search that has finished its depths while pondering or searching
 * infinitely sleeps until ponderhit or stop, sent from another thread, wakes it at once. */
struct pool_wake {
    void (*send)(struct search_pool *p);
    bool ponder, infinite;
};

static const struct pool_wake pool_wakes[] = {
    { pool_ponderhit, true, false },
    { pool_stop, true, false },
    { pool_stop, false, true },
};

struct pool_sender {
    struct search_pool *pool;
    void (*send)(struct search_pool *p);
};

static void *pool_send(void *arg)
{
    struct pool_sender *s = arg;
    s->send(s->pool);
    return NULL;
}

struct pool_done {
    atomic_bool done;
    move_t best;
};

static void note_done(void *ctx, move_t best, move_t ponder)
{
    struct pool_done *d = ctx;
    (void)ponder;
    d->best = best;
    atomic_store(&d->done, true);
}

static void ignore_report(void *ctx, const struct search_report *r)
{
    (void)ctx, (void)r;
}

START_TEST(test_pool_wakes)
{
    const struct pool_wake *c = &pool_wakes[_i];
    struct game g;
    struct search_pool *pool = pool_new();
    struct pool_done done = { false, MOVE_NONE };
    const struct search_callbacks cb = { ignore_report, NULL, note_done, &done };
    /* Depth 2 finds the mate at once; the helper searches on until the main thread stops it. */
    struct search_limits l = { .depth = 2, .ponder = c->ponder, .infinite = c->infinite };
    for (int p = 0; p < MAX_PLAYERS; p++)
        l.time[p] = l.inc[p] = -1;
    test_game(&g, "glinski", QUEEN_ROOK_MATE, false);
    ck_assert(pool);
    ck_assert(pool_configure(pool, 2, 1));
    ck_assert(pool_go(pool, &g, &l, &eval_weights_default, 1, 0, &cb));
    pause_ms(100);
    ck_assert_msg(!atomic_load(&done.done), "a move before %s", c->send == pool_stop ? "stop" : "ponderhit");
    struct pool_sender s = { pool, c->send };
    pthread_t sender;
    long long t0 = clock_ms();
    ck_assert(!pthread_create(&sender, NULL, pool_send, &s));
    pool_wait(pool);
    long long ms = clock_ms() - t0;
    pthread_join(sender, NULL);
    ck_assert_msg(ms <= slack_ms(), "the search ended %lld ms after the signal", ms);
    ck_assert(done.best == parse_move(&g, "h2e7"));
    pool_free(pool);
    game_free(&g);
}
END_TEST

/* A search reads the weights it started with, whatever its caller does with its own meanwhile;
 * other weights (material only) make another search. */
START_TEST(test_pool_copies_the_weights)
{
    struct game g;
    struct eval_weights w = eval_weights_default;
    struct pool_run run;
    test_game(&g, "glinski", MIDDLEGAME, false);
    struct pool_result full = pool_search(&g, 5, MOVE_NONE);
    pool_start(&run, &g, 5, MOVE_NONE, SEARCH3_BRS, &w);
    w.material_only = 1;
    struct pool_result during = pool_finish(&run);
    ck_assert_msg(during.best == full.best && during.score == full.score, "score %d, not %d", during.score, full.score);
    pool_start(&run, &g, 5, MOVE_NONE, SEARCH3_BRS, &w);
    struct pool_result material = pool_finish(&run);
    ck_assert_msg(material.score != full.score, "material only scores %d too", material.score);
    game_free(&g);
}
END_TEST

START_TEST(test_searchmoves)
{
    struct proc p;
    pipe_start(&p, NULL);
    struct search_out *out = until_bestmove(&p, "go depth 4 searchmoves b1b2 k1k2");
    for (int i = 0; i < out->ninfo; i++)
        ck_assert_msg(!strcmp(out->info[i].pv[0], "b1b2") || !strcmp(out->info[i].pv[0], "k1k2"), "%s",
                      out->transcript);
    ck_assert_msg(!strcmp(out->bestmove, "b1b2") || !strcmp(out->bestmove, "k1k2"), "%s", out->bestmove);
    out_free(out);
    out = until_bestmove(&p, "go depth 3 searchmoves k1k3");
    ck_assert_str_eq(out->bestmove, "k1k3");
    out_free(out);
    engine_quit(&p);
}
END_TEST

START_TEST(test_multipv)
{
    struct proc p;
    pipe_start(&p, NULL);
    engine_silent(&p, "setoption name MultiPV value 3");
    struct search_out *out = until_bestmove(&p, "go depth 4");
    ck_assert_msg(out->ninfo == 12, "expected 3 lines for each of 4 depths: %s", out->transcript);
    for (int i = 0; i < out->ninfo; i++) {
        const struct info *in = &out->info[i], *first = &out->info[i - i % 3];
        ck_assert_msg(in->depth == i / 3 + 1 && in->multipv == i % 3 + 1, "line %d: %s", i, out->transcript);
        for (const struct info *other = first; other < in; other++)
            ck_assert_msg(strcmp(other->pv[0], in->pv[0]), "%s twice at depth %d", in->pv[0], in->depth);
        ck_assert_msg(in == first || in[-1].score >= in->score, "depth %d: multipv %d scores more than multipv %d: %s",
                      in->depth, in->multipv, in->multipv - 1, out->transcript);
    }
    ck_assert_str_eq(out->info[9].pv[0], out->bestmove);
    out_free(out);
    engine_quit(&p);
}
END_TEST

/* Weakened play (engine/skill.c): the level follows the Elo; the strongest level plays the best of
 * clearly different lines almost always, the weakest often not, and equal lines vary at every level. */
START_TEST(test_skill_pick)
{
    ck_assert_int_eq(skill_level(SKILL_ELO_MIN), 0);
    ck_assert_int_eq(skill_level(SKILL_ELO_MAX), SKILL_LEVELS - 1);
    for (int elo = SKILL_ELO_MIN; elo < SKILL_ELO_MAX; elo += 50)
        ck_assert(skill_level(elo) <= skill_level(elo + 50));
    static const int apart[4] = { 0, -300, -600, -900 }, close[4] = { 0, -50, -100, -150 }, equal[4] = { 0 };
    int best_apart = 0, best_close = 0, seen[4] = { 0 };
    uint64_t seed = 1;
    for (int i = 0; i < 1000; i++) {
        best_apart += skill_pick(apart, 4, SKILL_LEVELS - 1, &seed) == 0;
        best_close += skill_pick(close, 4, 0, &seed) == 0;
        seen[skill_pick(equal, 4, 0, &seed)]++;
    }
    ck_assert_msg(best_apart > 950, "level %d played the best of far-apart lines %d times in 1000", SKILL_LEVELS - 1,
                  best_apart);
    ck_assert_msg(best_close < 900, "level 0 played the best of close lines %d times in 1000", best_close);
    for (int k = 0; k < 4; k++)
        ck_assert_msg(seen[k] > 100, "of four equal lines, line %d was played %d times in 1000", k + 1, seen[k]);
}
END_TEST

/* UCI_LimitStrength: the weakest level searches one ply, four lines, and varies its moves. */
START_TEST(test_limit_strength)
{
    struct proc p;
    pipe_start(&p, NULL);
    engine_silent(&p, "setoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value 500");
    char seen[8][MOVE_TEXT];
    int distinct = 0;
    for (int i = 0; i < 8; i++) {
        struct search_out *out = until_bestmove(&p, "go depth 10");
        /* The played line comes again, last, when it is not the first. */
        bool first = !strcmp(out->info[0].pv[0], out->bestmove);
        ck_assert_msg(out->ninfo == (first ? 4 : 5), "expected 4 lines of depth 1: %s", out->transcript);
        for (int k = 0; k < out->ninfo; k++)
            ck_assert_int_eq(out->info[k].depth, 1);
        ck_assert_msg(first || !strcmp(last_info(out)->pv[0], out->bestmove), "%s", out->transcript);
        bool known = false;
        for (int k = 0; k < distinct; k++)
            known |= !strcmp(seen[k], out->bestmove);
        if (!known)
            snprintf(seen[distinct++], MOVE_TEXT, "%s", out->bestmove);
        out_free(out);
    }
    ck_assert_msg(distinct > 1, "the weakest level played %s eight times", seen[0]);
    /* Off again: full strength reaches the depth asked. */
    engine_silent(&p, "setoption name UCI_LimitStrength value false");
    struct search_out *out = until_bestmove(&p, "go depth 3");
    ck_assert_int_eq(out->info[out->ninfo - 1].depth, 3);
    out_free(out);
    engine_quit(&p);
}
END_TEST

/* Checkmated, then stalemated (tests/test_game.c): every kind of go says so. */
START_TEST(test_no_legal_move)
{
    static const char *const fens[] = { "K5/1q2r2/8/9/10/11/10/9/8/7/5k w - - 0 1",
                                        "K5/3q3/6r1/9/10/11/10/9/8/7/5k w - - 0 1" };
    struct proc p;
    char cmd[512];
    pipe_start(&p, NULL);
    for (size_t i = 0; i < sizeof fens / sizeof *fens; i++) {
        snprintf(cmd, sizeof cmd, "position fen %s", fens[i]);
        engine_silent(&p, cmd);
        struct search_out *out = until_bestmove(&p, "go depth 5");
        ck_assert_str_eq(out->bestmove, "(none)");
        out_free(out);
        out = until_bestmove(&p, "go movetime 50");
        ck_assert_str_eq(out->bestmove, "(none)");
        out_free(out);
        assert_thinking(&p, "go infinite", 10);
        out = stop_search(&p);
        ck_assert_str_eq(out->bestmove, "(none)");
        out_free(out);
    }
    engine_quit(&p);
}
END_TEST

START_TEST(test_stop_during_long_search)
{
    struct proc p;
    pipe_start(&p, NULL);
    engine_silent(&p, "position fen " MIDDLEGAME);
    assert_thinking(&p, "go depth 60", 100);
    struct search_out *out = stop_search(&p);
    assert_legal(MIDDLEGAME, out);
    out_free(out);
    engine_quit(&p);
}
END_TEST

/* A long search is never silent: after the first second, about once a second, the move being
 * searched and the totals. */
START_TEST(test_progress_lines)
{
    struct proc p;
    pipe_start(&p, NULL);
    engine_silent(&p, "position fen " MIDDLEGAME);
    engine_send(&p, "go infinite");
    pause_ms(2600);
    engine_send(&p, "stop");
    int currmoves = 0, totals = 0, bestmoves = 0;
    long long last_time = 0;
    const char *line;
    while (!bestmoves && (line = pipe_read_line(&p, hang_ms())) != NULL) {
        char move[MOVE_TEXT];
        int depth, number, hashfull;
        unsigned long long nodes, nps;
        long long time;
        bestmoves += !strncmp(line, "bestmove ", 9);
        if (strstr(line, " currmove ")) {
            ck_assert_msg(sscanf(line, "info depth %d currmove %15s currmovenumber %d", &depth, move, &number) == 3
                              && depth > 0 && number > 0, "bad line '%s'", line);
            currmoves++;
        } else if (!strncmp(line, "info nodes ", 11)) {
            ck_assert_msg(sscanf(line, "info nodes %llu nps %llu hashfull %d time %lld", &nodes, &nps, &hashfull, &time)
                              == 4, "bad line '%s'", line);
            ck_assert_msg(time >= 1000 && time >= last_time + 500, "progress at %lld ms after %lld ms", time, last_time);
            last_time = time;
            totals++;
        }
    }
    ck_assert_msg(bestmoves, "no bestmove after stop");
    ck_assert_msg(currmoves >= 2 && totals >= 2, "%d currmove and %d progress lines in 2.6 s", currmoves, totals);
    engine_quit(&p);
}
END_TEST

/* The last info line before bestmove shows the move played, however the search ended: a clock, a node
 * limit, a stop in the middle of an iteration; with several lines, multipv 1 is the move played. */
START_TEST(test_last_line_is_bestmove)
{
    static const char *const gos[] = { "go movetime 300", "go nodes 30000", "go depth 60", "go infinite" };
    struct proc p;
    pipe_start(&p, NULL);
    engine_silent(&p, "position fen " MIDDLEGAME);
    for (int pvs = 1; pvs <= 3; pvs += 2) {
        char cmd[64];
        snprintf(cmd, sizeof cmd, "setoption name MultiPV value %d", pvs);
        engine_silent(&p, cmd);
        for (size_t i = 0; i < sizeof gos / sizeof *gos; i++) {
            bool endless = !strcmp(gos[i], "go infinite") || !strcmp(gos[i], "go depth 60");
            struct search_out *out;
            if (endless) {
                assert_thinking(&p, gos[i], 150 + 100 * (int)i);
                out = stop_search(&p);
            } else {
                out = until_bestmove(&p, gos[i]);
            }
            const struct info *line = last_info(out);
            for (int k = out->ninfo - 1; k >= 0 && line->multipv != 1; k--)
                line = &out->info[k];
            ck_assert_msg(line->multipv == 1 && (pvs == 1 || line == last_info(out) - (pvs - 1)),
                          "'%s', MultiPV %d: %s", gos[i], pvs, out->transcript);
            ck_assert_msg(!strcmp(line->pv[0], out->bestmove), "'%s', MultiPV %d: last line %s, bestmove %s: %s", gos[i],
                          pvs, line->pv[0], out->bestmove, out->transcript);
            out_free(out);
        }
    }
    engine_quit(&p);
}
END_TEST

START_TEST(test_quit_during_infinite)
{
    struct proc p;
    pipe_start(&p, NULL);
    assert_thinking(&p, "go infinite", 50);
    engine_send(&p, "quit");
    struct proc_exit e = pipe_wait(&p, (int)slack_ms());
    ck_assert_msg(!e.killed && e.exited && e.code == 0, "quit during go infinite: status %d, signal %d%s", e.code,
                  e.signal, e.killed ? ", still running" : "");
    proc_end(&p, 0, NULL, 0);
}
END_TEST

START_TEST(test_two_threads)
{
    struct proc p;
    pipe_start(&p, NULL);
    engine_silent(&p, "setoption name Threads value 2\nposition fen " MIDDLEGAME);
    struct search_out *out = until_bestmove(&p, "go depth 5");
    ck_assert_int_eq(last_info(out)->depth, 5);
    assert_legal(MIDDLEGAME, out);
    out_free(out);
    out = until_bestmove(&p, "go nodes 30000");
    assert_legal(MIDDLEGAME, out);
    out_free(out);
    assert_thinking(&p, "go infinite", 100);
    out = stop_search(&p);
    assert_legal(MIDDLEGAME, out);
    out_free(out);
    engine_quit(&p);
}
END_TEST

/* Each bad value prints one error line and changes nothing. */
START_TEST(test_bad_option_values)
{
    static const char *const bad[] = {
        "Hash value 0",        "Hash value -1",     "Hash value abc",     "Hash value 1048577", "Hash",
        "Threads value 0",     "Threads value 257", "Threads value two",  "Threads value -1",
        "MultiPV value 0",     "MultiPV value 65",  "MultiPV value x",    "Move Overhead value -1",
        "Move Overhead value 5001", "Move Overhead value 1e3", "ThreePlayerSearch value maxn",
        "ThreePlayerSearch",
    };
    struct proc p;
    char cmd[128];
    pipe_start(&p, NULL);
    engine_silent(&p, "setoption name Hash value 1\nsetoption name MultiPV value 2\n"
                      "setoption name Move Overhead value 5000");
    struct search_out *before = until_bestmove(&p, "go depth 5");
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(cmd, sizeof cmd, "setoption name %s", bad[i]);
        engine_send(&p, cmd);
        struct search_out *out = engine_sync(&p);
        ck_assert_msg(out->lines == 1 && out->errors == 1, "'%s': %s", cmd, out->transcript);
        out_free(out);
    }
    /* The same table size (hashfull), MultiPV and one thread (the very same search)... */
    engine_silent(&p, "ucinewgame");
    struct search_out *after = until_bestmove(&p, "go depth 5");
    ck_assert_int_eq(last_info(after)->multipv, 2);
    ck_assert_str_eq(before->transcript, after->transcript);
    out_free(before);
    out_free(after);
    /* ... and the 5 s overhead leaves 100 ms of this movetime. */
    after = until_bestmove(&p, "go movetime 5100");
    ck_assert_msg(after->ms <= 100 + slack_ms(), "movetime 5100 with 5000 overhead took %lld ms", after->ms);
    out_free(after);
    engine_quit(&p);
}
END_TEST

START_TEST(test_deterministic)
{
    struct proc p;
    pipe_start(&p, NULL);
    engine_silent(&p, "position fen " MIDDLEGAME);
    struct search_out *first = until_bestmove(&p, "go depth 6");
    engine_silent(&p, "ucinewgame\nposition fen " MIDDLEGAME);
    struct search_out *second = until_bestmove(&p, "go depth 6");
    ck_assert_str_eq(first->transcript, second->transcript);
    out_free(first);
    out_free(second);
    engine_quit(&p);
}
END_TEST

/* The bench signature: the same node count every time. */
static unsigned long long bench_nodes(struct proc *p)
{
    long long t0 = clock_ms();
    engine_send(p, "bench 2");
    struct search_out *out = read_until(p, "Nodes/second", t0);
    const char *at = strstr(out->transcript, "Nodes searched: ");
    ck_assert_msg(at != NULL, "%s", out->transcript);
    unsigned long long nodes = strtoull(at + 16, NULL, 10);
    out_free(out);
    return nodes;
}

START_TEST(test_bench_deterministic)
{
    struct proc p;
    pipe_start(&p, NULL);
    unsigned long long first = bench_nodes(&p);
    ck_assert_uint_gt(first, 0);
    ck_assert_uint_eq(bench_nodes(&p), first);
    engine_quit(&p);
}
END_TEST

/* What eval prints as the final evaluation. */
static int final_evaluation(struct proc *p)
{
    engine_send(p, "eval");
    struct search_out *out = engine_sync(p);
    const char *f = strstr(out->transcript, "Final evaluation: ");
    ck_assert_msg(f != NULL, "no final evaluation: %s", out->transcript);
    int cp = atoi(f + strlen("Final evaluation: "));
    out_free(out);
    return cp;
}

/* A fresh search of MIDDLEGAME to depth 4. */
static struct search_out *middlegame_depth_4(struct proc *p)
{
    engine_silent(p, "ucinewgame\nposition fen " MIDDLEGAME);
    return until_bestmove(p, "go depth 4");
}

/* The Evaluation option changes eval, bench and the searches after it, never a running search:
 * setoption stops go infinite first, whose lines are those of the full evaluation. */
START_TEST(test_evaluation_option)
{
    struct proc p;
    pipe_start(&p, NULL);
    struct search_out *full = middlegame_depth_4(&p);
    int full_eval = final_evaluation(&p);
    unsigned long long full_bench = bench_nodes(&p);
    engine_silent(&p, "ucinewgame\nposition fen " MIDDLEGAME);
    engine_send(&p, "go infinite");
    pause_ms(100);
    struct search_out *out = until_bestmove(&p, "setoption name Evaluation value material");
    ck_assert_msg(out->bestmoves == 1 && out->ninfo > 0, "%s", out->transcript);
    /* The last line may be the stopped iteration's best so far (a slow, loaded machine stops it
     * anywhere): the completed iterations' lines must match. */
    for (int i = 0; i < out->ninfo - 1 && i < full->ninfo; i++)
        ck_assert_msg(out->info[i].score == full->info[i].score, "depth %d scores %d, not %d", i + 1,
                      out->info[i].score, full->info[i].score);
    out_free(out);
    ck_assert_int_ne(final_evaluation(&p), full_eval);
    ck_assert_uint_ne(bench_nodes(&p), full_bench);
    out = middlegame_depth_4(&p);
    ck_assert_msg(last_info(out)->score != last_info(full)->score, "material only scores %d too", last_info(out)->score);
    out_free(out);
    engine_silent(&p, "setoption name Evaluation value full");
    ck_assert_int_eq(final_evaluation(&p), full_eval);
    ck_assert_uint_eq(bench_nodes(&p), full_bench);
    out = middlegame_depth_4(&p);
    ck_assert_int_eq(last_info(out)->score, last_info(full)->score);
    out_free(out);
    out_free(full);
    engine_quit(&p);
}
END_TEST

/* A changed evaluation starts from an empty table, whose scores and evaluations were the old one's:
 * without ucinewgame, the search after it is a fresh engine's, line for line. The Evaluation option,
 * then other weights (McCooey's tuned ones for Glinski's board). */
START_TEST(test_evaluation_change_empties_table)
{
    static const char *const change[] = { "setoption name Evaluation value material",
                                          "setoption name EvalWeights value eval/weights/mccooey.txt" };
    struct proc fresh, p;
    pipe_start(&fresh, NULL);
    engine_silent(&fresh, change[_i]);
    struct search_out *want = middlegame_depth_4(&fresh);
    engine_quit(&fresh);
    pipe_start(&p, NULL);
    out_free(middlegame_depth_4(&p));
    engine_silent(&p, change[_i]);
    struct search_out *got = until_bestmove(&p, "go depth 4");
    ck_assert_msg(!strcmp(got->transcript, want->transcript), "after the change:\n%s\nfresh:\n%s", got->transcript,
                  want->transcript);
    out_free(got);
    out_free(want);
    engine_quit(&p);
}
END_TEST

/* ------------------------------------------------------------------------------------------- */
/* Three players. Red's General f1 shares the f file with White's knight f5 and Black's Rook f9: if
 * the General stays on the file (f1f2), White steps the knight aside and Black, about to move,
 * attacks Red's General, which eliminates Red. Red's Rook c3 has a way out besides stepping off the
 * file: c3h1 attacks White's General l1, so White must spend its move on it. */
#define THREE_DISCOVERY "6/5bG1/2rR5/9/10/rG3wE3bR2/10/9/8/7/wG5 r - - 0 1"

START_TEST(test_three_player_discovery)
{
    const enum search3 algorithm = _i ? SEARCH3_BRS : SEARCH3_PARANOID;
    struct game g;
    test_game(&g, "wellisch", THREE_DISCOVERY, false);
    struct pool_result r = pool_search3(&g, 3, parse_move(&g, "f1f2"), algorithm);
    ck_assert_msg(r.score <= -SCORE_MATE_BOUND, "f1f2 scores %d", r.score);
    ck_assert_int_eq(score_mate_moves(r.score, 3), -1);
    r = pool_search3(&g, 5, MOVE_NONE, algorithm);
    ck_assert_uint_ne(r.best, parse_move(&g, "f1f2"));
    ck_assert_msg(r.score > -SCORE_MATE_BOUND, "the best move %x scores %d", r.best, r.score);
    game_free(&g);
}
END_TEST

/* A search stopped after a root move failed high, before its re-search, has that move's line cut at
 * the root: bestmove still names a ponder move (the table's reply). In the Wellisch position above,
 * at these node limits a stop came just there (found by scanning limits; none named one before). */
START_TEST(test_ponder_after_fail_high)
{
    static const int limits[] = { 9000, 13000, 14000, 15000 };
    struct proc p;
    char cmd[64];
    pipe_start(&p, NULL);
    engine_silent(&p, "setoption name UCI_Variant value wellisch");
    for (size_t i = 0; i < sizeof limits / sizeof *limits; i++) {
        engine_silent(&p, "ucinewgame");
        engine_silent(&p, "position fen " THREE_DISCOVERY);
        snprintf(cmd, sizeof cmd, "go nodes %d", limits[i]);
        struct search_out *out = until_bestmove(&p, cmd);
        ck_assert_msg(out->ponder[0], "go nodes %d: bestmove %s without a ponder move", limits[i], out->bestmove);
        /* The last line shown is the line played, the ponder move its second. */
        const struct info *last = last_info(out);
        ck_assert_str_eq(last->pv[0], out->bestmove);
        ck_assert_str_eq(last->pv[1], out->ponder);
        out_free(out);
    }
    engine_quit(&p);
}
END_TEST

/* The mover takes a loose piece, whichever algorithm it searches with: three players, Red's Rook takes
 * White's Vicereine; four players, White's Rook k5 takes Red's Queen k10 (best-reply search lets any one
 * of the three opponents answer). */
static const struct { const char *variant, *fen, *best; } multi_captures[] = {
    { "wellisch", "1bG4/7/2rR3wV1/9/10/rG10/10/9/8/7/wG5 r - - 0 1", "c3c7" },
    { "nd-wellisch-4p", "gK7/9/10/2gN8/9bR2/13/14/14bG/14/4wR4rQ3/12/11/10/9/wG6rK w - - 0 1", "k5k10" },
};

START_TEST(test_multi_player_capture)
{
    const enum search3 algorithm = _i % 2 ? SEARCH3_BRS : SEARCH3_PARANOID;
    const int k = _i / 2;
    struct game g;
    test_game(&g, multi_captures[k].variant, multi_captures[k].fen, false);
    struct pool_result r = pool_search3(&g, 4, MOVE_NONE, algorithm);
    ck_assert_uint_eq(r.best, parse_move(&g, multi_captures[k].best));
    game_free(&g);
}
END_TEST

/* A mated army leaves inside the tree, and the search then tries the move again (a re-search): Black's
 * c9p8 checks White's General o9, Red's g1f2 checks it too and White has no move. The search used to
 * keep the in-check flag of the army after White for that second visit, and White then made a capture
 * that left its General attacked (test builds assert that every move the search makes is legal). */
#define MATED_IN_TREE "2bPbRbR1bUbK/6bUbUbU/3bP3bPbD1/rR2rPrPbD1bPbP2/rRrS3bPbP3bR1/rU2rP1bP1bSbP1bP1bP/" \
                      "rUrDrP2rP2wP5/1rKrPrSrP5bP1rU2/2rP4bR1bP4/rR2rP1wP5wPwS/4rP5wR1/rRrP6wP1wR/" \
                      "rP1rSwSbS1wP2wU/5wR2wK/2wP5 b a4,a5 - 1 33"

START_TEST(test_mated_in_tree)
{
    struct game g;
    test_game(&g, "nd-mccooey-3p", MATED_IN_TREE, false);
    struct pool_result r = pool_search3(&g, 4, MOVE_NONE, SEARCH3_BRS);
    ck_assert_uint_ne(r.best, MOVE_NONE);
    game_free(&g);
}
END_TEST

/* Mates are counted in the mover's own moves: with three armies taking turns, three plies each. */
START_TEST(test_mate_moves)
{
    ck_assert_int_eq(score_mate_moves(SCORE_MATE - 1, 2), 1);
    ck_assert_int_eq(score_mate_moves(SCORE_MATE - 3, 2), 2);
    ck_assert_int_eq(score_mate_moves(-SCORE_MATE + 2, 2), -1);
    ck_assert_int_eq(score_mate_moves(SCORE_MATE - 1, 3), 1);
    ck_assert_int_eq(score_mate_moves(SCORE_MATE - 4, 3), 2);
    ck_assert_int_eq(score_mate_moves(-SCORE_MATE + 2, 3), -1);
    ck_assert_int_eq(score_mate_moves(-SCORE_MATE + 4, 3), -2);
}
END_TEST

/* The exchange a capture starts, against a threshold (the search's SEE), on Glinski hand positions.
 * SEE once left out the last capture of an exchange, so a knight taking a pawn that a pawn defends
 * was scored as winning the pawn. A royal does not take back onto a cell another piece still covers
 * (the rook behind the queen). */
static const struct {
    const char *fen, *move;
    int threshold;
    bool ge;
} see_cases[] = {
    { "K5/7/8/9/4p5/5p1N3/10/9/8/7/5k w - - 0 1", "f8e5", 0, false },  /* N takes P, P takes N */
    { "K5/7/8/9/4p5/7N3/10/9/8/7/5k w - - 0 1", "f8e5", 1, true },     /* N takes P */
    { "K5/7/8/9/4p5/7N3/10/9/8/7/5k w - - 0 1", "f8e5", 10000, false },
    { "K5/7/8/9/R3p5/5p1N3/10/9/8/7/5k w - - 0 1", "f8e5", 0, false }, /* R takes P back: two pawns for N */
    { "K5/7/8/9/RQ2pk4/11/10/9/8/7/6 w - - 0 1", "e2e5", 1, true },    /* K cannot take Q: R covers e5 */
    { "K5/7/8/9/1Q2pk4/11/10/9/8/7/6 w - - 0 1", "e2e5", 0, false },   /* K takes Q */
};

START_TEST(test_see)
{
    struct game g;
    test_game(&g, "glinski", see_cases[_i].fen, false);
    move_t m = parse_move(&g, see_cases[_i].move);
    ck_assert_msg(g.ops->see_ge(g.tb, g.pos, m, see_cases[_i].threshold) == see_cases[_i].ge, "%s %s >= %d",
                  see_cases[_i].fen, see_cases[_i].move, see_cases[_i].threshold);
    game_free(&g);
}
END_TEST

/* see_ge's answer the slow way: the exchange as see_ge defines it (each side, in turn order, takes back
 * with its least valuable attacker, the lowest cell first among equals, either side free to stop), with
 * every turn's attackers found by the reference generator (reference.c) on a mailbox from which the
 * pieces that took part are gone and where the last taker stands on the cell. */
struct see_values {
    int value[MAX_TYPES], rank[MAX_TYPES];   /* rank: place from the least valuable, royals last */
};

static void see_values_of(const struct game *g, struct see_values *sv)
{
    const struct variant *v = g->v;
    const struct eval_params *p = g->ops->eval_params(g->tb);
    for (int t = 0; t < v->ntypes; t++)
        sv->value[t] = v->piece[t].royal ? 0 : p->w[W_VALUE + t].mg;
    for (int t = 0; t < v->ntypes; t++) {
        sv->rank[t] = 0;
        for (int u = 0; u < v->ntypes; u++) {
            long ku = v->piece[u].royal ? 1L << 30 : sv->value[u], kt = v->piece[t].royal ? 1L << 30 : sv->value[t];
            sv->rank[t] += ku < kt || (ku == kt && u < t);
        }
    }
}

static bool see_slow(const struct game *g, const struct see_values *sv, move_t m, int threshold, int *takes)
{
    const struct variant *v = g->v;
    struct setup s;
    g->ops->position_get(g->pos, &s);
    bool army[MAX_PLAYERS] = { false };
    for (int c = 0; c < v->geo.ncells; c++)
        if (s.piece[c] && v->piece[piece_type(s.piece[c])].royal)
            army[piece_colour(s.piece[c])] = true;
    int to = move_to(m), from = move_from(m), us = s.side, moved = s.piece[from], promo = move_promo(m), swap;
    if (m & MOVE_EP) {
        swap = sv->value[piece_type(s.piece[s.ep_victim])];
        s.piece[s.ep_victim] = 0;
    } else {
        swap = s.piece[to] ? sv->value[piece_type(s.piece[to])] : 0;
    }
    int on_cell = promo >= 0 ? sv->value[promo] : sv->value[piece_type(moved)];
    if (promo >= 0)
        swap += on_cell - sv->value[piece_type(moved)];
    if ((swap -= threshold) < 0)
        return false;
    if ((swap = on_cell - swap) <= 0)
        return true;
    s.piece[from] = 0;
    s.piece[to] = (unsigned char)(promo >= 0 ? piece_make(us, promo) : moved);
    bool res = true;
    for (int side = us;;) {
        do
            side = (side + 1) % v->nplayers;
        while (!army[side]);
        int taker = CELL_NONE;
        for (int c = 0; c < v->geo.ncells; c++)
            if (s.piece[c] && piece_colour(s.piece[c]) == side
                && (taker == CELL_NONE || sv->rank[piece_type(s.piece[c])] < sv->rank[piece_type(s.piece[taker])])
                && reference_captures(v, &s, c, to))
                taker = c;
        if (taker == CELL_NONE)
            break;
        res = !res;
        ++*takes;
        int t = piece_type(s.piece[taker]);
        if ((swap = (v->piece[t].royal ? 100000 : sv->value[t]) - swap) < res)
            break;
        s.piece[to] = s.piece[taker];
        s.piece[taker] = 0;
    }
    return res;
}

struct see_counts {
    long moves, exchanges;   /* captures and promotions compared; those answered after two takes back or more */
};

/* Every capture and promotion of the position: see_ge against see_slow at the threshold where see_ge's
 * answer turns (found by halving), one either side of it, and 0. */
static void visit_see(struct game *g, const move_t *list, int n, void *ctx)
{
    struct see_counts *counts = ctx;
    struct see_values sv;
    struct setup s;
    see_values_of(g, &sv);
    g->ops->position_get(g->pos, &s);
    for (int i = 0; i < n; i++) {
        move_t m = list[i];
        int target = s.piece[move_to(m)];
        bool capture = (target && piece_colour(target) != s.side) || (m & MOVE_EP);
        if ((!capture && move_promo(m) < 0) || (target && piece_colour(target) == s.side) || move_fission(m) >= 0)
            continue;
        int lo = -300000, hi = 300000;   /* see_ge(lo) holds, see_ge(hi) does not */
        while (hi - lo > 1) {
            int mid = lo + (hi - lo) / 2;
            *(g->ops->see_ge(g->tb, g->pos, m, mid) ? &lo : &hi) = mid;
        }
        const int thresholds[] = { lo - 1, lo, hi, 0 };
        int most = 0;
        for (int k = 0; k < 4; k++) {
            int takes = 0;
            bool fast = g->ops->see_ge(g->tb, g->pos, m, thresholds[k]);
            bool slow = see_slow(g, &sv, m, thresholds[k], &takes);
            most = takes > most ? takes : most;
            if (fast == slow)
                continue;
            char fen[512], text[32];
            game_fen(g, fen, sizeof fen);
            move_to_text(g->v, m, text);
            ck_abort_msg("%s (%d-bit) %s: see_ge(%s, %d) is %d, the slow exchange's answer is not", g->v->name,
                         g->ops->bits, fen, text, thresholds[k], fast);
        }
        counts->moves++;
        counts->exchanges += most >= 2;
    }
}

START_TEST(test_see_random)
{
    struct see_counts counts = { 0, 0 };
    test_walk_games(0x5ee, 60, visit_see, &counts);
    long k = test_sample();
    ck_assert_msg(counts.moves > 20000 / k && counts.exchanges > 5000 / k, "%ld captures, %ld exchanges",
                  counts.moves, counts.exchanges);
}
END_TEST

Suite *suite_search(void)
{
    Suite *s = suite_create("search");
    TCase *tc = tcase_create("mates");
    tcase_set_timeout(tc, test_timeout(10));
    tcase_add_loop_test(tc, test_mate, 0, (int)(sizeof mates / sizeof *mates));
    tcase_add_test(tc, test_go_mate);
    suite_add_tcase(s, tc);
    tc = tcase_create("stalemate");
    tcase_set_timeout(tc, test_timeout(20));
    tcase_add_test(tc, test_glinski_seeks_stalemate);
    tcase_add_test(tc, test_mccooey_keeps_the_bishop);
    tcase_add_test(tc, test_queen_mates_rather_than_stalemates);
    tcase_add_test(tc, test_glinski_avoids_being_stalemated);
    suite_add_tcase(s, tc);
    tc = tcase_create("limits");
    tcase_set_timeout(tc, test_timeout(20));
    tcase_add_test(tc, test_go_depth);
    tcase_add_test(tc, test_go_nodes);
    tcase_add_test(tc, test_go_movetime);
    tcase_add_test(tc, test_go_clock);
    tcase_add_test(tc, test_go_infinite);
    tcase_add_test(tc, test_ponder);
    tcase_add_loop_test(tc, test_pool_wakes, 0, (int)(sizeof pool_wakes / sizeof *pool_wakes));
    tcase_add_test(tc, test_pool_copies_the_weights);
    tcase_add_test(tc, test_searchmoves);
    tcase_add_test(tc, test_multipv);
    tcase_add_test(tc, test_skill_pick);
    tcase_add_test(tc, test_limit_strength);
    tcase_add_test(tc, test_no_legal_move);
    tcase_add_test(tc, test_stop_during_long_search);
    tcase_add_test(tc, test_quit_during_infinite);
    tcase_add_test(tc, test_progress_lines);
    tcase_add_test(tc, test_last_line_is_bestmove);
    tcase_add_test(tc, test_two_threads);
    tcase_add_test(tc, test_bad_option_values);
    tcase_add_test(tc, test_evaluation_option);
    tcase_add_loop_test(tc, test_evaluation_change_empties_table, 0, 2);
    tcase_add_test(tc, test_deterministic);
    tcase_add_test(tc, test_bench_deterministic);
    suite_add_tcase(s, tc);
    tc = tcase_create("exchange");
    tcase_add_loop_test(tc, test_see, 0, (int)(sizeof see_cases / sizeof *see_cases));
    tcase_set_timeout(tc, test_timeout(60));
    tcase_add_test(tc, test_see_random);
    suite_add_tcase(s, tc);
    tc = tcase_create("three players");
    tcase_set_timeout(tc, test_timeout(20));
    tcase_add_test(tc, test_ponder_after_fail_high);
    tcase_add_loop_test(tc, test_three_player_discovery, 0, 2);
    tcase_add_loop_test(tc, test_multi_player_capture, 0, 2 * (int)(sizeof multi_captures / sizeof *multi_captures));
    tcase_add_test(tc, test_mated_in_tree);
    tcase_add_test(tc, test_mate_moves);
    suite_add_tcase(s, tc);
    return s;
}
