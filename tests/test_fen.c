/* FEN in and out (protocol.md): round trips, the Glinski array of docs/variants.md, and refusals. */
#include <stdio.h>
#include <string.h>

#include "../rules/registry.h"
#include "tests.h"

static const char *const start_fens[][2] = {
    { "glinski", "6/P5p/RP4pr/N1P3p1n/Q2P2p2q/BBB1P1p1bbb/K2P2p2k/N1P3p1n/RP4pr/P5p/6 w - - 0 1" },
    { "mccooey", "6/7/P6p/RP5pr/QNP4pnq/BBBP3pbbb/KNP4pnk/RP5pr/P6p/7/6 w - - 0 1" },
    { "haynie", "2ppfb/3ppnr/P3ppwq/PP3ppbk/FPP3ppwr/BNPP3ppnb/RWPP3ppf/QBPP3pp/KWPP3p/RNPP3/BFPP2 w - - 0 1" },
    { "full-house", "6/P5p/RP4pr/NHP3phn/QTEP2petq/KBBBP1pbbbk/UMSP2psmu/NYP3pyn/RP4pr/P5p/6 w - - 0 1" },
};

static void assert_round_trip(const char *variant, const char *fen, bool wide)
{
    struct game g;
    char out[2048];
    test_game(&g, variant, fen, wide);
    game_fen(&g, out, sizeof out);
    ck_assert_str_eq(out, fen);
    ck_assert_uint_eq(g.ops->position_key(g.pos), g.ops->position_compute_key(g.pos));
    game_free(&g);
}

START_TEST(test_start_fens_round_trip)
{
    for (size_t i = 0; i < sizeof start_fens / sizeof *start_fens; i++) {
        ck_assert_str_eq(test_variant(start_fens[i][0])->start_fen, start_fens[i][1]);
        assert_round_trip(start_fens[i][0], start_fens[i][1], false);
        assert_round_trip(start_fens[i][0], start_fens[i][1], true);
    }
    for (int i = 0; i < registry_count(); i++)
        assert_round_trip(registry_get(i)->name, registry_get(i)->start_fen, false);
    assert_round_trip("glinski", "6/7/8/4p4/5P4/5p5/K8k/9/8/7/6 b - e5 0 1", false);
    assert_round_trip("glinski", "6/7/8/9/10/k10/10/9/8/7/K5 b - - 17 42", false);
}
END_TEST

/* docs/variants.md, glinski: White K g1, Q e1, R c1 i1, N d1 h1, B f1 f2 f3, pawns b1 c2 d3 e4 f5 g4 h3 i2 k1. */
START_TEST(test_glinski_array)
{
    const struct variant *v = test_variant("glinski");
    struct setup s;
    char err[256];
    ck_assert(setup_from_fen(&s, v, v->start_fen, err, sizeof err));
    const char *white = "Kg1 Qe1 Rc1 Ri1 Nd1 Nh1 Bf1 Bf2 Bf3 Pb1 Pc2 Pd3 Pe4 Pf5 Pg4 Ph3 Pi2 Pk1";
    const char *black = "kg10 qe10 rc8 ri8 nd9 nh9 bf9 bf10 bf11 pb7 pc7 pd7 pe7 pf7 pg7 ph7 pi7 pk7";
    int placed = 0;
    for (const char *list = white; list; list = list == white ? black : NULL) {
        char buf[256], *save;
        strcpy(buf, list);
        for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
            int c = geo_parse_cell(&v->geo, t + 1, NULL);
            char text[SETUP_PIECE_TEXT];
            ck_assert_int_ne(c, CELL_NONE);
            ck_assert_int_ne(s.piece[c], 0);
            setup_piece_text(v, s.piece[c], text);
            ck_assert_msg(text[0] == t[0], "%s holds %s", t + 1, text);
            placed++;
        }
    }
    int total = 0;
    for (int c = 0; c < v->geo.ncells; c++)
        total += s.piece[c] != 0;
    ck_assert_int_eq(total, placed);
}
END_TEST

