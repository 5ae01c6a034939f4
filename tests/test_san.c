/* Hex SAN (engine/san.c, docs/notation.md): every legal move of random games in every variant written
 * and read back, its from-cell hint the shortest a brute-force count allows; worked examples. */
#include <stdio.h>
#include <string.h>

#include "../engine/san.h"
#include "tests.h"

/* The brute force: how many legal moves of the move's piece type go to its cell with its promotion
 * from a cell whose name has the same file (hint 1), rank (2) or is the same (3); hint 0 counts all. */
static int count_alike(const struct game *g, const move_t *list, int n, move_t m, int hint)
{
    struct setup s;
    g->ops->position_get(g->pos, &s);
    const struct geometry *geo = &g->v->geo;
    int type = move_fission(m) >= 0 ? move_fission(m) : piece_type(s.piece[move_from(m)]), k = 0;
    const char *from = geo->name[move_from(m)];
    for (int i = 0; i < n; i++) {
        int f = move_from(list[i]);
        int t = move_fission(list[i]) >= 0 ? move_fission(list[i]) : piece_type(s.piece[f]);
        bool alike = hint == 0 || (hint == 1 && geo->name[f][0] == from[0])
                     || (hint == 2 && !strcmp(geo->name[f] + 1, from + 1)) || (hint == 3 && f == move_from(m));
        k += alike && t == type && move_to(list[i]) == move_to(m) && move_promo(list[i]) == move_promo(m);
    }
    return k;
}

/* The hint the SAN wrote (0 none, 1 file, 2 rank, 3 cell): what stands between the piece letter and
 * the 'x' or the target. */
static int written_hint(const struct game *g, const char *san, move_t m)
{
    const char *from = g->v->geo.name[move_from(m)], *to = g->v->geo.name[move_to(m)];
    const char *at = san + (san[0] >= 'A' && san[0] <= 'Z');
    size_t len = strcspn(at, "x"), n = strlen(to);
    /* The target is the last place its name stands, not followed by a digit ("Re10e1"). */
    for (const char *t = at; (t = strstr(t, to)); t++)
        if (!(t[n] >= '0' && t[n] <= '9') && (size_t)(t - at) < len)
            len = (size_t)(t - at);
    if (!len)
        return 0;
    if (len == 1 && at[0] == from[0])
        return 1;
    if (len == strlen(from + 1) && !strncmp(at, from + 1, len))
        return 2;
    ck_assert_msg(len == strlen(from) && !strncmp(at, from, len), "%s: hint of %s", san, from);
    return 3;
}

struct round_trip {
    int moves, hinted[4];
};

static void check_round_trip(struct game *g, const move_t *list, int n, void *ctx)
{
    struct round_trip *rt = ctx;
    struct setup s;
    g->ops->position_get(g->pos, &s);
    for (int i = 0; i < n; i++) {
        char san[SAN_LEN], uci[16], err[512];
        move_t back = MOVE_NONE;
        move_to_text(g->v, list[i], uci);
        san_write(g, list[i], san);
        ck_assert_msg(san_read(g, san, &back, err, sizeof err), "%s: %s %s: %s", g->v->name, uci, san, err);
        ck_assert_msg(back == list[i], "%s: %s written %s reads back as another move", g->v->name, uci, san);
        if (!strncmp(san, "O-O", 3))
            continue;
        int type = move_fission(list[i]) >= 0 ? move_fission(list[i]) : piece_type(s.piece[move_from(list[i])]);
        bool capture = strchr(san, 'x') != NULL;
        bool pawn = !(san[0] >= 'A' && san[0] <= 'Z');
        ck_assert_msg(pawn || san[0] == g->v->piece[type].letter, "%s: %s written %s", g->v->name, uci, san);
        int hint = written_hint(g, san, list[i]);
        /* Shortest: every shorter hint fits another move (a pawn's capture names its file at least). */
        ck_assert_msg(count_alike(g, list, n, list[i], hint) == 1, "%s: %s written %s is ambiguous", g->v->name, uci,
                      san);
        for (int h = pawn && capture ? 1 : 0; h < hint; h++)
            ck_assert_msg(count_alike(g, list, n, list[i], h) > 1, "%s: %s written %s has a longer hint than needed",
                          g->v->name, uci, san);
        ck_assert_msg(hint >= (pawn && capture), "%s: %s written %s: a pawn's capture names its file", g->v->name,
                      uci, san);
        rt->moves++;
        rt->hinted[hint]++;
    }
}