static void assert_refused(const char *variant, const char *fen, const char *why)
{
    struct game g;
    char err[256], before[2048], after[2048];
    test_game(&g, variant, NULL, false);
    game_fen(&g, before, sizeof before);
    ck_assert_msg(!game_set_position(&g, fen, NULL, 0, err, sizeof err), "accepted %s", fen);
    ck_assert_msg(strstr(err, why) != NULL, "'%s': got '%s', expected '%s'", fen, err, why);
    game_fen(&g, after, sizeof after);
    ck_assert_str_eq(before, after);
    game_free(&g);
}

START_TEST(test_bad_fens_refused)
{
    const char *v = "glinski";
    assert_refused(v, "", "expected board");
    assert_refused(v, "6/7/8/9/10/k10/10/9/8/7/K5", "expected board");
    assert_refused(v, "6/7/8/9/10/k10/10/9/8/7/K6 w - - 0 1", "too many cells in file l");
    assert_refused(v, "6/7/8/9/10/k9/10/9/8/7/K5 w - - 0 1", "wrong number of cells in file f");
    assert_refused(v, "6/7/8/9/10/k10/10/9/8/7 w - - 0 1", "does not fill every file");
    assert_refused(v, "6/7/8/9/10/k10/10/9/8/7/K5/1 w - - 0 1", "too many files");
    assert_refused(v, "6/7/8/9/10/k9Z/10/9/8/7/K5 w - - 0 1", "unknown piece in file f");
    assert_refused(v, "6/7/8/9/10/k10/10/9/8/7/6 w - - 0 1", "wrong number of royal pieces (w has 0");
    assert_refused(v, "6/7/8/9/10/kk9/10/9/8/7/K5 w - - 0 1", "wrong number of royal pieces (b has 2");
    assert_refused(v, "6/7/8/9/10/k10/10/9/8/7/K5 x - - 0 1", "bad side to move");
    assert_refused(v, "6/7/8/9/10/k10/10/9/8/7/K5 w a1 - 0 1", "castling");
    assert_refused(v, "6/7/8/9/10/k10/10/9/8/7/K5 w - z9 0 1", "bad en-passant cell");
    assert_refused(v, "6/7/8/9/10/k10/10/9/8/7/K5 w - e5 0 1", "no pawn has just passed");
    assert_refused(v, "6/7/8/9/10/k10/10/9/8/7/K5 w - - -1 1", "bad halfmove");
    assert_refused(v, "6/7/8/9/10/k10/10/9/8/7/K5 w - - 0 0", "bad fullmove");
    assert_refused(v, "6/7/8/9/10/k10/10/9/8/7/K5 w - - 0 1x", "bad fullmove");
    assert_refused(v, "6/7/8/9/10/k10/10/9/8/7/K5 w - - 0 1 extra", "expected board");
    assert_refused(v, "6/7/8/9/10/00k10/10/9/8/7/K5 w - - 0 1", "too many cells");
    /* Counts far past a file's length, after a piece so that they would overflow rank + count. */
    assert_refused(v, "6/7/8/9/10/k9223372036854775807k10/10/9/8/7/K5 w - - 0 1", "too many cells in file f");
    assert_refused(v, "6/7/8/9/10/k99999999999999999999k10/10/9/8/7/K5 w - - 0 1", "too many cells in file f");
    assert_refused(v, "k9223372036854775807k5/7/8/9/10/11/10/9/8/7/K5 w - - 0 1", "too many cells in file a");
    assert_refused(v, "6/7/8/9/10/k4294967295k10/10/9/8/7/K5 w - - 0 1", "too many cells in file f");
    assert_refused(v, "6/7/8/9/10/k10/10/9/8/7/K5 w - - 99999999999999999999 1", "bad halfmove clock");
    assert_refused(v, "6/7/8/9/10/k10/10/9/8/7/K5 w - - 0 9223372036854775807", "bad fullmove number");
    assert_refused(v, "6/7/8/9/10/k10/10/9/8/7/K5 w - - 0 1000000001", "bad fullmove number");
    /* Black's king on f6 stands on the white queen's file with White to move: Black just moved into check. */
    assert_refused(v, "6/7/8/9/10/Q4k5/10/9/8/7/K5 w - - 0 1", "just moved");
}
END_TEST

/* Fusion games write compounds by their components, (RU), and read the compound's own letter too:
 * the same piece, the same key. */
START_TEST(test_compound_fen)
{
    const char *fen = "6/P5p/RP4pr/SIP3pis/(RU)I(FI)P2p(fi)i(ru)/UUUFP1pfuuu/KFIP2pifk/S1P3p1s/RP4pr/P5p/6 w - - 0 1";
    assert_round_trip("mishling-fusion", fen, false);
    assert_round_trip("mishling-fusion", fen, true);
    struct game a, b;
    char out[2048];
    test_game(&a, "mishling-fusion", fen, false);
    test_game(&b, "mishling-fusion", "6/P5p/RP4pr/SIP3pis/DICP2pcid/UUUFP1pfuuu/KFIP2pifk/S1P3p1s/RP4pr/P5p/6 w - - 0 1",
              false);
    game_fen(&b, out, sizeof out);
    ck_assert_str_eq(out, fen);
    ck_assert_uint_eq(a.ops->position_key(a.pos), b.ops->position_key(b.pos));
    game_free(&a);
    game_free(&b);
    /* Components in either order; a pair that does not fuse, mixed case or a bad bracket is refused. */
    struct setup st;
    char err[256];
    const struct variant *v = test_variant("mishling-fusion");
    ck_assert(setup_from_fen(&st, v, "6/7/8/9/10/5(UR)5/10/9/8/7/K4k w - - 0 1", err, sizeof err));
    setup_to_fen(&st, v, out, sizeof out);
    ck_assert_str_eq(out, "6/7/8/9/10/5(RU)5/10/9/8/7/K4k w - - 0 1");
    assert_refused("mishling-fusion", "6/7/8/9/10/5(RR)5/10/9/8/7/K4k w - - 0 1", "unknown piece in file f");
    assert_refused("mishling-fusion", "6/7/8/9/10/5(RS)5/10/9/8/7/K4k w - - 0 1", "unknown piece in file f");
    assert_refused("mishling-fusion", "6/7/8/9/10/5(Ru)5/10/9/8/7/K4k w - - 0 1", "unknown piece in file f");
    assert_refused("mishling-fusion", "6/7/8/9/10/5(RU5/10/9/8/7/K4k w - - 0 1", "unknown piece in file f");
    /* Divergent Fusion. Where a Duchess divides into the pair that formed it, the two Duchesses are two
     * pieces, written by their pairs: (RU) and (WX), with their own keys; D and Q read as them. */
    const char *two = "6/7/8/9/10/4(RU)(WX)5/10/9/8/7/K4k b - - 0 1";
    assert_round_trip("waitress-fusion", two, false);
    test_game(&a, "waitress-fusion", two, false);
    test_game(&b, "waitress-fusion", "6/7/8/9/10/4(WX)(RU)5/10/9/8/7/K4k b - - 0 1", false);
    ck_assert_uint_ne(a.ops->position_key(a.pos), b.ops->position_key(b.pos));
    game_free(&b);
    test_game(&b, "waitress-fusion", "6/7/8/9/10/4DQ5/10/9/8/7/K4k b - - 0 1", false);
    ck_assert_uint_eq(a.ops->position_key(a.pos), b.ops->position_key(b.pos));
    game_free(&a);
    game_free(&b);
    /* Where it divides into either pair it is one piece, written by its letter; either pair reads as it. */
    assert_round_trip("waitress-fusion-swap", "6/7/8/9/10/4Dd5/10/9/8/7/K4k w - - 0 1", false);
    v = test_variant("waitress-fusion-swap");
    ck_assert(setup_from_fen(&st, v, "6/7/8/9/10/4(WX)(ur)5/10/9/8/7/K4k w - - 0 1", err, sizeof err));
    setup_to_fen(&st, v, out, sizeof out);
    ck_assert_str_eq(out, "6/7/8/9/10/4Dd5/10/9/8/7/K4k w - - 0 1");
    assert_round_trip("shammes-fusion", "6/7/8/9/10/4(FI)(mn)(FM)4/10/9/8/7/K4k w - - 0 1", false);
    assert_round_trip("shammes-fusion-swap", "6/7/8/9/10/4C(fm)c4/10/9/8/7/K4k w - - 0 1", false);
    /* Without fusion a compound keeps its own letter. */
    assert_round_trip("mishling", "6/7/8/9/10/11/10/9/8/1D5/K4k w - - 0 1", false);
}
END_TEST