START_TEST(test_round_trip)
{
    struct round_trip rt = { 0 };
    test_walk_games(0x5a11, 120, check_round_trip, &rt);
    ck_assert_int_gt(rt.moves, 100000 / test_sample());
    /* The walks reach every kind of hint. */
    for (int h = 0; h < 4; h++)
        ck_assert_msg(rt.hinted[h] > 0, "no move with hint %d among %d", h, rt.moves);
}
END_TEST

/* Positions of the worked examples (docs/notation.md). */
#define QUEENS "6/7/1k6/9/Q6Q2/3K7/10/9/7Q/7/6 w - - 0 1"
#define PAWNS "6/7/8/9/3P5r/4n4P1/K2P6/9/8/7/5k w - - 0 1"
#define CHECK "6/P1B3p/1P3pr1/N1P2p2n/QB1P1p2nq/1RK1P1p1b1b/3P2p2k/NBP3p1b/RP3p1r/P5p/6 b - - 3 10"
#define MATE "K5/4r2/8/1q7/10/11/10/9/8/7/5k b - - 0 1"
#define DEVASA "r/1n/2b/p2k/1p2b/2p2q/P2p2b/1P2p2n/RBPN1pp1r/1QP3p1/1BP3p/2P3/1NP2/K1P1/2P/1B/R w a9,a1,i9,i1 - 0 7"
#define ND_MCCOOEY                                                                                                     \
    "1s6/1S7/P2D5p/RP7pr/R3P5sr/U2P4p3u/UUPP5p1puu/KUPP7ppsk/2PP6ppuu/1UD1P4p1du/RSP4Sdp1r/RP5U1pr/P8p/8s/8 w "        \
    "d1,d11,e1,e12,l1,l12,m1,m11 - 0 18"
#define SLING "1/F1/2P/I6C2/S2p4c/S1spirg1/1GPP3/1I1plpl1/1R5L1/3P1p3i/s2/1L/1 b - - 0 44"
#define THREE "6/7/8/9/10/rG1wV8/10/2rE6/8/3bG3/wG5 b - - 0 1"
#define THREE_MATE "6/5bG1/2bV5/9/10/rG10/10/9/8/7/6 b - - 0 1"
#define THREE_CHECK                                                                                                   \
    "1bRbGbV1bE/bPbPbPbEbP1bP/1bE1bPbPbP2/9/rP7bRwP/rErPrE6wPwE/rRrPrP2wP1wPwPwR/rV1rP5wG/rG1rP2wEwPwV/rRrPrP2wPwR/"   \
    "rE3wPwE r - - 1 4"

struct example {
    const char *variant, *fen, *uci, *san;
};