/* Three-player FENs: colour-prefixed pieces and r/w/b sides, on a variant defined here. */
START_TEST(test_three_player_fen)
{
    char err[512];
    test_variant("glinski");
    const char *text = "[tri-test]\nboard = hexagon 6\norientation = wellisch\nplayers = 3\n"
                       "piece = general G W royal\npiece = rook R R\n"
                       "start = rG5/7/8/9/10/11/10/9/8/7/wG4bG w - - 0 1\n";
    ck_assert_int_eq(registry_add_text(text, "tri.ini", false, game_validate_variant, err, sizeof err), 1);
    const struct variant *v = test_variant("tri-test");
    struct setup s;
    char out[512];
    ck_assert_msg(setup_from_fen(&s, v, "rG5/7/8/9/10/4rR6/10/9/8/7/wG4bG b - - 3 7", err, sizeof err), "%s", err);
    ck_assert_int_eq(s.side, 2);
    setup_to_fen(&s, v, out, sizeof out);
    ck_assert_str_eq(out, "rG5/7/8/9/10/4rR6/10/9/8/7/wG4bG b - - 3 7");
    ck_assert(!setup_from_fen(&s, v, "rG5/7/8/9/10/4RR6/10/9/8/7/wG4bG r - - 0 1", err, sizeof err));
    /* An eliminated army has no pieces; the side to move must still have its royal. */
    ck_assert(setup_from_fen(&s, v, "rG5/7/8/9/10/11/10/9/8/7/wG5 r - - 0 1", err, sizeof err));
    ck_assert(!setup_from_fen(&s, v, "rG5/7/8/9/10/11/10/9/8/7/wG5 b - - 0 1", err, sizeof err));
    /* Pieces without their royal would stay on the board for good: refused. */
    ck_assert(!setup_from_fen(&s, v, "rG5/7/8/9/10/4bR6/10/9/8/7/wG5 r - - 0 1", err, sizeof err));
    ck_assert_str_eq(err, "bad FEN: wrong number of royal pieces (b has 0, needs 1)");
}
END_TEST

/* The castling field (protocol.md): the rooks' cells, written by file, then rank, read in any order; a
 * right needs its royal and the rook that starts there at home. Rights are part of the key. */
/* Four players (nd-wellisch-4p): w r b g sides, each letter read in its army's pieces, and a double
 * step kept open for the next army of its kind. */
START_TEST(test_four_player_fen)
{
    const struct variant *v = test_variant("nd-wellisch-4p");
    struct setup s;
    char err[512], out[1024];
    /* Red's pawn went m9-k9, Black moved: Green may take on l9 (the pawn is Red's, two armies back). */
    const char *ep = "gK6bG/9/10/11/12/13/14/3wP7bP3/9gP4/7gPrP4/12/11/10/9/wG6rK g - l9 0 1";
    ck_assert_msg(setup_from_fen(&s, v, ep, err, sizeof err), "%s", err);
    ck_assert_int_eq(s.side, 3);
    ck_assert_int_eq(piece_colour(s.piece[s.ep_victim]), 1);
    setup_to_fen(&s, v, out, sizeof out);
    ck_assert_str_eq(out, ep);
    /* With White to move the step is no one's to take any more: no such pawn of the armies since. */
    ck_assert(!setup_from_fen(&s, v, "gK6bG/9/10/11/12/13/14/3wP7bP3/9gP4/7gPrP4/12/11/10/9/wG6rK w - l9 0 1", err,
                              sizeof err));
    ck_assert_str_eq(err, "bad FEN: no pawn has just passed the en-passant cell l9");
    /* With Black gone, White's own step g1-g3 stays in the state until White moves again (no one takes
     * it): the engine writes that position and must read it back. */
    const char *own = "gK7/9/10/11/12/13/2wP11/15/14/13/12/11/10/9/wG6rK w - g2 0 3";
    ck_assert_msg(setup_from_fen(&s, v, own, err, sizeof err), "%s", err);
    ck_assert_int_eq(piece_colour(s.piece[s.ep_victim]), 0);
    setup_to_fen(&s, v, out, sizeof out);
    ck_assert_str_eq(out, own);
    /* A letter of another army's piece is unknown: White has no Knight. */
    ck_assert(!setup_from_fen(&s, v, "gK6bG/9/10/11/12/13/14/3wN7bP3/14/13/12/11/10/9/wG6rK w - - 0 1", err,
                              sizeof err));
    ck_assert_str_eq(err, "bad FEN: unknown piece in file h");
    /* Red needs its King (an army with pieces but no royal). */
    ck_assert(!setup_from_fen(&s, v, "gK6bG/9/10/11/12/13/14/15/14/13/12/11/10/9/wG6rQ w - - 0 1", err, sizeof err));
    ck_assert_str_eq(err, "bad FEN: wrong number of royal pieces (r has 0, needs 1)");
    /* Eliminated armies have no pieces. */
    ck_assert(setup_from_fen(&s, v, "8/9/10/11/12/13/14/7bG7/14/13/12/11/10/9/wG7 b - - 0 9", err, sizeof err));
}
END_TEST