/* The worked examples of docs/notation.md: each move written, and read back from what is written. */
static const struct example examples[] = {
    { "glinski", NULL, "f5f6", "f6" },
    { "glinski", NULL, "c1f4", "Rcf4" },
    { "glinski", NULL, "i1f4", "Rif4" },
    /* Three queens reach e3 and e7: e1 and e8 share a file, e8 and i8 a rank. */
    { "glinski", QUEENS, "e1e7", "Q1e7" },
    { "glinski", QUEENS, "i8e7", "Qie7" },
    { "glinski", QUEENS, "e8e7", "Qe8e7" },
    { "glinski", QUEENS, "e1e3", "Q1e3+" },
    { "glinski", QUEENS, "e8e3", "Qe8e3+" },
    { "glinski", QUEENS, "i8e3", "Qie3#" },
    { "glinski", PAWNS, "e4f5", "exf5" },
    { "glinski", PAWNS, "g4f5", "gxf5" },
    { "glinski", PAWNS, "f10f11q", "f11=Q+" },
    { "glinski", PAWNS, "f10f11n", "f11=N" },
    { "glinski", PAWNS, "f10e10q", "fxe10=Q" },
    { "glinski", CHECK, "f9b1", "Bxb1+" },
    { "glinski", MATE, "d2b1", "Qb1#" },
    { "devasa", DEVASA, "f1h1", "O-O" },
    { "devasa", DEVASA, "f1c1", "O-O-O" },
    { "nd-mccooey", ND_MCCOOEY, "h1k1", "Kk1" },
    /* Curved pieces: the Cohen, Finch and Rabbi. */
    { "mishling", NULL, "e3a1", "Ca1" },
    { "mishling", NULL, "g2h2", "Fh2" },
    { "mishling", NULL, "g3d4", "Id4" },
    /* Fusion onto a piece of one's own, no capture; fission written with the leaving component's letter. */
    { "mishling-fusion", NULL, "f3d2", "Ud2" },
    { "mishling-fusion", NULL, "f4f3", "Fff3" },
    { "mishling-fusion", NULL, "e3a1i", "Ia1" },
    { "mishling-fusion", NULL, "e3d4i", "Ied4" },
    { "mishling-fusion", NULL, "g3d4", "Igd4" },
    { "mishling-fusion", NULL, "e3d4", "Cd4" },
    { "flatstar", SLING, "h7d8", "Lxd8+" },
    /* Two pawn types: both keep their letters. */
    { "nd-trios", NULL, "c2c3", "Mc3" },
    { "nd-trios", NULL, "f4f5", "Pf5" },
    /* Three players: Red's Point checks Black's General; Red is mated and White's turn takes Black off; Black
     * mates Red, the last army. */
    { "wellisch", THREE_CHECK, "h3g4", "hg4+" },
    { "wellisch", THREE, "k4k3", "Gk3#" },
    { "wellisch", THREE_MATE, "c3f3", "Vf3#" },
};

START_TEST(test_examples)
{
    for (size_t i = 0; i < sizeof examples / sizeof *examples; i++) {
        const struct example *e = &examples[i];
        struct game g;
        char san[SAN_LEN], err[512];
        move_t m, back;
        test_game(&g, e->variant, e->fen, false);
        ck_assert_msg(game_parse_move(&g, e->uci, &m, err, sizeof err), "%s %s: %s", e->variant, e->uci, err);
        san_write(&g, m, san);
        ck_assert_msg(!strcmp(san, e->san), "%s %s: written %s, not %s", e->variant, e->uci, san, e->san);
        ck_assert_msg(san_read(&g, san, &back, err, sizeof err) && back == m, "%s %s: %s", e->variant, san, err);
        game_free(&g);
    }
}
END_TEST