START_TEST(test_castling_fen)
{
    const char *home = "8/9/10/11/R10r/13/14/K13k/14/13/R10r/11/10/9/8";
    char fen[512], out[512];
    assert_round_trip("castle-nd", test_variant("castle-nd")->start_fen, false);
    for (int wide = 0; wide < 2; wide++)
        assert_round_trip("castle-tri", "3bR1bK/7/7bR/rR8/10/rK10/10/rR8/7wR/7/3wR1wK w a4,d1,h1,l4 - 3 2", wide);
    snprintf(fen, sizeof fen, "%s b e1,l12 - 0 1", home);
    assert_round_trip("castle-nd", fen, false);
    struct game g, none;
    snprintf(fen, sizeof fen, "%s w l12,e1,l1 - 0 1", home);
    test_game(&g, "castle-nd", fen, false);
    game_fen(&g, out, sizeof out);
    snprintf(fen, sizeof fen, "%s w e1,l1,l12 - 0 1", home);
    ck_assert_str_eq(out, fen);
    snprintf(fen, sizeof fen, "%s w e1,l12 - 0 1", home);
    test_game(&none, "castle-nd", fen, false);
    ck_assert_uint_ne(g.ops->position_key(g.pos), none.ops->position_key(none.pos));
    game_free(&g);
    game_free(&none);

    static const struct {
        const char *board, *castling, *why;
    } bad[] = {
        { NULL, "z9", "no castling rook starts on z9" },
        { NULL, "e5", "no castling rook starts on e5" },
        { NULL, "e1,e1", "castling rook listed twice: e1" },
        { NULL, "e1,", "bad castling field e1," },
        { NULL, ",e1", "bad castling field ,e1" },
        { NULL, "e1,,l1", "bad castling field e1,,l1" },
        { "8/9/10/11/R10r/13/14/1K12k/14/13/R10r/11/10/9/8", "e12,l1", "castling right without the royal piece on h1" },
        { "8/9/10/11/U10r/13/14/K13k/14/13/R10r/11/10/9/8", "e1", "castling right without its rook on e1" },
        { "8/9/10/11/r10r/13/14/K13k/14/13/R10r/11/10/9/8", "e1", "castling right without its rook on e1" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(fen, sizeof fen, "%s w %s - 0 1", bad[i].board ? bad[i].board : home, bad[i].castling);
        assert_refused("castle-nd", fen, bad[i].why);
    }
    assert_refused("glinski", "6/7/8/9/10/k10/10/9/8/7/K5 w a1 - 0 1", "this variant has no castling");
}
END_TEST

/* Shafran: a triple step's field lists both cells passed; a rook castling by two rules (short and long)
 * is listed once and keys one right. */
START_TEST(test_multi_step_fen)
{
    const char *board = "6/7/6p1/1P1pP4/K3P3pk/4pP1p1/1P6/7/6";
    char fen[512], out[512];
    snprintf(fen, sizeof fen, "%s b - e3e4 0 1", board);
    for (int wide = 0; wide < 2; wide++)
        assert_round_trip("shafran", fen, wide);
    struct game g;
    test_game(&g, "shafran", "6/7/6p1/1P1pP4/KP6pk/4pP1p1/1P6/7/6 w - - 0 1", false);
    ck_assert(game_set_position(&g, "6/7/6p1/1P1pP4/KP6pk/4pP1p1/1P6/7/6 w - - 0 1", (char *[]){ "e2e5" }, 1,
                                out, sizeof out));
    game_fen(&g, out, sizeof out);
    ck_assert_str_eq(out, fen);
    game_free(&g);
    static const char *const bad[][2] = {
        { "e3", "no pawn has just passed the en-passant cell e3" },    /* one cell: a double step, to e4 */
        { "e4", "no pawn has just passed the en-passant cell e4" },
        { "e3e5", "no pawn has just passed the en-passant cell e3e5" }, /* e5 named after one cell */
        { "e4e3", "no pawn has just passed the en-passant cell e4e3" }, /* the cells out of order */
        { "e3e4e5e6", "bad en-passant cell e3e4e5e6" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(fen, sizeof fen, "%s b - %s 0 1", board, bad[i][0]);
        assert_refused("shafran", fen, bad[i][1]);
    }
    assert_round_trip("shafran", test_variant("shafran")->start_fen, false);
    struct game all, one;
    test_game(&all, "shafran", "RP2pr/NP3pb/BP4pn/QP5pb/KP6pk/BP5pq/NP4pb/BP3pn/RP2pr w a1,i10 - 0 1", false);
    test_game(&one, "shafran", "RP2pr/NP3pb/BP4pn/QP5pb/KP6pk/BP5pq/NP4pb/BP3pn/RP2pr w i10 - 0 1", false);
    ck_assert_uint_ne(all.ops->position_key(all.pos), one.ops->position_key(one.pos));
    game_free(&all);
    game_free(&one);
}
END_TEST

Suite *suite_fen(void)
{
    Suite *s = suite_create("fen");
    TCase *tc = tcase_create("fen");
    tcase_add_test(tc, test_start_fens_round_trip);
    tcase_add_test(tc, test_glinski_array);
    tcase_add_test(tc, test_bad_fens_refused);
    tcase_add_test(tc, test_three_player_fen);
    tcase_add_test(tc, test_four_player_fen);
    tcase_add_test(tc, test_compound_fen);
    tcase_add_test(tc, test_castling_fen);
    tcase_add_test(tc, test_multi_step_fen);
    suite_add_tcase(s, tc);
    return s;
}