/* What the reader takes besides what the writer writes, and its refusals. */
START_TEST(test_reading)
{
    static const struct {
        const char *variant, *fen, *text, *uci;   /* uci: the move read, or the start of the error */
    } cases[] = {
        { "glinski", NULL, "Rc1f4", "c1f4" },
        { "glinski", NULL, "Rc1-f4", "c1f4" },
        { "glinski", NULL, "Rcxf4", "c1f4" },
        { "glinski", NULL, "f5-f6", "f5f6" },
        { "glinski", NULL, "Pf5f6", "f5f6" },
        { "glinski", NULL, "Pf6", "f5f6" },
        { "glinski", NULL, "f6!?", "f5f6" },
        { "glinski", NULL, "F5F6", "f5f6" },
        { "glinski", NULL, "Rf4", "ambiguous move 'Rf4': it may be Rcf4, Rif4" },
        { "glinski", NULL, "R1f4", "ambiguous move 'R1f4': it may be Rcf4, Rif4" },
        { "glinski", NULL, "Qf4", "illegal move 'Qf4'" },
        { "glinski", NULL, "Bc1f4", "the piece on c1 is a rook (R), not B" },
        { "glinski", NULL, "Ne4e5", "the piece on e4 is a pawn (P), not N" },
        { "glinski", NULL, "Nf6f7", "there is no piece on f6, so no N" },
        { "glinski", NULL, "hello", "illegal move 'hello'" },
        { "glinski", NULL, "O-O", "illegal move 'O-O'" },
        { "glinski", QUEENS, "Qie3", "i8e3" },
        { "glinski", QUEENS, "Qi8xe3#", "i8e3" },
        { "glinski", QUEENS, "Qe3", "ambiguous move 'Qe3': it may be Q1e3+, Qe8e3+, Qie3#" },
        { "glinski", QUEENS, "Qee3", "ambiguous move 'Qee3': it may be Q1e3+, Qe8e3+" },
        { "glinski", PAWNS, "f11Q", "f10f11q" },
        { "glinski", PAWNS, "f11=q", "f10f11q" },
        { "glinski", PAWNS, "f10f11=N", "f10f11n" },
        { "glinski", PAWNS, "fe10Q", "f10e10q" },
        { "glinski", PAWNS, "ef5", "e4f5" },
        { "glinski", PAWNS, "xf5", "ambiguous move 'xf5': it may be exf5, gxf5" },
        { "glinski", PAWNS, "f11", "ambiguous move 'f11': it may be f11=Q+, f11=R+, f11=B, f11=N" },
        { "glinski", PAWNS, "f11=K", "illegal move 'f11=K'" },
        { "glinski", MATE, "Qb1", "d2b1" },
        { "devasa", DEVASA, "0-0", "f1h1" },
        { "devasa", DEVASA, "0-0-0", "f1c1" },
        { "devasa", DEVASA, "Kh1", "f1h1" },
        { "nd-mccooey", ND_MCCOOEY, "O-O", "illegal move 'O-O'" },
        { "mishling-fusion", NULL, "e3a1i", "e3a1i" },
        { "mishling-fusion", NULL, "Ie3a1", "e3a1i" },
        { "mishling-fusion", NULL, "Ce3a1", "e3a1" },
        { "mishling-fusion", NULL, "Id4", "ambiguous move 'Id4': it may be Ied4, Igd4" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct game g;
        char err[512], uci[16];
        move_t m;
        test_game(&g, cases[i].variant, cases[i].fen, false);
        if (game_parse_move(&g, cases[i].text, &m, err, sizeof err)) {
            move_to_text(g.v, m, uci);
            ck_assert_msg(!strcmp(uci, cases[i].uci), "%s: '%s' read as %s", cases[i].variant, cases[i].text, uci);
        } else {
            ck_assert_msg(!strcmp(err, cases[i].uci), "%s: '%s': %s", cases[i].variant, cases[i].text, err);
        }
        game_free(&g);
    }
}
END_TEST

/* A line of moves from the game's position, which stays as it was; an illegal move and those after it
 * as UCI text; a buffer too short keeps the moves that fit. */
START_TEST(test_line)
{
    struct game g;
    char line[128], fen[2048], before[2048];
    test_game(&g, "glinski", PAWNS, false);
    game_fen(&g, before, sizeof before);
    move_t moves[4];
    const char *const uci[] = { "e4f5", "l6l5", "f10f11q", "e10f11" };
    for (int i = 0; i < 4; i++) {
        struct game t;
        char err[256];
        test_game(&t, "glinski", PAWNS, false);
        ck_assert(game_set_position(&t, PAWNS, (char *const *)uci, i, err, sizeof err));
        ck_assert_msg(game_parse_move(&t, uci[i], &moves[i], err, sizeof err), "%s", err);
        game_free(&t);
    }
    ck_assert(san_line(&g, moves, 4, line, sizeof line));
    ck_assert_str_eq(line, "exf5 Kl5 f11=Q Rxf11");
    moves[1] = moves[0];
    ck_assert(san_line(&g, moves, 3, line, sizeof line));
    ck_assert_str_eq(line, "exf5 e4f5 f10f11q");
    ck_assert(!san_line(&g, moves, 3, line, 10));
    ck_assert_str_eq(line, "exf5 e4f5");
    game_fen(&g, fen, sizeof fen);
    ck_assert_str_eq(fen, before);
    game_free(&g);
}
END_TEST

Suite *suite_san(void)
{
    Suite *s = suite_create("san");
    TCase *tc = tcase_create("san");
    tcase_set_timeout(tc, test_timeout(120));
    tcase_add_test(tc, test_examples);
    tcase_add_test(tc, test_reading);
    tcase_add_test(tc, test_line);
    tcase_add_test(tc, test_round_trip);
    suite_add_tcase(s, tc);
    return s;
}
